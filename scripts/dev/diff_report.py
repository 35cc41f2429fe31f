"""The change report: what a change does to the site, as a reader would see it (`make diff`).

    python scripts/dev/diff_report.py --base REF [--out diff-report] [--root .]

Builds the site at the git ref BASE (in a git worktree of its own, kept in
`.cache/diff/checkout/`, which reuses this checkout's figures, executed notebooks and
typeset math wherever its own code keys them the same) and at the working tree (into
`<out>/site/`, the preview), each recorded by diff_record.py; then compares the records
and writes `<out>/index.html`, `<out>/summary.md` and `<out>/report.json`: the pages whose
reading text changed (a word diff), the equations renumbered, added or removed and the
pages whose references to them changed, the figures whose pixels changed (before, after,
difference), the doctest outputs that changed, the corrections and citations added or
removed, the API entries added, removed or re-signed. BASE's record is kept per commit
(`.cache/diff/base/`), so a second report against the same BASE builds the working tree
only. The report fails nothing: the tests do that.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import html
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDER = HERE / "diff_record.py"
CONTEXT = 8  # words of context either side of a change in a word diff


# ---------------------------------------------------------------------------------------
# Building and recording both trees
# ---------------------------------------------------------------------------------------


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def _env(tree: Path) -> dict[str, str]:
    """The tree's own `mlnotes` and `mlnotes_site` first (its plugins build its site)."""
    first = [str(tree)] + (
        [str(tree / "scripts")] if (tree / "scripts" / "mlnotes_site").is_dir() else []
    )
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([*first, *inherited]),
        "NO_MKDOCS_2_WARNING": "1",
        "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "1735689600"),
    }


def record(tree: Path, site: Path, out: Path, cache: Path, seed: Path | None = None) -> dict:
    """Build and record the checkout in `tree` (diff_record.py, run in it)."""
    command = [
        sys.executable,
        str(RECORDER),
        "--site-dir",
        str(site),
        "--out",
        str(out),
        "--doctest-cache",
        str(cache / "doctests"),
    ]
    if seed is not None:
        command += ["--seed-from", str(seed)]
    result = subprocess.run(command, cwd=tree, env=_env(tree))
    if result.returncode:
        raise BuildFailed(tree)
    return json.loads(out.read_text(encoding="utf-8"))


class BuildFailed(Exception):
    """A checkout's site did not build (a figure or notebook failed): no report."""


def recorder_key(root: Path) -> str:
    """What a kept record of BASE depends on besides BASE: the recorder and the locks."""
    from mlnotes_site import keys

    key = keys.Key("diff-recorder")
    for path in (RECORDER, root / "requirements.lock", root / "package-lock.json"):
        key.file(path, path.parent, missing_ok=True)
    return key.hexdigest()[:12]


def checkout(root: Path, sha: str, where: Path) -> Path:
    """A worktree of `root`'s repository at `sha` in `where` (made once, then moved)."""
    try:  # the worktree of an earlier report, moved to `sha`
        # only a worktree of its own: in a folder without one, git would find the
        # repository of the checkout around it, and check BASE out over its working tree
        if Path(_git(where, "rev-parse", "--show-toplevel")).resolve() != where.resolve():
            raise NotADirectoryError(where)
        _git(where, "checkout", "--detach", "--force", sha)
        _git(where, "clean", "-fdq")  # untracked files; the caches (ignored) stay
    except (subprocess.CalledProcessError, FileNotFoundError, NotADirectoryError):
        # none, or one whose repository is gone (a cache restored on another machine)
        shutil.rmtree(where, ignore_errors=True)
        _git(root, "worktree", "prune")
        where.parent.mkdir(parents=True, exist_ok=True)
        _git(root, "worktree", "add", "--detach", "--force", str(where), sha)
    modules = root / "node_modules"
    if modules.is_dir() and not (where / "node_modules").exists():
        (where / "node_modules").symlink_to(modules.resolve())
    return where


