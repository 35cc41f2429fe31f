r"""Random variables, the normal distribution, Bayes' rule and the Monty Hall problem.

The executable side of the notes page
[Probability: Univariate Models](../notes/probability.md) (Murphy, *Probabilistic
Machine Learning: An Introduction*, ch. 2). The normal density, cdf and ppf are
computed by `scipy.stats.norm`; this module adds the validation scipy leaves out
(`scipy.stats.norm.ppf(1.5)` is a silent `nan`, ours raises `ValueError`). The sum
rule, the independence test and Bayes' rule are written out, because the notes teach
them.

Conventions: a 2-D joint pmf table holds $p(X = x_i, Y = y_j)$ at row $i$, column
$j$; Monty Hall doors are numbered 1, 2, 3 as in the notes. "Notes, section n" refers to
the numbering of the July and November 2025 versions of the notes (the December 2024
version numbers its pdf and ppf sections 1.0.1 and 1.0.2).
"""

from __future__ import annotations

import numbers
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from mlnotes import _validation as V

__all__ = [
    "normal_pdf",
    "normal_cdf",
    "normal_ppf",
    "central_interval",
    "marginal",
    "is_independent",
    "bayes_posterior",
    "monty_hall_posterior",
    "monty_hall_wins",
    "simulate_monty_hall",
]

#: Absolute tolerance used to decide that floating-point probabilities sum to 1.
SUM_TOLERANCE = 1e-9


# --------------------------------------------------------------------------- checks
def _real_array(value, name):
    """`value` as a float array; ±inf allowed (the normal's tails), NaN not."""
    return V.real_array(value, name, finite=False)


def _check_probability(value, name):
    """`value` as a float array of probabilities in [0, 1]."""
    return V.probability_array(value, name, what="a probability or an array of probabilities")


def _check_location_scale(mu, sigma):
    """Return `(mu, sigma)` as floats after checking `mu` is finite and `sigma > 0`."""
    mu = V.real(mu, "mu")
    sigma = V.real(sigma, "sigma", low=0.0, low_open=True, what="positive and finite")
    return mu, sigma


# ------------------------------------------------------------------- normal (Gauss)
def normal_pdf(x: ArrayLike, mu: float = 0.0, sigma: float = 1.0) -> float | np.ndarray:
    r"""Density of the univariate normal $\mathcal{N}(\mu, \sigma^2)$ at `x`.

    $$p(x) = \mathcal{N}(x; \mu, \sigma^2)
        = \frac{1}{\sqrt{2\pi\sigma^2}} e^{-\frac{1}{2\sigma^2}(x-\mu)^2}.$$

    A density is not a probability: it can exceed 1 (a narrow normal has
    $p(\mu) = 1/\sqrt{2\pi\sigma^2} > 1$ when $\sigma < 1/\sqrt{2\pi} \approx 0.3989$), and
    $P(X = x) = 0$ for every $x$. Computed by `scipy.stats.norm.pdf`.

    Args:
        x: Point(s) at which to evaluate the density; a float or an array of any
            shape. `±inf` is allowed (density 0), NaN is not.
        mu: The mean $\mu$, a finite float.
        sigma: The standard deviation $\sigma > 0$ (not the variance).

    Returns:
        A float if `x` is a scalar, else an array with the shape of `x`.

    Raises:
        ValueError: If `x` contains NaN, `mu` is not finite or `sigma <= 0`.
        TypeError: If an argument is not a real number (or array of them): bools,
            complex numbers, strings and None are rejected.

    Examples:
        >>> round(normal_pdf(0.0), 4)            # 1 / sqrt(2 pi)
        0.3989
        >>> round(normal_pdf(0.0, sigma=0.1), 4) # a density above 1
        3.9894
        >>> normal_pdf([-1.0, 1.0]).round(4)     # symmetric about mu = 0
        array([0.242, 0.242])
        >>> normal_pdf(0.0, sigma=0)
        Traceback (most recent call last):
            ...
        ValueError: sigma must be positive and finite, got 0

    Equation:
        notes/probability.md#eq:prob-normal-pdf

    References:
        Notes, section 1.5, Definition 1.10.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.6.
    """
    mu, sigma = _check_location_scale(mu, sigma)
    x_array = _real_array(x, "x")
    return V.scalar_or_array(stats.norm.pdf(x_array, loc=mu, scale=sigma), x)


