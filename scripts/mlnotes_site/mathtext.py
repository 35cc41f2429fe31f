r"""TeX as plain text, where math cannot be typeset: the search index and the table of
contents (Material writes headings there as text).

`readable` spells TeX out with Unicode symbols and a few ASCII conventions (a/b, ^, _,
C(n, k)): `n = 16`, `⌊ (n + 2p - k)/s ⌋ + 1`, `ω_i = 10000^(-2i/d)`. It is not what
MathJax shows (no layout, no equation numbers) nor what a reader would type in a search
box (`⌊`, `σ`). Its rules cover the TeX the site's pages use; a macro it does not know
keeps its name. `readable_math` does it to the math in a text or HTML.
"""

from __future__ import annotations

import html as htmllib
import re

_SYMBOLS = {
    **{
        name: chr(0x3B1 + i)
        for i, name in enumerate(
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron "
            "pi rho varsigma sigma tau upsilon phi chi psi omega".split()
        )
    },
    **{
        name: char
        for name, char in zip(
            "Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega".split(), "ΓΔΘΛΞΠΣΦΨΩ"
        )
    },
    "varepsilon": "ε",
    "vartheta": "ϑ",
    "varphi": "φ",
    "ell": "ℓ",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "sum": "∑",
    "prod": "∏",
    "int": "∫",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "sim": "∼",
    "equiv": "≡",
    "propto": "∝",
    "cdot": "·",
    "cdots": "⋯",
    "ldots": "…",
    "dots": "…",
    "vdots": "⋮",
    "ddots": "⋱",
    "times": "×",
    "pm": "±",
    "mp": "∓",
    "in": "∈",
    "notin": "∉",
    "subset": "⊂",
    "subseteq": "⊆",
    "cup": "∪",
    "cap": "∩",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "iff": "⇔",
    "mapsto": "↦",
    "forall": "∀",
    "exists": "∃",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "lceil": "⌈",
    "rceil": "⌉",
    "langle": "⟨",
    "rangle": "⟩",
    "top": "⊤",
    "perp": "⊥",
    "implies": "⟹",
    "impliedby": "⟸",
    "Leftarrow": "⇐",
    "Leftrightarrow": "⇔",
    "leftrightarrow": "↔",
    "neg": "¬",
    "land": "∧",
    "lor": "∨",
    "circ": "∘",
    "emptyset": "∅",
    "varnothing": "∅",
    "setminus": "∖",
    "odot": "⊙",
    "otimes": "⊗",
    "oplus": "⊕",
    "ast": "∗",
    "ll": "≪",
    "gg": "≫",
    "prime": "′",
    "colon": ":",
    "bmod": " mod ",
    "mod": " mod ",
    "mid": "|",
    "vert": "|",
    "lvert": "|",
    "rvert": "|",
    "Vert": "‖",
    "lVert": "‖",
    "rVert": "‖",
    "|": "‖",
    "{": "\ue000",  # a brace shown, not a group (restored at the end)
    "}": "\ue001",
    "&": "\ue002",  # an ampersand shown, not an alignment point
    "%": "%",
    "$": "$",
    "_": "_",
    "#": "#",
}
_DROP = (
    "left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr displaystyle "
    "textstyle scriptstyle limits nolimits quad qquad notag nonumber tiny scriptsize "
    "footnotesize small normalsize large Large LARGE huge Huge"
).split()
_GROUP = r"\{([^{}]*)\}"
# environments whose first argument is not content (array's column spec, alignat's count)
_ENV_ARGUMENT = {"array", "alignat", "alignat*", "subarray", "tabular"}
# a matrix environment's delimiters
_ENV_DELIMITERS = {
    "pmatrix": ("(", ")"),
    "bmatrix": ("[", "]"),
    "Bmatrix": ("\ue000", "\ue001"),
    "vmatrix": ("|", "|"),
    "Vmatrix": ("‖", "‖"),
    "cases": ("\ue000", ""),
}
_ENVIRONMENT = re.compile(r"\\(begin|end)\s*\{([A-Za-z]+\*?)\}")
_REF = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")


