"""Each of the site's plugins on a tiny project (tests/tiny.py), built with `mkdocs build
--strict`: seconds a build, where the whole site takes minutes.

mlnotes-figures is not here: its builder draws the repository's scripts/figures/ into the
repository's docs/figures/ whatever project it builds (build_figures.ROOT), so a tiny
project cannot give it a figure script of its own.
"""

from __future__ import annotations

import re

import pytest
import tiny

# {plugin: one of its options, spelt right (None: it has none)}: the site's own plugins,
# in mkdocs.yml's order (test_hooks checks it)
from test_hooks import SITE_PLUGINS


# ---------------------------------------------------------------------------------------
# mlnotes-typeset: the site's TeX check too (a TeX error is a warning naming the page and
# the expression: the strict build fails)
# ---------------------------------------------------------------------------------------


def test_typeset_a_broken_fraction_fails_the_strict_build_naming_the_page(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": "# Home\n\nFine: $\\frac{a}{b}$.\n",
            "docs/broken.md": "# Broken\n\nA slip:\n\n$$\n\\frac{a}{b\n$$\n",
        },
        plugins=["mlnotes-typeset"],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    [warning] = [w for w in built.warnings if "TeX error" in w]
    assert "broken.md: TeX error in display math '\\\\frac{a}{b'" in warning, built.stderr
    assert "index.md" not in warning


def test_typeset_checks_display_math_after_apparatus_numbered_it(tmp_path):
    """As on the site: mlnotes-apparatus runs first and adds attributes to each display
    block (`data-eqn-start`); the typesetter still finds the expression in it."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": "# Home\n\nA slip:\n\n$$\n\\frac{a}{b\n$$\n",
            "docs/references.bib": tiny.BIB,
        },
        plugins=[{"mlnotes-apparatus": {"bib_file": "references.bib"}}, "mlnotes-typeset"],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert any(
        "index.md: TeX error in display math" in w and w.startswith("WARNING")
        for w in built.warnings
    ), built.stderr


def test_typeset_a_tex_error_in_a_docstring_names_the_api_page(tmp_path):
    """A docstring's math (mkdocstrings, as the API reference): its error names the page,
    the function (its heading's id) and the expression."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": "# API\n\n::: tinymod.area\n",
            "tinymod.py": (
                'def area(r):\n    r"""The area, $\\pi r^2$, of a disc; not $\\fracc{1}{r}$."""\n'
                "    return 3.14159 * r * r\n"
            ),
        },
        plugins=[
            {
                "mkdocstrings": {
                    "handlers": {
                        # as the site's: the function under a heading of its own
                        "python": {"paths": ["."], "options": {"show_root_heading": True}}
                    }
                }
            },
            "mlnotes-typeset",
        ],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    [warning] = [w for w in built.warnings if "TeX error" in w]
    assert "index.md: TeX error in inline math '\\\\fracc{1}{r}'" in warning, built.stderr
    assert warning.endswith("(section #tinymod.area)"), warning


def test_typeset_good_expressions_pass_and_are_cached_next_to_mkdocs_yml(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": (
                "# Home\n\nInline $\\frac{a}{b}$ and display:\n\n"
                "$$\n\\begin{aligned} x &= \\sum_{i=1}^n i \\\\ y &= \\sqrt{x}\\end{aligned}\n$$\n"
            )
        },
        plugins=["mlnotes-typeset"],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    assert built.warnings == []
    assert built.text("index.html").count("<mjx-container") == 2
    # the cache option's default is relative to mkdocs.yml, not to the repository
    assert len(list((tree / ".cache" / "typeset").glob("*.json.gz"))) == 1


# ---------------------------------------------------------------------------------------
# mlnotes-apparatus
# ---------------------------------------------------------------------------------------


def test_apparatus_a_citation_renders_an_entry_from_the_bib(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": "# Home\n\nDeep nets [@goodfellow2016, ch. 9]; "
            "Goodfellow et al. [-@goodfellow2016] again.\n",
        },
        plugins=[{"mlnotes-apparatus": {"bib_file": "references.bib"}}],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    page = built.text("index.html")
    links = re.findall(
        r'<a class="footnote-ref mlnotes-cite" href="#ref-goodfellow2016"[^>]*>([^<]*)</a>', page
    )
    assert links == ["Goodfellow et al., 2016", "2016"], links
    assert "ch. 9" in page
    assert "@goodfellow2016" not in page
    entry = re.search(r'<li id="ref-goodfellow2016"><p>(.*?)</p></li>', page, re.S)
    assert entry, page[-3000:]
    assert "Deep Learning" in entry.group(1) and "MIT Press" in entry.group(1)
    assert re.search(r"<h2[^>]*>References", page)


