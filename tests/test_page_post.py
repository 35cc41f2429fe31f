"""Claims of the post (`docs/blog/posts/sinusoidal-embeddings.md`), its companion page
(`docs/notes/sinusoidal-embeddings-in-practice.md`) and the docstrings of
`mlnotes.embeddings` that guard, not teach.

The worked examples are doctests on the pages; what only guards a sentence the site
wrote (a bound, an alt text, a quantifier, a number in a docstring) is checked here, at
the generality the sentence states.
"""

from __future__ import annotations

import math
import random

import mpmath
import pytest
import torch

from mlnotes.embeddings import (
    distance_at_offset,
    frequencies,
    rounding_error,
    sinusoidal_embeddings,
)


def _row_float32(pos: int, d: int) -> list[float]:
    """Row `pos` as `sinusoidal_embeddings` computes it (float64 angles, float32 cast),
    without building the rows before it."""
    angles = torch.tensor(float(pos), dtype=torch.float64) * frequencies(d)
    row = torch.empty(d, dtype=torch.float64)
    row[0::2], row[1::2] = torch.sin(angles), torch.cos(angles)
    return row.to(torch.float32).double().tolist()


def test_row_helper_is_the_library_table():
    table = sinusoidal_embeddings(1000, 64)
    for pos in (0, 1, 517, 999):
        assert _row_float32(pos, 64) == table[pos].double().tolist()