def readable(tex: str, refs: dict[str, int] | None = None) -> str:
    r"""TeX as plain text (Unicode symbols, a/b for a fraction, ^ and _ kept).

    Environments keep their content (`&` a space, a row break `\\` "; "), `\label`s go;
    `\eqref{label}` is "(N)" and `\ref{label}` "N" with N the label's number in `refs`
    (the page's equation numbers), else "(eq.)" and "eq.".
    """
    s = tex.strip()
    s = re.sub(r"\\label\s*\{[^{}]*\}", "", s)
    s = _REF.sub(lambda m: _ref(m.group(1), m.group(2), refs), s)
    s = re.sub(r"\\tag\*\s*" + _GROUP, r" \1", s)
    s = re.sub(r"\\tag\s*" + _GROUP, r" (\1)", s)
    s = re.sub(r"\\(?:left|right)\s*\.", "", s)  # an invisible delimiter
    # a row break, and its extra space (\\[2pt])
    s = re.sub(r"\s*\\\\(?:\s*\[\s*-?[\d.]+\s*[a-z]{2}\s*\])?\s*", "\ue003", s)

    def environment(m: re.Match) -> str:
        begin, name = m.group(1) == "begin", m.group(2)
        delimiters = _ENV_DELIMITERS.get(name.rstrip("*"), ("", ""))
        # \ue004, \ue005: no space inside the delimiters (removed at the end)
        return f" {delimiters[0]}\ue004" if begin else f"\ue005{delimiters[1]} "

    s = re.sub(
        r"\\begin\s*\{(" + "|".join(re.escape(e) for e in _ENV_ARGUMENT) + r")\}\s*" + _GROUP,
        r"\\begin{\1}",
        s,
    )
    s = _ENVIRONMENT.sub(environment, s)
    s = re.sub(r"\\[,;:!> ]|~", " ", s)
    # the symbols first: a macro's name ends at the next non-letter, which must stay there
    s = re.sub(
        r"\\([A-Za-z]+|[|{}%$_&#])",
        lambda m: "" if m.group(1) in _DROP else _SYMBOLS.get(m.group(1), m.group(0)),
        s,
    )
    s = s.replace("&", " ")  # an alignment point
    for _ in range(4):  # nested groups, innermost first
        s = re.sub(
            r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP,
            lambda m: f"{_paren(m.group(1))}/{_paren(m.group(2))}",
            s,
        )
        s = re.sub(
            r"\\[dt]?binom\s*" + _GROUP + r"\s*" + _GROUP,
            lambda m: f"\ue006C({m.group(1).strip()}, {m.group(2).strip()})",
            s,
        )
        s = re.sub(r"\\sqrt\s*\[([^\]]*)\]\s*" + _GROUP, _root, s)
        s = re.sub(r"\\sqrt\s*" + _GROUP, lambda m: "√" + _paren(m.group(1)), s)
        s = re.sub(  # after a macro (\det\mathbf{R}), a space keeps its name apart
            r"(\\[A-Za-z]+\s*)?\\(?:mathbf|mathrm|mathit|mathcal|mathbb|boldsymbol|operatorname\*?"
            r"|text|textbf|textit|mathsf|vec|hat|bar|tilde|overline)\s*" + _GROUP,
            lambda m: (m.group(1).rstrip() + " " if m.group(1) else "") + m.group(2),
            s,
        )
        s = re.sub(r"([_^])" + _GROUP, lambda m: m.group(1) + _paren(m.group(2)), s)
    s = re.sub(r"\\sqrt\s*(?![{\[])", "√", s)  # \sqrt 2
    s = re.sub(r"\\pmod\s*" + _GROUP, r" (mod \1)", s)
    # \sin, \log, ...: their names, a word apart from a letter or number next to them
    s = re.sub(r"(?<=[^\W_])\\([A-Za-z]+)", r" \\\1", s)
    s = re.sub(r"\\([A-Za-z]+)(?![A-Za-z])(?=[^\W_]|\\)", r"\\\1 ", s)
    s = re.sub(r"\\([A-Za-z]+)", r"\1", s)
    s = s.replace("{", "").replace("}", "")
    # \ue006: a word starts (C(n, k), root(n, x)): apart from a letter or number before it
    s = re.sub(r"(?<=[^\W_])\ue006", " ", s).replace("\ue006", "")
    s = re.sub(r"\s+", " ", s).strip()
    # row breaks: "; " between rows, none at the end of a block or before another break
    s = re.sub(r"\s*\ue003\s*(?=\ue003|\ue005|$)", "", s)
    s = re.sub(r"^\s*\ue003\s*", "", s)
    s = re.sub(r"\s*\ue003\s*", "; ", s)
    s = re.sub(r"\s*\ue005([^\s\ue004]*) (?=[,.;:])", r"\1", s)  # "(1; 2)," not "(1; 2) ,"
    s = re.sub(r"\ue004\s*|\s*\ue005", "", s)
    for placeholder, char in (("\ue000", "{"), ("\ue001", "}"), ("\ue002", "&")):
        s = s.replace(placeholder, char)
    return re.sub(r"\s+", " ", s).strip()


