"""`make serve` rebuilds incrementally (scripts/mlnotes_site/plugins/incremental/): after edits, the
served site equals a clean build of the same sources.

Correctness only, never timing (the timings are `scripts/dev/bench_loop.py`'s). One
`mkdocs serve --dirty` (what `make serve` runs) on a scratch copy of the project goes
through a page edit, a docstring edit, an edit that renumbers a page's equations, a
docstring's `Equation:` line moved to another page, an edit of the bibliography, a
figure-script edit, a new blog post, a changed page title, a deleted post, one more
page edit and a renamed heading that another page links to (the serve must warn, as a
strict build fails; then it is renamed back); then every file it serves is compared byte for byte with a clean
`mkdocs build --strict` of the edited copy (pages with their navigation, the search index,
the blog index and feeds, the API reference, the figures, the notebooks and their
downloads), and the set of files too. Both builds get the same SOURCE_DATE_EPOCH
(bench_loop.ENV): the sitemap and the feeds carry the build date.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

# scripts/dev is on sys.path through pytest's `pythonpath` option (pyproject.toml)
import bench_loop

ROOT = Path(__file__).resolve().parent.parent
# between two edits, the log quiet this long (s) after a rebuild: MkDocs starts a rebuild
# 0.1 s after a file event (mkdocs.livereload's build_delay), and each step waits for
# its change to show; before the comparison at the end, bench_loop's default (1.5 s)
STEP_QUIET = 0.75
LIVERELOAD = re.compile(rb"<script>\s*var livereload = .*?</script>", re.S)
EQUATION_LINK = re.compile(rb"equation \((\d+)\) of ")

NEW_POST = """---
date:
  created: 2025-01-02
authors: [giovani]
categories: [Transformers]
slug: loop-post
---

# A post written while serving

Loop post excerpt, with $a^2 + b^2 = c^2$.

<!-- more -->

## Loop post section