def base_record(root: Path, sha: str, cache: Path) -> tuple[dict, Path, bool]:
    """BASE's record and the folder of its figures: kept per commit and recorder."""
    kept = cache / "base" / f"{sha[:12]}-{recorder_key(root)}"
    if (kept / "record.json").is_file():
        print(f"[diff] base {sha[:12]}: recorded before, not built again", flush=True)
        data = json.loads((kept / "record.json").read_text(encoding="utf-8"))
        return data, kept / "figures", True
    tree = checkout(root, sha, cache / "checkout")
    site = cache / "base-site"
    shutil.rmtree(site, ignore_errors=True)
    print(f"[diff] building the base, {sha[:12]}, in {tree}", flush=True)
    shutil.rmtree(kept, ignore_errors=True)
    (kept / "figures").mkdir(parents=True)
    data = record(tree, site, kept / "record.tmp", cache, seed=root)
    for svg in (tree / "docs" / "figures").glob("*.svg"):
        if not svg.stem.endswith("-dark"):
            shutil.copyfile(svg, kept / "figures" / svg.name)
    os.replace(kept / "record.tmp", kept / "record.json")
    shutil.rmtree(site, ignore_errors=True)
    for old in sorted((cache / "base").iterdir(), key=lambda p: p.stat().st_mtime)[:-4]:
        shutil.rmtree(old, ignore_errors=True)  # the four newest records are kept
    return data, kept / "figures", False


# ---------------------------------------------------------------------------------------
# Comparing two records
# ---------------------------------------------------------------------------------------


def word_diff(before: list[str], after: list[str]) -> list[list[tuple[str, str]]]:
    """The changed passages of two texts (lists of blocks), each a list of
    (`"="`, `"-"` or `"+"`, words), with `CONTEXT` words around the changes."""
    a = [w for line in before for w in (*line.split(), "¶")]
    b = [w for line in after for w in (*line.split(), "¶")]
    hunks = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(CONTEXT):
        hunk = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                hunk.append(("=", " ".join(a[i1:i2])))
            else:
                if i2 > i1:
                    hunk.append(("-", " ".join(a[i1:i2])))
                if j2 > j1:
                    hunk.append(("+", " ".join(b[j1:j2])))
        hunks.append(hunk)
    return hunks


def _titles(*records: dict) -> dict[str, str]:
    titles = {}
    for rec in records:
        for uri, page in rec["pages"].items():
            titles[uri] = page["title"]
    return titles


def compare_pages(before: dict, after: dict) -> list[dict]:
    out = []
    pb, pa = before["pages"], after["pages"]
    for uri in sorted(set(pb) | set(pa)):
        if uri not in pb or uri not in pa:
            page = pa.get(uri) or pb[uri]
            out.append(
                {
                    "page": uri,
                    "title": page["title"],
                    "url": page["url"],
                    "status": "added" if uri in pa else "removed",
                    "hunks": [],
                    "words": [0, 0],
                }
            )
            continue
        if pb[uri]["text"] == pa[uri]["text"]:
            continue
        hunks = word_diff(pb[uri]["text"], pa[uri]["text"])
        removed = sum(len(t.split()) for h in hunks for k, t in h if k == "-")
        added = sum(len(t.split()) for h in hunks for k, t in h if k == "+")
        out.append(
            {
                "page": uri,
                "title": pa[uri]["title"],
                "url": pa[uri]["url"],
                "status": "changed",
                "hunks": hunks,
                "words": [removed, added],
            }
        )
    return out


def compare_equations(before: dict, after: dict) -> dict:
    eb, ea = before["equations"], after["equations"]
    changes = []
    for uri in sorted(set(eb) | set(ea)):
        nb, na = eb.get(uri, {}), ea.get(uri, {})
        for label in sorted(set(nb) | set(na), key=lambda x: (na.get(x) or nb.get(x), x)):
            if nb.get(label) != na.get(label):
                changes.append(
                    {"page": uri, "label": label, "before": nb.get(label), "after": na.get(label)}
                )

    def refs(rec, numbers):
        return {
            uri: {(t, label, numbers.get(t, {}).get(label)) for t, label in page["refs"]}
            for uri, page in rec["pages"].items()
        }

    rb, ra = refs(before, eb), refs(after, ea)
    citing = []
    for uri in sorted(set(rb) | set(ra)):
        old, new = rb.get(uri, set()), ra.get(uri, set())
        if old != new:
            labels = sorted({f"{t}#{label}" for t, label, _ in old ^ new})
            citing.append({"page": uri, "labels": labels})
    return {"labels": changes, "citing": citing}


