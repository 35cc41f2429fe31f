"""The mutation report: from `results.json` to `index.md` and `index.html`.

A child's failing example is a kill, except where the same example failed without a
mutant (clean pass or control child) and except a NameError after an earlier example of
the same child failed (a name that example did not define). A block kills a mutant
*directly* when one of its examples calls the mutated function, else *through earlier
values* (computed on the page before the block). A mutant no doctest kills is killed by
a unit test when one that `mutation.py` runs against it fails. Surviving mutants listed
in the kept file (`mutation-survivors.toml`, format in its header) as equivalent are
reported with the reason given there, as killed by a unit test when the test named
there, run with the mutant active, fails; entries that match no mutant, do not hold or
are not needed are reported.
"""

from __future__ import annotations

import html
import json
import sys
import tomllib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "mlnotes"


@dataclass
class Analysis:
    mutants: dict[str, dict]  # key -> mutant (from the adapter)
    selected: list[str]
    unit_kills: list[dict[str, list[tuple[int, str, str]]]]  # unit -> mutant -> failures
    covered: set[str]  # mutants some doctest runs
    status: dict[str, str] = field(default_factory=dict)  # killed, survived, ...
    equivalents: dict[str, dict] = field(default_factory=dict)  # fingerprint -> entry
    killed_by: dict[str, dict] = field(default_factory=dict)  # fingerprint -> entry
    equivalent_problems: list[str] = field(default_factory=list)
    public: set[str] = field(default_factory=set)  # dotted names of public functions
    unit_killer: dict[str, str] = field(default_factory=dict)  # mutant -> the test that kills it


def number(key: str) -> int:
    return int(key.rpartition("__mutmut_")[2])


def selects(only: str, function: str) -> bool:
    """Whether `--only` (comma-separated texts; empty for every function) picks `function`:
    its dotted name contains one of the texts."""
    texts = [t.strip() for t in only.split(",") if t.strip()]
    return not texts or any(t in function for t in texts)


def short(function: str) -> str:
    return function.removeprefix(PACKAGE + ".")


def load_survivors(path: Path) -> tuple[dict[str, dict], dict[str, dict], list[str]]:
    """The kept file's `equivalent` and `killed` entries by id, and what is wrong with any."""
    if not path.exists():
        return {}, {}, []
    kept = tomllib.loads(path.read_text())
    found: dict[str, dict[str, dict]] = {"equivalent": {}, "killed": {}}
    problems = []
    for kind, needs in (("equivalent", "reason"), ("killed", "test")):
        for n, entry in enumerate(kept.get(kind, []), 1):
            missing = [k for k in ("id", "function", needs) if not str(entry.get(k, "")).strip()]
            if missing:
                problems.append(f"{kind} entry {n} of {path.name} lacks {', '.join(missing)}")
            else:
                found[kind][entry["id"]] = entry
    return found["equivalent"], found["killed"], problems


def doctest_kills(units: list[dict], runs: list[dict]) -> tuple[list[dict], set[str]]:
    """Per unit, mutant -> its failing examples that are kills; and the mutants run at all."""
    unreliable = [set(map(int, u["clean_failures"])) for u in units]
    for r in runs:
        if r["mutant"] == "":
            unreliable[r["unit"]] |= set(map(int, r["failures"]))
    unit_kills: list[dict] = [defaultdict(list) for _ in units]
    covered = set()
    for r in runs:
        if r["mutant"] == "":
            continue
        covered.add(r["mutant"])
        failed_before = False
        for i in sorted(map(int, r["failures"])):
            kind, detail = r["failures"][str(i)]
            if i in unreliable[r["unit"]]:
                continue
            if kind == "error" and detail.startswith("NameError") and failed_before:
                continue
            failed_before = True
            unit_kills[r["unit"]][r["mutant"]].append((i, kind, detail))
    return unit_kills, covered


