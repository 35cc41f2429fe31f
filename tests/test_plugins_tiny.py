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


def test_typeset_checks_display_math_after_equations_numbered_it(tmp_path):
    """As on the site: mlnotes-equations runs first and adds attributes to each display
    block (`data-eqn-start`); the typesetter still finds the expression in it."""
    tree = tiny.project(
        tmp_path,
        {"docs/index.md": "# Home\n\nA slip:\n\n$$\n\\frac{a}{b\n$$\n"},
        plugins=["mlnotes-equations", "mlnotes-typeset"],
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
# mlnotes-equations (and its Griffe extension and mkdocstrings template)
# ---------------------------------------------------------------------------------------

# a package whose docstrings name equations of a page, as mlnotes' do
TINY_PKG = {
    "tinypkg/__init__.py": '"""A tiny package."""\n',
    "tinypkg/mod.py": (
        '"""A module."""\n\n\n'
        "def area(r):\n"
        '    """The area of a disc.\n\n'
        "    Equation:\n"
        "        notes.md#eq:area\n"
        "        notes.md#eq:perimeter\n"
        '    """\n'
        "    return 3.14 * r * r\n\n\n"
        "class Disc:\n"
        '    """A disc."""\n\n'
        "    def perimeter(self, r):\n"
        '        """Its perimeter.\n\n'
        "        Equations:\n"
        "            notes.md#eq:perimeter\n"
        '        """\n'
        "        return 6.28 * r\n"
    ),
    "docs/index.md": "# Home\n",
    "docs/notes.md": (
        "# Tiny notes\n\n$$\n\\begin{equation} P = 2 \\pi r \\label{eq:perimeter} \\end{equation}\n$$\n\n"
        "$$\n\\begin{equation} A = \\pi r^2 \\label{eq:area} \\end{equation}\n$$\n"
    ),
    "docs/api.md": "# API\n\n::: tinypkg.mod\n",
}
# the site's mkdocstrings settings: the extension, and the repository's template
MKDOCSTRINGS = {
    "mkdocstrings": {
        "custom_templates": str(tiny.ROOT / "scripts" / "mlnotes_site" / "templates"),
        "handlers": {
            "python": {
                "paths": ["."],
                "options": {"extensions": ["mlnotes_site.equations:EquationsExtension"]},
            }
        },
    }
}


def test_equations_the_griffe_extension_parses_the_section(tmp_path):
    from mlnotes_site import equations

    tiny.write(tmp_path, TINY_PKG)
    package = equations.load_package(tmp_path / "tinypkg", "tinypkg")
    area = package["mod.area"]
    assert area.extra["mlnotes"]["equations"] == [
        {"page": "notes.md", "label": "eq:area"},
        {"page": "notes.md", "label": "eq:perimeter"},
    ]
    assert package["mod.Disc.perimeter"].extra["mlnotes"]["equations"] == [
        {"page": "notes.md", "label": "eq:perimeter"}
    ]
    assert "mlnotes" not in package["mod.Disc"].extra  # no section, no data
    refs = equations.collect_equation_refs(tmp_path / "tinypkg", "tinypkg")
    assert [(r.identifier, r.label, r.source) for r in refs] == [
        ("tinypkg.mod.area", "eq:area", "mod.py:4"),
        ("tinypkg.mod.area", "eq:perimeter", "mod.py:4"),
        ("tinypkg.mod.Disc.perimeter", "eq:perimeter", "mod.py:17"),
    ]


def test_equations_a_malformed_section_is_an_error_naming_the_function(tmp_path):
    from mlnotes_site import equations

    tiny.write(
        tmp_path,
        {
            "tinypkg/__init__.py": "",
            "tinypkg/mod.py": 'def f():\n    """F.\n\n    Equation:\n        the area formula\n    """\n',
        },
    )
    f = equations.load_package(tmp_path / "tinypkg", "tinypkg")["mod.f"]
    assert f.extra["mlnotes"]["equations"] == []
    assert f.extra["mlnotes"]["equation_error"] == (
        "tinypkg.mod.f (tinypkg/mod.py:1): an Equation: line must read 'page.md#label', "
        "got 'the area formula'"
    )
    # and the strict build fails with it
    tree = tiny.project(
        tmp_path,
        {"docs/index.md": "# Home\n"},
        plugins=[{"mlnotes-equations": {"package": "tinypkg"}}],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert [w for w in built.warnings if "Equation" in w] == [
        "WARNING -  equations: " + f.extra["mlnotes"]["equation_error"]
    ], built.stderr


def test_equations_link_both_ways_through_the_template(tmp_path):
    """The API page links each equation its docstrings name, "equation (N) of <title>",
    numbered as on its page; the equation's page links back to the function."""
    tree = tiny.project(
        tmp_path,
        TINY_PKG,
        plugins=[MKDOCSTRINGS, {"mlnotes-equations": {"package": "tinypkg"}}],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    api = built.text("api/index.html")
    links = re.findall(r'<a class="mlnotes-equation-link"[^>]*>[^<]*</a>', api)
    # (mkdocstrings' default order of members: alphabetical, Disc before area)
    assert links == [
        '<a class="mlnotes-equation-link" data-preview href="../notes/#eq:perimeter">equation (1) of Tiny notes</a>',
        '<a class="mlnotes-equation-link" data-preview href="../notes/#eq:area">equation (2) of Tiny notes</a>',
        '<a class="mlnotes-equation-link" data-preview href="../notes/#eq:perimeter">equation (1) of Tiny notes</a>',
    ], links
    assert "data-mlnotes-equation" not in api  # every placeholder filled
    notes = built.text("notes/index.html")
    assert re.search(
        r'<div class="mlnotes-equation" id="eq:perimeter">.*?Computed by <a [^>]*href="../api/#tinypkg.mod.area".*?'
        r'href="../api/#tinypkg.mod.Disc.perimeter"',
        notes,
        re.S,
    ), notes


def test_equations_an_unknown_label_fails_the_strict_build_naming_the_function(tmp_path):
    tree = tiny.project(
        tmp_path,
        {**TINY_PKG, "docs/notes.md": "# Tiny notes\n\n$$\nx \\label{eq:area}\n$$\n"},
        plugins=[MKDOCSTRINGS, {"mlnotes-equations": {"package": "tinypkg"}}],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert (
        "WARNING -  equations: tinypkg.mod.area (mod.py:4): Equation: no \\label{eq:perimeter} on 'notes.md'"
        in built.warnings
    ), built.stderr


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
    "mlnotes-equations": {"package": "mlnotes"},
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
