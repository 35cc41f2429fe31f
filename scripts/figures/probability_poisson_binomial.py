r"""The Poisson distribution approximates $\mathrm{Bin}(N, \lambda/N)$ as $N$ grows.

Left: the pmf of $\mathrm{Bin}(N, \theta = \lambda/N)$ for the values of $N$ up to the
one chosen (the notes' figure: 4, 8 and 30) against $\mathrm{Poi}(\lambda)$, all with the
same mean $\lambda = 3$. Right: the total variation distance between the two, which
falls like $1/N$ and stays under Le Cam's bound $\lambda^2/N$. The pmfs are
`mlnotes.distributions.binomial_pmf` and `poisson_pmf`; the distance is
`binomial_poisson_distance`.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.distributions import binomial_pmf, binomial_poisson_distance, poisson_pmf

LAM = 3.0

#: The reader's control: the largest N drawn on the left (30: the figure of the text).
EXPLORE = {
    "n": {
        "label": "N, the largest number of trials drawn",
        "unit": "",
        "grid": (4, 8, 30, 100, 1000),
        "format": "{:,}",
    },
}
NS = EXPLORE["n"]["grid"]  # the binomials the left panel can show

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Left: the pmfs of Bin(4, 3/4), Bin(8, 3/8) and Bin(30, 3/30) drawn as lines over the bars of "
    "Poisson(3), getting closer to the bars as N grows. Right: on log-log axes, the total "
    "variation distance between Bin(N, 3/N) and Poisson(3) for N from 4 to 10,000, falling more "
    "steeply at first and then along a line of slope -1, under Le Cam's bound 9/N"
)


def make_figure(n=30):
    y = np.arange(0, 13)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.9), layout="constrained")

    for i, trials in enumerate(N for N in NS if N <= n):
        left.plot(
            y,
            binomial_pmf(y, trials, LAM / trials),
            "o-",
            color=f"C{i + 1}",
            markersize=4,
            linewidth=1.2,
            label=rf"$\mathrm{{Bin}}(N = {trials}, \theta = {LAM:g}/{trials})$",
        )
    ink = plt.rcParams["axes.edgecolor"]  # the theme's text colour
    left.bar(
        y,
        poisson_pmf(y, LAM),
        width=0.6,
        color="C0",
        alpha=0.35,
        label=rf"$\mathrm{{Poi}}(\lambda = {LAM:g})$",
    )
    left.set(xlabel="$y$", ylabel="$p(Y = y)$", xticks=y, title="Same mean $N\\theta = \\lambda$")
    left.legend()

    ns = np.unique(np.logspace(np.log10(4), 4, 40).astype(int))
    distances = [binomial_poisson_distance(LAM, int(n)) for n in ns]
    right.loglog(
        ns,
        distances,
        "o-",
        color="C0",
        markersize=3,
        label=r"$d_{TV}(\mathrm{Bin}(N, \lambda/N), \mathrm{Poi}(\lambda))$",
    )
    right.loglog(
        ns, LAM**2 / ns, "--", color=ink, linewidth=1.0, label=r"Le Cam's bound $\lambda^2/N$"
    )
    right.set(
        xlabel="number of trials $N$",
        ylabel="total variation distance",
        title="The gap closes like $1/N$",
    )
    right.grid(True, which="major")
    right.legend()
    return fig


def caption_values(n=30):
    """The caption's values at `n`: the distance to the Poisson and Le Cam's bound."""
    distance = binomial_poisson_distance(LAM, n)
    return (
        f"N = {n:,}, θ = {LAM:g}/{n:,}: the total variation distance between Bin(N, θ) and "
        f"Poi({LAM:g}) is {distance:.2g}, under Le Cam's bound λ²/N = {LAM**2 / n:g}."
    )


if __name__ == "__main__":
    make_figure().savefig("probability_poisson_binomial.png")
