"""Tests for mlnotes.distributions: the pmfs against their formulas written out and
against 40-digit arithmetic (the precision each docstring states), the means and
variances against scipy.stats, and the binomial-Poisson distance."""

import math
import signal
import sys
import tracemalloc
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
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

# scipy.stats.binom.pmf raises OverflowError for theta near the smallest float
# (2.2e-308); keep to theta = 0 or theta >= 1e-12, where scipy is a sound reference.
probabilities = st.one_of(st.just(0.0), st.floats(1e-12, 1.0))
open_probabilities = st.floats(0.01, 1.0)  # geometric: theta > 0 (and a short tail)
rates = st.floats(0.0, 50.0)
trials = st.integers(0, 200)


def scipy_mean_var(dist, *args):
    """(mean, variance) from scipy.stats; its skew/kurtosis may divide by 0 at the edges."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        return tuple(float(m) for m in dist.stats(*args, moments="mv"))


# ------------------------------------------------------------------ pmfs vs scipy
@given(theta=probabilities)
def test_bernoulli_pmf_matches_scipy(theta):
    y = np.arange(-2, 4)
    np.testing.assert_allclose(bernoulli_pmf(y, theta), stats.bernoulli.pmf(y, theta), atol=1e-15)


@given(n=trials, theta=probabilities)
def test_binomial_pmf_matches_scipy(n, theta):
    y = np.arange(-2, n + 3)
    np.testing.assert_allclose(
        binomial_pmf(y, n, theta), stats.binom.pmf(y, n, theta), rtol=1e-9, atol=1e-300
    )


@given(lam=rates)
def test_poisson_pmf_matches_scipy(lam):
    y = np.arange(-2, 200)
    np.testing.assert_allclose(
        poisson_pmf(y, lam), stats.poisson.pmf(y, lam), rtol=1e-9, atol=1e-300
    )


@given(theta=open_probabilities)
def test_geometric_pmf_matches_scipy(theta):
    y = np.arange(-1, 300)
    np.testing.assert_allclose(
        geometric_pmf(y, theta), stats.geom.pmf(y, theta), rtol=1e-9, atol=1e-300
    )


def test_binomial_pmf_large_n_does_not_overflow():
    # C(5000, 2500) overflows a float; the log-space formula does not.
    with pytest.raises(OverflowError):
        float(math.comb(5000, 2500))
    value = binomial_pmf(2500, 5000, 0.5)
    assert value == pytest.approx(stats.binom.pmf(2500, 5000, 0.5), rel=1e-9)


def test_binomial_pmf_is_the_written_formula():
    n, theta = 12, 0.37
    for y in range(n + 1):
        expected = math.comb(n, y) * theta**y * (1 - theta) ** (n - y)
        assert binomial_pmf(y, n, theta) == pytest.approx(expected, rel=1e-12)


def test_poisson_pmf_is_the_written_formula():
    lam = 3.5
    for y in range(30):
        expected = lam**y * math.exp(-lam) / math.factorial(y)
        assert poisson_pmf(y, lam) == pytest.approx(expected, rel=1e-12)


def test_geometric_pmf_is_first_success_on_trial_y():
    theta = 0.3
    for y in range(1, 30):
        assert geometric_pmf(y, theta) == pytest.approx((1 - theta) ** (y - 1) * theta, rel=1e-12)


def test_bernoulli_pmf_is_the_written_formula():
    """theta^y (1 - theta)^(1 - y), exactly as Python's floats evaluate it."""
    for theta in (0.0, 1e-300, 0.1, 0.3, 0.5, 0.7, 1 - 1e-16, 1.0):
        for y in (0, 1):
            assert bernoulli_pmf(y, theta) == theta**y * (1 - theta) ** (1 - y)
        assert bernoulli_pmf([-1, 2], theta).tolist() == [0.0, 0.0]


def test_bernoulli_is_binomial_with_one_trial():
    for theta in (0.0, 0.2, 0.5, 1.0):
        np.testing.assert_allclose(bernoulli_pmf([0, 1], theta), binomial_pmf([0, 1], 1, theta))


# ------------------------------------------------------------------ sums to one
@given(n=trials, theta=probabilities)
def test_binomial_sums_to_one(n, theta):
    assert binomial_pmf(np.arange(n + 1), n, theta).sum() == pytest.approx(1.0, abs=1e-9)