def test_apparatus_an_unknown_key_fails_the_strict_build_naming_it(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": "# Home\n\nKnown [@goodfellow2016].\n",
            "docs/other.md": "# Other\n\nUnknown [@nobody1999].\n",
        },
        plugins=["mlnotes-apparatus"],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert [w for w in built.warnings if "citation key" in w] == [
        "WARNING -  apparatus: other.md: citation key 'nobody1999' is not in docs/references.bib"
    ], built.stderr


def test_apparatus_code_and_link_labels_are_not_citations(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": "# Home\n\nCode `[@nobody1999]` and a link [@home](index.md).\n",
        },
        plugins=["mlnotes-apparatus"],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    assert "mlnotes-cite" not in built.text("index.html")


# ---------------------------------------------------------------------------------------
# mlnotes-assets
# ---------------------------------------------------------------------------------------


def test_assets_serves_mathjax_and_the_projects_own_pdf_and_zip(tmp_path):
    """MathJax comes from the build code's node_modules (npm ci); the PDF and the offline
    zip are the project's, next to its mkdocs.yml (not the repository's)."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": "# Home\n",
            "mlnotes.pdf": b"%PDF-1.4\n%%EOF\n",
            "mlnotes-offline.zip": b"PK\x05\x06" + bytes(18),  # an empty zip
        },
        plugins=["mlnotes-assets"],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    assert "javascripts/mathjax/tex-chtml.js" in built.files
    assert (built.site / "mlnotes.pdf").read_bytes() == b"%PDF-1.4\n%%EOF\n"
    assert "mlnotes-offline.zip" in built.files


# ---------------------------------------------------------------------------------------
# Every plugin: a misspelt option fails the strict build, naming the plugin and the option
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SITE_PLUGINS)
def test_a_misspelt_option_fails_the_strict_build(tmp_path, name):
    misspelt = (SITE_PLUGINS[name] or "option")[::-1]
    tree = tiny.project(tmp_path, {"docs/index.md": "# Home\n"}, plugins=[{name: {misspelt: 1}}])
    built = tiny.build(tree)
    assert built.returncode != 0
    assert f"Plugin '{name}' option '{misspelt}'" in built.stderr, built.stderr[-3000:]
    assert not built.site.exists()


# the value of each option in the tiny project; mlnotes-figures is left out (module docstring)
GOOD_OPTIONS = {
    "mlnotes-assets": {},
    "mlnotes-apparatus": {"bib_file": "references.bib"},
    "mlnotes-incremental": {"global_inputs": ["docs"]},
    "mlnotes-typeset": {"cache": ".cache/ts"},
    "mlnotes-problems": {},
}


@pytest.mark.parametrize("name", GOOD_OPTIONS)
def test_a_correctly_spelt_option_builds(tmp_path, name):
    """The other half: the misspelt option fails because of its spelling."""
    assert set(GOOD_OPTIONS[name]) == ({SITE_PLUGINS[name]} if SITE_PLUGINS[name] else set())
    tree = tiny.project(
        tmp_path,
        {"docs/index.md": "# Home\n", "docs/references.bib": tiny.BIB},
        plugins=[{name: GOOD_OPTIONS[name]} if GOOD_OPTIONS[name] else name],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    assert built.warnings == []


def test_typeset_math_in_a_heading_is_text_in_the_toc_and_the_search_index(tmp_path):
    """Material writes the headings into the table of contents and the search index as
    text: their math shows there as readable text, not as TeX."""
    tree = tiny.project(
        tmp_path,
        {"docs/index.md": "# Home\n\n## Sizes for $n = 16$\n\nThe size $\\frac{n}{s}$.\n"},
        plugins=["search", "mlnotes-typeset"],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    page = built.text("index.html")
    toc = re.findall(r'<a [^>]*class="md-nav__link"[^>]*>(.*?)</a>', page, re.S)
    assert any("Sizes for n = 16" in link for link in toc), toc
    assert not any("\\(" in link or "$" in link for link in toc), toc
    index = built.text("search/search_index.json")
    assert "Sizes for n = 16" in index and "The size n/s." in index, index
    assert "\\\\(" not in index and "$" not in index, index
    # the page itself: the heading's math typeset
    assert re.search(r'<h2 id="[^"]*">Sizes for <span class="arithmatex"><mjx-container', page)
