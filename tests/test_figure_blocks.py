"""The figure block and figure references (scripts/mlnotes_site/plugins/figure_blocks.py)
on tiny projects (tests/tiny.py) built strictly, and the box marks of instant previews
(scripts/mlnotes_site/box_previews.py)."""

from __future__ import annotations

import re

import markdown
import pytest
import tiny
from bs4 import BeautifulSoup
from test_plugins_tiny import FIGURE, TINY_PACKAGE

from mlnotes_site.markup import figure_names
from mlnotes_site.plugins.figure_blocks import alt_text, drawn_by

ALT = "A line of four points: the area of a square against its side, from 0 to 9."
SCRIPT = FIGURE.format(extra="").replace(
    "\n\ndef make_figure", f'\nALT = "{ALT}"\n\n\ndef make_figure'
)
EXTENSIONS = [
    *tiny.MARKDOWN_EXTENSIONS,
    "admonition",
    "pymdownx.details",
    {"pymdownx.highlight": {"line_spans": "__span", "pygments_lang_class": True}},
    "pymdownx.superfences",
    "pymdownx.blocks.admonition",
    "mlnotes_site.box_previews",
]


def figure(name: str, caption: str, options: str = "") -> str:
    return f"/// figure | {name}\n{options}{caption}\n///\n"


# A nested page (its drawings are two folders up), references before and after the
# figures, in a box and in a caption; another page refers to its figures.
WITH = "    with: [mlnotes.shapes.area]\n"
PAGE = (
    "# Page\n\n[][fig-small] comes first, then [][fig-large].\n\n"
    + figure("small", "The small one (see [][fig-large]).", WITH)
    + "\n!!! note\n    In a box: [][fig-large].\n\n"
    + figure("large", "The large one.", "    id: fig-large\n")
    + "\nAfter both: [][fig-small] and [][fig-large].\n"
)
OTHER = "# Other\n\nThe page's [][fig-large], then [][fig-small].\n"
API = "# API\n\n## area {#mlnotes.shapes.area}\n"


def _project(tmp_path, monkeypatch, pages: dict[str, str], scripts=("small", "large", "extra")):
    monkeypatch.delitem(tiny.ENV, "MLNOTES_FIGURE_CACHE", raising=False)  # the project's own
    files = {
        **TINY_PACKAGE,
        **{f"scripts/figures/{name}.py": SCRIPT for name in scripts},
        "docs/index.md": "# Home\n",
        "docs/api.md": API,
        **pages,
    }
    return tiny.project(
        tmp_path,
        files,
        plugins=["autorefs", {"mlnotes-figures": {"jobs": 1}}],
        markdown_extensions=EXTENSIONS,
    )


def _built(tree, site=None) -> tiny.Built:
    built = tiny.build(tree, site=site)
    assert built.returncode == 0, built.stderr[-3000:]
    return built


def _soup(built: tiny.Built, page: str) -> BeautifulSoup:
    return BeautifulSoup(built.text(f"{page}/index.html"), "html.parser").select_one("article")


def _references(article) -> list[tuple[str, str]]:
    """(text, fragment) of each link to a figure, in order (captions' "Drawn by" aside)."""
    return [(a.get_text(), a["href"].split("#")[1]) for a in article.select('a[href*="#fig-"]')]


def _captions(article) -> list[tuple[str, str]]:
    return [
        (fig["id"], fig.figcaption.get_text(" ", strip=True).split(" ", 2)[1])
        for fig in article.select("figure")
    ]


