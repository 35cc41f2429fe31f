"""Each of the site's plugins on a tiny project (tests/tiny.py), built with `mkdocs build
--strict`: seconds a build, where the whole site takes minutes.

mlnotes-figures draws the tiny project's own scripts/figures/ with its own `mlnotes/` into
its own docs/figures/ (the builder's `--root` is mkdocs.yml's folder).
"""

from __future__ import annotations

import copy

import html
import json
import re

import pytest
import tiny

# {plugin: one of its options, spelt right (None: it has none)}: the site's own plugins,
# in mkdocs.yml's order (test_mkdocs_config checks it)
from test_mkdocs_config import SITE_PLUGINS


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
        node_modules=True,
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
        node_modules=True,
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
        node_modules=True,
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
        node_modules=True,
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    assert built.warnings == []
    assert built.text("index.html").count("<mjx-container") == 2
    # the cache option's default is relative to mkdocs.yml, not to the repository
    assert len(list((tree / ".cache" / "typeset").glob("*.json.gz"))) == 1


# ---------------------------------------------------------------------------------------
# mlnotes-citations
# ---------------------------------------------------------------------------------------

CITATIONS = [{"mlnotes-citations": {"bib_file": "references.bib"}}]


def test_citations_a_citation_renders_an_entry_from_the_bib(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": "# Home\n\nDeep nets [@goodfellow2016, ch. 9]; "
            "Goodfellow et al. [-@goodfellow2016] again.\n",
        },
        plugins=CITATIONS,
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
    # the References heading is in the page's table of contents
    assert '<h2 id="references">References</h2>' in page
    assert re.search(r'<a href="#references" class="md-nav__link">', page)


def test_citations_an_unknown_key_fails_the_strict_build_naming_it(tmp_path):
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": "# Home\n\nKnown [@goodfellow2016].\n",
            "docs/other.md": "# Other\n\nUnknown [@nobody1999].\n",
        },
        plugins=["mlnotes-citations"],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert [w for w in built.warnings if "citation key" in w] == [
        "WARNING -  citations: other.md: citation key 'nobody1999' is not in docs/references.bib"
    ], built.stderr


def test_citations_a_blog_post_warns_once_naming_the_post(tmp_path):
    """The blog's index converts each post again for its excerpt: an unknown key is one
    warning, naming the post (the file being converted), not the index."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": "# Home\n",
            "docs/blog/index.md": "# Blog\n",
            "docs/blog/posts/post.md": (
                "---\ndate: 2024-12-24\n---\n\n# A post\n\nIntro [@nobody1999].\n\n"
                "<!-- more -->\n\nKnown [@goodfellow2016].\n"
            ),
        },
        plugins=["blog", *CITATIONS],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert [w for w in built.warnings if "citation key" in w] == [
        "WARNING -  citations: blog/posts/post.md: citation key 'nobody1999' is not in docs/references.bib"
    ], built.stderr


def test_citations_code_is_left_alone_and_text_is_cited(tmp_path):
    """Inline code and a fenced code block keep `[@key]` as written (an unknown key there
    is no warning); the same key in text is linked. Link labels are not citations."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": (
                "# Home\n\nCode `[@goodfellow2016]` and `[@nobody1999]`, a link "
                "[@home](index.md), and text [@goodfellow2016].\n\n"
                "```python\ncite = [@goodfellow2016]  # [@nobody1999]\n```\n\n"
                "~~~\n[@goodfellow2016]\n~~~\n"
            ),
        },
        plugins=CITATIONS,
        markdown_extensions=[*tiny.MARKDOWN_EXTENSIONS, "pymdownx.superfences"],
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    assert built.warnings == []
    page = built.text("index.html")
    content = page[page.index('<h1 id="home">') : page.index('<h2 id="references">')]
    assert re.findall(r'class="footnote-ref mlnotes-cite"[^>]*>([^<]*)</a>', content) == [
        "Goodfellow et al., 2016"
    ]
    assert "<code>[@goodfellow2016]</code>" in content and "<code>[@nobody1999]</code>" in content
    # the fenced blocks, highlighted: their text is the source's
    blocks = [
        html.unescape(re.sub(r"<[^>]+>", "", b))
        for b in re.findall(r"<pre[^>]*>(.*?)</pre>", content, re.S)
    ]
    assert blocks == ["cite = [@goodfellow2016]  # [@nobody1999]\n", "[@goodfellow2016]\n"]
    assert '<a href="./">@home</a>' in content


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
                "options": {"extensions": ["mlnotes_site.plugins.equations:EquationsExtension"]},
            }
        },
    }
}


