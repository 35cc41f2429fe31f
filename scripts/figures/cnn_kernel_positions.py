r"""Where a 3-tap kernel lands on a padded input, at stride 1 and at stride 2.

The input has $n = 7$ cells and one cell of zero padding at each end (hatched). Each
bar is one position of a kernel of size $k = 3$, and the cell under its centre is the
output it computes. At stride 1 the kernel visits every position and the output keeps
the input's length, 7; at stride 2 it skips every other position and the output has
$\lfloor (7 + 2 - 3)/2 \rfloor + 1 = 4$ cells. Each bar reads 3 cells whatever the
stride: the stride decides how many positions are visited, not how much each one
sees. Positions and sizes come from `mlnotes.cnn.kernel_positions` and
`mlnotes.cnn.conv_output_size`.
"""

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch, Rectangle

from mlnotes.cnn import conv_output_size, kernel_positions

N, KERNEL, PADDING = 7, 3, 1
STRIDES = (1, 2)
ROW = 0.8  # height of one row of the diagram, in cells

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Two diagrams of a row of 7 input cells with one hatched padding cell at each end. Above, at "
    "stride 1, seven bars of 3 cells each, shifted by one cell at a time, and 7 output cells, one "
    "under the centre of each bar. Below, at stride 2, four bars shifted by two cells at a time, "
    "and 4 output cells."
)


def make_figure():
    # one row per kernel position: the panels' heights follow their numbers of rows
    rows = [conv_output_size(N, KERNEL, stride=s, padding=PADDING) for s in STRIDES]
    fig, axes = plt.subplots(
        len(STRIDES),
        1,
        figsize=(7.5, 7),
        gridspec_kw={"height_ratios": [4.0 + ROW * r for r in rows]},
    )
    edge = plt.rcParams["axes.edgecolor"]
    cell = dict(edgecolor=edge, linewidth=0.8)

    for ax, stride in zip(axes, STRIDES):
        positions = kernel_positions(N, KERNEL, stride=stride, padding=PADDING)
        out = conv_output_size(N, KERNEL, stride=stride, padding=PADDING)
        y_out = -1.8 - ROW * out  # bottom of the output row

        # the padded input, one cell per index -PADDING .. N - 1 + PADDING
        for i in range(-PADDING, N + PADDING):
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
                    KERNEL - 0.16,
                    0.5,
                    boxstyle="round,pad=0,rounding_size=0.15",
                    facecolor=color,
                    alpha=0.55,
                    edgecolor=color,
                )
            )
            centre = window[KERNEL // 2]
            ax.plot(
                [centre + 0.5] * 2, [y + 0.12, y_out + 1], color=color, linewidth=0.8, linestyle=":"
            )
            ax.add_patch(Rectangle((centre, y_out), 1, 1, facecolor=color, alpha=0.55, **cell))
            ax.text(centre + 0.5, y_out + 0.5, f"$y_{row}$", ha="center", va="center")

        right = N + PADDING + 0.4
        ax.text(right, 0.5, f"input: $n = {N}$, padding $p = {PADDING}$", va="center")
        ax.text(right, y_out + 0.5, f"output: {out} cells", va="center")
        ax.set_title(
            f"stride $s = {stride}$: {out} positions of a $k = {KERNEL}$ kernel", loc="left"
        )
        ax.set(xlim=(-PADDING - 0.3, right + 5.1), ylim=(y_out - 0.2, 2.0), aspect="equal")
        ax.axis("off")
    return fig


if __name__ == "__main__":
    make_figure().savefig("cnn_kernel_positions.png")
