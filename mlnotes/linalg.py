r"""Linear algebra of the notes: distances, projection, Gram–Schmidt, diagonalization.

The notes' formulas written out: the distances of Definitions 2.1–2.4 (vector and
scalar forms), the projection onto a span (Definition 2.7), the Gram–Schmidt process
(section 2.2.1) and a numerical diagonalizability test (section 2.3.2); rank, range,
nullspace and eigenvectors are NumPy's and SciPy's. Bad input raises `ValueError` or
`TypeError` naming the argument.

Each distance is its formula evaluated exactly at the given floats, rounded: within two
ulps (one where computed with `fractions`) at any magnitude where that value is a
normal float, and `inf` only when it exceeds the largest float.

References:
    Notes "MAC5921 - Deep Learning" (2025-11-23), section 2. G. Strang, *Introduction
    to Linear Algebra*, 5th ed., 2016, sections 4.2, 4.4 and 6.1–6.2.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from mlnotes import _validation as V

__all__ = [
    "diagonalize",
    "distance_line_line",
    "distance_line_line_scalar",
    "distance_point_line",
    "distance_point_line_scalar",
    "distance_point_plane",
    "distance_point_plane_scalar",
    "distance_point_point",
    "distance_point_point_scalar",
    "gram_schmidt",
    "project",
]

# A column is "dependent" on the previous ones when Gram–Schmidt leaves less than this
# fraction of its length: the relative size of what numerical round-off leaves of an
# exactly dependent column is a few machine epsilons times the condition number.
_DEPENDENCE_RTOL = 1e-10
# distance_line_line refuses directions u, v with sin^2(angle) <= this (|sin| <= 1e-10).
_PARALLEL_SIN2 = Fraction(1, 10**20)


def _vector(x: ArrayLike, name: str) -> np.ndarray:
    """Return `x` as a finite 1-D float array, or raise naming `name`."""
    arr = V.real_array(x, name, what="a vector of real numbers")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D vector, got shape {arr.shape}")
    return arr


def _exponent(x: np.ndarray) -> int:
    """The `e` with the largest |entry| of `x` in [2**(e-1), 2**e) (0 if all are 0).

    `np.ldexp(x, -e)` is then in [-1, 1], where squares cannot overflow, and exact
    except for entries more than about 2**1022 times smaller than the largest: they
    become subnormal and lose bits (0 from about 2**1075 times smaller).
    """
    largest = float(np.max(np.abs(x)))
    return math.frexp(largest)[1] if largest > 0 else 0


def _rationals(x: np.ndarray) -> list[Fraction]:
    """The entries of `x` as exact rationals (every finite float is one)."""
    return [Fraction(v) for v in x.tolist()]


def _dot(a: list[Fraction], b: list[Fraction]) -> Fraction:
    """The exact dot product of two rational vectors."""
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def _minus(q: list[Fraction], p: list[Fraction]) -> list[Fraction]:
    """The exact difference `q - p` of two rational vectors."""
    return [b - a for a, b in zip(p, q)]


def _sqrt_ratio(numerator: Fraction, denominator: Fraction) -> float:
    """`sqrt(numerator / denominator)` of exact rationals (numerator >= 0 < denominator).

    The ratio is brought into [1/2, 4) by a power of 4 (exact), rounded to a float,
    its square root taken (rounded again) and scaled back by a power of 2: within one
    ulp of the exact root where that is a normal float (a third rounding below it),
    `inf` when it exceeds the largest float.
    """
    ratio = numerator / denominator
    if ratio == 0:
        return 0.0
    e = (ratio.numerator.bit_length() - ratio.denominator.bit_length()) // 2
    reduced = ratio / Fraction(4) ** e if e >= 0 else ratio * Fraction(4) ** -e
    try:
        return math.ldexp(math.sqrt(float(reduced)), e)
    except OverflowError:
        return math.inf


def _exact(*values: float) -> list[Fraction]:
    return [Fraction(v) for v in values]


def _scalars(**values: object) -> list[float]:
    """The scalar coefficients of the scalar forms, as finite floats."""
    return [V.real(v, name) for name, v in values.items()]


def _same_dim(**vectors: np.ndarray) -> int:
    """Return the common length of `vectors`, or raise a ValueError naming them."""
    dims = {name: v.shape[0] for name, v in vectors.items()}
    if len(set(dims.values())) != 1:
        listing = ", ".join(f"{name} has {d}" for name, d in dims.items())
        raise ValueError(f"mismatched dimensions: {listing}")
    return next(iter(dims.values()))


def _nonzero(v: np.ndarray, name: str, what: str) -> None:
    if not np.any(v):
        raise ValueError(f"{name} must be a non-zero {what}, got {v.tolist()}")


# --------------------------------------------------------------------------------------
# Projection and Gram–Schmidt
# --------------------------------------------------------------------------------------


def _proj(x: np.ndarray, v: np.ndarray) -> np.ndarray:
    r"""$\operatorname{proj}(\mathbf{x}, \mathbf{v}) = \frac{\mathbf{x}\cdot\mathbf{v}}{\|\mathbf{v}\|_2^2}\mathbf{v}$."""
    return (x @ v) / (v @ v) * v


def gram_schmidt(
    X: ArrayLike, normalize: bool = True, *, rtol: float = _DEPENDENCE_RTOL
) -> np.ndarray:
    r"""Orthogonalize the columns of `X` with the Gram–Schmidt process.

    Column $i$ of the result is column $i$ of `X` minus its projections onto the
    columns already computed, divided by its norm when `normalize` is true:

    $$\mathbf{v}_i = \mathbf{x}_i - \sum_{j=1}^{i-1}
      \frac{\mathbf{x}_i \cdot \mathbf{v}_j}{\|\mathbf{v}_j\|_2^2}\,\mathbf{v}_j.$$

    The first $k$ columns of the result span what the first $k$ columns of `X` span,
    for every $k$. The projections are subtracted one at a time ("modified"
    Gram–Schmidt), twice over: the second pass removes what rounding left.

    Args:
        X: Matrix of shape `(m, n)` whose `n` columns are linearly independent vectors
            of $\mathbb{R}^m$ (so `n <= m`). A 1-D array of shape `(m,)` is one column.
        normalize: If true (the default) return orthonormal columns; if false,
            orthogonal columns $\mathbf{v}_i$ as in the notes' equations.
        rtol: Dependence tolerance, in $(0, 1)$: column $i$ is refused as a combination
            of the previous ones when what is left of it after the projections is
            no longer than `rtol` times its length.

    Returns:
        Array of shape `(m, n)` (or `(m,)` for a 1-D input) with orthogonal columns,
            orthonormal when `normalize` is true.

    Raises:
        ValueError: If `X` is not 1-D or 2-D, is empty, has NaN or ±inf entries, or
            its columns are dependent to relative tolerance `rtol` (a zero column and
            more columns than rows included), or `rtol` is not in $(0, 1)$. The test
            is numerical: nearly dependent columns are refused too (the $10 \times 10$
            Hilbert matrix is invertible, but refused at the default `rtol`).
        TypeError: If `X` holds something other than real numbers (booleans,
            complex numbers, strings, None), or `normalize` is not a bool.

    Precision:
        With `normalize`, $\max|\mathbf{Q}^\top\mathbf{Q} - \mathbf{I}| < 10^{-13}$ for
        up to 8 columns of condition number up to $10^{9}$.

    Examples:
        >>> import numpy as np
        >>> X = np.array([[3.0, 2.0], [1.0, 2.0]])
        >>> gram_schmidt(X, normalize=False)            # v2 = x2 - (8/10) x1
        array([[ 3. , -0.4],
               [ 1. ,  1.2]])
        >>> Q = gram_schmidt(X)
        >>> R = Q.T @ X                                 # the QR factorization
        >>> np.allclose(Q.T @ Q, np.eye(2)), np.allclose(np.tril(R, -1), 0)
        (True, True)
        >>> gram_schmidt([[1.0, 2.0], [1.0, 2.0]])
        Traceback (most recent call last):
        ...
        ValueError: X has linearly dependent columns: column 1 is, to relative tolerance rtol=1e-10, a combination of columns 0..0

    Equation:
        notes/linear-algebra.md#eq:la-gs-i
        notes/linear-algebra.md#eq:la-gs-proj

    References:
        Notes, section 2.2.1 "The Gram-Schmidt Process for Orthogonalization"
        (corrected: the projection divides by $\|\mathbf{v}_j\|_2^2$). Strang,
        *Introduction to Linear Algebra*, 5th ed., section 4.4.
    """
    arr = V.real_array(X, "X", what="a matrix of real numbers").copy()  # overwritten below
    rtol = V.real(rtol, "rtol", low=0.0, low_open=True, high=1.0, high_open=True)
    normalize = V.boolean(normalize, "normalize")
    one_d = arr.ndim == 1
    if one_d:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.size == 0:
        raise ValueError(f"X must be a non-empty 1-D or 2-D array, got shape {np.shape(arr)}")
    m, n = arr.shape
    if n > m:
        raise ValueError(
            f"X has linearly dependent columns: {n} columns in R^{m} (shape {arr.shape})"
        )
    # Scaling a column scales its v_i and leaves the others unchanged, so work on
    # columns of largest entry 1 (no overflow in the dot products; what underflows is
    # negligible against 1).
    scales = np.abs(arr).max(axis=0)
    for i in np.flatnonzero(scales == 0)[:1]:
        which = f"columns 0..{i - 1}" if i else "nothing"
        raise ValueError(
            f"X has linearly dependent columns: column {i} is zero, a combination of {which}"
        )
    arr /= scales
    out = np.empty_like(arr)
    for i in range(n):
        v = arr[:, i].copy()
        for _ in range(2):  # twice: the second pass removes what rounding left
            for j in range(i):
                v -= _proj(v, out[:, j])
        if np.linalg.norm(v) <= rtol * np.linalg.norm(arr[:, i]):
            raise ValueError(
                f"X has linearly dependent columns: column {i} is, to relative tolerance "
                f"rtol={rtol:g}, a combination of columns 0..{i - 1}"
            )
        out[:, i] = v
    if normalize:
        out /= np.linalg.norm(out, axis=0)
    else:
        out *= scales
    return out[:, 0] if one_d else out


def project(y: ArrayLike, A: ArrayLike) -> np.ndarray:
    r"""Orthogonal projection of `y` onto the span of the columns of `A`.

    The projection is the vector of $\operatorname{span}(\mathbf{A})$ closest to
    $\mathbf{y}$ (the notes' Definition 2.7),

    $$\operatorname{proj}(\mathbf{y}, \mathbf{A}) =
      \operatorname*{argmin}_{\mathbf{v} \in \operatorname{span}(\mathbf{A})}
      \|\mathbf{y} - \mathbf{v}\|_2,$$

    computed as the notes' observation says: find an orthonormal basis
    $\mathbf{q}_1, \dots, \mathbf{q}_n$ of the span with [`gram_schmidt`][mlnotes.linalg.gram_schmidt],
    then add up the projections onto each basis vector,
    $\sum_j (\mathbf{y}\cdot\mathbf{q}_j)\,\mathbf{q}_j$. For a single vector
    $\mathbf{a}$ this is $\frac{\mathbf{y}\cdot\mathbf{a}}{\|\mathbf{a}\|_2^2}\mathbf{a}$.
    The residual $\mathbf{y} - \operatorname{proj}(\mathbf{y}, \mathbf{A})$ is
    orthogonal to every column of $\mathbf{A}$.

    Args:
        y: Vector of shape `(m,)`, or `(m, k)` to project `k` vectors at once.
        A: Matrix of shape `(m, n)` with linearly independent columns, or a non-zero
            vector of shape `(m,)` (projection onto a line).

    Returns:
        The projection, with the shape of `y`.

    Raises:
        ValueError: If the first dimensions of `y` and `A` differ, an input is empty or
            holds NaN or ±inf, or `A`'s columns are linearly dependent (see
            [`gram_schmidt`][mlnotes.linalg.gram_schmidt]).
        TypeError: If an input holds something other than real numbers.

    Examples:
        Onto a line: $(2, 1)$ onto the horizontal axis.

        >>> project([2.0, 1.0], [3.0, 0.0])
        array([2., 0.])

        Onto the plane spanned by two columns in $\mathbb{R}^3$: the result is what
        least squares gives, $\mathbf{A}\hat{\mathbf{x}}$ with
        $\hat{\mathbf{x}} = \operatorname{argmin}_{\mathbf{x}}\|\mathbf{A}\mathbf{x} - \mathbf{y}\|_2$,
        and the residual is orthogonal to the plane.

        >>> import numpy as np
        >>> A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
        >>> y = np.array([1.0, 2.0, 3.0])
        >>> p = project(y, A)
        >>> p.round(4)
        array([0.7778, 2.2222, 2.8889])
        >>> x_hat, *_ = np.linalg.lstsq(A, y, rcond=None)
        >>> np.allclose(p, A @ x_hat)
        True
        >>> np.allclose(A.T @ (y - p), 0)
        True

        >>> project([1.0, 2.0], np.eye(3))
        Traceback (most recent call last):
        ...
        ValueError: mismatched dimensions: y has 2 rows, A has 3 rows
        >>> project(y, np.column_stack([A[:, 0], 2 * A[:, 0]]))
        Traceback (most recent call last):
        ...
        ValueError: A has linearly dependent columns: column 1 is, to relative tolerance rtol=1e-10, a combination of columns 0..0

    Equation:
        notes/linear-algebra.md#eq:la-projection

    References:
        Notes, section 2.2, Definition 2.7 "Linear Projection" and the observation
        after it. Strang, *Introduction to Linear Algebra*, 5th ed., sections 4.2
        and 4.4.
    """
    y_arr = V.real_array(y, "y", what="a vector or matrix of real numbers")
    A_arr = V.real_array(A, "A", what="a vector or matrix of real numbers")
    if y_arr.ndim not in (1, 2) or y_arr.size == 0:
        raise ValueError(f"y must be a non-empty 1-D or 2-D array, got shape {y_arr.shape}")
    if A_arr.ndim not in (1, 2) or A_arr.size == 0:
        raise ValueError(f"A must be a non-empty 1-D or 2-D array, got shape {A_arr.shape}")
    if y_arr.shape[0] != A_arr.shape[0]:
        raise ValueError(
            f"mismatched dimensions: y has {y_arr.shape[0]} rows, A has {A_arr.shape[0]} rows"
        )
    try:
        Q = gram_schmidt(A_arr.reshape(A_arr.shape[0], -1))
    except ValueError as error:  # its messages name its argument, X: here it is A
        raise ValueError(f"A{str(error).removeprefix('X')}") from None
    e = _exponent(y_arr)  # exact scaling: no overflow in the dot products
    with np.errstate(over="ignore"):
        return np.ldexp(Q @ (Q.T @ np.ldexp(y_arr, -e)), e)


# --------------------------------------------------------------------------------------
# Distances (Definitions 2.1-2.4)
# --------------------------------------------------------------------------------------


def distance_point_point(p: ArrayLike, q: ArrayLike) -> float:
    r"""Distance between two points of $\mathbb{R}^n$, $\|P - Q\|_2$.

    Args:
        p: Point $P$, shape `(n,)`.
        q: Point $Q$, shape `(n,)`.

    Returns:
        The Euclidean distance, a float.

    Raises:
        ValueError: If `p` and `q` are not vectors of the same length, or hold NaN or
            ±inf.
        TypeError: If `p` or `q` holds something other than real numbers.

    Examples:
        >>> distance_point_point([1.0, 2.0], [4.0, 6.0])
        5.0
        >>> distance_point_point([0.0, 0.0], [2e200, 0.0])   # its square would overflow
        2e+200
        >>> distance_point_point([0.0, 0.0, 0.0], [1.0, 2.0, 2.0])
        3.0

    Equation:
        notes/linear-algebra.md#eq:la-point-point

    References:
        Notes, section 2.1, Definition 2.1. Strang, *Introduction to
        Linear Algebra*, 5th ed., section 1.2.
    """
    p_arr, q_arr = _vector(p, "p"), _vector(q, "q")
    _same_dim(p=p_arr, q=q_arr)
    return math.dist(p_arr.tolist(), q_arr.tolist())  # scales: its squares do not overflow


def distance_point_point_scalar(x1: float, y1: float, x2: float, y2: float) -> float:
    r"""Distance between $P = (x_1, y_1)$ and $Q = (x_2, y_2)$ in $\mathbb{R}^2$.

    The scalar form $\sqrt{(x_2 - x_1)^2 + (y_2 - y_1)^2}$, computed by `math.hypot`
    (which scales: no overflow of the squares).

    Args:
        x1: First coordinate of $P$.
        y1: Second coordinate of $P$.
        x2: First coordinate of $Q$.
        y2: Second coordinate of $Q$.

    Returns:
        The distance, a float; equal to
            [`distance_point_point`][mlnotes.linalg.distance_point_point].

    Raises:
        ValueError: If a coordinate is NaN or ±inf.
        TypeError: If a coordinate is not a real number.

    Examples:
        >>> distance_point_point_scalar(1.0, 2.0, 4.0, 6.0)
        5.0

    Equation:
        notes/linear-algebra.md#eq:la-point-point-scalar

    References:
        Notes, section 2.1, Definition 2.1.
    """
    x1, y1, x2, y2 = _scalars(x1=x1, y1=y1, x2=x2, y2=y2)
    return math.hypot(x2 - x1, y2 - y1)  # a difference overflows only if the distance does


def distance_point_plane(p: ArrayLike, q: ArrayLike, normal: ArrayLike) -> float:
    r"""Distance from a point to a hyperplane, $|\vec{PQ}\cdot\vec{n}| / \|\vec{n}\|_2$.

    The hyperplane $\Sigma$ passes through $Q$ with normal vector $\vec{n}$; in
    $\mathbb{R}^3$ it is a plane, in $\mathbb{R}^2$ a line. The distance is the length
    of the projection of $\vec{PQ} = Q - P$ onto the normal, computed exactly in
    rational arithmetic, then rounded.

    Args:
        p: Point $P$, shape `(n,)`.
        q: Any point $Q$ of the hyperplane, shape `(n,)`.
        normal: Normal vector $\vec{n}$ of the hyperplane, shape `(n,)`, non-zero.

    Returns:
        The distance, a float.

    Raises:
        ValueError: If the three vectors have different lengths, hold NaN or ±inf, or
            `normal` is zero.
        TypeError: If a vector holds something other than real numbers.

    Examples:
        The plane $x + 2y + 2z - 6 = 0$ passes through $Q = (6, 0, 0)$ with normal
        $(1, 2, 2)$; the origin is at distance $6/3 = 2$:

        >>> distance_point_plane([0.0, 0.0, 0.0], [6.0, 0.0, 0.0], [1.0, 2.0, 2.0])
        2.0
        >>> distance_point_plane_scalar(0.0, 0.0, 0.0, 1.0, 2.0, 2.0, -6.0)
        2.0

    Equation:
        notes/linear-algebra.md#eq:la-point-plane

    References:
        Notes, section 2.1, Definition 2.2. Strang, *Introduction to
        Linear Algebra*, 5th ed., section 4.2.
    """
    p_arr, q_arr, n_arr = _vector(p, "p"), _vector(q, "q"), _vector(normal, "normal")
    _same_dim(p=p_arr, q=q_arr, normal=n_arr)
    _nonzero(n_arr, "normal", "vector")
    normal_ = _rationals(n_arr)
    dot = _dot(_minus(_rationals(q_arr), _rationals(p_arr)), normal_)  # exact
    return _sqrt_ratio(dot * dot, _dot(normal_, normal_))


def distance_point_plane_scalar(
    x0: float, y0: float, z0: float, a: float, b: float, c: float, d: float
) -> float:
    r"""Distance from $P = (x_0, y_0, z_0)$ to the plane $ax + by + cz + d = 0$.

    The scalar form $\dfrac{|a x_0 + b y_0 + c z_0 + d|}{\sqrt{a^2 + b^2 + c^2}}$,
    evaluated exactly in rational arithmetic (`fractions.Fraction`) and rounded at the
    end (the ratio under the square root, then the root): no overflow, underflow or
    cancellation on the way, so the result is within one ulp of the exact distance
    where that is a normal float, and `inf` only when it exceeds the largest float.

    Args:
        x0: First coordinate of $P$.
        y0: Second coordinate of $P$.
        z0: Third coordinate of $P$.
        a: Coefficient of $x$ in the plane's equation.
        b: Coefficient of $y$.
        c: Coefficient of $z$.
        d: Constant term.

    Returns:
        The distance, a float.

    Raises:
        ValueError: If $a = b = c = 0$ (the equation is not a plane), or an argument
            is NaN or ±inf.
        TypeError: If an argument is not a real number.

    Examples:
        >>> distance_point_plane_scalar(1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0)
        1.0
        >>> distance_point_plane_scalar(0.0, 0.0, 1.0, 0.0, 0.0, 1e-200, 0.0)  # tiny normal
        1.0

    Equation:
        notes/linear-algebra.md#eq:la-point-plane-scalar

    References:
        Notes, section 2.1, Definition 2.2.
    """
    x0, y0, z0, a, b, c, d = _scalars(x0=x0, y0=y0, z0=z0, a=a, b=b, c=c, d=d)
    if a == b == c == 0:
        raise ValueError(f"(a, b, c) must not all be zero, got {(a, b, c)}")
    x0, y0, z0, a, b, c, d = _exact(x0, y0, z0, a, b, c, d)
    residual = a * x0 + b * y0 + c * z0 + d
    return _sqrt_ratio(residual * residual, a * a + b * b + c * c)


def distance_point_line(p: ArrayLike, q: ArrayLike, u: ArrayLike) -> float:
    r"""Distance from a point $P$ to the line $L: \vec{r}(t) = Q + t\vec{u}$ in $\mathbb{R}^n$.

    The distance is the length of the part of $\vec{PQ} = Q - P$ orthogonal to the
    line, $\|\vec{PQ} - \operatorname{proj}(\vec{PQ}, \vec{u})\|_2$, which in
    $\mathbb{R}^3$ equals the notes' $\|\vec{PQ} \times \vec{u}\|_2 / \|\vec{u}\|_2$
    (the notes' formula needs a cross product, which `numpy.cross` computes for
    3-vectors, and, deprecated since NumPy 2.0, for 2-vectors; this form needs none and
    works in any dimension). Computed exactly in rational arithmetic, then rounded.

    Args:
        p: Point $P$, shape `(n,)`.
        q: Point $Q$ on the line, shape `(n,)`.
        u: Direction $\vec{u}$ of the line, shape `(n,)`, non-zero.

    Returns:
        The distance, a float.

    Raises:
        ValueError: If the vectors have different lengths, hold NaN or ±inf, or `u`
            is zero.
        TypeError: If a vector holds something other than real numbers.

    Examples:
        >>> import numpy as np
        >>> p, q, u = np.array([1.0, 2.0, 3.0]), np.array([0.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0])
        >>> round(distance_point_line(p, q, u), 6)
        3.605551
        >>> round(float(np.linalg.norm(np.cross(q - p, u)) / np.linalg.norm(u)), 6)
        3.605551

        In $\mathbb{R}^2$, the line $x - y + 1 = 0$ passes through $(0, 1)$ with
        direction $(1, 1)$:

        >>> round(distance_point_line([1.0, 0.0], [0.0, 1.0], [1.0, 1.0]), 6)
        1.414214
        >>> round(distance_point_line_scalar(1.0, 0.0, 1.0, -1.0, 1.0), 6)
        1.414214

    Equation:
        notes/linear-algebra.md#eq:la-point-line

    References:
        Notes, section 2.1, Definition 2.3. Strang,
        *Introduction to Linear Algebra*, 5th ed., section 4.2.
    """
    p_arr, q_arr, u_arr = _vector(p, "p"), _vector(q, "q"), _vector(u, "u")
    _same_dim(p=p_arr, q=q_arr, u=u_arr)
    _nonzero(u_arr, "u", "direction vector")
    pq, direction = _minus(_rationals(q_arr), _rationals(p_arr)), _rationals(u_arr)
    uu, pu = _dot(direction, direction), _dot(pq, direction)
    # |PQ - proj(PQ, u)|^2 = |PQ|^2 - (PQ . u)^2 / |u|^2, exactly
    return _sqrt_ratio(_dot(pq, pq) * uu - pu * pu, uu)


def distance_point_line_scalar(x0: float, y0: float, a: float, b: float, c: float) -> float:
    r"""Distance from $P = (x_0, y_0)$ to the line $ax + by + c = 0$ in $\mathbb{R}^2$.

    The scalar form $\dfrac{|a x_0 + b y_0 + c|}{\sqrt{a^2 + b^2}}$, evaluated exactly
    in rational arithmetic and rounded at the end (the ratio under the square root, then
    the root): within one ulp of the exact distance where that is a normal float, `inf`
    only when it exceeds the largest float.

    Args:
        x0: First coordinate of $P$.
        y0: Second coordinate of $P$.
        a: Coefficient of $x$ in the line's equation.
        b: Coefficient of $y$.
        c: Constant term.

    Returns:
        The distance, a float.

    Raises:
        ValueError: If $a = b = 0$ (the equation is not a line), or an argument is NaN
            or ±inf.
        TypeError: If an argument is not a real number.

    Examples:
        >>> distance_point_line_scalar(3.0, 4.0, 0.0, 1.0, 0.0)
        4.0

    Equation:
        notes/linear-algebra.md#eq:la-point-line-scalar

    References:
        Notes, section 2.1, Definition 2.3.
    """
    x0, y0, a, b, c = _scalars(x0=x0, y0=y0, a=a, b=b, c=c)
    if a == b == 0:
        raise ValueError(f"(a, b) must not both be zero, got {(a, b)}")
    x0, y0, a, b, c = _exact(x0, y0, a, b, c)
    residual = a * x0 + b * y0 + c
    return _sqrt_ratio(residual * residual, a * a + b * b)


def distance_line_line(p: ArrayLike, u: ArrayLike, q: ArrayLike, v: ArrayLike) -> float:
    r"""Distance between the non-parallel lines $P + t\vec{u}$ and $Q + s\vec{v}$.

    The distance is the length of the part of $\vec{PQ} = Q - P$ orthogonal to both
    lines, i.e. to the plane spanned by $\vec{u}$ and $\vec{v}$:
    $\|\vec{PQ} - \operatorname{proj}(\vec{PQ}, [\vec{u}\ \vec{v}])\|_2$. In
    $\mathbb{R}^3$ this is the notes' formula
    $|\vec{PQ}\cdot(\vec{u}\times\vec{v})| / \|\vec{u}\times\vec{v}\|_2$; lines that
    intersect are at distance 0. Computed exactly in rational arithmetic, then rounded.

    Args:
        p: Point $P$ on the first line, shape `(n,)`.
        u: Direction $\vec{u}$ of the first line, shape `(n,)`.
        q: Point $Q$ on the second line, shape `(n,)`.
        v: Direction $\vec{v}$ of the second line, shape `(n,)`.

    Returns:
        The distance, a float.

    Raises:
        TypeError: If a vector holds something other than real numbers.
        ValueError: If the vectors have different lengths or hold NaN or ±inf, a
            direction is zero, or the lines are parallel or nearly so: the sine of the
            angle between $\vec{u}$ and $\vec{v}$ is at most $10^{-10}$ in absolute
            value (for parallel lines of $\mathbb{R}^3$, $\vec{u}\times\vec{v} =
            \vec{0}$ and the notes' formula divides by zero; their distance is
            `distance_point_line(p, q, v)`).

    Examples:
        Two skew lines in $\mathbb{R}^3$, one along the $x$ axis, one parallel to the
        $y$ axis at height 2:

        >>> import numpy as np
        >>> p, u = np.array([0.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0])
        >>> q, v = np.array([0.0, 5.0, 2.0]), np.array([0.0, 1.0, 0.0])
        >>> distance_line_line(p, u, q, v)
        2.0
        >>> n = np.cross(u, v)
        >>> float(abs((q - p) @ n) / np.linalg.norm(n))
        2.0

        >>> distance_line_line(p, u, q, 3 * u)
        Traceback (most recent call last):
        ...
        ValueError: the lines are parallel (u = [1.0, 0.0, 0.0], v = [3.0, 0.0, 0.0]): u x v = 0, use distance_point_line(p, q, v)

    Equation:
        notes/linear-algebra.md#eq:la-line-line

    References:
        Notes, section 2.1, Definition 2.4. Strang, *Introduction to
        Linear Algebra*, 5th ed., section 4.3 (least squares).
    """
    p_arr, u_arr = _vector(p, "p"), _vector(u, "u")
    q_arr, v_arr = _vector(q, "q"), _vector(v, "v")
    _same_dim(p=p_arr, u=u_arr, q=q_arr, v=v_arr)
    _nonzero(u_arr, "u", "direction vector")
    _nonzero(v_arr, "v", "direction vector")
    u_, v_ = _rationals(u_arr), _rationals(v_arr)
    uu, vv, uv = _dot(u_, u_), _dot(v_, v_), _dot(u_, v_)
    gram = uu * vv - uv * uv  # |u|^2 |v|^2 sin^2(angle), exactly
    if gram <= _PARALLEL_SIN2 * uu * vv:
        raise ValueError(
            f"the lines are parallel (u = {u_arr.tolist()}, v = {v_arr.tolist()}): "
            "u x v = 0, use distance_point_line(p, q, v)"
        )
    pq = _minus(_rationals(q_arr), _rationals(p_arr))
    pu, pv = _dot(pq, u_), _dot(pq, v_)
    # |PQ|^2 minus the squared length of its projection onto span(u, v), exactly
    projected = (pu * pu * vv - 2 * pu * pv * uv + pv * pv * uu) / gram
    return _sqrt_ratio(_dot(pq, pq) - projected, Fraction(1))


def distance_line_line_scalar(
    a1: float, b1: float, c1: float, a2: float, b2: float, c2: float
) -> float:
    r"""Distance between the parallel lines $a_1x + b_1y + c_1 = 0$ and $a_2x + b_2y + c_2 = 0$.

    Rescale the second equation by $k$ so that its normal equals the first one,
    $k(a_2, b_2) = (a_1, b_1)$; then the distance is
    $\dfrac{|c_1 - k c_2|}{\sqrt{a_1^2 + b_1^2}}$ with
    $k = \dfrac{a_1 a_2 + b_1 b_2}{a_2^2 + b_2^2}$. The factor $k$ is negative when the
    two normals point in opposite directions; the notes' scalar form uses
    $k = \sqrt{a_1^2 + b_1^2} / \sqrt{a_2^2 + b_2^2}$, which is always positive and
    wrong in that case. Evaluated exactly in rational arithmetic and rounded at the end
    (the ratio under the square root, then the root).

    Args:
        a1: Coefficient of $x$ in the first line's equation.
        b1: Coefficient of $y$ in the first line's equation.
        c1: Constant term of the first line's equation.
        a2: Coefficient of $x$ in the second line's equation.
        b2: Coefficient of $y$ in the second line's equation.
        c2: Constant term of the second line's equation.

    Returns:
        The distance, a float.

    Raises:
        TypeError: If an argument is not a real number.
        ValueError: If an argument is NaN or ±inf, a normal $(a_i, b_i)$ is zero, or
            the lines are not parallel: the sine of the angle between the normals
            exceeds $10^{-12}$ in absolute value (non-parallel lines of the plane
            intersect: their distance is 0, and this formula does not apply).

    Examples:
        The lines $x = 1$ and $x = 3$, the second written as $-x + 3 = 0$:

        >>> distance_line_line_scalar(1.0, 0.0, -1.0, -1.0, 0.0, 3.0)
        2.0

    Equation:
        notes/linear-algebra.md#eq:la-line-line-scalar
        notes/linear-algebra.md#eq:la-line-line-normalized

    References:
        Notes, section 2.1, Definition 2.4 (corrected).
    """
    a1, b1, c1, a2, b2, c2 = _scalars(a1=a1, b1=b1, c1=c1, a2=a2, b2=b2, c2=c2)
    if a1 == b1 == 0:
        raise ValueError(f"(a1, b1) must not both be zero, got {(a1, b1)}")
    if a2 == b2 == 0:
        raise ValueError(f"(a2, b2) must not both be zero, got {(a2, b2)}")
    normals = f"(a1, b1) = {(a1, b1)}, (a2, b2) = {(a2, b2)}"
    a1, b1, c1, a2, b2, c2 = _exact(a1, b1, c1, a2, b2, c2)  # exact rationals from here
    n1_sq, n2_sq = a1 * a1 + b1 * b1, a2 * a2 + b2 * b2
    cross = a1 * b2 - a2 * b1
    if cross * cross > Fraction(1, 10**24) * n1_sq * n2_sq:  # |sin(angle)| > 1e-12
        raise ValueError(f"the lines are not parallel: {normals}")
    k = (a1 * a2 + b1 * b2) / n2_sq
    gap = c1 - k * c2
    return _sqrt_ratio(gap * gap, n1_sq)


# --------------------------------------------------------------------------------------
# Diagonalization (section 2.3.2)
# --------------------------------------------------------------------------------------


def diagonalize(A: ArrayLike, cond_max: float = 1e10) -> tuple[np.ndarray, np.ndarray]:
    r"""Eigenvalues $\Lambda$ and eigenvectors $\mathbf{U}$ with $\mathbf{A} = \mathbf{U}\Lambda\mathbf{U}^{-1}$.

    `numpy.linalg.eig` returns $\mathbf{A}\mathbf{U} = \mathbf{U}\Lambda$ for every
    square matrix, but when $\mathbf{A}$ has fewer than $n$ independent eigenvectors
    (it is *defective*) the returned $\mathbf{U}$ is singular, or nearly so, and
    $\mathbf{U}\Lambda\mathbf{U}^{-1}$ is not $\mathbf{A}$. This function raises when
    the condition number of the computed $\mathbf{U}$ exceeds `cond_max`. That is a
    numerical test, not a proof of (non-)diagonalizability: it refuses some
    diagonalizable matrices whose eigenvectors are nearly parallel
    ($[[1, 1], [0, 1 + 10^{-12}]]$, distinct eigenvalues, $\operatorname{cond}(\mathbf{U})
    \approx 2 \times 10^{12}$), and it accepts some defective ones whose computed
    eigenvectors rounding has pulled apart ($[[3, 1], [-1, 1]]$, the double eigenvalue 2
    with one eigenvector direction, gives $\operatorname{cond}(\mathbf{U}) \approx
    10^{8}$ and rebuilds $\mathbf{A}$ to $10^{-8}$).

    Eigenvalues and eigenvectors are complex in general (a rotation of the plane by an
    angle other than $0$ and $\pi$ has none that are real); they are returned as real
    arrays when all imaginary parts are zero.

    Args:
        A: Square matrix, shape `(n, n)`.
        cond_max: Largest condition number of $\mathbf{U}$ accepted.

    Returns:
        `(eigenvalues, U)`: eigenvalues of shape `(n,)` and the matrix `(n, n)` whose
            column `i` is a unit eigenvector for `eigenvalues[i]`.

    Raises:
        ValueError: If `A` is not square or holds NaN or ±inf, the computed
            $\mathbf{U}$ has a condition number above `cond_max` (or infinite), or
            `cond_max` is not a finite number >= 1.
        TypeError: If `A` holds something other than real numbers: a complex matrix
            is rejected, not cast to its real part.

    Examples:
        >>> import numpy as np
        >>> A = np.array([[2.0, 1.0], [1.0, 2.0]])
        >>> lam, U = diagonalize(A)
        >>> np.sort(lam)
        array([1., 3.])
        >>> np.allclose(U @ np.diag(lam) @ np.linalg.inv(U), A)
        True

        A shear has the double eigenvalue 1 and a single eigenvector direction:

        >>> diagonalize([[1.0, 1.0], [0.0, 1.0]])
        Traceback (most recent call last):
        ...
        ValueError: A is not diagonalizable to working precision: the eigenvector matrix U from numpy.linalg.eig has condition number ... > cond_max = 1e+10, A = [[1.0, 1.0], [0.0, 1.0]]

    Equation:
        notes/linear-algebra.md#eq:la-eigen

    References:
        Notes, section 2.3.2 "Matrix Diagonalization". Strang, *Introduction to
        Linear Algebra*, 5th ed., section 6.2.
    """
    arr = V.real_array(A, "A", what="a square matrix of real numbers")
    cond_max = V.real(cond_max, "cond_max", low=1.0)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.size == 0:
        raise ValueError(f"A must be a non-empty square matrix, got shape {arr.shape}")
    lam, U = np.linalg.eig(arr)
    cond = np.linalg.cond(U)
    if not np.isfinite(cond) or cond > cond_max:
        raise ValueError(
            "A is not diagonalizable to working precision: the eigenvector matrix U from "
            f"numpy.linalg.eig has condition number {cond:.3g} > cond_max = {cond_max:g}, "
            f"A = {arr.tolist()}"
        )
    if np.iscomplexobj(lam) and np.all(lam.imag == 0) and np.all(U.imag == 0):
        lam, U = lam.real, U.real
    return lam, U
