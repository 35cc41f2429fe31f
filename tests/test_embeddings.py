"""mlnotes.embeddings: definitions, the post's properties (as hypothesis properties), errors."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlnotes.embeddings import (
    SinusoidalEmbeddings,
    distance_at_offset,
    frequencies,
    pairwise_distances,
    rounding_error,
    shift_matrix,
    sinusoidal_embeddings,
)

even_dims = st.integers(1, 64).map(lambda h: 2 * h)
positions = st.integers(0, 5000)


# --- Definition 1.1 -----------------------------------------------------------------


def test_frequencies_follow_the_definition():
    d = 512
    omega = frequencies(d)
    expected = torch.tensor([10000.0 ** (-2 * i / d) for i in range(d // 2)], dtype=torch.float64)
    assert omega.shape == (d // 2,)
    torch.testing.assert_close(omega, expected, rtol=1e-14, atol=0)


def test_table_matches_equations_1_and_2_entry_by_entry():
    d, n = 16, 40
    table = sinusoidal_embeddings(n, d, dtype=torch.float64)
    for pos in (0, 1, 7, 39):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert table[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-13)
            assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-13)


def test_float32_table_is_the_float64_table_rounded():
    t64 = sinusoidal_embeddings(20_000, 64, dtype=torch.float64)
    t32 = sinusoidal_embeddings(20_000, 64)
    assert t32.dtype == torch.float32
    assert torch.equal(t32, t64.to(torch.float32))


def test_base_changes_the_frequencies():
    assert not torch.allclose(frequencies(8, base=100.0), frequencies(8))
    assert frequencies(8, base=100.0)[1].item() == pytest.approx(100 ** (-2 / 8))


# --- properties of the post, section 2 ------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(d=even_dims, t=positions, k=st.integers(-2000, 2000))
def test_shift_matrix_moves_embeddings_by_k(d, t, k):
    """Section 2.3: M(k) SE(t) = SE(t + k), for every t (M does not depend on t)."""
    se_t = sinusoidal_embeddings(t + 1, d, dtype=torch.float64)[t]
    target = torch.tensor(t + k, dtype=torch.float64) * frequencies(d)
    se_tk = torch.stack([torch.sin(target), torch.cos(target)], -1).reshape(-1)
    torch.testing.assert_close(
        shift_matrix(k, d, dtype=torch.float64) @ se_t, se_tk, rtol=0, atol=1e-9
    )


@settings(max_examples=30, deadline=None)
@given(d=even_dims, k=st.integers(-500, 500))
def test_shift_matrix_is_a_rotation(d, k):
    m = shift_matrix(k, d, dtype=torch.float64)
    eye = torch.eye(d, dtype=torch.float64)
    torch.testing.assert_close(m @ m.T, eye, rtol=0, atol=1e-12)
    torch.testing.assert_close(shift_matrix(-k, d, dtype=torch.float64), m.T, rtol=0, atol=1e-12)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(d=even_dims, max_pos=st.integers(2, 3000))
def test_no_two_positions_share_an_embedding(d, max_pos):
    """Section 2.2: SE is injective on [0, max_pos) (in float32, as the module stores it)."""
    table = sinusoidal_embeddings(max_pos, d)
    assert torch.unique(table, dim=0).shape[0] == max_pos
    dist = pairwise_distances(table.double())
    dist.fill_diagonal_(float("inf"))
    assert dist.min() > 0


@settings(max_examples=40, deadline=None)
@given(d=even_dims, t1=positions, t2=positions, k=st.integers(-300, 300))
def test_distance_depends_only_on_the_offset(d, t1, t2, k):
    """Section 3.4: ||SE(t + k) - SE(t)|| is the same for every t, and has a closed form."""
    n = max(t1, t2) + abs(k) + 1
    table = sinusoidal_embeddings(n, d, dtype=torch.float64)
    s1, s2 = t1 + abs(k) if k < 0 else t1, t2 + abs(k) if k < 0 else t2
    d1 = (table[s1 + k] - table[s1]).norm()
    d2 = (table[s2 + k] - table[s2]).norm()
    assert d1.item() == pytest.approx(d2.item(), abs=1e-9)
    assert d1.item() == pytest.approx(distance_at_offset(k, d).item(), abs=1e-9)


def test_the_difference_vector_itself_depends_on_t():
    """Property 3 as the post words it ('x_t - x_{t-k} should not depend on t') is false
    for the vector; only its norm is independent of t."""
    table = sinusoidal_embeddings(100, 8, dtype=torch.float64)
    diff_a, diff_b = table[13] - table[10], table[53] - table[50]
    assert not torch.allclose(diff_a, diff_b, atol=1e-3)
    assert diff_a.norm().item() == pytest.approx(diff_b.norm().item(), abs=1e-12)


def test_distance_grows_with_the_offset_and_is_not_linear():
    """Figure 3's caption says the distance decreases linearly with |pos1 - pos2|."""
    k = torch.arange(0, 1000)
    dist = distance_at_offset(k, 1000)
    assert dist[0] == 0
    assert (dist[1:50].diff() > 0).all()  # grows near the diagonal
    assert dist[999] > dist[1] * 5  # far apart is farther, not closer
    slope_early, slope_late = (dist[10] - dist[0]) / 10, (dist[999] - dist[500]) / 499
    assert slope_late < 0.05 * slope_early  # it levels off: not linear
    assert dist.max() < math.sqrt(1000)


