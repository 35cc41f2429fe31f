"""Claims of the Linear Algebra page (docs/notes/linear-algebra.md) that the page states
without a doctest next to them: its notes, its added paragraphs, and the error cases
that moved off the page. Each test names the sentence it checks.

Error messages of `mlnotes.linalg` are being reworded elsewhere: these tests check the
exception type, not the wording.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
from scipy.stats import special_ortho_group

from mlnotes.linalg import (
    diagonalize,
    distance_line_line,
    distance_point_line,
    distance_point_plane,
    gram_schmidt,
    project,
)

RNG = np.random.default_rng(20251123)


def test_one_normal_defines_a_hyperplane_not_a_plane_of_r4():
    """Note after Definition 2.2: in R^n one normal defines a hyperplane (dimension n - 1).

    The plane of R^4 spanned by e1, e2 is at distance sqrt(2) from (0, 0, 1, 1); the
    formula with the normal e3 measures the distance to the hyperplane x3 = 0 instead.
    """
    P = np.array([0.0, 0.0, 1.0, 1.0])
    plane = np.eye(4)[:, :2]
    assert np.isclose(np.linalg.norm(P - project(P, plane)), np.sqrt(2))
    assert np.isclose(distance_point_plane(P, np.zeros(4), [0.0, 0.0, 1.0, 0.0]), 1.0)
    # and it is the distance to a hyperplane in every dimension tried
    for n in (2, 3, 5, 8):
        normal, Q, P = RNG.normal(size=(3, n))
        basis = scipy.linalg.null_space(normal[None, :])  # the hyperplane's directions
        assert basis.shape == (n, n - 1)
        residual = (P - Q) - project(P - Q, basis)
        assert np.isclose(distance_point_plane(P, Q, normal), np.linalg.norm(residual))


def test_the_residual_form_of_the_point_line_distance_is_the_minimum_in_any_dimension():
    """Correction of (37): the residual of the projection is the distance in every dimension."""
    for n in (2, 3, 4, 7):
        P, Q, u = RNG.normal(size=(3, n))
        t = np.linspace(-20, 20, 200001)
        brute = np.min(np.linalg.norm(Q + t[:, None] * u - P, axis=1))
        assert distance_point_line(P, Q, u) <= brute + 1e-12
        assert np.isclose(distance_point_line(P, Q, u), brute, atol=1e-6)


def test_parallel_lines_are_refused_by_distance_line_line():
    """Correction of (39): for parallel lines u x v = 0; distance_line_line raises."""
    P, u = np.zeros(3), np.array([1.0, 0.0, 0.0])
    Q = np.array([0.0, 5.0, 2.0])
    assert not np.any(np.cross(u, 3 * u))
    with pytest.raises(ValueError):
        distance_line_line(P, u, Q, 3 * u)


def test_summed_projections_onto_orthogonal_vectors_give_the_projection():
    """Added paragraph after the observation: summed projections onto the original vectors
    give the projection when they are orthogonal (and the page shows a case where they
    are not orthogonal and the sum is wrong)."""
    for m, n in ((3, 2), (5, 3), (6, 6)):
        V = gram_schmidt(RNG.normal(size=(m, n)), normalize=False)  # orthogonal, not unit
        y = RNG.normal(size=m)
        summed = sum((y @ a) / (a @ a) * a for a in V.T)
        assert np.allclose(summed, project(y, V))


def test_gram_schmidt_refuses_dependent_columns():
    """Moved off the page: dependent vectors have no orthogonal basis of the same size."""
    X = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    with pytest.raises(ValueError):
        gram_schmidt(np.column_stack([X[:, 0], X[:, 1], X[:, 0] - 2 * X[:, 1]]))


def test_gram_schmidt_output_spans_the_inputs_not_r_n():
    """Note after the Gram–Schmidt correction: n vectors of R^m, a basis of span(x_i)."""
    m, n = 5, 3
    X = RNG.normal(size=(m, n))
    V = gram_schmidt(X, normalize=False)
    assert V.shape == (m, n)
    assert np.linalg.matrix_rank(np.hstack([V, X])) == n  # same span, of dimension n < m
    for k in range(1, n + 1):  # and the nested spans agree
        assert np.linalg.matrix_rank(np.hstack([V[:, :k], X[:, :k]])) == k


def test_the_notes_projection_breaks_orthogonality_unless_the_norm_is_one():
    """Gram–Schmidt correction: the notes' v_i are "in general" not orthogonal.

    With the notes' projection, v2 . v1 = (x2 . v1)(1 - ||v1||): zero only when
    ||v1|| = 1 or x2 is already orthogonal to v1.
    """

    def proj_notes(x, v):
        return (x @ v) / np.linalg.norm(v) * v

    for _ in range(20):
        v1, x2 = RNG.normal(size=(2, 4))
        v2 = x2 - proj_notes(x2, v1)
        assert np.isclose(v2 @ v1, (x2 @ v1) * (1 - np.linalg.norm(v1)))
    v1 = np.array([0.6, 0.8])  # unit length: the notes' formula happens to be right
    assert np.isclose((np.array([1.0, 2.0]) - proj_notes(np.array([1.0, 2.0]), v1)) @ v1, 0)


def test_gram_schmidt_columns_are_orthonormal_up_to_rounding():
    """Added paragraph: the columns of gram_schmidt(X) are orthonormal up to rounding on the
    page's matrix."""
    X = np.array([[1.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    Q = gram_schmidt(X)
    assert np.abs(Q.T @ Q - np.eye(3)).max() < 1e-14


def _one_pass_modified_gram_schmidt(X):
    Q = np.array(X, dtype=float)
    for i in range(Q.shape[1]):
        for j in range(i):
            Q[:, i] -= (Q[:, j] @ Q[:, i]) * Q[:, j]
        Q[:, i] /= np.linalg.norm(Q[:, i])
    return Q


def test_gram_schmidt_accuracy_on_the_hilbert_matrices():
    """Added paragraph: on the 8 x 8 Hilbert matrix (condition number 1.5e10) one pass leaves
    the columns orthogonal to about 1e-7, the second pass to about 2e-16, as with
    numpy.linalg.qr (a few 1e-16); the 10 x 10 Hilbert matrix (condition number 1.6e13) has
    independent columns and is refused at the default tolerance, while rtol=1e-12 returns
    them orthonormal to a few 1e-16."""
    H = scipy.linalg.hilbert(8)
    assert 1.4e10 < np.linalg.cond(H) < 1.6e10
    one_pass = _one_pass_modified_gram_schmidt(H)
    assert 1e-8 < np.abs(one_pass.T @ one_pass - np.eye(8)).max() < 1e-6  # "about 1e-7"
    Q = gram_schmidt(H)
    # the last bits depend on the BLAS and the CPU: "about 2e-16" within a factor of 2,
    # "a few 1e-16" from 1e-16 to 1e-15
    assert 1e-16 <= np.abs(Q.T @ Q - np.eye(8)).max() < 4e-16  # "about 2e-16"
    Q, _ = np.linalg.qr(H)
    assert 1e-16 <= np.abs(Q.T @ Q - np.eye(8)).max() < 1e-15  # "a few 1e-16"
    H10 = scipy.linalg.hilbert(10)
    assert 1.5e13 < np.linalg.cond(H10) < 1.7e13
    assert abs(np.linalg.det(H10)) > 0 and np.all(np.linalg.eigvalsh(H10) > 0)  # independent
    with pytest.raises(ValueError, match="column 9"):
        gram_schmidt(H10)
    # the refusal is the default tolerance's choice: a looser one returns accurate columns
    Q10 = gram_schmidt(H10, rtol=1e-12)
    assert 1e-16 <= np.abs(Q10.T @ Q10 - np.eye(10)).max() < 1e-15  # "to a few 1e-16"


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_every_rotation_of_odd_dimension_has_the_eigenvalue_one(n):
    """Rotation correction: true in R^3 and in every R^n with n odd."""
    for R in special_ortho_group.rvs(n, size=50, random_state=n):
        assert np.isclose(np.linalg.det(R), 1.0)
        assert np.abs(np.linalg.eigvals(R) - 1).min() < 1e-8
        assert abs(np.linalg.det(R - np.eye(n))) < 1e-10


@pytest.mark.parametrize("theta", [0.3, 1.0, np.pi / 2, 2.5, np.pi, 4.0])
def test_a_plane_rotation_has_eigenvalues_e_to_the_plus_minus_i_theta(theta):
    """Rotation correction: e^(+-i theta), real only when theta is a multiple of pi."""
    c, s = np.cos(theta), np.sin(theta)
    lam = np.linalg.eigvals([[c, -s], [s, c]])
    assert np.allclose(np.sort_complex(lam), np.sort_complex(np.exp([1j * theta, -1j * theta])))
    real = np.allclose(lam.imag, 0)
    assert real == bool(np.isclose(np.sin(theta), 0))
    assert not np.any(np.isclose(lam, 1.0))  # no eigenvalue 1 for these theta


def test_an_even_dimensional_rotation_can_have_no_eigenvalue_one_but_some_do():
    """Rotation correction: in even dimensions a rotation *may* have no eigenvalue 1."""
    c, s = np.cos(1.0), np.sin(1.0)
    R2 = np.array([[c, -s], [s, c]])
    assert not np.any(np.isclose(np.linalg.eigvals(scipy.linalg.block_diag(R2, R2)), 1.0))
    # ... and may have one: a rotation of R^4 in the (e1, e2) plane fixes e3 and e4
    assert np.sum(np.isclose(np.linalg.eigvals(scipy.linalg.block_diag(R2, np.eye(2))), 1.0)) == 2


def test_rank_and_nonzero_eigenvalues():
    """Rank correction: #non-zero eigenvalues <= rank, with equality iff the eigenvalue 0
    has as many independent eigenvectors as its multiplicity (diagonalizable: always)."""
    cases = [
        (np.array([[0.0, 1.0], [0.0, 0.0]]), False),  # nilpotent: rank 1, eigenvalues 0, 0
        (np.array([[1.0, 1.0], [0.0, 1.0]]), True),  # shear: not diagonalizable, no 0
        (np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]]), False),
        (np.diag([0.0, 0.0, 3.0]), True),
    ]
    for A, equal in cases:
        n = A.shape[0]
        rank = np.linalg.matrix_rank(A)
        nonzero = int(np.sum(~np.isclose(np.linalg.eigvals(A), 0.0)))
        geometric = n - rank  # dimension of the nullspace: the eigenvectors for 0
        algebraic = n - nonzero
        assert nonzero <= rank
        assert (nonzero == rank) == equal == (geometric == algebraic)
    for _ in range(20):  # symmetric matrices of random rank are diagonalizable
        k = int(RNG.integers(1, 5))
        B = RNG.normal(size=(5, k))
        S = B @ B.T
        assert np.linalg.matrix_rank(S) == k
        assert np.sum(~np.isclose(np.linalg.eigvalsh(S), 0.0, atol=1e-9)) == k