# "Each float32 entry is then off by at most 2^-25 [...] plus the float64 error, below
# (pos + 1) · 2^-52 for d <= 1024" (companion page, #algorithmic-issues; module docstring).
@pytest.mark.parametrize("d, n", [(4, 50), (64, 50), (128, 50), (1024, 6)])
def test_float32_table_error_bound_against_40_digit_arithmetic(d, n):
    mpmath.mp.dps = 40
    rng = random.Random(d)
    positions = [rng.randrange(10**7) for _ in range(n)] + [0, 1, 2, 7, 10**7 - 1, 10**8, 10**9]
    omegas = [mpmath.power(10000, mpmath.mpf(-2 * i) / d) for i in range(d // 2)]
    worst = 0.0
    for pos in positions:
        row = _row_float32(pos, d)
        bound = 2.0**-25 + (pos + 1) * 2.0**-52
        for i, w in enumerate(omegas):
            angle = pos * w
            for j, exact in ((2 * i, mpmath.sin(angle)), (2 * i + 1, mpmath.cos(angle))):
                worst = max(worst, float(abs(mpmath.mpf(row[j]) - exact)) / bound)
    assert worst <= 1.0, worst
    # ... and the bound is not vacuous: half a float32 step is actually reached
    assert worst > 0.5, worst


@pytest.mark.slow
def test_float64_angle_error_is_below_pos_times_2_to_the_minus_52_for_d_up_to_1024():
    # the part of that bound that the float64 angle pos · ω_i contributes: pos · |δω_i|
    # (ω_i's own error) plus the rounding of the product, at most pos · ω_i · 2^-53,
    # against ω_i in 30-digit arithmetic, for every even d up to 1024 (the sin and cos of
    # float64, under one ulp, add at most 2^-53: the "+ 1" of the bound)
    worst = 0.0
    with mpmath.workdps(30):
        ln = mpmath.log(10000)
        for d in range(2, 1025, 2):
            for i, w in enumerate(frequencies(d).tolist()):
                exact = mpmath.exp(-2 * i * ln / d)
                worst = max(worst, float(abs(w - exact) + w * 2**-53) / 2**-52)
    assert 0.5 < worst < 1.0, worst


@pytest.mark.parametrize("d", [128, 1000, 4096])
def test_listing_1_angle_carries_a_small_multiple_of_2_to_the_minus_24(d):
    # "The angle pos · ω_i carries a relative error of a small multiple of that (2^-24)"
    two_i = torch.arange(0, d, 2, dtype=torch.float32)
    omega32 = torch.exp(two_i * -(math.log(10000.0) / d))  # as Listing 1
    pos = torch.arange(1, 20_001, dtype=torch.float32)[:, None]
    exact = pos.double() * frequencies(d)
    rel = (((pos * omega32).double() - exact).abs() / exact).max().item() / 2**-24
    assert 2 < rel < 16, rel  # more than one rounding, but a small multiple


def test_listing_1_style_float32_is_far_worse_at_a_million():
    # "where Listing 1 is off by 10^-2 at position 10^6"
    err = rounding_error([10**6], 128)[0].item()
    assert 1e-2 <= err < 1e-1


def test_float32_positions_collide_from_2_to_the_24():
    # "torch.arange(max_pos).float() rounds 2^24 + 1 to 2^24", and not before
    below = torch.arange(2**24 - 4, 2**24 + 1).float()
    assert below.unique().numel() == below.numel()
    assert torch.tensor(2**24 + 1).float().item() == 2**24


def test_listing_1_error_is_up_to_about_pos_times_2_to_the_minus_24():
    # module docstring: "computed in float32 throughout, as the post's Listing 1 does, it
    # is off by up to about pos · 2^-24" (1.99 at 10^8, where pos · 2^-24 is 6)
    for pos, d in ((10**4, 128), (10**6, 128), (10**7, 512), (10**8, 64)):
        assert rounding_error([pos], d)[0].item() < 1.3 * pos * 2.0**-24


def test_rounding_error_docstring_float32_angle_error_below_18_ulps():
    # "below 18 · 2^-24 in all for even d <= 4096 and positions below 2^24": the float32
    # ω_i of Listing 1 is off by at most 16.6 · 2^-24 (at d = 2216), the product rounds
    # once more (relative 2^-24, the position being exact)
    worst = {}
    for d in range(2, 4097, 2):
        two_i = torch.arange(0, d, 2, dtype=torch.float32)
        omega32 = torch.exp(two_i * -(math.log(10000.0) / d)).double()  # as Listing 1
        exact = frequencies(d)
        worst[d] = (((omega32 - exact).abs() / exact).max() / 2**-24).item()
    top = max(worst.values())
    assert 16 < top and top + 1 + top * 2**-24 < 18


def test_torch_float32_exp_sin_cos_round_a_little_worse_than_2_to_the_minus_24():
    # companion page: "at most 2^-24 per arithmetic operation [...] and a little more for
    # torch's float32 exp, sin and cos, which are not correctly rounded"
    u = 2.0**-24
    x = torch.linspace(-9.3, 0, 1_000_001, dtype=torch.float32)
    rel = {
        "exp": ((torch.exp(x).double() - torch.exp(x.double())).abs() / torch.exp(x.double())).max()
    }
    x = torch.linspace(0, 100, 1_000_001, dtype=torch.float32)
    for f in (torch.sin, torch.cos):
        exact = f(x.double())
        keep = exact.abs() > 0.5
        rel[f.__name__] = ((f(x).double() - exact).abs() / exact.abs())[keep].max()
    for name, r in rel.items():
        assert 1.0 < r / u < 1.5, (name, r / u)


def test_figure_script_float32_error_stays_between_0_3_and_1_3_times_pos_2_to_the_minus_24():
    # scripts/figures/se_float32_error.py, the notebook's assert and the module docstring
    # ("0.3 to 1.3 times it at the 112 positions of torch.logspace(0, 7, 120).round()
    # .unique(), 1 to 10^7, for d = 128 and 512")
    positions = torch.logspace(0, 7, 120).round().unique()
    assert positions.numel() == 112 and positions[0] == 1 and positions[-1] == 10**7
    ratios = torch.cat(
        [rounding_error(positions, d) / (positions.double() * 2.0**-24) for d in (128, 512)]
    )
    assert 0.3 < ratios.min() < 0.35 and 1.25 < ratios.max() < 1.3  # "about 0.3 and 1.3"


def test_plain_indexing_wraps_a_negative_position_around():
    # companion page: "plain indexing would wrap a negative position around to the end"
    table = sinusoidal_embeddings(10, 4)
    assert torch.equal(table[torch.tensor([-1])][0], table[9])


# correction-info and the Check of correction-periodicity: on integer positions one
# dimension never repeats a value; on real positions the whole embedding is periodic
# for d = 2, 4 and 8 only.


@pytest.mark.parametrize("d", [8, 16])
def test_every_single_dimension_takes_distinct_values_on_20_000_positions(d):
    pos = torch.arange(20_000, dtype=torch.float64)
    for omega in frequencies(d).tolist():
        for f in (torch.sin, torch.cos):
            values = f(pos * omega).sort().values
            assert (values[1:] - values[:-1]).min() > 1e-10  # float64 rounding: ~1e-16


@pytest.mark.parametrize("d", [2, 4, 8])
def test_whole_embedding_is_periodic_on_real_positions_for_d_2_4_8(d):
    period = 2 * math.pi / frequencies(d)[-1].item()  # 2π · 10000^((d-2)/d)
    assert round(period / math.pi, 6) == {2: 2, 4: 200, 8: 2000}[d]
    t = torch.tensor([[0.3], [5.0], [77.7], [1234.5]], dtype=torch.float64)
    omega = frequencies(d)
    for f in (torch.sin, torch.cos):
        assert torch.allclose(f((t + period) * omega), f(t * omega), atol=1e-9)


@pytest.mark.parametrize("d", [6, 10, 12, 16, 128])
def test_omega_1_is_irrational_for_d_6_10_12_16_128(d):
    # correction-info (Check): "for every other even d, ω1 = 10^(-8/d) is irrational";
    # the page proves it, this samples it. 10^(8/d) is a root of x^d - 10^8, an algebraic
    # integer: if it is not an integer, it is irrational (and so is its inverse ω1).
    with mpmath.workdps(50):  # not the precision another test left behind
        value = mpmath.power(10, mpmath.mpf(8) / d)
        assert abs(value - mpmath.nint(value)) > mpmath.mpf(10) ** -30  # not an integer


def _smallest_up_to_a_million(d: int) -> float:
    # a million offsets, in blocks (the closed form holds a (n, d/2) float64 tensor)
    return min(
        distance_at_offset(torch.arange(a, a + 100_000), d).min().item()
        for a in range(1, 1_000_001, 100_000)
    )


@pytest.mark.parametrize("d", [16, 32, 64, 128])
def test_from_d_16_on_neighbours_are_the_closest_pair_among_100_000(d):
    # correction-dimensions (Check): for d = 16 and 32 the closest of the first 100 001
    # positions are neighbours; so for 64 and 128 (and the notebook's assert, d = 128)
    dist = distance_at_offset(torch.arange(1, 100_001), d)
    assert int(dist.argmin()) == 0


@pytest.mark.slow
@pytest.mark.parametrize("d", [32, 64, 128])
def test_from_d_32_on_neighbours_are_the_closest_pair_up_to_a_million(d):
    assert _smallest_up_to_a_million(d) == pytest.approx(distance_at_offset(1, d).item())


def test_for_d_16_a_pair_less_than_a_million_apart_is_closer_than_neighbours():
    # correction-dimensions: "d sets only how close two come": for d = 16 the neighbours
    # (1.01 apart) are the closest pair among 100 001 positions, not among a million (0.88)
    smallest, neighbours = _smallest_up_to_a_million(16), distance_at_offset(1, 16).item()
    assert round(smallest, 2) == 0.88 and round(neighbours, 2) == 1.01


@pytest.mark.parametrize("d", [4, 8])
def test_small_d_lets_distant_positions_come_close(d):
    dist = distance_at_offset(torch.arange(1, 100_001), d)
    assert dist.min() < 0.04
    assert int(dist.argmin()) + 1 > 10_000


def test_longest_period_reaches_2pi_10000_only_for_large_d():
    # correction-periodicity: the last period is 2π·10000^((d-2)/d), not "almost 2π·10000"
    last = {d: 2 * math.pi / frequencies(d)[-1].item() for d in (4, 8, 128)}
    assert last[4] < 0.011 * 2 * math.pi * 10000
    assert last[128] > 2 * math.pi * 10000 / 1.2


def test_10000_to_the_2i_over_d_is_rational_exactly_when_8i_over_d_is_an_integer():
    # correction-injectivity (Check): 10000^(2i/d) = 10^(8i/d)
    with mpmath.workdps(50):  # not the precision another test left behind
        for d in (2, 4, 8, 16, 128):
            for i in range(d // 2):
                value = mpmath.power(10, mpmath.mpf(8 * i) / d)
                is_integer = abs(value - mpmath.nint(value)) < mpmath.mpf(10) ** -30
                assert is_integer == ((8 * i) % d == 0), (d, i)


# Alt texts and captions of the figures (they describe what the scripts draw).


def test_figure_2_alt_text_right_columns_nearly_constant():
    se = sinusoidal_embeddings(100, 128, dtype=torch.float64)
    right = se[:, 90:]
    assert (right - right[0]).abs().max() < 0.2  # "from about column 90 on ... nearly constant"
    left = se[:, 60]
    assert (left - left[0]).abs().max() > 0.9  # ... and not from column 60 on
    # "in the first columns the colour changes every few rows" (not every row)
    signs = torch.sign(se[1:, 0])
    changes = int((signs[1:] != signs[:-1]).sum())
    assert 20 < changes < 50


def test_correction_dimensions_rows_0_and_99_differ_by_up_to_1_6_in_dimensions_0_to_3():
    se = sinusoidal_embeddings(100, 128, dtype=torch.float64)
    diff = (se[0] - se[99]).abs()
    assert round(diff[:4].max().item(), 1) == 1.6
    assert diff.max() > 1.9  # over all dimensions they differ by more: hence "0 to 3"


def test_figure_3_and_4_distance_is_not_monotonic_but_grows_overall():
    dist = distance_at_offset(torch.arange(1000), 1000)
    decreases = (dist[1:] < dist[:-1]).nonzero().flatten()
    assert decreases.numel() > 0 and int(decreases[0]) == 68
    assert 19.5 < dist[25] < 21  # alt text of Figure 4: "about 20 by k = 25"
    assert 28 < dist[950:].min() and dist[950:].max() < 29  # "between 28 and 29 near k = 999"
    assert dist.max() < math.sqrt(1000)


def test_float32_figure_alt_text_ends():
    # the companion page's figure (se_float32_error.py)
    for d in (128, 512):
        assert 4e-8 < rounding_error([1], d)[0] < 6e-8  # "about 5e-8 at position 1"
        # "to between 0.2 and 0.7 near 10 million": the figure's last three positions
        positions = torch.logspace(0, 7, 120).round().unique()  # as the figure script
        end = rounding_error(positions[-3:], d)
        assert positions[-3] > 7e6 and 0.2 <= end.min() and end.max() <= 0.7


# Docstrings of the figure scripts scripts/figures/se_*.py (issue 18, second reader).


@pytest.mark.parametrize(
    "d, omega_max, i_max, angle_bound", [(128, 8.24, 62, 9.25), (512, 9.49, 230, 10.5)]
)
def test_float32_error_script_angle_error_below_2_to_the_24(d, omega_max, i_max, angle_bound):
    # se_float32_error.py: "Below position 2^24 the float32 angle carries a relative
    # error of less than 9.25·2^-24 (d = 128) and 10.5·2^-24 (d = 512): the float32 ω_i
    # is off by up to 8.24·2^-24 and 9.49·2^-24, at low frequencies (i = 62 of 64,
    # i = 230 of 256) [...], and the product rounds once more."
    two_i = torch.arange(0, d, 2, dtype=torch.float32)
    omega32 = torch.exp(two_i * -(math.log(10000.0) / d))  # as Listing 1
    exact = frequencies(d)
    rel = (omega32.double() - exact).abs() / exact / 2**-24
    assert round(rel.max().item(), 2) == omega_max and int(rel.argmax()) == i_max
    # one more rounding of the product (relative error at most 2^-24): the bound
    worst = rel.max().item()
    assert worst + 1 + worst * 2**-24 < angle_bound
    # ... and measured, on positions up to 2^24 (exact in float32)
    for pos in (torch.arange(1, 20_001), torch.arange(1, 2**24, 4099)):
        pos = pos.float()[:, None]
        angle_rel = ((pos * omega32).double() - pos.double() * exact).abs() / (pos.double() * exact)
        assert angle_rel.max().item() / 2**-24 < angle_bound


def test_distance_heatmap_script_lines_parallel_to_the_diagonal():
    # se_distance_heatmap.py: "the same along every line parallel to the diagonal (in
    # the float32 table drawn here, to within 10^-4)"; "0 on the diagonal and larger
    # away from it"
    from mlnotes.embeddings import pairwise_distances

    table = pairwise_distances(sinusoidal_embeddings(1000, 1000))
    spread = max((table.diagonal(k).max() - table.diagonal(k).min()).item() for k in range(1, 1000))
    assert spread < 1e-4
    assert (table.diagonal() == 0).all()
    assert table[~torch.eye(1000, dtype=torch.bool)].min() > 5


def test_heatmap_script_columns():
    # se_heatmap.py: "from each position to the next, at least one of columns 0 to 3
    # changes by more than 0.5, while each of columns 90 to 127 changes by less than 0.2
    # over the 100 positions (the sines stay below 0.16, the cosines above 0.98)"
    se = sinusoidal_embeddings(100, 128)
    assert (se[1:, :4] - se[:-1, :4]).abs().max(dim=1).values.min() > 0.5
    assert (se[:, 90:] - se[0, 90:]).abs().max() < 0.2
    assert se[:, 90::2].max() < 0.16 and se[:, 91::2].min() > 0.98