def test_sin_is_not_linear_in_the_position():
    """Section 2.3 concludes 'SE is a linear function': SE(0) is not 0, so it is not."""
    table = sinusoidal_embeddings(10, 8, dtype=torch.float64)
    assert table[0].abs().sum() > 0
    assert not torch.allclose(table[3] + table[4], table[7])


# --- the module -------------------------------------------------------------------


def test_module_registers_the_table_as_a_buffer():
    pe = SinusoidalEmbeddings(64, 8)
    assert "embeddings" in dict(pe.named_buffers())
    assert not list(pe.parameters())
    assert "embeddings" not in pe.state_dict()  # non-persistent: recomputed, never stored
    assert torch.equal(pe.embeddings, sinusoidal_embeddings(64, 8))


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(0, 4), min_size=0, max_size=3))
def test_forward_keeps_the_positions_shape(shape):
    pe = SinusoidalEmbeddings(50, 6)
    pos = torch.randint(0, 50, shape)
    out = pe(pos)
    assert out.shape == (*shape, 6)
    if pos.numel():
        assert torch.equal(out.reshape(-1, 6)[0], pe.embeddings[pos.reshape(-1)[0]])


@pytest.mark.parametrize("bad", [-1, 50, 10**6])
def test_forward_rejects_positions_outside_the_table(bad):
    pe = SinusoidalEmbeddings(50, 6)
    with pytest.raises(IndexError, match=rf"\[0, 50\), got {bad}"):
        pe(torch.tensor([0, bad]))


@pytest.mark.parametrize("shape", [(0,), (3,)])
def test_forward_refuses_meta_positions_by_name(shape):
    """A meta tensor holds no values: empty, torch's copy failed ("Cannot copy out of meta
    tensor"); not empty, its `.item()` did, and neither named the argument."""
    positions = torch.zeros(shape, dtype=torch.int64, device="meta")
    with pytest.raises(ValueError) as err:
        SinusoidalEmbeddings(50, 6)(positions)
    assert str(err.value) == "positions must hold values: a tensor on the meta device has none"


@pytest.mark.parametrize("shape", [(3, 4), (1, 1)])
def test_pairwise_distances_refuses_meta_embeddings_by_name(shape):
    """A non-empty meta tensor holds no values: `.item()` raised a RuntimeError that did not
    name the argument (an empty one needs none: its result is on meta too)."""
    embeddings = torch.zeros(shape, device="meta")
    with pytest.raises(ValueError) as err:
        pairwise_distances(embeddings)
    assert str(err.value) == "embeddings must hold values: a tensor on the meta device has none"


