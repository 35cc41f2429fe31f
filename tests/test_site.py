"""The strict site build, checked from the files it writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"

ASSET = re.compile(
    r"""<(?:script|img|link|source|iframe)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.I
)


def test_strict_build_has_no_warnings(built_site):
    assert built_site.returncode == 0, built_site.log[-6000:]
    # mkdocs' own warnings (the kernels that execute the notebooks log "[IPKernelApp] WARNING")
    warnings = re.findall(r"^WARNING\s+-.*$", built_site.log, flags=re.M)
    assert not warnings, "\n".join(warnings[:30])


def test_every_figure_script_was_drawn_in_both_themes(site):
    from conftest import ROOT
    from mlnotes_site.figure_builder import FigureProject

    for name in FigureProject.at(ROOT).discover():
        for variant in (f"{name}.svg", f"{name}-dark.svg"):
            assert (site.path / "figures" / variant).stat().st_size > 1000, variant


def test_every_explorable_figure_has_every_point_drawn_with_its_parameters(site):
    """Each point of each explorable figure's grid (its script's EXPLORE) is in the site in
    both palettes, as the builder's manifest records it; a frame other than the default
    says, in the SVG, the call that drew it; the page's block carries every frame."""
    from browser.built import parsed
    from conftest import ROOT
    from mlnotes_site import explore
    from mlnotes_site.figure_builder import FigureProject

    project = FigureProject.at(ROOT)
    pages = {p: p.read_text(encoding="utf-8") for p in site.path.rglob("index.html")}
    for name, script in project.discover().items():
        grid = explore.read(script)
        if grid is None:
            continue
        manifest = explore.read_manifest(site.path / "figures", name)["points"]
        assert list(manifest) == [grid.point_id(p) for p in grid.points()], name
        for point in grid.points():
            entry = manifest[grid.point_id(point)]
            assert entry["params"] == point and entry["files"] == list(grid.files(name, point))
            for file in entry["files"]:
                svg = (site.path / "figures" / file).read_text(encoding="utf-8")
                if point != grid.default:
                    assert f"<dc:description>{explore.call(point)}</dc:description>" in svg, file
        shown = [
            figure
            for file, text in pages.items()
            if f'id="fig-{name}"' in text
            for figure in parsed(file).select(f"figure#fig-{name}")
        ]
        for figure in shown:
            frames = json.loads(figure["data-explore"])["frames"]
            assert frames == [manifest[grid.point_id(p)]["files"] for p in grid.points()], name


@pytest.mark.parametrize(
    "page",
    [
        "blog/sinusoidal-embeddings/",
        "notes/probability/",
        "notes/linear-algebra/",
        "notes/cnn/",
        "sources/",
        "reference/embeddings/",
    ],
)
def test_page_exists(site, page):
    assert (site.path / page / "index.html").exists()


def test_no_page_loads_math_javascript(site):
    """Every page's math, the notebook pages' too, is typeset when the site is built
    (mlnotes-typeset): no page loads MathJax, none keeps an arithmatex wrapper's TeX, and a
    notebook page's math is in arithmatex wrappers, typeset."""
    notebooks = 0
    for path in site.pages():
        html = (site.path / path / "index.html").read_text(encoding="utf-8")
        assert re.findall(r'<script src="([^"]*mathjax[^"]*)"', html) == [], path
        assert not re.search(r'<(span|div) class="arithmatex"[^>]*>\s*\\[(\[]', html), (
            f"{path}: math left as TeX"
        )
        if path.startswith("notebooks/") and path != "notebooks/":
            notebooks += 1
            assert re.search(r'<(span|div) class="arithmatex"><mjx-container', html), path
    assert notebooks >= 4


