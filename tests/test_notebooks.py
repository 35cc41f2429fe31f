"""The notebooks (scripts/mlnotes_site/plugins/notebooks.py): each is executed again only
when it or the `mlnotes` code it imported changed (its key, through keys.py), each plot is
drawn in the light and the dark figure style and follows the palette, and the
downloadable .ipynb is the executed notebook."""

from __future__ import annotations

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
