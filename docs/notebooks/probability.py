# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Probability: the notebook
#
# The companion of the notes page
# [Probability: Univariate Models](../notes/probability.md). It plays the Monty Hall
# game many times and compares the result with Bayes' rule, then evaluates the four
# discrete distributions of the notes (Bernoulli, binomial, Poisson, geometric), checks
# them against their formulas written out and their means and variances against the
# closed forms and `scipy.stats`, and watches the Poisson approximate the binomial. Apart
# from those written-out formulas, the computing is done by the `mlnotes` package; the
# checks are `assert`s, so a change that breaks one stops the notebook. Change a number
# and rerun.

# %%
from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

from mlnotes.distributions import (
    bernoulli_mean_var,
    bernoulli_pmf,
    binomial_mean_var,
    binomial_pmf,
    binomial_poisson_distance,
    geometric_mean_var,
    geometric_pmf,
    pmf_mean_var,
    poisson_mean_var,
    poisson_pmf,
)
from mlnotes.probability import (
    bayes_posterior,
    central_interval,
    monty_hall_posterior,
    monty_hall_wins,
    normal_cdf,
    normal_ppf,
    simulate_monty_hall,
)

# %% [markdown]
# ## The Monty Hall problem, exactly
#
# The contestant picks door $C = 1$; the host opens door $H = 3$. The prior puts $1/3$
# on each door; the host's likelihood $p(H = 3 \mid Y = y, C = 1)$ is $1/2$ if the
# prize is behind door 1 (he could open 2 or 3), $1$ if it is behind door 2 (door 3 is
# his only choice) and $0$ if it is behind door 3. Bayes' rule, with fractions:

# %%
prior = [Fraction(1, 3)] * 3
likelihood = [Fraction(1, 2), Fraction(1), Fraction(0)]
evidence = sum(l * p for l, p in zip(likelihood, prior))
posterior = bayes_posterior(prior, likelihood)
print("p(H = 3)         =", evidence)
print("p(Y = y | H = 3) =", [str(p) for p in posterior])

# %% [markdown]
# The same for every first choice and every door the host may open: the first choice
# keeps $1/3$, the other closed door gets $2/3$.

# %%
for chosen in (1, 2, 3):
    for opened in (1, 2, 3):
        if opened != chosen:
            posterior = monty_hall_posterior(chosen, opened)
            shown = {door: str(p) for door, p in posterior.items()}
            print(f"chose {chosen}, host opened {opened}:", shown)

# %% [markdown]
# ## The Monty Hall problem, played
#
# `monty_hall_wins` plays seeded games: the prize and the first choice are uniform,
# the host opens a door that is neither (at random when he can choose), and the
# contestant switches or stays. With the same seed both contestants play the same
# games, so exactly one of them wins each game.

# %%
for n_games in (10, 100, 1_000, 10_000, 100_000, 1_000_000):
    switch = simulate_monty_hall(n_games, switch=True)
    stay = simulate_monty_hall(n_games, switch=False)
    print(f"{n_games:>9,} games: switch {switch:.4f}, stay {stay:.4f}")
# a million games: within 4 standard errors, sqrt(p (1 - p) / n), of Bayes' 2/3 and 1/3
standard_error = np.sqrt(2 / 9 / n_games)
assert abs(switch - 2 / 3) < 4 * standard_error and abs(stay - 1 / 3) < 4 * standard_error

# %%
n_games = 20_000
games = np.arange(1, n_games + 1)
fig, ax = plt.subplots(figsize=(8, 3.5))
for switch, exact in ((True, 2 / 3), (False, 1 / 3)):
    wins = monty_hall_wins(n_games, switch=switch, seed=1)
    rate = np.cumsum(wins) / games
    label = "switch" if switch else "stay"
    (line,) = ax.plot(games, rate, label=label)
    ax.axhline(exact, color=line.get_color(), linestyle="--")
ax.set(xscale="log", ylim=(0, 1), xlabel="number of games", ylabel="fraction won")
ax.legend()
plt.show()
# %% [markdown]
# ## Quantiles of the normal
#
# $\mathrm{PPF}(0.025) = -1.96$ for $\mathcal{N}(0, 1)$, and the 95% interval of
# $\mathcal{N}(\mu, \sigma^2)$ is $\mu \pm 1.96\sigma$, which is rounded to
# $\mu \pm 2\sigma$ (not $\mu \pm \sigma$, which holds 68%).

# %%
print("PPF(0.025) =", round(normal_ppf(0.025), 4))
mu, sigma = 100.0, 15.0
lo, hi = central_interval(0.95, mu, sigma)
print(f"95% interval of N({mu:g}, {sigma:g}^2): ({lo:.2f}, {hi:.2f})")
for k in (1, 1.96, 2):
    upper = normal_cdf(mu + k * sigma, mu, sigma)
    lower = normal_cdf(mu - k * sigma, mu, sigma)
    print(f"P(|X - mu| <= {k} sigma) = {upper - lower:.4f}")

