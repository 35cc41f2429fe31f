"""Rounding error of sinusoidal embeddings computed in float32, against the position.

Figure 1 of the companion page "Sinusoidal embeddings in practice". The post's Listing 1
computes the frequencies, the angles pos·ω_i and their sines and cosines in float32.
`mlnotes.embeddings.rounding_error` measures the largest error of such a row against the
float64 table, for d = 128 and d = 512. Below position 2²⁴ the float32 angle carries a
relative error of less than 9.25·2⁻²⁴ (d = 128) and 10.5·2⁻²⁴ (d = 512): the float32 ω_i
is off by up to 8.24·2⁻²⁴ and 9.49·2⁻²⁴, at low frequencies (i = 62 of 64, i = 230 of
256), where the exponent 2i·ln(10000)/d and its rounding error are large, and the product
rounds once more. At the 112 positions plotted, the largest error in a row grows about
linearly with the position and stays between 0.3 and 1.3 times pos·2⁻²⁴ (the dashed
guide). From 2²⁴ = 16 777 216 on, consecutive positions are not all distinct float32
numbers (2²⁴ + 1 rounds to 2²⁴).
"""

import matplotlib.pyplot as plt
import torch

from mlnotes.embeddings import rounding_error

EMBED_DIMS = (128, 512)

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Log-log plot of the largest rounding error in a row of a float32 sinusoidal embedding table "
    "against the position, from 1 to 10 million, for d = 128 and d = 512: both curves rise along a "
    "straight line, with jitter, from about 5e-8 at position 1 to between 0.2 and 0.7 near 10 "
    "million, close to a dashed guide line pos times 2 to the power −24."
)


def make_figure():
    positions = torch.logspace(0, 7, 120).round().unique()  # 1 ... 10 million

    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    for n, d in enumerate(EMBED_DIMS):
        ax.loglog(
            positions,
            rounding_error(positions, d),
            color=f"C{n}",
            linewidth=1.4,
            label=f"float32 table, d = {d}",
        )
    ax.loglog(
        positions,
        positions * 2.0**-24,
        color="C3",
        linestyle="--",
        linewidth=1.2,
        label="pos · 2⁻²⁴",
    )
    ax.set(
        xlabel="position pos",
        ylabel="max |SE₃₂ − SE₆₄| in the row",
        title="Rounding error of SE computed in float32",
    )
    ax.grid(True, which="major")
    ax.legend(loc="upper left")
    return fig


if __name__ == "__main__":
    make_figure().savefig("se_float32_error.png", bbox_inches="tight")
