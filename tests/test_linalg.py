"""Tests of mlnotes.linalg against numpy/scipy and against the notes' own forms."""

from __future__ import annotations

import math
import sys
import warnings
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
import scipy.linalg
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.transform import Rotation

from mlnotes import linalg
from mlnotes.linalg import (
    diagonalize,
    distance_line_line,
    distance_line_line_scalar,
    distance_point_line,
    distance_point_line_scalar,
    distance_point_plane,
    distance_point_plane_scalar,
    distance_point_point,
    distance_point_point_scalar,
    gram_schmidt,
    project,
)

# Entries of moderate size: zero or between 1e-3 and 10 in absolute value. Subnormal
# entries (hypothesis likes 5e-324) break LAPACK's own eig and lstsq, which the tests
# use as references, and are no part of what the notes compute.
finite = st.one_of(st.just(0.0), st.floats(1e-3, 10), st.floats(-10, -1e-3))


def vectors(n):
    return arrays(np.float64, (n,), elements=finite)


@st.composite
def full_rank_matrices(draw, max_rows=6):
    """An (m, n) matrix, n <= m, with well-conditioned independent columns."""
    m = draw(st.integers(1, max_rows))
    n = draw(st.integers(1, m))
    X = draw(arrays(np.float64, (m, n), elements=finite))
    assume(np.linalg.matrix_rank(X) == n and np.linalg.cond(X) < 1e6)
    return X


# --------------------------------------------------------------------------------------
# Gram-Schmidt
# --------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300)
@given(full_rank_matrices())
def test_gram_schmidt_orthonormal_with_same_nested_spans(X):
    Q = gram_schmidt(X)
    n = X.shape[1]
    assert Q.shape == X.shape
    np.testing.assert_allclose(Q.T @ Q, np.eye(n), atol=1e-8)
    # X = Q R with R upper triangular: x_k is in span(q_1..q_k) for every k ...
    R = Q.T @ X
    np.testing.assert_allclose(np.tril(R, -1), 0, atol=1e-8 * np.abs(X).max())
    np.testing.assert_allclose(Q @ R, X, atol=1e-8 * np.abs(X).max())
    # ... and, R's diagonal being non-zero, q_k is in span(x_1..x_k): the spans agree.
    assert np.all(np.abs(np.diag(R)) > 0)
    for k in range(1, n + 1):
        assert np.linalg.matrix_rank(np.hstack([Q[:, :k], X[:, :k]]), tol=1e-6) == k


@settings(max_examples=200)
@given(full_rank_matrices())
def test_gram_schmidt_agrees_with_numpy_qr_up_to_signs(X):
    Q = gram_schmidt(X)
    Q_np, R_np = np.linalg.qr(X)
    signs = np.sign(np.diag(R_np))
    np.testing.assert_allclose(Q, Q_np * signs, atol=1e-7)


@settings(max_examples=200)
@given(full_rank_matrices())
def test_gram_schmidt_unnormalized_follows_the_notes_equations(X):
    V = gram_schmidt(X, normalize=False)
    np.testing.assert_allclose(V[:, 0], X[:, 0], rtol=1e-15)  # (45): v_1 = x_1
    gram = V.T @ V
    off = gram - np.diag(np.diag(gram))
    assert np.abs(off).max() <= 1e-8 * max(1.0, np.abs(gram).max())
    np.testing.assert_allclose(V / np.linalg.norm(V, axis=0), gram_schmidt(X), atol=1e-8)
    # (49) with the corrected projection, in the textbook (classical) order
    for i in range(X.shape[1]):
        v = X[:, i] - sum((X[:, i] @ V[:, j]) / (V[:, j] @ V[:, j]) * V[:, j] for j in range(i))
        np.testing.assert_allclose(V[:, i], v, atol=1e-6 * max(1.0, np.abs(X).max()))


def test_gram_schmidt_with_the_notes_projection_is_not_orthogonal():
    """The notes divide by ||v_j|| instead of ||v_j||^2: v_2 is then not orthogonal to v_1."""
    x1, x2 = np.array([3.0, 1.0]), np.array([2.0, 2.0])
    v2_notes = x2 - (x2 @ x1) / np.linalg.norm(x1) * x1
    v2 = x2 - (x2 @ x1) / (x1 @ x1) * x1
    assert abs(v2_notes @ x1) > 1
    assert abs(v2 @ x1) < 1e-12
    np.testing.assert_allclose(gram_schmidt(np.column_stack([x1, x2]), normalize=False)[:, 1], v2)


@settings(max_examples=100)
@given(full_rank_matrices(), st.sampled_from([1e-200, 1e-30, 1e30, 1e200]))
def test_gram_schmidt_is_scale_invariant(X, scale):
    np.testing.assert_allclose(gram_schmidt(scale * X), gram_schmidt(X), atol=1e-10)
    np.testing.assert_allclose(
        gram_schmidt(scale * X, normalize=False) / scale,
        gram_schmidt(X, normalize=False),
        rtol=1e-8,
        atol=1e-8 * np.abs(X).max(),
    )


def test_gram_schmidt_one_column():
    np.testing.assert_allclose(gram_schmidt([3.0, 4.0]), [0.6, 0.8])
    np.testing.assert_allclose(gram_schmidt([3.0, 4.0], normalize=False), [3.0, 4.0])


@settings(max_examples=100)
@given(
    full_rank_matrices(max_rows=5),
    st.data(),
)
def test_gram_schmidt_rejects_dependent_columns(X, data):
    m, n = X.shape
    assume(n >= 1)
    coeffs = data.draw(arrays(np.float64, (n,), elements=st.integers(-3, 3).map(float)))
    position = data.draw(st.integers(0, n))
    dependent = np.insert(X, position, X @ coeffs, axis=1)
    if n + 1 > m:
        with pytest.raises(ValueError, match="X has linearly dependent columns"):
            gram_schmidt(dependent)
    else:
        # the inserted column depends on columns of X, some maybe after it: Gram-Schmidt
        # notices at the latest column involved
        with pytest.raises(ValueError, match="X has linearly dependent columns: column"):
            gram_schmidt(dependent)


