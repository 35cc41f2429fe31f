"""The study apparatus (scripts/mlnotes_site/plugins/notebooks.py, equations/, docs/javascripts/apparatus.js).
Citations are tests/test_citations.py's.

- equation <-> code: a docstring's `Equation:` section links to the equation, the
  equation links back to the function, an unknown label fails the strict build, and
  hovering the link shows the equation typeset, numbered as on its page;
- notebooks: each plot drawn in the light and the dark figure style, switched with the
  palette; the downloadable .ipynb is the executed notebook.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mlnotes_site.chromium import wait_for_math

from mlnotes_site import keys
from mlnotes_site.plugins import equations, notebooks

ROOT = Path(__file__).resolve().parent.parent


BIB = """
@book{solo2020, author = {Solo, Ann}, title = {One Author}, publisher = {P}, year = {2020}}
@article{duo2019, author = {Duo, Bea and Pair, Cy}, title = {Two Authors}, journal = {J}, year = {2019}}
@misc{trio2018, author = {Trio, Di and Quad, Ed and Quint, Flo}, title = {{Three Authors}}, year = {2018}}
"""


# --- units ------------------------------------------------------------------------------


def test_hook_doctests():
    modules = (notebooks, equations.docstrings, equations.tree)
    results = [doctest.testmod(module) for module in modules]
    assert sum(r.attempted for r in results) >= 4 and sum(r.failed for r in results) == 0


def test_docstring_equation_section_is_strict():
    assert equations.docstring_equations(
        "S.\n\nEquation:\n    notes/a.md#eq:x\n    notes/b.md#eq:y\n"
    ) == [
        ("notes/a.md", "eq:x"),
        ("notes/b.md", "eq:y"),
    ]
    with pytest.raises(ValueError, match="page.md#label"):
        equations.docstring_equations("S.\n\nEquation:\n    the output size formula\n")


def test_every_equation_named_in_mlnotes_exists():
    refs = equations.collect_equation_refs(ROOT / "mlnotes")
    assert ("mlnotes.cnn.conv_output_size", "notes/cnn.md", "eq:cnn-output-size") in {
        (r.identifier, r.page, r.label) for r in refs
    }
    assert equations.validate_equation_refs(refs, ROOT / "docs") == []


_POST, _PROB, _LA, _CNN = (
    "blog/posts/sinusoidal-embeddings.md",
    "notes/probability.md",
    "notes/linear-algebra.md",
    "notes/cnn.md",
)

#: The functions of `mlnotes` that compute a numbered equation of a page, and its labels
#: (issue 12; the mapping is /work/notes/equations-plan.md's, plus distance_at_offset).
COMPUTED_EQUATIONS = {
    "mlnotes.embeddings.frequencies": {(_POST, "eq:se-vector")},
    "mlnotes.embeddings.sinusoidal_embeddings": {
        (_POST, "eq:se-def-sin"),
        (_POST, "eq:se-def-cos"),
        (_POST, "eq:se-vector"),
    },
    "mlnotes.embeddings.SinusoidalEmbeddings": {(_POST, "eq:se-vector")},
    "mlnotes.embeddings.shift_matrix": {(_POST, "eq:se-M")},
    "mlnotes.embeddings.distance_at_offset": {(_POST, "eq:se-distance-offset")},
    "mlnotes.probability.normal_pdf": {(_PROB, "eq:prob-normal-pdf")},
    "mlnotes.probability.normal_cdf": {(_PROB, "eq:prob-normal-interval")},
    "mlnotes.probability.central_interval": {(_PROB, "eq:prob-normal-interval")},
    "mlnotes.probability.marginal": {(_PROB, "eq:prob-sum-rule")},
    "mlnotes.probability.is_independent": {(_PROB, "eq:prob-independence")},
    "mlnotes.probability.bayes_posterior": {(_PROB, "eq:prob-bayes")},
    "mlnotes.probability.monty_hall_posterior": {
        (_PROB, f"eq:prob-mh-{which}") for which in ("1-2", "1-3", "2-3", "3-2")
    },
    "mlnotes.distributions.bernoulli_pmf": {(_PROB, "eq:prob-bernoulli-pmf")},
    "mlnotes.distributions.binomial_pmf": {(_PROB, "eq:prob-binomial-pmf")},
    "mlnotes.distributions.poisson_pmf": {(_PROB, "eq:prob-poisson-pmf")},
    "mlnotes.distributions.geometric_pmf": {(_PROB, "eq:prob-geometric-pmf")},
    "mlnotes.distributions.binomial_mean_var": {
        (_PROB, "eq:prob-binomial-mean"),
        (_PROB, "eq:prob-binomial-var"),
    },
    "mlnotes.distributions.poisson_mean_var": {(_PROB, "eq:prob-poisson-moments")},
    "mlnotes.distributions.geometric_mean_var": {
        (_PROB, "eq:prob-geometric-mean"),
        (_PROB, "eq:prob-geometric-var"),
    },
    "mlnotes.linalg.distance_point_point": {(_LA, "eq:la-point-point")},
    "mlnotes.linalg.distance_point_point_scalar": {(_LA, "eq:la-point-point-scalar")},
    "mlnotes.linalg.distance_point_plane": {(_LA, "eq:la-point-plane")},
    "mlnotes.linalg.distance_point_plane_scalar": {(_LA, "eq:la-point-plane-scalar")},
    "mlnotes.linalg.distance_point_line": {(_LA, "eq:la-point-line")},
    "mlnotes.linalg.distance_point_line_scalar": {(_LA, "eq:la-point-line-scalar")},
    "mlnotes.linalg.distance_line_line": {(_LA, "eq:la-line-line")},
    "mlnotes.linalg.distance_line_line_scalar": {
        (_LA, "eq:la-line-line-scalar"),
        (_LA, "eq:la-line-line-normalized"),
    },
    "mlnotes.linalg.project": {(_LA, "eq:la-projection")},
    "mlnotes.linalg.gram_schmidt": {(_LA, "eq:la-gs-i"), (_LA, "eq:la-gs-proj")},
    "mlnotes.linalg.diagonalize": {(_LA, "eq:la-eigen")},
    "mlnotes.cnn.conv_output_size": {(_CNN, "eq:cnn-output-size")},
    "mlnotes.cnn.receptive_field": {(_CNN, "eq:cnn-receptive-field")},
}


@pytest.mark.parametrize("function", sorted(COMPUTED_EQUATIONS))
def test_every_function_that_computes_an_equation_names_it(function):
    refs = equations.collect_equation_refs(ROOT / "mlnotes")
    named = {(r.page, r.label) for r in refs if r.identifier == function}
    assert named == COMPUTED_EQUATIONS[function], (
        f"{function}'s Equation: section names {sorted(named)}"
    )


def _convert(markdown_text: str, computed_by: dict[str, list[str]]) -> str:
    """A page's HTML with the site's Markdown extensions that equations meet, and
    mlnotes-equations' tree processors (`computed_by`: {label: [function, ...]})."""
    import markdown

    ext = equations.EquationsMarkdown()
    ext.start_page(computed_by)
    md = markdown.Markdown(
        extensions=["admonition", "attr_list", "pymdownx.superfences", "pymdownx.arithmatex", ext],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    return md.convert(markdown_text)


def test_computed_by_line_goes_after_the_block_in_its_wrapper():
    md = "Text\n\n$$\n\\begin{equation} x \\label{eq:a} \\end{equation}\n$$\n\nNext\n"
    html = _convert(md, {"eq:a": ["pkg.mod.f"]})
    assert re.search(
        r'<div class="mlnotes-equation" id="eq:a"><div class="arithmatex" data-eqn-start="0">'
        r'.*?</div>\n<p class="mlnotes-computed-by">Computed by \[<code>f</code>\]\[pkg.mod.f\]</p></div>',
        html,
        re.S,
    ), html
    assert "computed-by" not in _convert(md, {"eq:other": ["pkg.mod.f"]})


def test_computed_by_ignores_dollars_in_code_and_follows_a_bare_environment():
    """The old line scan toggled on any `$$` line, a code fence's too, and missed a block
    written as a bare `\\begin{align}`: the tree has arithmatex's blocks only."""
    md = (
        "```\n$$\n\\label{eq:a}\n$$\n```\n\n\\begin{align} y \\label{eq:a} \\end{align}\n\nAfter.\n"
    )
    html = _convert(md, {"eq:a": ["pkg.mod.f"]})
    assert html.count("Computed by") == 1, html
    assert re.search(r'<div class="mlnotes-equation" id="eq:a">.*?Computed by', html, re.S), html
    assert html.index("<code>$$") < html.index("mlnotes-equation")


def test_equations_are_numbered_in_the_pages_order_with_their_eqrefs():
    md = (
        "See $\\eqref{eq:c}$.\n\n"
        "$$\n\\begin{equation} x \\label{eq:a} \\end{equation}\n$$\n\n"
        '!!! note "N"\n\n    $$\n    \\begin{align} a \\label{eq:b} \\\\ b \\label{eq:c}'
        " \\end{align}\n    $$\n\n"
        "$$\ny = 1\n$$\n"
    )
    html = _convert(md, {})
    assert re.findall(r'data-eqn-start="(\d+)"', html) == ["0", "1", "3"]
    assert '<span class="arithmatex" data-eqrefs="eq:c=3">' in html
    assert '<div class="mlnotes-equation" id="eq:b"><span id="eq:c"></span>' in html


# --- strict builds of a scratch project -------------------------------------------------------


def scratch_build(
    tmp_path: Path, page: str, docstring: str = "Nothing.", notes: str = ""
) -> subprocess.CompletedProcess:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "references.bib").write_text(BIB)
    (tmp_path / "docs" / "index.md").write_text(page)
    (tmp_path / "docs" / "notes.md").write_text(notes or "# Notes\n")
    (tmp_path / "mlnotes").mkdir()
    (tmp_path / "mlnotes" / "mod.py").write_text(f'def f():\n    """{docstring}"""\n')
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent(
            """\
            site_name: scratch
            plugins: [search, mlnotes-notebooks, mlnotes-equations]
            markdown_extensions:
              - pymdownx.arithmatex: {generic: true}
            """
        )
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        # where mlnotes_site's entry points are, when it is not installed (a worktree)
        env={
            "NO_MKDOCS_2_WARNING": "1",
            "PATH": "/usr/bin:/bin",
            **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"},
        },
    )


