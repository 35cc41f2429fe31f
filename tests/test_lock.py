"""requirements.lock (`make lock` writes it, `make deps` installs exactly it): it satisfies
every requirement pyproject.toml states, holds torch's CPU build and no CUDA package, and
is what this venv has installed."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"


def locked() -> dict[str, Version]:
    pins = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", line)
            assert match, f"not an exact pin: {line!r}"
            pins[canonicalize_name(match[1])] = Version(match[2])
    return pins


def test_the_lock_satisfies_pyproject():
    """An edit of pyproject.toml without `make lock` fails here."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        wanted += extra
    pins = locked()
    assert len(wanted) > 20
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement} is not in requirements.lock: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements.lock has {name}=={pins[name]}, pyproject.toml asks {requirement}: "
            "run `make lock`"
        )


def test_the_lock_has_torchs_cpu_build_and_no_cuda():
    pins = locked()
    assert pins["torch"] == Version("2.13.0+cpu")
    cuda = [n for n in pins if n.startswith(("nvidia-", "triton", "cuda-"))]
    assert not cuda, cuda


def test_the_venv_is_the_lock():
    """Every locked package is installed at its locked version (`make deps` installs the
    lock with --no-deps; run the tests from the venv it made)."""
    pins = locked()
    installed = {
        canonicalize_name(d.metadata["Name"]): Version(d.version) for d in metadata.distributions()
    }
    differ = {n: (str(v), str(installed.get(n))) for n, v in pins.items() if installed.get(n) != v}
    assert not differ, f"locked vs installed (run `make deps`): {differ}"