def test_mathjax_is_served_by_the_site(site):
    mathjax = site.path / "javascripts" / "mathjax"
    assert (mathjax / "tex-chtml.js").stat().st_size > 100_000
    assert (mathjax / "input" / "tex" / "extensions" / "boldsymbol.js").exists()
    # MathJax 4's font (a package of its own), where mathjax-config.js points the loader
    font = mathjax / "fonts" / "mathjax-newcm-font" / "chtml"
    assert len(list((font / "woff2").glob("*.woff2"))) > 50
    assert (font / "dynamic" / "double-struck.js").exists()
    assert (mathjax / "sre" / "mathmaps" / "en.json").exists()
    config = (site.path / "javascripts" / "mathjax-config.js").read_text(encoding="utf-8")
    assert 'fonts: "[mathjax]/fonts"' in config


def test_no_page_loads_a_third_party_asset(site):
    offenders = []
    for html in site.path.rglob("*.html"):
        # the canonical link names the deployed address (SITE_URL): no browser fetches it
        text = re.sub(r'<link rel="canonical"[^>]*>', "", html.read_text(encoding="utf-8"))
        for url in ASSET.findall(text):
            if re.match(r"(https?:)?//", url) and not url.startswith(
                ("http://127.0.0.1", "//127.0.0.1")
            ):
                offenders.append(f"{html.relative_to(site.path)}: {url}")
    assert not offenders, "\n".join(offenders[:20])


def test_notebooks_download_as_ipynb(site):
    notebooks = sorted((site.path / "notebooks").glob("*.ipynb"))
    assert {p.stem for p in notebooks} >= {
        "sinusoidal-embeddings",
        "probability",
        "linear-algebra",
        "cnn",
    }
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert any(c.cell_type == "code" for c in nb.cells), path.name
        page = (site.path / "notebooks" / path.stem / "index.html").read_text(encoding="utf-8")
        assert f'href="../{path.stem}.ipynb" download' in page


def test_every_dialog_has_an_accessible_name(site):
    """Material's search dialog (role="dialog" on every page) is named by the override
    overrides/partials/search.html: axe-core's aria-dialog-name rule, a best practice
    that the WCAG-tagged axe test does not run, and Lighthouse's accessibility audit."""
    from browser.built import parsed

    unnamed, dialogs = [], 0
    for page in site.pages():
        soup = parsed(site.path / page / "index.html")
        for dialog in soup.find_all(attrs={"role": re.compile(r"^(alert)?dialog$")}):
            dialogs += 1
            labelled = [soup.find(id=i) for i in (dialog.get("aria-labelledby") or "").split()]
            name = (dialog.get("aria-label") or "").strip() or " ".join(
                t.get_text(" ", strip=True) for t in labelled if t
            )
            if not name:
                unnamed.append(f"/{page}: {str(dialog)[:80]}")
    assert dialogs >= len(site.pages()), (
        f"{dialogs} dialogs on {len(site.pages())} pages: is search still there?"
    )
    assert not unnamed, f"{len(unnamed)} dialogs have no accessible name:\n" + "\n".join(
        unnamed[:10]
    )


def _fragment_links(site, only=None):
    """Every link of the built site that names a `#fragment` on a page of the site.

    Yields (page file, href, target file, fragment, the <a> element). Links to other
    hosts are left out, and so is the bare `#` (the top of the page). `only`: a test of
    a page's HTML text; the pages it rejects are not parsed.
    """
    from urllib.parse import unquote, urljoin, urlsplit

    from browser.built import parsed
    from conftest import SITE_URL

    root = site.path.resolve()
    for html in sorted(root.rglob("*.html")):
        page_url = SITE_URL + html.relative_to(root).as_posix()
        if only is not None and not only(html.read_text(encoding="utf-8")):
            continue
        soup = parsed(html)
        for a in soup.find_all("a", href=True):
            target = urljoin(page_url, a["href"])
            if not target.startswith(SITE_URL) or "#" not in target:
                continue
            path, fragment = urlsplit(target).path, unquote(urlsplit(target).fragment)
            if not fragment:
                continue
            rel = path[len(urlsplit(SITE_URL).path) :]
            file = root / rel
            if rel == "" or rel.endswith("/"):
                file = file / "index.html"
            yield html, a["href"], file, fragment, a


