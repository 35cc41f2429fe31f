"""Accessibility: heading order and alt text (the built HTML), axe-core in both palettes
(read from the desktop snapshots), the figure palettes' contrast (matplotlib's styles)."""

from __future__ import annotations

import re

import pytest

from .built import content_of
from .snapshots import AXE, AXE_PAGES, ROOT


def test_headings_are_in_order_and_images_have_alt(site):
    failures = []
    for path in site.pages():
        content = content_of(site, path)
        levels = [int(h.name[1]) for h in content.find_all(re.compile(r"^h[1-6]$"))]
        if not levels or levels[0] != 1 or levels.count(1) != 1:
            failures.append(f"/{path}: headings {levels[:6]}... need exactly one h1, first")
        for previous, level in zip(levels, levels[1:]):
            if level > previous + 1:
                failures.append(f"/{path}: heading level skips from h{previous} to h{level}")
                break
        for img in content.find_all("img"):
            if not (img.get("alt") or "").strip():
                failures.append(f"/{path}: image {str(img.get('src'))[:60]} has no alt text")
    assert not failures, "\n".join(failures)


@pytest.mark.browser
def test_axe_core_finds_no_violations_in_either_palette(desktop):
    """Every WCAG 2.1 AA rule in the light palette, then the colour rules once Material's
    toggle has switched to the dark one (snapshots.py: AXE_RUN)."""
    assert AXE.exists(), f"{AXE} is missing: run `npm ci` (any make target does)"
    failures = []
    problems = []
    for path in AXE_PAGES:
        visit = desktop[path]
        problems += visit.problems
        assert visit["schemes"][:2] == ["default", "slate"], (path, visit["schemes"])
        for scheme, violations in visit["axe"].items():
            for violation in violations:
                failures.append(
                    f"/{path} [{scheme}] {violation['id']} ({violation['impact']}): {violation['help']}: {violation['nodes']}"
                )
    assert not failures, "\n".join(failures)
    assert not problems, problems


def _luminance(colour: str) -> float:
    rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Material's page backgrounds: default (white) and slate (hsl(225, 15%, 14%)).
BACKGROUNDS = {"light": "#ffffff", "dark": "#1e2129"}


def test_contrast_helper():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_figure_palette_contrast(theme):
    """Lines and marks need 3:1 against the page (WCAG 1.4.11), text 4.5:1 (1.4.3)."""
    import matplotlib as mpl

    from mlnotes import plotting

    background = BACKGROUNDS[theme]
    with plotting.style(theme):
        cycle = [mpl.colors.to_hex(c["color"]) for c in mpl.rcParams["axes.prop_cycle"]]
        text = {
            key: mpl.colors.to_hex(mpl.rcParams[key])
            for key in ("text.color", "axes.labelcolor", "xtick.labelcolor", "ytick.labelcolor")
        }
    palette = [c.lower() for c in plotting.PALETTE] if theme == "light" else []
    failures = [
        f"text {key} {c}: {contrast(c, background):.2f}:1 < 4.5:1"
        for key, c in text.items()
        if contrast(c, background) < 4.5
    ]
    low = sorted({c for c in cycle + palette if contrast(c, background) < 3.0})
    if low:
        used = _figures_using(low, theme)
        failures += [
            f"{c}: {contrast(c, background):.2f}:1 against {background} < 3:1"
            + (f", used in {', '.join(used[c])}" if used.get(c) else "")
            for c in low
        ]
    assert not failures, f"{theme} theme:\n" + "\n".join(failures)


def _figures_using(colours: list[str], theme: str) -> dict[str, list[str]]:
    """Which built figures draw with each colour (for the failure message only)."""
    folder = ROOT / "docs" / "figures"
    found: dict[str, list[str]] = {}
    for svg in sorted(folder.glob("*.svg")):
        if svg.stem.endswith("-dark") != (theme == "dark"):
            continue
        text = svg.read_text(errors="replace").lower()
        for c in colours:
            if c.lower() in text:
                found.setdefault(c, []).append(svg.stem)
    return found