def analyse(data: dict, survivors_path: Path, root: Path) -> Analysis:
    mutants = {m["key"]: m for m in data["mutants"]}
    unit_kills, covered = doctest_kills(data["units"], data["runs"])
    a = Analysis(mutants, data["selected"], unit_kills, covered)
    a.equivalents, a.killed_by, a.equivalent_problems = load_survivors(survivors_path)
    a.public = public_functions(root)
    tested = data.get("unit_tests", {})  # mutant -> {"test", "exit"} (run by mutation.py)
    found = data.get("unit_pass", {}).get("mutants", {})  # mutant -> what its tests did
    killed = {m for kills in unit_kills for m in kills}
    for key in a.selected:
        fp = mutants[key]["fingerprint"]
        if key in killed:
            a.status[key] = "killed"
        elif found.get(key, {}).get("killed_by"):
            a.status[key] = "killed by a unit test"
            a.unit_killer[key] = found[key]["killed_by"]["test"]
        elif fp in a.killed_by and tested.get(key, {}).get("exit") == 1:
            a.status[key] = "killed by a unit test"
            a.unit_killer[key] = a.killed_by[fp]["test"]
        elif fp in a.equivalents:
            a.status[key] = "equivalent"
        else:
            a.status[key] = "survived"
    by_fingerprint = {mutants[k]["fingerprint"]: k for k in a.selected}
    for kind, entries in (("equivalent", a.equivalents), ("killed", a.killed_by)):
        for fp, entry in entries.items():
            key = by_fingerprint.get(fp)
            name = f"`{fp}` ({short(entry['function'])}"
            if key is None:
                if selects(data["meta"]["only"], entry["function"]):
                    a.equivalent_problems.append(
                        f"{name}): no such mutant now; the function changed? Check it again."
                    )
            elif mutants[key]["function"] != entry["function"]:
                a.equivalent_problems.append(
                    f"`{fp}` is a mutant of {mutants[key]['function']}, not {entry['function']}"
                )
            elif kind == "equivalent" and a.status[key] == "killed":
                a.equivalent_problems.append(
                    f"{name} #{number(key)}) is listed as equivalent but a doctest kills it"
                )
            elif kind == "equivalent" and a.status[key] == "killed by a unit test":
                a.equivalent_problems.append(
                    f"{name} #{number(key)}) is listed as equivalent but "
                    f"`{a.unit_killer[key]}` kills it"
                )
            elif kind == "killed" and key in killed:
                a.equivalent_problems.append(
                    f"{name} #{number(key)}): a doctest kills it; the entry is not needed"
                )
            elif kind == "killed" and found.get(key, {}).get("killed_by"):
                a.equivalent_problems.append(
                    f"{name} #{number(key)}): the unit test pass kills it "
                    f"(`{a.unit_killer[key]}`); the entry is not needed"
                )
            elif kind == "killed" and a.status[key] == "survived":
                result = tested.get(key, {}).get("exit")
                a.equivalent_problems.append(
                    f"{name} #{number(key)}): `{entry['test']}` "
                    + ("passes with the mutant" if result == 0 else f"exited with {result}")
                )
    return a


def public_functions(root: Path) -> set[str]:
    """Dotted names of the public functions and methods of the package (its `__all__`)."""
    import ast

    sys.path.insert(0, str(Path(__file__).parent))
    from mutation_evidence import public_names

    found = set()
    for path in sorted((root / PACKAGE).glob("*.py")):
        if path.stem.startswith("_"):
            continue
        tree = ast.parse(path.read_text())
        names = public_names(tree)
        module = f"{PACKAGE}.{path.stem}"
        for node in tree.body:
            if getattr(node, "name", None) not in names:
                continue
            found.add(f"{module}.{node.name}")
            for item in getattr(node, "body", []) if isinstance(node, ast.ClassDef) else []:
                if isinstance(item, ast.FunctionDef) and (
                    not item.name.startswith("_") or item.name == "__init__"
                ):
                    found.add(f"{module}.{node.name}.{item.name}")
    return found


def block_table(data: dict, a: Analysis) -> list[dict]:
    """One row per evidence block (Check, Worked out, In code): where it is, what it calls,
    what it kills."""
    rows = []
    names = {m["function_key"]: m["function"] for m in a.mutants.values()}
    selected = set(a.selected)
    for u, unit in enumerate(data["units"]):
        for b, block in enumerate(unit["blocks"]):
            examples = [i for i, x in enumerate(unit["block_of"]) if x == b]
            calls = set().union(*(unit["hits"][i] for i in examples)) if examples else set()
            direct, carried = defaultdict(list), defaultdict(list)
            for key, fails in a.unit_kills[u].items():
                if key not in selected or not any(i in examples for i, _, _ in fails):
                    continue
                m = a.mutants[key]
                (direct if m["function_key"] in calls else carried)[m["function"]].append(key)
            if not examples:
                verdict = "no doctest"
            elif direct:
                verdict = "kills"
            elif carried:
                verdict = "kills only through earlier values"
            else:
                verdict = "kills nothing"
            rows.append(
                {
                    "unit": u,
                    "block": block,
                    "examples": len(examples),
                    "calls": sorted(names.get(k, k) for k in calls),
                    "direct": direct,
                    "carried": carried,
                    "verdict": verdict,
                }
            )
    return rows