def test_a_posts_content_is_followed_by_an_element(site):
    """docs/stylesheets/extra.css shows a post's sidebar on a phone only once `.md-content`
    has a next sibling (Material's content script, after the article): without one, the
    sidebar would stay hidden on every phone."""
    from browser.built import parsed

    posts = []
    for page in site.pages():
        file = site.path / page / "index.html"
        if "md-content--post" not in file.read_text(encoding="utf-8"):
            continue
        content = parsed(file).select_one("div.md-content--post")
        if content is not None:
            posts.append(page)
            assert content.find_next_sibling() is not None, page
    assert posts, "no page with a post's layout (div.md-content--post)"


def test_every_fragment_link_names_an_id_its_target_has(site):
    """Each `#fragment` link (same page or another page of the site) lands on an element.

    MkDocs' strict build checks the links written in Markdown, not the ones plugins write
    into the HTML (mkdocs-jupyter's table of contents, the equation and citation links):
    this reads every built page.
    """
    from browser.built import parsed

    root = site.path.resolve()
    ids: dict = {}
    broken, checked = [], 0
    for page, href, file, fragment, _ in _fragment_links(site):
        if file not in ids:
            if not file.is_file():
                broken.append(
                    f"{page.relative_to(root)}: {href} (no page {file.relative_to(root)})"
                )
                continue
            soup = parsed(file)
            ids[file] = {t["id"] for t in soup.find_all(id=True)} | {
                t["name"] for t in soup.find_all("a", attrs={"name": True})
            }
        checked += 1
        if fragment not in ids[file]:
            broken.append(f"{page.relative_to(root)}: {href}")
    # 769 when issue 33 took out the code listings' per-line links (mkdocs.yml: highlight)
    assert checked > 500, f"only {checked} fragment links found: is the site complete?"
    assert not broken, f"{len(broken)} fragment links name no id:\n" + "\n".join(broken[:40])


FIGURE_NUMBER = re.compile(r"\bFigures? (\d+)\b")


def test_no_figure_number_is_typed_by_hand():
    """The text refers to a figure by label, `[][fig-x]`, and the build writes its number
    (scripts/mlnotes_site/plugins/figure_blocks.py): no "Figure <number>" is typed in a
    page's Markdown, code blocks included, nor in a notebook's source."""
    sources = [*DOCS.rglob("*.md"), *(DOCS / "notebooks").glob("*.py")]
    typed = [
        f"{path.relative_to(DOCS)}:{i}: {line.strip()[:80]}"
        for path in sources
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FIGURE_NUMBER.search(line)
    ]
    assert len(sources) > 10
    assert not typed, "figure numbers typed by hand:\n" + "\n".join(typed)


def _figures(soup) -> dict[str, int]:
    """The page's figures, id -> the number their caption starts with ("Figure 2: ...")."""
    figures = {}
    for fig in soup.find_all("figure", id=True):
        caption = fig.find("figcaption")
        match = caption and re.match(r"Figure (\d+)\b", caption.get_text(" ", strip=True))
        if match:
            figures[fig["id"]] = int(match.group(1))
    return figures


