"""Explorable figures in Chromium (docs/javascripts/explore.js), on a tiny project
(tests/tiny.py) whose page, two folders down, shows one: a keyboard step on a phone and on
a desktop, JavaScript off, and the offline copy read from disk (with mlnotes-assets, which
serves it the iframe-worker shim that Material's offline plugin would fetch from a CDN)."""

from __future__ import annotations

import pytest
import tiny
from test_explore import POWERS
from test_figure_blocks import EXTENSIONS
from test_plugins_tiny import TINY_PACKAGE

from mlnotes_site.chromium import serve

from .tab import ANIMATIONS_SETTLED, watch

pytestmark = pytest.mark.browser

PAGE = "# Powers\n\n/// figure | powers\nThe curve $x^k$ ([][fig-powers]).\n///\n"
FILES = {
    **TINY_PACKAGE,
    "mlnotes/alpha.py": "A = 1\n",
    "scripts/figures/powers.py": POWERS,
    "docs/index.md": "# Home\n",
    "docs/notes/powers.md": PAGE,
    "docs/javascripts/explore.js": (tiny.ROOT / "docs/javascripts/explore.js").read_text(),
    "docs/stylesheets/extra.css": (tiny.ROOT / "docs/stylesheets/extra.css").read_text(),
}
PLUGINS = ["autorefs", {"mlnotes-figures": {"jobs": 1}}]
SETTINGS = {
    "markdown_extensions": EXTENSIONS,
    "extra_javascript": ["javascripts/explore.js"],
    "extra_css": ["stylesheets/extra.css"],
    "theme": {
        "name": "material",
        "font": False,
        "features": ["navigation.instant"],
        "palette": [  # the site's two palettes, by the reader's preference
            {"media": "(prefers-color-scheme: light)", "scheme": "default", "primary": "indigo"},
            {"media": "(prefers-color-scheme: dark)", "scheme": "slate", "primary": "indigo"},
        ],
    },
}
DEFAULT = ("powers.svg#only-light", "powers-dark.svg#only-dark")
# k: 2 -> 3 at scale 1.0, the default's
STEPPED = ("powers/k=3,scale=1.0.svg#only-light", "powers/k=3,scale=1.0-dark.svg#only-dark")
IMAGES = "#fig-powers > p img"
SRCS = f"[...document.querySelectorAll('{IMAGES}')].map(i => i.getAttribute('src'))"
RESOLVED = f"[...document.querySelectorAll('{IMAGES}')].map(i => i.src)"
# the drawing the reader sees has loaded (a frame that is not there has no width)
SHOWN_LOADED = f"""() => [...document.querySelectorAll('{IMAGES}')]
    .filter(i => i.offsetParent !== null).map(i => i.complete && i.naturalWidth > 0)"""


def _built(root, **settings) -> tiny.Built:
    with pytest.MonkeyPatch.context() as mp:
        mp.delitem(tiny.ENV, "MLNOTES_FIGURE_CACHE", raising=False)  # the project's own
        plugins = settings.pop("plugins", PLUGINS)
        tree = tiny.project(root, FILES, plugins=plugins, node_modules=True, **SETTINGS)
        built = tiny.build(tree)
    assert built.returncode == 0, built.stderr[-3000:]
    return built


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    built = _built(tmp_path_factory.mktemp("explore"))
    with serve(built.site) as url:
        yield url


@pytest.fixture(scope="module")
def offline(tmp_path_factory) -> tiny.Built:
    return _built(
        tmp_path_factory.mktemp("explore-offline"),
        plugins=["search", *PLUGINS, "offline", "mlnotes-assets"],
    )


def _tab(browser, problems, **options):
    context = browser.new_context(sink=problems, **options)
    page = context.new_page()
    watch(page, problems, [])
    return context, page


def _step(page) -> None:
    """A keyboard step: the first slider (k) focused, ArrowRight."""
    slider = page.locator("#fig-powers-k")
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => {SRCS}[0].endsWith({STEPPED[0]!r})", timeout=5000)


