"""The build's package installed from a wheel, not editable, into a fresh virtual
environment: a tiny project that uses figures, notebooks, citations, equations, typeset and
assets builds strictly, with every path from the project, none from where the package is
installed (site-packages has no node_modules, no .cache, no scripts/figures)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import tiny
from test_plugins_tiny import FIGURE, TINY_PACKAGE, TINY_PKG

ROOT = Path(__file__).resolve().parent.parent
# what the wheel is made of (pyproject.toml: packages, package-dir, package-data, readme)
SOURCES = ("pyproject.toml", "README.md", "mlnotes", "scripts/mlnotes_site")


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command}:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    return result


def _wheel(tmp_path: Path) -> Path:
    """A wheel of the project, built from a copy of its sources (setuptools writes build/
    and *.egg-info where it builds), with this environment's setuptools."""
    src = tmp_path / "src"
    for rel in SOURCES:
        if (ROOT / rel).is_dir():
            shutil.copytree(ROOT / rel, src / rel, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, src / rel)
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    _run([*pip, "-w", str(dist), str(src)])
    [wheel] = dist.glob("mlnotes-*.whl")
    return wheel


def _environment(tmp_path: Path, wheel: Path) -> Path:
    """A fresh virtual environment with the wheel installed, and the rest of the stack
    (torch, MkDocs, ...) this environment's: each entry of its site-packages linked into
    the new one's, but those of the editable install of this checkout (its dist-info, and
    the `__editable__` finder that maps `mlnotes_site` to scripts/), which would shadow the
    wheel's modules or give its entry points twice; and the stack's data files likewise."""
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    new = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
        ).stdout.strip()
    )
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        name = entry.name
        if name.startswith(("__editable__", "mlnotes-", "mlnotes_site", "mlnotes.")) or name in (
            "mlnotes",
            "__pycache__",
        ):
            continue
        (new / name).symlink_to(entry)
    # the data files of the stack (share/jupyter: nbconvert's templates, the kernel spec)
    (venv / "share").mkdir(exist_ok=True)
    for entry in (Path(sys.prefix) / "share").iterdir():
        (venv / "share" / entry.name).symlink_to(entry)
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)])
    return venv


# imported by the build's process before it builds: where the plugins come from
DRIVER = """
import json, sys
from importlib import metadata
import mlnotes_site
points = [
    (p.name, str(p.dist.locate_file("")))
    for p in metadata.entry_points(group="mkdocs.plugins")
    if p.name.startswith("mlnotes-")
]
print("PACKAGE " + json.dumps({"file": mlnotes_site.__file__, "entry_points": points}), flush=True)
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", "build", "--strict", "-d", sys.argv[1]]
cli()
"""

NOTES = (
    "# Tiny notes\n\nDeep nets [@goodfellow2016].\n\n![Areas](figures/x.svg)\n\n"
    "$$\n\\begin{equation} P = 2 \\pi r \\label{eq:perimeter} \\end{equation}\n$$\n\n"
    "$$\n\\begin{equation} A = \\pi r^2 \\label{eq:area} \\end{equation}\n$$\n\n"
    "By \\eqref{eq:area}, inline $\\frac{a}{b}$.\n"
)


@pytest.mark.slow
def test_the_package_installed_from_a_wheel_builds_a_tiny_project(tmp_path):
    venv = _environment(tmp_path, _wheel(tmp_path))
    site_packages = next((venv / "lib").glob("python3*/site-packages"))
    templates = site_packages / "mlnotes_site" / "templates"
    assert templates.is_dir() and not templates.is_symlink()  # the wheel's package data
    tree = tiny.project(
        tmp_path / "tiny",
        {
            **TINY_PACKAGE,  # the figures' mlnotes: the project's own (not the wheel's)
            **TINY_PKG,
            "docs/notes.md": NOTES,
            "docs/references.bib": tiny.BIB,
            "scripts/figures/x.py": FIGURE.format(extra=""),
            "docs/notebooks/nb.py": "# %% [markdown]\n# # A notebook\n\n# %%\nprint(6 * 7)\n",
        },
        plugins=[
            {
                "mkdocs-jupyter": {
                    "include": ["notebooks/*.py", "notebooks/*.ipynb"],
                    "execute": False,
                }
            },
            {
                "mkdocstrings": {
                    "custom_templates": str(templates),
                    "handlers": {
                        "python": {
                            "paths": ["."],
                            "options": {
                                "extensions": ["mlnotes_site.plugins.equations:EquationsExtension"]
                            },
                        }
                    },
                }
            },
            {"mlnotes-figures": {"jobs": 1}},
            "mlnotes-assets",
            "mlnotes-notebooks",
            {"mlnotes-citations": {"bib_file": "references.bib"}},
            {"mlnotes-equations": {"package": "tinypkg"}},
            "mlnotes-typeset",
            # the cards' layout is the wheel's package data (mlnotes_site/cards/)
            {"social": {"cards_layout": "mlnotes"}},
            "mlnotes-cards",
        ],
        node_modules=True,  # the project's npm packages (MathJax)
    )
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MLNOTES_FIGURE_CACHE")
    }
    env.update(NO_MKDOCS_2_WARNING="1", PATH=f"{venv / 'bin'}{os.pathsep}{env['PATH']}")
    site = tmp_path / "site"
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-c", DRIVER, str(site)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-6000:]
    line = next(x for x in result.stdout.splitlines() if x.startswith("PACKAGE "))
    package = json.loads(line.removeprefix("PACKAGE "))
    # mlnotes_site from the wheel, installed in the new environment, not this checkout's
    assert Path(package["file"]) == site_packages / "mlnotes_site" / "__init__.py", package
    assert not Path(package["file"]).resolve().is_relative_to(ROOT)
    names = [name for name, _ in package["entry_points"]]
    assert len(names) == len(set(names)) >= 8, package["entry_points"]  # each plugin once
    assert {Path(where) for _, where in package["entry_points"]} == {site_packages}

    built = tiny.Built(tree, result.returncode, result.stderr, site)
    # MkDocs' warnings (the notebook kernels log "[IPKernelApp] WARNING" lines of their own)
    assert [w for w in built.warnings if w.startswith("WARNING")] == [], built.stderr[-3000:]
    notes = built.text("notes/index.html")
    assert "figures/x.svg" in notes and {"figures/x.svg", "figures/x-dark.svg"} <= set(built.files)
    assert "Goodfellow et al., 2016" in notes  # the citation
    assert 'id="eq:area"' in notes and "Computed by" in notes  # the equations
    assert "<mjx-container" in notes  # typeset
    assert "javascripts/mathjax/tex-chtml.js" in built.files  # assets, from node_modules
    assert "<pre>42" in built.text("notebooks/nb/index.html")  # executed
    # the caches are the project's, next to its mkdocs.yml, none next to the package
    assert json.loads((tree / ".cache/figures/last-run.json").read_text())["built"] == ["x"]
    assert (tree / ".cache/notebooks/nb.ipynb").is_file()
    assert list((tree / ".cache/typeset").glob("*.json.gz"))
    assert "assets/images/social/notes.png" in built.files  # a card, from the wheel's layout
    assert list((tree / ".cache/plugin/social").glob("*/fonts/DejaVu Sans/Bold.ttf"))
    assert not [p for p in venv.rglob("*") if p.name in (".cache", "node_modules", "figures")]