NOTES = "# Notes\n\n$$\n\\begin{equation}\ny = x \\label{eq:present}\n\\end{equation}\n$$\n"


def test_scratch_build_passes_and_renders(tmp_path):
    result = scratch_build(
        tmp_path,
        "# Home\n",
        "Doc.\n\n    Equation:\n        notes.md#eq:present\n    ",
        NOTES,
    )
    assert result.returncode == 0, result.stderr
    notes = (tmp_path / "site" / "notes" / "index.html").read_text()
    assert '<div class="mlnotes-equation" id="eq:present">' in notes


def test_strict_build_fails_on_unknown_equation_label(tmp_path):
    result = scratch_build(
        tmp_path, "# Home\n", "Doc.\n\n    Equation:\n        notes.md#eq:absent\n    ", NOTES
    )
    assert result.returncode != 0
    assert (
        "mlnotes.mod.f (mlnotes/mod.py:1): Equation: no \\label{eq:absent} on 'notes.md'"
        in result.stderr
    )


def test_strict_build_fails_on_unknown_equation_page(tmp_path):
    result = scratch_build(
        tmp_path, "# Home\n", "Doc.\n\n    Equation:\n        nowhere.md#eq:present\n    ", NOTES
    )
    assert result.returncode != 0
    assert "Equation: page 'nowhere.md' does not exist in docs/" in result.stderr