# %% [markdown]
# ## The four discrete distributions
#
# `mlnotes.distributions` computes the pmfs with `scipy.stats` (the Bernoulli's is its
# formula). Here each is compared with the notes' formula written out in plain Python
# (the geometric one as the page corrects it) over (a long stretch of) its support,
# summed, and its mean and variance computed from the pmf and compared with the closed
# forms and with scipy's.

# %%
from math import comb, exp, factorial

cases = [  # name, support, mlnotes' pmf, the notes' formula, scipy's distribution, closed forms
    (
        "Ber(0.3)",
        np.arange(0, 2),
        lambda y: bernoulli_pmf(y, 0.3),
        lambda k: 0.3**k * 0.7 ** (1 - k),
        stats.bernoulli(0.3),
        bernoulli_mean_var(0.3),
    ),
    (
        "Bin(10, 0.3)",
        np.arange(0, 11),
        lambda y: binomial_pmf(y, 10, 0.3),
        lambda k: comb(10, k) * 0.3**k * 0.7 ** (10 - k),
        stats.binom(10, 0.3),
        binomial_mean_var(10, 0.3),
    ),
    (
        "Poi(4)",
        np.arange(0, 150),
        lambda y: poisson_pmf(y, 4.0),
        lambda k: 4.0**k * exp(-4.0) / factorial(k),
        stats.poisson(4.0),
        poisson_mean_var(4.0),
    ),
    (
        "Geo(0.25)",
        np.arange(1, 400),
        lambda y: geometric_pmf(y, 0.25),
        lambda k: 0.75 ** (k - 1) * 0.25,
        stats.geom(0.25),
        geometric_mean_var(0.25),
    ),
]
for name, y, pmf, formula, reference, (mean, var) in cases:
    p = pmf(y)
    written_out = np.array([formula(int(k)) for k in y])
    m, v = pmf_mean_var(y, p)
    assert np.allclose(p, written_out, rtol=1e-12, atol=0), name
    assert np.allclose([m, v], [mean, var], rtol=1e-9), name  # from the pmf vs closed form
    assert np.allclose([mean, var], [reference.mean(), reference.var()], rtol=1e-12), name
    print(f"{name}: the formula written out above gives the same values; sum {p.sum():.6f}")
    print(f"    mean {m:.4f} from the pmf, {mean:g} closed form, {reference.mean():g} scipy")
    print(f"    var  {v:.4f} from the pmf, {var:g} closed form, {reference.var():g} scipy")

# %%
fig, axes = plt.subplots(2, 2, figsize=(8, 5), layout="constrained")
for ax, (name, y, pmf, _formula, _scipy, (mean, _var)) in zip(axes.flat, cases):
    y = y[:15]
    ax.vlines(y, 0, pmf(y), linewidth=3)
    ax.axvline(mean, color="C1", linestyle=":", label=f"mean {mean:g}")
    ax.set(title=name, xlabel="y", ylabel="p(Y = y)")
    ax.legend()

# %% [markdown]
# ## The geometric pmf of the notes
#
# The notes write $\theta^{y-1}(1 - \theta)$; with $\theta$ the success probability the
# pmf is $(1 - \theta)^{y-1}\theta$. Only the second has the mean $1/\theta$ the notes
# state:

# %%
theta = 0.25
y = np.arange(1, 400)
notes_pmf = theta ** (y - 1) * (1 - theta)
corrected_pmf = geometric_pmf(y, theta)
for name, pmf in (("notes", notes_pmf), ("corrected", corrected_pmf)):
    mean, var = pmf_mean_var(y, pmf)
    print(f"{name:>9}: sum {pmf.sum():.4f}, mean {mean:.4f}, var {var:.4f}")
mean, var = geometric_mean_var(theta)
print(f"1/theta = {mean:g}, (1 - theta)/theta^2 = {var:g}")
assert np.isclose(pmf_mean_var(y, notes_pmf)[0], 1 / (1 - theta))  # not 1/theta
assert np.allclose(pmf_mean_var(y, corrected_pmf), [1 / theta, (1 - theta) / theta**2])

# %% [markdown]
# ## The Poisson approximates the binomial
#
# With $\lambda = N\theta$ fixed, $\mathrm{Bin}(N, \lambda / N)$ approaches the
# Poisson as the number of trials $N$ grows; the total variation distance between
# them falls like $1/N$ ($N$ times it settles), under Le Cam's bound $\lambda^2/N$.

# %%
lam = 3.0
for n in (5, 10, 100, 1_000, 10_000, 10**9):
    distance = binomial_poisson_distance(lam, n)
    assert distance <= lam**2 / n
    print(f"N = {n:>13,}: total variation distance {distance:.3e}, N times it {n * distance:.4f}")
