r"""The number policy: how every results table writes its numbers.

One rule for every table (HTML, LaTeX, text, the report) and every key
figure: a value prints the same wherever it appears. Decimals are fixed per
*column*, chosen by the kind of quantity it holds (:data:`KINDS`):

============  ==========================================================
kind          how it is written
============  ==========================================================
score         the data's own precision, at most 4 decimals (``0.85``,
              ``0.8522``; whole numbers as integers)
rank          2 decimals (``2.50``)
statistic     the data's own precision, at most 2 decimals (``9.28``,
              ``25.5``)
pvalue        3 decimals, ``< 0.001`` below 0.001
probability   3 decimals, ``< 0.001`` below 0.001 and ``> 0.999`` above
              0.999 (a posterior probability is never shown as 0 or 1)
effect        2 decimals (``−0.41``)
count         integers (``14``); split ties keep their half (``25.5``)
number        anything else: like a score
============  ==========================================================

Negative numbers carry a true minus sign, U+2212 (``−1.83``), which
:func:`~nbstats.results.formatting.escape_latex` writes ``$-$``; zero is
never signed. **Extreme scales**: a column of numbers (any kind but p-values
and probabilities) whose largest magnitude, *as printed*, is below 10⁻³ or
at least 10⁶ is written with a common power of ten, named in its header
(``score (×10⁻⁶)``: ``1.235``, ``0.870``), chosen after rounding so that its
largest number prints in [1, 10) (9.9995 × 10⁻⁴ is ``1.000`` under ×10⁻³,
never ``10.000`` under ×10⁻⁴); a lone value (a key figure, a caption) at such
a scale in scientific notation with three significant figures (``1.23 ×
10⁻⁶``, ``1.00 × 10³⁰⁰``). Never "< 0.0001" for a real value, never a
301-digit number.

**No value is lost** (issue 34). In every column:

- a nonzero value never prints as a zero;
- two values print the same only if they differ by less than 10⁻³ of the
  larger (:data:`RELATIVE_PRECISION`) or, in a column without a power of
  ten, by less than the unit of the kind's decimals (10⁻⁴ for scores and
  numbers, 10⁻² for ranks, statistics, effects and counts); p-values and
  probabilities by less than 0.001, or both beyond the same bound
  (``< 0.001``, ``> 0.999``), which says so;
- a printed number, times the column's power of ten, is within half a unit
  of its last digit of the true value.

A column the kind's decimals would break that for (``0.00004`` beside
``0.5``, an effect of 0.003) gets more decimals, as few as keep it, up to
:data:`MOST_DECIMALS` (``0.50000``, ``0.00004``); one with a power of ten
keeps its decimals. If that is not enough (magnitudes that span too much for
one scale, such as run times of 0.41 s, 1.75 s and 2.4 × 10⁶ s), every number
of the column is in scientific notation with four significant figures
(``4.100 × 10⁻¹``, ``1.750 × 10⁰``, ``2.400 × 10⁶``; an exact zero is
``0``): the column's :attr:`Column.scientific`. Integers print exactly.
Numbers are never in e-notation (``1.2e-05``). CSV files (``to_frame()``,
the report's downloads) hold the numbers themselves, not this text.

A column's kind is declared by the result that makes the table (its
``_kinds()``); a column it does not declare gets its kind from its header
(:func:`kind_of`: ``p``, ``adjusted p`` → pvalue; ``P(rope)``, ``prob_best``
→ probability; ``mean rank`` → rank; ``r``, ``effect`` → effect; ``n``,
``df``, ``wins`` → count; ``z``, ``t``, ``statistic`` → statistic).
:func:`format_column` writes a column, :func:`format_number` a lone value.
Tables show headers in words (:func:`header_words`: ``prob_rope`` →
``P(rope)``); ``to_frame()`` keeps the code names, as data.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from numbers import Integral, Real

import numpy as np

from nbstats.results.formatting import (
    LARGE,
    MINUS,
    SMALL,
    Label,
    _scientific,
    _superscript,
    escape_latex,
    format_value,
    is_pvalue_name,
)

__all__ = [
    "KINDS",
    "Column",
    "format_column",
    "format_number",
    "format_relation",
    "header_words",
    "kind_of",
]

#: The kinds of quantity a column holds (see the module's docstring).
KINDS = (
    "score",
    "rank",
    "statistic",
    "pvalue",
    "probability",
    "effect",
    "count",
    "number",
)

#: kind -> (decimals, fixed): fixed decimals, or at most that many (the data's
#: own precision).
_DECIMALS = {
    "score": (4, False),
    "number": (4, False),
    "rank": (2, True),
    "statistic": (2, False),
    "pvalue": (3, True),
    "probability": (3, True),
    "effect": (2, True),
    "count": (2, False),
}
#: Decimals of a column written with a common power of ten (at most).
SCALED_DECIMALS = 3
#: Two values in one column print the same only if they differ by less than
#: this share of the larger (or, without a power of ten, by less than the
#: kind's unit): see the module's docstring.
RELATIVE_PRECISION = 1e-3
#: Most decimals a column in fixed point takes to keep its values apart;
#: beyond, the column is in scientific notation.
MOST_DECIMALS = 6
#: Significant figures of a number in a column in scientific notation.
SCIENTIFIC_FIGURES = 4


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


_WORDS = {
    "pvalue": "p",
    "p_value": "p",
    "f_pvalue": "F p",
    "adjusted": "adjusted p",
    "prob": "probability",
    "prob_rope": "P(rope)",
    "prob_left": "P(left)",
    "prob_right": "P(right)",
    "prob_best": "P(best)",
    "prob_lower": "P(lower)",
    "prob_upper": "P(upper)",
    "prob_best_mc_error": "P(best) MC error",
    "mean_prob_rope": "mean P(rope)",
    "mean_prob_left": "mean P(left)",
    "mean_prob_right": "mean P(right)",
    "mean_difference": "mean difference",
    "ci_low": "CI low",
    "ci_high": "CI high",
    "sum_sq": "sum of squares",
    "mean_sq": "mean square",
    "zstatistic": "z",
    "f_statistic": "F",
    "r_plus": "R+",
    "r_minus": "R−",
    "n_zero": "zeros",
    "n_cases": "cases",
    "n_algorithms": "algorithms",
    "effect_size": "effect size",
    "mean_rank": "mean rank",
    "mean_rank_a": "mean rank a",
    "mean_rank_b": "mean rank b",
    "expected_rank": "expected rank",
    "rank_lower": "rank lower",
    "rank_upper": "rank upper",
    "posterior_mean": "posterior mean",
    "n_missing": "missing",
    "n_dropped": "dropped",
    "n_resamples": "resamples",
    "instances_seen": "instances seen",
    "evaluations_used": "evaluations used",
    "tie_correction": "tie correction",
    "zero_method": "zero method",
    "interval_method": "interval method",
    "pair_count": "pairs",
    "block_size": "block size",
    "f_df1": "F df1",
    "f_df2": "F df2",
}


def header_words(name: object) -> object:
    """A column's header in words: nbstats' code names (``prob_rope`` →
    ``P(rope)``, ``pvalue`` → ``p``, ``mean_difference`` → ``mean
    difference``); anything else, an algorithm's name above all, is kept as
    it is.

    Examples
    --------
    >>> [header_words(n) for n in ("prob_rope", "mean_difference", "pvalue", "n")]
    ['P(rope)', 'mean difference', 'p', 'n']
    >>> header_words("svm_rbf")  # a name stays as it is
    'svm_rbf'
    """
    if isinstance(name, Label) or not isinstance(name, str):
        return name
    return _WORDS.get(name, name)


_COUNT_NAMES = {
    "n",
    "df",
    "f df",
    "trials",
    "cases",
    "wins",
    "losses",
    "ties",
    "n_ties",
    "step",
    "draws",
    "zeros",
    "algorithms",
    "lower",
    "upper",
    "significant pairs",
    "posterior draws",
}
_STATISTIC_NAMES = {"statistic", "z", "t", "f", "w", "q", "h", "chi2", "χ²"}


def kind_of(name: object) -> str:
    """The kind of a column (or key figure) from its header alone: the
    fallback for the columns a result does not declare (see the module's
    docstring).

    Examples
    --------
    >>> [kind_of(n) for n in ("adjusted p", "P(rope)", "mean rank", "r", "n", "z")]
    ['pvalue', 'probability', 'rank', 'effect', 'count', 'statistic']
    >>> kind_of("accuracy")
    'number'
    """
    text = str(header_words(name)).strip().lower()
    if is_pvalue_name(text):
        return "pvalue"
    if text.startswith(("p(", "prob", "mean p(")) or "probability" in text:
        return "probability"
    if "effect" in text or "biserial" in text or text in {"r", "cohen's d", "δ"}:
        return "effect"
    if "rank" in text or "critical difference" in text:
        return "rank"
    if (
        text in _COUNT_NAMES
        or text.startswith(("n ", "wins", "number of", "instances", "evaluations"))
        or text.endswith((" cases", " draws", " resamples"))
    ):
        return "count"
    if (
        text in _STATISTIC_NAMES
        or "statistic" in text
        or text.startswith(("χ²", "t =", "iman", "greenhouse", "distance"))
    ):
        return "statistic"
    if "score" in text or "difference" in text or "mean" in text:
        return "score"
    return "number"


@dataclass(frozen=True)
class Column:
    """A column written by the number policy (:func:`format_column`).

    Attributes
    ----------
    cells : list of str
        Plain text, one per value (U+2212 minus signs; ``—`` for a missing
        value); text cells as they are.
    kind : str
    decimals : int
        Decimals of every number in the column.
    scale : int
        The power of ten divided out of the numbers (0 for none); the header
        names it (:meth:`header`).
    numeric : bool
        Whether the column holds numbers (right-aligned), not text.
    scientific : bool
        Whether every number is in scientific notation (``4.100 × 10⁻¹``):
        its magnitudes span too much for one power of ten; ``decimals`` are
        then the mantissas'.
    """

    cells: list[str]
    kind: str
    decimals: int
    scale: int
    numeric: bool
    scientific: bool = False

    def header(self, name: object) -> object:
        """``name`` in words, with the common power of ten if there is one:
        ``score (×10⁻⁶)``."""
        words = header_words(name)
        if not self.scale:
            return words
        suffix = f" (×10{_superscript(self.scale)})"
        if isinstance(words, Label):
            return Label(
                str(words) + suffix,
                html=words.html + html.escape(suffix),
                latex=words.latex + escape_latex(suffix),
            )
        return f"{words}{suffix}"


def _precision(values: Sequence[float], most: int) -> int:
    """The fewest decimals (at most ``most``) that write every value exactly."""
    for decimals in range(most):
        if all(abs(round(v, decimals) - v) <= 1e-9 * max(1.0, abs(v)) for v in values):
            return decimals
    return most


def _shifted(v: float, scale: int) -> Decimal:
    """``v`` / 10^scale, exactly (no float overflow or underflow at 1e±300)."""
    return Decimal(v).scaleb(-scale)


def _fixed(v: float, decimals: int, scale: int = 0) -> str:
    """``v`` / 10^scale with ``decimals`` decimals, rounded half to even from
    its exact value, as Python's ``format`` rounds."""
    if math.isnan(v):
        return "—"
    if math.isinf(v):
        return "∞" if v > 0 else MINUS + "∞"
    text = f"{abs(_shifted(v, scale) if scale else v):.{decimals}f}"
    negative = v < 0 and any(ch not in "0." for ch in text)
    return (MINUS if negative else "") + text