@pytest.mark.parametrize(
    ("X", "message"),
    [
        ([[0.0, 1.0], [0.0, 1.0]], "column 0 is zero, a combination of nothing"),
        ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "3 columns in R\\^2"),
        (
            [[1.0, 2.0], [2.0, 4.0]],
            "column 1 is, to relative tolerance rtol=1e-10, a combination of columns 0..0",
        ),
        (np.zeros((0, 2)), "X must be a non-empty"),
        (np.ones((2, 2, 2)), "X must be a non-empty 1-D or 2-D"),
        ([[1.0, np.nan], [0.0, 1.0]], "X must not contain NaN"),
    ],
)
def test_gram_schmidt_errors(X, message):
    with pytest.raises(ValueError, match=message):
        gram_schmidt(X)


def test_gram_schmidt_does_not_modify_its_input():
    X = np.array([[1.0, 1.0], [0.0, 1.0]])
    before = X.copy()
    gram_schmidt(X)
    gram_schmidt(X, normalize=False)
    np.testing.assert_array_equal(X, before)


# --------------------------------------------------------------------------------------
# Projection
# --------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300)
@given(full_rank_matrices(), st.data())
def test_project_equals_least_squares(A, data):
    y = data.draw(vectors(A.shape[0]))
    p = project(y, A)
    x_hat, *_ = np.linalg.lstsq(A, y, rcond=None)
    scale = max(1.0, np.abs(y).max())
    np.testing.assert_allclose(p, A @ x_hat, atol=1e-7 * scale)
    np.testing.assert_allclose(A.T @ (y - p), 0, atol=1e-7 * scale * np.abs(A).max())
    np.testing.assert_allclose(project(p, A), p, atol=1e-7 * scale)  # idempotent


@settings(max_examples=200)
@given(full_rank_matrices(), st.data())
def test_project_is_the_closest_point_of_the_span(A, data):
    y = data.draw(vectors(A.shape[0]))
    x = data.draw(vectors(A.shape[1]))
    p = project(y, A)
    assert np.linalg.norm(y - p) <= np.linalg.norm(y - A @ x) + 1e-9


@settings(max_examples=200)
@given(st.integers(1, 6).flatmap(lambda m: st.tuples(vectors(m), vectors(m))))
def test_project_onto_a_vector_is_the_one_dimensional_formula(yv):
    y, a = yv
    assume(np.linalg.norm(a) > 1e-3)
    np.testing.assert_allclose(project(y, a), (y @ a) / (a @ a) * a, atol=1e-9)


def test_project_several_vectors_at_once():
    A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    Y = np.arange(12.0).reshape(3, 4)
    P = project(Y, A)
    assert P.shape == (3, 4)
    for k in range(4):
        np.testing.assert_allclose(P[:, k], project(Y[:, k], A), atol=1e-12)


def test_project_onto_the_whole_space_is_the_identity():
    y = np.array([1.0, -2.0, 3.0])
    np.testing.assert_allclose(project(y, np.eye(3)), y)


def test_project_errors():
    with pytest.raises(ValueError, match="mismatched dimensions: y has 2 rows, A has 3 rows"):
        project([1.0, 2.0], np.eye(3))
    # gram_schmidt's messages name its argument X; project's name A, its own
    with pytest.raises(ValueError, match="^A has linearly dependent columns: column 1 is"):
        project([1.0, 2.0], [[1.0, 2.0], [1.0, 2.0]])
    with pytest.raises(ValueError, match="^A has linearly dependent columns: column 0 is zero"):
        project([1.0, 2.0], [0.0, 0.0])
    with pytest.raises(ValueError, match=r"^A has linearly dependent columns: 3 columns in R\^2"):
        project([1.0, 2.0], np.ones((2, 3)))
    with pytest.raises(ValueError, match="y must be finite"):
        project([np.inf, 2.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="y must be a non-empty"):
        project(np.zeros((0,)), np.eye(2))


# --------------------------------------------------------------------------------------
# Distances
# --------------------------------------------------------------------------------------


@given(vectors(2), vectors(2))
def test_point_point_both_forms_agree(p, q):
    d = distance_point_point(p, q)
    assert d == pytest.approx(distance_point_point_scalar(*p, *q), abs=1e-12)
    assert d == pytest.approx(scipy.spatial.distance.euclidean(p, q), abs=1e-12)


@given(st.integers(1, 6).flatmap(lambda n: st.tuples(vectors(n), vectors(n))))
def test_point_point_any_dimension(pq):
    p, q = pq
    assert distance_point_point(p, q) == pytest.approx(np.linalg.norm(p - q))
    assert distance_point_point(p, q) == distance_point_point(q, p)


@settings(max_examples=300)
@given(vectors(3), vectors(3), finite)
def test_point_plane_both_forms_agree(p, normal, d):
    assume(np.linalg.norm(normal) > 1e-3)
    a, b, c = normal
    q = -d * normal / (normal @ normal)  # a point of ax + by + cz + d = 0
    assert a * q[0] + b * q[1] + c * q[2] + d == pytest.approx(0, abs=1e-9)
    vector_form = distance_point_plane(p, q, normal)
    scalar_form = distance_point_plane_scalar(*p, a, b, c, d)
    assert vector_form == pytest.approx(scalar_form, rel=1e-9, abs=1e-9)
    # and it is the distance from p to its orthogonal projection on the plane
    foot = p - project(p - q, normal)
    assert vector_form == pytest.approx(np.linalg.norm(p - foot), rel=1e-9, abs=1e-9)


@settings(max_examples=300)
@given(vectors(3), vectors(3), vectors(3))
def test_point_line_matches_the_cross_product_form_in_r3(p, q, u):
    assume(np.linalg.norm(u) > 1e-3)
    cross_form = np.linalg.norm(np.cross(q - p, u)) / np.linalg.norm(u)
    assert distance_point_line(p, q, u) == pytest.approx(cross_form, rel=1e-7, abs=1e-7)


@settings(max_examples=300)
@given(vectors(2), vectors(2), finite)
def test_point_line_both_forms_agree_in_r2(p, normal, c):
    assume(np.linalg.norm(normal) > 1e-3)
    a, b = normal
    q = -c * normal / (normal @ normal)  # a point of ax + by + c = 0
    u = np.array([-b, a])  # its direction
    assert distance_point_line(p, q, u) == pytest.approx(
        distance_point_line_scalar(*p, a, b, c), rel=1e-7, abs=1e-7
    )


@settings(max_examples=200)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(vectors(n), vectors(n), vectors(n))))
def test_point_line_is_the_minimum_over_the_line(pqu):
    p, q, u = pqu
    assume(np.linalg.norm(u) > 1e-3)
    t = np.linspace(-50, 50, 2001)
    brute = np.min(np.linalg.norm(q[None, :] + t[:, None] * u[None, :] - p[None, :], axis=1))
    assert distance_point_line(p, q, u) <= brute + 1e-9


