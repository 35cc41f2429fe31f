r"""The pmfs of the four discrete distributions of the notes.

Bernoulli $\mathrm{Ber}(\theta)$, binomial $\mathrm{Bin}(N, \theta)$, Poisson
$\mathrm{Poi}(\lambda)$ and geometric $\mathrm{Geo}(\theta)$, each for three parameter
values, drawn as stems at the integers of the support. The pmfs come from
`mlnotes.distributions`, which computes the Bernoulli's from its formula and the others
with `scipy.stats` (the page's Checks compare those three with the formulas written
out); the dotted line in each panel marks the mean of the distribution drawn in the
same colour (from the `*_mean_var` functions).
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.distributions import (
    bernoulli_mean_var,
    bernoulli_pmf,
    binomial_mean_var,
    binomial_pmf,
    geometric_mean_var,
    geometric_pmf,
    poisson_mean_var,
    poisson_pmf,
)

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Four panels of stem plots: Bernoulli with theta 0.2, 0.5 and 0.8; binomial with N = 10 and "
    "the same thetas; Poisson with lambda 1, 4 and 10; geometric with theta 0.2, 0.5 and 0.8; a "
    "dotted vertical line marks each mean"
)


def stems(ax, y, pmf, offset, color, label):
    """Draw a pmf as stems shifted by `offset` so that three pmfs can share an axis."""
    ax.vlines(y + offset, 0, pmf, color=color, linewidth=2.2)
    ax.plot(y + offset, pmf, "o", color=color, markersize=4, label=label)


def make_figure():
    panels = [
        (
            "Bernoulli: $p(y) = \\theta^y (1-\\theta)^{1-y}$",
            np.arange(0, 2),
            [
                (bernoulli_pmf, bernoulli_mean_var, (theta,), rf"$\theta = {theta}$")
                for theta in (0.2, 0.5, 0.8)
            ],
        ),
        (
            "Binomial, $N = 10$: $p(y) = \\binom{N}{y}\\theta^y(1-\\theta)^{N-y}$",
            np.arange(0, 11),
            [
                (
                    lambda y, t: binomial_pmf(y, 10, t),
                    lambda t: binomial_mean_var(10, t),
                    (theta,),
                    rf"$\theta = {theta}$",
                )
                for theta in (0.2, 0.5, 0.8)
            ],
        ),
        (
            "Poisson: $p(y) = \\lambda^y e^{-\\lambda} / y!$",
            np.arange(0, 19),
            [
                (poisson_pmf, poisson_mean_var, (lam,), rf"$\lambda = {lam:g}$")
                for lam in (1.0, 4.0, 10.0)
            ],
        ),
        (
            "Geometric: $p(y) = (1-\\theta)^{y-1}\\theta$",
            np.arange(1, 13),
            [
                (geometric_pmf, geometric_mean_var, (theta,), rf"$\theta = {theta}$")
                for theta in (0.2, 0.5, 0.8)
            ],
        ),
    ]
    fig, axes = plt.subplots(2, 2, figsize=(9, 6.4), layout="constrained")
    for ax, (title, y, curves) in zip(axes.flat, panels):
        width = 0.22 if len(y) > 2 else 0.12
        top = 0.0
        for i, (pmf, mean_var, params, label) in enumerate(curves):
            color = f"C{i}"
            probabilities = pmf(y, *params)
            top = max(top, probabilities.max())
            stems(ax, y, probabilities, (i - 1) * width, color, label)
            mean, _ = mean_var(*params)
            ax.axvline(mean, color=color, linestyle=":", linewidth=1.2)
        ax.set(title=title, xlabel="$y$", ylabel="$p(Y = y)$", xticks=y if len(y) <= 13 else y[::2])
        ax.set_ylim(0, 1.35 * top)  # head room for the legend
        ax.legend(loc="upper right", ncols=3, columnspacing=1.0, handletextpad=0.2)
    fig.suptitle("Discrete pmfs (dotted lines: the means)")
    return fig


if __name__ == "__main__":
    make_figure().savefig("probability_discrete_pmfs.png")
