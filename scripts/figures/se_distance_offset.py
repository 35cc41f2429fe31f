"""The distance between two sinusoidal embeddings as a function of their offset k.

The post's last figure, added on this site, at d = 1000 (the reader can change d).
‖SE(t + k) − SE(t)‖₂ = 2·sqrt(Σ_i sin²(ω_i·k/2)) does not depend on t:
`mlnotes.embeddings.distance_at_offset` computes it in closed form (the line), and the
markers are entries of the distance table (`pairwise_distances`; at d = 1000, the table of
the post's distance heatmap) read along two rows, t = 0 and t = 500, at k = 0, 25, ..., 475.
At d = 1000 the distance is 0 at k = 0 and grows with |k|, quickly at first and then slowly
and not monotonically (it first decreases from k = 68 to k = 69), towards √d (below it
for these offsets, the largest 28.95, at k = 994; for offsets of many thousands it oscillates around √d):
it neither decreases with |k| nor grows linearly. The y axis spans the same multiple of
√d at every d (or of the largest distance, where that is above √d).
"""

import math

import matplotlib.pyplot as plt
import torch

from mlnotes.embeddings import distance_at_offset, pairwise_distances, sinusoidal_embeddings

MAX_POS = 1000

#: The reader's control: the embedding dimension (1000: the figure of the text).
EXPLORE = {
    "embed_dim": {
        "label": "d, the embedding dimension",
        "unit": "",
        "grid": (16, 32, 64, 128, 256, 512, 1000),
        "format": "{:d}",
    },
}

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Line plot of the distance between SE(t + k) and SE(t) against the offset k from 0 to 999, d = "
    "1000: it rises steeply from 0 to about 20 by k = 25, then slowly and with small wiggles to "
    "between 28 and 29 near k = 999, below a dashed line at the square root of d, 31.6; circles "
    "for row t = 0 and crosses for row t = 500 of the distance table, every 25 offsets up to 475, "
    "lie on the curve."
)


def make_figure(embed_dim=1000):
    k = torch.arange(MAX_POS)
    closed_form = distance_at_offset(k, embed_dim)  # (1000,)
    table = pairwise_distances(sinusoidal_embeddings(MAX_POS, embed_dim))
    root = math.sqrt(embed_dim)
    # the same multiple of √d at every d (34 at d = 1000), or of the largest distance
    top = 34 * max(1.0, float(closed_form.max()) / root) * math.sqrt(embed_dim / 1000)
    ks = torch.arange(0, 500, 25)

    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    ax.plot(k, closed_form, color="C0", linewidth=1.2, label="distance_at_offset(k, d)")
    ax.plot(ks, table[0, ks], "o", color="C1", markersize=5, label="table row t = 0")
    ax.plot(
        ks, table[500, 500 + ks], "x", color="C2", markersize=6, mew=1.6, label="table row t = 500"
    )
    ax.axhline(root, color="C3", linestyle="--", linewidth=1.2, label=f"√d ≈ {root:.1f}")
    ax.set(
        xlabel="offset k = pos₂ − pos₁",
        ylabel="‖SE(t + k) − SE(t)‖₂",
        xlim=(0, MAX_POS - 1),
        ylim=(0, top),
        title=f"Distance against offset, d = {embed_dim}: the same for every t",
    )
    ax.grid(True)
    ax.legend(loc="lower right")
    return fig


def caption_values(embed_dim=1000):
    """The caption's values at `embed_dim`: the largest distance and the first decrease."""
    dist = distance_at_offset(torch.arange(MAX_POS), embed_dim)
    root = math.sqrt(embed_dim)
    largest, at = dist.max().item(), int(dist.argmax())
    first_decrease = int((dist[1:] < dist[:-1]).nonzero()[0])
    side = "below" if largest < root else "above"
    return (
        f"d = {embed_dim}: over the offsets 0 to {MAX_POS - 1} the largest distance is "
        f"{largest:.2f} (at k = {at}), {side} √d ≈ {root:.2f}; it first decreases from "
        f"k = {first_decrease} to k = {first_decrease + 1}."
    )


if __name__ == "__main__":
    make_figure().savefig("se_distance_offset.png", bbox_inches="tight")
