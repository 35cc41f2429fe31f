"""The mutation tool (scripts/dev/mutation.py) on a tiny project: kills land on the right block.

The tiny package has `double(x) = x * 2` (mutmut makes `x / 2` and `x * 3`), `shift(x) =
x + 1` (`x - 1`, `x + 2`), `halve(n)`, three of whose four mutants raise, and `triple(x) =
x * 3` (`x / 3`, `x * 4`), which no doctest calls. Its page has four Check blocks: one
kills both mutants of `double`; one cannot fail (`double(0) == 0`); one checks a value
computed before it, `shift(1) > 1`, and kills `x - 1` only; one checks `halve(4)` computed
before it, and kills only the mutant that returns a wrong list (after the others raised,
its NameError is no kill); and a Worked out block, which is not judged. The unit test of
`shift` kills `x + 2`; one of `triple` outside the module's tests, named in the kept file,
kills `x * 4`; `x / 3` survives.
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
__all__ = ["double", "halve", "shift", "triple"]


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


def triple(x):
    return x * 3
'''

TINY_TEST = """\
from mlnotes.tiny import shift


def test_shift():
    assert shift(1) == 2


def test_broken():
    assert shift(1) == 3
"""

NAMED_TEST = """\
from mlnotes.tiny import triple


def test_triple():
    assert triple(2) == 6
"""

PAGE = """\
# A tiny page

## Doubling

/// warning | Correction: double doubles
    attrs: {id: correction-double}

The notes say it triples.
///

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