@given(lam=rates)
def test_poisson_sums_to_one(lam):
    assert poisson_pmf(np.arange(400), lam).sum() == pytest.approx(1.0, abs=1e-9)


@given(theta=open_probabilities)
def test_geometric_sums_to_one(theta):
    assert geometric_pmf(np.arange(1, 5000), theta).sum() == pytest.approx(1.0, abs=1e-9)


@given(theta=probabilities)
def test_bernoulli_sums_to_one(theta):
    # scipy.stats.bernoulli (Boost's binomial) is within a few ulps, not exact
    assert bernoulli_pmf(np.array([0, 1]), theta).sum() == pytest.approx(1.0, abs=1e-14)


# --------------------------------------------------- means and variances vs scipy
@given(theta=probabilities)
def test_bernoulli_mean_var(theta):
    mean, var = bernoulli_mean_var(theta)
    assert (mean, var) == pytest.approx(scipy_mean_var(stats.bernoulli, theta), abs=1e-12)
    assert (mean, var) == pytest.approx(
        pmf_mean_var([0, 1], bernoulli_pmf([0, 1], theta)), abs=1e-12
    )


@given(n=trials, theta=probabilities)
def test_binomial_mean_var(n, theta):
    mean, var = binomial_mean_var(n, theta)
    assert (mean, var) == pytest.approx(scipy_mean_var(stats.binom, n, theta), abs=1e-9)
    y = np.arange(n + 1)
    assert (mean, var) == pytest.approx(pmf_mean_var(y, binomial_pmf(y, n, theta)), abs=1e-7)


@given(lam=rates)
def test_poisson_mean_var(lam):
    mean, var = poisson_mean_var(lam)
    assert (mean, var) == pytest.approx(scipy_mean_var(stats.poisson, lam), abs=1e-12)
    y = np.arange(400)
    assert (mean, var) == pytest.approx(pmf_mean_var(y, poisson_pmf(y, lam)), abs=1e-7)


@settings(deadline=None)
@given(theta=open_probabilities)
def test_geometric_mean_var(theta):
    mean, var = geometric_mean_var(theta)
    assert (mean, var) == pytest.approx(scipy_mean_var(stats.geom, theta), rel=1e-12)
    y = np.arange(1, 20000)
    assert (mean, var) == pytest.approx(pmf_mean_var(y, geometric_pmf(y, theta)), rel=1e-7)


def test_notes_geometric_pmf_contradicts_the_notes_mean():
    """The notes' pmf theta**(y-1) (1 - theta) has mean 1/(1 - theta), not 1/theta."""
    theta = 0.25
    y = np.arange(1, 2000)
    notes_pmf = theta ** (y - 1) * (1 - theta)
    assert notes_pmf.sum() == pytest.approx(1.0)
    mean, _ = pmf_mean_var(y, notes_pmf)
    assert mean == pytest.approx(1 / (1 - theta))
    assert mean != pytest.approx(geometric_mean_var(theta)[0])


# ------------------------------------------- precision, against 40-digit arithmetic
SMALLEST_NORMAL = sys.float_info.min
DIGITS = mpmath.workdps(40)  # the references' precision (a decorator; no global setting)


@DIGITS
def exact_binomial(y, n, theta):
    t = mpmath.mpf(theta)
    log_choose = mpmath.loggamma(n + 1) - mpmath.loggamma(y + 1) - mpmath.loggamma(n - y + 1)
    return mpmath.exp(log_choose + y * mpmath.log(t) + (n - y) * mpmath.log1p(-t))


@DIGITS
def exact_poisson(y, lam):
    lam = mpmath.mpf(lam)
    return mpmath.exp(y * mpmath.log(lam) - lam - mpmath.loggamma(y + 1))


@DIGITS
def exact_geometric(y, theta):
    t = mpmath.mpf(theta)
    return mpmath.exp((y - 1) * mpmath.log1p(-t)) * t


@DIGITS
def relative_error(got, exact):
    return float(abs(mpmath.mpf(got) - exact) / exact)


