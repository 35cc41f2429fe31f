"""Citations (scripts/mlnotes_site/plugins/citations.py: the `mlnotes-citations` plugin and its
Markdown extension): `[@key, locator]` -> an author-year link to the page's References
list, whose entry Material's footnote tooltip shows on hover; code is left alone; an
unknown key fails the strict build. The tiny-project builds are in tests/test_plugins_tiny.py.
"""

from __future__ import annotations

import doctest
import html
import re

import markdown
import pytest

from mlnotes_site.plugins import citations

BIB = """
@book{solo2020, author = {Solo, Ann}, title = {One Author}, publisher = {P}, year = {2020}}
@article{duo2019, author = {Duo, Bea and Pair, Cy}, title = {Two Authors}, journal = {J}, year = {2019}}
@misc{trio2018, author = {Trio, Di and Quad, Ed and Quint, Flo}, title = {{Three Authors}}, year = {2018}}
"""

# the site's extensions that a citation meets (mkdocs.yml)
EXTENSIONS = [
    "admonition",
    "attr_list",
    "footnotes",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.superfences",
]


@pytest.fixture
def bib(tmp_path):
    path = tmp_path / "references.bib"
    path.write_text(BIB)
    return citations.Bibliography.load(path)


def convert(source: str, bib, extensions=()) -> tuple[str, list[str]]:
    """The HTML of `source` and the keys it cites, in order."""
    ext = citations.CitationsExtension(bib)
    md = markdown.Markdown(
        extensions=[
            *EXTENSIONS,
            *(e if isinstance(e, str) else next(iter(e)) for e in extensions),
            ext,
        ],
        extension_configs={k: v for e in extensions if isinstance(e, dict) for k, v in e.items()},
    )
    out = md.convert(source)
    return out, ext.cited


