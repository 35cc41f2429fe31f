r"""Orthogonal projection onto a line and onto a plane.

Left: a vector $\mathbf{y}$ of the plane and its projection onto the line spanned by
$\mathbf{a}$. Right: a vector $\mathbf{y}$ of $\mathbb{R}^3$ and its projection onto
the plane spanned by the two columns of $\mathbf{A}$. Both projections are computed by
`mlnotes.linalg.project`; in both panels the residual $\mathbf{y} - \mathbf{p}$
(dashed) meets the line or the plane at a right angle, which is what makes
$\mathbf{p}$ the closest point.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.linalg import project

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Left: a vector y in the plane, its projection p onto the line spanned by a, and the dashed "
    "residual y minus p meeting the line at a right angle. Right: a vector y in three dimensions, "
    "its projection p onto the plane spanned by two vectors a1 and a2, and the dashed residual "
    "perpendicular to the plane."
)


def right_angle(ax, corner, along, up, size):
    """Draw the small square that marks a right angle at `corner`."""
    along = size * along / np.linalg.norm(along)
    up = size * up / np.linalg.norm(up)
    square = np.array([corner + along, corner + along + up, corner + up])
    ax.plot(*square.T, color=plt.rcParams["axes.edgecolor"], linewidth=0.8)


def make_figure():
    # On a line: y onto span(a)
    a = np.array([1.2, 0.4])
    y = np.array([1.5, 2.5])
    p = project(y, a)

    # On a plane: y onto span(A), the plane z = 0.3 x + 0.2 y through the origin
    A = np.array([[1.0, 0.0], [0.0, 1.0], [0.3, 0.2]])
    y3 = np.array([0.6, 0.9, 1.6])
    p3 = project(y3, A)

    fig = plt.figure(figsize=(10, 4.6))
    ax = fig.add_subplot(1, 2, 1)
    ax3 = fig.add_subplot(1, 2, 2, projection="3d")

    # --- line -------------------------------------------------------------------------
    t = np.array([-1.0, 3.1])
    ax.plot(*np.outer(t, a).T, color="C2", linewidth=1.2, label=r"span$(\mathbf{a})$")
    arrow = dict(angles="xy", scale_units="xy", scale=1, width=0.008)
    ax.quiver(0, 0, *y, color="C0", **arrow)
    ax.quiver(0, 0, *p, color="C1", **arrow)
    ax.quiver(0, 0, *a, color="C2", **arrow, zorder=3)
    ax.plot(
        *np.array([y, p]).T, color="C4", linestyle="--", label=r"residual $\mathbf{y}-\mathbf{p}$"
    )
    right_angle(ax, p, -a, y - p, 0.18)
    label = dict(textcoords="offset points")
    ax.annotate(r"$\mathbf{a}$", a, xytext=(-2, -16), color="C2", **label)
    ax.annotate(r"$\mathbf{y}$", y, xytext=(-4, 6), color="C0", **label)
    ax.annotate(
        r"$\mathbf{p} = \mathrm{proj}(\mathbf{y}, \mathbf{a})$",
        p,
        xytext=(6, -16),
        color="C1",
        **label,
    )
    ax.set(
        xlim=(-1.0, 4.0),
        ylim=(-0.6, 3.0),
        aspect="equal",
        title=r"onto a line: $\mathbf{p} = "
        r"\frac{\mathbf{y}\cdot\mathbf{a}}{\|\mathbf{a}\|^2}\,\mathbf{a}$",
    )
    ax.legend(loc="upper right")

    # --- plane ------------------------------------------------------------------------
    s, r = np.meshgrid(np.linspace(-0.4, 1.4, 2), np.linspace(-0.4, 1.4, 2))
    plane = A[:, :1, None] * s + A[:, 1:, None] * r
    ax3.plot_surface(*plane, color="C2", alpha=0.2, linewidth=0)
    for column, name in zip(A.T, (r"$\mathbf{a}_1$", r"$\mathbf{a}_2$")):
        ax3.quiver(0, 0, 0, *column, color="C2", arrow_length_ratio=0.12)
        ax3.text(*(1.08 * column), name, color="C2")
    ax3.quiver(0, 0, 0, *y3, color="C0", arrow_length_ratio=0.08)
    ax3.quiver(0, 0, 0, *p3, color="C1", arrow_length_ratio=0.12)
    ax3.plot(*np.array([y3, p3]).T, color="C4", linestyle="--")
    right_angle(ax3, p3, -p3, y3 - p3, 0.12)
    ax3.text(*y3, r"  $\mathbf{y}$", color="C0")
    ax3.text(*p3, r"  $\mathbf{p}$", color="C1")
    ax3.set(
        xlabel="$x$",
        ylabel="$y$",
        zlabel="$z$",
        xticks=[],
        yticks=[],
        zticks=[],
        xlim=(-0.4, 1.4),
        ylim=(-0.4, 1.4),
        zlim=(-0.2, 1.8),
        title=r"onto a plane: $\mathbf{p} = \mathrm{proj}(\mathbf{y}, \mathbf{A})$",
    )
    ax3.view_init(elev=18, azim=-60)
    for axis in (ax3.xaxis, ax3.yaxis, ax3.zaxis):
        axis.set_pane_color((0, 0, 0, 0))  # transparent panes: the page shows through
    return fig


if __name__ == "__main__":
    make_figure().savefig("linear_algebra_projection.png")
