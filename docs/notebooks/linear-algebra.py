# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Linear algebra: the notebook
#
# The companion of the [Linear Algebra notes](../notes/linear-algebra.md). It runs the
# page's computations with `mlnotes.linalg`, NumPy and SciPy, and checks them (with
# `assert`s) on random inputs instead of one worked example: the two forms of each
# distance agree, a
# projection is numpy's least-squares fit, Gram–Schmidt gives orthonormal vectors with
# the same nested spans (and the notes' formula, which divides by $\|\mathbf{v}\|_2$
# instead of $\|\mathbf{v}\|_2^2$, does not), and the eigenvalue properties hold where
# the page says they do.

# %%
import matplotlib.pyplot as plt
import numpy as np
import scipy.linalg
from scipy.spatial.transform import Rotation

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

rng = np.random.default_rng(0)

# %% [markdown]
# ## Distances: both forms, on random inputs
#
# For a random plane $ax + by + cz + d = 0$, the point $Q = -d\,\vec{n}/\|\vec{n}\|_2^2$
# lies on it; the vector form (from $Q$ and the normal $\vec{n} = (a, b, c)$) and the
# scalar form (from the coefficients) must agree. The same for a line of the plane and
# for two points of the plane, and for the line–line distance against the cross-product
# formula of $\mathbb{R}^3$.

# %%
worst = {"point-point": 0.0, "point-plane": 0.0, "point-line": 0.0, "line-line": 0.0}
for _ in range(1000):
    p, normal, d = rng.normal(size=3), rng.normal(size=3), rng.normal()
    q = -d * normal / (normal @ normal)
    gap = distance_point_plane(p, q, normal) - distance_point_plane_scalar(*p, *normal, d)
    worst["point-plane"] = max(worst["point-plane"], abs(gap))

    p2, (a, b), c = rng.normal(size=2), rng.normal(size=2), rng.normal()
    q2 = -c * np.array([a, b]) / (a * a + b * b)
    gap = distance_point_line(p2, q2, [-b, a]) - distance_point_line_scalar(*p2, a, b, c)
    worst["point-line"] = max(worst["point-line"], abs(gap))

    gap = distance_point_point(p2, q2) - distance_point_point_scalar(*p2, *q2)
    worst["point-point"] = max(worst["point-point"], abs(gap))

    P, u, Q, v = rng.normal(size=(4, 3))
    n = np.cross(u, v)
    gap = distance_line_line(P, u, Q, v) - abs((Q - P) @ n) / np.linalg.norm(n)
    worst["line-line"] = max(worst["line-line"], abs(gap))
assert max(worst.values()) < 1e-12, worst
worst

# %% [markdown]
# The notes' scalar form for parallel lines rescales by a positive factor; when the two
# normals point in opposite directions it is wrong. How often, on random pairs of
# parallel lines?

# %%
wrong = negative = wrong_and_negative = 0
for _ in range(1000):
    (a1, b1), c1, c2, k = rng.normal(size=2), rng.normal(), rng.normal(), rng.normal()
    a2, b2 = k * a1, k * b1
    notes = abs(c1 - c2 * np.hypot(a1, b1) / np.hypot(a2, b2)) / np.hypot(a1, b1)
    ours = distance_line_line_scalar(a1, b1, c1, a2, b2, c2)
    is_wrong = not np.isclose(notes, ours)
    wrong += is_wrong
    negative += k < 0
    wrong_and_negative += is_wrong and k < 0
print(
    f"the notes' formula is wrong for {wrong} of 1000 pairs; "
    f"{negative} pairs have k < 0, and {wrong_and_negative} of the wrong ones are among them"
)
assert wrong == negative == wrong_and_negative  # wrong exactly when k < 0

# %% [markdown]
# ## Projection is least squares

# %%
A = rng.normal(size=(6, 3))
y = rng.normal(size=6)
p = project(y, A)
x_hat, *_ = np.linalg.lstsq(A, y, rcond=None)
assert np.allclose(p, A @ x_hat)  # least squares
assert np.allclose(A.T @ (y - p), 0)  # the residual is orthogonal to the columns
assert np.allclose(project(p, A), p)  # projecting twice changes nothing
print("p =", p.round(4))

# %% [markdown]
# ## Gram–Schmidt, and the notes' formula
#
# The correct process gives $\mathbf{Q}^\top\mathbf{Q} = \mathbf{I}$ and an
# upper-triangular $\mathbf{R} = \mathbf{Q}^\top\mathbf{X}$ (the nested spans agree). The
# notes' projection $\frac{\mathbf{x}\cdot\mathbf{v}}{\|\mathbf{v}\|_2}\mathbf{v}$ breaks
# orthogonality in general: $\mathbf{v}_2$, for one, comes out orthogonal to
# $\mathbf{v}_1$ only if $\|\mathbf{v}_1\|_2 = 1$ or $\mathbf{x}_2$ was orthogonal to it
# already ($\mathbf{v}_2 \cdot \mathbf{v}_1 = (\mathbf{x}_2 \cdot \mathbf{v}_1)(1 - \|\mathbf{v}_1\|_2)$).