def test_the_inverse_has_the_reciprocal_eigenvalues():
    """Property: A^-1 u_i = u_i / lambda_i for non-singular A (complex ones included)."""
    for _ in range(20):
        A = RNG.normal(size=(4, 4))
        lam, U = np.linalg.eig(A)
        assert np.allclose(np.linalg.inv(A) @ U, U / lam)


def test_diagonalize_refuses_the_shear():
    """Moved off the page: `diagonalize` raises a ValueError for the shear."""
    with pytest.raises(ValueError):
        diagonalize([[1.0, 1.0], [0.0, 1.0]])


def test_diagonalize_also_refuses_nearly_parallel_eigenvectors():
    """Added paragraph: the test is numerical; a diagonalizable matrix with distinct
    eigenvalues but nearly parallel eigenvectors is refused too."""
    A = np.array([[1.0, 1.0], [0.0, 1.0 + 1e-12]])
    lam = np.linalg.eigvals(A)
    assert lam[0] != lam[1]  # distinct eigenvalues: diagonalizable in exact arithmetic
    with pytest.raises(ValueError):
        diagonalize(A)


def test_diagonalize_accepts_a_defective_matrix_whose_eigenvectors_come_out_nearly_parallel():
    """Added paragraph: diagonalize "accepts some defective ones": [[3, 1], [-1, 1]] has the
    double eigenvalue 2 and the single eigenvector direction (1, -1), yet rounding gives
    two distinct eigenvalues and an invertible-looking U."""
    A = np.array([[3.0, 1.0], [-1.0, 1.0]])
    # defective in exact arithmetic: (lambda - 2)^2 and A - 2I of rank 1, nullspace (1, -1)
    assert np.allclose(np.poly(A), [1.0, -4.0, 4.0])
    assert np.linalg.matrix_rank(A - 2 * np.eye(2)) == 1
    assert np.allclose((A - 2 * np.eye(2)) @ [1.0, -1.0], 0.0)
    lam, U = diagonalize(A)  # no ValueError
    assert lam[0] != lam[1]
    assert np.linalg.cond(U) < 1e10
    assert np.allclose(np.abs(U[:, 0] @ U[:, 1]), 1.0)  # unit columns, nearly parallel