# --- the built site ---------------------------------------------------------------------


def test_equation_links_back_to_its_function(site):
    notes = (site.path / "notes" / "cnn" / "index.html").read_text()
    block = re.search(
        r'<div class="mlnotes-equation" id="eq:cnn-output-size">(.*?)</p></div>', notes, re.S
    )
    assert block, "the output-size equation has no wrapper with its label as id"
    assert re.search(
        r'class="mlnotes-computed-by">Computed by <a [^>]*href="../../reference/cnn/#mlnotes.cnn.conv_output_size"',
        block.group(1),
    )
    reference = (site.path / "reference" / "cnn" / "index.html").read_text()
    assert re.search(
        r'<a class="autorefs autorefs-internal mlnotes-equation-link" '
        r'href="../../notes/cnn/#eq:cnn-output-size" data-preview>equation \(1\) of ',
        reference,
    )


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


# --- in the browser -----------------------------------------------------------------------

TOOLTIP = ".md-tooltip2.md-tooltip2--active"

# The tag MathJax gives a labelled equation, as its page shows it: the desktop snapshot's
# `equation_tags` (tests/browser/snapshots.py).


def _preview(page, link):
    link.scroll_into_view_if_needed()
    link.hover()
    tip = page.locator(TOOLTIP)
    tip.wait_for(state="visible", timeout=10000)
    page.wait_for_function(
        "() => document.querySelector('.md-tooltip2--active')?.dataset.mlnotesTypeset === 'done'",
        timeout=15000,
    )
    return tip