@settings(max_examples=300)
@given(vectors(3), vectors(3), vectors(3), vectors(3))
def test_line_line_matches_the_notes_formula_in_r3(p, u, q, v):
    n = np.cross(u, v)
    assume(np.linalg.norm(n) > 1e-2 * np.linalg.norm(u) * np.linalg.norm(v))
    notes_form = abs((q - p) @ n) / np.linalg.norm(n)
    assert distance_line_line(p, u, q, v) == pytest.approx(notes_form, rel=1e-7, abs=1e-7)


@settings(max_examples=200)
@given(st.integers(2, 6).flatmap(lambda n: st.tuples(*[vectors(n)] * 4)))
def test_line_line_is_the_least_squares_minimum_in_rn(puqv):
    p, u, q, v = puqv
    M = np.column_stack([u, -v])
    assume(np.linalg.matrix_rank(M) == 2 and np.linalg.cond(M) < 1e4)
    # min over (t, s) of ||(p + t u) - (q + s v)||
    ts, *_ = np.linalg.lstsq(M, q - p, rcond=None)
    brute = np.linalg.norm(p + ts[0] * u - q - ts[1] * v)
    assert distance_line_line(p, u, q, v) == pytest.approx(brute, rel=1e-7, abs=1e-7)


def test_line_line_of_intersecting_lines_is_zero():
    assert distance_line_line([0, 0, 0], [1, 0, 0], [2, -1, 0], [0, 1, 0]) == 0.0


@pytest.mark.parametrize(
    ("u", "v"),
    [([1.0, 2.0, 3.0], [2.0, 4.0, 6.0]), ([1.0, 0.0, 0.0], [-5.0, 0.0, 0.0])],
)
def test_line_line_rejects_parallel_lines(u, v):
    with pytest.raises(ValueError, match="the lines are parallel"):
        distance_line_line([0.0, 0.0, 0.0], u, [0.0, 1.0, 0.0], v)


@settings(max_examples=300)
@given(vectors(2), finite, finite, st.floats(-5, 5).filter(lambda k: abs(k) > 1e-2))
def test_parallel_lines_scalar_form_equals_point_line_distance(normal, c1, c2, k):
    """Line 2 is k * (a1, b1) . (x, y) + c2 = 0, with k of either sign."""
    assume(np.linalg.norm(normal) > 1e-2)
    a1, b1 = normal
    a2, b2 = k * a1, k * b1
    point_on_1 = -c1 * normal / (normal @ normal)
    expected = distance_point_line_scalar(*point_on_1, a2, b2, c2)
    assert distance_line_line_scalar(a1, b1, c1, a2, b2, c2) == pytest.approx(
        expected, rel=1e-7, abs=1e-7
    )


def test_parallel_lines_scalar_form_tolerance_is_a_sine_of_1e_12():
    """The docstring: refused when |sin(angle between the normals)| exceeds 1e-12."""
    for angle, refused in ((1e-13, False), (5e-13, False), (2e-12, True), (1e-11, True)):
        a2, b2 = math.cos(angle), math.sin(angle)  # unit normal at `angle` from (1, 0)
        if refused:
            with pytest.raises(ValueError, match="not parallel"):
                distance_line_line_scalar(1.0, 0.0, -1.0, a2, b2, -3.0)
        else:
            assert distance_line_line_scalar(1.0, 0.0, -1.0, a2, b2, -3.0) == pytest.approx(2.0)


def test_notes_equation_40_fails_when_the_normals_point_opposite_ways():
    """x - 1 = 0 and -x + 3 = 0 are 2 apart; the notes' (40) gives 4."""
    a1, b1, c1, a2, b2, c2 = 1.0, 0.0, -1.0, -1.0, 0.0, 3.0
    notes_40 = abs(c1 - c2 * np.hypot(a1, b1) / np.hypot(a2, b2)) / np.hypot(a1, b1)
    assert notes_40 == 4.0
    assert distance_line_line_scalar(a1, b1, c1, a2, b2, c2) == 2.0


# --------------------------------------------------------------------------------------
# Distances at every magnitude, against exact arithmetic
# --------------------------------------------------------------------------------------

