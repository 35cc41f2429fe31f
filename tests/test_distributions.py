"""Tests for mlnotes.distributions: every pmf, mean and variance against scipy.stats."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
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


# ------------------------------------------------------ Poisson approximates Bin
@pytest.mark.parametrize("lam", [0.5, 3.0, 10.0])
def test_binomial_poisson_distance_matches_scipy_and_shrinks(lam):
    distances = []
    for n in (20, 200, 2000):
        y = np.arange(n + 400)
        expected = 0.5 * np.abs(stats.binom.pmf(y, n, lam / n) - stats.poisson.pmf(y, lam)).sum()
        distance = binomial_poisson_distance(lam, n)
        assert distance == pytest.approx(expected, rel=1e-6, abs=1e-12)
        assert distance <= lam**2 / n  # Le Cam's bound
        distances.append(distance)
    assert distances[0] > distances[1] > distances[2]


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
