"""Euclidean distances between the sinusoidal embeddings of 1000 positions (d = 1000).

Figure 3 of the post: ‖SE(pos₁) − SE(pos₂)‖₂ for every pair of positions, from
`mlnotes.embeddings.pairwise_distances`, which needs O(n² + n·d) memory instead of the
4 GB (n, n, d) tensor of the post's Listing 4. The distance is 0 on the diagonal and
larger away from it, though not monotonically (Figure 4); it depends on the offset
|pos₂ − pos₁| only, so it is the same along every line parallel to the diagonal (in the
float32 table drawn here, to within 10⁻⁴). The colour scale is viridis from 0 to √d, where
the post's Listing 4 uses PuRd over the table's own range.
"""

import math

import matplotlib.pyplot as plt

from mlnotes.embeddings import pairwise_distances, sinusoidal_embeddings

MAX_POS, EMBED_DIM = 1000, 1000

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Heatmap of the Euclidean distance between the embeddings of positions 0 to 999 (both axes), d "
    "= 1000, on a scale from 0 (dark purple) to 31.6 (yellow): a dark line along the diagonal "
    "where the distance is 0, turning to green and then yellow-green away from it; the colour is "
    "constant along every line parallel to the diagonal."
)


def make_figure():
    table = sinusoidal_embeddings(MAX_POS, EMBED_DIM)  # (1000, 1000)
    distances = pairwise_distances(table).numpy()  # (1000, 1000)

    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    image = ax.imshow(
        distances,
        cmap="viridis",
        vmin=0,
        vmax=math.sqrt(EMBED_DIM),
        origin="upper",
        interpolation="antialiased",
    )
    fig.colorbar(image, ax=ax, label="‖SE(pos₁) − SE(pos₂)‖₂   (max shown: √d ≈ 31.6)")
    ax.set(xlabel="pos₂", ylabel="pos₁", title=f"Distances between embeddings, d = {EMBED_DIM}")
    return fig


if __name__ == "__main__":
    make_figure().savefig("se_distance_heatmap.png", bbox_inches="tight")