def test_forward_rejects_float_positions():
    with pytest.raises(TypeError, match="integer tensor"):
        SinusoidalEmbeddings(50, 6)(torch.tensor([1.0]))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64])
def test_forward_takes_the_integer_dtypes_its_docstring_names(dtype):
    pe = SinusoidalEmbeddings(50, 6)
    assert torch.equal(pe(torch.tensor([3, 49], dtype=dtype)), pe.embeddings[[3, 49]])


@pytest.mark.parametrize("name", ["uint16", "uint32", "uint64", "bool", "float64", "complex64"])
def test_forward_rejects_other_dtypes_with_a_type_error_naming_them(name):
    dtype = getattr(torch, name)
    with pytest.raises(TypeError, match=rf"integer tensor .*got dtype torch\.{name}"):
        SinusoidalEmbeddings(50, 6)(torch.tensor([1, 2]).to(dtype))


# --- pairwise distances -------------------------------------------------------------


def broadcast_distances(x: torch.Tensor) -> torch.Tensor:
    """The post's Listing 4: an (n, n, d) difference tensor, then its norm."""
    return torch.norm(x[:, None, :] - x[None, :, :], p=2, dim=-1)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 60), d=st.integers(1, 40), seed=st.integers(0, 10_000))
def test_pairwise_distances_equal_the_broadcast_listing(n, d, seed):
    x = torch.randn(n, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    got = pairwise_distances(x, chunk_size=7)
    torch.testing.assert_close(got, broadcast_distances(x), rtol=1e-7, atol=1e-7)
    assert torch.equal(got, got.T) and (got.diagonal() == 0).all()


def test_pairwise_distances_keep_the_input_dtype_and_are_accurate_in_float32():
    """float32 input is computed in float32: every distance within 1e-5 relative."""
    table = sinusoidal_embeddings(300, 1000)
    got = pairwise_distances(table)
    assert got.dtype == torch.float32 and got.shape == (300, 300)
    exact = broadcast_distances(table.double())
    off = ~torch.eye(300, dtype=torch.bool)
    assert ((got.double() - exact).abs()[off] / exact[off]).max() < 1e-5
    assert (got.diagonal() == 0).all()


@pytest.mark.parametrize("d", [8, 64, 300])
def test_pairwise_distances_of_clustered_float32_rows_are_accurate(d):
    """Rows of norm about 1e3 within about 1e-2 of each other (issue 18's clustered rows):
    every float32 distance within 1e-5 relative of float64 (torch.cdist's own error is
    of order 1 here)."""
    g = torch.Generator().manual_seed(d)
    x = (1e3 / d**0.5 + 1e-2 * torch.randn(300, d, generator=g, dtype=torch.float64)).float()
    got = pairwise_distances(x)
    exact = broadcast_distances(x.double())
    off = ~torch.eye(300, dtype=torch.bool)
    assert ((got.double() - exact).abs()[off] / exact[off]).max() < 1e-5
    assert torch.equal(got, got.T) and (got.diagonal() == 0).all()


def test_pairwise_distances_are_exact_for_nearly_equal_rows():
    """The product formula cancels for rows close together far from 0 (torch.cdist, which
    uses it for more than 25 rows, is far off on both pairs here: 0.87 for the first, 0.017
    apart, on the machine this was written on). Such pairs are recomputed from their
    difference."""
    x = torch.randn(200, 300, generator=torch.Generator().manual_seed(0)) * 100
    x[1] = x[0] + 1e-3
    x[150] = x[7] - 2e-3
    exact = broadcast_distances(x.double())
    got = pairwise_distances(x)
    for i, j in ((0, 1), (7, 150)):
        assert got[i, j].item() == pytest.approx(exact[i, j].item(), rel=1e-5)
        assert got[j, i] == got[i, j]


# --- rounding -----------------------------------------------------------------------


def test_rounding_error_grows_with_the_position():
    err = rounding_error([10, 1_000, 100_000], 128)
    assert err[0] < err[1] < err[2]
    assert err[2] > 1e-3  # float32 angles at position 1e5: visible error


# --- bad input ----------------------------------------------------------------------


@pytest.mark.parametrize("d", [0, -2, 3, 7])
def test_bad_embed_dim(d):
    with pytest.raises(ValueError, match=f"embed_dim must be a positive even integer, got {d}"):
        sinusoidal_embeddings(10, d)
    with pytest.raises(ValueError, match="embed_dim"):
        SinusoidalEmbeddings(10, d)


def test_bad_types_and_bases():
    with pytest.raises(TypeError, match=r"embed_dim must be an integer, got 4.0 \(float\)"):
        frequencies(4.0)
    with pytest.raises(TypeError, match="max_pos must be an integer"):
        sinusoidal_embeddings(10.5, 4)
    with pytest.raises(ValueError, match="base must be"):
        frequencies(4, base=1.0)
    with pytest.raises(ValueError, match="k must be a finite real number, got nan"):
        shift_matrix(float("nan"), 4)
    with pytest.raises(ValueError, match="positions must be non-negative"):
        rounding_error([-1], 4)
    with pytest.raises(ValueError, match="positions must be at most 65504"):
        rounding_error([70_000], 4, dtype=torch.float16)  # not a silent NaN
    with pytest.raises(TypeError, match="floating-point"):
        pairwise_distances(torch.ones(3, 3, dtype=torch.int64))


def test_distance_at_offset_is_not_monotone_and_at_most_sqrt_2d():
    """The docstring's claims: not monotone (d = 64: smaller at k = 6 than at k = 5),
    never above sqrt(2d), and around sqrt(d) once every omega_i k is large."""
    assert distance_at_offset(6, 64) < distance_at_offset(5, 64)
    k = torch.arange(0, 200_000, 7)
    dist = distance_at_offset(k, 64)
    assert dist.max() <= math.sqrt(128)
    far = dist[k > 100_000]  # omega_min * k > 10 for d = 64 (omega_min = 1.3e-4)
    assert abs(far.mean().item() - 8.0) < 0.2


# --- pairwise distances at the edges of the dtypes ---------------------------------


def _exact_distances(x: torch.Tensor) -> list[list[float]]:
    """Distances between the rows of `x`, in 40-digit arithmetic (mpmath): the reference."""
    import mpmath

    rows = [[mpmath.mpf(v) for v in row] for row in x.double().tolist()]
    with mpmath.workdps(40):
        return [
            [float(mpmath.sqrt(mpmath.fsum((a - b) ** 2 for a, b in zip(r, s)))) for s in rows]
            for r in rows
        ]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    dtype=st.sampled_from([torch.float32, torch.float64]),
    scale_exp=st.integers(-300, 300),
    spread_exp=st.integers(-6, 0),
    small_exp=st.integers(-250, 0),
    n=st.integers(4, 10),
    d=st.integers(1, 48),
    seed=st.integers(0, 10_000),
)
def test_pairwise_distances_within_their_bound_at_any_scale(
    dtype, scale_exp, spread_exp, small_exp, n, d, seed
):
    """The docstring's bound, d u / tau (with a margin of 8 u / tau for the roundings
    outside the sums), for every distance that is a normal number of the dtype. Rows at
    scales 1e-300 to 1e300 (float64) or 2**-110 to 2**110 (float32): a cluster around a
    random centre with one pair closer than the rest, and two rows 10**small_exp times
    smaller than the cluster (their squares can underflow, or vanish in its scaling)."""
    info = torch.finfo(dtype)
    if dtype == torch.float32:
        scale_exp, small_exp = scale_exp * 110 // 300, small_exp * 40 // 250
        scale, u, tau = 2.0**scale_exp, 2.0**-24, 0.1
    else:
        scale, u, tau = 10.0**scale_exp, 2.0**-53, 1e-2
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(n + 2, d, generator=g, dtype=torch.float64)
    x = z[0] + 10.0**spread_exp * z[2:]  # the cluster
    x[1] = x[0] + 1e-3 * 10.0**spread_exp * z[1]  # a closer pair
    x[2] = 10.0**small_exp * z[1]  # two small rows ...
    x[3] = x[2] + 10.0**small_exp * z[0] / 2  # ... at a small distance
    x = (x * scale).to(dtype)
    assume(torch.isfinite(x).all())
    got = pairwise_distances(x).double().tolist()
    exact = _exact_distances(x)
    bound = (d + 8) * u / tau
    checked = 0
    for i in range(n):
        for j in range(n):
            e = exact[i][j]
            if i != j and info.tiny <= e <= info.max:
                assert abs(got[i][j] - e) <= bound * e, (i, j, got[i][j], e)
                checked += 1
    assume(checked)


