"""The mutation tool (scripts/dev/mutation.py) on a tiny project: kills land on the right block.

The tiny package has `double(x) = x * 2` (mutmut makes `x / 2` and `x * 3`) and
`shift(x) = x + 1` (`x - 1`, `x + 2`); its page has three Check blocks: one that kills
both mutants of `double`, one that cannot fail (`double(0) == 0`), and one that checks a
value computed before it, `shift(1) > 1`, which kills `x - 1` only.
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
__all__ = ["double", "shift"]


def double(x):
    """Twice x.

    >>> double(2)
    4
    """
    return x * 2


def shift(x):
    return x + 1
'''

PAGE = """\
# A tiny page

## Doubling

<a id="correction-double"></a>

!!! warning "Correction: double doubles"

    The notes say it triples.

    ??? example "Check"

        ```pycon
        >>> from mlnotes.tiny import double, shift
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
"""


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """Run the tool once on the tiny project; its results and analysis."""
    root = tmp_path_factory.mktemp("tiny")
    (root / "mlnotes").mkdir()
    (root / "mlnotes" / "__init__.py").write_text('"""A tiny package."""\n')
    (root / "mlnotes" / "tiny.py").write_text(TINY)
    (root / "docs").mkdir()
    (root / "docs" / "page.md").write_text(PAGE)
    equivalent = root / "equivalent.toml"
    equivalent.write_text("")
    cmd = [
        sys.executable,
        str(ROOT / "scripts" / "dev" / "mutation.py"),
        "--root", str(root),
        "--out", str(root / "report"),
        "--mutants", str(root / "mutants"),
        "--equivalent", str(equivalent),
        "--jobs", "2",
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    data = json.loads((root / "report" / "results.json").read_text())
    shift_survivor = next(
        m["fingerprint"] for m in data["mutants"] if "x + 2" in m["diff"] and "shift" in m["key"]
    )
    return root, data, shift_survivor, cmd


def _blocks(root, data):
    analysis = mutation_report.analyse(data, root / "equivalent.toml", root)
    rows = mutation_report.block_table(data, analysis)
    return analysis, {r["block"]["line"]: r for r in rows}


def test_each_block_kills_what_it_checks(tiny_run):
    root, data, _, _ = tiny_run
    mutants = {m["key"]: m for m in data["mutants"]}
    assert sorted(m["diff"].splitlines()[1] for m in mutants.values()) == [
        "+ return x * 3",
        "+ return x + 2",
        "+ return x - 1",
        "+ return x / 2",
    ]
    analysis, blocks = _blocks(root, data)
    assert sorted(blocks) == [11, 22, 41]
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
    assert "x - 1" in mutants[killed]["diff"]
    survivors = [k for k, s in analysis.status.items() if s == "survived"]
    assert [mutants[k]["diff"].splitlines()[1] for k in survivors] == ["+ return x + 2"]
    report = (root / "report" / "index.md").read_text()
    flagged = report.split("## Check blocks that kill nothing")[1].split("\n## ")[0]
    assert "docs/page.md:22" in flagged and "docs/page.md:11" not in flagged


def test_docstring_kills(tiny_run):
    root, data, _, _ = tiny_run
    analysis, _ = _blocks(root, data)
    (u,) = [i for i, unit in enumerate(data["units"]) if unit["name"] == "mlnotes.tiny.double"]
    killed = {analysis.mutants[k]["diff"].splitlines()[1] for k in analysis.unit_kills[u]}
    assert killed == {"+ return x / 2", "+ return x * 3"}


def test_equivalents_file_is_honoured(tiny_run):
    root, data, survivor, _ = tiny_run
    equivalent = root / "equivalent.toml"
    equivalent.write_text(
        f'[[equivalent]]\nid = "{survivor}"\nfunction = "mlnotes.tiny.shift"\n'
        'reason = "the test says so"\n\n'
        '[[equivalent]]\nid = "000000000000"\nfunction = "mlnotes.tiny.shift"\nreason = "gone"\n'
    )
    try:
        analysis, _ = _blocks(root, data)
    finally:
        equivalent.write_text("")
    assert sorted(analysis.status.values()) == ["equivalent", "killed", "killed", "killed"]
    assert len(analysis.equivalent_problems) == 1
    assert "000000000000" in analysis.equivalent_problems[0]


def test_check_blocks_of_a_page():
    blocks = mutation_evidence.check_blocks("page.md", PAGE)
    assert [(b.line, b.end, b.section, b.box) for b in blocks] == [
        (11, 18, "Doubling", "correction-double"),
        (22, 28, "Zero", ""),
        (41, 47, "Shifting", "note-shift"),
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
