"""The author's mistakes under `make serve` (scripts/mlnotes_site/plugins/problems.py): the server keeps
running, each page a mistake touches says so (file or key, line, message), nothing stale
is served as current, and fixing the file brings the page back without a restart.

One `mkdocs serve --dirty` (what `make serve` runs) on a scratch copy of the project goes
through five mistakes, each made and then fixed: a figure script that raises, an unknown
citation key, a broken TeX expression, a notebook cell that raises, a syntax error in
`mlnotes`; and an edit of the build code, which asks for a restart. Correctness only,
never timing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bench_loop  # scripts/dev, on sys.path through pytest's `pythonpath` (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
BANNER = b"mlnotes-build-problem"


def _has(*needles: bytes):
    return lambda body: all(n in body for n in needles)


def _clean(body: bytes) -> bool:
    return BANNER not in body


@pytest.mark.slow
def test_mistakes_show_in_the_served_page_and_recover(tmp_path):
    tree = bench_loop.scratch_copy(tmp_path / "tree", ROOT, seed_figures=True)
    server = bench_loop.Server(tree, tmp_path / "serve.log")
    try:
        server.settle()
        page, figure = "notes/cnn/", "figures/cnn_output_size.svg"
        assert _clean(server.get(page)) and server.get(figure) is not None

        # 1. a figure script that raises: the page that shows it names the script, the
        #    line and the message; its old SVG is gone (not served as if current)
        script = tree / "scripts/figures/cnn_output_size.py"
        good = script.read_text(encoding="utf-8")
        script.write_text(
            good.replace(
                "def make_figure(",
                'def make_figure(*a, **k):\n    raise ValueError("loop figure mistake")\n\n\ndef _unused(',
                1,
            ),
            encoding="utf-8",
        )
        raised_at = good[: good.index("def make_figure(")].count("\n") + 2
        server.wait_for(
            page,
            _has(
                BANNER,
                b"scripts/figures/cnn_output_size.py",
                b"loop figure mistake",
                f"line {raised_at}".encode(),
            ),
        )
        assert server.get(figure) is None
        assert server.get("") is not None  # the server is up, other pages served
        script.write_text(good, encoding="utf-8")
        server.wait_for(page, _clean)
        assert server.get(figure) is not None
        server.settle()

        # 2. an unknown citation key: the page names the key
        notes = tree / "docs/notes/cnn.md"
        text = notes.read_text(encoding="utf-8")
        notes.write_text(text + "\nA claim [@nosuchkey2099].\n", encoding="utf-8")
        server.wait_for(page, _has(BANNER, b"nosuchkey2099", b"notes/cnn.md"))
        notes.write_text(text, encoding="utf-8")
        server.wait_for(page, _clean)
        server.settle()

        # 2b. a broken TeX expression: the page names it and the TeX error
        notes.write_text(text + "\nA slip: $\\fracc{a}{b}$.\n", encoding="utf-8")
        server.wait_for(page, _has(BANNER, b"TeX error", b"fracc", b"notes/cnn.md"))
        notes.write_text(text, encoding="utf-8")
        server.wait_for(page, _clean)
        server.settle()

        # 3. a notebook cell that raises: the notebook's page names the file, the line of the
        #    cell and the message, shows no stale outputs, and offers no stale download
        nb_page, nb_download = "notebooks/cnn/", "notebooks/cnn.ipynb"
        notebook = tree / "docs/notebooks/cnn.py"
        source = notebook.read_text(encoding="utf-8")
        lines = source.count("\n")
        notebook.write_text(
            source + '\n# %%\nraise RuntimeError("loop notebook mistake")\n', encoding="utf-8"
        )
        server.wait_for(nb_page, _has(BANNER, b"loop notebook mistake"))
        body = server.get(nb_page)
        assert f"docs/notebooks/cnn.py:{lines + 3}: RuntimeError".encode() in body
        assert server.get(nb_download) is None
        notebook.write_text(source, encoding="utf-8")
        server.wait_for(nb_page, _clean)
        assert server.get(nb_download) is not None
        server.settle()

        # 4. a syntax error in mlnotes: the API page names the module, the line and the error;
        #    the pages and figures that import it say so too; the server survives
        api = "reference/cnn/"
        module = tree / "mlnotes/cnn.py"
        code = module.read_text(encoding="utf-8")
        module.write_text(code + "\ndef broken(:\n    pass\n", encoding="utf-8")
        line = code.count("\n") + 2
        server.wait_for(api, _has(BANNER, f"mlnotes/cnn.py:{line}: SyntaxError".encode()))
        server.wait_for(page, _has(BANNER, b"scripts/figures/cnn_output_size.py"))
        assert server.get(figure) is None
        module.write_text(code, encoding="utf-8")
        server.wait_for(api, lambda b: _clean(b) and b"conv_output_size" in b)
        server.wait_for(page, _clean)
        assert server.get(figure) is not None
        server.settle()

        # 5. the build code itself: Python keeps the plugin modules it imported, so every page asks
        #    for a restart until the file is as the server loaded it
        hook = tree / "scripts/mlnotes_site/plugins/problems.py"
        original = hook.read_text(encoding="utf-8")
        hook.write_text(original + "\n# an edit\n", encoding="utf-8")
        server.wait_for(
            "", _has(BANNER, b"scripts/mlnotes_site/plugins/problems.py changed", b"restart")
        )
        assert b"restart" in server.get(page)
        hook.write_text(original, encoding="utf-8")
        server.wait_for("", _clean)
        assert server.proc.poll() is None
    finally:
        server.close()
