r"""The standard normal's symmetric quantiles.

The density of $X \sim \mathcal{N}(0, 1)$ with its two tails shaded, each of mass
$\alpha/2$: the left boundary is $\mathrm{PPF}(\alpha/2)$, the right one follows by
symmetry, $\mathrm{PPF}(1 - \alpha/2) = -\mathrm{PPF}(\alpha/2)$, and the mass
$1 - \alpha$ between them is the central interval. The notes' $\alpha = 0.05$ gives
$\mathrm{PPF}(0.025) \approx -1.96$ and 95% in between; the reader can move $\alpha$.
The density, the quantiles and the interval come from `mlnotes.probability`.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.probability import central_interval, normal_cdf, normal_pdf, normal_ppf

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "The standard normal density with the area left of -1.96 shaded vermillion (the notes' red) "
    "and the area right of 1.96 shaded blue, each 2.5% of the total, and the 95% between them"
)


#: The reader's control: the mass of both tails, on the author's grid (0.05 is the notes').
EXPLORE = {
    "alpha": {
        "label": "α, the mass of both tails",
        "unit": "",
        "grid": (0.01, 0.02, 0.05, 0.1, 0.2, 0.32),
        "format": "{:g}",
    },
}


def percent(p):
    """`p` as a percentage for a title: 0.025 -> "2.5%"."""
    return f"{100 * p:.3g}%"


def make_figure(alpha=0.05):
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
        # the label beside its dashed line, on the outer side, clear of the curve and the edge
        label, x_text = rf"PPF$({q:.3f}) = {value:.2f}$", 1.55 * abs(value)
        if abs(value) < 1.9:  # close in: further out, where the curve is low
            x_text = min(abs(value) + 1.6, 3.0)
        elif abs(value) > 2.1:  # far out: on two lines, narrow enough to fit before the edge
            label, x_text = rf"PPF$({q:.3f})$" + "\n" + rf"$= {value:.2f}$", 3.3
        ax.annotate(
            label,
            xy=(value, normal_pdf(value)),
            xytext=(np.copysign(x_text, value), 0.16),
            ha="center",
            color=color,
            arrowprops=dict(arrowstyle="->", color=color),
        )

    ax.set(
        xlabel="$x$",
        ylabel="density $p(x)$",
        xlim=(-4, 4),
        ylim=(0, 0.43),
        title=f"Standard normal: {percent(alpha / 2)} in each tail, {percent(1 - alpha)} in between",
    )
    ax.legend(loc="upper left")
    return fig


def caption_values(alpha=0.05):
    """The caption's values at `alpha`: the two quantiles and the mass between them."""
    lo, hi = central_interval(1 - alpha)
    lo_text = f"{lo:.3f}".replace("-", "−")  # a minus sign, not a hyphen
    return (
        f"α = {alpha:g}: PPF({alpha / 2:g}) = {lo_text} and PPF({1 - alpha / 2:g}) = {hi:.3f}; "
        f"{percent(1 - alpha)} of the mass lies between them, {percent(alpha / 2)} in each tail."
    )


if __name__ == "__main__":
    make_figure().savefig("probability_normal_quantiles.png")