@settings(max_examples=150, deadline=None)
@given(
    log_n=st.floats(0, 12),
    theta=st.floats(1e-6, 1 - 1e-6),
    z=st.floats(-40, 40),
)
@example(log_n=4.440567013726904, theta=0.38312530947214435, z=35.21440500184465)
def test_binomial_pmf_precision_bound(log_n, theta, z):
    """The docstring's bound: relative error below 1e-11 + 1e-14 sqrt(N). (Deep in a
    tail the error grows with |log p|, up to 709 for a normal float: 3.5e-12 at N = 27,578,
    y = 13,444, theta = 0.383, p = 6.5e-272, which the earlier 1e-12 term missed.)"""
    n = int(10**log_n)
    y = int(np.clip(round(n * theta + z * (math.sqrt(n * theta * (1 - theta)) + 1)), 0, n))
    exact = exact_binomial(y, n, theta)
    assume(exact >= SMALLEST_NORMAL)
    assert relative_error(binomial_pmf(y, n, theta), exact) < 1e-11 + 1e-14 * math.sqrt(n)


@settings(max_examples=150, deadline=None)
@given(log_lam=st.floats(-3, 12), z=st.floats(-35, 35))
def test_poisson_pmf_precision_bound(log_lam, z):
    """The docstring's bound: relative error below 1e-13 max(1, lam)."""
    lam = 10**log_lam
    y = max(0, round(lam + z * (math.sqrt(lam) + 1)))
    exact = exact_poisson(y, lam)
    assume(exact >= SMALLEST_NORMAL)
    assert relative_error(poisson_pmf(y, lam), exact) < 1e-13 * max(1.0, lam)


@settings(max_examples=150, deadline=None)
@given(log_theta=st.floats(-12, 0), spread=st.floats(0, 700))
def test_geometric_pmf_precision_bound(log_theta, spread):
    """The docstring's bound: relative error below 5e-13 for every theta (the product
    (1 - theta)^(y - 1) theta in floats loses about y ulps)."""
    theta = 10**log_theta
    y = 1 + int(spread / theta)
    exact = exact_geometric(y, theta)
    assume(exact >= SMALLEST_NORMAL)
    assert relative_error(geometric_pmf(y, theta), exact) < 5e-13


def test_the_geometric_pmf_keeps_its_digits_where_the_product_loses_them():
    theta, y = 1e-12, 10**13  # (1 - theta)^(y - 1) theta: 1 - theta rounded, then y powers
    exact = exact_geometric(y, theta)
    assert relative_error(geometric_pmf(y, theta), exact) < 5e-13
    assert relative_error((1 - theta) ** (y - 1) * theta, exact) > 1e-4


# ------------------------------------------------------ Poisson approximates Bin
@DIGITS
def exact_distance(lam, n):
    """Total variation distance in 40-digit arithmetic, every term up to min(n, ...)."""
    top = min(n, int(lam + 40 * math.sqrt(lam) + 100))
    theta, inside, b_mass, p_mass = mpmath.mpf(lam) / n, mpmath.mpf(0), 0, 0
    for y in range(top + 1):
        if 0 < theta < 1:
            b = exact_binomial(y, n, theta)
        else:  # all the mass on 0 (theta = 0) or on n (theta = 1)
            b = mpmath.mpf(y == (0 if theta == 0 else n))
        p = exact_poisson(y, lam) if lam > 0 else mpmath.mpf(y == 0)
        inside += abs(b - p)
        b_mass += b
        p_mass += p
    return (inside + (1 - b_mass) + (1 - p_mass)) / 2


@pytest.mark.parametrize(
    ("lam", "n"),
    [
        (0.5, 20),
        (3.0, 10),
        (3.0, 100),
        (3.0, 1000),
        (10.0, 40),
        (10.0, 10**4),
        (4.0, 4),
        (0.0, 7),
        (0.5, 1),  # windows of one and two terms
        (1.0, 1),
        (0.3, 2),
    ],
)
def test_binomial_poisson_distance_against_40_digit_arithmetic(lam, n):
    """Within the docstring's bound, half the pmfs' bounds: 2e-12 for these."""
    got = binomial_poisson_distance(lam, n)
    assert abs(mpmath.mpf(got) - exact_distance(lam, n)) < 2e-12
    assert got <= lam**2 / n  # Le Cam's bound


@pytest.mark.parametrize("lam", [0.5, 3.0, 10.0])
def test_binomial_poisson_distance_shrinks_like_one_over_n(lam):
    distances = [binomial_poisson_distance(lam, n) for n in (20, 200, 2000, 20000)]
    assert all(d <= lam**2 / n for d, n in zip(distances, (20, 200, 2000, 20000)))
    ratios = [a / b for a, b in zip(distances, distances[1:])]
    assert all(r > 1 for r in ratios) and 9 < ratios[-1] < 11