@pytest.mark.parametrize("width", [360, 1280])
def test_a_keyboard_step_swaps_both_palettes_frames_and_says_the_value(browser, served, width):
    problems: list[str] = []
    context, page = _tab(browser, problems, viewport={"width": width, "height": 800})
    frames: list[str] = []  # requests for frames other than the default
    page.on("request", lambda r: "/figures/powers/" in r.url and frames.append(r.url))
    try:
        page.goto(served + "notes/powers/", wait_until="load")
        page.wait_for_timeout(300)
        assert frames == []  # not with the page: when the reader first touches a control
        slider = page.locator("#fig-powers-k")
        assert slider.is_visible() and page.locator("label[for=fig-powers-k]").is_visible()
        assert page.locator("label[for=fig-powers-k]").inner_text() == "k, the exponent"
        assert slider.get_attribute("aria-valuetext") == "2"
        assert [s.rsplit("/", 1)[-1] for s in page.evaluate(SRCS)] == list(DEFAULT)
        values = page.locator("#fig-powers .mlnotes-explore-values")
        assert values.inner_text() == "At x = 3 the curve is at 9."
        assert values.get_attribute("aria-live") == "polite"
        alts = f"[...document.querySelectorAll('{IMAGES}')].map(i => i.alt)"
        default_alt = page.evaluate(alts)
        _step(page)
        assert len({f.split("#")[0] for f in frames}) >= 5  # the other points, preloaded
        # the palette shown swaps its drawing, from the site's own files wherever it is
        # served; the hidden palette's keeps its drawing, and no frame of it is fetched
        assert page.evaluate(RESOLVED) == [
            served + "figures/" + STEPPED[0],
            served + "figures/" + DEFAULT[1],
        ]
        assert not [f for f in frames if "-dark.svg" in f]
        # a step does not move what follows the figure: its box keeps its height
        height = page.evaluate("document.getElementById('fig-powers').offsetHeight")
        assert slider.get_attribute("aria-valuetext") == "3"
        assert page.locator("output[for=fig-powers-k]").inner_text() == "3"
        assert page.locator("output[for=fig-powers-scale]").inner_text() == "1.0\u00a0cm"
        assert values.inner_text() == "At x = 3 the curve is at 27."
        # the script's ALT describes the default; the frame shown is described by its values
        assert page.evaluate(alts) == ["At x = 3 the curve is at 27."] * len(default_alt)
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(alts) == default_alt
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.getElementById('fig-powers').offsetHeight") == height
        # a print shows the default (the figure the caption describes), then the point again
        stepped = page.evaluate(SRCS)
        page.evaluate("dispatchEvent(new Event('beforeprint'))")
        assert [s.rsplit("/", 1)[-1] for s in page.evaluate(SRCS)] == list(DEFAULT)
        assert page.evaluate(alts) == default_alt
        page.evaluate("dispatchEvent(new Event('afterprint'))")
        assert page.evaluate(SRCS) == stepped
        page.wait_for_function(f"() => ({SHOWN_LOADED})().every(Boolean)", timeout=5000)
        assert page.evaluate(SHOWN_LOADED) == [True]  # one palette shown, its frame drawn
        # the controls fit: nothing scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # the other palette: its image is the stepped frame too
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
        page.wait_for_function(f"() => ({SHOWN_LOADED})().every(Boolean)", timeout=5000)
        shown = page.evaluate(
            f"[...document.querySelectorAll('{IMAGES}')].filter(i => i.offsetParent)"
            ".map(i => i.getAttribute('src'))"
        )
        assert [s.split("figures/", 1)[1] for s in shown] == [STEPPED[1]]
        assert not problems, problems
    finally:
        context.close()


def test_javascript_off_shows_the_default_figure_and_no_controls(browser, served):
    problems: list[str] = []
    context, page = _tab(browser, problems, java_script_enabled=False)
    try:
        page.goto(served + "notes/powers/", wait_until="load")
        assert [s.rsplit("/", 1)[-1] for s in page.evaluate(SRCS)] == list(DEFAULT)
        assert page.locator("#fig-powers-k").count() == 1  # in the page, not shown
        assert not page.locator("#fig-powers-k").is_visible()
        assert not page.locator("#fig-powers .mlnotes-explore-values").is_visible()
        assert page.evaluate(f"() => ({SHOWN_LOADED})()") == [True]
        assert not problems, problems
    finally:
        context.close()


def test_the_offline_copy_swaps_frames_read_from_disk(browser, offline):
    problems: list[str] = []
    context, page = _tab(browser, problems)
    try:
        page.goto((offline.site / "notes" / "powers.html").as_uri(), wait_until="load")
        _step(page)
        figures = (offline.site / "figures").as_uri() + "/"
        assert page.evaluate(RESOLVED) == [figures + STEPPED[0], figures + DEFAULT[1]]
        page.wait_for_function(f"() => ({SHOWN_LOADED})().every(Boolean)", timeout=5000)
        assert page.locator("#fig-powers .mlnotes-explore-values").inner_text() == (
            "At x = 3 the curve is at 27."
        )
        assert not problems, problems
    finally:
        context.close()


def test_axe_core_finds_no_violations_in_the_controls_in_either_palette(browser, served):
    """WCAG 2.1 AA (axe-core, as tests/browser/snapshots.py runs it) on the figure with its
    controls shown and stepped once, light then dark (the colour rules again). The figure
    only: the tiny project's palette inputs (Material's, toggle-less) are not ours."""
    from .snapshots import AXE, AXE_COLOUR_RULES, AXE_RUN

    run = AXE_RUN.replace("axe.run(document,", "axe.run('#fig-powers',")
    assert run != AXE_RUN

    problems: list[str] = []
    context, page = _tab(browser, problems)
    try:
        page.goto(served + "notes/powers/", wait_until="load")
        _step(page)
        page.add_script_tag(path=str(AXE))
        assert page.evaluate(run, None) == []
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
        page.evaluate(ANIMATIONS_SETTLED)  # Material's colour transitions, ended
        assert page.evaluate(run, AXE_COLOUR_RULES) == []
        assert not problems, problems
    finally:
        context.close()