@pytest.mark.browser
def test_equation_link_preview_is_typeset_and_numbered_as_its_page(base_url, browser, desktop):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base_url + "reference/cnn/")
    wait_for_math(page)
    link = page.locator("a.mlnotes-equation-link").first
    tip = _preview(page, link)
    assert tip.locator("mjx-container").count() >= 1
    assert tip.locator("mjx-merror").count() == 0
    # (an equation wider than its box has a second, line-broken rendering: the one shown)
    assert "(1)" in tip.locator("mjx-container:visible").first.inner_text()
    assert "Computed by" in tip.inner_text()
    # the number the link states is the number MathJax gives the equation on its page
    page.close()
    assert desktop["notes/cnn/"]["equation_tags"]["mjx-eqn:eq:cnn-output-size"] == "(1)"


@pytest.mark.browser
@pytest.mark.parametrize(
    "path",
    ["blog/sinusoidal-embeddings/", "notes/probability/", "notes/linear-algebra/", "notes/cnn/"],
)
def test_build_time_equation_numbers_match_mathjax(desktop, path):
    """Previews and the API reference's links number equations as their page does."""
    # for each display block: the hook's count of the numbered equations before it, and
    # the first equation number MathJax gives the block (tests/browser/snapshots.py)
    blocks = desktop[path]["block_numbers"]
    assert blocks, f"{path}: no numbered display equation"
    wrong = [(start, tag) for start, tag in blocks if tag != f"({start + 1})"]
    assert not wrong, f"{path}: (count before the block, MathJax's first tag): {wrong[:5]}"


@pytest.mark.browser
def test_equation_preview_on_keyboard_focus_and_after_instant_navigation(base_url, browser):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base_url + "reference/")
    wait_for_math(page)
    page.evaluate("() => { window.mlnotesNoReload = true }")
    page.locator('article a[href$="/reference/cnn/"]').first.click()
    page.wait_for_url("**/reference/cnn/")
    page.locator("a.mlnotes-equation-link").first.wait_for()
    assert page.evaluate("() => window.mlnotesNoReload === true"), "the click reloaded the page"
    link = page.locator("a.mlnotes-equation-link").first
    link.focus()
    tip = page.locator(TOOLTIP)
    tip.wait_for(state="visible", timeout=10000)
    page.wait_for_function(
        "() => document.querySelector('.md-tooltip2--active')?.dataset.mlnotesTypeset === 'done'",
        timeout=15000,
    )
    assert tip.locator("mjx-container").count() >= 1
    page.close()


@pytest.mark.browser
def test_cross_page_previews_show_their_target_typeset(base_url, browser):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base_url + "sources/")
    wait_for_math(page)
    # a link from the sources page to a correction box of a notes page (its id from the
    # block's `attrs`): the preview shows the box as it is on its page, a warning
    # (scripts/mlnotes_site/box_previews.py)
    tip = _preview(
        page,
        page.locator('article a[data-preview][href$="notes/probability/#correction-pdf"]').first,
    )
    assert tip.locator("div.admonition.warning.mlnotes-block-preview").count() == 1
    text = tip.inner_text()
    assert text.startswith("Correction: the pdf is a density"), text[:200]
    assert "???" not in text, "an \\eqref to the previewed page is unresolved"
    assert tip.locator("mjx-container").count() >= 1 and tip.locator("mjx-merror").count() == 0
    assert not re.search(r"\\\(|\\\[|\\frac|\\begin", text), text[:300]
    page.mouse.move(0, 0)
    page.wait_for_timeout(600)
    # a link from the sources page to a correction of the post
    page.goto(base_url + "sources/")
    wait_for_math(page)
    section = page.locator(
        'article a[data-preview][href$="blog/sinusoidal-embeddings/#correction-properties"]'
    ).first
    tip = _preview(page, section)
    assert tip.inner_text().strip()
    page.close()


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


