r"""Where a 3-tap kernel lands on a padded input, at stride 1 and at stride 2.

The input has $n = 7$ cells and one cell of zero padding at each end (hatched). Each
bar is one position of a kernel of size $k = 3$, and the cell under its centre is the
output it computes. At stride 1 the kernel visits every position and the output keeps
the input's length, 7; at stride 2 it skips every other position and the output has
$\lfloor (7 + 2 - 3)/2 \rfloor + 1 = 4$ cells. Each bar reads 3 cells whatever the
stride: the stride decides how many positions are visited, not how much each one
sees. The reader can change the kernel size and the padding: at stride 1 the output has
$n + 2p - k + 1$ cells, the input's length only when $p = (k - 1)/2$; every point keeps the
layout of $k = 3$, $p = 1$, so that the frames line up. Positions and sizes come from
`mlnotes.cnn.kernel_positions` and `mlnotes.cnn.conv_output_size`.
"""

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch, Rectangle

from mlnotes.cnn import conv_output_size, kernel_positions

N = 7
STRIDES = (1, 2)
ROW = 0.8  # height of one row of the diagram, in cells
# the layout of the text's figure (k = 3, p = 1), kept at every point: rows per panel, the
# leftmost cell and where the notes on the right start
ROWS = [conv_output_size(N, 3, stride=s, padding=1) for s in STRIDES]  # 7 and 4
LEFT, RIGHT = -1, N + 1 + 0.4

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Two diagrams of a row of 7 input cells with one hatched padding cell at each end. Above, at "
    "stride 1, seven bars of 3 cells each, shifted by one cell at a time, and 7 output cells, one "
    "under the centre of each bar. Below, at stride 2, four bars shifted by two cells at a time, "
    "and 4 output cells."
)


#: The reader's controls: the kernel size and the padding (3 and 1: the figure of the text).
EXPLORE = {
    "kernel": {"label": "k, the kernel size (cells)", "unit": "", "grid": (3, 5, 7)},
    "padding": {"label": "p, the zero cells at each end", "unit": "", "grid": (0, 1)},
}


def make_figure(kernel=3, padding=1):
    # one row per kernel position: the panels' heights follow the layout's numbers of rows
    fig, axes = plt.subplots(
        len(STRIDES),
        1,
        figsize=(7.5, 7),
        gridspec_kw={"height_ratios": [4.0 + ROW * r for r in ROWS]},
    )
    edge = plt.rcParams["axes.edgecolor"]
    cell = dict(edgecolor=edge, linewidth=0.8)

    for ax, stride, rows in zip(axes, STRIDES, ROWS):
        positions = kernel_positions(N, kernel, stride=stride, padding=padding)
        out = conv_output_size(N, kernel, stride=stride, padding=padding)
        assert out <= rows, "more kernel positions than the layout has rows"
        y_out = -1.8 - ROW * rows  # bottom of the output row

        # the padded input, one cell per index -padding .. N - 1 + padding
        for i in range(-padding, N + padding):
            if i < 0 or i >= N:
                ax.add_patch(Rectangle((i, 0), 1, 1, facecolor="none", hatch="///", **cell))
                ax.text(i + 0.5, 1.25, "0", ha="center", va="bottom")
            else:
                ax.add_patch(Rectangle((i, 0), 1, 1, facecolor="C0", alpha=0.3))
                ax.add_patch(Rectangle((i, 0), 1, 1, facecolor="none", **cell))
                ax.text(i + 0.5, 1.25, f"$x_{i}$", ha="center", va="bottom")

        # one bar per kernel position, and its output under the window's centre
        for row, window in enumerate(positions):
            y = -1.0 - ROW * row
            color = f"C{1 + row % 5}"
            ax.add_patch(
                FancyBboxPatch(
                    (window[0] + 0.08, y + 0.12),
                    kernel - 0.16,
                    0.5,
                    boxstyle="round,pad=0,rounding_size=0.15",
                    facecolor=color,
                    alpha=0.55,
                    edgecolor=color,
                )
            )
            centre = window[kernel // 2]
            ax.plot(
                [centre + 0.5] * 2, [y + 0.12, y_out + 1], color=color, linewidth=0.8, linestyle=":"
            )
            ax.add_patch(Rectangle((centre, y_out), 1, 1, facecolor=color, alpha=0.55, **cell))
            ax.text(centre + 0.5, y_out + 0.5, f"$y_{row}$", ha="center", va="center")

        plural = "s" if out > 1 else ""
        ax.text(RIGHT, 0.5, f"input: $n = {N}$, padding $p = {padding}$", va="center")
        ax.text(RIGHT, y_out + 0.5, f"output: {out} cell{plural}", va="center")
        ax.set_title(
            f"stride $s = {stride}$: {out} position{plural} of a $k = {kernel}$ kernel", loc="left"
        )
        ax.set(xlim=(LEFT - 0.3, RIGHT + 5.1), ylim=(y_out - 0.2, 2.0), aspect="equal")
        ax.axis("off")
    return fig


def caption_values(kernel=3, padding=1):
    """The caption's values at `kernel` and `padding`: the output sizes at strides 1 and 2."""
    one, two = (conv_output_size(N, kernel, stride=s, padding=padding) for s in STRIDES)
    same = (
        "the input's length"
        if one == N
        else f"{'more' if one > N else 'fewer'} than the {N} inputs"
    )
    return (
        f"k = {kernel}, p = {padding}: {one} output{'s' if one != 1 else ''} at stride 1 ({same}) "
        f"and {two} at stride 2; "
        f"each position reads {kernel} cell{'s' if kernel > 1 else ''}."
    )


if __name__ == "__main__":
    make_figure().savefig("cnn_kernel_positions.png")