getcontext().prec = 80  # Decimal: the reference square roots, to 80 digits
TINY, HUGE = sys.float_info.min, sys.float_info.max


def exact_root(square: Fraction) -> Decimal:
    """The square root of an exact non-negative rational, to 80 digits."""
    return (Decimal(square.numerator) / Decimal(square.denominator)).sqrt()


def assert_within_ulps(got: float, square: Fraction, ulps: float) -> None:
    """`got` is within `ulps` of sqrt(square), or inf when that exceeds the largest
    float; the caller has made sure sqrt(square) is not below the smallest normal."""
    exact = exact_root(square)
    if exact > Decimal(HUGE):
        assert got == math.inf, (got, exact)
        return
    ulp = Decimal(math.ulp(float(exact)))
    assert abs(Decimal(got) - exact) <= ulps * ulp, (
        got,
        exact,
        float(abs(Decimal(got) - exact) / ulp),
    )


# A coordinate: a mantissa in [1, 10) with either sign (or 0) times 10^k, k from -300 to
# 300, each coordinate its own k; a second point is either drawn alike or the first
# plus such a vector, so that a distance can be far smaller than the coordinates.
exponents = st.integers(-300, 300)
coordinates = st.one_of(
    st.just(0.0),
    st.builds(lambda m, k: m * 10.0**k, st.floats(1, 10) | st.floats(-10, -1), exponents),
)


@st.composite
def points(draw, n, near=None):
    offset = [draw(coordinates) for _ in range(n)]
    if near is None or not draw(st.booleans()):
        return offset
    moved = [a + b for a, b in zip(near, offset)]
    assume(all(math.isfinite(x) for x in moved))
    return moved


def rationals(v):
    return [Fraction(x) for x in v]


def dot(a, b):
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(st.just(n), points(n))), st.data())
def test_distances_are_within_ulps_of_the_exact_value_at_every_magnitude(n_p, data):
    """The module's promise: each distance is its formula evaluated exactly at the
    given floats, rounded (within 1 ulp for the rational forms, 2 for math.dist and
    math.hypot), wherever that is a normal float, and inf beyond the largest float."""
    n, p = n_p
    q = data.draw(points(n, near=p))
    u, v = data.draw(points(n)), data.draw(points(n))
    P, Q, U, W = rationals(p), rationals(q), rationals(u), rationals(v)
    pq = [b - a for a, b in zip(P, Q)]
    checks = [(distance_point_point(p, q), dot(pq, pq), 2)]
    if n == 2:
        checks.append((distance_point_point_scalar(*p, *q), dot(pq, pq), 2))
        if any(u):  # the line through Q with normal u: u . x - u . Q = 0
            c = -dot(U, Q)
            if abs(c) <= Decimal(HUGE) and Fraction(float(c)) == c:
                residual = dot(U, P) + c
                checks.append(
                    (distance_point_line_scalar(*p, *u, float(c)), residual**2 / dot(U, U), 1)
                )
    if any(u):
        uu, pu = dot(U, U), dot(pq, U)
        checks.append((distance_point_plane(p, q, u), pu * pu / uu, 1))
        checks.append((distance_point_line(p, q, u), dot(pq, pq) - pu * pu / uu, 1))
        if any(v):
            vv, uv, pv = dot(W, W), dot(U, W), dot(pq, W)
            gram = uu * vv - uv * uv
            if gram > uu * vv / 10**20:  # not parallel
                projected = (pu * pu * vv - 2 * pu * pv * uv + pv * pv * uu) / gram
                checks.append((distance_line_line(p, u, q, v), dot(pq, pq) - projected, 1))
    if n == 3 and any(u):
        d = data.draw(coordinates)
        residual = dot(U, P) + Fraction(d)
        checks.append((distance_point_plane_scalar(*p, *u, d), residual**2 / dot(U, U), 1))
    for got, square, ulps in checks:
        if exact_root(square) >= Decimal(TINY):
            assert_within_ulps(got, square, ulps)


@settings(max_examples=100, deadline=None)
@given(points(2), points(2), st.sampled_from([-3.0, -0.5, 2.0, 1e100, 1e-100]), coordinates)
def test_parallel_lines_scalar_form_is_within_an_ulp_at_every_magnitude(n1, c1, k, c2):
    a1, b1 = n1
    a2, b2 = k * a1, k * b1  # parallel, up to the rounding of the products
    assume(all(math.isfinite(x) for x in (a2, b2)) and (a2, b2) != (0.0, 0.0))
    A1, B1, C1, A2, B2, C2 = rationals([a1, b1, c1[0], a2, b2, c2])
    cross = A1 * B2 - A2 * B1
    assume(cross * cross <= (A1 * A1 + B1 * B1) * (A2 * A2 + B2 * B2) / 10**24)
    gap = C1 - (A1 * A2 + B1 * B2) / (A2 * A2 + B2 * B2) * C2
    square = gap * gap / (A1 * A1 + B1 * B1)
    assume(exact_root(square) >= Decimal(TINY))
    assert_within_ulps(distance_line_line_scalar(a1, b1, c1[0], a2, b2, c2), square, 1)


@pytest.mark.parametrize(
    ("call", "exact"),
    [  # the underflows of the earlier scaled-float version (issue 32)
        (lambda: distance_point_line([0, 0], [1, 1e-170], [1, 0]), 1e-170),
        (lambda: distance_point_line([0, 0, 0], [1, 1e-155, 0], [1, 0, 0]), 1e-155),
        (lambda: distance_line_line([0, 0, 0], [1, 0, 0], [0, 1, 1e-170], [0, 1, 0]), 1e-170),
        (lambda: distance_point_plane([0, 0, 0], [1e300, 1e100, 0], [0, 1e-200, 1]), 1e-100),
        (lambda: distance_point_plane([0, 0, 0], [1e200, 1e-10, 0], [0, 1e-200, 1]), 1e-210),
    ],
)
def test_small_distances_between_large_coordinates_do_not_underflow(call, exact):
    assert call() == exact


