"""The notebooks (scripts/mlnotes_site/plugins/notebooks.py): each is executed again only
when it or the `mlnotes` code it imported changed (its key, through keys.py), each plot is
drawn in the light and the dark figure style and follows the palette, and the
downloadable .ipynb is the executed notebook."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from mlnotes_site import keys
from mlnotes_site.plugins import notebooks

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def tree(scratch_package):
    """The scratch project of conftest (alpha imports beta; gamma stands alone), with a
    notebooks folder."""
    (scratch_package / "docs" / "notebooks").mkdir(parents=True)
    return scratch_package


def _notebook(tree: Path, body: str) -> Path:
    path = tree / "docs" / "notebooks" / "nb.py"
    path.write_text("# %% [markdown]\n# # A notebook\n\n# %%\n" + body)
    return path


def test_notebook_dependencies_follow_its_mlnotes_imports(tree):
    nb = _notebook(tree, "from mlnotes.alpha import A\nimport numpy\n")
    names = {p.name for p in keys.dependencies(nb, tree / "mlnotes", notebooks.ALWAYS)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py"}


def test_a_notebook_that_does_not_parse_depends_on_all_of_mlnotes(tree):
    nb = _notebook(tree, "%timeit 1 + 1\n")  # a magic jupytext did not comment out
    names = {p.name for p in keys.dependencies(nb, tree / "mlnotes", notebooks.ALWAYS)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py", "gamma.py"}
    nb.write_bytes(b"# %%\nx = '\xff'\n")  # not UTF-8
    names = {p.name for p in keys.dependencies(nb, tree / "mlnotes", notebooks.ALWAYS)}
    assert names == {"__init__.py", "plotting.py", "alpha.py", "beta.py", "gamma.py"}


def test_a_notebook_key_ignores_docstring_edits_of_what_it_imports(tree):
    nb = _notebook(tree, "from mlnotes.alpha import A\nprint(A)\n")
    beta = tree / "mlnotes" / "beta.py"
    first = notebooks.notebook_key(nb, tree)
    beta.write_text('"""Beta, documented."""\n\nB = 2\n')
    assert notebooks.notebook_key(nb, tree) == first
    beta.write_text("B = 3\n")
    assert notebooks.notebook_key(nb, tree) != first


def test_downloadable_notebooks_are_executed(site):
    import nbformat

    for src in sorted((ROOT / "docs" / "notebooks").glob("*.py")):
        nb = nbformat.read(site.path / "notebooks" / f"{src.stem}.ipynb", as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code and all(c.execution_count for c in code), src.name
        assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), src.name
        assert sum(len(c.outputs) for c in code) >= 1, src.name
        assert not any("_mlnotes_style" in c.source for c in code), (
            "the setup cell leaked into the download"
        )
        # an object's repr with its address (`<matplotlib.legend.Legend at 0x7f…>`) differs
        # on every run: a page that changes with no edit
        reprs = [
            text
            for c in code
            for out in c.outputs
            for text in [out.get("text", "") + out.get("data", {}).get("text/plain", "")]
            if re.search(r" at 0x[0-9a-f]+>", text)
        ]
        assert not reprs, (src.name, reprs)


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "docs" / "notebooks").glob("*.py")))
def test_notebook_plots_follow_the_palette(site, desktop, name):
    """Each plot shows its light image in the light palette, its dark one in the dark
    palette (the desktop snapshot's toggle), each with the background of its palette: the
    mean luminance of its outer frame (axis labels, ticks, background), drawn over the
    page's background (tests/browser/snapshots.py: PLOTS)."""
    import json
    import urllib.request

    visit = desktop[f"notebooks/{name}/"]
    images = (site.path / "notebooks" / f"{name}.ipynb").read_text().count('"image/png"')
    assert visit["themed_plots"] == images >= 1, (
        f"{name}: {images} plots in the notebook, {visit['themed_plots']} themed on the page"
    )
    lums: dict[int, dict[str, dict]] = {}
    for scheme, shown, dark in (("default", "light", False), ("slate", "dark", True)):
        for i, plot in enumerate(visit["plots"][scheme]):
            visible = plot["visible"]
            assert len(visible) == 1, f"{name} plot {i}: {len(visible)} images visible in {scheme}"
            assert visible[0] == f"mlnotes-only-{shown}"
            lum = plot["luminance"]
            lums.setdefault(i, {})[scheme] = lum
            frame = lum["frame"]
            assert (frame < 0.3) if dark else (frame > 0.7), (
                f"{name} plot {i} in {scheme}: luminance {lum}"
            )
    for i, lum in lums.items():
        assert lum["slate"]["all"] < lum["default"]["all"] - 0.1, (
            f"{name} plot {i}: the dark plot is not darker: {lum}"
        )
    with urllib.request.urlopen(visit["notebook"]["mlnotesDownload"]) as response:
        download = json.load(response)
    outputs = [o for c in download["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert not visit.problems, visit.problems


def test_a_notebook_is_re_executed_only_for_the_mlnotes_modules_it_imports(monkeypatch):
    """The executed-notebook cache key covers the notebook and the mlnotes modules it imports."""
    notebook = ROOT / "docs" / "notebooks" / "cnn.py"
    names = {p.name for p in keys.dependencies(notebook, ROOT / "mlnotes", notebooks.ALWAYS)}
    assert {"cnn.py", "__init__.py", "plotting.py"} <= names
    assert "embeddings.py" not in names and "linalg.py" not in names
    # the key reads exactly those files, the notebook and its producer's code (the plugin, keys.py)
    read = []
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.name) or original(self))
    notebooks.notebook_key(notebook, ROOT)
    assert set(read) == names | {"cnn.py", "notebooks.py", "keys.py"}


NOTEBOOK = """\
# %%
import importlib

cnn = importlib.import_module("mlnotes.cnn")  # an import no source scan sees
print(cnn.conv_output_size(32, 3, stride=1, padding=1))
"""


# about 15 s: two Jupyter kernels run the notebook
@pytest.mark.slow
def test_a_notebook_is_keyed_on_what_it_imported_when_it_ran(tmp_path, monkeypatch):
    """The kernel records the `mlnotes` files the notebook imported as it ran
    (`<cache>/<name>.imports`), also through `importlib.import_module`; the key is made
    of those, and the recording cell leaves no trace in the executed notebooks."""
    import json

    import nbformat

    notebook = tmp_path / "nb.py"
    notebook.write_text(NOTEBOOK)
    cache = tmp_path / "cache"
    page, download = notebooks.build_notebook(notebook, ROOT, cache)
    recorded = json.loads((cache / "nb.imports").read_text())
    assert {"__init__.py", "cnn.py", "plotting.py"} <= set(recorded)
    assert "embeddings.py" not in recorded
    assert "cnn.py" not in {
        p.name for p in keys.dependencies(notebook, ROOT / "mlnotes", notebooks.ALWAYS)
    }
    assert (cache / "nb.key").read_text() == notebooks.notebook_key(notebook, ROOT, recorded)
    for written in (page, download):
        nb = nbformat.read(written, as_version=4)
        assert "mlnotes_imports" not in nb.metadata
        assert [c.source for c in nb.cells if c.cell_type == "code"] == [
            NOTEBOOK.split("\n", 1)[1].rstrip("\n")
        ]
        assert nb.cells[-1].outputs[0]["text"] == "32\n"
    # the next build reads the record: a cache hit, nothing runs
    monkeypatch.setattr(notebooks, "execute_notebook", lambda *a, **k: pytest.fail("ran again"))
    assert notebooks.build_notebook(notebook, ROOT, cache) == (page, download)


def _png(width: int, height: int, grey: int) -> bytes:
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(width / 100, height / 100), dpi=100, facecolor=str(grey / 255))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def test_plots_are_files_of_their_size_linked_lazily():
    """Each plot's two images become files (none inline), linked with the size the PNG
    header gives (here matplotlib's, drawn at a size of our choosing) and `loading="lazy"`."""
    import base64
    import re

    import nbformat

    def notebook(grey):
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("plot()")
        png = base64.b64encode(_png(300, 200, grey)).decode()
        cell.outputs = [
            nbformat.v4.new_output("display_data", data={"image/png": png, "text/plain": "Fig"})
        ]
        nb.cells = [nbformat.v4.new_code_cell("x = 1"), cell]
        return nb

    merged, plots = notebooks.merge_themes(notebook(250), notebook(20), "nb.py", "nb")
    assert (
        sorted(plots)
        == merged.metadata["mlnotes_plots"]
        == [
            "plot-1-dark.png",
            "plot-1-light.png",
        ]
    )
    assert plots["plot-1-light.png"] != plots["plot-1-dark.png"]
    assert all(notebooks.png_size(data) == (300, 200) for data in plots.values())
    html = merged.cells[1].outputs[0].data["text/html"]
    assert "data:" not in html
    imgs = re.findall(r"<img [^>]*>", html)
    assert [re.search(r'src="([^"]*)"', i)[1] for i in imgs] == [
        "nb/plot-1-light.png",
        "nb/plot-1-dark.png",
    ]
    assert all('width="300" height="200" loading="lazy"' in i for i in imgs)
    # the page's links: relative to the page, whatever its address
    linked = notebooks.plot_links(html, "nb", {"plot-1-light.png": "../nb/plot-1-light.png"})
    assert 'src="../nb/plot-1-light.png"' in linked and 'src="nb/plot-1-dark.png"' in linked
    with pytest.raises(ValueError, match="data: not a PNG"):
        notebooks.png_size(b"GIF89a" + bytes(30))