def compare_numbers(before: dict, after: dict) -> dict:
    changed, added, removed = [], [], []
    db, da = before["doctests"], after["doctests"]
    for uri in sorted(set(db) | set(da)):

        def keyed(examples):
            seen, out = Counter(), {}
            for ex in examples:
                seen[ex["source"]] += 1
                out[(ex["source"], seen[ex["source"]])] = ex
            return out

        kb, ka = keyed(db.get(uri, [])), keyed(da.get(uri, []))
        for key in ka:
            if key in kb and kb[key]["got"] != ka[key]["got"]:
                ex = ka[key]
                changed.append(
                    {
                        "page": uri,
                        "line": ex["line"],
                        "section": ex["section"],
                        "check": ex["check"],
                        "source": ex["source"],
                        "before": kb[key]["got"],
                        "after": ex["got"],
                    }
                )
        added += [{"page": uri, **ka[k]} for k in ka if k not in kb]
        removed += [{"page": uri, **kb[k]} for k in kb if k not in ka]
    return {"changed": changed, "added": added, "removed": removed}


def compare_corrections(before: dict, after: dict) -> dict:
    rows_b = Counter(r["row"] for r in before["corrections"])
    rows_a = Counter(r["row"] for r in after["corrections"])
    by_row = {r["row"]: r for r in [*before["corrections"], *after["corrections"]]}
    boxes = []
    for uri in sorted(set(before["pages"]) | set(after["pages"])):
        old = set(before["pages"].get(uri, {}).get("corrections", []))
        new = set(after["pages"].get(uri, {}).get("corrections", []))
        boxes += [{"page": uri, "id": i, "status": "added"} for i in sorted(new - old)]
        boxes += [{"page": uri, "id": i, "status": "removed"} for i in sorted(old - new)]
    return {
        "added": [by_row[r] for r in (rows_a - rows_b)],
        "removed": [by_row[r] for r in (rows_b - rows_a)],
        "boxes": boxes,
    }


def compare_citations(before: dict, after: dict) -> list[dict]:
    out = []
    for uri in sorted(set(before["pages"]) | set(after["pages"])):
        old = set(before["pages"].get(uri, {}).get("cites", []))
        new = set(after["pages"].get(uri, {}).get("cites", []))
        if old != new:
            out.append({"page": uri, "added": sorted(new - old), "removed": sorted(old - new)})
    return out


def compare_api(before: dict, after: dict) -> dict:
    ab, aa = before["api"], after["api"]
    return {
        "added": [{"name": n, "signature": aa[n]} for n in sorted(set(aa) - set(ab))],
        "removed": [{"name": n, "signature": ab[n]} for n in sorted(set(ab) - set(aa))],
        "changed": [
            {"name": n, "before": ab[n], "after": aa[n]}
            for n in sorted(set(ab) & set(aa))
            if ab[n] != aa[n]
        ],
    }


# ---------------------------------------------------------------------------------------
# Figures: pixels
# ---------------------------------------------------------------------------------------