def text_of(out: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", out))


def test_module_doctests():
    result = doctest.testmod(citations)
    assert result.attempted >= 3 and result.failed == 0


def test_citation_author_year_locator(bib):
    out, keys = convert(
        "As [@solo2020, sec. 3.5] shows, and [@duo2019; @trio2018, ch. 2]. Trio et al. [-@trio2018].",
        bib,
    )
    assert keys == ["solo2020", "duo2019", "trio2018"]
    assert (
        '<a class="footnote-ref mlnotes-cite" href="#ref-solo2020" aria-describedby="ref-solo2020">'
        "Solo, 2020</a>" in out
    )
    first = out.split("\n")[0]
    assert text_of(first) == (
        "As (Solo, 2020, sec. 3.5) shows, and (Duo and Pair, 2019; Trio et al., 2018, ch. 2). "
        "Trio et al. (2018)."
    )


def test_code_links_footnotes_and_definitions_are_not_citations(bib):
    source = (
        "`[@solo2020]` and ``x [@duo2019]``\n\n"
        "```python\nx = [@solo2020]\n```\n\n"
        "~~~\n[@trio2018]\n~~~\n\n"
        "    [@trio2018] indented code\n\n"
        "[a link](#x) [@solo2020](#y) ![@duo2019](a.png) [x][@trio2018] \\[@solo2020] "
        "[see the @ sign] and a note[^1].\n\n"
        "[^1]: The note.\n\n"
        "[@trio2018]: https://example.org\n"
        "  [@duo2019]: https://example.org\n"
    )
    out, keys = convert(source, bib)
    assert keys == [] and "mlnotes-cite" not in out and "References" not in out
    assert "<code>[@solo2020]</code>" in out and "<code>x [@duo2019]</code>" in out
    assert out.count("[@") == 5  # inline code (2), fenced (2), indented (1); the rest are links


def test_raw_html_is_left_alone_markdown_in_html_is_cited(bib):
    out, keys = convert(
        "<div>\n[@solo2020]\n</div>\n\n<div markdown>\nBoxed [@duo2019].\n</div>\n", bib
    )
    assert "<div>\n[@solo2020]\n</div>" in out and keys == ["duo2019"]


def test_citation_before_a_colon_mid_sentence_is_converted(bib):
    out, keys = convert("Two results [@solo2020, sec. 2]: one, then [@duo2019]:\n", bib)
    assert keys == ["solo2020", "duo2019"] and "[@" not in out
    assert (
        text_of(out.split("\n")[0])
        == "Two results (Solo, 2020, sec. 2): one, then (Duo and Pair, 2019):"
    )


def test_citations_in_tables_lists_and_admonitions(bib):
    source = (
        "| a | b |\n|---|---|\n| x | [@solo2020] |\n\n- item [@duo2019]\n\n"
        "!!! note\n\n    Boxed [@trio2018].\n"
    )
    out, keys = convert(source, bib)
    # (the References list is sorted by author: the order the parser meets them is not kept)
    assert sorted(keys) == ["duo2019", "solo2020", "trio2018"] and "[@" not in out


def test_code_math_and_escapes_in_a_prefix_or_locator_are_restored(bib):
    """What the higher-priority patterns stash in a citation's prefix or locator (a code
    span, math, a backslash escape) comes back in the page, not as a stash placeholder."""
    out, keys = convert(
        "A [see `f(x)` in @solo2020, `code` here] and [@duo2019, $x^2$, \\*not emphasis\\*].",
        bib,
        extensions=[{"pymdownx.arithmatex": {"generic": True}}],
    )
    first = out.split("\n")[0]
    assert keys == ["solo2020", "duo2019"]
    assert "klzzwxh" not in out and "wzxhzdk" not in out and "\x02" not in out
    assert (
        '<span class="mlnotes-citation">(see <code>f(x)</code> in '
        '<a class="footnote-ref mlnotes-cite" href="#ref-solo2020" aria-describedby="ref-solo2020">'
        "Solo, 2020</a>, <code>code</code> here)</span>" in first
    )
    assert '<span class="arithmatex">\\(x^2\\)</span>, *not emphasis*)</span>' in first
    assert text_of(first) == (
        "A (see f(x) in Solo, 2020, code here) and (Duo and Pair, 2019, \\(x^2\\), *not emphasis*)."
    )


def test_an_ordinary_citation_is_a_span_with_a_raw_link(bib):
    """The span and its link, as written before the span became an element (its link is
    still raw HTML: Material's previews and MkDocs' anchor checks do not see it)."""
    out, _ = convert("As [see @solo2020, sec. 3.5; -@duo2019] shows.", bib)
    assert out.split("\n")[0] == (
        '<p>As <span class="mlnotes-citation">(see <a class="footnote-ref mlnotes-cite" '
        'href="#ref-solo2020" aria-describedby="ref-solo2020">Solo, 2020</a>, sec. 3.5; '
        '<a class="footnote-ref mlnotes-cite" href="#ref-duo2019" '
        'aria-describedby="ref-duo2019">2019</a>)</span> shows.</p>'
    )


def test_an_at_sign_inside_a_word_is_no_citation(bib, caplog):
    """As in pandoc, `@` opens an item or follows whitespace: an e-mail address in
    brackets is text, and no warning (the key `solo2020.org` is in no bib file)."""
    out, keys = convert("Mail me [at me@solo2020.org] or [x@solo2020] or [x-@solo2020].", bib)
    assert keys == [] and "mlnotes-cite" not in out
    assert "[at me@solo2020.org]" in out and "[x@solo2020]" in out
    assert not [r for r in caplog.records if "citation key" in r.getMessage()]


def test_a_citation_in_a_link_text_is_left_as_written(bib):
    """`[see [@key]](url)`: a link in a link is not HTML; the link keeps its text, as
    an image's alt and a reference link's text do. In plain brackets it is cited."""
    out, keys = convert(
        "[see [@solo2020]](https://example.org) ![a [@duo2019] b](x.png) "
        "[a [b [@trio2018]] c][ref] and [see [@solo2020, p. 2]] here.\n\n"
        "[ref]: https://example.org/ref\n",
        bib,
    )
    assert keys == ["solo2020"]
    first = out.split("\n")[0]
    assert '<a href="https://example.org">see [@solo2020]</a>' in first
    assert 'alt="a [@duo2019] b"' in first
    assert '<a href="https://example.org/ref">a [b [@trio2018]] c</a>' in first
    assert "[see (Solo, 2020, p. 2)] here." in text_of(first)


def test_references_list_sorted_by_author_with_ids(bib):
    out, _ = convert("Text [@trio2018; @solo2020; @duo2019].\n", bib)
    assert re.search(r'<h2 id="references">References</h2>\n<ul class="mlnotes-references">', out)
    assert re.findall(r'<li id="ref-(\w+)">', out) == ["duo2019", "solo2020", "trio2018"]
    assert '<li id="ref-solo2020"><p>Ann Solo. <em>One Author</em>. P, 2020.</p></li>' in out
    # an existing heading (here with an id of its own) receives the list, no second heading
    out, _ = convert("Text [@solo2020].\n\n## References {#refs}\n\nold\n", bib)
    assert out.count("References") == 1 and '<h2 id="refs">References</h2>' in out
    assert out.index('id="ref-solo2020"') < out.index("old")


def test_references_go_before_the_footnotes(bib):
    out, _ = convert("Text [@solo2020] and a note[^1].\n\n[^1]: The note.\n", bib)
    assert out.index('id="ref-solo2020"') < out.index('<div class="footnote">')


def test_an_unknown_key_warns_once_per_page_and_key(bib, caplog):
    ext = citations.CitationsExtension(bib, "docs/references.bib")
    ext.reset_page("notes/x.md")
    md = markdown.Markdown(extensions=[ext])
    out = md.convert("A [@nobody1999] and [@duo2019; @nobody1999], [@solo2020].\n")
    assert [r.getMessage() for r in caplog.records] == [
        "citations: notes/x.md: citation key 'nobody1999' is not in docs/references.bib"
    ]
    assert caplog.records[0].mlnotes_page == "notes/x.md"  # mlnotes-problems' banner
    # the brackets with an unknown key are left as they are and cite none of their keys
    assert text_of(out).startswith("A [@nobody1999] and [@duo2019; @nobody1999], (Solo, 2020).")
    assert re.findall(r'<li id="ref-(\w+)">', out) == ["solo2020"]


def test_a_conversion_inside_a_page_cites_into_its_list(bib):
    """mkdocstrings converts each docstring with a Markdown of its own (which has this
    extension too) while the page converts: its works join the page's References."""
    from markdown.preprocessors import Preprocessor

    ext = citations.CitationsExtension(bib)
    inner = markdown.Markdown(extensions=[ext])

    class Docstring(Preprocessor):
        def run(self, lines):
            return [
                self.md.htmlStash.store(inner.convert(line[4:])) if line.startswith(":::") else line
                for line in lines
            ]

    outer = markdown.Markdown(extensions=[ext])
    outer.preprocessors.register(Docstring(outer), "docstring", 500)
    out = outer.convert("Page [@solo2020].\n\n::: Docstring [@duo2019].\n")
    assert out.count("References") == 1
    assert re.findall(r'<li id="ref-(\w+)">', out) == ["duo2019", "solo2020"]
    # the next page starts a list of its own
    out = outer.convert("Next page [@trio2018].\n")
    assert re.findall(r'<li id="ref-(\w+)">', out) == ["trio2018"]


# A page's text: the HTML without its code (listings, inline code), scripts and styles.
NOT_TEXT = re.compile(r"<(pre|code|script|style)\b[^>]*>.*?</\1>", re.S | re.I)


def test_no_page_shows_an_unconverted_citation(site):
    """Every `[@key]` became a citation: none reaches a page's text (the strict build
    fails on an unknown key, not on a citation the extension did not recognise)."""
    left = {}
    for page in site.pages():
        source = (site.path / page / "index.html").read_text(encoding="utf-8")
        text = html.unescape(re.sub(r"<[^>]+>", "", NOT_TEXT.sub("", source)))
        hits = re.findall(r".{0,40}\[-?@.{0,40}", text)
        if hits:
            left[page or "/"] = hits[:3]
    assert not left, left


TOOLTIP = ".md-tooltip2.md-tooltip2--active"


@pytest.mark.browser
def test_hovering_a_citation_shows_its_entry(base_url, browser):
    from mlnotes_site.chromium import wait_for_math

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(base_url + "reference/")
    wait_for_math(page)
    cite = page.locator('a.mlnotes-cite[href$="#ref-vaswani2017"]').first
    assert cite.inner_text() == "Vaswani et al., 2017"
    assert page.evaluate("() => !!document.querySelector('h2#references ~ ul #ref-vaswani2017')")
    cite.hover()
    tip = page.locator(TOOLTIP)
    tip.wait_for(state="visible", timeout=5000)
    text = tip.inner_text()
    assert "Attention Is All You Need" in text and "arXiv:1706.03762" in text
    page.close()