def test_huge_distances_are_inf_only_beyond_the_largest_float():
    assert distance_point_plane_scalar(1e308, 1e308, 1e308, 1, 1, 1, 1e308) == math.inf
    assert distance_point_point([-1e308, 0.0], [0.7e308, 0.0]) == 1.7e308
    assert distance_point_line([0.0, 1.7e308], [0.0, -1e-300], [1.0, 0.0]) == 1.7e308


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: distance_point_point([1.0, 2.0], [1.0, 2.0, 3.0]), "p has 2, q has 3"),
        (lambda: distance_point_point([[1.0]], [1.0]), "p must be a non-empty 1-D vector"),
        (
            lambda: distance_point_plane([0, 0, 0], [0, 0, 0], [0, 0, 0]),
            "normal must be a non-zero",
        ),
        (lambda: distance_point_plane([0, 0], [0, 0, 0], [1, 0, 0]), "mismatched dimensions"),
        (lambda: distance_point_line([0, 0], [1, 1], [0, 0]), "u must be a non-zero"),
        (lambda: distance_point_line([0, 0], [1, 1], [1, 0, 0]), "u has 3"),
        (lambda: distance_line_line([0, 0, 0], [1, 0, 0], [0, 0], [0, 1]), "mismatched"),
        (
            lambda: distance_line_line([0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 0]),
            "v must be a non-zero",
        ),
        (
            lambda: distance_point_plane_scalar(1, 2, 3, 0, 0, 0, 1),
            r"\(a, b, c\) must not all be zero",
        ),
        (lambda: distance_point_line_scalar(1, 2, 0, 0, 1), r"\(a, b\) must not both be zero"),
        (lambda: distance_line_line_scalar(1, 0, 0, 0, 1, 0), "the lines are not parallel"),
        (lambda: distance_line_line_scalar(0, 0, 0, 0, 1, 0), r"\(a1, b1\)"),
        (lambda: distance_line_line_scalar(0, 1, 0, 0, 0, 0), r"\(a2, b2\)"),
        (lambda: distance_point_point([np.nan], [1.0]), "p must not contain NaN"),
    ],
)
def test_distance_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# --------------------------------------------------------------------------------------
# Eigenvalues: the notes' properties (section 2.3.1) and diagonalization (2.3.2)
# --------------------------------------------------------------------------------------

square = st.integers(1, 5).flatmap(lambda n: arrays(np.float64, (n, n), elements=finite))


@settings(max_examples=300)
@given(square)
def test_trace_is_the_sum_and_determinant_the_product_of_eigenvalues(A):
    lam = np.linalg.eigvals(A)  # complex in general
    scale = max(1.0, np.abs(A).max()) ** A.shape[0]
    assert np.sum(lam) == pytest.approx(
        np.trace(A), abs=1e-8 * max(1.0, np.abs(A).max()) * A.shape[0]
    )
    assert np.prod(lam) == pytest.approx(np.linalg.det(A), abs=1e-7 * scale)


def test_rank_is_not_the_number_of_nonzero_eigenvalues_in_general():
    """The notes' property holds for every diagonalizable matrix, and not for every other.

    The nilpotent N (not diagonalizable) has rank 1 and no non-zero eigenvalue; the
    shear (not diagonalizable either) has rank 2 and the eigenvalues 1, 1, so it
    satisfies the property: not being diagonalizable does not decide it.
    """
    N = np.array([[0.0, 1.0], [0.0, 0.0]])
    assert np.linalg.matrix_rank(N) == 1
    np.testing.assert_array_equal(np.linalg.eigvals(N), [0.0, 0.0])
    with pytest.raises(ValueError, match="not diagonalizable"):
        diagonalize(N)
    shear = np.array([[1.0, 1.0], [0.0, 1.0]])
    assert np.linalg.matrix_rank(shear) == np.count_nonzero(np.linalg.eigvals(shear)) == 2
    with pytest.raises(ValueError, match="not diagonalizable"):
        diagonalize(shear)


@settings(max_examples=200)
@given(square)
def test_rank_is_the_number_of_nonzero_eigenvalues_for_symmetric_matrices(A):
    S = A + A.T
    S[np.abs(S) < 1e-3] = 0.0
    lam = np.linalg.eigvalsh(S)
    tol = S.shape[0] * np.finfo(float).eps * max(1.0, np.abs(lam).max()) * 10
    assert np.linalg.matrix_rank(S, tol=tol, hermitian=True) == np.sum(np.abs(lam) > tol)


@settings(max_examples=200)
@given(square)
def test_inverse_has_reciprocal_eigenvalues_with_the_same_eigenvectors(A):
    assume(np.linalg.cond(A) < 1e6)
    lam, U = np.linalg.eig(A)
    A_inv = np.linalg.inv(A)
    np.testing.assert_allclose(A_inv @ U, U / lam, atol=1e-6 * max(1.0, np.abs(A_inv).max()))


@settings(max_examples=200)
@given(square, st.booleans())
def test_triangular_and_diagonal_eigenvalues_are_the_diagonal(A, lower):
    T = np.tril(A) if lower else np.triu(A)
    np.testing.assert_allclose(
        np.sort_complex(np.linalg.eigvals(T)),
        np.sort_complex(np.diag(T).astype(complex)),
        atol=1e-6,
    )
    D = np.diag(np.diag(A))
    np.testing.assert_allclose(np.sort(np.linalg.eigvals(D).real), np.sort(np.diag(A)))


