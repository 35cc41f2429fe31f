r"""TeX as plain text (scripts/mlnotes_site/mathtext.py): what the search index and the
table of contents show where math cannot be typeset."""

from __future__ import annotations

import pytest

from mlnotes_site.mathtext import readable, readable_math


@pytest.mark.parametrize(
    "tex, text",
    [
        ("n = 16", "n = 16"),
        (r"\left\lfloor \frac{n + 2p - k}{s} \right\rfloor + 1", "⌊ (n + 2p - k)/s ⌋ + 1"),
        (r"\omega_i = 10000^{-2i/d}", "ω_i = 10000^(-2i/d)"),
        (r"\mathbf{Q}^\top\mathbf{Q} = \mathbf{I}", "Q^⊤Q = I"),
        (r"\operatorname{Var}(X) \le \sigma^{2}", "Var(X) ≤ σ^2"),
        (r"\sqrt{d}, \frac{1}{2}, \{a, b\}", "√d, 1/2, {a, b}"),
        # display math: environments keep their content, labels go
        (
            r"\begin{equation} p(H = h \mid Y = y) = \frac{a}{b} \label{eq:prob-bayes} \end{equation}",
            "p(H = h | Y = y) = a/b",
        ),
        (r"\begin{align} a &= b \\ c &= d \\ \end{align}", "a = b; c = d"),
        (r"\begin{align*} a &= b \\[2pt] c \end{align*}", "a = b; c"),
        (
            r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}, \begin{bmatrix} x \end{bmatrix}",
            "(1 2; 3 4), [x]",
        ),
        (r"\begin{array}{cc} a & b \end{array}", "a b"),
        (r"f = \begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases}", "f = {1 x > 0; 0 else"),
        (
            r"\lVert\mathbf{v}_1\rVert_2 = \Vert v \| \quad X \perp Y \mid Z",
            "‖v_1‖_2 = ‖ v ‖ X ⊥ Y | Z",
        ),
        (r"x_1, \ldots, x_n \cdots \vdots \ddots", "x_1, …, x_n ⋯ ⋮ ⋱"),
        (r"\binom{N}{y}, \log\binom{N}{y}, y\log\theta", "C(N, y), log C(N, y), y log θ"),
        (r"\sqrt[n]{x + 1}, \sqrt[3]{x}, \sqrt 2", "root(n, x + 1), ∛x, √2"),
        (r"a \& b \implies t \bmod 2\pi, \scriptsize M", "a & b ⟹ t mod 2π, M"),
        (r"\det\mathbf{R} = 1, \max_j x_j", "det R = 1, max_j x_j"),
    ],
)
def test_readable_math_as_text(tex, text):
    assert readable(tex) == text


def test_readable_equation_references_show_the_pages_numbers():
    tex = r"by \eqref{eq:a} and \ref{eq:a}, not \eqref{eq:gone}"
    assert readable(tex, {"eq:a": 3}) == "by (3) and 3, not (eq.)"
    assert readable(tex) == "by (eq.) and eq., not (eq.)"
    assert readable(r"x \tag{A} \notag") == "x (A)"


def test_readable_math_in_html_leaves_code_and_dollars_alone():
    html = r"For \(x &lt; y\), <code>\(kept\)</code> and $5 or $6"
    assert readable_math(html) == "For x &lt; y, <code>\\(kept\\)</code> and $5 or $6"
    assert readable_math("Sizes ($n = 16$, $k = 3$)¶", dollars=True) == "Sizes (n = 16, k = 3)¶"


def test_readable_math_reads_an_escaped_dollar_as_a_dollar_sign():
    # as MathJax's find step (processEscapes) on a notebook page
    assert readable_math(r"price \$5 and $x$", dollars=True) == "price $5 and x"
    assert readable_math(r"$\$5 + x$ and \(a \$\)", dollars=True) == "$5 + x and a $"
    assert readable_math(r"\(a\) costs \$5", dollars=False) == r"a costs \$5"  # a Markdown page's
