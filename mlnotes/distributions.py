r"""The discrete distributions of the notes: pmfs, means and variances.

Bernoulli, binomial, Poisson and geometric pmfs, each with its mean and variance in
closed form, as the page [Probability: Univariate Models](../notes/probability.md)
corrects them (the Bernoulli's mean and variance are the site's addition). A pmf's
docstring states the notes' formula and the relative error of its value: the Bernoulli's
is the formula itself, correctly rounded; the others are `scipy.stats`' (`binom`,
`poisson`, and the exponential of `geom.logpmf`), whose error grows with the parameters. A pmf is 0 at an integer outside the support; a non-integer, NaN or
infinite `y` is an error, as is a parameter outside its range.

References:
    Notes "MAC5921 - Deep Learning" (2025-11-23), sections 1.6-1.8 ("Notes, section n"
    numbers the July and November 2025 versions). Murphy, *Probabilistic Machine
    Learning: An Introduction*, 2022, section 2.4.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from scipy.special import gammaln, xlog1py, xlogy

from mlnotes import _validation as V

__all__ = [
    "bernoulli_pmf",
    "binomial_pmf",
    "poisson_pmf",
    "geometric_pmf",
    "bernoulli_mean_var",
    "binomial_mean_var",
    "poisson_mean_var",
    "geometric_mean_var",
    "pmf_mean_var",
    "binomial_poisson_distance",
]


# --------------------------------------------------------------------------- checks
def _check_theta(theta, name="theta", low_open=False):
    return V.probability(theta, name, low_open=low_open)


# the largest trial count passed to scipy.stats (its integer arrays are int64)
_SCIPY_MAX_COUNT = 2**63 - 1


def _check_count(n, name, minimum=0, maximum=None):
    return V.integer(n, name, minimum=minimum, maximum=maximum)


def _check_lam(lam):
    return V.real(lam, "lam", low=0.0, what="a non-negative finite number")


def _check_y(y):
    """Return `y` as a float array of finite integer values."""
    values = V.real_array(y, "y", what="an integer or an array of integers")
    if (values != np.round(values)).any():
        raise ValueError(f"y must be integer-valued, got {V.show(y)}")
    return values


# ------------------------------------------------------------------------------ pmfs
def bernoulli_pmf(y: ArrayLike, theta: float) -> float | np.ndarray:
    r"""pmf of $Y \sim \mathrm{Ber}(\theta)$: one binary trial that succeeds with probability $\theta$.

    $$p(Y = y) = \begin{cases} \theta & y = 1 \\ 1 - \theta & y = 0 \end{cases}
        = \theta^{y}(1-\theta)^{1-y} = \mathrm{Bin}(y \mid 1, \theta).$$

    Args:
        y: Outcome(s), integers; the support is $\{0, 1\}$ (other integers get 0).
        theta: Success probability $\theta \in [0, 1]$.

    Returns:
        A float if `y` is a scalar, else an array with the shape of `y`.

    Raises:
        ValueError: If `y` is not integer-valued or `theta` is outside $[0, 1]$ or NaN.
        TypeError: If `theta` is not a real number.

    Precision:
        Correctly rounded: $\theta$ itself at $y = 1$, $1 - \theta$ rounded once at
        $y = 0$.

    Examples:
        >>> bernoulli_pmf([0, 1], theta=0.3)
        array([0.7, 0.3])
        >>> bernoulli_pmf(1, theta=0.3) == binomial_pmf(1, n=1, theta=0.3)
        True
        >>> bernoulli_pmf(1, theta=1.3)
        Traceback (most recent call last):
            ...
        ValueError: theta must be a probability in [0, 1], got 1.3

    Equation:
        notes/probability.md#eq:prob-bernoulli-pmf

    References:
        Notes, section 1.6.1, Definition 1.12.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.4.
    """
    theta = _check_theta(theta)
    values = _check_y(y)
    pmf = np.where(values == 1, theta, np.where(values == 0, 1.0 - theta, 0.0))
    return V.scalar_or_array(pmf, y)


def binomial_pmf(y: ArrayLike, n: int, theta: float) -> float | np.ndarray:
    r"""pmf of $Y \sim \mathrm{Bin}(N, \theta)$: the number of successes in $N$ independent trials.

    $$p(Y = y) = \binom{N}{y}\,\theta^{y}(1-\theta)^{N-y}, \qquad y = 0, 1, \dots, N.$$

    Args:
        y: Number(s) of successes, integers; the support is $\{0, \dots, N\}$.
        n: Number of trials $N \ge 0$, an int.
        theta: Success probability of each trial, $\theta \in [0, 1]$.

    Returns:
        A float if `y` is a scalar, else an array with the shape of `y`.

    Raises:
        ValueError: If `y` is not integer-valued, `n < 0` or `n > 2**63 - 1` (scipy's
            integers are int64), or `theta` is outside $[0, 1]$ or NaN.
        TypeError: If `n` is not an int or `theta` not a real number.

    Precision:
        `scipy.stats.binom`'s: relative error below $10^{-11} + 10^{-14}\sqrt{N}$
        (about $10^{-8}$ at $N = 10^{12}$) where the value is a normal float
        ($\ge 2.2 \times 10^{-308}$); a smaller value may lose digits or be 0.

    Examples:
        >>> round(binomial_pmf(3, n=10, theta=0.5), 6)   # C(10, 3) / 2**10 = 120 / 1024
        0.117188
        >>> round(float(binomial_pmf(np.arange(11), n=10, theta=0.3).sum()), 12)
        1.0
        >>> binomial_pmf(2, n=-1, theta=0.5)
        Traceback (most recent call last):
            ...
        ValueError: n must be a non-negative integer, got -1

    Equation:
        notes/probability.md#eq:prob-binomial-pmf

    References:
        Notes, section 1.6, Definition 1.11.
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.4.
    """
    n = _check_count(n, "n", maximum=_SCIPY_MAX_COUNT)
    theta = _check_theta(theta)
    values = _check_y(y)
    try:
        pmf = stats.binom.pmf(values, n, theta)
    except OverflowError:  # scipy (Boost's ibeta_derivative) for theta near 2.2e-308
        in_support = (values >= 0) & (values <= n)
        k = np.where(in_support, values, 0.0)
        log_pmf = (
            gammaln(n + 1.0)
            - gammaln(k + 1)
            - gammaln(n - k + 1)  # log C(N, y)
            + xlogy(k, theta)  # y log(theta)
            + xlog1py(n - k, -theta)  # (N - y) log(1 - theta)
        )
        pmf = np.where(in_support, np.exp(log_pmf), 0.0)
    return V.scalar_or_array(pmf, y)


def poisson_pmf(y: ArrayLike, lam: float) -> float | np.ndarray:
    r"""pmf of $Y \sim \mathrm{Poi}(\lambda)$: the number of events in a fixed period.

    $$p(Y = y) = \frac{\lambda^{y} e^{-\lambda}}{y!}, \qquad y = 0, 1, 2, \dots$$

    Args:
        y: Count(s), integers; the support is $\{0, 1, 2, \dots\}$.
        lam: The rate $\lambda \ge 0$, the mean number of events per period
            ($\lambda = 0$ puts all the mass on $y = 0$).

    Returns:
        A float if `y` is a scalar, else an array with the shape of `y`.

    Raises:
        ValueError: If `y` is not integer-valued, or `lam` is negative, infinite or NaN.
        TypeError: If `lam` is not a real number.

    Precision:
        `scipy.stats.poisson`'s: relative error below $10^{-13}\max(1, \lambda)$
        where the value is a normal float; it grows with $\lambda$ (a few $10^{-3}$ at
        $\lambda = 10^{12}$), as $y\log\lambda - \lambda - \log y!$ cancels.

    Examples:
        >>> round(poisson_pmf(0, lam=2.0), 6)   # e**-2
        0.135335
        >>> poisson_pmf([0, 1, 2], lam=0.0)
        array([1., 0., 0.])
        >>> poisson_pmf(1, lam=-1.0)
        Traceback (most recent call last):
            ...
        ValueError: lam must be a non-negative finite number, got -1.0

    Equation:
        notes/probability.md#eq:prob-poisson-pmf

    References:
        Notes, section 1.7, Definition 1.13.
    """
    lam = _check_lam(lam)
    values = _check_y(y)
    return V.scalar_or_array(stats.poisson.pmf(values, lam), y)


def geometric_pmf(y: ArrayLike, theta: float) -> float | np.ndarray:
    r"""pmf of $Y \sim \mathrm{Geo}(\theta)$: the trial on which the first success happens.

    $Y$ counts Bernoulli($\theta$) trials up to and including the first success, so
    $Y = y$ means $y - 1$ failures, each with probability $1 - \theta$, then one
    success:

    $$p(Y = y) = (1-\theta)^{y-1}\,\theta, \qquad y = 1, 2, 3, \dots$$

    Args:
        y: Trial number(s), integers; the support is $\{1, 2, 3, \dots\}$.
        theta: Success probability of each trial, $\theta \in (0, 1]$ (with
            $\theta = 0$ there is never a success, and no distribution).

    Returns:
        A float if `y` is a scalar, else an array with the shape of `y`.

    Raises:
        ValueError: If `y` is not integer-valued or `theta` is outside $(0, 1]$ or NaN.
        TypeError: If `theta` is not a real number.

    Precision:
        Computed as $\exp((y - 1)\log(1 - \theta) + \log\theta)$ from
        `scipy.stats.geom.logpmf`: relative error below $5 \times 10^{-13}$ where the
        value is a normal float, for every $\theta$ (the product
        $(1 - \theta)^{y-1}\theta$ in floating point, as `scipy.stats.geom.pmf`
        computes it, loses about $y$ units in the last place to the rounding of
        $1 - \theta$).

    Examples:
        >>> geometric_pmf([1, 2, 3], theta=0.5)   # 1/2, 1/4, 1/8
        array([0.5  , 0.25 , 0.125])
        >>> geometric_pmf(0, theta=0.5)           # the first trial is y = 1
        0.0
        >>> geometric_pmf(1, theta=0.0)
        Traceback (most recent call last):
            ...
        ValueError: theta must be a probability in (0, 1], got 0.0

    Equation:
        notes/probability.md#eq:prob-geometric-pmf

    References:
        Notes, section 1.8, Definition 1.14 (corrected). Same parameterisation as
        `scipy.stats.geom`.
    """
    theta = _check_theta(theta, low_open=True)
    values = _check_y(y)
    with np.errstate(divide="ignore"):  # log 0 = -inf where the pmf is 0
        return V.scalar_or_array(np.exp(stats.geom.logpmf(values, theta)), y)


# --------------------------------------------------------------- means and variances
def bernoulli_mean_var(theta: float) -> tuple[float, float]:
    r"""Mean and variance of $\mathrm{Ber}(\theta)$: $\mathbb{E}[Y] = \theta$, $\mathrm{Var}[Y] = \theta(1-\theta)$.

    Args:
        theta: Success probability $\theta \in [0, 1]$.

    Returns:
        The pair `(mean, variance)` of floats.

    Raises:
        ValueError: If `theta` is outside $[0, 1]$ or NaN.
        TypeError: If `theta` is not a real number.

    Examples:
        >>> bernoulli_mean_var(0.5)
        (0.5, 0.25)
        >>> from scipy import stats
        >>> tuple(round(float(m), 12) for m in stats.bernoulli.stats(0.5))
        (0.5, 0.25)

    References:
        Notes, section 1.6.1, Definition 1.12 (the pmf; the notes do not state its mean
        and variance, which this site adds).
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.4.
    """
    theta = _check_theta(theta)
    return theta, theta * (1.0 - theta)


def binomial_mean_var(n: int, theta: float) -> tuple[float, float]:
    r"""Mean and variance of $\mathrm{Bin}(N, \theta)$: $N\theta$ and $N\theta(1-\theta)$.

    $Y = \sum_{i=1}^{N} Y_i$ with independent $Y_i \sim \mathrm{Ber}(\theta)$, so by
    linearity $\mathbb{E}[Y] = N\theta$ and, by independence,
    $\mathrm{Var}[Y] = N\theta(1-\theta)$.

    Args:
        n: Number of trials $N \ge 0$.
        theta: Success probability $\theta \in [0, 1]$.

    Returns:
        The pair `(mean, variance)` of floats.

    Raises:
        ValueError: If `n < 0` or `theta` is outside $[0, 1]$ or NaN.
        TypeError: If `n` is not an int.

    Examples:
        >>> mean, var = binomial_mean_var(10, 0.3)
        >>> round(mean, 12), round(var, 12)
        (3.0, 2.1)
        >>> from scipy import stats
        >>> tuple(round(float(m), 12) for m in stats.binom.stats(10, 0.3))
        (3.0, 2.1)

    Equation:
        notes/probability.md#eq:prob-binomial-mean
        notes/probability.md#eq:prob-binomial-var

    References:
        Notes, section 1.6, Definition 1.11. Murphy (2022),
        *Probabilistic Machine Learning: An Introduction*, section 2.4.
    """
    n = _check_count(n, "n")
    theta = _check_theta(theta)
    return n * theta, n * theta * (1.0 - theta)


def poisson_mean_var(lam: float) -> tuple[float, float]:
    r"""Mean and variance of $\mathrm{Poi}(\lambda)$: both equal $\lambda$.

    Args:
        lam: The rate $\lambda \ge 0$.

    Returns:
        The pair `(mean, variance)` of floats.

    Raises:
        ValueError: If `lam` is negative, infinite or NaN.
        TypeError: If `lam` is not a real number.

    Examples:
        >>> poisson_mean_var(4.0)
        (4.0, 4.0)
        >>> from scipy import stats
        >>> tuple(float(m) for m in stats.poisson.stats(4.0))
        (4.0, 4.0)

    Equation:
        notes/probability.md#eq:prob-poisson-moments

    References:
        Notes, section 1.7, Definition 1.13.
    """
    lam = _check_lam(lam)
    return lam, lam


def geometric_mean_var(theta: float) -> tuple[float, float]:
    r"""Mean and variance of $\mathrm{Geo}(\theta)$ on $\{1, 2, \dots\}$: $1/\theta$ and $(1-\theta)/\theta^2$.

    Args:
        theta: Success probability $\theta \in (0, 1]$.

    Returns:
        The pair `(mean, variance)` of floats.

    Raises:
        ValueError: If `theta` is outside $(0, 1]$ or NaN.
        TypeError: If `theta` is not a real number.

    Examples:
        >>> geometric_mean_var(0.25)          # on average 4 trials to the first success
        (4.0, 12.0)
        >>> from scipy import stats
        >>> tuple(float(m) for m in stats.geom.stats(0.25))
        (4.0, 12.0)
        >>> geometric_mean_var(1e-200)        # the variance 1e400 is not a float
        (1e+200, inf)

    Equation:
        notes/probability.md#eq:prob-geometric-mean
        notes/probability.md#eq:prob-geometric-var

    References:
        Notes, section 1.8, Definition 1.14.
    """
    theta = _check_theta(theta, low_open=True)
    with np.errstate(over="ignore"):  # the variance overflows to inf below theta ~ 1e-154
        return float(1.0 / np.float64(theta)), float((1.0 - theta) / np.float64(theta) / theta)


def pmf_mean_var(support: ArrayLike, probabilities: ArrayLike) -> tuple[float, float]:
    r"""Mean and variance computed from a pmf table: $\sum_y y\,p(y)$ and $\sum_y (y - \mu)^2 p(y)$.

    Checks a closed form against the pmf it claims to summarise (for an infinite
    support, pass enough of it that the tail mass is negligible).

    Args:
        support: 1-D array of the values $y$.
        probabilities: 1-D array of $p(Y = y)$, same length, non-negative.

    Returns:
        The pair `(mean, variance)` of floats.

    Raises:
        ValueError: If the arrays are empty or not 1-D of the same length, hold NaN or
            ±inf, or a probability is negative.
        TypeError: If an array holds something other than real numbers.

    Examples:
        The notes' geometric pmf $\theta^{y-1}(1-\theta)$ does not have the mean
        $1/\theta$ the notes state; the corrected pmf does:

        >>> y = np.arange(1, 400)
        >>> theta = 0.25
        >>> [round(m, 6) for m in pmf_mean_var(y, theta ** (y - 1) * (1 - theta))]
        [1.333333, 0.444444]
        >>> [round(m, 6) for m in pmf_mean_var(y, geometric_pmf(y, theta))]
        [4.0, 12.0]

    References:
        Murphy (2022), *Probabilistic Machine Learning: An Introduction*, section 2.2.5
        (moments of a distribution).
    """
    y = V.real_array(support, "support", what="a 1-D array of real numbers")
    p = V.real_array(probabilities, "probabilities", what="a 1-D array of probabilities")
    if y.ndim != 1 or y.shape != p.shape or y.size == 0:
        raise ValueError(
            "support and probabilities must be non-empty, 1-D and of the same length, "
            f"got shapes {y.shape} and {p.shape}"
        )
    if (p < 0).any():
        raise ValueError(f"probabilities must be non-negative, got {V.show(probabilities)}")
    mean = float(np.sum(y * p))
    var = float(np.sum((y - mean) ** 2 * p))
    return mean, var


def binomial_poisson_distance(lam: float, n: int) -> float:
    r"""Total variation distance between $\mathrm{Bin}(N, \lambda/N)$ and $\mathrm{Poi}(\lambda)$.

    $$d_{TV} = \frac{1}{2}\sum_{y=0}^{\infty}
        \left|\mathrm{Bin}(y \mid N, \lambda/N) - \mathrm{Poi}(y \mid \lambda)\right|,$$

    the largest difference between the probabilities the two distributions give to
    any event. Le Cam's inequality bounds it by $N\theta^2 = \lambda^2/N$: the Poisson
    approximates the binomial with many trials and a small success probability.

    The sum runs over the integers $y$ from $\max(0, \lfloor\lambda - r\rfloor)$ to
    $\min(N, \lceil\lambda + r\rceil)$, $r = 10\sqrt{\lambda} + 60$, in chunks; the
    mass of both distributions outside that window is added in full, as a bound on its
    terms. That mass is below $10^{-20}$, except the Poisson's above $N$
    when the window passes $N$, where the binomial's pmf is 0 and the terms are that
    mass. Time grows like $\sqrt{\lambda} + 1$, whatever $N$; memory stays below a few MB.

    Args:
        lam: The mean $\lambda \ge 0$, shared by both distributions.
        n: The number of trials $N \ge 1$, with $N \ge \lambda$ so that
            $\theta = \lambda/N \le 1$.

    Returns:
        The distance, a float in $[0, 1]$.

    Raises:
        ValueError: If `lam` is negative or not finite, `n < 1`, `n > 2**63 - 1`
            (scipy's integers are int64) or `lam > n`.
        TypeError: If `n` is not an integer or `lam` not a real number.

    Precision:
        Absolute error at most half the sum of the relative error bounds of
        [`binomial_pmf`][mlnotes.distributions.binomial_pmf] and
        [`poisson_pmf`][mlnotes.distributions.poisson_pmf] (at most $6 \times 10^{-12}$
        for $N \le 10^4$ and $\lambda \le 10$). Where the distance is of the order of
        that bound (large $N$), few of its digits are right.

    Examples:
        >>> [round(binomial_poisson_distance(3.0, n), 4) for n in (10, 100, 1000)]
        [0.0864, 0.0076, 0.0008]
        >>> binomial_poisson_distance(3.0, 10**9) < 9.0 / 10**9      # Le Cam
        True
        >>> binomial_poisson_distance(3.0, 2)
        Traceback (most recent call last):
            ...
        ValueError: lam must not exceed n (theta = lam / n is a probability), got lam=3.0, n=2

    References:
        Notes, section 1.7. Le Cam, "An approximation theorem for the Poisson binomial
        distribution", Pacific J. Math. 10 (1960).
    """
    n = _check_count(n, "n", minimum=1, maximum=_SCIPY_MAX_COUNT)
    lam = _check_lam(lam)
    if lam > n:
        raise ValueError(
            f"lam must not exceed n (theta = lam / n is a probability), got lam={lam!r}, n={n}"
        )
    theta = lam / n
    # Both distributions have mean lam and variance at most lam: by Bernstein's
    # inequality each puts less than exp(-50) outside lam -/+ (10 sqrt(lam) + 60).
    reach = 10.0 * math.sqrt(lam) + 60.0
    lo, hi = max(0, math.floor(lam - reach)), min(n, math.ceil(lam + reach))
    outside = float(stats.poisson.sf(hi, lam)) + (
        float(stats.binom.sf(hi, n, theta)) if hi < n else 0.0
    )
    if lo > 0:
        outside += float(stats.poisson.cdf(lo - 1, lam)) + float(stats.binom.cdf(lo - 1, n, theta))
    total = []
    for start in range(lo, hi + 1, _CHUNK):
        y = np.arange(start, min(start + _CHUNK, hi + 1), dtype=np.float64)
        total.append(float(np.abs(binomial_pmf(y, n, theta) - poisson_pmf(y, lam)).sum()))
    return 0.5 * (math.fsum(total) + outside)


# Terms summed at a time by binomial_poisson_distance (a few MB of float64 arrays).
_CHUNK = 1 << 17
