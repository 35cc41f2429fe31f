r"""Monty Hall: the win rate of switching and of staying as games accumulate.

The running fraction of games won over the first $n$ games, for a contestant who
always switches and one who always stays, both playing the same seeded games
(`mlnotes.probability.monty_hall_wins`). The rates settle at the exact posteriors
$2/3$ and $1/3$ computed by Bayes' rule (`monty_hall_posterior`), drawn as dashed
lines; the shaded band is $\pm 2$ standard errors, $2\sqrt{p(1-p)/n}$, around them
(pointwise: a running rate can stay outside it for a while, as switching does here,
with seed 0, on and off between 119 and 164 games and again between 343 and 1,143).
The reader can replay other seeded runs of the games (the seed, 0 by default). The curves are drawn at about 1,000 log-spaced values of
$n$ (every game up to 143), which is all a log axis can show.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.probability import monty_hall_posterior, monty_hall_wins

N_GAMES = 100_000

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Running win rate over 100,000 simulated games, with the number of games on a log scale: the "
    "switching contestant's rate wanders early on and settles at 2/3, the staying contestant's "
    "mirrors it and settles at 1/3; shaded bands mark two standard errors around the exact values"
)


#: The reader's control: which seeded run of the games is drawn (0: the figure of the text).
EXPLORE = {
    "seed": {
        "label": "seed of the simulated games",
        "unit": "",
        "grid": (0, 1, 2, 3, 4, 5, 6, 7),
        "format": "{:d}",
    },
}


def make_figure(seed=0):
    n = np.arange(1, N_GAMES + 1)
    shown = np.unique(np.geomspace(1, N_GAMES, 1500).astype(int)) - 1  # indices to draw
    exact = monty_hall_posterior(chosen=1, opened=3)  # {1: 1/3, 2: 2/3, 3: 0}
    strategies = [
        ("always switch", True, float(exact[2]), "C0"),
        ("always stay", False, float(exact[1]), "C1"),
    ]

    fig, ax = plt.subplots(figsize=(8, 4))
    for label, switch, p, color in strategies:
        wins = monty_hall_wins(N_GAMES, switch=switch, seed=seed)
        running_rate = np.cumsum(wins) / n
        band = 2 * np.sqrt(p * (1 - p) / n)
        ax.fill_between(
            n[shown], (p - band)[shown], (p + band)[shown], color=color, alpha=0.15, linewidth=0
        )
        ax.plot(
            n[shown],
            running_rate[shown],
            color=color,
            label=f"{label}: {running_rate[-1]:.3f} after {N_GAMES:,} games",
        )
        ax.axhline(p, color=color, linestyle="--", linewidth=1.0)
        ax.annotate(
            f"exact {exact[2] if switch else exact[1]}",
            xy=(N_GAMES, p),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            color=color,
        )

    ax.set(
        xscale="log",
        xlim=(1, N_GAMES),
        ylim=(0, 1),
        xlabel="number of games $n$",
        ylabel="fraction of games won",
        title="Switching wins 2/3 of the games, staying 1/3" + (f" (seed {seed})" if seed else ""),
    )
    ax.legend(loc="upper right")
    return fig


def caption_values(seed=0):
    """The caption's values for the run `seed`: the final rates and the time outside the bands."""
    n = np.arange(1, N_GAMES + 1)
    switch_wins = monty_hall_wins(N_GAMES, switch=True, seed=seed)
    p = float(monty_hall_posterior(chosen=1, opened=3)[2])
    # staying wins exactly the games switching loses, so in exact arithmetic both rates leave
    # their bands together (on a band's edge, as at seed 4, n = 18, float64 may put one just
    # outside); switching's are counted
    outside = np.abs(np.cumsum(switch_wins) / n - p) > 2 * np.sqrt(p * (1 - p) / n)
    won = int(switch_wins.sum())
    text = (
        f"Seed {seed}: switching won {won:,} of the {N_GAMES:,} games ({won / N_GAMES:.3f}), "
        f"staying {N_GAMES - won:,} ({1 - won / N_GAMES:.3f}); "
    )
    if not outside.any():
        return text + "the running rates never leave their ±2 standard error bands."
    return text + (
        f"the running rates lie outside their ±2 standard error bands for {outside.sum():,} "
        f"of the {N_GAMES:,} values of n, the last at n = {n[outside][-1]:,}."
    )


if __name__ == "__main__":
    make_figure().savefig("probability_monty_hall.png")