def _scientific_cell(v: float) -> str:
    """A cell of a column in scientific notation: four significant figures."""
    if math.isnan(v) or math.isinf(v):
        return _fixed(v, 0)
    if v == 0:
        return "0"
    return (MINUS if v < 0 else "") + _scientific(abs(v), SCIENTIFIC_FIGURES)


def _bounded(v: float, decimals: int, kind: str) -> str:
    """A p-value or a probability, with its floor (and ceiling)."""
    if math.isnan(v):
        return "—"
    floor = 10.0**-decimals
    if v < floor:
        return f"< {floor:.{decimals}f}"
    if kind == "probability" and v > 1 - floor:
        return f"> {1 - floor:.{decimals}f}"
    return f"{min(v, 1.0):.{decimals}f}"


def _policy_layout(finite: list[float], kind: str) -> tuple[int, int]:
    """(scale, decimals) by the kind's rule: the scale a power of ten when the
    largest magnitude, *as printed*, is below 10⁻³ or at least 10⁶."""
    most, fixed = _DECIMALS[kind]
    biggest = max((abs(v) for v in finite), default=0.0)
    decimals = most if fixed else _precision(finite, most)
    if not biggest or (biggest >= SMALL and round(biggest, decimals) < LARGE):
        return 0, decimals
    scale = math.floor(math.log10(biggest))
    shifted = [float(_shifted(v, scale)) for v in finite]
    return scale, _precision(shifted, min(most, SCALED_DECIMALS))