def normal_cdf(x: ArrayLike, mu: float = 0.0, sigma: float = 1.0) -> float | np.ndarray:
    r"""Cumulative distribution function $P(X \le x)$ of $X \sim \mathcal{N}(\mu, \sigma^2)$.

    $$P(x) = \int_{-\infty}^{x} \mathcal{N}(t; \mu, \sigma^2)\, dt
        = \Phi\!\left(\frac{x - \mu}{\sigma}\right),$$

    so the probability of an interval is a difference of cdf values,
    $P(a \le X \le b) = P(b) - P(a)$. Computed by `scipy.stats.norm.cdf`.

    Args:
        x: Point(s), a float or an array of any shape; `±inf` allowed, NaN not.
        mu: The mean $\mu$, a finite float.
        sigma: The standard deviation $\sigma > 0$.

    Returns:
        A float in $[0, 1]$ if `x` is a scalar, else an array with the shape of `x`.

    Raises:
        ValueError: If `x` contains NaN, `mu` is not finite or `sigma <= 0`.
        TypeError: If an argument is not a real number (or array of them).

    Examples:
        >>> normal_cdf(0.0)
        0.5
        >>> round(normal_cdf(1.96) - normal_cdf(-1.96), 4)  # P(-1.96 <= X <= 1.96)
        0.95
        >>> round(normal_cdf(12.0, mu=10.0, sigma=2.0), 4)  # one sigma above the mean
        0.8413
        >>> normal_cdf(float("nan"))
        Traceback (most recent call last):
            ...
        ValueError: x must not contain NaN, got nan

    Equation:
        notes/probability.md#eq:prob-normal-interval

    References:
        Notes, section 1.5.1, Definition 1.9.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.6.
    """
    mu, sigma = _check_location_scale(mu, sigma)
    x_array = _real_array(x, "x")
    return V.scalar_or_array(stats.norm.cdf(x_array, loc=mu, scale=sigma), x)


def normal_ppf(q: ArrayLike, mu: float = 0.0, sigma: float = 1.0) -> float | np.ndarray:
    r"""Quantile function (ppf, inverse cdf) of $\mathcal{N}(\mu, \sigma^2)$.

    Returns the $x_q$ with $P(X \le x_q) = q$, that is $x_q = \mu + \sigma\,\Phi^{-1}(q)$,
    where $\Phi^{-1}$, the standard normal's ppf ($\mu = 0$, $\sigma = 1$), is the
    *probit* function.
    Computed by `scipy.stats.norm.ppf`, which returns a silent `nan` for `q`
    outside $[0, 1]$; this function raises instead.

    Args:
        q: Probability (or array of probabilities) in $[0, 1]$; `q = 0` gives `-inf`
            and `q = 1` gives `inf`.
        mu: The mean $\mu$, a finite float.
        sigma: The standard deviation $\sigma > 0$.

    Returns:
        A float if `q` is a scalar, else an array with the shape of `q`.

    Raises:
        ValueError: If `q` is outside $[0, 1]$ or NaN, `mu` is not finite or `sigma <= 0`.
        TypeError: If an argument is not a real number (or array of them): bools,
            complex numbers, strings and None are rejected.

    Examples:
        >>> round(normal_ppf(0.025), 2)     # the notes' worked example
        -1.96
        >>> round(normal_ppf(0.975), 2)     # by symmetry
        1.96
        >>> normal_ppf(0.5, mu=3.0)         # the median of a normal is its mean
        3.0
        >>> normal_ppf(1.5)
        Traceback (most recent call last):
            ...
        ValueError: q must be a probability in [0, 1], got 1.5

    References:
        Notes, sections 1.2 and 1.5.2.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.2.2.
    """
    mu, sigma = _check_location_scale(mu, sigma)
    q_array = _check_probability(q, "q")
    return V.scalar_or_array(stats.norm.ppf(q_array, loc=mu, scale=sigma), q)