def _mutant_list(by_function: dict[str, list[str]]) -> str:
    items = []
    for function in sorted(by_function):
        nums = ", ".join(str(n) for n in sorted(number(k) for k in by_function[function]))
        items.append(f"<li><code>{html.escape(short(function))}</code>: {nums}</li>")
    return "<ul>" + "".join(items) + "</ul>"


def _count(by_function: dict[str, list[str]]) -> int:
    return sum(len(v) for v in by_function.values())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code_cell(diff: str) -> str:
    lines = [html.escape(x) for x in diff.splitlines()]
    return "<code>" + "<br>".join(lines).replace("|", "&#124;") + "</code>"


def render(data: dict, a: Analysis) -> tuple[str, str]:
    """The report as Markdown, and a summary for the terminal."""
    meta, units = data["meta"], data["units"]
    rows = block_table(data, a)
    counts = defaultdict(int)
    for s in a.status.values():
        counts[s] += 1
    out: list[str] = []
    w = out.append
    w("# Mutation report: the pages' and docstrings' evidence\n")
    unit_pass = data.get("unit_pass", {})
    w(
        f"mutmut {meta['mutmut']} mutants of `{PACKAGE}`, run against the page and docstring "
        f"doctests, then the unit tests against the mutants the doctests leave alive, by "
        f"`scripts/dev/mutation.py` (`make mutation`). Wall time "
        f"**{meta['wall_seconds'] / 60:.1f} min** with {meta['jobs']} children on "
        f"{meta['cpus']} CPUs (mutant generation {meta['generate_seconds']:.0f} s, clean pass "
        f"{meta['clean_seconds']:.0f} s, unit tests {meta.get('unit_test_seconds', 0):.0f} s, "
        f"{meta['children']} children); load average "
        f"(1, 5, 15 min) {tuple(meta['load_average_start'])} at the start, "
        f"{tuple(meta['load_average_end'])} at the end."
        + (f" Only functions matching `{meta['only']}`." if meta["only"] else "")
        + "\n"
    )
    unrun = sum(1 for k in a.selected if a.status[k] == "survived" and k not in a.covered)
    untested = sum(
        1
        for k in a.selected
        if a.status[k] == "survived" and not unit_pass.get("mutants", {}).get(k, {}).get("ran")
    )
    w(
        "| mutants | killed by a doctest | killed by a unit test | equivalent "
        "| survived | of which no doctest runs the line | of which no unit test ran |"
    )
    w("|---:|---:|---:|---:|---:|---:|---:|")
    w(
        f"| {len(a.selected)} | {counts['killed']} | {counts['killed by a unit test']} | "
        f"{counts['equivalent']} | {counts['survived']} | {unrun} | {untested} |\n"
    )
    tests = unit_pass.get("tests", [])
    w(
        "A mutant is *killed* when an example fails with it active (a wrong output, an "
        "exception, a timeout); a doctest runs a mutant only if it runs the mutated line "
        "(coverage of the clean run). A Check block kills a mutant *directly* when one of its "
        "own examples calls the mutated function and an example of the block fails; *through "
        "earlier values* when the block fails only because of values computed before it on "
        "the page. The mutants no doctest kills then meet the unit tests "
        f"({len(tests)} tests of {', '.join(f'`{f}`' for f in unit_pass.get('files', []))}"
        " that neither build the site nor drive a browser): each runs the tests that run its "
        "mutated line, fastest first, at most "
        f"{meta.get('unit_budget', 0):.0f} s of their clean time, until one fails. A unit test "
        "elsewhere can be named for a mutant in `scripts/dev/mutation-survivors.toml`.\n"
    )
    if unit_pass.get("not_started"):
        w(
            f"**Time limit:** the unit test pass starts no mutant after "
            f"{meta.get('time_limit_minutes', 0):g} min of the run, public functions' mutants "
            f"first: {unit_pass['not_started']} mutants were not run against the unit tests "
            "(counted above as met by no unit test).\n"
        )
    problems = [f"collection error: {e}" for e in unit_pass.get("collection_errors", [])] + [
        f"`{tests[int(t)]}` fails without a mutant (not used): {why}"
        for t, why in unit_pass.get("clean_failures", {}).items()
    ]
    if problems:
        w("Unit tests the pass could not use:\n")
        w("\n".join(f"- {_cell(p)}" for p in problems) + "\n")

    # the flags
    others = [r for r in rows if r["block"].get("kind", "Check") != "Check"]
    rows = [r for r in rows if r["block"].get("kind", "Check") == "Check"]
    nothing = [r for r in rows if r["verdict"] in ("kills nothing", "no doctest")]
    carried_only = [r for r in rows if r["verdict"] == "kills only through earlier values"]
    _block_table(
        w,
        units,
        f"Check blocks that kill nothing ({len(nothing)} of {len(rows)})",
        nothing,
        "*Why* says what the block lacks: no doctest at all (its evidence is prose or a "
        "test elsewhere); no call into `mlnotes` (numpy or scipy against numbers written "
        "on the page: mutation testing cannot judge it, a reader must); or calls into "
        "`mlnotes` none of whose mutants make it fail.",
        ("why", "---"),
        lambda r: (
            "no doctest"
            if r["verdict"] == "no doctest"
            else "kills none of the mutants it runs"
            if r["calls"]
            else "calls no mlnotes code"
        ),
    )
    _block_table(
        w,
        units,
        f"Check blocks that kill only through earlier values ({len(carried_only)})",
        carried_only,
        "They call none of the mutated functions whose mutants they kill: the mutant "
        "changed a value computed before the block, and the block noticed. Right if the "
        "block compares that value with an independent reference.",
        ("kills", "---:"),
        lambda r: _count(r["carried"]),
    )
    _block_table(
        w,
        units,
        f"Worked out and In code blocks ({len(others)})",
        others,
        "Not judged here: a *Worked out* block shows evidence that no `mlnotes` function "
        "computes (an argument, NumPy or SciPy against numbers worked by hand), which a "
        "reader checks; an *In code* block illustrates. A Worked out block that calls "
        "`mlnotes` and kills a mutant could be a Check.",
        ("kills directly", "---:"),
        lambda r: _count(r["direct"]),
    )

    # survivors
    survivors = [k for k in a.selected if a.status[k] == "survived"]
    public_surv = [k for k in survivors if a.mutants[k]["function"] in a.public]
    private_surv = [k for k in survivors if k not in set(public_surv)]
    w(f"## Surviving mutants of public functions ({len(public_surv)})\n")
    w(
        "No page or docstring example and no unit test the tool runs notices these changes. "
        "Each needs a test that kills it (a doctest, a unit test in one of the files above, or "
        "a unit test elsewhere named with the mutant's `id` in a `[[killed]]` entry of "
        "`scripts/dev/mutation-survivors.toml`, which the tool runs to confirm), or an "
        "`[[equivalent]]` entry there saying why no input tells it from the original.\n"
    )
    w(_mutant_table(a, public_surv, data))
    keys = [k for k in a.selected if a.status[k] == "equivalent"]
    w(f"## Equivalent mutants ({len(keys)})\n")
    if keys:
        w("| id | mutant | where | change | why equivalent |")
        w("|---|---|---|---|---|")
        for k in keys:
            m = a.mutants[k]
            said = a.equivalents[m["fingerprint"]]["reason"]
            w(
                f"| `{m['fingerprint']}` | {short(m['function'])} #{number(k)} | "
                f"{m['path']}:{m['line']} | {_code_cell(m['diff'])} | {_cell(said)} |"
            )
        w("")
    else:
        w("None listed.\n")
    keys = [k for k in a.selected if a.status[k] == "killed by a unit test"]
    w(f"## Mutants killed by a unit test ({len(keys)})\n")
    if keys:
        by_test: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for k in keys:
            by_test[a.unit_killer[k]][a.mutants[k]["function"]].append(k)
        w("| test | mutants | of functions |")
        w("|---|---:|---|")
        for test in sorted(by_test):
            functions = ", ".join(f"`{short(f)}`" for f in sorted(by_test[test]))
            w(f"| `{_cell(test)}` | {_count(by_test[test])} | {functions} |")
        w("")
        w("<details><summary>Each test's mutants, by function (mutmut's numbers)</summary>\n")
        for test in sorted(by_test):
            w(f"<p><code>{html.escape(test)}</code></p>" + _mutant_list(by_test[test]))
        w("</details>\n")
    else:
        w("None.\n")
    if a.equivalent_problems:
        w("Problems with `scripts/dev/mutation-survivors.toml`:\n")
        for p in a.equivalent_problems:
            w(f"- {p}")
        w("")

    # per page and block
    w("## Per page and evidence block\n")
    for u, unit in enumerate(units):
        if unit["kind"] != "page":
            continue
        page_kills = {k for k in a.unit_kills[u] if k in a.status}
        checks = [
            b for b, block in enumerate(unit["blocks"]) if block.get("kind", "Check") == "Check"
        ]
        in_blocks = {
            k
            for k, fails in a.unit_kills[u].items()
            if k in a.status and any(unit["block_of"][i] in checks for i, _, _ in fails)
        }
        w(f"### {unit['path']}\n")
        w(
            f"{len(unit['lines'])} examples, {len(checks)} Check blocks, "
            f"{len(unit['blocks']) - len(checks)} Worked out or In code blocks. The page "
            f"kills {len(page_kills)} mutants; its Check blocks {len(in_blocks)}, its other "
            f"examples the rest.\n"
        )
        page_rows = [r for r in rows + others if r["unit"] == u]
        page_rows.sort(key=lambda r: r["block"]["line"])
        if page_rows:
            w(
                "| block | section | under | examples | calls | kills directly | through earlier values |"
            )
            w("|---|---|---|---:|---|---:|---:|")
            for r in page_rows:
                w(_block_row(units, r) + f" {_count(r['direct'])} | {_count(r['carried'])} |")
            w("")
            for r in page_rows:
                if not (r["direct"] or r["carried"]):
                    continue
                b = r["block"]
                w(
                    f"<details><summary>{html.escape(unit['path'])}:{b['line']} "
                    f"({html.escape(b['box'] or b['section'])}): mutants killed, by function "
                    "(mutmut's numbers)</summary>"
                )
                if r["direct"]:
                    w("<p>Directly:</p>" + _mutant_list(r["direct"]))
                if r["carried"]:
                    w("<p>Through earlier values:</p>" + _mutant_list(r["carried"]))
                w("</details>\n")

    # per docstring
    w("## Per docstring\n")
    w("| docstring | examples | kills | of which in its own function |")
    w("|---|---:|---:|---:|")
    details = []
    for u, unit in enumerate(units):
        if unit["kind"] != "docstring" or not unit["public"]:
            continue
        kills = defaultdict(list)
        for k in a.unit_kills[u]:
            if k in a.status:
                kills[a.mutants[k]["function"]].append(k)
        own = len(kills.get(unit["name"], [])) + sum(
            len(v) for f, v in kills.items() if f.startswith(unit["name"] + ".")
        )
        w(
            f"| `{short(unit['name'])}` ({unit['path']}:{unit['lines'][0]}) | "
            f"{len(unit['lines'])} | {_count(kills)} | {own} |"
        )
        if kills:
            details.append(
                f"<details><summary><code>{html.escape(short(unit['name']))}</code>: mutants "
                f"killed, by function</summary>{_mutant_list(kills)}</details>\n"
            )
    w("")
    out.extend(details)

    w(f"## Surviving mutants of private functions ({len(private_surv)})\n")
    w(
        "Helpers that public functions call (validation, the pmfs' internals): a survivor "
        "here is a change no public example notices.\n"
    )
    w("<details><summary>The list</summary>\n")
    w(_mutant_table(a, private_surv, data))
    w("</details>\n")

    called = {f for unit in units for h in unit["hits"] for f in h}
    uncovered: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for k in a.selected:
        if k not in a.covered:
            m = a.mutants[k]
            uncovered[m["function"]][0] += 1
            uncovered[m["function"]][1] = m["function_key"] in called
    w(f"## Mutants no doctest runs, by function ({len(uncovered)} functions)\n")
    if uncovered:
        w("| function | mutants | function called by a doctest |")
        w("|---|---:|---|")
        for f in sorted(uncovered):
            w(f"| `{short(f)}` | {uncovered[f][0]} | {'yes' if uncovered[f][1] else 'no'} |")
        w("")

    summary = [
        f"{len(a.selected)} mutants: {counts['killed']} killed by doctests, "
        f"{counts['killed by a unit test']} by unit tests, {counts['equivalent']} "
        f"equivalent, {counts['survived']} survived ({len(public_surv)} of public functions; "
        f"{unrun} on lines no doctest runs, {untested} met no unit test)",
        f"{len(nothing)} of {len(rows)} Check blocks kill nothing:",
    ]
    for r in nothing:
        b = r["block"]
        why = (
            "no doctest"
            if r["verdict"] == "no doctest"
            else ""
            if r["calls"]
            else "no mlnotes call"
        )
        summary.append(
            f"  {b['page']}:{b['line']}  {b['section']}  ({b['box'] or '-'})"
            + (f"  [{why}]" if why else "")
        )
    return "\n".join(out) + "\n", "\n".join(summary)