def _mantissa_scale(biggest: float, scale: int, decimals: int) -> int:
    """``scale``, or the next power of ten when the largest magnitude would
    print as 10.000 (the scale is chosen after rounding)."""
    if not scale:
        return 0
    if round(_shifted(biggest, scale), decimals) >= 10:
        return scale + 1
    return scale


def _is_zero(cell: str) -> bool:
    return not cell.strip(MINUS + "0.")


def _kept_apart(floats: list[float], cells: list[str]) -> bool:
    """Whether no nonzero value prints as zero and two values print the same
    only if they differ by less than :data:`RELATIVE_PRECISION` of the
    larger (the rule of a column with a power of ten)."""
    spans: dict[str, tuple[float, float]] = {}
    for v, cell in zip(floats, cells, strict=True):
        if not math.isfinite(v):
            continue
        if v and _is_zero(cell):
            return False
        low, high = spans.get(cell, (v, v))
        spans[cell] = (min(low, v), max(high, v))
    return all(
        high - low < RELATIVE_PRECISION * max(abs(low), abs(high))
        for low, high in spans.values()
        if high != low
    )


def _number_column(floats: list[float], kind: str, common_scale: bool) -> Column:
    """A column of real numbers (not p-values, probabilities or integers): the
    kind's layout; without a power of ten, more decimals while a value would
    print as zero (up to :data:`MOST_DECIMALS`); else every value in
    scientific notation."""
    finite = [v for v in floats if math.isfinite(v)]
    scale, decimals = _policy_layout(finite, kind)
    if not scale:
        # Without a power of ten, values that print the same differ by less
        # than the kind's unit already (10^-decimals, or less than 1e-9 of
        # them at the data's own precision): only a value written as zero
        # can be lost, and the smallest magnitude is the first to be.
        least = min((abs(v) for v in finite if v), default=0.0)
        for more in range(decimals, max(decimals, MOST_DECIMALS) + 1):
            if not least or not _is_zero(_fixed(least, more)):
                return Column([_fixed(v, more) for v in floats], kind, more, 0, True)
    elif common_scale:
        biggest = max(abs(v) for v in finite)
        scale = _mantissa_scale(biggest, scale, decimals)
        cells = [_fixed(v, decimals, scale) for v in floats]
        if _kept_apart(floats, cells):
            return Column(cells, kind, decimals, scale, True)
    cells = [_scientific_cell(v) for v in floats]
    return Column(cells, kind, SCIENTIFIC_FIGURES - 1, 0, True, scientific=True)


