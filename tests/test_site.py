"""The strict site build, checked from the files it writes."""

from __future__ import annotations

import re

import nbformat
import pytest

ASSET = re.compile(r"""<(?:script|img|link|source|iframe)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.I)


def test_strict_build_has_no_warnings(built_site):
    assert built_site.returncode == 0, built_site.log[-6000:]
    # mkdocs' own warnings (the kernels that execute the notebooks log "[IPKernelApp] WARNING")
    warnings = re.findall(r"^WARNING\s+-.*$", built_site.log, flags=re.M)
    assert not warnings, "\n".join(warnings[:30])


def test_every_figure_script_was_drawn_in_both_themes(site):
    from build_figures import discover

    for name in discover():
        for variant in (f"{name}.svg", f"{name}-dark.svg"):
            assert (site.path / "figures" / variant).stat().st_size > 1000, variant


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
            if re.match(r"(https?:)?//", url) and not url.startswith(("http://127.0.0.1", "//127.0.0.1")):
                offenders.append(f"{html.relative_to(site.path)}: {url}")
    assert not offenders, "\n".join(offenders[:20])


def test_notebooks_download_as_ipynb(site):
    notebooks = sorted((site.path / "notebooks").glob("*.ipynb"))
    assert {p.stem for p in notebooks} >= {"sinusoidal-embeddings", "probability", "linear-algebra", "cnn"}
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert any(c.cell_type == "code" for c in nb.cells), path.name
        page = (site.path / "notebooks" / path.stem / "index.html").read_text(encoding="utf-8")
        assert f'href="../{path.stem}.ipynb" download' in page