def test_the_summed_projection_can_be_right_for_one_y_without_orthogonal_vectors():
    """Added paragraph: summed projections give the projection "of every y" only for
    orthogonal vectors; for a single y (here one orthogonal to the span) they can agree."""
    A = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])
    y = np.cross(A[:, 0], A[:, 1])  # orthogonal to both columns
    summed = sum((y @ a) / (a @ a) * a for a in A.T)
    assert np.allclose(summed, project(y, A))
    # ... and for every y they agree only when the vectors are orthogonal: the summed map
    # is sum a a^T / |a|^2, the projection is Q Q^T
    summed_map = sum(np.outer(a, a) / (a @ a) for a in A.T)
    Q = gram_schmidt(A)
    assert not np.allclose(summed_map, Q @ Q.T)
    V = gram_schmidt(A, normalize=False)
    assert np.allclose(sum(np.outer(a, a) / (a @ a) for a in V.T), Q @ Q.T)


def test_distinct_eigenvalues_and_symmetric_matrices_are_diagonalizable():
    """Added paragraph: n distinct eigenvalues, or real symmetric: diagonalizable."""
    for _ in range(20):
        A = RNG.normal(size=(4, 4))
        lam, U = diagonalize(A)  # random: distinct eigenvalues, possibly complex
        assert np.allclose(U @ np.diag(lam) @ np.linalg.inv(U), A)
        S = A + A.T
        lam, U = diagonalize(S)
        assert not np.iscomplexobj(lam)
        assert np.allclose(U @ np.diag(lam) @ np.linalg.inv(U), S)