def rasterize(svgs: list[Path], browser) -> list:
    """Each SVG drawn by Chromium at its own size on white, as an RGB array."""
    import io

    import numpy as np
    from PIL import Image

    page = browser.new_page(device_scale_factor=1)
    arrays = []
    try:
        for svg in svgs:
            data = base64.b64encode(svg.read_bytes()).decode()
            page.set_content(
                '<html><body style="margin:0;background:#fff">'
                f'<img id="figure" src="data:image/svg+xml;base64,{data}"></body></html>'
            )
            page.wait_for_function("() => document.getElementById('figure').complete")
            png = page.locator("#figure").screenshot()
            arrays.append(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")))
    finally:
        page.close()
    return arrays


def _pad(a, shape):
    import numpy as np

    out = np.full((*shape, 3), 255, dtype=np.uint8)
    out[: a.shape[0], : a.shape[1]] = a
    return out


def difference_image(before, after):
    """The after image faded to light grey, the changed pixels in red; and how many changed."""
    import numpy as np

    shape = (max(before.shape[0], after.shape[0]), max(before.shape[1], after.shape[1]))
    b, a = _pad(before, shape), _pad(after, shape)
    changed = np.any(b != a, axis=2)
    grey = a.mean(axis=2, keepdims=True) * 0.25 + 255 * 0.75
    out = np.repeat(grey, 3, axis=2).astype(np.uint8)
    out[changed] = (214, 39, 40)
    return out, int(changed.sum())


def _draw_and_compare(candidates, shown, figs_before, figs_after, out, redrawn, same_pixels):
    """Draw each candidate figure's two SVGs in Chromium and compare their pixels."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    from mlnotes_site.chromium import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for name in candidates:
                old, new = rasterize(
                    [figs_before / f"{name}.svg", figs_after / f"{name}.svg"], browser
                )
                diff, count = difference_image(old, new)
                if not count and old.shape == new.shape:
                    same_pixels.append(name)
                    continue
                (out / "figures").mkdir(parents=True, exist_ok=True)
                for what, image in (("before", old), ("after", new), ("difference", diff)):
                    Image.fromarray(image).save(out / "figures" / f"{name}-{what}.png")
                redrawn.append(
                    {
                        "name": name,
                        "pixels": count,
                        "size": [list(old.shape[:2]), list(new.shape[:2])],
                        "pages": sorted(shown.get(name, ())),
                    }
                )
        finally:
            browser.close()


def compare_figures(
    before: dict, after: dict, figs_before: Path, figs_after: Path, out: Path
) -> dict:
    fb, fa = before["figures"], after["figures"]
    shown: dict[str, set[str]] = {}
    for rec in (before, after):
        for uri, page in rec["pages"].items():
            for name in page.get("figures", []):
                shown.setdefault(name, set()).add(uri)
    candidates = sorted(n for n in set(fb) & set(fa) if fb[n] != fa[n])
    redrawn, same_pixels = [], []
    if candidates:
        # In a thread of its own: Playwright's sync API refuses to start in a thread whose
        # asyncio loop runs (a caller's Playwright session, as in the test suite).
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1) as pool:
            pool.submit(
                _draw_and_compare,
                candidates,
                shown,
                figs_before,
                figs_after,
                out,
                redrawn,
                same_pixels,
            ).result()
    return {
        "redrawn": redrawn,
        "same_pixels": same_pixels,
        "added": sorted(set(fa) - set(fb)),
        "removed": sorted(set(fb) - set(fa)),
    }


def compare(before: dict, after: dict, figs_before: Path, figs_after: Path, out: Path) -> dict:
    return {
        "pages": compare_pages(before, after),
        "equations": compare_equations(before, after),
        "figures": compare_figures(before, after, figs_before, figs_after, out),
        "numbers": compare_numbers(before, after),
        "corrections": compare_corrections(before, after),
        "citations": compare_citations(before, after),
        "api": compare_api(before, after),
        "titles": _titles(before, after),
    }


def is_empty(report: dict) -> bool:
    f, e, n, c, a = (report[k] for k in ("figures", "equations", "numbers", "corrections", "api"))
    return not (
        report["pages"]
        or e["labels"]
        or e["citing"]
        or f["redrawn"]
        or f["added"]
        or f["removed"]
        or n["changed"]
        or n["added"]
        or n["removed"]
        or c["added"]
        or c["removed"]
        or c["boxes"]
        or report["citations"]
        or a["added"]
        or a["removed"]
        or a["changed"]
    )


# ---------------------------------------------------------------------------------------
# Writing the report
# ---------------------------------------------------------------------------------------


def _number(n) -> str:
    return "—" if n is None else f"({n})"


def _code(text: str) -> str:
    return "`" + text.strip().replace("`", "'").replace("\n", " ⏎ ") + "`"


def summary_md(report: dict, base: str) -> str:
    t = report["titles"]
    lines = [f"# Change report against `{base}`", ""]
    if is_empty(report):
        lines += [
            "No change a reader would see: the pages' text, equations, figures, worked "
            "numbers, corrections, citations and API are the same.",
            "",
        ]
        return "\n".join(lines)
    if report["pages"]:
        lines += [f"## Pages whose text changed ({len(report['pages'])})", ""]
        for p in report["pages"]:
            extra = (
                f"−{p['words'][0]} / +{p['words'][1]} words"
                if p["status"] == "changed"
                else p["status"]
            )
            lines.append(f"- {p['title']} (`{p['page']}`): {extra}")
        lines.append("")
    eq = report["equations"]
    if eq["labels"] or eq["citing"]:
        lines += ["## Equations", "", "| page | label | before → after |", "|---|---|---|"]
        for c in eq["labels"]:
            lines.append(
                f"| `{c['page']}` | `{c['label']}` | {_number(c['before'])} → {_number(c['after'])} |"
            )
        lines.append("")
        if eq["citing"]:
            lines.append(
                "Pages whose references to them changed: "
                + ", ".join(f"{t.get(c['page'], c['page'])} (`{c['page']}`)" for c in eq["citing"])
                + "."
            )
            lines.append("")
    fig = report["figures"]
    if fig["redrawn"] or fig["added"] or fig["removed"]:
        lines += ["## Figures", ""]
        for f in fig["redrawn"]:
            lines.append(
                f"- **{f['name']}** redrawn: {f['pixels']} pixels differ; on "
                + ", ".join(f"`{p}`" for p in f["pages"])
            )
        for name in fig["added"]:
            lines.append(f"- **{name}** added")
        for name in fig["removed"]:
            lines.append(f"- **{name}** removed")
        lines.append("")
    num = report["numbers"]
    if num["changed"] or num["added"] or num["removed"]:
        lines += ["## Worked numbers (what the pages' doctests print)", ""]
        if num["changed"]:
            lines += ["| page | example | before | after |", "|---|---|---|---|"]
            for c in num["changed"]:
                where = f"`{c['page']}`:{c['line']}" + (" (Check)" if c["check"] else "")
                lines.append(
                    f"| {where} | {_code(c['source'])} | {_code(c['before'])} | {_code(c['after'])} |"
                )
            lines.append("")
        if num["added"] or num["removed"]:
            lines.append(f"Examples added: {len(num['added'])}; removed: {len(num['removed'])}.")
            lines.append("")
    cor = report["corrections"]
    if cor["added"] or cor["removed"] or cor["boxes"]:
        lines += ["## Corrections", ""]
        for what in ("added", "removed"):
            for r in cor[what]:
                lines.append(
                    f"- {what}: [{r['where']}]({r['target']}) ({r['section']}): {r['quote']}"
                )
        for b in cor["boxes"]:
            lines.append(f"- box `#{b['id']}` on `{b['page']}` {b['status']}")
        lines.append("")
    if report["citations"]:
        lines += ["## Citations", ""]
        for c in report["citations"]:
            parts = [f"+{k}" for k in c["added"]] + [f"−{k}" for k in c["removed"]]
            lines.append(f"- `{c['page']}`: " + ", ".join(parts))
        lines.append("")
    api = report["api"]
    if api["added"] or api["removed"] or api["changed"]:
        lines += ["## API reference", ""]
        for a in api["added"]:
            lines.append(f"- added `{a['name']}`: `{a['signature']}`")
        for a in api["removed"]:
            lines.append(f"- removed `{a['name']}`")
        for a in api["changed"]:
            lines.append(f"- `{a['name']}`: `{a['before']}` → `{a['after']}`")
        lines.append("")
    return "\n".join(lines)


CSS = """
body { font: 15px/1.5 system-ui, sans-serif; color: #1f2328; background: #fff; margin: 2em auto;
       max-width: 72em; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #d0d7de; margin-top: 2em; }
code, pre { font: 13px/1.4 ui-monospace, monospace; background: #f6f8fa; }
pre { padding: .5em; white-space: pre-wrap; }
pre, code, td, .hunk { overflow-wrap: anywhere; }
del { background: #ffebe9; color: #82071e; } ins { background: #dafbe1; color: #116329;
      text-decoration: none; }
.hunk { border-left: 3px solid #d0d7de; padding: .2em .8em; margin: .6em 0; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; } td, th { border: 1px solid #d0d7de; padding: .3em .6em;
      vertical-align: top; text-align: left; }
.figures { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5em; }
.figures img { width: 100%; border: 1px solid #d0d7de; } .empty { font-size: 1.2em; }
"""


def _page_link(report, uri, url, site: bool) -> str:
    title = html.escape(report["titles"].get(uri, uri))
    if url is None or not site:
        return f"{title} (<code>{html.escape(uri)}</code>)"
    return f'<a href="site/{html.escape(url)}">{title}</a> (<code>{html.escape(uri)}</code>)'


def index_html(report: dict, base: str, site: bool) -> str:
    e = html.escape
    body = [f"<h1>Change report against <code>{e(base)}</code></h1>"]
    if is_empty(report):
        body.append(
            '<p class="empty">No change a reader would see: the pages\' text, equations, '
            "figures, worked numbers, corrections, citations and API are the same.</p>"
        )
    urls = {}
    for p in report["pages"]:
        urls[p["page"]] = p["url"]
    if report["pages"]:
        body.append(f"<h2>Pages whose text changed ({len(report['pages'])})</h2>")
        for p in report["pages"]:
            body.append(
                f"<h3>{_page_link(report, p['page'], p['url'], site and p['status'] != 'removed')}"
                f" — {e(p['status'])}</h3>"
            )
            for hunk in p["hunks"]:
                parts = []
                for kind, text in hunk:
                    text = e(text).replace("¶", "<br>")
                    parts.append(
                        {"=": text, "-": f"<del>{text}</del>", "+": f"<ins>{text}</ins>"}[kind]
                    )
                body.append(f'<div class="hunk">{" ".join(parts)}</div>')
    eq = report["equations"]
    if eq["labels"] or eq["citing"]:
        body.append("<h2>Equations</h2>")
        if eq["labels"]:
            body.append("<table><tr><th>page</th><th>label</th><th>before</th><th>after</th></tr>")
            for c in eq["labels"]:
                body.append(
                    f"<tr><td><code>{e(c['page'])}</code></td><td><code>{e(c['label'])}</code></td>"
                    f"<td>{_number(c['before'])}</td><td>{_number(c['after'])}</td></tr>"
                )
            body.append("</table>")
        if eq["citing"]:
            body.append("<p>Pages whose references to them changed:</p><ul>")
            for c in eq["citing"]:
                labels = ", ".join(f"<code>{e(x)}</code>" for x in c["labels"])
                body.append(f"<li>{_page_link(report, c['page'], None, False)}: {labels}</li>")
            body.append("</ul>")
    fig = report["figures"]
    if fig["redrawn"] or fig["added"] or fig["removed"]:
        body.append("<h2>Figures</h2>")
        for f in fig["redrawn"]:
            pages = ", ".join(f"<code>{e(p)}</code>" for p in f["pages"])
            body.append(
                f"<h3>{e(f['name'])}</h3><p>{f['pixels']} pixels differ; shown on {pages}.</p>"
                '<div class="figures">'
                + "".join(
                    f'<figure><img src="figures/{e(f["name"])}-{w}.png" alt="{w}"><figcaption>{w}</figcaption></figure>'
                    for w in ("before", "after", "difference")
                )
                + "</div>"
            )
        for name in fig["added"]:
            body.append(f"<p>Figure <code>{e(name)}</code> added.</p>")
        for name in fig["removed"]:
            body.append(f"<p>Figure <code>{e(name)}</code> removed.</p>")
    num = report["numbers"]
    if num["changed"] or num["added"] or num["removed"]:
        body.append(
            "<h2>Worked numbers</h2><p>What the pages' doctest examples print, before and after.</p>"
        )
        if num["changed"]:
            body.append(
                "<table><tr><th>where</th><th>example</th><th>before</th><th>after</th></tr>"
            )
            for c in num["changed"]:
                where = f"<code>{e(c['page'])}</code>:{c['line']}<br>{e(c['section'])}" + (
                    " (Check)" if c["check"] else ""
                )
                body.append(
                    f"<tr><td>{where}</td><td><pre>{e(c['source'])}</pre></td>"
                    f"<td><pre>{e(c['before'])}</pre></td><td><pre>{e(c['after'])}</pre></td></tr>"
                )
            body.append("</table>")
        for what in ("added", "removed"):
            if num[what]:
                body.append(f"<p>Examples {what}:</p><ul>")
                body += [
                    f"<li><code>{e(x['page'])}</code>:{x['line']} <code>{e(x['source'].strip())}</code> → "
                    f"<code>{e(x['got'].strip())}</code></li>"
                    for x in num[what]
                ]
                body.append("</ul>")
    cor = report["corrections"]
    if cor["added"] or cor["removed"] or cor["boxes"]:
        body.append("<h2>Corrections</h2><ul>")
        for what in ("added", "removed"):
            for r in cor[what]:
                body.append(
                    f"<li>{what}: <code>{e(r['target'])}</code> ({e(r['section'])}): {e(r['quote'])}</li>"
                )
        for b in cor["boxes"]:
            body.append(
                f"<li>box <code>#{e(b['id'])}</code> on <code>{e(b['page'])}</code> {b['status']}</li>"
            )
        body.append("</ul>")
    if report["citations"]:
        body.append("<h2>Citations</h2><ul>")
        for c in report["citations"]:
            parts = [f"<ins>{e(k)}</ins>" for k in c["added"]] + [
                f"<del>{e(k)}</del>" for k in c["removed"]
            ]
            body.append(f"<li><code>{e(c['page'])}</code>: {', '.join(parts)}</li>")
        body.append("</ul>")
    api = report["api"]
    if api["added"] or api["removed"] or api["changed"]:
        body.append("<h2>API reference</h2><ul>")
        body += [
            f"<li>added <code>{e(a['signature'])}</code> (<code>{e(a['name'])}</code>)</li>"
            for a in api["added"]
        ]
        body += [f"<li>removed <code>{e(a['name'])}</code></li>" for a in api["removed"]]
        body += [
            f"<li><code>{e(a['name'])}</code>: <del>{e(a['before'])}</del> → <ins>{e(a['after'])}</ins></li>"
            for a in api["changed"]
        ]
        body.append("</ul>")
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Change report against {e(base)}</title><style>{CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the git ref to compare with (BASE=)")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the checkout (default: .)")
    parser.add_argument("--out", type=Path, default=None, help="default: <root>/diff-report")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out = (args.out or root / "diff-report").resolve()
    cache = root / ".cache" / "diff"
    try:
        sha = _git(root, "rev-parse", "--verify", f"{args.base}^{{commit}}")
    except subprocess.CalledProcessError as err:
        raise SystemExit(f"diff: BASE={args.base} is not a commit: {err.stderr.strip()}") from None
    ours = ("report.json", "summary.md")  # a report's, or the note of one that failed
    if out.is_dir() and any(out.iterdir()) and not any((out / n).is_file() for n in ours):
        raise SystemExit(f"diff: {out} is not empty and holds no report: not replacing it")
    t0 = time.perf_counter()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    label = f"{args.base} ({sha[:12]})" if not sha.startswith(args.base) else sha[:12]
    print("[diff] building the working tree", flush=True)
    try:
        after = record(root, out / "site", cache / "head.json", cache)
        before, figs_before, kept = base_record(root, sha, cache)
    except BuildFailed as failed:
        which = "the working tree" if Path(str(failed)) == root else f"{label}"
        text = (
            f"# Change report against `{label}`\n\nNo report: the site at {which} did not "
            "build (a figure, a notebook or a plugin failed; the log says which).\n"
        )
        (out / "summary.md").write_text(text, encoding="utf-8")
        raise SystemExit(f"diff: the site at {which} did not build (its log is above)") from None
    report = compare(before, after, figs_before, root / "docs" / "figures", out)
    report["base"] = {"ref": args.base, "sha": sha}
    (out / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    (out / "summary.md").write_text(summary_md(report, label), encoding="utf-8")
    (out / "index.html").write_text(index_html(report, label, site=True), encoding="utf-8")
    verdict = "no change" if is_empty(report) else "changes"
    print(
        f"[diff] {verdict}: {out / 'index.html'} ({time.perf_counter() - t0:.1f} s; "
        f"builds: working tree {after['seconds']['build']} s, base "
        f"{before['seconds']['build']} s{', recorded before' if kept else ''})",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
