"""What several figures share: the light and dark styles and the palette.

Every figure on the site is drawn twice, once under [`style("light")`][mlnotes.plotting.style]
and once under `style("dark")`, by the site's figure builder. Scripts take their line
and marker colours from the style's cycle (`"C0"`, `"C1"`, ...) or from
[`PALETTE`][mlnotes.plotting.PALETTE] (the heatmaps use matplotlib's colormaps), so that both
variants stay readable: the palette is the Okabe–Ito colour-blind safe set
without its black, with orange, sky blue and yellow darkened so that every colour has at
least 3:1 contrast against both backgrounds; the dark theme's cycle uses the original
seven colours.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager
from typing import Iterator

import matplotlib as mpl
from cycler import cycler

__all__ = ["PALETTE", "THEMES", "TEXT", "style"]

PALETTE: tuple[str, ...] = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#B77E00",
    "#CC79A7",
    "#2B8CC4",
    "#948800",
)
"""The light theme's colours: the Okabe–Ito colour-blind safe set (blue, vermillion,
bluish green, orange, reddish purple, sky blue, yellow) with orange, sky blue and
yellow darkened so that every colour has at least 3:1 contrast (WCAG 1.4.11) against
white *and* against Material's slate background `#1e2129`. A script may use them in
either theme."""

TEXT: dict[str, str] = {"light": "#1f2328", "dark": "#e2e4e9"}
"""Text and axis colour per theme, opaque and close to Material's foregrounds: light
`#1f2328` (Material's is black at 87 % opacity, `#212121` on white); dark `#e2e4e9`,
Material's slate foreground `hsl(225, 15%, 90%)` without its 82 % opacity (which gives
`#bfc1c7` on the slate background)."""

THEMES: tuple[str, ...] = ("light", "dark")
"""The two themes the figure builder draws, in this order."""

# The dark theme's cycle: the original Okabe–Ito colours, all at least 3:1 on slate,
# led by the bright sky blue (#0072B2 is only 3.1:1 there).
_DARK_CYCLE = ("#56B4E9", "#D55E00", "#009E73", "#E69F00", "#CC79A7", "#0072B2", "#F0E442")


def _rc(theme: str) -> dict:
    fg = TEXT[theme]
    grid = "#d0d7de" if theme == "light" else "#3d4350"
    colors = PALETTE if theme == "light" else _DARK_CYCLE
    return {
        # deterministic SVG ids and glyphs (same bytes also needs savefig's
        # metadata={"Date": None}, which the figure builder passes)
        "svg.hashsalt": "mlnotes",
        "svg.fonttype": "path",
        "path.simplify": True,
        # transparent background, so the page colour shows through in both themes
        "figure.facecolor": (0, 0, 0, 0),
        "axes.facecolor": (0, 0, 0, 0),
        "savefig.facecolor": (0, 0, 0, 0),
        "savefig.transparent": True,
        "savefig.bbox": "tight",
        "figure.dpi": 100,
        "font.size": 11,
        "axes.titlesize": 12,
        "axes.labelsize": 11,
        "legend.fontsize": 9,
        "legend.frameon": False,
        "text.color": fg,
        "axes.labelcolor": fg,
        "axes.edgecolor": fg,
        "axes.titlecolor": fg,
        "xtick.color": fg,
        "ytick.color": fg,
        "xtick.labelcolor": fg,
        "ytick.labelcolor": fg,
        "grid.color": grid,
        "grid.linewidth": 0.6,
        "axes.grid": False,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": cycler(color=list(colors)),
        "lines.linewidth": 1.8,
        "image.cmap": "viridis",
        "legend.labelcolor": fg,
        "patch.edgecolor": fg,
        "hatch.color": fg,
    }


def style(theme: str = "light") -> AbstractContextManager[None]:
    """Return a context manager that draws figures in the site's `theme`.

    Args:
        theme: `"light"` (Material's default scheme) or `"dark"` (its slate scheme).

    Returns:
        A context manager: figures created inside it use the theme's colours, a
        transparent background, and fixed SVG ids and glyph paths. The SVG file is
        the same bytes for the same figure only if `savefig` is also given
        `metadata={"Date": None}` (otherwise it records the time), as the site's
        figure builder does.

    Raises:
        ValueError: If `theme` is a string other than `"light"` and `"dark"`.
        TypeError: If `theme` is not a string.

    Examples:
        >>> import matplotlib.pyplot as plt
        >>> with style("light"):
        ...     fig, ax = plt.subplots()
        ...     line, = ax.plot([0, 1])
        >>> line.get_color()
        '#0072B2'
        >>> fig.get_facecolor()[3]   # transparent: the page's own background shows through
        0.0
        >>> style("sepia")
        Traceback (most recent call last):
        ...
        ValueError: theme must be 'light' or 'dark', got 'sepia'
        >>> import io
        >>> def svg(**kwargs):
        ...     out = io.BytesIO()
        ...     with style("light"):
        ...         fig.savefig(out, format="svg", **kwargs)
        ...     return out.getvalue()
        >>> svg(metadata={"Date": None}) == svg(metadata={"Date": None})
        True
        >>> b"<dc:date>" in svg()        # without it, the file records the time
        True
        >>> plt.close(fig)
    """
    if not isinstance(theme, str):
        raise TypeError(f"theme must be 'light' or 'dark' (a str), got {theme!r}")
    if theme not in THEMES:
        raise ValueError(f"theme must be 'light' or 'dark', got {theme!r}")
    return _style(theme)


@contextmanager
def _style(theme: str) -> Iterator[None]:
    with mpl.rc_context(_rc(theme)):
        yield