# %%
def gram_schmidt_notes(X):
    """Equations (45)-(51) with the notes' projection, dividing by ||v_j||."""
    V = np.zeros_like(X)
    for i in range(X.shape[1]):
        V[:, i] = X[:, i] - sum(
            (X[:, i] @ V[:, j]) / np.linalg.norm(V[:, j]) * V[:, j] for j in range(i)
        )
    return V


X = rng.normal(size=(5, 4))
Q = gram_schmidt(X)
R = Q.T @ X
V_notes = gram_schmidt_notes(X)
V_notes /= np.linalg.norm(V_notes, axis=0)
ours, notes = np.abs(Q.T @ Q - np.eye(4)).max(), np.abs(V_notes.T @ V_notes - np.eye(4)).max()
assert ours < 1e-13 and np.allclose(np.tril(R, -1), 0) and notes > 1e-3
print("ours, max |Q^T Q - I|:  ", ours)
print("notes', max |V^T V - I|:", notes)

# %% [markdown]
# ## Eigenvalues: the properties
#
# Trace and determinant hold for every square matrix (complex eigenvalues included;
# here, three random ones); the rank property (rank = number of non-zero eigenvalues)
# for every diagonalizable one, but not for every other: it fails for the nilpotent
# $\mathbf{N}$ below and holds for the shear, neither of them diagonalizable.

# %%
for _ in range(3):
    M = rng.normal(size=(4, 4))
    lam = np.linalg.eigvals(M)
    assert np.isclose(np.trace(M), lam.sum()) and np.isclose(np.linalg.det(M), lam.prod())
    print(
        f"tr = {np.trace(M):+.6f}  sum = {lam.sum().real:+.6f}   "
        f"det = {np.linalg.det(M):+.6f}  prod = {lam.prod().real:+.6f}"
    )

N = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])  # nilpotent
print("rank(N) =", np.linalg.matrix_rank(N), " eigenvalues:", np.linalg.eigvals(N))
shear = np.array([[1.0, 1.0], [0.0, 1.0]])
print("rank(shear) =", np.linalg.matrix_rank(shear), " eigenvalues:", np.linalg.eigvals(shear))
# the rank property fails for N (rank 2, no non-zero eigenvalue), holds for the shear (2, 2)
assert np.linalg.matrix_rank(N) == 2 and np.allclose(np.linalg.eigvals(N), 0)
assert np.linalg.matrix_rank(shear) == 2 and np.allclose(np.linalg.eigvals(shear), 1)

# %%
axis = rng.normal(size=3)
axis /= np.linalg.norm(axis)
Rot = Rotation.from_rotvec(1.2 * axis).as_matrix()
lam, U = np.linalg.eig(Rot)
i = np.argmin(np.abs(lam - 1))
print("eigenvalues:", np.round(lam, 4))
on_axis = np.isclose(abs(U[:, i].real @ axis), 1.0)  # unit vectors: parallel iff |u . a| = 1
assert on_axis
print("the eigenvector for 1 is the axis (up to sign):", on_axis)

# %% [markdown]
# ## Diagonalization, and how a matrix maps the unit circle

# %%
A = np.array([[2.0, 1.0], [0.5, 1.5]])
lam, U = diagonalize(A)
assert np.allclose(U @ np.diag(lam) @ np.linalg.inv(U), A)
print("eigenvalues:", lam)

theta = np.linspace(0, 2 * np.pi, 200)
circle = np.stack([np.cos(theta), np.sin(theta)])
fig, ax = plt.subplots(figsize=(5, 4))
ax.plot(*circle, label="unit circle")
ax.plot(*(A @ circle), label="its image")
for i in range(2):
    ax.quiver(
        0,
        0,
        *(A @ U[:, i]),
        angles="xy",
        scale_units="xy",
        scale=1,
        color=f"C{i + 2}",
        label=f"A u{i + 1} = {lam[i]:g} u{i + 1}",
    )
ax.set(aspect="equal")
ax.legend(loc="upper left")
plt.show()

# %% [markdown]
# A defective matrix has no such basis of eigenvectors:

# %%
try:
    diagonalize([[1.0, 1.0], [0.0, 1.0]])
except ValueError as error:
    print("ValueError:", error)
print("nullspace of the shear minus I:", scipy.linalg.null_space(shear - np.eye(2)).ravel())
