"""The sinusoidal embeddings of 100 positions in 128 dimensions, as a heatmap.

Figure 2 of the post: the table SE(pos) from `mlnotes.embeddings.sinusoidal_embeddings`,
one row per position and one column per dimension j (column 2i is sin(pos·ω_i), column
2i + 1 is cos(pos·ω_i)). The frequencies ω_i = 10000^(-2i/d) decay exponentially with i:
from each position to the next, at least one of columns 0 to 3 changes by more than 0.5,
while each of columns 90 to 127 changes by less than 0.2 over the 100 positions (the
sines stay below 0.16, the cosines above 0.98). A diverging colormap centred on 0 shows
the sign: RdBu_r, +1 red and -1 blue, where the post's Listing 3 uses RdBu (+1 blue) with
no fixed range and labels the columns "2i".
"""

import matplotlib.pyplot as plt

from mlnotes.embeddings import sinusoidal_embeddings

MAX_POS, EMBED_DIM = 100, 128

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Heatmap of SE for positions 0 to 99 (rows, top to bottom) and dimensions 0 to 127 (columns), "
    "dark red for +1, white for 0 and dark blue for −1: in the first columns the colour changes "
    "every few rows, a fine checkered pattern; to the right the colour bands widen and bend; from "
    "about column 90 on each column is nearly constant, the columns alternating dark red (cosines, "
    "near 1) and white to pale pink (sines, near 0)."
)


def make_figure():
    table = sinusoidal_embeddings(MAX_POS, EMBED_DIM).numpy()  # (100, 128)

    fig, ax = plt.subplots(figsize=(8, 4))
    image = ax.imshow(table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1, interpolation="nearest")
    fig.colorbar(image, ax=ax, label="SE(pos, j)")
    ax.set(
        xlabel="dimension j  (even: sin, odd: cos)",
        ylabel="position pos",
        title=f"SE(pos) for {MAX_POS} positions, d = {EMBED_DIM}",
    )
    return fig


if __name__ == "__main__":
    make_figure().savefig("se_heatmap.png", bbox_inches="tight")