def format_column(
    values: Sequence[object], kind: str | None = None, *, common_scale: bool = True
) -> Column:
    """Write a column of values by the number policy.

    Parameters
    ----------
    values : sequence
        The column's values: numbers, with None/NaN for missing ones; a
        column with any text, boolean or tuple in it is written value by
        value (:func:`format_value`).
    kind : str, optional
        One of :data:`KINDS`; default ``"number"``.
    common_scale : bool
        Whether the column may take a common power of ten (for a table that
        shows its :meth:`Column.header`); if not, a column at an extreme scale
        is in scientific notation.

    Returns
    -------
    Column

    Raises
    ------
    ValueError
        If ``kind`` is not one of :data:`KINDS`.

    Examples
    --------
    >>> format_column([0.85, 0.8522, 1.0], "score").cells
    ['0.8500', '0.8522', '1.0000']
    >>> format_column([0.0004, 0.03, 0.5], "pvalue").cells
    ['< 0.001', '0.030', '0.500']
    >>> format_column([0.9996, 0.5], "probability").cells
    ['> 0.999', '0.500']
    >>> col = format_column([1.2346e-6, 8.7e-7, -2e-7], "score")
    >>> col.cells, col.header("score")
    (['1.235', '0.870', '−0.200'], 'score (×10⁻⁶)')
    >>> format_column([1.5e300, 2e299], "score").header("score")
    'score (×10³⁰⁰)'

    A value the kind's decimals would write as zero gets more decimals; a
    column whose magnitudes span too much for one scale is in scientific
    notation, every value with four significant figures:

    >>> format_column([0.5, 0.00004], "score").cells
    ['0.50000', '0.00004']
    >>> format_column([0.41, 1.75, 2.4e6], "score").cells
    ['4.100 × 10⁻¹', '1.750 × 10⁰', '2.400 × 10⁶']
    """
    kind = kind or "number"
    if kind not in _DECIMALS:
        raise ValueError(f"unknown number kind {kind!r}; choose one of {KINDS}.")
    items = list(values)
    numeric = [v is None or _is_number(v) for v in items]
    if not all(numeric) or not any(v is not None for v in items):
        cells = [format_value(v) for v in items]
        return Column(cells, kind, 0, 0, numeric=all(numeric) and bool(items))
    floats = [math.nan if v is None else float(v) for v in items]
    if kind in ("pvalue", "probability"):
        most = _DECIMALS[kind][0]
        cells = [_bounded(v, most, kind) for v in floats]
        return Column(cells, kind, most, 0, numeric=True)
    if all(isinstance(v, Integral) for v in items if v is not None):
        cells = ["—" if v is None else format_value(v) for v in items]
        return Column(cells, kind, 0, 0, numeric=True)
    return _number_column(floats, kind, common_scale)