def test_a_triangular_matrix_can_have_an_eigenvector_off_the_standard_basis():
    """The eigenvalues of a triangular matrix are its diagonal; its eigenvectors need
    not be standard basis vectors: here e2 is not one (e1 is, as for every upper
    triangular matrix, and a diagonal matrix has them all)."""
    T = np.array([[1.0, 1.0], [0.0, 2.0]])
    lam, U = diagonalize(T)
    e2 = np.array([0.0, 1.0])
    assert not np.allclose(T @ e2, 2.0 * e2)
    np.testing.assert_allclose(T @ U, U * lam)


@pytest.mark.slow
@settings(max_examples=300)
@given(square)
def test_diagonalize_rebuilds_the_matrix(A):
    refused = np.linalg.cond(np.linalg.eig(A)[1]) > 1e6
    if refused:
        with pytest.raises(ValueError, match="not diagonalizable"):
            diagonalize(A, cond_max=1e6)
    assume(not refused)
    lam, U = diagonalize(A, cond_max=1e6)
    np.testing.assert_allclose(A @ U, U * lam, atol=1e-7 * max(1.0, np.abs(A).max()))
    rebuilt = U @ np.diag(lam) @ np.linalg.inv(U)
    np.testing.assert_allclose(rebuilt, A, atol=1e-6 * max(1.0, np.abs(A).max()))


def test_diagonalize_returns_complex_eigenvalues_for_a_plane_rotation():
    c, s = np.cos(0.3), np.sin(0.3)
    lam, U = diagonalize([[c, -s], [s, c]])
    assert np.iscomplexobj(lam)
    np.testing.assert_allclose(np.sort_complex(lam), [np.exp(-0.3j), np.exp(0.3j)])
    assert np.sum(lam).real == pytest.approx(2 * c)  # the trace is still the sum


def test_diagonalize_real_output_for_symmetric_input():
    lam, U = diagonalize([[2.0, 1.0], [1.0, 2.0]])
    assert not np.iscomplexobj(lam) and not np.iscomplexobj(U)


@pytest.mark.parametrize(
    ("A", "message"),
    [
        (np.ones((2, 3)), "A must be a non-empty square matrix"),
        (np.ones(3), "A must be a non-empty square matrix"),
        ([[1.0, np.inf], [0.0, 1.0]], "A must be finite"),
        ([[1.0, 1.0], [0.0, 1.0]], "A is not diagonalizable"),
    ],
)
def test_diagonalize_errors(A, message):
    with pytest.raises(ValueError, match=message):
        diagonalize(A)


@settings(max_examples=200)
@given(vectors(3), st.floats(0.1, np.pi - 0.1))
def test_a_rotation_axis_is_an_eigenvector_with_eigenvalue_one(axis, angle):
    assume(np.linalg.norm(axis) > 1e-2)
    axis = axis / np.linalg.norm(axis)
    R = Rotation.from_rotvec(angle * axis).as_matrix()
    np.testing.assert_allclose(R @ axis, axis, atol=1e-12)
    lam = np.linalg.eigvals(R)
    assert np.sum(np.isclose(lam, 1.0)) == 1
    assert np.prod(lam).real == pytest.approx(1.0)  # det R = 1


def test_eigenvectors_span_the_nullspace_of_a_minus_lambda_i():
    """u is an eigenvector for lambda iff it is a non-zero vector of nullspace(A - lambda I)."""
    A = np.array([[2.0, 0.0, 0.0], [0.0, 3.0, 4.0], [0.0, 4.0, 9.0]])
    for lam in np.linalg.eigvalsh(A):
        N = scipy.linalg.null_space(A - lam * np.eye(3))
        assert N.shape[1] == 1
        np.testing.assert_allclose(A @ N, lam * N, atol=1e-12)


def test_public_names():
    assert set(linalg.__all__) >= {"project", "gram_schmidt"}
    for name in linalg.__all__:
        assert getattr(linalg, name).__doc__


@pytest.mark.parametrize(
    ("X", "rtol", "error", "message"),
    [
        ([["a"]], 1e-10, TypeError, "X must be a matrix of real numbers, got [['a']] (dtype <U1)"),
        (np.eye(2), 0.0, ValueError, "rtol must be a real number in (0, 1), got 0.0"),
        (np.eye(2), 1.0, ValueError, "rtol must be a real number in (0, 1), got 1.0"),
        (np.eye(2), 1.5, ValueError, "rtol must be a real number in (0, 1), got 1.5"),
        (
            np.zeros((0, 2)),
            1e-10,
            ValueError,
            "X must be a non-empty 1-D or 2-D array, got shape (0, 2)",
        ),
        (
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 0.0]],
            1e-10,
            ValueError,
            "X has linearly dependent columns: column 2 is zero, a combination of columns 0..1",
        ),
    ],
)
def test_gram_schmidt_errors_in_full(X, rtol, error, message):
    """The whole message: the argument, the rule it breaks, and what was received."""
    with pytest.raises(error) as info:
        gram_schmidt(X, rtol=rtol)
    assert str(info.value) == message


def test_gram_schmidt_rtol_is_relative_to_the_column_length():
    """Column 1's residual against column 0 is about 0.07 of its length (least squares):
    refused at rtol = 0.1, accepted at rtol = 0.05 (the docstring's rule)."""
    X = np.array([[1.0, 1.1], [1.0, 0.9], [1.0, 1.0], [1.0, 1.0]])
    coef = np.linalg.lstsq(X[:, :1], X[:, 1], rcond=None)[0]
    relative = np.linalg.norm(X[:, 1] - X[:, :1] @ coef) / np.linalg.norm(X[:, 1])
    assert 0.05 < relative < 0.1
    with pytest.raises(ValueError) as info:
        gram_schmidt(X, rtol=0.1)
    assert str(info.value) == (
        "X has linearly dependent columns: column 1 is, to relative tolerance rtol=0.1, "
        "a combination of columns 0..0"
    )
    Q = gram_schmidt(X, rtol=0.05)
    np.testing.assert_allclose(Q.T @ Q, np.eye(2), atol=1e-12)