def test_binomial_poisson_distance_at_a_billion_trials_in_bounded_time_and_memory():
    """N = 10^9 (whose n + 1 terms once filled the memory): under 10 s (a generous
    alarm, not a benchmark) and 200 MB of allocations, and right: against 40-digit
    arithmetic and under Le Cam's bound; so is N = 10^12."""

    def too_slow(signum, frame):
        raise TimeoutError("binomial_poisson_distance took more than 10 s")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(10)
    tracemalloc.start()
    try:
        got = binomial_poisson_distance(3.0, 10**9)
        at_a_trillion = binomial_poisson_distance(3.0, 10**12)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert peak < 200e6
    exact = exact_distance(3.0, 10**9)
    assert abs(mpmath.mpf(got) - exact) < 1e-15 and got < 9.0 / 10**9
    assert abs(mpmath.mpf(at_a_trillion) - exact_distance(3.0, 10**12)) < 1e-15
    assert at_a_trillion < 9.0 / 10**12


# ------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: bernoulli_pmf(1, -0.1), "theta must be a probability in \\[0, 1\\], got -0.1"),
        (lambda: bernoulli_pmf(1, float("nan")), "theta must be a probability"),
        (lambda: bernoulli_pmf(0.5, 0.3), "y must be integer-valued"),
        (lambda: bernoulli_pmf(float("nan"), 0.3), "y must not contain NaN"),
        (lambda: binomial_pmf(1, -3, 0.5), "n must be a non-negative integer, got -3"),
        (lambda: binomial_pmf(1, 3, 1.5), "theta must be a probability"),
        (lambda: poisson_pmf(1, -0.5), "lam must be a non-negative finite number, got -0.5"),
        (lambda: poisson_pmf(1, float("inf")), "lam must be a non-negative finite number"),
        (lambda: poisson_pmf(1, float("nan")), "lam must be a non-negative finite number"),
        (lambda: geometric_pmf(1, 0.0), "theta must be a probability in \\(0, 1\\], got 0.0"),
        (lambda: geometric_pmf(1, 2.0), "theta must be a probability in \\(0, 1\\]"),
        (lambda: binomial_mean_var(-1, 0.5), "n must be a non-negative integer"),
        (lambda: poisson_mean_var(-1.0), "lam must be"),
        (lambda: geometric_mean_var(0.0), "theta must be"),
        (lambda: bernoulli_mean_var(1.01), "theta must be"),
        (lambda: binomial_poisson_distance(5.0, 4), "lam must not exceed n"),
        (lambda: binomial_poisson_distance(1.0, 0), "n must be a positive integer, got 0"),
        (lambda: pmf_mean_var([0, 1], [0.5, -0.5]), "non-negative"),
        (lambda: pmf_mean_var([0, 1, 2], [0.5, 0.5]), "same length"),
    ],
)
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: binomial_pmf(1, 2.5, 0.5),
        lambda: binomial_pmf(1, True, 0.5),
        lambda: bernoulli_pmf(1, "0.3"),
        lambda: poisson_pmf(1, None),
        lambda: bernoulli_pmf("one", 0.3),
    ],
)
def test_wrong_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_scalar_in_scalar_out_array_in_array_out():
    assert isinstance(poisson_pmf(2, 1.0), float)
    out = poisson_pmf(np.arange(6).reshape(2, 3), 1.0)
    assert isinstance(out, np.ndarray) and out.shape == (2, 3)


@pytest.mark.parametrize(
    "n, theta",
    [(1, 5.62341325190349e-309), (10, 3e-308)],  # subnormal and normal theta
)
def test_binomial_pmf_where_scipy_overflows_is_the_formula(n, theta):
    """For theta near 2.2e-308 scipy's binom.pmf raises OverflowError (Boost's
    ibeta_derivative); binomial_pmf then evaluates C(N, y) theta^y (1 - theta)^(N - y) in
    logs. Against the formula in 40-digit arithmetic (mpmath), y = -1 .. N + 1 and
    -/+1e306 (0 outside the support, where the log-space terms alone would give nan)."""
    y = np.array([-1e306, *range(-1, n + 2), 1e306])
    with pytest.raises(OverflowError):  # else this test no longer runs the fallback
        stats.binom.pmf(y, n, theta)
    with mpmath.workdps(40):
        t = mpmath.mpf(theta)
        exact = [
            float(mpmath.binomial(n, k) * t**k * (1 - t) ** (n - k)) if 0 <= k <= n else 0.0
            for k in range(-1, n + 2)
        ]
    exact = [0.0, *exact, 0.0]
    got = binomial_pmf(y, n, theta)
    assert got.dtype == np.float64 and got.shape == y.shape
    assert exact[3] > 0  # y = 1: a non-zero pmf, subnormal for N = 1
    for value, reference in zip(got.tolist(), exact):
        assert value == pytest.approx(reference, rel=1e-12, abs=0)