*Note:* the shift
is by one.
{: #note-shift }

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

## Tripling

??? example "Worked out"

    ```pycon
    >>> 2 * 3
    6

    ```
"""


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """Run the tool once on the tiny project: its root and results.

    The kept file names tests/test_named.py::test_triple as the test that kills triple's
    `x * 4`, and tests/test_tiny.py::test_shift for shift's `x + 2`, which the unit test
    pass kills by itself (the ids come from the adapter, as the report would show them).
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
    (root / "tests" / "test_named.py").write_text(NAMED_TEST)
    mutants, _ = mutmut_adapter.generate(root, "mlnotes", root / "scratch")
    (plus_two,) = [m for m in mutants if m.diff.endswith("+ return x + 2")]
    (times_four,) = [m for m in mutants if m.diff.endswith("+ return x * 4")]
    (root / "survivors.toml").write_text(
        f'[[killed]]\nid = "{plus_two.fingerprint}"\nfunction = "mlnotes.tiny.shift"\n'
        'test = "tests/test_tiny.py::test_shift"\n\n'
        f'[[killed]]\nid = "{times_four.fingerprint}"\nfunction = "mlnotes.tiny.triple"\n'
        'test = "tests/test_named.py::test_triple"\n'
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


def _tool(root, *args):
    """The command that runs the tool on the tiny project."""
    return [
        sys.executable,
        str(ROOT / "scripts" / "dev" / "mutation.py"),
        "--root", str(root),
        "--survivors", str(root / "survivors.toml"),
        "--jobs", "2",
        *args,
    ]  # fmt: skip


def _blocks(root, data, survivors="survivors.toml"):
    analysis = mutation_report.analyse(data, root / survivors, root)
    rows = mutation_report.block_table(data, analysis)
    return analysis, {r["block"]["line"]: r for r in rows}


def _change(mutant):
    return mutant["diff"].splitlines()[1]


def test_each_block_kills_what_it_checks(tiny_run):
    root, data = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    assert sorted(
        _change(m) for m in mutants.values() if "halve" not in m["key"] and "triple" not in m["key"]
    ) == ["+ return x * 3", "+ return x + 2", "+ return x - 1", "+ return x / 2"]
    analysis, blocks = _blocks(root, data)
    assert sorted(blocks) == [11, 22, 41, 56, 66]
    assert blocks[66]["block"]["kind"] == "Worked out" and blocks[66]["verdict"] == "kills nothing"
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
    assert shifted["block"]["box_title"] == "*Note:* the shift is by one."
    assert not zero["block"]["box"]  # the box above closed before its section ended
    (killed,) = shifted["carried"]["mlnotes.tiny.shift"]
    assert _change(mutants[killed]) == "+ return x - 1"
    report = (root / "report" / "index.md").read_text()
    flagged = report.split("## Check blocks that kill nothing")[1].split("\n## ")[0]
    assert "docs/page.md:22" in flagged and "docs/page.md:11" not in flagged
    assert "docs/page.md:66" not in flagged
    listed = report.split("## Worked out and In code blocks")[1].split("\n## ")[0]
    assert "docs/page.md:66 Worked out" in listed


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


def test_unit_tests_kill_what_the_doctests_leave(tiny_run):
    """The module's own unit test kills `x + 2`; the test that fails without a mutant is
    not used; `triple`, which no doctest and no test of the module runs, met no test."""
    root, data = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    by_change = {(_change(m), m["function"]): k for k, m in mutants.items()}
    plus_two = by_change["+ return x + 2", "mlnotes.tiny.shift"]
    unit_pass = data["unit_pass"]
    assert unit_pass["files"] == ["tests/test_tiny.py"]
    assert unit_pass["tests"] == [
        "tests/test_tiny.py::test_shift",
        "tests/test_tiny.py::test_broken",
    ]
    assert list(unit_pass["clean_failures"]) == ["1"]
    assert unit_pass["mutants"][plus_two]["killed_by"]["test"] == "tests/test_tiny.py::test_shift"
    assert unit_pass["mutants"][plus_two]["covering"] == 1  # test_broken is not used
    for change in ("+ return x / 3", "+ return x * 4"):
        key = by_change[change, "mlnotes.tiny.triple"]
        assert unit_pass["mutants"][key] == {
            "covering": 0, "planned": 0, "ran": 0, "killed_by": None
        }  # fmt: skip


def test_time_limit_stops_the_unit_test_pass(tiny_run):
    """With no time left, the pass starts no mutant; the report says how many it left."""
    root, _ = tiny_run
    out, mutants_dir = root / "report-limited", root / "mutants-limited"
    cmd = _tool(root, "--out", str(out), "--mutants", str(mutants_dir), "--time-limit", "0")
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    data = json.loads((out / "results.json").read_text())
    mutants = {m["key"]: m for m in data["mutants"]}
    (plus_two,) = [k for k, m in mutants.items() if _change(m) == "+ return x + 2"]
    unit_pass = data["unit_pass"]
    assert unit_pass["not_started"] == 1  # the other survivors have no covering test
    assert unit_pass["mutants"][plus_two]["not_started"] is True
    assert unit_pass["mutants"][plus_two]["killed_by"] is None
    assert "1 mutants were not run against the unit tests" in (out / "index.md").read_text()


def test_survivors_file_is_honoured(tiny_run):
    """A named test outside the pass kills `x * 4`; the entry for `x + 2`, which the pass
    kills, is reported as not needed; `x / 3` survives."""
    root, data = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    by_change = {(_change(m), m["function"]): k for k, m in mutants.items()}
    plus_two = by_change["+ return x + 2", "mlnotes.tiny.shift"]
    times_four = by_change["+ return x * 4", "mlnotes.tiny.triple"]
    over_three = by_change["+ return x / 3", "mlnotes.tiny.triple"]
    analysis, _ = _blocks(root, data)
    assert analysis.status[plus_two] == "killed by a unit test"
    assert analysis.status[times_four] == "killed by a unit test"
    assert analysis.unit_killer[times_four] == "tests/test_named.py::test_triple"
    assert data["unit_tests"][times_four]["exit"] == 1
    assert plus_two not in data["unit_tests"]  # killed by the pass: the named test is not run
    assert analysis.status[over_three] == "survived"
    assert {k for k, s in analysis.status.items() if s != "killed"} == {
        plus_two,
        times_four,
        over_three,
    }
    (problem,) = analysis.equivalent_problems
    assert mutants[plus_two]["fingerprint"] in problem and "not needed" in problem
    fingerprint = mutants[over_three]["fingerprint"]
    (root / "other.toml").write_text(
        f'[[equivalent]]\nid = "{fingerprint}"\nfunction = "mlnotes.tiny.triple"\n'
        'reason = "the test says so"\n\n'
        '[[equivalent]]\nid = "000000000000"\nfunction = "mlnotes.tiny.shift"\nreason = "gone"\n'
    )
    analysis, _ = _blocks(root, data, "other.toml")
    assert analysis.status[over_three] == "equivalent"
    assert analysis.status[times_four] == "survived"  # its named test is not in this file
    (problem,) = analysis.equivalent_problems
    assert "000000000000" in problem
    (root / "other.toml").write_text("")
    analysis, _ = _blocks(root, data, "other.toml")
    assert analysis.status[over_three] == "survived"


def test_only_takes_several_functions():
    """`--only` picks a function whose dotted name contains one of its comma-separated
    texts; empty (the default) picks every function."""
    names = ["mlnotes.tiny.shift", "mlnotes.tiny.triple", "mlnotes.tiny.double"]
    only = "mlnotes.tiny.shift, mlnotes.tiny.tri"
    assert [f for f in names if mutation_report.selects(only, f)] == names[:2]
    assert all(mutation_report.selects("", f) for f in names)
    assert not mutation_report.selects("mlnotes.linalg", "mlnotes.tiny.shift")


def test_a_run_of_some_functions_reports_their_stale_entries_only(tiny_run):
    """With `--only`, an entry whose mutant is gone is reported if its function was run
    (the function changed), not if the run left it out."""
    root, data = tiny_run
    data = {**data, "meta": {**data["meta"], "only": "mlnotes.tiny.shift"}}
    mutants = {m["key"]: m for m in data["mutants"]}
    data["selected"] = [k for k in data["selected"] if mutants[k]["function"].endswith("shift")]
    (root / "stale.toml").write_text(
        '[[equivalent]]\nid = "000000000000"\nfunction = "mlnotes.tiny.shift"\nreason = "gone"\n\n'
        '[[equivalent]]\nid = "111111111111"\nfunction = "mlnotes.tiny.triple"\nreason = "gone"\n'
    )
    analysis = mutation_report.analyse(data, root / "stale.toml", root)
    (problem,) = analysis.equivalent_problems
    assert "000000000000" in problem and "no such mutant now" in problem


def test_check_blocks_of_a_page():
    blocks = mutation_evidence.check_blocks("page.md", PAGE)
    assert [(b.line, b.end, b.section, b.box, b.kind) for b in blocks] == [
        (11, 18, "Doubling", "correction-double", "Check"),
        (22, 28, "Zero", "", "Check"),
        (41, 47, "Shifting", "note-shift", "Check"),
        (56, 62, "Halving", "", "Check"),
        (66, 72, "Tripling", "", "Worked out"),
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
