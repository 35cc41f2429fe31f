r"""Receptive field of a stack of 3-tap convolutions, for strides 1, 2 and 3.

The length of the region of input cells one output of layer $L$ depends on
(`mlnotes.cnn.receptive_field`), when every layer has a kernel of size 3 and the same
stride $s$; with $s \le 3$ the region has no gaps, so this is also the number of cells.
At stride 1 it grows by 2 cells per layer; with stride $s > 1$ each layer multiplies the
growth of all the layers after it by $s$, so it grows geometrically.
A larger stride makes the features of later layers *less* localized, not more.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.cnn import receptive_field

KERNEL = 3

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "A line chart with a logarithmic vertical axis: the receptive field of a stack of 1 to 6 "
    "convolutions of size 3, for strides 1, 2 and 3 in every layer. At stride 1 it grows by 2 per "
    "layer, to 13 cells; at stride 2 it reaches 127 cells and at stride 3 it reaches 729 cells "
    "after 6 layers."
)


def make_figure():
    depths = np.arange(1, 7)
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    for i, s in enumerate((1, 2, 3)):
        fields = [receptive_field([KERNEL] * L, strides=[s] * L) for L in depths]
        ax.plot(depths, fields, marker="o", color=f"C{i}", label=f"stride $s = {s}$")
        ax.annotate(
            f"{fields[-1]}",
            (depths[-1], fields[-1]),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            color=f"C{i}",
        )
    ax.set(
        yscale="log",
        xlabel="layers $L$",
        ylabel="receptive field (input cells)",
        title=f"Receptive field of $L$ stacked $k = {KERNEL}$ convolutions",
    )
    ax.set_yticks([3, 10, 30, 100, 300, 1000], labels=["3", "10", "30", "100", "300", "1000"])
    ax.grid(True, which="major")
    ax.legend()
    return fig


if __name__ == "__main__":
    make_figure().savefig("cnn_receptive_field.png")
