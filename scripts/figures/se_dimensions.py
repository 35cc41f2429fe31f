"""Each dimension of the sinusoidal embeddings over 100 positions (d = 4).

Figure 1 of the post: the four columns of the table SE(pos) for d = 4, computed by
`mlnotes.embeddings.sinusoidal_embeddings`. Dimensions 0 and 1 are sin and cos of
pos·ω₀ with ω₀ = 1 (period 2π ≈ 6.3 positions: sampled at integer positions, the curves
look jagged); dimensions 2 and 3 use ω₁ = 10000^(-2/4) = 0.01 (period 200π ≈ 628
positions, longer than the plot). As a function of a real position each dimension is
periodic, with period 2π/ω_i = 2π·10000^(2i/d), growing exponentially with the index i;
on the integer positions plotted no value repeats exactly (the post's section 2.1). The
post's Listing 2 draws the same columns in one line style under the title "SE(pos, 2i)";
here the cosines are dashed and the legend names each column's function and frequency.
"""

import matplotlib.pyplot as plt
import torch

from mlnotes.embeddings import frequencies, sinusoidal_embeddings

MAX_POS, EMBED_DIM = 100, 4

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Line plot of the four dimensions of SE over positions 0 to 99 for d = 4: dimensions 0 and 1, "
    "sine and cosine with frequency 1, oscillate between −1 and 1 about every 6.3 positions; "
    "dimensions 2 and 3, sine and cosine with frequency 0.01, change slowly, the sine rising from "
    "0 to 0.84 and the cosine falling from 1 to 0.55."
)


def make_figure():
    table = sinusoidal_embeddings(MAX_POS, EMBED_DIM)  # (100, 4)
    omega = frequencies(EMBED_DIM)  # [1, 0.01]
    pos = torch.arange(MAX_POS)

    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    for j in range(EMBED_DIM):
        i, fn = j // 2, ("sin", "cos")[j % 2]
        ax.plot(
            pos,
            table[:, j],
            color=f"C{j}",
            linestyle="-" if fn == "sin" else "--",
            label=f"dim {j}: {fn}(pos · ω$_{i}$), ω$_{i}$ = {omega[i].item():g}",
        )
    ax.set(xlabel="position pos", ylabel="SE(pos, j)", xlim=(0, MAX_POS - 1), ylim=(-1.1, 1.1))
    ax.grid(True)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.01), ncols=2, borderaxespad=0)
    return fig


if __name__ == "__main__":
    make_figure().savefig("se_dimensions.png", bbox_inches="tight")
