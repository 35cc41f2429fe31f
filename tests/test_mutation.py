"""The mutation tool (scripts/dev/mutation.py) on a tiny project: kills land on the right block.

The tiny package has `double(x) = x * 2` (mutmut makes `x / 2` and `x * 3`), `shift(x) =
x + 1` (`x - 1`, `x + 2`) and `halve(n)`, three of whose four mutants raise. Its page has
four Check blocks: one kills both mutants of `double`; one cannot fail (`double(0) == 0`);
one checks a value computed before it, `shift(1) > 1`, and kills `x - 1` only; one checks
`halve(4)` computed before it, and kills only the mutant that returns a wrong list (after
the others raised, its NameError is no kill).
"""

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "dev"))

import mutation_evidence  # noqa: E402
import mutation_report  # noqa: E402

TINY = '''\
__all__ = ["double", "halve", "shift"]


def double(x):
    """Twice x.

    >>> double(2)
    4
    """
    return x * 2


def shift(x):
    return x + 1


def halve(n):
    return list(range(n))[: n // 2]
'''

TINY_TEST = """\
from mlnotes.tiny import shift


def test_shift():
    assert shift(1) == 2
"""

PAGE = """\
# A tiny page

## Doubling

<a id="correction-double"></a>

!!! warning "Correction: double doubles"

    The notes say it triples.

    ??? example "Check"

        ```pycon
        >>> from mlnotes.tiny import double, halve, shift
        >>> double(3)
        6

        ```

## Zero

??? example "Check"

    ```pycon
    >>> double(0) == 0
    True

    ```

## Shifting

```pycon
>>> y = shift(1)

```

<a id="note-shift"></a>

*Note:* the shift is by one.

??? example "Check"

    ```pycon
    >>> y > 1
    True

    ```

## Halving

```pycon
>>> h = halve(4)

```

??? example "Check"

    ```pycon
    >>> h
    [0, 1]

    ```
"""


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """Run the tool once on the tiny project: its root and results.

    The kept file names tests/test_tiny.py::test_shift as the test that kills shift's
    `x + 2` (the mutant's id comes from the adapter, as the report would show it).
    """
    import mutmut_adapter

    root = tmp_path_factory.mktemp("tiny")
    (root / "mlnotes").mkdir()
    (root / "mlnotes" / "__init__.py").write_text('"""A tiny package."""\n')
    (root / "mlnotes" / "tiny.py").write_text(TINY)
    (root / "docs").mkdir()
    (root / "docs" / "page.md").write_text(PAGE)
    (root / "tests").mkdir()
    (root / "tests" / "test_tiny.py").write_text(TINY_TEST)
    mutants, _ = mutmut_adapter.generate(root, "mlnotes", root / "scratch")
    (plus_two,) = [m for m in mutants if m.diff.endswith("+ return x + 2")]
    (root / "survivors.toml").write_text(
        f'[[killed]]\nid = "{plus_two.fingerprint}"\nfunction = "mlnotes.tiny.shift"\n'
        'test = "tests/test_tiny.py::test_shift"\n'
    )
    cmd = [
        sys.executable,
        str(ROOT / "scripts" / "dev" / "mutation.py"),
        "--root", str(root),
        "--out", str(root / "report"),
        "--mutants", str(root / "mutants"),
        "--survivors", str(root / "survivors.toml"),
        "--jobs", "2",
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    data = json.loads((root / "report" / "results.json").read_text())
    return root, data


def _blocks(root, data, survivors="survivors.toml"):
    analysis = mutation_report.analyse(data, root / survivors, root)
    rows = mutation_report.block_table(data, analysis)
    return analysis, {r["block"]["line"]: r for r in rows}


def _change(mutant):
    return mutant["diff"].splitlines()[1]


def test_each_block_kills_what_it_checks(tiny_run):
    root, data = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    assert sorted(_change(m) for m in mutants.values() if "halve" not in m["key"]) == [
        "+ return x * 3",
        "+ return x + 2",
        "+ return x - 1",
        "+ return x / 2",
    ]
    analysis, blocks = _blocks(root, data)
    assert sorted(blocks) == [11, 22, 41, 56]
    first, zero, shifted = blocks[11], blocks[22], blocks[41]
    assert first["block"]["box"] == "correction-double"
    assert first["block"]["box_title"] == "Correction: double doubles"
    assert first["block"]["section"] == "Doubling"
    assert first["verdict"] == "kills"
    assert sorted(first["direct"]) == ["mlnotes.tiny.double"]
    assert len(first["direct"]["mlnotes.tiny.double"]) == 2 and not first["carried"]
    assert zero["verdict"] == "kills nothing" and zero["calls"] == ["mlnotes.tiny.double"]
    assert shifted["verdict"] == "kills only through earlier values"
    assert shifted["block"]["box"] == "note-shift" and not shifted["calls"]
    (killed,) = shifted["carried"]["mlnotes.tiny.shift"]
    assert _change(mutants[killed]) == "+ return x - 1"
    report = (root / "report" / "index.md").read_text()
    flagged = report.split("## Check blocks that kill nothing")[1].split("\n## ")[0]
    assert "docs/page.md:22" in flagged and "docs/page.md:11" not in flagged


def test_a_name_left_undefined_by_a_failure_is_no_kill(tiny_run):
    root, data = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    _, blocks = _blocks(root, data)
    halving = blocks[56]
    assert halving["verdict"] == "kills only through earlier values"
    (killed,) = halving["carried"]["mlnotes.tiny.halve"]
    assert _change(mutants[killed]) == "+ return list(range(n))[: n // 3]"
    (page,) = [u for u, unit in enumerate(data["units"]) if unit["kind"] == "page"]
    raised = {
        r["mutant"]
        for r in data["runs"]
        if r["unit"] == page and "halve" in r["mutant"]
        for kind, detail in r["failures"].values()
        if detail.startswith("NameError: name 'h'")
    }
    assert len(raised) == 3  # the other three mutants raised, and the block saw no `h`


def test_docstring_kills(tiny_run):
    root, data = tiny_run
    analysis, _ = _blocks(root, data)
    (u,) = [i for i, unit in enumerate(data["units"]) if unit["name"] == "mlnotes.tiny.double"]
    killed = {_change(analysis.mutants[k]) for k in analysis.unit_kills[u]}
    assert killed == {"+ return x / 2", "+ return x * 3"}


def test_survivors_file_is_honoured(tiny_run):
    root, data = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    analysis, _ = _blocks(root, data)
    (plus_two,) = [k for k, m in mutants.items() if _change(m) == "+ return x + 2"]
    assert analysis.status[plus_two] == "killed by a unit test"
    assert data["unit_tests"][plus_two]["exit"] == 1
    assert [s for s in analysis.status.values() if s != "killed"] == ["killed by a unit test"]
    fingerprint = mutants[plus_two]["fingerprint"]
    (root / "other.toml").write_text(
        f'[[equivalent]]\nid = "{fingerprint}"\nfunction = "mlnotes.tiny.shift"\n'
        'reason = "the test says so"\n\n'
        '[[equivalent]]\nid = "000000000000"\nfunction = "mlnotes.tiny.shift"\nreason = "gone"\n'
    )
    analysis, _ = _blocks(root, data, "other.toml")
    assert analysis.status[plus_two] == "equivalent"
    (problem,) = analysis.equivalent_problems
    assert "000000000000" in problem
    (root / "other.toml").write_text("")
    analysis, _ = _blocks(root, data, "other.toml")
    assert analysis.status[plus_two] == "survived"


def test_check_blocks_of_a_page():
    blocks = mutation_evidence.check_blocks("page.md", PAGE)
    assert [(b.line, b.end, b.section, b.box) for b in blocks] == [
        (11, 18, "Doubling", "correction-double"),
        (22, 28, "Zero", ""),
        (41, 47, "Shifting", "note-shift"),
        (56, 62, "Halving", ""),
    ]


def test_docstrings_found_as_doctest_finds_them():
    """The tool reads docstrings from the source; doctest's finder sees the same examples."""
    import importlib

    for path in sorted((ROOT / "mlnotes").glob("*.py")):
        name = "mlnotes" if path.stem == "__init__" else f"mlnotes.{path.stem}"
        module = importlib.import_module(name)
        ours = {
            u.name: len(u.test.examples)
            for u in mutation_evidence.docstring_units(ROOT, path, name, module.__dict__)
        }
        theirs = {
            t.name: len(t.examples) for t in doctest.DocTestFinder().find(module) if t.examples
        }
        assert ours == theirs, path