@pytest.mark.parametrize(
    "rows, dtype",
    [
        ([[1.0, 1.0], [1e-30, 1e-30], [2e-30, 2e-30]], torch.float32),  # near the mean
        ([[1e30, 1e-30], [1e30, 2e-30]], torch.float32),  # below the scaling of 1e30
        ([[0.0, 0.0], [1e-25, 0.0], [1.0, 1.0], [-1.0, -1.0]], torch.float32),
        ([[1.0, 1.0], [1e-200, 1e-200], [2e-200, 2e-200]], torch.float64),
        ([[1e300, 1e-300], [1e300, 2e-300], [0.0, 0.0]], torch.float64),
    ],
)
def test_pairwise_distances_of_distinct_rows_are_not_zero(rows, dtype):
    """Distinct rows whose distance is a normal number get it, not 0: their difference's
    squares underflow (or are lost to the scaling of larger rows) in the product formula."""
    x = torch.tensor(rows, dtype=dtype)
    got, exact = pairwise_distances(x), _exact_distances(x)
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert got[i, j].item() == pytest.approx(exact[i][j], rel=1e-6, abs=0)


@pytest.mark.parametrize(
    "embeddings, chunk_size, error, message",
    [
        (
            torch.ones(2, 2, dtype=torch.int64),
            256,
            TypeError,
            "embeddings must be a floating-point torch.Tensor, got dtype torch.int64",
        ),
        (
            [[1.0, 2.0]],
            256,
            TypeError,
            "embeddings must be a floating-point torch.Tensor, got [[1.0, 2.0]]",
        ),
        (
            torch.tensor([[1.0, 2.0], [float("nan"), 3.0]]),
            256,
            ValueError,
            "embeddings must be finite, got a NaN or inf in row 1: [nan, 3.0]",
        ),
        (torch.ones(2, 2), 0, ValueError, "chunk_size must be a positive integer, got 0"),
    ],
)
def test_pairwise_distances_errors_in_full(embeddings, chunk_size, error, message):
    """The whole message: the argument, what was wrong, and the value (or row) received."""
    with pytest.raises(error) as info:
        pairwise_distances(embeddings, chunk_size=chunk_size)
    assert str(info.value) == message