def test_equations_the_griffe_extension_parses_the_section(tmp_path):
    from mlnotes_site.plugins import equations

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
        ("tinypkg.mod.area", "eq:area", "tinypkg/mod.py:4"),
        ("tinypkg.mod.area", "eq:perimeter", "tinypkg/mod.py:4"),
        ("tinypkg.mod.Disc.perimeter", "eq:perimeter", "tinypkg/mod.py:17"),
    ]


def test_equations_a_malformed_section_is_an_error_naming_the_function(tmp_path):
    from mlnotes_site.plugins import equations

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
    links = re.findall(r'<a class="[^"]*mlnotes-equation-link"[^>]*>[^<]*</a>', api)
    # (mkdocstrings' default order of members: alphabetical, Disc before area); the links
    # are mkdocs-autorefs' (its classes), the text mlnotes-equations'
    link = (
        '<a class="autorefs autorefs-internal mlnotes-equation-link" href="../notes/#{}" '
        "data-preview>equation ({}) of Tiny notes</a>"
    )
    assert links == [
        link.format("eq:perimeter", 1),
        link.format("eq:area", 2),
        link.format("eq:perimeter", 1),
    ], links
    assert "<autoref" not in api  # every reference resolved
    notes = built.text("notes/index.html")
    assert re.search(
        r'<div class="mlnotes-equation" id="eq:perimeter">.*?Computed by <a [^>]*href="../api/#tinypkg.mod.area".*?'
        r'href="../api/#tinypkg.mod.Disc.perimeter"',
        notes,
        re.S,
    ), notes