def test_a_figure_block_writes_the_drawings_the_numbered_caption_and_the_listing(
    tmp_path, monkeypatch
):
    tree = _project(tmp_path, monkeypatch, {"docs/notes/page.md": PAGE, "docs/other.md": OTHER})
    article = _soup(_built(tree), "notes/page")
    small = article.select_one("figure#fig-small")
    images = small.select("img")
    assert [img["src"] for img in images] == [
        "../../figures/small.svg#only-light",
        "../../figures/small-dark.svg#only-dark",
    ]
    assert [img["alt"] for img in images] == [ALT, ALT]  # the script's ALT
    caption = small.figcaption
    assert caption.select_one("span.caption-prefix").get_text() == "Figure 1:"
    assert caption.get_text(" ", strip=True) == (
        "Figure 1: The small one (see Figure 2 ). Drawn by scripts/figures/small.py with area ."
    )
    drawn = caption.select("a")
    assert drawn[-2]["href"] == "#script-small"
    assert drawn[-1]["href"] == "../../api/#mlnotes.shapes.area"
    # the listing, collapsed, right after the figure: the script, highlighted as a fence
    listing = small.find_next_sibling()
    assert listing.name == "details" and listing["id"] == "script-small"
    assert listing.get("open") is None and listing["class"] == ["example"]
    assert listing.summary.get_text() == "scripts/figures/small.py"
    assert listing.summary["data-box"] == "details"  # its preview's box (box_previews.py)
    code = listing.select_one("div.language-python.highlight pre code")
    assert code.get_text() == SCRIPT
    assert code.select_one("span[id^=__span-]")  # the site's highlight options
    # the second figure: its own id, no `with`
    large = article.select_one("figure#fig-large")
    assert large.figcaption.get_text(" ", strip=True) == (
        "Figure 2: The large one. Drawn by scripts/figures/large.py ."
    )
    assert large.find_next_sibling()["id"] == "script-large"


def test_inserting_a_figure_at_the_top_renumbers_every_reference(tmp_path, monkeypatch):
    tree = _project(tmp_path, monkeypatch, {"docs/notes/page.md": PAGE, "docs/other.md": OTHER})
    before = _built(tree)
    article = _soup(before, "notes/page")
    assert _captions(article) == [("fig-small", "1:"), ("fig-large", "2:")]
    assert _references(article) == [
        ("Figure 1", "fig-small"),
        ("Figure 2", "fig-large"),
        ("Figure 2", "fig-large"),  # in the first caption
        ("Figure 2", "fig-large"),  # in the box
        ("Figure 1", "fig-small"),
        ("Figure 2", "fig-large"),
    ]
    other = _soup(before, "other")
    assert _references(other) == [("Figure 2", "fig-large"), ("Figure 1", "fig-small")]

    page = tree / "docs/notes/page.md"
    text = page.read_text(encoding="utf-8")
    top = figure("extra", "Inserted at the top, before [][fig-small].")
    page.write_text(text.replace("# Page\n\n", f"# Page\n\n{top}\n", 1), encoding="utf-8")
    after = _built(tree, site=tmp_path / "site2")
    article = _soup(after, "notes/page")
    assert _captions(article) == [("fig-extra", "1:"), ("fig-small", "2:"), ("fig-large", "3:")]
    assert _references(article) == [
        ("Figure 2", "fig-small"),  # in the new caption
        ("Figure 2", "fig-small"),
        ("Figure 3", "fig-large"),
        ("Figure 3", "fig-large"),
        ("Figure 3", "fig-large"),
        ("Figure 2", "fig-small"),
        ("Figure 3", "fig-large"),
    ]
    # the other page's references follow, and link to the figures' page
    other = _soup(after, "other")
    assert _references(other) == [("Figure 3", "fig-large"), ("Figure 2", "fig-small")]
    assert [a["href"] for a in other.select('a[href*="#fig-"]')] == [
        "../notes/page/#fig-large",
        "../notes/page/#fig-small",
    ]
    assert "\ue000" not in after.text("other/index.html")


def test_an_unknown_label_fails_the_strict_build_naming_the_page_and_the_label(
    tmp_path, monkeypatch
):
    pages = {"docs/notes/page.md": PAGE, "docs/other.md": OTHER + "\nAnd [][fig-nosuch].\n"}
    built = tiny.build(_project(tmp_path, monkeypatch, pages))
    assert built.returncode != 0
    [warning] = [w for w in built.warnings if "fig-nosuch" in w]
    assert "other.md" in warning, warning
    assert not [w for w in built.warnings if "fig-small" in w or "fig-large" in w]