CSS = """@charset "UTF-8";
.jupyter-wrapper{--jp-x: 1px}
.jupyter-wrapper .jp-Cell{margin:0}
.jupyter-wrapper .jp-Toolbar{color:red}
.jupyter-wrapper .jp-Toolbar,.jupyter-wrapper .jp-Cell .jp-InputArea{padding:0}
.jupyter-wrapper .jp-Cell:not(.jp-mod-active) .jp-InputPrompt{opacity:.5}
.jupyter-wrapper :is(.jp-Cell, .jp-Toolbar) .jp-Dialog{color:green}
.jupyter-wrapper :is(.jp-Toolbar, .jp-Notebook) .jp-InputArea{color:teal}
.jupyter-wrapper :root{--jp-huge: 0}
.jupyter-wrapper body{margin:0}
.jupyter-wrapper [data-jp-theme-light=true] pre{color:blue}
@media print{.jupyter-wrapper .jp-Cell{break-inside:avoid}.jupyter-wrapper .jp-Dialog{display:none}}
@media (max-width:100px){.jupyter-wrapper .jp-Dialog{display:none}}
@keyframes spin{to{transform:rotate(1turn)}}
"""


def test_the_jupyter_stylesheet_keeps_the_rules_that_can_match():
    """A rule stays when one of its selectors needs only classes the page has (those in
    `:not(...)` or `:is(...)` need not be there); the root or the body inside an element never matches."""
    classes = {"jupyter-wrapper", "jp-Cell", "jp-InputArea", "jp-InputPrompt"}
    pruned = notebooks.prune_css(CSS, classes)
    for kept in (
        ".jupyter-wrapper{--jp-x: 1px}",
        ".jupyter-wrapper .jp-Cell{margin:0}",
        ".jupyter-wrapper .jp-Toolbar,.jupyter-wrapper .jp-Cell .jp-InputArea{padding:0}",
        ".jupyter-wrapper .jp-Cell:not(.jp-mod-active) .jp-InputPrompt{opacity:.5}",
        ".jupyter-wrapper [data-jp-theme-light=true] pre{color:blue}",
        ".jupyter-wrapper :is(.jp-Toolbar, .jp-Notebook) .jp-InputArea{color:teal}",
        "@media print{.jupyter-wrapper .jp-Cell{break-inside:avoid}}",
        "@keyframes spin{to{transform:rotate(1turn)}}",
    ):
        assert kept in pruned, kept
    # a comma inside :is(...) does not split the selector: .jp-Dialog is still needed
    for dropped in ("color:red", "--jp-huge", "body{", "jp-Dialog", "max-width:100px", "green"):
        assert dropped not in pruned, dropped
    # without the wrapper's class, nothing of the wrapper's
    assert ".jupyter-wrapper" not in notebooks.prune_css(CSS, {"jp-Cell"})


def test_a_notebook_page_carries_its_plots_as_files_and_a_pruned_stylesheet(site):
    """On the built notebook pages: no image inline, every linked plot a file of the site,
    and a JupyterLab stylesheet (mkdocs-jupyter's, 575 KB) of under 60 KB."""
    import re

    for src in sorted((ROOT / "docs" / "notebooks").glob("*.py")):
        page = site.path / "notebooks" / src.stem / "index.html"
        html = page.read_text(encoding="utf-8")
        # (the stylesheet has two data: PNG backgrounds of its own)
        assert "data:image/png" not in re.sub(r"<style.*?</style>", "", html, flags=re.S), src.name
        links = re.findall(r'<img [^>]*src="(plot-[^"]+\.png)"', html)
        assert len(links) >= 2 and len(links) % 2 == 0, (src.name, links)
        assert all((page.parent / link).is_file() for link in links), src.name
        css = notebooks.JUPYTER_CSS.search(html)
        assert css is not None and 1_000 < len(css.group(2)) < 60_000, src.name
