"""Tests for mlnotes.probability: the normal, joint tables, Bayes' rule, Monty Hall."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, stats

from mlnotes.probability import (
    bayes_posterior,
    central_interval,
    is_independent,
    marginal,
    monty_hall_posterior,
    monty_hall_wins,
    normal_cdf,
    normal_pdf,
    normal_ppf,
    simulate_monty_hall,
)

TABLE_1 = [[0.3, 0.2], [0.2, 0.3]]

locations = st.floats(-1e3, 1e3)
scales = st.floats(1e-3, 1e3)
points = st.floats(-1e4, 1e4)
quantiles = st.floats(0.0, 1.0)


# ---------------------------------------------------------------------- the normal
@given(x=points, mu=locations, sigma=scales)
def test_normal_pdf_and_cdf_match_scipy(x, mu, sigma):
    assert normal_pdf(x, mu, sigma) == pytest.approx(
        stats.norm.pdf(x, mu, sigma), rel=1e-12, abs=1e-300
    )
    assert normal_cdf(x, mu, sigma) == pytest.approx(
        stats.norm.cdf(x, mu, sigma), rel=1e-12, abs=1e-300
    )


@given(x=st.floats(-30, 30), mu=st.floats(-10, 10), sigma=st.floats(0.1, 10))
def test_normal_pdf_is_the_notes_formula(x, mu, sigma):
    expected = math.exp(-((x - mu) ** 2) / (2 * sigma**2)) / math.sqrt(2 * math.pi * sigma**2)
    assert normal_pdf(x, mu, sigma) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@given(q=quantiles, mu=locations, sigma=scales)
def test_normal_ppf_matches_scipy_and_inverts_cdf(q, mu, sigma):
    x = normal_ppf(q, mu, sigma)
    assert x == pytest.approx(stats.norm.ppf(q, mu, sigma), rel=1e-12)
    if 1e-10 < q < 1 - 1e-10:
        assert normal_cdf(x, mu, sigma) == pytest.approx(q, rel=1e-9)


def test_ppf_edges_are_infinite_not_nan():
    assert normal_ppf(0.0) == -math.inf
    assert normal_ppf(1.0) == math.inf


def test_worked_example_ppf_0025():
    assert round(normal_ppf(0.025), 2) == -1.96
    assert normal_ppf(0.975) == pytest.approx(-normal_ppf(0.025))


def test_density_integrates_to_one_and_cdf_is_its_integral():
    total, _ = integrate.quad(normal_pdf, -math.inf, math.inf)
    assert total == pytest.approx(1.0)
    area, _ = integrate.quad(normal_pdf, -1.0, 2.0, args=(0.5, 1.5))
    assert area == pytest.approx(normal_cdf(2.0, 0.5, 1.5) - normal_cdf(-1.0, 0.5, 1.5))


def test_density_derivative_of_cdf():
    h = 1e-6
    for x in (-2.0, 0.0, 0.7):
        slope = (normal_cdf(x + h, 1.0, 2.0) - normal_cdf(x - h, 1.0, 2.0)) / (2 * h)
        assert slope == pytest.approx(normal_pdf(x, 1.0, 2.0), rel=1e-6)


def test_arrays_keep_their_shape():
    x = np.linspace(-3, 3, 12).reshape(3, 4)
    assert normal_pdf(x).shape == (3, 4)
    assert normal_cdf(x).shape == (3, 4)
    assert normal_ppf(np.full((2, 5), 0.3)).shape == (2, 5)
    assert isinstance(normal_pdf(0.0), float)


@given(coverage=st.floats(0.0, 1.0), mu=locations, sigma=scales)
def test_central_interval_has_the_coverage_and_is_symmetric(coverage, mu, sigma):
    lo, hi = central_interval(coverage, mu, sigma)
    assert lo <= mu <= hi
    if 0 < coverage < 1:
        assert (mu - lo) == pytest.approx(hi - mu, rel=1e-9, abs=1e-9 * sigma)
        assert normal_cdf(hi, mu, sigma) - normal_cdf(lo, mu, sigma) == pytest.approx(
            coverage, abs=1e-9
        )


def test_95_percent_interval_is_mu_pm_196_sigma_not_mu_pm_sigma():
    lo, hi = central_interval(0.95, mu=10.0, sigma=3.0)
    assert (round(lo, 2), round(hi, 2)) == (round(10 - 1.96 * 3, 2), round(10 + 1.96 * 3, 2))
    # mu +/- sigma holds only about 68%; mu +/- 2 sigma about 95%.
    assert normal_cdf(1.0) - normal_cdf(-1.0) == pytest.approx(0.6827, abs=1e-4)
    assert normal_cdf(2.0) - normal_cdf(-2.0) == pytest.approx(0.9545, abs=1e-4)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: normal_ppf(1.5), "q must be a probability in \\[0, 1\\], got 1.5"),
        (lambda: normal_ppf(-0.1), "q must be a probability"),
        (lambda: normal_ppf(float("nan")), "q must not contain NaN"),
        (lambda: normal_ppf([0.2, 1.2]), "q must be a probability"),
        (lambda: normal_pdf(0.0, sigma=0.0), "sigma must be positive and finite, got 0.0"),
        (lambda: normal_cdf(0.0, sigma=-1.0), "sigma must be positive and finite, got -1.0"),
        (lambda: normal_ppf(0.5, sigma=float("nan")), "sigma must be positive"),
        (lambda: normal_pdf(0.0, mu=float("inf")), "mu must be a finite real number, got inf"),
        (lambda: normal_pdf(float("nan")), "x must not contain NaN"),
        (lambda: normal_cdf([0.0, float("nan")]), "x must not contain NaN"),
        (lambda: central_interval(1.5), "coverage must be a probability"),
        (lambda: central_interval(0.95, sigma=0), "sigma must be positive"),
    ],
)
def test_normal_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(
    "call",
    [lambda: normal_pdf("a"), lambda: normal_pdf(0.0, mu="0"), lambda: normal_ppf(0.5, sigma=None)],
)
def test_normal_wrong_types(call):
    with pytest.raises(TypeError):
        call()


# ---------------------------------------------------------------- joint tables
def test_table_1_marginals_and_dependence():
    np.testing.assert_allclose(marginal(TABLE_1, axis=0), [0.5, 0.5])
    np.testing.assert_allclose(marginal(TABLE_1, axis=1), [0.5, 0.5])
    assert is_independent(TABLE_1) is False


def test_marginal_axis_names_the_kept_variable():
    joint = np.array([[0.1, 0.2, 0.3], [0.1, 0.1, 0.2]])
    np.testing.assert_allclose(marginal(joint, 0), [0.6, 0.4])
    np.testing.assert_allclose(marginal(joint, 1), [0.2, 0.3, 0.5])


@given(
    px=st.lists(st.floats(0.01, 1.0), min_size=1, max_size=6),
    py=st.lists(st.floats(0.01, 1.0), min_size=1, max_size=6),
)
def test_outer_product_of_marginals_is_independent(px, py):
    px = np.array(px) / sum(px)
    py = np.array(py) / sum(py)
    joint = np.outer(px, py)
    joint /= joint.sum()
    assert is_independent(joint)
    np.testing.assert_allclose(marginal(joint, 0), px, atol=1e-12)
    np.testing.assert_allclose(marginal(joint, 1), py, atol=1e-12)


@pytest.mark.parametrize(
    "joint, match",
    [
        ([[0.6, -0.1], [0.2, 0.3]], "joint must not have negative entries"),
        ([[0.5, 0.5], [0.5, 0.5]], "joint must sum to 1, got a table summing to 2.0"),
        ([0.5, 0.5], "joint must be a 2-D table"),
        ([[0.5, float("nan")], [0.25, 0.25]], "joint must not contain NaN"),
    ],
)
def test_bad_joint_tables(joint, match):
    with pytest.raises(ValueError, match=match):
        marginal(joint, 0)
    with pytest.raises(ValueError, match=match):
        is_independent(joint)


def test_marginal_bad_axis():
    with pytest.raises(ValueError, match="axis must be 0"):
        marginal(TABLE_1, 2)


# ------------------------------------------------------------------- Bayes' rule
@given(
    prior=st.lists(st.floats(0.01, 1.0), min_size=1, max_size=8),
    data=st.data(),
)
def test_bayes_posterior_is_normalised_product(prior, data):
    prior = np.array(prior) / sum(prior)
    likelihood = np.array(
        data.draw(st.lists(st.floats(0.01, 1.0), min_size=len(prior), max_size=len(prior)))
    )
    posterior = bayes_posterior(prior, likelihood)
    assert posterior.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(posterior, prior * likelihood / np.sum(prior * likelihood))


def test_bayes_posterior_exact_with_fractions():
    third = Fraction(1, 3)
    posterior = bayes_posterior([third] * 3, [Fraction(1, 2), 1, 0])
    assert list(posterior) == [Fraction(1, 3), Fraction(2, 3), Fraction(0)]
    assert all(isinstance(p, Fraction) for p in posterior)


@pytest.mark.parametrize(
    "prior, likelihood, match",
    [
        ([0.5, 0.6], [0.5, 0.5], "prior must sum to 1"),
        ([1.2, -0.2], [0.5, 0.5], "prior must hold probabilities in \\[0, 1\\]"),
        ([0.5, 0.5], [0.5, 1.5], "likelihood must hold probabilities"),
        ([0.5, 0.5], [0.5, float("nan")], "likelihood must not contain NaN"),
        ([0.5, 0.5], [0.5, 0.5, 0.5], "same length"),
        ([0.5, 0.5], [0.0, 0.0], "the observation is impossible"),
        ([[0.5, 0.5]], [0.5, 0.5], "prior must be a non-empty 1-D sequence"),
        ([Fraction(1, 2), Fraction(1, 3)], [1, 1], "prior must sum to 1"),
    ],
)
def test_bayes_bad_input(prior, likelihood, match):
    with pytest.raises(ValueError, match=match):
        bayes_posterior(prior, likelihood)


# -------------------------------------------------------------------- Monty Hall
def test_monty_hall_equations_15_to_18():
    after_2 = monty_hall_posterior(chosen=1, opened=2)
    after_3 = monty_hall_posterior(chosen=1, opened=3)
    assert after_2[1] == Fraction(1, 3)  # (15)
    assert after_3[1] == Fraction(1, 3)  # (16)
    assert after_3[2] == Fraction(2, 3)  # (17)
    assert after_2[3] == Fraction(2, 3)  # (18)
    assert after_2[2] == 0 and after_3[3] == 0


@pytest.mark.parametrize("chosen", [1, 2, 3])
@pytest.mark.parametrize("opened", [1, 2, 3])
def test_monty_hall_switching_always_wins_two_thirds(chosen, opened):
    if chosen == opened:
        with pytest.raises(ValueError, match="opened must differ from chosen"):
            monty_hall_posterior(chosen, opened)
        return
    posterior = monty_hall_posterior(chosen, opened)
    other = 6 - chosen - opened
    assert posterior == {chosen: Fraction(1, 3), other: Fraction(2, 3), opened: Fraction(0)}
    assert sum(posterior.values()) == 1


def test_monty_hall_posterior_matches_brute_force_enumeration():
    """Enumerate (prize, host coin) with their probabilities; condition by counting."""
    for chosen in (1, 2, 3):
        for opened in set((1, 2, 3)) - {chosen}:
            joint = {door: Fraction(0) for door in (1, 2, 3)}
            for prize in (1, 2, 3):
                options = [d for d in (1, 2, 3) if d not in (chosen, prize)]
                for door in options:
                    if door == opened:
                        joint[prize] += Fraction(1, 3) * Fraction(1, len(options))
            evidence = sum(joint.values())
            assert monty_hall_posterior(chosen, opened) == {
                d: p / evidence for d, p in joint.items()
            }


@pytest.mark.parametrize(
    "chosen, opened, error",
    [
        (0, 1, ValueError),
        (1, 4, ValueError),
        (1.0, 2, TypeError),
        (True, 2, TypeError),
        ("1", 2, TypeError),
    ],
)
def test_monty_hall_bad_doors(chosen, opened, error):
    with pytest.raises(error, match="must be a door number 1, 2 or 3"):
        monty_hall_posterior(chosen, opened)


def test_simulation_converges_to_the_exact_posterior():
    assert simulate_monty_hall(200_000, switch=True) == pytest.approx(2 / 3, abs=0.005)
    assert simulate_monty_hall(200_000, switch=False) == pytest.approx(1 / 3, abs=0.005)


def test_simulation_is_seeded_and_plays_the_same_games_for_both_strategies():
    assert simulate_monty_hall(5000, True, seed=7) == simulate_monty_hall(5000, True, seed=7)
    switch, stay = monty_hall_wins(5000, True, seed=3), monty_hall_wins(5000, False, seed=3)
    assert (switch ^ stay).all()


@pytest.mark.parametrize(
    "args, error, match",
    [
        ((0, True), ValueError, "n_games must be a positive integer, got 0"),
        ((-5, True), ValueError, "n_games must be a positive integer, got -5"),
        ((10.0, True), TypeError, "n_games must be an integer"),
        ((10, "yes"), TypeError, "switch must be True or False"),
        ((10, 1), TypeError, "switch must be True or False"),
    ],
)
def test_simulation_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        simulate_monty_hall(*args)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rtol": -0.1}, "rtol must be a real number in [0, 1), got -0.1"),
        ({"rtol": 1.0}, "rtol must be a real number in [0, 1), got 1.0"),
        ({"rtol": 1.5}, "rtol must be a real number in [0, 1), got 1.5"),
        ({"atol": -1e-3}, "atol must be a real number in [0, inf), got -0.001"),
    ],
)
def test_is_independent_tolerance_errors_in_full(kwargs, message):
    with pytest.raises(ValueError) as info:
        is_independent([[0.25, 0.25], [0.25, 0.25]], **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("joint", "rtol", "atol", "expected"),
    [
        # marginals 0.5 and 0.5: the product table is 0.25 everywhere, exactly
        ([[0.25, 0.25], [0.25, 0.25]], 0.0, 0.0, True),  # equal: within zero tolerance
        ([[0.26, 0.24], [0.24, 0.26]], 0.0, 0.02, True),  # 0.01 off, within atol
        ([[0.26, 0.24], [0.24, 0.26]], 0.0, 0.005, False),  # 0.01 off, beyond atol
        ([[0.26, 0.24], [0.24, 0.26]], 0.05, 0.0, True),  # 0.01 <= 0.05 * 0.26
        ([[0.26, 0.24], [0.24, 0.26]], 0.03, 0.0, False),  # 0.01 > 0.03 * 0.26
    ],
)
def test_is_independent_tolerances(joint, rtol, atol, expected):
    """|p(x, y) - p(x) p(y)| <= rtol max(p(x, y), p(x) p(y)) + atol, the product by hand."""
    assert is_independent(joint, rtol=rtol, atol=atol) is expected


def test_defaults_are_the_documented_ones():
    """monty_hall_posterior(): chose door 1, host opened 3 (the notes' game, by hand:
    1/3, 2/3, 0); central_interval(): 95 % of N(0, 1), -/+ 1.959963984540054 (scipy's
    ppf written out); monty_hall_wins: seed 0."""
    assert monty_hall_posterior() == {1: Fraction(1, 3), 2: Fraction(2, 3), 3: Fraction(0)}
    lo, hi = central_interval()
    assert (lo, hi) == pytest.approx((stats.norm.ppf(0.025), stats.norm.ppf(0.975)), rel=1e-15)
    assert (monty_hall_wins(200, True) == monty_hall_wins(200, True, seed=0)).all()
    assert (monty_hall_wins(200, True) != monty_hall_wins(200, True, seed=1)).any()


def test_monty_hall_wins_rejects_a_negative_seed_in_full():
    with pytest.raises(ValueError) as info:
        monty_hall_wins(10, True, seed=-1)
    assert str(info.value) == "seed must be a non-negative integer, got -1"


@pytest.mark.parametrize(
    ("prior", "likelihood"),
    [
        ([Fraction(1, 2), Fraction(1, 2)], [0.2, 0.6]),
        ([0.5, 0.5], [Fraction(1, 5), Fraction(3, 5)]),
    ],
)
def test_bayes_posterior_is_exact_only_when_both_are_fractions(prior, likelihood):
    """Fractions in one argument and floats in the other: a float posterior, by hand
    0.1 / 0.4 and 0.3 / 0.4."""
    got = bayes_posterior(prior, likelihood)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, [0.25, 0.75], rtol=1e-15)


def test_bayes_posterior_exact_prior_must_sum_to_exactly_one():
    """Fractions are checked exactly: 1 + 1e-15 is refused (floats get SUM_TOLERANCE)."""
    prior = [Fraction(1, 2), Fraction(1, 2) + Fraction(1, 10**15)]
    with pytest.raises(ValueError) as info:
        bayes_posterior(prior, [Fraction(1, 5), Fraction(3, 5)])
    assert str(info.value) == (
        "prior must sum to 1, got Fraction(1000000000000001, 1000000000000000)"
    )