def central_interval(
    coverage: float = 0.95, mu: float = 0.0, sigma: float = 1.0
) -> tuple[float, float]:
    r"""The symmetric interval holding `coverage` of the mass of $\mathcal{N}(\mu, \sigma^2)$.

    With $\alpha = 1 - \text{coverage}$, the interval is
    $(\mathrm{ppf}(\alpha/2), \mathrm{ppf}(1 - \alpha/2))
    = (\mu + \sigma\Phi^{-1}(\alpha/2), \mu - \sigma\Phi^{-1}(\alpha/2))$:
    $(\mu - 1.96\sigma, \mu + 1.96\sigma)$ for 95%.

    Args:
        coverage: The probability $1 - \alpha$ inside the interval, in $[0, 1]$.
        mu: The mean $\mu$, a finite float.
        sigma: The standard deviation $\sigma > 0$.

    Returns:
        The pair `(lo, hi)` of floats.

    Raises:
        ValueError: If `coverage` is outside $[0, 1]$ or NaN, `mu` is not finite or
            `sigma <= 0`.
        TypeError: If an argument is not a real number.

    Examples:
        >>> lo, hi = central_interval(0.95)
        >>> round(lo, 2), round(hi, 2)
        (-1.96, 1.96)
        >>> lo, hi = central_interval(0.95, mu=100.0, sigma=15.0)
        >>> round(lo, 1), round(hi, 1)      # 100 -/+ 1.96 * 15
        (70.6, 129.4)
        >>> round(normal_cdf(hi, 100.0, 15.0) - normal_cdf(lo, 100.0, 15.0), 6)
        0.95
        >>> central_interval(95)
        Traceback (most recent call last):
            ...
        ValueError: coverage must be a probability in [0, 1], got 95

    Equation:
        notes/probability.md#eq:prob-normal-interval

    References:
        Notes, section 1.2.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.2.2.
    """
    alpha = 1.0 - V.probability(coverage, "coverage")
    mu, sigma = _check_location_scale(mu, sigma)
    lo = normal_ppf(alpha / 2, mu, sigma)
    # by symmetry, not as ppf(1 - alpha/2): 1 - alpha/2 rounds to 1.0 (an infinite
    # upper end) for coverages within 1e-16 of 1, while the lower end stays finite
    hi = mu + (mu - lo)
    return lo, hi


# ------------------------------------------------------------- joint distributions
def _check_joint(joint):
    """Return `joint` as a 2-D float array that is a valid joint pmf table."""
    table = V.real_array(joint, "joint", what="a 2-D table of probabilities")
    if table.ndim != 2 or table.size == 0:
        raise ValueError(f"joint must be a 2-D table, got an array of shape {table.shape}")
    if (table < 0).any():
        raise ValueError(f"joint must not have negative entries, got {V.show(joint)}")
    total = table.sum()
    if not abs(total - 1.0) <= SUM_TOLERANCE:
        raise ValueError(f"joint must sum to 1, got a table summing to {float(total)!r}")
    return table


def marginal(joint: ArrayLike, axis: int) -> np.ndarray:
    r"""Marginal pmf of one variable of a 2-D joint pmf table (the sum rule).

    For the table $p(X = x_i, Y = y_j)$ (rows $x_i$, columns $y_j$), `axis=0` gives
    the marginal of the row variable and `axis=1` that of the column variable:

    $$p(x) = \sum_{j} p(x, Y = y_j), \qquad p(y) = \sum_{i} p(X = x_i, y).$$

    Note that `axis` names the variable that is *kept*, not (as in `numpy.sum`)
    the axis that is summed over.

    Args:
        joint: A 2-D array-like of shape `(n_x, n_y)`, non-negative, summing to 1.
        axis: `0` for $p(x)$ (length `n_x`), `1` for $p(y)$ (length `n_y`).

    Returns:
        A 1-D array: the marginal pmf.

    Raises:
        ValueError: If `joint` is not 2-D, is empty, has a negative entry, NaN or
            ±inf, or does not sum to 1 (within $10^{-9}$), or `axis` is not 0 or 1.
        TypeError: If `joint` holds something other than real numbers, or `axis` is
            not an integer.

    Examples:
        Table 1 of the notes:

        >>> table1 = [[0.3, 0.2],
        ...           [0.2, 0.3]]
        >>> marginal(table1, axis=0)     # p(X = 0), p(X = 1)
        array([0.5, 0.5])
        >>> marginal([[0.1, 0.2, 0.3], [0.1, 0.1, 0.2]], axis=1).round(2)
        array([0.2, 0.3, 0.5])
        >>> marginal([[0.5, 0.5], [0.5, 0.5]], axis=0)
        Traceback (most recent call last):
            ...
        ValueError: joint must sum to 1, got a table summing to 2.0

    Equation:
        notes/probability.md#eq:prob-sum-rule

    References:
        Notes, section 1.3, Definition 1.2.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, ch. 2.
    """
    table = _check_joint(joint)
    axis = V.integer(axis, "axis")
    if axis not in (0, 1):
        raise ValueError(f"axis must be 0 (rows, X) or 1 (columns, Y), got {axis!r}")
    return table.sum(axis=1 - axis)