def test_a_figure_block_naming_no_script_fails_the_strict_build_naming_it(tmp_path, monkeypatch):
    pages = {"docs/index.md": "# Home\n\n" + figure("nosuch", "A caption.")}
    built = tiny.build(_project(tmp_path, monkeypatch, pages))
    assert built.returncode != 0
    assert any(
        "index.md" in line and "scripts/figures/nosuch.py" in line and "does not exist" in line
        for line in built.stderr.splitlines()
    ), built.stderr[-3000:]


def test_a_script_without_alt_text_fails_the_strict_build(tmp_path, monkeypatch):
    pages = {"docs/index.md": "# Home\n\n" + figure("bare", "A caption.")}
    tree = _project(tmp_path, monkeypatch, pages)
    (tree / "scripts/figures/bare.py").write_text(FIGURE.format(extra=""), encoding="utf-8")
    built = tiny.build(tree)
    assert built.returncode != 0
    assert any("scripts/figures/bare.py" in w and "ALT" in w for w in built.stderr.splitlines())


# --- the parts, without a build ----------------------------------------------------------


def test_alt_text_is_read_without_running_the_script(tmp_path):
    script = tmp_path / "x.py"
    script.write_text('raise SystemExit\nALT = (\n    "two "\n    "lines"\n)\n', encoding="utf-8")
    assert alt_text(script) == "two lines"
    script.write_text("ALT = 3\n", encoding="utf-8")
    assert alt_text(script) is None
    script.write_text("def f():\n    ALT = 'inside'\n", encoding="utf-8")
    assert alt_text(script) is None


@pytest.mark.parametrize(
    "functions, sentence",
    [
        ([], "Drawn by X."),
        (["m.a"], "Drawn by X with [`a`][m.a]."),
        (["m.a", "m.b"], "Drawn by X with [`a`][m.a] and [`b`][m.b]."),
        (["m.a", "m.b", "n.c"], "Drawn by X with [`a`][m.a], [`b`][m.b] and [`c`][n.c]."),
    ],
)
def test_drawn_by_lists_the_functions_as_the_captions_did(functions, sentence):
    link = '<a href="#script-x">scripts/figures/x.py</a>'
    assert drawn_by("x", "scripts/figures/x.py", functions) == sentence.replace("X", link)


def test_figure_names_reads_blocks_and_images_in_order():
    text = (
        "/// figure | b_fig\n    id: fig-b\nCaption.\n///\n\n"
        "![alt](../figures/a_fig-dark.svg#only-dark)\n> /// figure | c_fig\n"
        "/// figure-caption | #fig-d\n/// figure | b_fig\n"
    )
    assert figure_names(text) == ["b_fig", "c_fig", "a_fig"]


def test_a_box_with_an_id_marks_its_first_child_for_its_preview():
    md = markdown.Markdown(
        extensions=[
            "attr_list",
            "pymdownx.details",
            "pymdownx.blocks.admonition",
            "mlnotes_site.box_previews",
        ]
    )
    html = md.convert(
        "/// warning | Correction: x\n    attrs: {id: correction-x}\n\nBody.\n///\n\n"
        "/// warning | Without an id\n\nBody.\n///\n\n"
        "*Note:* a note.\n{: #note-x }\n\n"
        "Text first, *then* emphasis.\n{: #text-first }\n\n"
        '??? example "Check"\n\n    Hidden.\n'
    )
    soup = BeautifulSoup(html, "html.parser")
    marked = {
        tag.parent.get("id") or tag.get_text(): (tag["data-box"], tag["data-box-class"])
        for tag in soup.select("[data-box]")
    }
    assert marked == {"correction-x": ("div", "admonition warning"), "note-x": ("p", "")}
    assert re.search(r'<div class="admonition warning" id="correction-x">', html)