def _ref(kind: str, label: str, refs: dict[str, int] | None) -> str:
    number = (refs or {}).get(label.strip())
    shown = str(number) if number is not None else "eq."
    return f"({shown})" if kind == "eqref" else shown


def _root(m: re.Match) -> str:
    """`\\sqrt[n]{x}`: ∛x, ∜x, else root(n, x)."""
    n, x = m.group(1).strip(), m.group(2).strip()
    if n in ("3", "4"):
        return "∛∜"[int(n) - 3] + _paren(x)
    return f"\ue006root({n}, {x})"


def _paren(group: str) -> str:
    """A fraction's part, an exponent or a subscript: bare if one word, else in ( )."""
    group = group.strip()
    if re.fullmatch(r"[\w.]+|\(.*\)", group):
        return group
    return f"({group})"


# TeX in text: arithmatex's \( \) and \[ \], and a notebook's $ and $$ (`dollars`)
_TEX_IN_TEXT = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_DOLLARS_IN_TEXT = re.compile(r"\$\$(.+?)\$\$|\$([^$]+?)\$", re.S)
_CODE = re.compile(r"(<pre\b.*?</pre>|<code\b.*?</code>)", re.S)
_DOLLAR = "\ue010"  # an escaped \$ while the $...$ are found


def readable_math(
    text: str, dollars: bool = False, escaped: bool = True, refs: dict[str, int] | None = None
) -> str:
    r"""`text` (HTML, `escaped`, or plain text) with its math as `readable` text; code is
    left alone. `dollars`: $...$ and $$...$$ are math too (a notebook page's), and `\$` is
    a dollar sign, as MathJax's `processEscapes` reads it. `refs`: the page's equation
    numbers, {label: N}, for `\eqref` and `\ref`."""

    def one(m: re.Match) -> str:
        tex = next(g for g in m.groups() if g is not None).replace(_DOLLAR, r"\$")
        if escaped:
            return htmllib.escape(readable(htmllib.unescape(tex), refs), quote=False)
        return readable(tex, refs)

    parts = _CODE.split(text) if escaped else [text]
    for i in range(0, len(parts), 2):
        parts[i] = _TEX_IN_TEXT.sub(one, parts[i])
        if dollars:
            parts[i] = _DOLLARS_IN_TEXT.sub(one, parts[i].replace(r"\$", _DOLLAR))
            parts[i] = parts[i].replace(_DOLLAR, "$")
    return "".join(parts)