def is_independent(
    joint: ArrayLike, rtol: float = 1e-9, atol: float = 2.2250738585072014e-308
) -> bool:
    r"""Whether the two variables of a 2-D joint pmf table are independent.

    $X \perp Y$ iff $p(x, y) = p(x)\,p(y)$ for every cell: the table equals the
    outer product of its two marginals. Cells are compared with a *relative*
    tolerance, $|p(x, y) - p(x)p(y)| \le \text{rtol}\cdot\max(p(x, y), p(x)p(y)) +
    \text{atol}$, so a variable with a rare value is judged on that value too: with an
    absolute tolerance of $10^{-9}$, $X = Y$ with $P(X = 0) = 10^{-10}$ would pass as
    independent.

    Args:
        joint: A 2-D array-like, non-negative, summing to 1.
        rtol: Relative tolerance, in $[0, 1)$: what rounding leaves of an exact
            product (about $10^{-16}$ times the number of rows plus columns, from the
            sums of the marginals) is far below the default $10^{-9}$.
        atol: Absolute tolerance, $\ge 0$; the default, the smallest normal float
            ($2.2 \times 10^{-308}$), only forgives differences in the subnormal range,
            where floats lose their relative precision.

    Returns:
        `True` if every cell matches $p(x)p(y)$ within the tolerances, else `False`.

    Raises:
        ValueError: If `joint` is not a valid joint pmf table, or a tolerance is
            negative, NaN or infinite (or `rtol >= 1`).
        TypeError: If `joint` or a tolerance holds something other than real numbers.

    Examples:
        >>> is_independent([[0.3, 0.2], [0.2, 0.3]])    # Table 1: X and Y are dependent
        False
        >>> is_independent([[0.25, 0.25], [0.25, 0.25]])
        True
        >>> is_independent([[1e-10, 0.0], [0.0, 1 - 1e-10]])   # X = Y, rarely 0
        False
        >>> is_independent([[0.6, -0.1], [0.2, 0.3]])
        Traceback (most recent call last):
            ...
        ValueError: joint must not have negative entries, got [[0.6, -0.1], [0.2, 0.3]]

    Equation:
        notes/probability.md#eq:prob-independence

    References:
        Notes, section 1.3, Definition 1.3.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, ch. 2.
    """
    table = _check_joint(joint)
    rtol = V.real(rtol, "rtol", low=0.0, high=1.0, high_open=True)
    atol = V.real(atol, "atol", low=0.0)
    product = np.outer(table.sum(axis=1), table.sum(axis=0))
    return bool(np.all(np.abs(table - product) <= rtol * np.maximum(table, product) + atol))


# ----------------------------------------------------------------------- Bayes' rule
def _is_exact(array):
    return array.dtype == object and all(
        isinstance(v, (Fraction, numbers.Integral)) and not isinstance(v, bool) for v in array.flat
    )


def _check_vector(value, name):
    """A 1-D array of numbers in [0, 1], exact (Fractions) when given Fractions/ints."""
    array = None
    if value is not None and not isinstance(value, (str, bytes)):
        try:
            array = np.asarray(value, dtype=object)
        except ValueError:  # ragged: real_array below says so
            array = None
    if array is None or not _is_exact(array):
        array = V.real_array(value, name, what="a 1-D sequence of probabilities")
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence, got {V.show(value)}")
    if any(v < 0 or v > 1 for v in array.flat):
        raise ValueError(f"{name} must hold probabilities in [0, 1], got {V.show(value)}")
    return array


