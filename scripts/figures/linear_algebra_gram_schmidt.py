r"""The steps of the Gram–Schmidt process on two vectors of the plane.

Step 1 keeps $\mathbf{v}_1 = \mathbf{x}_1$. Step 2 subtracts from $\mathbf{x}_2$ its
projection onto $\mathbf{v}_1$, leaving $\mathbf{v}_2 \perp \mathbf{v}_1$; the dashed
arrows are what the notes' formula, which divides by $\|\mathbf{v}_1\|_2$
instead of $\|\mathbf{v}_1\|_2^2$, gives instead: a "projection" too long by the factor
$\|\mathbf{v}_1\|_2$ and a $\mathbf{v}_2$ that is not orthogonal to $\mathbf{v}_1$.
Step 3 divides each $\mathbf{v}_i$ (faded) by its length. The orthogonal and orthonormal
vectors come from `mlnotes.linalg.gram_schmidt`, the projection from
`mlnotes.linalg.project`.
"""

import matplotlib.pyplot as plt
import numpy as np

from mlnotes.linalg import gram_schmidt, project

# What the figure shows, in words: the alt text of its drawings on the page.
ALT = (
    "Three panels. First, two vectors x1 and x2 of the plane, with v1 equal to x1. Second, the "
    "projection of x2 onto v1 and the vector v2, x2 minus that projection, perpendicular to v1; "
    "dashed arrows show the notes' formula, whose projection is too long and whose v2 is not "
    "perpendicular to v1. Third, v1 and v2 scaled to unit length, q1 and q2, on the unit circle."
)


def make_figure():
    x1, x2 = np.array([2.0, 0.5]), np.array([1.0, 2.0])
    V = gram_schmidt(np.column_stack([x1, x2]), normalize=False)  # v1, v2
    Q = gram_schmidt(np.column_stack([x1, x2]))  # q1, q2
    p = project(x2, V[:, 0])  # proj(x2, v1)
    # the notes' formula: divides by ||v1|| where it must divide by ||v1||^2
    p_notes = (x2 @ V[:, 0]) / np.linalg.norm(V[:, 0]) * V[:, 0]
    v2_notes = x2 - p_notes

    fig, axes = plt.subplots(1, 3, figsize=(12, 4.6), sharex=True, sharey=True)
    arrow = dict(angles="xy", scale_units="xy", scale=1, width=0.012)

    def vector(ax, v, color, label, offset=(4, 4), **kw):
        ax.quiver(0, 0, *v, color=color, **arrow, **kw)
        ax.annotate(
            label,
            v,
            xytext=offset,
            textcoords="offset points",
            color=color,
            alpha=kw.get("alpha", 1.0),
        )

    def dashed_vector(ax, v, color, label, offset):
        ax.annotate(
            "",
            xy=v,
            xytext=(0, 0),
            arrowprops=dict(
                arrowstyle="-|>", linestyle="--", color=color, linewidth=1.4, shrinkA=0, shrinkB=0
            ),
        )
        ax.annotate(label, v, xytext=offset, textcoords="offset points", color=color)

    ax = axes[0]
    vector(ax, x1, "C0", r"$\mathbf{v}_1 = \mathbf{x}_1$", offset=(-10, -18))
    vector(ax, x2, "C2", r"$\mathbf{x}_2$")
    ax.set_title(r"1. $\mathbf{v}_1 = \mathbf{x}_1$")

    ax = axes[1]
    dashed_vector(ax, p_notes, "C3", "notes' proj", offset=(-30, -16))
    dashed_vector(ax, v2_notes, "C3", r"notes' $\mathbf{v}_2$", offset=(-16, 6))
    vector(ax, x1, "C0", r"$\mathbf{v}_1$", offset=(-2, 6))
    vector(ax, x2, "C2", r"$\mathbf{x}_2$")
    vector(ax, p, "C1", r"proj$(\mathbf{x}_2, \mathbf{v}_1)$", offset=(-26, -20))
    vector(ax, V[:, 1], "C4", r"$\mathbf{v}_2$", offset=(6, -4))
    ax.plot(*np.array([x2, p]).T, color="C4", linestyle=":", linewidth=1.0)
    ax.legend(
        handles=[
            plt.Line2D([], [], color="C4", label=r"$\mathbf{v}_2 \perp \mathbf{v}_1$"),
            plt.Line2D(
                [],
                [],
                color="C3",
                linestyle="--",
                label=r"notes' formula ($\div\|\mathbf{v}_1\|$): not $\perp$",
            ),
        ],
        loc="lower center",
    )
    ax.set_title(
        r"2. $\mathbf{v}_2 = \mathbf{x}_2 - "
        r"\frac{\mathbf{x}_2\cdot\mathbf{v}_1}{\|\mathbf{v}_1\|^2}\mathbf{v}_1$"
    )

    ax = axes[2]
    theta = np.linspace(0, 2 * np.pi, 200)
    ax.plot(
        np.cos(theta),
        np.sin(theta),
        color=plt.rcParams["axes.edgecolor"],
        alpha=0.5,
        linewidth=1.0,
        label="unit circle",
    )
    vector(ax, x1, "C0", r"$\mathbf{v}_1$", alpha=0.35, offset=(-4, 6))
    vector(ax, V[:, 1], "C4", r"$\mathbf{v}_2$", alpha=0.35, offset=(-18, 2))
    vector(ax, Q[:, 0], "C0", r"$\mathbf{q}_1$", offset=(2, -16))
    vector(ax, Q[:, 1], "C4", r"$\mathbf{q}_2$", offset=(6, -12))
    ax.set_title(r"3. $\mathbf{q}_i = \mathbf{v}_i / \|\mathbf{v}_i\|$")
    ax.legend(loc="lower right")

    for ax in axes:
        ax.axhline(0, color=plt.rcParams["grid.color"], linewidth=0.8, zorder=0)
        ax.axvline(0, color=plt.rcParams["grid.color"], linewidth=0.8, zorder=0)
        ax.set(aspect="equal", xlim=(-2.3, 3.3), ylim=(-1.5, 2.6))
    return fig


if __name__ == "__main__":
    make_figure().savefig("linear_algebra_gram_schmidt.png")