@pytest.mark.parametrize("n", [250, 1000])
def test_binomial_poisson_distance_with_every_trial_a_success(n):
    """lam = N (theta = 1): Bin(N, 1) is all at y = N, so d_TV = (1 - Poi(N | N) + 1 -
    Poi(N | N)) / 2 = 1 - N^N e^-N / N!, in 40 digits. The window (lam -/+ 10 sqrt(lam) +
    60) is cut at N above and starts above 0: the Poisson mass above N (about 1/2) and
    below the window are both part of the sum. Within the docstring's bound."""
    with mpmath.workdps(40):
        exact = 1 - mpmath.exp(n * mpmath.log(n) - n - mpmath.loggamma(n + 1))
    bound = 0.5 * (1e-11 + 1e-14 * math.sqrt(n) + 1e-13 * n)
    assert abs(mpmath.mpf(binomial_poisson_distance(float(n), n)) - exact) < bound


def test_binomial_poisson_distance_summed_over_several_chunks():
    """lam = 1e8: the window lam -/+ (10 sqrt(lam) + 60) holds about 2e5 terms, summed in
    more than one chunk. Against half the sum of |binom.pmf - poisson.pmf| written out over
    lam -/+ 3e5 in one array (30 standard deviations each side)."""
    lam, n = 1e8, 10**12
    y = np.arange(lam - 3e5, lam + 3e5 + 1)
    reference = 0.5 * np.abs(stats.binom.pmf(y, n, lam / n) - stats.poisson.pmf(y, lam)).sum()
    assert binomial_poisson_distance(lam, n) == pytest.approx(reference, rel=1e-12)


@pytest.mark.parametrize(
    ("support", "probabilities", "error", "message"),
    [
        (
            [["a"]],
            [1.0],
            TypeError,
            "support must be a 1-D array of real numbers, got [['a']] (dtype <U1)",
        ),
        (
            [0.0],
            [["a"]],
            TypeError,
            "probabilities must be a 1-D array of probabilities, got [['a']] (dtype <U1)",
        ),
        (
            [0.0, 1.0],
            [1.0],
            ValueError,
            "support and probabilities must be non-empty, 1-D and of the same length, "
            "got shapes (2,) and (1,)",
        ),
        (
            [0.0, 1.0],
            [1.5, -0.5],
            ValueError,
            "probabilities must be non-negative, got [1.5, -0.5]",
        ),
    ],
)
def test_pmf_mean_var_errors_in_full(support, probabilities, error, message):
    with pytest.raises(error) as info:
        pmf_mean_var(support, probabilities)
    assert str(info.value) == message


def test_geometric_mean_var_overflow_is_inf_without_a_warning():
    """theta = 1e-200: mean 1e200; variance (1 - theta) / theta^2 = 1e400, beyond the
    largest float: inf, silently."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mean, var = geometric_mean_var(1e-200)
    assert mean == pytest.approx(1e200, rel=1e-15) and var == math.inf


@pytest.mark.parametrize(
    "call",
    [
        lambda n: binomial_pmf(1, n, 0.5),
        lambda n: binomial_poisson_distance(3.0, n),
    ],
    ids=["binomial_pmf", "binomial_poisson_distance"],
)
def test_a_trial_count_past_scipys_int64_is_refused_by_name(call):
    """scipy.stats' binomial holds n in int64: past it scipy raised a TypeError about a
    ufunc loop that named no argument; the largest int64 still works."""
    with pytest.raises(ValueError) as err:
        call(2**63)
    assert str(err.value) == f"n must be at most {2**63 - 1}, got {2**63}"
    with pytest.raises(ValueError, match=r"^n must be at most 9223372036854775807, got 10{20}$"):
        call(10**20)
    assert math.isfinite(call(2**63 - 1))