def bayes_posterior(prior: ArrayLike, likelihood: ArrayLike) -> np.ndarray:
    r"""Posterior $p(H = h \mid Y = y)$ from a prior and a likelihood (Bayes' rule).

    $$p(H = h \mid Y = y) = \frac{p(Y = y \mid H = h)\, p(H = h)}{p(Y = y)},
    \qquad p(Y = y) = \sum_{h'} p(Y = y \mid H = h')\, p(H = h').$$

    The marginal likelihood $p(Y = y)$ in the denominator is computed with the sum
    rule. The likelihood is a function of $h$ for the observed $y$; it need not sum
    to 1. Given `Fraction`s (or ints), the arithmetic is exact.

    Args:
        prior: 1-D sequence $p(H = h)$ over the hidden states, in $[0, 1]$, summing
            to 1.
        likelihood: 1-D sequence $p(Y = y \mid H = h)$ for the observed $y$, one entry
            per hidden state, each in $[0, 1]$.

    Returns:
        A 1-D array with the posterior, same length as `prior` (dtype `object`
            holding `Fraction`s when both inputs are exact, else `float`).

    Raises:
        ValueError: If an input is not 1-D, holds a value outside $[0, 1]$ or NaN,
            the lengths differ, `prior` does not sum to 1, or the observation is
            impossible ($p(Y = y) = 0$).
        TypeError: If an input holds something other than real numbers (strings,
            None, complex numbers, a list of booleans).

    Examples:
        A test with 90% sensitivity and 80% specificity for a condition of
        prevalence 10%, after a positive result:

        >>> bayes_posterior([0.1, 0.9], [0.9, 0.2]).round(3)
        array([0.333, 0.667])

        Exact, with fractions (the Monty Hall problem, host opened door 3):

        >>> from fractions import Fraction
        >>> third, half = Fraction(1, 3), Fraction(1, 2)
        >>> bayes_posterior([third, third, third], [half, 1, 0])
        array([Fraction(1, 3), Fraction(2, 3), Fraction(0, 1)], dtype=object)
        >>> bayes_posterior([0.5, 0.5], [0.0, 0.0])
        Traceback (most recent call last):
            ...
        ValueError: the observation is impossible: p(Y = y) = sum(likelihood * prior) is 0

    Equation:
        notes/probability.md#eq:prob-bayes

    References:
        Notes, section 1.4, Definition 1.8.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.3.
    """
    prior = _check_vector(prior, "prior")
    likelihood = _check_vector(likelihood, "likelihood")
    if prior.shape != likelihood.shape:
        raise ValueError(
            f"prior and likelihood must have the same length, got {prior.size} and {likelihood.size}"
        )
    exact = prior.dtype == object and likelihood.dtype == object
    if not exact:
        prior, likelihood = prior.astype(float), likelihood.astype(float)
    total = prior.sum()
    if (total != 1) if exact else not abs(total - 1.0) <= SUM_TOLERANCE:
        raise ValueError(f"prior must sum to 1, got {total!r}")
    joint = likelihood * prior  # p(Y = y, H = h), the product rule
    evidence = joint.sum()  # p(Y = y), the sum rule
    if evidence == 0:
        raise ValueError("the observation is impossible: p(Y = y) = sum(likelihood * prior) is 0")
    posterior = joint / evidence
    if exact:
        posterior = np.array([Fraction(v) for v in posterior], dtype=object)
    return posterior


# ---------------------------------------------------------------------- Monty Hall
DOORS = (1, 2, 3)


def _check_door(value, name):
    try:
        door = V.integer(value, name)
    except TypeError:
        raise TypeError(f"{name} must be a door number 1, 2 or 3, got {V.show(value)}") from None
    if door not in DOORS:
        raise ValueError(f"{name} must be a door number 1, 2 or 3, got {door}")
    return door


def monty_hall_posterior(chosen: int = 1, opened: int = 3) -> dict[int, Fraction]:
    r"""Where the prize is, given the contestant's door and the door the host opened.

    The prize $Y$ is behind each door with prior $1/3$. The host never opens the
    contestant's door $C$ nor the prize door; when both other doors hide goats he
    picks one of them uniformly at random. So the likelihood of the host opening door $h$ is

    $$p(H = h \mid Y = y, C = c) = \begin{cases}
        1/2 & y = c \text{ (two goat doors to choose from)} \\
        1 & y \ne c,\ y \ne h \text{ (the only goat door left)} \\
        0 & y = h
    \end{cases}$$

    and Bayes' rule ([`bayes_posterior`][mlnotes.probability.bayes_posterior]),
    computed exactly with fractions, gives $p(Y = y \mid H = h, C = c)$.

    Args:
        chosen: The contestant's first choice $c \in \{1, 2, 3\}$.
        opened: The door $h \in \{1, 2, 3\}$ the host opened, $h \ne c$.

    Returns:
        A dict mapping each door (1, 2, 3) to the posterior probability, a
            `Fraction`, that the prize is behind it.

    Raises:
        TypeError: If a door is not an int.
        ValueError: If a door is not 1, 2 or 3, or `opened == chosen` (the host
            never opens the contestant's door, so that observation is impossible).

    Examples:
        >>> monty_hall_posterior(chosen=1, opened=3)
        {1: Fraction(1, 3), 2: Fraction(2, 3), 3: Fraction(0, 1)}
        >>> monty_hall_posterior(chosen=1, opened=2)[3]   # switching to door 3 wins
        Fraction(2, 3)
        >>> monty_hall_posterior(chosen=2, opened=2)
        Traceback (most recent call last):
            ...
        ValueError: opened must differ from chosen (the host never opens the contestant's door), got chosen=2, opened=2

    Equation:
        notes/probability.md#eq:prob-mh-1-2
        notes/probability.md#eq:prob-mh-1-3
        notes/probability.md#eq:prob-mh-2-3
        notes/probability.md#eq:prob-mh-3-2

    References:
        Notes, section 1.4.1, Question 1. Murphy (2022),
        *Probabilistic Machine Learning: An Introduction*, section 2.3.2.
    """
    chosen = _check_door(chosen, "chosen")
    opened = _check_door(opened, "opened")
    if opened == chosen:
        raise ValueError(
            "opened must differ from chosen (the host never opens the contestant's door), "
            f"got chosen={chosen}, opened={opened}"
        )
    prior = [Fraction(1, 3)] * 3

    def host_likelihood(prize):
        if prize == opened:
            return Fraction(0)
        if prize == chosen:
            return Fraction(1, 2)
        return Fraction(1)

    likelihood = [host_likelihood(door) for door in DOORS]
    posterior = bayes_posterior(prior, likelihood)
    return {door: Fraction(p) for door, p in zip(DOORS, posterior)}


