r"""How nbstats writes numbers, p-values and symbols in text, HTML and LaTeX.

How numbers are written in tables (fixed decimals per column, by the kind of
quantity) is the number policy of :mod:`nbstats.results.number_policy`; this
module has the rules for lone values, p-values and symbols it builds on.

Text
----
- :func:`format_value` writes a value with no kind (``digits`` significant
  figures, scientific notation at extreme scales), for prose.
- **LaTeX** (:func:`escape_latex`): LaTeX's special characters are escaped
  (and ``[ ] *``, quotes and ligatures protected, so that a name comes out of
  the PDF as it went in), and the symbols nbstats writes (Greek letters of
  its labels, χ², ≈, ±, −, ≤, ≥, →, ×, …, super- and subscripts such as R⁺
  or μ₀, ½, <, >) become math or text commands that compile under pdflatex
  *and* xelatex with no package but booktabs. Any other character (é, ü,
  user names in Greek, Cyrillic or CJK) is left as is, for xelatex and a
  font that has it.
- :class:`Label` is text that has its own HTML and LaTeX forms, for labels with
  a subscript (χ²_F is ``χ²<sub>F</sub>`` and ``$\chi^{2}_{F}$``).
"""

from __future__ import annotations

import html
import math
import re
from numbers import Integral, Real

import numpy as np

__all__ = [
    "Label",
    "escape_latex",
    "format_pvalue",
    "format_value",
    "is_pvalue_name",
    "tie_relations",
    "to_html",
    "to_latex",
    "visual_order",
]

MINUS = "\u2212"

#: Below this, p-values are written "< 0.001".
PVALUE_FLOOR = 0.001
#: Decimals of a p-value at or above the floor.
PVALUE_DECIMALS = 3
#: A column whose largest magnitude is below this, or at least LARGE, is
#: written with a common power of ten.
SMALL = 1e-3
LARGE = 1e6

# ---------------------------------------------------------------- numbers


def format_value(value: object, digits: int = 4) -> str:
    """Format a scalar for display, never in e-notation.

    Integers as such, floats to ``digits`` significant figures in fixed
    notation (trailing zeros dropped, whole floats as ``3.0``), magnitudes below
    10⁻³ or from 10⁶ on in scientific notation (``1.20 × 10⁻⁵``), a true minus
    sign (U+2212), ``—`` for None and NaN,
    ``yes``/``no`` for booleans, tuples as ``(a, b)``.

    Parameters
    ----------
    value : object
        The value to write.
    digits : int
        Significant figures of floats.

    Returns
    -------
    str

    Examples
    --------
    >>> [format_value(v) for v in (9.27928, -1.8302, 0.0163212, 3.0, 123456.7)]
    ['9.279', '−1.83', '0.01632', '3.0', '123457']
    >>> format_value(1.2e-05), format_value(None), format_value((1, 2.5))
    ('1.20 × 10⁻⁵', '—', '(1, 2.5)')
    >>> format_value(1e300)
    '1.00 × 10³⁰⁰'
    """
    if value is None:
        return "—"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, Integral):
        number = int(value)
        return (MINUS if number < 0 else "") + str(abs(number))
    if isinstance(value, Real):
        return _format_float(float(value), digits)
    if isinstance(value, (tuple, list)) and all(
        v is None or isinstance(v, Real) for v in value
    ):
        return "(" + ", ".join(format_value(v, digits) for v in value) + ")"
    return str(value)  # a name, also a tuple name such as ('RF', 100)


def _format_float(v: float, digits: int) -> str:
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else MINUS + "∞"
    sign = MINUS if v < 0 else ""
    a = abs(v)
    if a == 0:
        return "0.0"
    # the exponent of the value as rounded: 999999.6 is "1.00 × 10⁶", not
    # "1000000", and 9.99996 is "10.00", not "10.000"
    exponent = int(f"{a:.{max(digits, 1) - 1}e}".split("e")[1])
    if a < SMALL or exponent >= math.log10(LARGE):
        return sign + _scientific(a)
    if v.is_integer():
        return sign + f"{a:.1f}"
    decimals = max(digits - 1 - exponent, 0)
    text = f"{a:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return sign + text