def _block_table(
    w, units: list[dict], title: str, rows: list[dict], intro: str, last: tuple[str, str], cell
) -> None:
    """A section listing evidence blocks: its title, what it means, one row a block (the
    block's columns, then `last`'s column filled by `cell(row)`), or "None."."""
    w(f"## {title}\n")
    if not rows:
        w("None.\n")
        return
    w(intro + "\n")
    w(f"| block | section | under | examples | calls | {last[0]} |")
    w(f"|---|---|---|---:|---|{last[1]}|")
    for r in rows:
        w(_block_row(units, r) + f" {cell(r)} |")
    w("")


def _block_row(units: list[dict], r: dict) -> str:
    b = r["block"]
    section = b["section"] + (f" (#{b['section_id']})" if b["section_id"] else "")
    under = f"`{b['box']}`: {b['box_title']}" if b["box"] else ""
    calls = ", ".join(f"`{short(c)}`" for c in r["calls"]) or "nothing mutated"
    return (
        f"| {b['page']}:{b['line']} {_cell(b['title'])} | {_cell(section)} | {_cell(under)} | "
        f"{r['examples']} | {calls} |"
    )


def _mutant_table(a: Analysis, keys: list[str], data: dict) -> str:
    if not keys:
        return "None.\n"
    run_by = defaultdict(set)
    for r in data["runs"]:
        unit = data["units"][r["unit"]]
        if r["mutant"]:
            run_by[r["mutant"]].add(unit["path"] if unit["kind"] == "page" else short(unit["name"]))
    tested = data.get("unit_pass", {}).get("mutants", {})
    lines = [
        "| id | mutant | where | change | run by | unit tests run (of those that run the line) |",
        "|---|---|---|---|---|---:|",
    ]
    for k in sorted(keys, key=lambda k: (a.mutants[k]["path"], a.mutants[k]["line"])):
        m = a.mutants[k]
        if k in a.covered:
            runners = sorted(run_by[k])
            shown = ", ".join(runners[:4]) + (f" (+{len(runners) - 4})" if len(runners) > 4 else "")
        else:
            shown = "no doctest runs this line"
        t = tested.get(k)
        ran = f"{t['ran']} of {t['covering']}" if t else "not run"
        lines.append(
            f"| `{m['fingerprint']}` | {short(m['function'])} #{number(k)} | "
            f"{m['path']}:{m['line']} | {_code_cell(m['diff'])} | {_cell(shown)} | {ran} |"
        )
    return "\n".join(lines) + "\n"


def write_report(data: dict, out: Path, survivors: Path, root: Path) -> str:
    """Write index.md and index.html into `out`; return the summary for the terminal."""
    import markdown

    a = analyse(data, survivors, root)
    text, summary = render(data, a)
    (out / "index.md").write_text(text)
    body = markdown.markdown(text, extensions=["tables", "toc"])
    title = "Mutation report"
    (out / "index.html").write_text(
        f"<!doctype html><html lang=en><meta charset=utf-8><title>{title}</title>"
        "<style>body{font:15px/1.5 system-ui,sans-serif;margin:2em auto;max-width:90em;"
        "padding:0 1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:2px 6px;vertical-align:top}code{font-size:90%}</style>"
        f"{body}</html>\n"
    )
    return summary


if __name__ == "__main__":  # re-render from an earlier run: mutation_report.py [DIR]
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "mutation-report")
    root = Path(__file__).resolve().parents[2]
    results = json.loads((folder / "results.json").read_text())
    print(write_report(results, folder, root / "scripts/dev/mutation-survivors.toml", root))