def test_pairwise_distances_stay_on_the_input_device_whatever_the_default_device():
    """With the default device set to meta (`torch.device` as a context manager), CPU
    rows still give CPU distances: the result and the index tensors of the nearly equal
    pairs are made on the input's device. Rows 1000 and 1000 + 2**-10 in each of three
    coordinates (a near pair, recomputed) and the origin: by hand, 1000 sqrt(3),
    (1000 + 2**-10) sqrt(3) and 2**-10 sqrt(3)."""
    x = torch.tensor([[0.0] * 3, [1000.0] * 3, [1000.0 + 2**-10] * 3])
    with torch.device("meta"):
        got = pairwise_distances(x)
    assert got.device == x.device and got.dtype == torch.float32
    a, b, c = 1000 * math.sqrt(3), (1000 + 2**-10) * math.sqrt(3), 2**-10 * math.sqrt(3)
    expected = [[0.0, a, b], [a, 0.0, c], [b, c, 0.0]]
    for i in range(3):
        for j in range(3):
            assert got[i, j].item() == pytest.approx(expected[i][j], rel=1e-6, abs=0), (i, j)


def test_pairwise_distances_of_no_rows_stay_on_the_input_device():
    """n = 0: the (0, 0) result is on the input's device (the meta device here: no data)."""
    got = pairwise_distances(torch.zeros(0, 3, device="meta"))
    assert got.device.type == "meta" and got.shape == (0, 0)