def format_pvalue(p: object, *, latex: bool = False) -> str:
    r"""Write a p-value: three decimals, or ``< 0.001`` below 0.001.

    The same rule for text and HTML (escape it for HTML); in LaTeX the ``<``
    is math (``$<$ 0.001``), which every font encoding prints as "<". NaN and
    None give ``—`` (``--`` in LaTeX), for a comparison that was not made.

    Parameters
    ----------
    p : float
        A probability in [0, 1].
    latex : bool
        Write it for a LaTeX document.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``p`` is not a real number.
    ValueError
        If ``p`` lies outside [0, 1].

    Examples
    --------
    >>> [format_pvalue(p) for p in (0.012345, 0.05, 1.0, 3e-8)]
    ['0.012', '0.050', '1.000', '< 0.001']
    >>> format_pvalue(3e-8, latex=True)
    '$<$ 0.001'
    """
    if p is None:
        return "--" if latex else "—"
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, Real):
        raise TypeError(
            f"a p-value must be a real number, got {type(p).__name__} {p!r}."
        )
    value = float(p)
    if math.isnan(value):
        return "--" if latex else "—"
    if not 0.0 <= value <= 1.0 + 1e-9:
        raise ValueError(
            f"a p-value must lie in [0, 1], got {value!r}; pass a probability, "
            "not a statistic or a percentage."
        )
    if value < PVALUE_FLOOR:
        return "$<$ 0.001" if latex else "< 0.001"
    return f"{min(value, 1.0):.{PVALUE_DECIMALS}f}"


def is_pvalue_name(name: object) -> bool:
    """Whether a column or scalar called ``name`` holds p-values.

    True for ``p``, ``pvalue``, ``adjusted``, names containing ``p-value`` or
    ``pvalue`` (``F p-value``, ``f_pvalue``) and names ending in `` p``
    (``adjusted p``, ``holm adj. p``).

    Examples
    --------
    >>> [is_pvalue_name(n) for n in ("p", "adjusted p", "F p-value", "P(b better)")]
    [True, True, True, False]
    """
    text = str(name).strip().lower()
    return (
        text in {"p", "pvalue", "p-value", "p value", "adjusted"}
        or "p-value" in text
        or "pvalue" in text
        or text.endswith(" p")
    )


_SUPERSCRIPT_DIGITS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _superscript(exponent: int) -> str:
    return str(exponent).translate(_SUPERSCRIPT_DIGITS)


def _scientific(a: float, figures: int = 3) -> str:
    """``a`` > 0 with ``figures`` significant figures: ``1.23 × 10⁻⁶``; the
    exponent is that of the rounded value (a mantissa is never 10)."""
    mantissa, exponent = f"{a:.{figures - 1}e}".split("e")
    return f"{mantissa} × 10{_superscript(int(exponent))}"


# ---------------------------------------------------------------- LaTeX

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # braced, so that after \\ or \midrule (a row's first cell) or any other
    # command they are never read as its optional argument or its star
    "[": "{[}",
    "]": "{]}",
    "*": "{*}",
    # TeX's input ligatures (xelatex's tex-text mapping) would turn these into
    # curly quotes: the characters themselves, under pdflatex and xelatex
    "'": r"\textquotesingle{}",
    "`": r"\textasciigrave{}",
    # \textquotedbl is missing from pdflatex's default encoding (OT1); the
    # typewriter font has the straight quote there
    '"': r"\texttt{\char34}",
}

# text-mode replacements (no package needed); commands rather than the input
# ligatures -- and `` '' so that no neighbour joins them ("–-" is not "---")
_LATEX_TEXT = {
    "–": r"\textendash{}",
    "—": r"\textemdash{}",
    "…": r"\ldots{}",
    "§": r"\S{}",
    "\u00a0": "~",
    "‘": r"\textquoteleft{}",
    "’": r"\textquoteright{}",
    "“": r"\textquotedblleft{}",
    "”": r"\textquotedblright{}",
}

#: Characters TeX joins with the same character after them (``--`` is an en
#: dash, ``,,`` a low double quote): an empty group keeps each as it is.
_LIGATURE_PAIRS = frozenset("-,")

# characters typeset in math mode: identical under pdflatex and xelatex.
# < > | are math too: pdflatex's default OT1 text font prints them as ¡ ¿ —.
_LATEX_MATH = {
    "α": r"\alpha",
    "β": r"\beta",
    "γ": r"\gamma",
    "δ": r"\delta",
    "ε": r"\varepsilon",
    "ζ": r"\zeta",
    "η": r"\eta",
    "θ": r"\theta",
    "κ": r"\kappa",
    "λ": r"\lambda",
    "μ": r"\mu",
    "ν": r"\nu",
    "ξ": r"\xi",
    "π": r"\pi",
    "ρ": r"\rho",
    "σ": r"\sigma",
    "τ": r"\tau",
    "φ": r"\phi",
    "χ": r"\chi",
    "ψ": r"\psi",
    "ω": r"\omega",
    "Γ": r"\Gamma",
    "Δ": r"\Delta",
    "Θ": r"\Theta",
    "Λ": r"\Lambda",
    "Π": r"\Pi",
    "Σ": r"\Sigma",
    "Φ": r"\Phi",
    "Ψ": r"\Psi",
    "Ω": r"\Omega",
    MINUS: "-",
    "±": r"\pm",
    "×": r"\times",
    "·": r"\cdot",
    "≈": r"\approx",
    "≠": r"\neq",
    "≤": r"\leq",
    "≥": r"\geq",
    "≪": r"\ll",
    "≫": r"\gg",
    "→": r"\rightarrow",
    "←": r"\leftarrow",
    "↔": r"\leftrightarrow",
    "⇒": r"\Rightarrow",
    "∞": r"\infty",
    "∈": r"\in",
    "∧": r"\wedge",
    "∨": r"\vee",
    "∼": r"\sim",
    "√": r"\surd",
    "′": "'",
    "°": r"^{\circ}",
    "½": r"\frac{1}{2}",
    "¼": r"\frac{1}{4}",
    "¾": r"\frac{3}{4}",
    "●": r"\bullet",
    "◆": r"\diamond",
    "<": "<",
    ">": ">",
    "|": "|",
}