@pytest.mark.browser
def test_on_a_touch_screen_an_equation_link_navigates(base_url, browser):
    context = browser.new_context(
        has_touch=True, is_mobile=True, viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    page.goto(base_url + "reference/cnn/")
    wait_for_math(page)
    link = page.locator("a.mlnotes-equation-link").first
    link.scroll_into_view_if_needed()
    # A reader taps after the scroll has settled. navigation.tracking rewrites the URL's
    # hash to the section in view a moment after a scroll; on a loaded machine a tap made
    # at once ended on notes/cnn/#mlnotes.cnn.conv_output_size, the API page's anchor on
    # the new page's URL (likely that rewrite landing after the tap's pushState). Wait
    # until the hash has not changed for half a second.
    stable, last = 0, None
    for _ in range(50):
        now = page.evaluate("location.hash")
        stable = stable + 1 if now == last else 0
        last = now
        if stable >= 5:
            break
        page.wait_for_timeout(100)
    link.tap()
    page.wait_for_url("**/notes/cnn/#eq:cnn-output-size", timeout=10000)
    wait_for_math(page)
    box = page.locator('[id="eq:cnn-output-size"]').bounding_box()
    assert box and 0 <= box["y"] < 740, f"the equation is not in view after the tap: {box}"
    context.close()


# A preview as Material builds it (the target's content copied into an <h3> of a
# `.md-tooltip2` appended to <body>), for an equation that is not the first of its page.
FAKE_PREVIEW = """async ([url, id]) => {
    const doc = new DOMParser().parseFromString(await (await fetch(url)).text(), 'text/html');
    const target = doc.querySelector(`[id="${id}"]`);
    const tip = document.createElement('div');
    tip.className = 'md-tooltip2';
    const h3 = document.createElement('h3');
    h3.innerHTML = target.innerHTML;
    tip.append(h3);
    document.body.append(tip);
    for (let i = 0; i < 150 && tip.dataset.mlnotesTypeset !== 'done'; i++) await new Promise(r => setTimeout(r, 100));
    const tag = tip.querySelector('mjx-assistive-mml mlabeledtr > mtd:first-child');
    return {state: tip.dataset.mlnotesTypeset, tag: tag && tag.textContent.trim(), errors: tip.querySelectorAll('mjx-merror').length};
}"""


@pytest.mark.browser
def test_a_preview_numbers_an_equation_as_its_page_does(base_url, browser, desktop):
    on_its_page = desktop["notes/probability/"]["equation_tags"]["mjx-eqn:eq:prob-bayes"]
    assert on_its_page not in ("", "(1)"), on_its_page  # not trivially the first equation
    page = browser.new_page()
    page.goto(base_url + "reference/cnn/")  # a page with no numbered equation of its own
    wait_for_math(page)
    preview = page.evaluate(FAKE_PREVIEW, [base_url + "notes/probability/", "eq:prob-bayes"])
    assert preview == {"state": "done", "tag": on_its_page, "errors": 0}
    page.close()


def test_computed_by_line_in_an_admonition_is_one_paragraph():
    """Raw HTML indented in an admonition came out as <p><p class=...></p></p>."""
    md = '!!! note "N"\n\n    $$\n    \\begin{equation} x \\label{eq:a} \\end{equation}\n    $$\n'
    html = _convert(md, {"eq:a": ["pkg.mod.f"]})
    assert re.search(
        r'<div class="admonition note">.*<p class="mlnotes-computed-by">Computed by.*</div>',
        html,
        re.S,
    ), html
    assert "<p><p" not in html


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
    notebooks._notebook_key(notebook, ROOT)
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
    assert (cache / "nb.key").read_text() == notebooks._notebook_key(notebook, ROOT, recorded)
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
