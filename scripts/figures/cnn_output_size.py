r"""Output size of a convolution as a function of stride and padding.

For an input of $n = 16$ cells and a kernel of size $k = 3$, the output size
$\lfloor (n + 2p - k)/s \rfloor + 1$ (`mlnotes.cnn.conv_output_size`) against the
padding $p$ for strides 1 to 4 (left) and against the stride $s$ for paddings 0 to 2
(right). It never grows with the stride and never shrinks with the padding. Each
extra cell of padding adds two output cells at stride 1 and one at stride 2; from
stride 3 on it adds one for every $s/2$ cells on average, so one more cell of padding
can leave the size unchanged (the flat steps on the left).
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.cnn import conv_output_size

N, KERNEL = 16, 3

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Two line charts of the output size of a convolution of a 16-cell input with a kernel of size "
    "3. Left, against the padding from 0 to 6, for strides 1 to 4: at stride 1 the size grows by 2 "
    "per unit of padding, at stride 2 by 1, at strides 3 and 4 more slowly and with flat steps. "
    "Right, against the stride from 1 to 8, for paddings 0 to 2: the size falls roughly as 1 over "
    "the stride."
)


def make_figure():
    paddings = np.arange(0, 7)
    strides = np.arange(1, 9)

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), sharey=True, layout="constrained")
    for i, s in enumerate((1, 2, 3, 4)):
        sizes = [conv_output_size(N, KERNEL, stride=s, padding=int(p)) for p in paddings]
        left.plot(paddings, sizes, marker="o", color=f"C{i}", label=f"stride $s = {s}$")
    left.set(
        xlabel="padding $p$ (cells on each side)",
        ylabel="output size",
        title=f"against padding ($n = {N}$, $k = {KERNEL}$)",
    )
    left.legend()

    for i, p in enumerate((0, 1, 2)):
        sizes = [conv_output_size(N, KERNEL, stride=int(s), padding=p) for s in strides]
        right.plot(strides, sizes, marker="o", color=f"C{i}", label=f"padding $p = {p}$")
    right.set(xlabel="stride $s$", title=f"against stride ($n = {N}$, $k = {KERNEL}$)")
    right.legend()

    for ax in (left, right):
        ax.grid(True)
        ax.set_ylim(bottom=0)
        ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
    return fig


if __name__ == "__main__":
    make_figure().savefig("cnn_output_size.png")