#: ASCII characters escape_latex changes (the rest of ASCII is left as is).
_ASCII_SPECIAL = re.compile(r"[\\&%$#_{}~^<>|\[\]*'`\"]|--|,,")

_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ", "0123456789+-=()niT", strict=True))
_SUBSCRIPTS = dict(
    zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₖₘₙₚₛₜ", "0123456789+-=()aeoxkmnpst", strict=True)
)


#: A relation between spaces in escaped LaTeX ("α = 0.05", "p < 0.001").
_RELATION = re.compile(r" (=|\$[<>]\$|\$\\leq\$|\$\\geq\$|\$\\approx\$|≈) ")


def tie_relations(latex: str) -> str:
    r"""Escaped LaTeX whose relations between spaces never break across lines:
    ``α = 0.05`` keeps together (ties, ``~``).

    Examples
    --------
    >>> tie_relations(r"at $\alpha$ = 0.05 (p $<$ 0.001)")
    'at $\\alpha$~=~0.05 (p~$<$~0.001)'
    """
    return _RELATION.sub(r"~\1~", latex)


_HAT = "\u0302"  # combining circumflex accent


def escape_latex(text: object) -> str:
    r"""Write ``text`` for LaTeX: escape ``_ % & # $ { } ~ ^ \`` and typeset symbols.

    The text comes out of the PDF as it went in, wherever it is put (a row's
    first cell, a caption, a TikZ node): ``[ ] *`` are braced (``{[}``), so
    that they are never read as the optional argument or star of the command
    before them (``\\[2pt]``, ``\midrule[2pt]``, ``\\*``); no two
    characters form one of TeX's input ligatures (``k--NN`` stays two
    hyphens, ``,,`` two commas); quotes and the backtick are written as
    commands (``\textquotesingle{}``, ``\textasciigrave{}``,
    ``\texttt{\char34}``, ``\textquoteleft{}`` …), never the ligatures that
    curl them or turn ``!``` into "¡". Two or more Hebrew or Arabic words in
    a row are written last word first, joined by no-break spaces: XeTeX with
    no bidi package sets the words of a run left to right, so they then read
    right to left, as written.

    The symbols nbstats writes become math that compiles under pdflatex and
    xelatex alike (``α`` → ``$\alpha$``, ``χ²`` → ``$\chi^{2}$``, ``R⁺`` →
    ``R$^{+}$``, ``−`` → ``$-$``, ``≈``, ``±``, ``≤``, ``→``, ``×``, ``½``,
    ``<``, ``>``); ``…``, ``–`` and ``—`` become ``\ldots{}``,
    ``\textendash{}`` and ``\textemdash{}``. Other characters (é, ü,
    Cyrillic, CJK) are left for xelatex and a font that has them (the PDF
    report's template falls back to DejaVu and Noto CJK fonts).

    Parameters
    ----------
    text : object
        Converted with ``str`` first.

    Returns
    -------
    str

    Examples
    --------
    >>> print(escape_latex("C4.5_m & 50%"))
    C4.5\_m \& 50\%
    >>> print(escape_latex("χ² ≈ 9.3, α = 0.05, R⁺ − R⁻"))
    $\chi^{2}$ $\approx$ 9.3, $\alpha$ = 0.05, R$^{+}$ $-$ R$^{-}$
    >>> print(escape_latex("λ-SVM vs Ελληνικά"))  # a Greek word stays text
    $\lambda$-SVM vs Ελληνικά
    >>> print(escape_latex("max R\u0302 = 1.02"))  # a hat on a letter
    max $\hat{R}$ = 1.02
    >>> print(escape_latex("[2pt]k--NN*"))  # no option, no star, no en dash
    {[}2pt{]}k-{}-NN{*}
    """
    text = str(text)
    if text.isascii() and not _ASCII_SPECIAL.search(text):
        return text
    text = visual_order(text)
    out: list[str] = []
    math_run: list[str] = []
    script: list[str] = []
    script_kind = ""

    def close_script() -> None:
        nonlocal script_kind
        if script:
            math_run.append(script_kind + "{" + "".join(script) + "}")
            script.clear()
        script_kind = ""

    def close_math() -> None:
        close_script()
        if math_run:
            out.append("$" + "".join(math_run) + "$")
            math_run.clear()

    for index, ch in enumerate(text):
        if ch == _HAT:  # set with the letter before it (below)
            continue
        if index + 1 < len(text) and text[index + 1] == _HAT and ch.isascii():
            # a letter with a combining circumflex (R̂, a statistic): math's
            # hat (pdflatex has no glyph for the pair, and the text accent
            # \^{R} sits on Latin Modern's capital too low to see in a caption)
            if ch.isalpha():
                math_run.append(f"\\hat{{{ch}}}")
            else:
                close_math()
                out.append(f"\\^{{{_LATEX_SPECIAL.get(ch, ch)}}}")
        elif _in_greek_word(text, index):
            # a Greek word in a name stays text (the template's fonts have
            # it): math letters would break the word and its copied text
            close_math()
            out.append(ch)
        elif ch in _SUPERSCRIPTS or ch in _SUBSCRIPTS:
            kind = "^" if ch in _SUPERSCRIPTS else "_"
            if kind != script_kind:
                close_script()
                script_kind = kind
            script.append((_SUPERSCRIPTS if kind == "^" else _SUBSCRIPTS)[ch])
        elif ch in _LATEX_MATH:
            close_script()
            math_run.append(_LATEX_MATH[ch])
        else:
            close_math()
            if ch in _LIGATURE_PAIRS and out and out[-1] == ch:
                out.append("{}")
            out.append(_LATEX_SPECIAL.get(ch) or _LATEX_TEXT.get(ch, ch))
    close_math()
    return "".join(out)