@pytest.mark.parametrize(
    ("A", "cond_max", "error", "message"),
    [
        (
            [["a"]],
            1e10,
            TypeError,
            "A must be a square matrix of real numbers, got [['a']] (dtype <U1)",
        ),
        (np.eye(2), 0.5, ValueError, "cond_max must be a real number in [1, inf), got 0.5"),
    ],
)
def test_diagonalize_errors_in_full(A, cond_max, error, message):
    with pytest.raises(error) as info:
        diagonalize(A, cond_max=cond_max)
    assert str(info.value) == message


@pytest.mark.parametrize("cond_max", [1.0, 1.5])
def test_diagonalize_accepts_condition_number_equal_to_cond_max(cond_max):
    """A diagonal matrix: U = I, of condition number exactly 1, within any cond_max >= 1
    (the docstring refuses only a condition number above it)."""
    lam, U = diagonalize(np.diag([1.0, 2.0]), cond_max=cond_max)
    np.testing.assert_array_equal(lam, [1.0, 2.0])
    np.testing.assert_array_equal(U, np.eye(2))


@pytest.mark.parametrize(
    ("y", "A", "error", "message"),
    [
        (
            [["a"]],
            [1.0],
            TypeError,
            "y must be a vector or matrix of real numbers, got [['a']] (dtype <U1)",
        ),
        (
            [1.0],
            [["a"]],
            TypeError,
            "A must be a vector or matrix of real numbers, got [['a']] (dtype <U1)",
        ),
        (
            [1.0, 2.0],
            [[1.0], [2.0], [3.0]],
            ValueError,
            "mismatched dimensions: y has 2 rows, A has 3 rows",
        ),
        (
            [1.0, 2.0, 3.0],
            np.ones((3, 1, 1)),
            ValueError,
            "A must be a non-empty 1-D or 2-D array, got shape (3, 1, 1)",
        ),
    ],
)
def test_project_errors_in_full(y, A, error, message):
    with pytest.raises(error) as info:
        project(y, A)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("p", "u", "q", "v", "message"),
    [
        (
            [0, 0, 0],
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            "u must be a non-zero direction vector, got [0.0, 0.0, 0.0]",
        ),
        (
            [0, 0, 0],
            [1, 0, 0],
            [1, 0, 0],
            [0, 0, 0],
            "v must be a non-zero direction vector, got [0.0, 0.0, 0.0]",
        ),
        (
            [0, 0],
            [1, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            "mismatched dimensions: p has 2, u has 3, q has 3, v has 3",
        ),
        (
            [0, 0, 0],
            [1, 0],
            [1, 0, 0],
            [0, 1, 0],
            "mismatched dimensions: p has 3, u has 2, q has 3, v has 3",
        ),
        (
            [0, 0, 0],
            [1, 0, 0],
            [1, 0],
            [0, 1, 0],
            "mismatched dimensions: p has 3, u has 3, q has 2, v has 3",
        ),
        (
            [0, 0, 0],
            [1, 0, 0],
            [1, 0, 0],
            [0, 1],
            "mismatched dimensions: p has 3, u has 3, q has 3, v has 2",
        ),
    ],
)
def test_distance_line_line_errors_in_full(p, u, q, v, message):
    with pytest.raises(ValueError) as info:
        distance_line_line(p, u, q, v)
    assert str(info.value) == message


