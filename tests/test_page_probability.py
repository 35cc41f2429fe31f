"""Guards for docs/notes/probability.md that do not teach, so they are not on the page.

- The table "The four distributions side by side": each pmf, written as the table
  writes it, against `scipy.stats` on its support, and each mean and variance against
  `scipy.stats` and against `mlnotes.distributions`.
- The Monty Hall correction: "whichever door the contestant picks first and whichever
  door the host opens" (all six cases), against a brute-force enumeration of the games.
- The symmetry correction: the pdf of N(mu, sigma^2) is even exactly when mu = 0,
  whatever sigma.
- The Poisson correction's "at a fixed lambda the error falls like 1/N" (and not at a
  fixed theta); sources.md's "p(H = h) = 1/2 ... conditional on C = 1"; the probit note.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy import stats

from mlnotes.distributions import (
    binomial_poisson_distance,
    bernoulli_mean_var,
    binomial_mean_var,
    geometric_mean_var,
    poisson_mean_var,
)
from mlnotes.probability import monty_hall_posterior, normal_pdf, normal_ppf

# The table's rows: pmf as the table writes it, support (truncated), mean, variance.
TABLE = {
    "Ber": (
        lambda y, t: t**y * (1 - t) ** (1 - y),
        lambda t: range(2),
        lambda t: t,
        lambda t: t * (1 - t),
    ),
    "Geo": (
        lambda y, t: (1 - t) ** (y - 1) * t,
        lambda t: range(1, 2000),
        lambda t: 1 / t,
        lambda t: (1 - t) / t**2,
    ),
}


@pytest.mark.parametrize(
    ("row", "dist", "mean_var", "theta"),
    [("Ber", stats.bernoulli, bernoulli_mean_var, t) for t in (0.05, 0.3, 0.5, 0.9)]
    + [("Geo", stats.geom, geometric_mean_var, t) for t in (0.05, 0.25, 0.5, 0.9)],
)
def test_bernoulli_and_geometric_rows(row, dist, mean_var, theta):
    pmf, support, mean, var = TABLE[row]
    y = np.array(list(support(theta)))
    np.testing.assert_allclose(pmf(y, theta), dist.pmf(y, theta))
    np.testing.assert_allclose((mean(theta), var(theta)), dist.stats(theta))
    np.testing.assert_allclose(mean_var(theta), dist.stats(theta))


@pytest.mark.parametrize(("n", "theta"), [(1, 0.3), (10, 0.3), (25, 0.8), (60, 0.02)])
def test_binomial_row(n, theta):
    y = np.arange(n + 1)
    pmf = np.array([math.comb(n, k) * theta**k * (1 - theta) ** (n - k) for k in y])
    np.testing.assert_allclose(pmf, stats.binom.pmf(y, n, theta), rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose((n * theta, n * theta * (1 - theta)), stats.binom.stats(n, theta))
    np.testing.assert_allclose(binomial_mean_var(n, theta), stats.binom.stats(n, theta))


@pytest.mark.parametrize("lam", [0.5, 4.0, 30.0])
def test_poisson_row(lam):
    y = np.arange(150)
    pmf = np.array([lam**k * math.exp(-lam) / math.factorial(k) for k in y])
    np.testing.assert_allclose(pmf, stats.poisson.pmf(y, lam), rtol=1e-10, atol=1e-300)
    np.testing.assert_allclose((lam, lam), stats.poisson.stats(lam))
    np.testing.assert_allclose(poisson_mean_var(lam), stats.poisson.stats(lam))


def _brute_force(chosen, opened):
    """P(prize behind each door | chosen, host opened `opened`), by enumerating games."""
    weights = {door: Fraction(0) for door in (1, 2, 3)}
    for prize in (1, 2, 3):
        options = [d for d in (1, 2, 3) if d not in (chosen, prize)]
        for door in options:  # the host picks uniformly among the doors he may open
            if door == opened:
                weights[prize] += Fraction(1, 3) * Fraction(1, len(options))
    total = sum(weights.values())
    return {door: w / total for door, w in weights.items()}


@pytest.mark.parametrize(
    ("chosen", "opened"), [(c, h) for c, h in itertools.product((1, 2, 3), repeat=2) if c != h]
)
def test_monty_hall_all_six_cases(chosen, opened):
    posterior = monty_hall_posterior(chosen=chosen, opened=opened)
    assert posterior == _brute_force(chosen, opened)
    assert posterior[chosen] == Fraction(1, 3)
    assert posterior[6 - chosen - opened] == Fraction(2, 3)


@pytest.mark.parametrize("sigma", [0.1, 1.0, 3.0, 50.0])
def test_normal_pdf_is_even_when_mu_is_zero_whatever_sigma(sigma):
    x = np.linspace(-5 * sigma, 5 * sigma, 101)
    np.testing.assert_array_equal(normal_pdf(x, 0.0, sigma), normal_pdf(-x, 0.0, sigma))
    assert normal_ppf(0.975, 0.0, sigma) == pytest.approx(-normal_ppf(0.025, 0.0, sigma))


@pytest.mark.parametrize("mu", [-2.0, 0.5, 7.0])
def test_normal_pdf_is_not_even_when_mu_is_not_zero(mu):
    assert normal_pdf(1.0, mu, 1.0) != pytest.approx(normal_pdf(-1.0, mu, 1.0))
    lo, hi = normal_ppf(0.025, mu, 1.0), normal_ppf(0.975, mu, 1.0)
    assert hi == pytest.approx(2 * mu - lo)


def test_poisson_error_falls_like_one_over_n_at_fixed_lambda_only():
    """The Poisson correction: "at a fixed lambda the error falls like 1/N". At a fixed
    theta (lambda = N theta grows) it does not fall at all."""
    ns = [100, 1000, 10000]
    scaled = [n * binomial_poisson_distance(3.0, n) for n in ns]  # N * d_TV at lambda = 3
    assert max(scaled) / min(scaled) < 1.02
    fixed_theta = [binomial_poisson_distance(0.1 * n, n) for n in ns]
    assert min(fixed_theta) > 0.025
    assert fixed_theta[0] / fixed_theta[-1] < 1.02


def test_monty_hall_host_probability_is_conditional_on_the_first_choice():
    """sources.md, correction 6: p(H = 2) = 1/2 given C = 1, 1/3 for a uniform first choice."""

    def p_host_opens(door, chosen):
        total = Fraction(0)
        for prize in (1, 2, 3):
            options = [d for d in (1, 2, 3) if d not in (chosen, prize)]
            if door in options:
                total += Fraction(1, 3) * Fraction(1, len(options))
        return total

    assert p_host_opens(2, chosen=1) == Fraction(1, 2)
    assert sum(Fraction(1, 3) * p_host_opens(2, chosen=c) for c in (1, 2, 3)) == Fraction(1, 3)


@pytest.mark.parametrize(("mu", "sigma"), [(0.0, 1.0), (3.0, 2.0), (-1.0, 0.5)])
def test_the_normal_ppf_is_the_probit_rescaled(mu, sigma):
    """The probit note: the probit is Phi^{-1}; the ppf of N(mu, sigma^2) is
    mu + sigma Phi^{-1}(z), which is the probit only for mu = 0, sigma = 1."""
    z = np.array([0.01, 0.2, 0.5, 0.9, 0.999])
    with mpmath.workdps(30):  # Phi^{-1}(z) = sqrt(2) erfinv(2z - 1), not scipy's own ndtri
        probit = np.array([float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(q) - 1)) for q in z])
    np.testing.assert_allclose(
        normal_ppf(z, mu, sigma), mu + sigma * probit, rtol=1e-12, atol=1e-12
    )
    assert np.allclose(normal_ppf(z, mu, sigma), probit) is (mu == 0.0 and sigma == 1.0)