Loop post body.
"""


def _normalize(rel: str, body: bytes, urls: tuple[bytes, bytes]) -> bytes:
    served_url, site_url = urls
    if rel.endswith(".gz"):
        body = gzip.decompress(body)
    if rel.endswith((".html", ".xml", ".gz", ".json")):
        body = LIVERELOAD.sub(b"", body).replace(served_url, site_url)
    return body


@pytest.mark.slow
def test_served_site_equals_a_clean_build_after_edits(tmp_path):
    tree = bench_loop.scratch_copy(tmp_path / "tree", ROOT, seed_figures=True)
    server = bench_loop.Server(tree, tmp_path / "serve.log")
    try:
        server.settle(STEP_QUIET)

        # 1. a page: a new section (navigation table of contents, search entries)
        with open(tree / "docs/notes/cnn.md", "a", encoding="utf-8") as f:
            f.write("\n## Loop section\n\nLoop paragraph on the page.\n")
        server.wait_for("notes/cnn/", lambda b: b"Loop paragraph on the page." in b)
        server.settle(STEP_QUIET)

        # 2. a docstring: the API page of mlnotes.cnn (and its figures and notebook)
        path, ready = bench_loop.edit_docstring(tree, 1)
        server.wait_for(path, ready)
        server.settle(STEP_QUIET)

        # 2b. a page's equation numbers: the API page's "equation (N) of CNNs" follows
        before = EQUATION_LINK.search(server.get("reference/cnn/"))
        assert before, "reference/cnn/ links no equation by number"
        number = int(before.group(1)) + 1
        cnn = tree / "docs/notes/cnn.md"
        cnn.write_text(
            cnn.read_text(encoding="utf-8").replace(
                "### The size of the output\n",
                "### The size of the output\n\n$$\n\\begin{equation}\nx = 1\n\\end{equation}\n$$\n",
                1,
            ),
            encoding="utf-8",
        )
        server.wait_for("reference/cnn/", lambda b: f"equation ({number}) of ".encode() in b)
        server.settle(STEP_QUIET)

        # 2c. a docstring's Equation: line names an equation of another page: the old page
        # loses its "Computed by conv_output_size", the new one shows it
        module = tree / "mlnotes/cnn.py"
        text = module.read_text(encoding="utf-8")
        assert "notes/cnn.md#eq:cnn-output-size" in text
        module.write_text(
            text.replace("notes/cnn.md#eq:cnn-output-size", "notes/probability.md#eq:prob-pdf"),
            encoding="utf-8",
        )
        server.wait_for("notes/probability/", lambda b: b"conv_output_size" in b)
        server.settle(STEP_QUIET)

        # 2d. the bibliography: every page's citations and References lists
        bib = tree / "docs/references.bib"
        bib.write_text(
            bib.read_text(encoding="utf-8").replace(
                "{Deep Learning}", "{Deep Learning, edited}", 1
            ),
            encoding="utf-8",
        )
        server.wait_for("notes/cnn/", lambda b: b"Deep Learning, edited" in b)
        server.settle(STEP_QUIET)

        # 3. a figure script: the figure, and the page that lists the script
        path, ready = bench_loop.edit_figure(tree, 1, server)
        server.wait_for(path, ready)
        server.settle(STEP_QUIET)

        # 4. a new page: a blog post (blog index, category view, search)
        (tree / "docs/blog/posts/loop-post.md").write_text(NEW_POST, encoding="utf-8")
        server.wait_for("blog/loop-post/", lambda b: b"Loop post body." in b)
        server.settle(STEP_QUIET)

        # 5. a page's title: the navigation of every page names it
        la = tree / "docs/notes/linear-algebra.md"
        la.write_text(
            la.read_text(encoding="utf-8").replace(
                "# Linear Algebra\n", "# Linear Algebra, edited\n", 1
            ),
            encoding="utf-8",
        )
        server.wait_for("sources/", lambda b: b"Linear Algebra, edited" in b)
        server.settle(STEP_QUIET)

        # 6. a deleted page
        (tree / "docs/blog/posts/loop-post.md").unlink()
        server.wait_for("blog/", lambda b: b"Loop post excerpt" not in b)
        server.settle(STEP_QUIET)
        assert server.get("blog/loop-post/") is None, "the deleted post is still served"

        # 7. a page again, rendered alone: the feeds still list every post
        with open(tree / "docs/notes/probability.md", "a", encoding="utf-8") as f:
            f.write("\nLoop paragraph on another page.\n")
        server.wait_for("notes/probability/", lambda b: b"Loop paragraph on another page." in b)
        server.settle(STEP_QUIET)

        # 8. a renamed heading: the serve warns about the page that links to its old anchor
        # (sources.md, not re-rendered), with MkDocs' own message, as a strict build fails;
        # renamed back, the warning goes
        heading, renamed = "### The receptive field\n", "### The receptive field, renamed\n"
        link = "notes/cnn.md#the-receptive-field"
        assert link in (tree / "docs/sources.md").read_text(encoding="utf-8")
        cnn = tree / "docs/notes/cnn.md"
        original = cnn.read_text(encoding="utf-8")
        assert heading in original
        log = Path(server.log.name)
        start = log.stat().st_size
        cnn.write_text(original.replace(heading, renamed, 1), encoding="utf-8")
        server.wait_for("notes/cnn/", lambda b: b"The receptive field, renamed" in b)
        server.settle(STEP_QUIET)
        warned = log.read_text(encoding="utf-8", errors="replace")[start:]
        assert re.search(rf"WARNING.*'sources\.md' contains a link '{re.escape(link)}'", warned), (
            warned[-3000:]
        )
        start = log.stat().st_size
        cnn.write_text(original, encoding="utf-8")
        server.wait_for("notes/cnn/", lambda b: b"The receptive field, renamed" not in b)
        server.settle()
        assert (
            "does not contain an anchor"
            not in log.read_text(encoding="utf-8", errors="replace")[start:]
        )

        clean = tmp_path / "clean"
        bench_loop.build(tree, clean)
        served_dir = server.site_dir()
        served_files = sorted(
            p.relative_to(served_dir).as_posix() for p in served_dir.rglob("*") if p.is_file()
        )
        clean_files = sorted(
            p.relative_to(clean).as_posix() for p in clean.rglob("*") if p.is_file()
        )
        assert served_files == clean_files

        urls = (server.url.encode(), b"http://127.0.0.1:8000/")
        differ = []
        for rel in clean_files:
            served = server.get(rel)
            assert served is not None, f"{rel} is not served"
            if _normalize(rel, served, urls) != _normalize(rel, (clean / rel).read_bytes(), urls):
                differ.append(rel)
        assert differ == [], f"served files differ from a clean build: {differ}"

        # the search index is compared above byte for byte; check it saw the edits
        index = json.loads((clean / "search/search_index.json").read_text(encoding="utf-8"))
        locations = {doc["location"] for doc in index["docs"]}
        assert "notes/cnn/#loop-section" in locations
        assert not any(loc.startswith("blog/loop-post/") for loc in locations)
        # and the equation links: the moved Equation: line, the renumbered page
        computed_by = re.compile(rb'<p class="mlnotes-computed-by">(.*?)</p>', re.S)
        cnn = computed_by.findall((clean / "notes/cnn/index.html").read_bytes())
        probability = computed_by.findall((clean / "notes/probability/index.html").read_bytes())
        assert not any(b"conv_output_size" in line for line in cnn), cnn
        assert any(b"conv_output_size" in line for line in probability), probability
    finally:
        server.close()