@pytest.mark.parametrize(
    "rows, dtype, chunk_size, rel",
    [
        # rows 1e-13 apart near 1: the centred rows are scaled up by 2**43 (exactly)
        (
            [[1.0, 1.0], [1 + 1e-13, 1.0], [1.0, 1 + 3e-13], [1 - 2e-13, 1 + 1e-13]],
            torch.float64,
            256,
            1e-13,
        ),
        # coordinates near 1e300 and 1e-300: scaled by powers of two around the mean
        ([[1e300, -2e300], [3e300, 1e299], [-1e300, 5e299]], torch.float64, 256, 1e-13),
        ([[1e-300, -2e-300], [3e-300, 1e-301], [-1e-300, 5e-301]], torch.float64, 256, 1e-13),
        # near the largest float: their sum (and so their unscaled mean) overflows
        ([[1.5e308, 1.0], [1.7e308, 2.0], [1.6e308, -1.0]], torch.float64, 256, 1e-13),
        # rows 1e287 apart near 1e300: scaled twice (coordinates, then centred rows)
        (
            [[1e300, 1e300], [1e300 * (1 + 1e-13), 1e300], [1e300, 1e300 * (1 + 3e-13)]],
            torch.float64,
            256,
            1e-13,
        ),
        # one row per block; a nearly equal pair (recomputed) in the last block
        (
            [[0.0, 1.0], [2.0, -1.0], [5.0, 4.0], [1e3, 1e3], [1e3 + 1e-9, 1e3]],
            torch.float64,
            1,
            1e-12,
        ),
        (
            [[0.0, 1.0], [2.0, -1.0], [5.0, 4.0], [1e3, 1e3], [1e3 + 1e-9, 1e3]],
            torch.float64,
            2,
            1e-12,
        ),
        # float16 is computed in float32 and rounded back to float16
        (
            [[0.0, 1.0], [2.0, -1.0], [5.0, 4.5], [100.0, 100.0], [100.0, 100.125]],
            torch.float16,
            256,
            2**-11,
        ),
        (
            [[0.0, 1.0], [2.0, -1.0], [5.0, 4.5], [100.0, 100.0], [100.0, 100.5]],
            torch.bfloat16,
            2,
            2**-8,
        ),
    ],
)
def test_pairwise_distances_at_the_edges_match_mpmath(rows, dtype, chunk_size, rel):
    """Each distance within `rel` (relative) of the 40-digit one, in the input's dtype."""
    x = torch.tensor(rows, dtype=torch.float64).to(dtype)
    got = pairwise_distances(x, chunk_size=chunk_size)
    assert got.dtype == dtype and got.shape == (len(rows), len(rows))
    exact = _exact_distances(x)
    for i in range(len(rows)):
        for j in range(len(rows)):
            assert got[i, j].item() == pytest.approx(exact[i][j], rel=rel, abs=0), (i, j)


@pytest.mark.parametrize(
    ("k", "message"),
    [
        (torch.tensor([1.0, 2.0]), "k must be a real number, got tensor([1., 2.]) (Tensor)"),
        (torch.tensor(True), "k must be a real number, got tensor(True) (Tensor)"),
        (torch.tensor(1 + 1j), "k must be a real number, got tensor(1.+1.j) (Tensor)"),
    ],
)
def test_shift_matrix_rejects_tensors_that_are_not_one_real_number(k, message):
    with pytest.raises(TypeError) as info:
        shift_matrix(k, 4)
    assert str(info.value) == message