@pytest.mark.parametrize("missing", ["extensions", "custom_templates"])
def test_equations_without_the_griffe_extension_the_strict_build_fails_saying_so(tmp_path, missing):
    """Without the extension (or the template), mkdocstrings renders an Equation: section
    as plain text: a warning, from the configuration, saying what to configure, not a
    silent page."""
    setup = copy.deepcopy(MKDOCSTRINGS)
    if missing == "extensions":
        del setup["mkdocstrings"]["handlers"]["python"]["options"]["extensions"]
    else:
        del setup["mkdocstrings"]["custom_templates"]
    tree = tiny.project(
        tmp_path, TINY_PKG, plugins=[setup, {"mlnotes-equations": {"package": "tinypkg"}}]
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    wanted = "EquationsExtension" if missing == "extensions" else "custom_templates:"
    assert any(
        "Equation: sections of tinypkg's docstrings (3 references) as plain text" in w
        and wanted in w
        for w in built.warnings
    ), built.warnings


def test_equations_an_unknown_label_fails_the_strict_build_naming_the_function(tmp_path):
    tree = tiny.project(
        tmp_path,
        {**TINY_PKG, "docs/notes.md": "# Tiny notes\n\n$$\nx \\label{eq:area}\n$$\n"},
        plugins=[MKDOCSTRINGS, {"mlnotes-equations": {"package": "tinypkg"}}],
    )
    built = tiny.build(tree)
    assert built.returncode != 0
    assert (
        "WARNING -  equations: tinypkg.mod.area (tinypkg/mod.py:4): Equation: no \\label{eq:perimeter} on 'notes.md'"
        in built.warnings
    ), built.stderr


# ---------------------------------------------------------------------------------------
# mlnotes-assets
# ---------------------------------------------------------------------------------------


def test_assets_serves_mathjax_and_the_projects_own_pdf_and_zip(tmp_path):
    """MathJax comes from the project's node_modules (npm ci); the PDF and the offline
    zip are the project's, next to its mkdocs.yml (not the repository's)."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/index.md": "# Home\n",
            "mlnotes.pdf": b"%PDF-1.4\n%%EOF\n",
            "mlnotes-offline.zip": b"PK\x05\x06" + bytes(18),  # an empty zip
        },
        plugins=["mlnotes-assets"],
        node_modules=True,
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    assert "javascripts/mathjax/tex-chtml.js" in built.files
    assert (built.site / "mlnotes.pdf").read_bytes() == b"%PDF-1.4\n%%EOF\n"
    assert "mlnotes-offline.zip" in built.files


def test_assets_without_node_modules_fails_naming_where_it_looked(tmp_path):
    """MathJax is the project's: without node_modules where Node would find it from
    mkdocs.yml's folder, the build stops saying which folder and what to run."""
    tree = tiny.project(tmp_path, {"docs/index.md": "# Home\n"}, plugins=["mlnotes-assets"])
    built = tiny.build(tree)
    assert built.returncode != 0
    assert f"MathJax is not installed ({tree / 'node_modules' / 'mathjax'}/tex-chtml.js" in (
        built.stderr
    ), built.stderr[-3000:]
    assert "run `npm ci` in the project's folder" in built.stderr


# ---------------------------------------------------------------------------------------
# mlnotes-figures
# ---------------------------------------------------------------------------------------

# The tiny project's own package: the builder draws each figure under
# `mlnotes.plotting.style(theme)` and keys it on mlnotes/__init__.py, plotting.py and the
# modules the script imports, all of them this project's (its folder is first on sys.path).
TINY_PACKAGE = {
    "mlnotes/__init__.py": '"""A tiny package."""\n',
    "mlnotes/plotting.py": """\
import matplotlib as mpl

BACKGROUNDS = {"light": "#ffffff", "dark": "#1e2129"}


def style(theme="light"):
    return mpl.rc_context({"axes.facecolor": BACKGROUNDS[theme], "svg.hashsalt": "tiny"})
""",
    "mlnotes/shapes.py": "def area(side):\n    return side * side\n",
}
FIGURE = """\
\"\"\"A square's area against its side.\"\"\"

import matplotlib.pyplot as plt

from mlnotes.shapes import area


def make_figure():
    fig, ax = plt.subplots(figsize=(2, 2))
    sides = [0, 1, 2, 3]
    ax.plot(sides, [area(s) for s in sides]{extra})
    return fig
"""


def _figures_project(tmp_path, monkeypatch, scripts: dict[str, str]):
    monkeypatch.delitem(tiny.ENV, "MLNOTES_FIGURE_CACHE", raising=False)  # the project's own
    files = {
        "docs/index.md": "# Home\n\n![Areas](figures/x.svg)\n",
        **TINY_PACKAGE,
        **{f"scripts/figures/{name}.py": text for name, text in scripts.items()},
    }
    return tiny.project(tmp_path, files, plugins=[{"mlnotes-figures": {"jobs": 1}}])


def _last_run(tree) -> dict:
    return json.loads((tree / ".cache" / "figures" / "last-run.json").read_text())


@pytest.mark.slow
def test_figures_draws_the_projects_own_scripts_light_and_dark_and_a_second_build_is_cached(
    tmp_path, monkeypatch
):
    tree = _figures_project(tmp_path, monkeypatch, {"x": FIGURE.format(extra="")})
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    assert {"figures/x.svg", "figures/x-dark.svg"} <= set(built.files)
    light, dark = (built.text(f"figures/{n}.svg") for n in ("x", "x-dark"))
    assert light.lstrip().startswith("<?xml") and "<svg" in light
    assert light != dark  # drawn under the tiny package's two styles
    assert "figures/x.svg" in built.text("index.html")
    assert _last_run(tree)["built"] == ["x"]
    # the tiny project's package and folders, not the repository's (which has no shapes.py)
    imports = json.loads((tree / ".cache" / "figures" / "x.imports").read_text())
    assert imports == ["__init__.py", "shapes.py"]
    assert not (tiny.ROOT / "docs" / "figures" / "x.svg").exists()
    drawn = {p: p.stat().st_mtime_ns for p in (tree / "docs" / "figures").glob("*.svg")}

    again = tiny.build(tree, site=tmp_path / "site2")
    assert again.returncode == 0, again.stderr[-3000:]
    assert _last_run(tree)["built"] == [] and _last_run(tree)["fresh"] == ["x"]
    assert {p: p.stat().st_mtime_ns for p in drawn} == drawn  # nothing redrawn
    assert again.text("figures/x.svg") == light


def test_figures_a_script_that_raises_fails_the_strict_build_naming_it(tmp_path, monkeypatch):
    scripts = {"x": FIGURE.format(extra=""), "bad": FIGURE.format(extra=", 1 / 0")}
    tree = _figures_project(tmp_path, monkeypatch, scripts)
    built = tiny.build(tree)
    assert built.returncode != 0
    [error] = [line for line in built.stderr.splitlines() if "figure build failed" in line]
    assert "scripts/figures/bad.py raised" in error and "ZeroDivisionError" in error, error
    assert "x.py" not in error
    assert _last_run(tree)["built"] == ["x"]
    assert not list((tree / "docs" / "figures").glob("bad*.svg"))


def test_figures_a_missing_module_is_reported_at_the_scripts_line(tmp_path, monkeypatch):
    """A figure script that imports what does not exist: the strict build fails naming the
    script and the line of its import (not the import recorder the builder runs it under)."""
    broken = FIGURE.format(extra="").replace(
        "from mlnotes.shapes import area", "from mlnotes.shapes import area\nimport mlnotes.nope"
    )
    line = broken.splitlines().index("import mlnotes.nope") + 1
    tree = _figures_project(tmp_path, monkeypatch, {"x": broken})
    built = tiny.build(tree)
    assert built.returncode != 0
    [error] = [line for line in built.stderr.splitlines() if "figure build failed" in line]
    assert (
        f'scripts/figures/x.py raised: File "scripts/figures/x.py", line {line}, in <module> | '
        "ModuleNotFoundError: No module named 'mlnotes.nope'"
    ) in error, error


# ---------------------------------------------------------------------------------------
# Every plugin of this branch can be switched off: `enabled: false` (as Material's)
# ---------------------------------------------------------------------------------------

DISABLED = {
    # the figure script is there, but nothing is drawn
    "mlnotes-figures": (
        {**TINY_PACKAGE, "scripts/figures/x.py": FIGURE.format(extra="")},
        lambda built: not (built.root / "docs" / "figures").exists(),
    ),
    # no node_modules, and no error for it: nothing is served
    "mlnotes-assets": ({}, lambda built: "javascripts/mathjax/tex-chtml.js" not in built.files),
    "mlnotes-citations": (
        {"docs/references.bib": tiny.BIB, "docs/cited.md": "# Cited\n\nAs [@goodfellow2016].\n"},
        lambda built: "As [@goodfellow2016]." in built.text("cited/index.html"),
    ),
    # the notebook is not executed, nor its cache made (mkdocs-jupyter renders it as it is)
    "mlnotes-notebooks": (
        {"docs/notebooks/nb.py": "# %% [markdown]\n# # A notebook\n\n# %%\nprint(6 * 7)\n"},
        lambda built: (
            not (built.root / ".cache" / "notebooks").exists()
            and "<pre>42" not in built.text("notebooks/nb/index.html")
        ),
    ),
    # no node_modules, and no error for it: the math is left for MathJax in the browser
    "mlnotes-typeset": (
        {"docs/math.md": "# Math\n\n$\\frac{a}{b}$\n"},
        lambda built: "<mjx-container" not in built.text("math/index.html"),
    ),
}


@pytest.mark.parametrize("name", DISABLED)
def test_a_disabled_plugin_does_nothing(tmp_path, name):
    files, did_nothing = DISABLED[name]
    plugins = [{name: {"enabled": False}}]
    if name == "mlnotes-notebooks":
        # as the site's mkdocs.yml: the executed copies are .ipynb files
        jupyter = {"include": ["notebooks/*.py", "notebooks/*.ipynb"], "execute": False}
        plugins.insert(0, {"mkdocs-jupyter": jupyter})
    tree = tiny.project(tmp_path, {"docs/index.md": "# Home\n", **files}, plugins=plugins)
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    assert did_nothing(built)


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


# the value of each option in the tiny project
GOOD_OPTIONS = {
    "mlnotes-figures": {"jobs": 1},
    "mlnotes-assets": {},
    "mlnotes-notebooks": {"notebook_cache": ".cache/nb"},
    "mlnotes-citations": {"bib_file": "references.bib"},
    "mlnotes-cite": {"authors_file": ".authors.yml"},
    "mlnotes-cards": {},
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
        node_modules=True,
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
        node_modules=True,
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


def test_citations_markdown_in_a_locator_an_address_and_a_link_text(tmp_path):
    """A strict build: a locator's code and math are in the page (no stash placeholder);
    an e-mail address in brackets is no citation (no warning); a citation in a link's
    text is left as the link's text (no link in a link)."""
    tree = tiny.project(
        tmp_path,
        {
            "docs/references.bib": tiny.BIB,
            "docs/index.md": (
                "# Home\n\nDeep nets [@goodfellow2016, `conv2d` and $x^2$]. "
                "Mail me [at me@goodfellow2016.org]. [See [@goodfellow2016]](https://example.org).\n"
            ),
        },
        plugins=CITATIONS,
    )
    built = tiny.build(tree)
    assert built.returncode == 0, built.stderr
    assert built.warnings == []
    page = built.text("index.html")
    content = page[page.index('<h1 id="home">') : page.index('<h2 id="references">')]
    assert "klzzwxh" not in content and "\x02" not in content
    assert re.search(
        r'<span class="mlnotes-citation">\(<a class="footnote-ref mlnotes-cite" '
        r'href="#ref-goodfellow2016" aria-describedby="ref-goodfellow2016">'
        r"Goodfellow et al., 2016</a>, <code>conv2d</code> and "
        r'<span class="arithmatex">.*?</span>\)</span>',
        content,
    ), content
    assert "Mail me [at me@goodfellow2016.org]." in content
    assert re.search(r'<a href="https://example.org"[^>]*>See \[@goodfellow2016\]</a>', content)