#: Right-to-left letters (Hebrew, Arabic), and two or more such words in a row.
_RTL = "\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
RTL_LETTER = re.compile(f"[{_RTL}]")
_RTL_RUN = re.compile(f"[{_RTL}]+(?: +[{_RTL}]+)+")


def visual_order(text: str) -> str:
    """``text`` with each run of two or more right-to-left words (Hebrew,
    Arabic) written last word first, joined by no-break spaces.

    XeTeX shapes each word right to left but, without a bidi package, sets
    the words of a run left to right: written last word first they read
    right to left, as given (and so does a PDF reader's text of the line);
    on one line, since lines would read in the wrong order. Other text, and
    a run already reordered (its spaces no-break), is returned unchanged.

    Examples
    --------
    >>> visual_order("model עברית שלום 2") == "model שלום\u00a0עברית 2"
    True
    """
    return _RTL_RUN.sub(
        lambda run: "\u00a0".join(reversed(run.group(0).split(" "))), text
    )


def _in_greek_word(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a Greek letter with a letter beside it."""
    ch = text[index]
    if not ("\u0370" <= ch <= "\u03ff" or "\u1f00" <= ch <= "\u1fff"):
        return False
    before = text[index - 1] if index > 0 else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    return before.isalpha() or after.isalpha()


# ---------------------------------------------------------------- labels


class Label(str):
    r"""Text with its own HTML and LaTeX forms, e.g. a symbol with a subscript.

    A ``str`` (its plain-text form), so it prints, compares and formats as one;
    :func:`to_html` and :func:`to_latex` use ``html`` and ``latex`` where plain
    strings are escaped. Build it from trusted text only: ``html`` and
    ``latex`` are inserted as they are.

    Parameters
    ----------
    text : str
        Plain-text form.
    html, latex : str, optional
        Markup forms; default to the escaped ``text``.

    Examples
    --------
    >>> chi2 = Label("χ²_F", html="χ²<sub>F</sub>", latex=r"$\chi^{2}_{F}$")
    >>> print(chi2, to_html(chi2), to_latex(chi2))
    χ²_F χ²<sub>F</sub> $\chi^{2}_{F}$
    """

    html: str
    latex: str

    def __new__(cls, text: str, *, html: str | None = None, latex: str | None = None):
        self = super().__new__(cls, text)
        self.html = _escape_html(text) if html is None else html
        self.latex = escape_latex(text) if latex is None else latex
        return self


def _escape_html(text: object) -> str:
    return html.escape(str(text))


def to_html(text: object) -> str:
    """``text`` as HTML: a :class:`Label`'s own form, anything else escaped."""
    return text.html if isinstance(text, Label) else _escape_html(text)


def to_latex(text: object) -> str:
    """``text`` as LaTeX: a :class:`Label`'s own form, anything else escaped."""
    return text.latex if isinstance(text, Label) else escape_latex(text)
