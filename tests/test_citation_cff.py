"""CITATION.cff (GitHub's "Cite this repository") is valid Citation File Format 1.2.0 and
names the notes' author and the site as the rest of the project does.

The validator is cffconvert, in a venv of its own under `.venv/tools/cffconvert` that
`make deps` installs from requirements-cffconvert.lock (`make lock` writes it): its one
release, 2.0.0, needs jsonschema < 4, older than what the docs stack installs. Missing,
the test fails.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CFF = ROOT / "CITATION.cff"
CFFCONVERT = ROOT / ".venv" / "tools" / "cffconvert" / "bin" / "cffconvert"


def validate(path: Path) -> subprocess.CompletedProcess:
    if not CFFCONVERT.is_file():
        pytest.fail(f"{CFFCONVERT} not found: `make deps` installs cffconvert there")
    return subprocess.run(
        [str(CFFCONVERT), "--validate", "-i", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_citation_cff_is_valid_cff_1_2():
    result = validate(CFF)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid according to schema version 1.2.0" in result.stdout


def test_the_validator_rejects_an_invalid_file(tmp_path):
    bad = tmp_path / "CITATION.cff"
    bad.write_text(CFF.read_text(encoding="utf-8").replace("family-names:", "surname:"))
    result = validate(bad)
    assert result.returncode != 0
    assert "surname" in result.stdout + result.stderr


def test_it_names_the_notes_author_and_the_site():
    from mkdocs.config import load_config

    cff = yaml.safe_load(CFF.read_text(encoding="utf-8"))
    config = load_config(str(ROOT / "mkdocs.yml"))
    authors = yaml.safe_load((ROOT / "docs" / "blog" / ".authors.yml").read_text("utf-8"))
    (author,) = cff["authors"]
    name = f"{author['given-names']} {author['family-names']}"
    assert name == config.site_author
    assert name in {a["name"] for a in authors["authors"].values()}
    assert cff["title"].startswith(f"{config.site_name}:")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert cff["version"] == pyproject["project"]["version"]


def test_the_validators_venv_is_its_lock():
    """cffconvert's venv holds exactly requirements-cffconvert.lock (`make lock` writes it,
    `make deps` installs it with --no-deps), with cffconvert itself in it."""
    lock = ROOT / "requirements-cffconvert.lock"
    pins = dict(
        line.split("==", 1)
        for line in lock.read_text(encoding="utf-8").splitlines()
        if "==" in line
    )
    assert pins.get("cffconvert") == "2.0.0"
    python = CFFCONVERT.parent / "python"
    if not python.is_file():
        pytest.fail(f"{python} not found: `make deps` installs cffconvert there")
    freeze = subprocess.run(
        [str(python), "-m", "pip", "freeze", "--all", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    installed = {
        re.sub(r"[-_.]+", "-", name).lower(): version
        for name, version in (line.split("==", 1) for line in freeze.splitlines() if "==" in line)
    }
    differ = {n: (v, installed.get(n)) for n, v in pins.items() if installed.get(n) != v}
    assert not differ, f"locked vs installed (run `make deps`): {differ}"
