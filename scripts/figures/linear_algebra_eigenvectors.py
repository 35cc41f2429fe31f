r"""How a matrix maps the unit circle, and where its eigenvectors go.

The matrix $\mathbf{A} = \begin{pmatrix} 2 & 1 \\ 0.5 & 1.5 \end{pmatrix}$ maps the unit
circle (left) to an ellipse (right). A generic unit vector $\mathbf{x}$ is turned as
well as stretched; the eigenvectors $\mathbf{u}_1, \mathbf{u}_2$, computed with
`mlnotes.linalg.diagonalize`, stay on their own lines (dotted) and are only scaled, by
$\lambda_1 = 2.5$ and $\lambda_2 = 1$. The eigenvectors of this non-symmetric matrix
are not orthogonal, and they are not the axes of the ellipse. The reader can move the
lower-left entry $c$ (0.5 above) from 0 to 1: at $c = 1$ the matrix is symmetric, and its
eigenvectors are orthogonal and lie along the axes of the ellipse.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.linalg import diagonalize

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Left: the unit circle with the two eigenvectors u1 and u2 of the matrix [[2, 1], [0.5, 1.5]], "
    "a generic unit vector x, and dotted lines along the eigenvector directions. Right: the circle "
    "mapped to an ellipse by the matrix; A u1 is 2.5 times u1 and A u2 is u2, both still on their "
    "dotted lines, while A x has turned."
)


#: The reader's control: the entry c of A = [[2, 1], [c, 1.5]] (0.5: the figure of the text).
EXPLORE = {
    "c": {
        "label": "c, the lower-left entry of A",
        "unit": "",
        "grid": (0.0, 0.25, 0.5, 0.75, 1.0),
        "format": "{:g}",
    },
}


def make_figure(c=0.5):
    A = np.array([[2.0, 1.0], [c, 1.5]])
    eigenvalues, U = diagonalize(A)
    order = np.argsort(eigenvalues)[::-1]
    eigenvalues, U = eigenvalues[order], U[:, order]
    U *= np.sign(U[0])  # point both eigenvectors to the right, for the drawing

    theta = np.linspace(0, 2 * np.pi, 400)
    circle = np.stack([np.cos(theta), np.sin(theta)])
    x = np.array([np.cos(1.9), np.sin(1.9)])  # a unit vector that is no eigenvector

    fig, axes = plt.subplots(
        1, 2, figsize=(10, 4.4), sharex=True, sharey=True, layout="constrained"
    )
    arrow = dict(angles="xy", scale_units="xy", scale=1, width=0.01)
    edge = plt.rcParams["axes.edgecolor"]
    for ax, M, title in (
        (axes[0], np.eye(2), r"unit vectors $\mathbf{x}$"),
        (axes[1], A, r"their images $\mathbf{A}\mathbf{x}$"),
    ):
        curve = M @ circle
        ax.plot(*curve, color=edge, alpha=0.6, linewidth=1.2)
        for i, color in enumerate(("C0", "C1")):
            t = np.array([-3.5, 3.5])
            ax.plot(*np.outer(U[:, i], t), color=color, linestyle=":", linewidth=1.0)
            image = M @ U[:, i]
            ax.quiver(0, 0, *image, color=color, **arrow)
            u = rf"\mathbf{{u}}_{i + 1}"
            label = rf"$\mathbf{{A}}{u} = {eigenvalues[i]:.3g}\,{u}$" if M is A else f"${u}$"
            ax.annotate(
                label, image, xytext=(6, -14 if i else 4), textcoords="offset points", color=color
            )
        image = M @ x
        ax.quiver(0, 0, *image, color="C2", **arrow)
        ax.annotate(
            r"$\mathbf{A}\mathbf{x}$" if M is A else r"$\mathbf{x}$",
            image,
            xytext=(-22, 2),
            textcoords="offset points",
            color="C2",
        )
        ax.axhline(0, color=plt.rcParams["grid.color"], linewidth=0.8, zorder=0)
        ax.axvline(0, color=plt.rcParams["grid.color"], linewidth=0.8, zorder=0)
        ax.set(aspect="equal", xlim=(-3, 3), ylim=(-2.3, 2.3), title=title)
    fig.suptitle(rf"$\mathbf{{A}}$ = [[2, 1], [{c:g}, 1.5]]: the eigenvectors keep their direction")
    return fig


def caption_values(c=0.5):
    """The caption's values at `c`: the eigenvalues and the angle between the eigenvectors."""
    eigenvalues, U = diagonalize(np.array([[2.0, 1.0], [c, 1.5]]))
    order = np.argsort(eigenvalues)[::-1]
    eigenvalues, U = eigenvalues[order], U[:, order]
    angle = np.degrees(np.arccos(min(1.0, abs(float(U[:, 0] @ U[:, 1])))))
    shape = "symmetric: they are orthogonal" if c == 1 else "not symmetric"
    return (
        f"c = {c:g}: λ₁ = {eigenvalues[0]:.3g} and λ₂ = {eigenvalues[1]:.3g}; the lines of u₁ "
        f"and u₂ meet at {angle:.1f}° (A is {shape})."
    )


if __name__ == "__main__":
    make_figure().savefig("linear_algebra_eigenvectors.png")