def monty_hall_wins(n_games: int, switch: bool, seed: int = 0) -> np.ndarray:
    r"""Play `n_games` Monty Hall games and say which ones the contestant won.

    Each game draws the prize door and the contestant's first choice uniformly at
    random; the host opens a door that is neither (uniformly at random, a fair coin
    flip, when he can choose);
    the contestant then keeps the first door or switches to the remaining one.
    With the same `seed`, the staying and the switching contestant play the same
    games, so exactly one of them wins each game.

    Args:
        n_games: Number of games, a positive int.
        switch: `True` to switch doors after the host opens one, `False` to stay.
        seed: Seed of the `numpy.random.Generator` (PCG64).

    Returns:
        A boolean array of shape `(n_games,)`: `True` where the contestant won.

    Raises:
        TypeError: If `n_games` or `seed` is not an integer, or `switch` is not a bool.
        ValueError: If `n_games < 1` or `seed < 0`.

    Examples:
        >>> wins = monty_hall_wins(10, switch=True)
        >>> wins.shape, wins.dtype
        ((10,), dtype('bool'))
        >>> bool((monty_hall_wins(1000, True) != monty_hall_wins(1000, False)).all())
        True

    References:
        Notes, section 1.4.1, Question 1.
    """
    n = V.integer(n_games, "n_games", minimum=1)
    switch = V.boolean(switch, "switch")
    seed = V.integer(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    prize = rng.integers(0, 3, size=n)  # doors 0, 1, 2 here; 1, 2, 3 in the notes
    chosen = rng.integers(0, 3, size=n)
    # The host opens a door that is neither chosen nor the prize. If chosen == prize
    # he has two such doors and picks one with a coin flip; otherwise one door is left.
    coin = rng.integers(1, 3, size=n)  # 1 or 2
    opened = np.where(chosen == prize, (chosen + coin) % 3, 3 - chosen - prize)
    final = 3 - chosen - opened if switch else chosen
    return final == prize


def simulate_monty_hall(n_games: int, switch: bool, seed: int = 0) -> float:
    r"""Win rate of a contestant who always switches (or always stays), by simulation.

    The fraction of [`monty_hall_wins`][mlnotes.probability.monty_hall_wins] that
    are wins; it tends to $2/3$ for switching and $1/3$ for staying, the exact
    posteriors of [`monty_hall_posterior`][mlnotes.probability.monty_hall_posterior].

    Args:
        n_games: Number of games, a positive int.
        switch: `True` to switch doors after the host opens one, `False` to stay.
        seed: Seed of the random generator.

    Returns:
        The win rate, a float in $[0, 1]$.

    Raises:
        TypeError: If `n_games` or `seed` is not an integer, or `switch` is not a bool.
        ValueError: If `n_games < 1` or `seed < 0`.

    Examples:
        >>> round(simulate_monty_hall(1_000_000, switch=True), 3)
        0.667
        >>> round(simulate_monty_hall(1_000_000, switch=False), 3)
        0.333
        >>> simulate_monty_hall(0, switch=True)
        Traceback (most recent call last):
            ...
        ValueError: n_games must be a positive integer, got 0

    References:
        Notes, section 1.4.1, Question 1.
    """
    return float(monty_hall_wins(n_games, switch, seed).mean())
