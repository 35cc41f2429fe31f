r"""Build-time math (scripts/mlnotes_site/typesetter.py, typeset.mjs): MathJax 4 in Node turns
each arithmatex wrapper's TeX into typeset markup. No browser; one Node process for the
module (about a second)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlnotes_site.typesetter import (
    Typesetter,
    expressions,
    notebook_elements,
    typeset_html,
    wrap_notebook_math,
)

# the project's node_modules (npm ci): this repository's
NODE_MODULES = Path(__file__).resolve().parent.parent / "node_modules"

PAGE = r"""<p>By <span class="arithmatex" data-eqrefs="eq:b=2">\(\eqref{eq:b}\)</span>, and
<span class="arithmatex">\(x &lt; y\)</span>:</p>
<div class="arithmatex" data-eqn-start="0">\[\begin{equation} a = b \label{eq:a} \end{equation}\]</div>
<div class="arithmatex" data-eqn-start="1">\[\begin{equation} c = d \label{eq:b} \end{equation}\]</div>
<p>Back to <span class="arithmatex">\(\eqref{eq:a}\)</span>.</p>"""


@pytest.fixture(scope="module")
def typesetter(tmp_path_factory):
    with Typesetter(NODE_MODULES, cache_dir=tmp_path_factory.mktemp("typeset")) as t:
        yield t


@pytest.fixture(scope="module")
def typeset(typesetter):
    return typeset_html(PAGE, typesetter)


def wrappers(html: str) -> list[str]:
    return re.findall(
        r'<(?:span|div) class="arithmatex".*?</mjx-container></(?:span|div)>', html, re.S
    )


def test_every_wrapper_is_kept_and_holds_one_container(typeset):
    html, errors = typeset
    assert errors == []
    found = wrappers(html)
    assert len(found) == 5
    assert all(w.count("<mjx-container") == 1 for w in found)
    # the wrappers keep their attributes (the previews read them)
    assert '<div class="arithmatex" data-eqn-start="1"><mjx-container' in html
    assert '<span class="arithmatex" data-eqrefs="eq:b=2"><mjx-container' in html


def test_no_raw_tex_left(typeset):
    html, _ = typeset
    # what a reader sees: the typeset markup without its assistive MathML and attributes
    shown = re.sub(
        r"<style.*?</style>|<mjx-assistive-mml.*?</mjx-assistive-mml>", "", html, flags=re.S
    )
    shown = re.sub(r"<[^>]*>", "", shown)
    assert "\\(" not in shown and "\\[" not in shown
    assert not re.search(r"\\[a-zA-Z]+", shown), shown
    # (in-line math has break points, <mjx-break> </mjx-break>, where a line may wrap)
    assert re.sub(r"\s+", "", shown) == "By(2),and𝑥&lt;𝑦:𝑎=𝑏(1)𝑐=𝑑(2)Backto(1)."


def test_numbers_continue_across_expressions(typeset):
    html, _ = typeset
    # the second equation of the page is (2), and its anchor is the browser's
    assert re.search(r'id="mjx-eqn:eq:a">.*?>1<', html, re.S)
    assert re.search(r'id="mjx-eqn:eq:b">.*?>2<', html, re.S)


def test_eqref_before_its_label_resolves(typeset):
    html, _ = typeset
    first = wrappers(html)[0]
    assert 'href="#mjx-eqn%3Aeq%3Ab"' in first
    assert "<mtext>(2)</mtext>" in first  # the assistive MathML reads the number
    assert "???" not in html
    last = wrappers(html)[-1]
    assert "<mtext>(1)</mtext>" in last


def test_assistive_mathml_and_stylesheet(typeset):
    html, _ = typeset
    assert html.count("<mjx-assistive-mml") == 5
    assert html.startswith('<style class="mlnotes-math-styles"')
    # the font files are the site's copy, not the npm name
    assert "javascripts/mathjax/fonts/mathjax-newcm-font/chtml/woff2/mjx-ncm-n.woff2" in html
    assert "@mathjax/" not in html


def test_error_names_the_expression(typesetter):
    html, errors = typeset_html(
        r'<p><span class="arithmatex">\(\fracc{1}{2}\)</span> and <span class="arithmatex">\(x\)</span></p>',
        typesetter,
    )
    assert len(errors) == 1
    assert errors[0].index == 0 and errors[0].tex == r"\fracc{1}{2}"
    assert "fracc" in errors[0].error and "fracc" in str(errors[0])
    assert html.count("<mjx-container") == 2


def test_page_without_math_is_unchanged():
    def render(items):
        raise AssertionError("render called for a page without math")

    assert typeset_html("<p>no math</p>", render) == ("<p>no math</p>", [])


def test_whole_page_gets_the_stylesheet_in_its_head(typesetter):
    html, _ = typeset_html(
        f"<html><head><title>t</title></head><body>{PAGE}</body></html>", typesetter
    )
    assert re.search(r'<style class="mlnotes-math-styles"[^>]*>.*</style></head>', html, re.S)


def test_second_call_is_a_cache_hit_without_node(typesetter, typeset):
    # a new Typesetter on the same cache folder: the same page starts no process
    with Typesetter(NODE_MODULES, cache_dir=typesetter.cache_dir) as warm:
        assert typeset_html(PAGE, warm) == typeset
        assert warm.started == 0 and warm.process is None
    # a changed expression is typeset
    with Typesetter(NODE_MODULES, cache_dir=typesetter.cache_dir) as warm:
        typeset_html(PAGE.replace("a = b", "a = e"), warm)
        assert warm.started == 1


def test_expressions_unescape_html():
    assert expressions(PAGE)[1] == {"tex": "x < y", "display": False}


def test_wide_numbered_equation_gets_a_phone_rendering(typesetter):
    long = " + ".join(f"a_{{{i}}} b_{{{i}}}" for i in range(12))
    html, errors = typeset_html(
        rf'<div class="arithmatex">\[\begin{{equation}} y = {long} \label{{eq:long}} \end{{equation}}\]</div>'
        r'<div class="arithmatex">\[ x = 1 \]</div>',
        typesetter,
    )
    assert errors == []
    wide, short = wrappers(html)
    # the wide rendering, then two line-broken ones (no anchor of their own): a phone's
    # column and, this equation being wider than DESKTOP_COLUMN, a desktop's
    assert wide.count("<mjx-container") == 3
    assert wide.count('id="mjx-eqn:eq:long"') == 1
    first, *narrow = wide.split('<mjx-container class="MathJax mlnotes-narrow"')
    assert 'id="mjx-eqn:eq:long"' in first and all("mjx-linebox" in n for n in narrow)
    tags = [re.search(r"^[^>]*>", n).group(0) for n in narrow]
    ranges = sorted(
        (
            int((re.search(r'data-from="(\d+)"', t) or [0, 0])[1]),
            int(re.search(r'data-below="(\d+)"', t)[1]),
        )
        for t in tags
    )
    # the phone's range ends where the desktop's starts, and the desktop's ends at the
    # equation's natural width
    (p_from, p_below), (d_from, d_below) = ranges
    assert p_from == 0 and p_below == d_from < d_below
    style = html.split("</style>")[0]
    # ranges in em of the container's font (widths measured at 16 px), no gap between them
    em = lambda px: f"{round(px / 16, 4):g}em"  # noqa: E731
    assert f"(width < {em(p_below)})" in style
    assert f"({em(d_from)} <= width < {em(d_below)})" in style
    assert "mlnotes-narrow" not in short


def test_an_equation_only_wider_than_a_phone_gets_one_narrow_rendering(typesetter):
    long = " + ".join(f"a_{{{i}}} b_{{{i}}}" for i in range(5))
    html, errors = typeset_html(
        rf'<div class="arithmatex">\[ y = {long} \]</div>',
        typesetter,
    )
    assert errors == []
    (wide,) = wrappers(html)
    assert wide.count("mlnotes-narrow") == 1 and "data-from" not in wide
    below = int(re.search(r'data-below="(\d+)"', wide)[1])
    assert 296 < below <= 560, below  # its natural width: wider than a phone's column only


def test_a_page_typesets_the_same_whatever_came_before(typeset):
    # the cache stores a page's output: it must not depend on the pages typeset before it
    # in the same process (MathJax keeps state between documents: line width, font usage)
    long = " + ".join(f"a_{{{i}}} b_{{{i}}}" for i in range(12))
    with Typesetter(NODE_MODULES, cache_dir=None) as fresh:
        typeset_html(
            rf'<div class="arithmatex">\[\begin{{equation}} y = {long} \end{{equation}}\]</div>',
            fresh,
        )
        assert typeset_html(PAGE, fresh) == typeset


def test_reference_to_an_undefined_label_is_an_error(typesetter):
    _, errors = typeset_html(
        r'<p><span class="arithmatex">\(\eqref{eq:nowhere}\)</span></p>', typesetter
    )
    assert [e.error for e in errors] == ["reference to a label not defined on the page: eq:nowhere"]


def test_prune_keeps_only_the_pages_of_this_run(tmp_path):
    with Typesetter(NODE_MODULES, cache_dir=tmp_path) as t:
        typeset_html(PAGE, t)
        typeset_html(PAGE.replace("a = b", "a = f"), t)
    assert len(list(tmp_path.glob("*.json.gz"))) == 2
    with Typesetter(NODE_MODULES, cache_dir=tmp_path) as warm:
        typeset_html(PAGE, warm)
        assert warm.prune() == 1 and warm.started == 0
    assert len(list(tmp_path.glob("*.json.gz"))) == 1


# A notebook page (mkdocs-jupyter): $...$ in its markdown cells, no arithmatex wrapper.
NOTEBOOK = r"""<html><head><script>var s = '<div class="jp-RenderedMarkdown">$no$</div>';</script></head>
<body><div class="md-container"><p>$outside$ a cell</p>
<div class="jp-Cell"><div class="jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput" data-mime-type="text/markdown">
<h2 id="n">Sizes ($n = 16$, $k = 3$)</h2>
<p>Costs \$5, and $a &lt; b$ with <code>$code$</code></p>
<pre>$pre$</pre>
<div class="other">$ignored$</div>
<div><p>$$\frac{1}{2}$$</p></div>
<p>So $$x$$ in a line.</p>
</div></div>
<div class="jp-RenderedText"><pre>$ not math $</pre></div>
<div class="jp-RenderedLatex">$$\fracc{a}$$</div>
</div></body></html>"""


@pytest.fixture(scope="module")
def notebook(typesetter):
    return wrap_notebook_math(NOTEBOOK, typesetter.find)


def test_notebook_elements_are_the_outermost_cells_outside_scripts():
    spans = notebook_elements(NOTEBOOK)
    found = [NOTEBOOK[a:b] for a, b in spans]
    assert len(found) == 2
    assert found[0].startswith('<div class="jp-RenderedHTMLCommon jp-RenderedMarkdown')
    assert found[0].endswith("</p>\n</div>")
    assert found[1] == r'<div class="jp-RenderedLatex">$$\fracc{a}$$</div>'


def test_notebook_math_is_found_as_mathjax_found_it_in_the_browser(notebook):
    html, errors = notebook
    assert errors == []
    assert [(e["tex"], e["display"]) for e in expressions(html)] == [
        ("n = 16", False),
        ("k = 3", False),
        ("a < b", False),
        (r"\frac{1}{2}", True),
        ("x", True),
        (r"\fracc{a}", True),
    ]
    # an escaped dollar is a dollar; code, pre, another class and the page outside the
    # cells keep their text
    assert "<p>Costs $5, and <span" in html
    for kept in ("<code>$code$</code>", "<pre>$pre$</pre>", '<div class="other">$ignored$</div>'):
        assert kept in html
    assert (
        "<p>$outside$ a cell</p>" in html
        and "'<div class=\"jp-RenderedMarkdown\">$no$</div>'" in html
    )
    assert "<pre>$ not math $</pre>" in html
    # a display expression alone in its paragraph takes the paragraph's place, as
    # arithmatex writes a $$ paragraph; one in a line of text stays in the line
    assert r'<div><div class="arithmatex">\[\frac{1}{2}\]</div></div>' in html
    assert r'<p>So <span class="arithmatex">\[x\]</span> in a line.</p>' in html


def test_a_notebook_page_is_then_typeset_as_any_page(notebook, typesetter):
    html, errors = typeset_html(notebook[0], typesetter)
    assert [e.tex for e in errors] == [r"\fracc{a}"]
    assert html.count("<mjx-container") == 6
    assert '<h2 id="n">Sizes (<span class="arithmatex"><mjx-container' in html


def test_a_notebook_page_is_found_once_then_read_from_the_cache(tmp_path):
    with Typesetter(NODE_MODULES, cache_dir=tmp_path) as t:
        first = wrap_notebook_math(NOTEBOOK, t.find)
    with Typesetter(NODE_MODULES, cache_dir=tmp_path) as t:
        assert wrap_notebook_math(NOTEBOOK, t.find) == first
        assert t.started == 0


def test_a_page_without_notebook_cells_is_unchanged():
    def find(elements):
        raise AssertionError("no Node for a page without notebook cells")

    assert wrap_notebook_math(PAGE, find) == (PAGE, [])


def test_the_sites_tex_passes_and_tex_errors_are_found(typesetter):
    """The site's only TeX check (mlnotes-typeset): what its pages use passes (autoloaded
    packages: \\cancel; AMS environments), slips are errors."""
    good = [
        (r"\frac{a}{b}", False),
        (r"\begin{equation} x \label{eq:a} \end{equation}", True),
        (r"\mathbb{R}^{d} \boldsymbol{x} \operatorname{Var} \cancel{x} \eqref{eq:a}", False),
        (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix} \underbrace{a}_{b} \text{ok}", True),
    ]
    bad = [(r"\fracc{a}{b}", False), ("x^{2", False), (r"\begin{align} a \end{aligned}", True)]
    answer = typesetter([{"tex": tex, "display": display} for tex, display in good + bad])
    errors = [item["error"] for item in answer["items"]]
    assert errors[: len(good)] == [None] * len(good)
    assert all(errors[len(good) :]), errors
    assert "fracc" in errors[len(good)]


def test_mathjax_is_the_projects_and_its_version_keys_the_cache(tmp_path):
    """The typesetter runs the MathJax of the node_modules it is given (the project's),
    says where it looked when there is none, and keys its cache on its version, not on
    where it is installed."""
    items = [{"tex": "x", "display": False}]
    missing = tmp_path / "empty" / "node_modules"
    with pytest.raises(RuntimeError, match=re.escape(f"{missing / 'mathjax'} is missing")):
        Typesetter(missing)(items)
    copy = tmp_path / "copy" / "node_modules"
    for package in ("mathjax", "@mathjax/mathjax-newcm-font"):
        (copy / package).mkdir(parents=True)
        (copy / package / "package.json").write_bytes(
            (NODE_MODULES / package / "package.json").read_bytes()
        )
    assert Typesetter(copy).key(items) == Typesetter(NODE_MODULES).key(items)
    (copy / "mathjax" / "package.json").write_text('{"name": "mathjax", "version": "0"}')
    assert Typesetter(copy).key(items) != Typesetter(NODE_MODULES).key(items)
    assert Typesetter(NODE_MODULES, output="svg").key(items) != Typesetter(NODE_MODULES).key(items)