def format_number(value: object, kind: str | None = None) -> str:
    """Write one value (a key figure, a caption's number) by the number policy.

    As in a column of its kind (:func:`format_column`), but a value at an
    extreme scale is written in scientific notation with three significant
    figures, as it has no header to name a power of ten. Tuples (intervals,
    degrees of freedom) are written element by element.

    Examples
    --------
    >>> format_number(9.27928, "statistic"), format_number(0.02582, "pvalue")
    ('9.28', '0.026')
    >>> format_number(1.2345e-6, "score"), format_number((0.25, 0.5), "probability")
    ('1.23 × 10⁻⁶', '(0.250, 0.500)')
    """
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(format_number(v, kind) for v in value) + ")"
    column = format_column([value], kind)
    if column.scale or column.scientific:
        v = float(value)  # type: ignore[arg-type]
        return (MINUS if v < 0 else "") + _scientific(abs(v))
    return column.cells[0]


def format_relation(value: object, kind: str | None = None) -> str:
    """A value after its symbol in running text: ``= 0.742``, or the bound
    alone when the policy writes one (``< 0.001``, ``> 0.999``), so that prose
    reads "P(best) > 0.999", never "P(best) = > 0.999".

    Examples
    --------
    >>> format_relation(0.7418, "probability"), format_relation(0.9996, "probability")
    ('= 0.742', '> 0.999')
    >>> format_relation(2e-5, "pvalue"), format_relation(1.2544, "statistic")
    ('< 0.001', '= 1.25')
    """
    text = format_number(value, kind)
    return text if text.startswith(("<", ">")) else f"= {text}"
