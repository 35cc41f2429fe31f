r"""The standard normal's symmetric quantiles.

The density of $X \sim \mathcal{N}(0, 1)$ with the two 2.5% tails shaded: the left
boundary is $\mathrm{PPF}(0.025) \approx -1.96$, the right one follows by symmetry,
$\mathrm{PPF}(0.975) = -\mathrm{PPF}(0.025) \approx 1.96$, and the 95% of the mass
between them is the central interval. The density, the quantiles and the interval
come from `mlnotes.probability`.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.probability import central_interval, normal_cdf, normal_pdf, normal_ppf

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "The standard normal density with the area left of -1.96 shaded vermillion (the notes' red) "
    "and the area right of 1.96 shaded blue, each 2.5% of the total, and the 95% between them"
)


def make_figure():
    alpha = 0.05
    x = np.linspace(-4, 4, 801)
    density = normal_pdf(x)
    lo = normal_ppf(alpha / 2)  # -1.96: the "red value" of the notes
    hi = normal_ppf(1 - alpha / 2)  # +1.96: the "blue value", by symmetry
    assert np.allclose((lo, hi), central_interval(1 - alpha))

    fig, ax = plt.subplots(figsize=(7, 3.6))
    ink = plt.rcParams["axes.edgecolor"]  # the theme's text colour
    ax.plot(x, density, color=ink, label=r"$p(x) = \mathcal{N}(x; 0, 1)$")
    left, right = x <= lo, x >= hi
    ax.fill_between(
        x[left],
        density[left],
        color="C1",
        alpha=0.45,
        linewidth=0,
        label=rf"$P(X \leq {lo:.2f}) = {normal_cdf(lo):.3f}$",
    )
    ax.fill_between(
        x[right],
        density[right],
        color="C0",
        alpha=0.45,
        linewidth=0,
        label=rf"$P(X \geq {hi:.2f}) = {1 - normal_cdf(hi):.3f}$",
    )
    ax.fill_between(
        x[~left & ~right],
        density[~left & ~right],
        color="C2",
        alpha=0.12,
        linewidth=0,
        label=rf"$P({lo:.2f} < X < {hi:.2f}) = {1 - alpha:.2f}$",
    )

    for q, value, color in ((alpha / 2, lo, "C1"), (1 - alpha / 2, hi, "C0")):
        ax.axvline(value, color=color, linestyle="--", linewidth=1.2)
        ax.plot([value], [0], "o", color=color, clip_on=False, zorder=3)
        ax.annotate(
            rf"PPF$({q:.3f}) = {value:.2f}$",
            xy=(value, normal_pdf(value)),
            xytext=(1.55 * value, 0.16),
            ha="center",
            color=color,
            arrowprops=dict(arrowstyle="->", color=color),
        )

    ax.set(
        xlabel="$x$",
        ylabel="density $p(x)$",
        xlim=(-4, 4),
        ylim=(0, 0.43),
        title="Standard normal: 2.5% in each tail, 95% in between",
    )
    ax.legend(loc="upper left")
    return fig


if __name__ == "__main__":
    make_figure().savefig("probability_normal_quantiles.png")