def test_project_beyond_the_largest_float_is_inf_without_a_warning():
    """y = (1.7e308, 1.7e308) onto the line of (1, 2): (3 * 1.7e308 / 5) (1, 2), whose second
    coordinate 2.04e308 exceeds the largest float (1.8e308): inf, silently."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = project([1.7e308, 1.7e308], [[1.0], [2.0]])
    assert got[0] == pytest.approx(1.7e308 / 5 * 3, rel=1e-15) and got[1] == math.inf


@pytest.mark.parametrize(
    ("function", "args", "message"),
    [
        (
            distance_point_plane,
            ([0, 0], [0, 0, 0], [0, 0, 1]),
            "mismatched dimensions: p has 2, q has 3, normal has 3",
        ),
        (
            distance_point_plane,
            ([0, 0, 0], [0, 0], [0, 0, 1]),
            "mismatched dimensions: p has 3, q has 2, normal has 3",
        ),
        (
            distance_point_plane,
            ([0, 0, 0], [0, 0, 0], [0, 1]),
            "mismatched dimensions: p has 3, q has 3, normal has 2",
        ),
        (
            distance_point_plane,
            ([0, 0, 0], [0, 0, 0], [0, 0, 0]),
            "normal must be a non-zero vector, got [0.0, 0.0, 0.0]",
        ),
        (
            distance_point_line,
            ([0, 0], [0, 0, 0], [0, 0, 1]),
            "mismatched dimensions: p has 2, q has 3, u has 3",
        ),
        (
            distance_point_line,
            ([0, 0, 0], [0, 0], [0, 0, 1]),
            "mismatched dimensions: p has 3, q has 2, u has 3",
        ),
        (
            distance_point_line,
            ([0, 0, 0], [0, 0, 0], [0, 1]),
            "mismatched dimensions: p has 3, q has 3, u has 2",
        ),
        (
            distance_point_line,
            ([0, 0, 0], [0, 0, 0], [0, 0, 0]),
            "u must be a non-zero direction vector, got [0.0, 0.0, 0.0]",
        ),
    ],
)
def test_point_distances_errors_in_full(function, args, message):
    with pytest.raises(ValueError) as info:
        function(*args)
    assert str(info.value) == message


def test_distance_line_line_scalar_names_both_normals_when_not_parallel():
    with pytest.raises(ValueError) as info:
        distance_line_line_scalar(1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    assert str(info.value) == (
        "the lines are not parallel: (a1, b1) = (1.0, 0.0), (a2, b2) = (0.0, 1.0)"
    )


def test_distance_line_line_scalar_parallel_to_one_part_in_1e12():
    """Normals (1, 0) and (1, b): |sin(angle)| = b / sqrt(1 + b^2), about b. At b = 1.2e-12
    the lines are not parallel; at b = 9e-13 they are, 3 apart (x = 0 and x = -3)."""
    with pytest.raises(ValueError, match="the lines are not parallel"):
        distance_line_line_scalar(1.0, 0.0, 0.0, 1.0, 1.2e-12, 3.0)
    assert distance_line_line_scalar(1.0, 0.0, 0.0, 1.0, 9e-13, 3.0) == pytest.approx(3.0)


def test_diagonalize_one_by_one():
    """A 1 x 1 matrix [[5]]: eigenvalue 5, eigenvector 1."""
    lam, U = diagonalize([[5.0]])
    assert lam.tolist() == [5.0] and U.tolist() == [[1.0]]


def test_gram_schmidt_two_passes_give_the_rounded_exact_result_here():
    """Columns (3, 1) and (5, 3): exactly, v_2 = (5, 3) - (18/10)(3, 1) = (-2/5, 6/5).
    The two passes return its correctly rounded value; a third pass would move the
    first entry by one unit in the last place (to -0.3999999999999999)."""
    X = np.array([[3.0, 5.0], [1.0, 3.0]])
    x1 = [Fraction(3), Fraction(1)]
    x2 = [Fraction(5), Fraction(3)]
    k = (x2[0] * x1[0] + x2[1] * x1[1]) / (x1[0] ** 2 + x1[1] ** 2)
    v2 = [float(a - k * b) for a, b in zip(x2, x1)]
    assert v2 == [-0.4, 1.2]
    np.testing.assert_array_equal(gram_schmidt(X, normalize=False), [[3.0, -0.4], [1.0, 1.2]])


def test_gram_schmidt_refuses_a_residual_just_shorter_than_rtol_times_the_length():
    """Columns (1, 0) and (0.75, 1): the residual of column 1 is (0, 1), of length 1;
    column 1 has length 5/4. The float rtol = 0.8 is a little above 4/5, so the
    residual is shorter than rtol times the length (by about 6e-17, below what the
    float product 0.8 * 1.25 = 1.0 can show): the docstring's rule refuses it."""
    rtol = 0.8
    assert Fraction(rtol) * Fraction(5, 4) > 1
    assert rtol * 1.25 == 1.0  # the float product rounds onto the residual's length
    with pytest.raises(ValueError, match="column 1 is, to relative tolerance rtol=0.8"):
        gram_schmidt(np.array([[1.0, 0.75], [0.0, 1.0]]), rtol=rtol)
    gram_schmidt(np.array([[1.0, 0.75], [0.0, 1.0]]), rtol=0.79)  # 1 > 0.79 * 5/4


def test_distance_line_line_refuses_a_sine_of_exactly_1e_10():
    """u = (a, b, c, d, 0) with a^2 + b^2 + c^2 + d^2 = N = 10^20 - 1 and v = u + e_5:
    u.u = u.v = N, v.v = N + 1, so sin^2(angle) = 1 - N^2 / (N (N + 1)) = 1 / 10^20
    exactly, and |sin| = 1e-10 is "at most 1e-10": parallel, as the docstring says."""
    u = [9999999999, 141419, 769, 274, 0]
    v = [9999999999, 141419, 769, 274, 1]
    uu = sum(x * x for x in u)
    vv = sum(x * x for x in v)
    uv = sum(x * y for x, y in zip(u, v))
    assert uu == uv == 10**20 - 1 and vv == 10**20
    assert Fraction(uu * vv - uv * uv, uu * vv) == Fraction(1, 10**20)
    assert all(float(x) == x for x in u + v)  # exact as floats
    zero = [0.0] * 5
    with pytest.raises(ValueError, match="the lines are parallel"):
        distance_line_line(zero, [float(x) for x in u], zero, [float(x) for x in v])


def test_diagonalize_default_cond_max_is_1e10():
    """A = [[1, b], [0, 2]] has eigenvectors (1, 0) and (b, 1) / sqrt(1 + b^2); the
    2 x 2 matrix U of these unit columns has condition number b + sqrt(1 + b^2)
    (singular values sqrt(1 +- b / sqrt(1 + b^2))). At b = 5000000000.25 that is
    1e10 + 0.5, to within 0.1 (checked exactly, in rationals): above the default
    cond_max = 1e10, refused, and within cond_max = 1e10 + 1."""
    b = 5000000000.25
    root_squared = 1 + Fraction(b) ** 2  # (cond - b)^2, with cond - b > 0
    assert (Fraction(10**10) + Fraction(2, 5) - Fraction(b)) ** 2 < root_squared
    assert root_squared < (Fraction(10**10) + Fraction(3, 5) - Fraction(b)) ** 2
    A = [[1.0, b], [0.0, 2.0]]
    with pytest.raises(ValueError, match="cond_max = 1e\\+10"):
        diagonalize(A)
    lam, U = diagonalize(A, cond_max=1e10 + 1)
    np.testing.assert_allclose(lam, [1.0, 2.0])
    np.testing.assert_allclose(np.abs(U[:, 1]), [1.0, 1 / b], rtol=1e-12)
