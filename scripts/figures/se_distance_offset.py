"""The distance between two sinusoidal embeddings as a function of their offset k.

Figure 4 of the post (added on this site). ‖SE(t + k) − SE(t)‖₂ = 2·sqrt(Σ_i sin²(ω_i·k/2))
does not depend on t: `mlnotes.embeddings.distance_at_offset` computes it in closed form
(the line), and the markers are entries of the distance table of Figure 3
(`pairwise_distances`) read along two rows, t = 0 and t = 500, at k = 0, 25, ..., 475.
The distance is 0 at k = 0 and grows with |k|, quickly at first and then slowly and not
monotonically (it first decreases from k = 68 to k = 69), towards √d (below it for these
offsets, at most 28.95; for offsets of many thousands it oscillates around √d): it
neither decreases with |k| nor grows linearly.
"""

import math

import matplotlib.pyplot as plt
import torch

from mlnotes.embeddings import distance_at_offset, pairwise_distances, sinusoidal_embeddings

MAX_POS, EMBED_DIM = 1000, 1000

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Line plot of the distance between SE(t + k) and SE(t) against the offset k from 0 to 999, d = "
    "1000: it rises steeply from 0 to about 20 by k = 25, then slowly and with small wiggles to "
    "between 28 and 29 near k = 999, below a dashed line at the square root of d, 31.6; circles "
    "for row t = 0 and crosses for row t = 500 of the distance table, every 25 offsets up to 475, "
    "lie on the curve."
)


def make_figure():
    k = torch.arange(MAX_POS)
    closed_form = distance_at_offset(k, EMBED_DIM)  # (1000,)
    table = pairwise_distances(sinusoidal_embeddings(MAX_POS, EMBED_DIM))
    ks = torch.arange(0, 500, 25)

    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    ax.plot(k, closed_form, color="C0", linewidth=1.2, label="distance_at_offset(k, d)")
    ax.plot(ks, table[0, ks], "o", color="C1", markersize=5, label="table row t = 0")
    ax.plot(
        ks, table[500, 500 + ks], "x", color="C2", markersize=6, mew=1.6, label="table row t = 500"
    )
    ax.axhline(math.sqrt(EMBED_DIM), color="C3", linestyle="--", linewidth=1.2, label="√d ≈ 31.6")
    ax.set(
        xlabel="offset k = pos₂ − pos₁",
        ylabel="‖SE(t + k) − SE(t)‖₂",
        xlim=(0, MAX_POS - 1),
        ylim=(0, 34),
        title=f"Distance against offset, d = {EMBED_DIM}: the same for every t",
    )
    ax.grid(True)
    ax.legend(loc="lower right")
    return fig


if __name__ == "__main__":
    make_figure().savefig("se_distance_offset.png", bbox_inches="tight")