def test_figures_are_numbered_in_order_and_every_figure_link_names_its_number(site):
    """On each page of the built site the figures read Figure 1, 2, ... in order, each
    with an id, and every link to a figure, from its page or another, reads "Figure N",
    N being that figure's number: the build's numbering, end to end (the captions and
    the references are written by figure_blocks.py; the references to another page's
    figure are filled in after every page is converted, and none is left unfilled)."""
    from browser.built import parsed

    root = site.path.resolve()
    figures: dict = {}

    def figures_of(file):
        if file not in figures:
            figures[file] = _figures(parsed(file))
        return figures[file]

    wrong, numbered = [], 0
    for page in site.pages():
        html = (root / page / "index.html").read_text(encoding="utf-8")
        if "\ue000" in html:
            wrong.append(f"/{page}: a reference to another page's figure left unnumbered")
        if "<figcaption" not in html:
            continue
        captions = [
            fig
            for fig in parsed(root / page / "index.html").select("article figure")
            if fig.find("figcaption") and fig.find("img")
        ]
        for position, fig in enumerate(captions, start=1):
            text = fig.find("figcaption").get_text(" ", strip=True)
            if not re.match(rf"Figure {position}:", text) or not fig.get("id"):
                wrong.append(f"/{page}: figure {position} ({fig.get('id')}) reads {text[:40]!r}")
            numbered += 1
    checked, elsewhere = 0, 0
    # a link that says "Figure N" or lands on a figure (ids fig-...) is on a page that says so
    links = _fragment_links(site, only=lambda html: "Figure " in html or "#fig-" in html)
    for page, href, file, fragment, link in links:
        if not file.is_file():
            continue  # test_every_fragment_link_names_an_id_its_target_has reports it
        text = link.get_text(" ", strip=True)
        target = figures_of(file)
        if fragment in target:
            checked += 1
            elsewhere += file.parent != page.parent
            if text != f"Figure {target[fragment]}":
                wrong.append(
                    f"{page.relative_to(root)}: {text!r} links to {href}, "
                    f"which is Figure {target[fragment]}"
                )
        elif FIGURE_NUMBER.search(text):
            wrong.append(f"{page.relative_to(root)}: {text!r} links to {href}, not a figure")
    assert not wrong, "\n".join(wrong)
    assert numbered >= 15, f"only {numbered} numbered figures: are the captions there?"
    assert checked >= 17, f"only {checked} links to figures: are the ids there?"
    assert elsewhere >= 5, f"only {elsewhere} links to another page's figures"


# TeX that mlnotes-typeset's readable_math left in the search index as text: a macro
# (a backslash and letters), an environment's name, a label or a reference glued to its
# argument ("labeleq:prob-bayes", "eqrefeq:..."), macro names without their backslash
SEARCH_TEX_LEFTOVER = re.compile(
    r"\\[A-Za-z]{2,}|\b(?:begin|end)\s*\{|labeleq|eqrefeq|\bmid |lVert|rVert|vdots|ddots"
)
SEARCH_CODE = re.compile(r"<pre\b.*?</pre>|<code\b.*?</code>", re.S)


def test_the_search_index_has_no_tex_left_outside_code(site):
    """The search results show the pages' math as text (tests/test_typeset.py: readable):
    no TeX macro, environment, label or reference is left in a title or text outside code,
    and every `\\eqref` shows its equation's number."""
    import json

    index = json.loads((site.path / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert len(index["docs"]) > 50
    found = []
    for doc in index["docs"]:
        for field in ("title", "text"):
            text = SEARCH_CODE.sub(" ", doc[field])
            found += [
                f"{doc['location']} ({field}): ...{text[max(0, m.start() - 40) : m.end() + 40]}..."
                for m in SEARCH_TEX_LEFTOVER.finditer(text)
            ]
    assert not found, "\n".join(found[:30])
    # every \eqref shows its number on its page (mlnotes-equations' numbers; the blog
    # posts' URLs are known only after the blog plugin moved them), not "(eq.)"
    unresolved = [d["location"] for d in index["docs"] if "(eq.)" in d["text"]]
    assert not unresolved, unresolved


@pytest.mark.slow
def test_properdocs_builds_the_same_site(site, tmp_path, tmp_path_factory):
    """ProperDocs 1.6.7 (the maintained fork of MkDocs 1.6, pinned in the test extra) builds
    this mkdocs.yml strictly, its own plugins included, into the same set of files."""
    import os
    import subprocess
    import sys

    from conftest import ROOT, SITE_URL, build_lock

    out = tmp_path / "properdocs"
    with build_lock(tmp_path_factory):  # it writes the project's caches and figures
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "properdocs",
                "build",
                "--strict",
                "-f",
                "mkdocs.yml",
                "-d",
                str(out),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "SITE_URL": SITE_URL, "NO_MKDOCS_2_WARNING": "1"},
        )
    assert result.returncode == 0, result.stderr[-4000:]

    def files(root):
        return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

    ours = files(site.path)
    assert len(ours) > 50
    assert files(out) == ours