@pytest.mark.parametrize("k", [torch.tensor(3.0), torch.tensor(3)])
def test_shift_matrix_takes_a_zero_dimensional_tensor_as_its_number(k):
    """M(3) for d = 4 written out: blocks [[cos, sin], [-sin, cos]] of 3 w_i, w = (1, 1e-2)."""
    expected = torch.zeros(4, 4)
    for i, w in enumerate((1.0, 1e-2)):
        c, s = math.cos(3 * w), math.sin(3 * w)
        expected[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = torch.tensor([[c, s], [-s, c]])
    torch.testing.assert_close(shift_matrix(k, 4), expected)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: rounding_error([["a"]], 4),
            TypeError,
            "positions must be non-negative integer positions, got [['a']] (dtype <U1)",
        ),
        (lambda: rounding_error([1.5], 4), ValueError, "positions must be integers, got [1.5]"),
        (
            lambda: distance_at_offset([["a"]], 4),
            TypeError,
            "k must be a real number or a tensor of real numbers, got [['a']] (dtype <U1)",
        ),
        (
            lambda: SinusoidalEmbeddings(10, 4)([1, 2]),
            TypeError,
            "positions must be a torch.Tensor, got list",
        ),
    ],
)
def test_embeddings_errors_in_full(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_rounding_error_at_the_edges_of_its_positions():
    """Position 0: sin 0 = 0 and cos 0 = 1 in every dtype, no error; position 65504, the
    largest float16, is accepted (the error is then of order 1); with base 100, the
    float32 table at position 1000 is off by about 1000 * 2**-24 at most, as with
    the default base (a table of base 10000 against one of base 100 would be off by ~1)."""
    assert rounding_error([0], 4).tolist() == [0.0]
    assert 0.1 < rounding_error([65504], 4, dtype=torch.float16).item() <= 2.0
    assert rounding_error([1000], 4, base=100.0).item() < 4 * 1000 * 2.0**-24


def test_module_table_uses_its_base():
    """base = 100, d = 4: omega = (1, 100**-0.5 = 0.1); row t is
    (sin t, cos t, sin 0.1 t, cos 0.1 t), written out."""
    table = SinusoidalEmbeddings(5, 4, base=100.0, dtype=torch.float64).embeddings
    for t in range(5):
        expected = [math.sin(t), math.cos(t), math.sin(0.1 * t), math.cos(0.1 * t)]
        assert table[t].tolist() == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_pairwise_distances_default_chunk_size_is_256():
    """The signature's default, seen in the result: float64 rows of length 1000, where
    blocks of 256 and of 257 rows round a few hundred entries differently here."""
    x = torch.randn(300, 1000, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    assert torch.equal(pairwise_distances(x), pairwise_distances(x, chunk_size=256))


def test_pairwise_distances_of_float32_are_computed_in_float32():
    """float32 in, float32 arithmetic (the docstring's "other dtypes in float32"): within
    1e-5 of the float64 distances, but not all of them the float64 distance rounded."""
    x = torch.randn(50, 300, generator=torch.Generator().manual_seed(1))
    got, exact = pairwise_distances(x), broadcast_distances(x.double())
    off = ~torch.eye(50, dtype=torch.bool)
    assert ((got.double() - exact).abs()[off] / exact[off]).max() < 1e-5
    assert not torch.equal(got, exact.float())


# rows far from the origin (an offset unlike in each coordinate) with pairs whose centred
# ratio ||x - y||^2 / (||x||^2 + ||y||^2) is 0.002 (below both dtypes' tau), 0.06
# (below float32's 0.1 only) and the rest 0.79 or more
_NEAR_ROWS = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [-1.0, -1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
    [1.0, 0.05, 0.0],  # row 0 + 0.05 e2
    [0.3, 1.0, 0.0],  # row 1 + 0.3 e1
]


@pytest.mark.parametrize(
    "dtype, offset, scale",
    [
        (torch.float64, [1e3, -5e2, 2.5e2], 1.0),
        (torch.float32, [1e3, -5e2, 2.5e2], 1.0),
        (torch.float64, [1e3, -5e2, 2.5e2], 2.0**700),  # scaled before centring
        (torch.float32, [0.0, 0.0, 0.0], 2.0**-100),
    ],
)
def test_pairwise_distances_recompute_the_pairs_their_docstring_names(
    monkeypatch, dtype, offset, scale
):
    """Pairs with ||x - y||^2 < tau (||x||^2 + ||y||^2), rows centred on their mean
    (tau = 1e-2 in float64, 0.1 in float32), are recomputed from their difference; the
    others come from the product formula. The pairs `_norms` receives, against that
    condition evaluated in float64 on the centred rows (no ratio within a factor 1.5 of
    tau, so its rounding cannot matter); every distance against 40-digit arithmetic."""
    import mlnotes.embeddings as embeddings

    x = ((torch.tensor(_NEAR_ROWS, dtype=torch.float64) + torch.tensor(offset)) * scale).to(dtype)
    n, tau = len(_NEAR_ROWS), 1e-2 if dtype == torch.float64 else 0.1
    c = x.double() / scale
    c -= c.mean(dim=0)
    sq = (c * c).sum(dim=1)
    expected = set()
    for i in range(n):
        for j in range(i + 1, n):
            ratio = float(((c[i] - c[j]) ** 2).sum() / (sq[i] + sq[j]))
            assert not tau / 1.5 < ratio < tau * 1.5, (i, j, ratio)
            if ratio < tau:
                expected.add((i, j))
    assert len(expected) == (1 if dtype == torch.float64 else 2)
    differences = {tuple((x[i] - x[j]).tolist()): (i, j) for i in range(n) for j in range(i + 1, n)}
    seen = []
    norms = embeddings._norms

    def spy(diff):
        seen.extend(differences.get(tuple(row), tuple(row)) for row in diff.tolist())
        return norms(diff)

    monkeypatch.setattr(embeddings, "_norms", spy)
    got = pairwise_distances(x)
    assert sorted(seen) == sorted(expected)
    exact = _exact_distances(x)
    rel = 1e-13 if dtype == torch.float64 else 1e-6
    for i in range(n):
        for j in range(n):
            assert got[i, j].item() == pytest.approx(exact[i][j], rel=rel, abs=0), (i, j)


def test_pairwise_distances_scale_only_coordinates_beyond_2_to_the_40():
    """float32 rows sharing a coordinate of 2**38 (left unscaled: its squares fit) and
    differing by about 1e-30 in two others: those keep their digits. Scaled down by 2**-39
    with the rest, they would be subnormal (about 2e-42: 10 or 11 bits) before the centring."""
    rows = [[2.0**38, 1.2345e-30 * a, 0.987e-30 * b] for a, b in ((1, 2), (-3, 1), (2, -2.5))]
    x = torch.tensor(rows, dtype=torch.float32)
    got, exact = pairwise_distances(x), _exact_distances(x)
    for i in range(3):
        for j in range(3):
            assert got[i, j].item() == pytest.approx(exact[i][j], rel=1e-6, abs=0), (i, j)


def test_pairwise_distances_of_small_rows_near_the_mean():
    """float32 rows of about 1e-21 near the mean of rows of norm about 1: their squares
    (about 2e-42) are subnormal: the product formula keeps about 10 bits of their distance;
    a distance whose product-formula square is below finfo.tiny / eps is recomputed."""
    rows = [[1.0, 1.0], [-1.0, -1.0], [1.3e-21, -0.4e-21], [0.3e-21, 1.1e-21]]
    x = torch.tensor(rows, dtype=torch.float32)
    got, exact = pairwise_distances(x), _exact_distances(x)
    assert exact[2][3] > torch.finfo(torch.float32).tiny  # a normal float32
    for i in range(4):
        for j in range(4):
            assert got[i, j].item() == pytest.approx(exact[i][j], rel=1e-6, abs=0), (i, j)
