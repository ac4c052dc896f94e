"""The number policy never loses a value (issue 34, finding 12).

Run times of 0.41 s and 1.75 s printed as "0.000" under "mean score (×10⁶)"
beside 2.4e6 s; a mantissa of "10.000" appeared with ×10⁻⁴ and ×10⁶; and
999.99995e3 printed as "1000000" without a power of ten. The properties,
over generated columns (magnitudes 1e-300 … 1e300, signs, zeros, NaN, values
at rounding boundaries):

(a) a nonzero value never prints as a zero;
(b) two values print the same only if they differ by less than 10⁻³ of the
    larger or, in a column without a power of ten, by less than the kind's
    unit (10⁻⁴ for scores and numbers, 10⁻² for ranks, statistics, effects
    and counts); p-values and probabilities by less than 0.001, or both
    beyond the same bound (``< 0.001``, ``> 0.999``), which says so;
(c) a column's power of ten is chosen after rounding: its largest number
    prints in [1, 10); a mantissa in scientific notation is in [1, 10); a
    column without one prints no number of 10⁶ or more;
(d) a printed number, times the column's power of ten, is within half a unit
    of its last digit of the true value.

The printed text is parsed back here, and compared with the true values in
exact decimal arithmetic, not with the formatting code under test.
"""

from __future__ import annotations

import decimal
import math
import re
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nbstats.results import render, render_text
from nbstats.results.number_policy import format_column, format_number

MINUS = "\u2212"
SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
FIXED = re.compile(r"^(−?)(\d+)(?:\.(\d+))?$")
SCIENTIFIC = re.compile(r"^(−?)(\d+)\.(\d+) × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$")
#: The unit of each kind's decimals in a column without a power of ten.
UNIT = {
    "score": Decimal("1e-4"),
    "number": Decimal("1e-4"),
    "statistic": Decimal("1e-2"),
    "effect": Decimal("1e-2"),
    "rank": Decimal("1e-2"),
    "count": Decimal("1e-2"),
}
RELATIVE = Decimal("1e-3")
#: Enough digits for the exact value of any double (at most 767).
EXACT = decimal.Context(prec=2000)


class Printed:
    """A printed number: its value (sign and digits as written, without the
    column's power of ten), its unit (one in the last digit) and, in
    scientific notation, its mantissa."""

    def __init__(self, cell: str, scientific: bool = False) -> None:
        self.mantissa: Decimal | None = None
        if scientific and cell == "0":  # exact zero, in scientific notation
            self.value, self.unit = Decimal(0), Decimal(0)
            return
        match = SCIENTIFIC.match(cell)
        if match:
            sign, whole, decimals, power = match.groups()
            exponent = int(power.translate(SUPERSCRIPTS))
            self.mantissa = Decimal(f"{whole}.{decimals}")
            self.unit = Decimal(1).scaleb(exponent - len(decimals))
            self.value = EXACT.multiply(self.mantissa, Decimal(1).scaleb(exponent))
        else:
            match = FIXED.match(cell)
            assert match, f"not a number as the policy writes one: {cell!r}"
            sign, whole, decimals = match.groups()
            decimals = decimals or ""
            self.value = Decimal(f"{whole}.{decimals}" if decimals else whole)
            self.unit = Decimal(1).scaleb(-len(decimals))
        if sign:
            self.value = -self.value


def _check_column(values: list[float], kind: str) -> None:
    """Properties (a)–(d) of a column written by the policy."""
    column = format_column(values, kind)
    assert len(column.cells) == len(values)
    scale = 0 if column.scientific else column.scale
    printed: dict[str, list[Decimal]] = {}
    biggest = Decimal(0)
    for v, cell in zip(values, column.cells, strict=True):
        if math.isnan(v):
            assert cell == "—"
            continue
        if math.isinf(v):
            assert cell == ("∞" if v > 0 else f"{MINUS}∞")
            continue
        number = Printed(cell, column.scientific)
        true = Decimal(v)  # exact
        shown = number.value.scaleb(scale)
        # (a) a nonzero value is not written as a zero
        assert (number.value != 0) == (v != 0), (v, cell, column)
        # (d) within half a unit of the last digit
        error = EXACT.subtract(shown, true).copy_abs()
        assert error <= number.unit.scaleb(scale) / 2, (v, cell, column)
        # (c) a mantissa is never 10
        if number.mantissa is not None:
            assert 1 <= number.mantissa < 10, (v, cell)
        elif not column.scientific:  # one number of decimals per column
            assert number.unit == Decimal(1).scaleb(-column.decimals), (cell, column)
        biggest = max(biggest, number.value.copy_abs())
        printed.setdefault(cell, []).append(true)
    # (c) the power of ten after rounding; none at 10⁶ or more
    if column.scale:
        assert 1 <= biggest < 10, column
    elif not column.scientific:
        assert biggest < 10**6, column
    # (b) values that print the same differ by less than the precision stated
    unit = 0 if column.scale or column.scientific else UNIT[kind]
    for cell, same in printed.items():
        low, high = min(same), max(same)
        allowed = max(unit, RELATIVE * max(abs(low), abs(high)))
        assert EXACT.subtract(high, low) < allowed or low == high, (cell, same)


#: Values at the boundaries where rounding changes the number of digits.
BOUNDARIES = [
    9.9995,
    9.99995,
    9.999995,
    9.9999995,
    0.99995,
    0.999995,
    999.99995e3,
    999999.9995,
    999999.5,
    9.9995e-4,
    0.00099995,
    0.0009999996,
    5e-5,
    4.9999e-5,
    0.5,
]


def _signed(values: st.SearchStrategy[float]) -> st.SearchStrategy[float]:
    return st.tuples(values, st.booleans()).map(lambda t: -t[0] if t[1] else t[0])


#: A magnitude from 1e-300 to 1e300, log-uniform.
_MAGNITUDES = st.builds(
    lambda mantissa, power: mantissa * 10.0**power,
    st.floats(1.0, 9.999999),
    st.integers(-300, 299),
)
_AT_BOUNDARIES = st.builds(
    lambda v, power: v * 10.0**power,
    st.sampled_from(BOUNDARIES),
    st.integers(-300, 300),
)
VALUES = st.one_of(
    _signed(_MAGNITUDES),
    _signed(_AT_BOUNDARIES),
    _signed(st.sampled_from(BOUNDARIES)),
    st.floats(-1e6, 1e6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, math.nan]),
)
#: Columns of values near each other (differences at the last digit).
NEAR = st.builds(
    lambda base, steps: [base * (1 + s) for s in steps],
    _signed(_MAGNITUDES),
    st.lists(
        st.sampled_from([0.0, 1e-5, 4e-4, 1e-3, 1.5e-3, 0.01, -2e-3]),
        min_size=1,
        max_size=6,
    ),
)
KIND = st.sampled_from(sorted(UNIT))


@settings(max_examples=600, deadline=None)
@given(st.lists(VALUES, min_size=1, max_size=12), KIND)
@example([0.41, 1.75, 2.4e6], "score")  # the run times
@example([9.9995e-4, 1e-5], "score")  # was "10.000" under ×10⁻⁴
@example([9.99995e6, 1.2e6], "score")  # was "10.000" under ×10⁶
@example([999.99995e3], "score")
@example([999.9999995e3, 1.5], "statistic")  # was "1000000" with no scale
@example([-0.00001, 0.5], "score")  # was "0.0000"
@example([0.003, 0.41], "effect")  # was "0.00"
@example([1e-300, 1e300, -5e-324, 0.0], "number")
def test_mixed_magnitudes_lose_no_value(values, kind):
    _check_column(values, kind)


@settings(max_examples=300, deadline=None)
@given(NEAR, KIND)
def test_values_near_each_other_keep_their_differences(values, kind):
    _check_column(values, kind)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(1e-3, 1e3), min_size=1, max_size=30))
def test_ordinary_scores_keep_their_look(values):
    # no extreme scale, no value lost: the policy's own decimals (the data's
    # precision, at most 4) unless a value needs more to stay nonzero
    column = format_column(values, "score")
    assert not column.scientific and column.scale == 0
    assert column.decimals == 4 or all(
        round(v, column.decimals) == pytest.approx(v, rel=1e-9) for v in values
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 0.0005, 0.9995])),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from(["pvalue", "probability"]),
)
def test_bounded_kinds_say_so(values, kind):
    cells = format_column(values, kind).cells
    by_cell: dict[str, list[float]] = {}
    for v, cell in zip(values, cells, strict=True):
        bound = cell.startswith(("<", ">"))
        if not bound:
            assert float(cell) != 0 or v == 0
            assert abs(float(cell) - v) <= 0.0005 + 1e-12
        by_cell.setdefault(cell, []).append(v)
    for cell, same in by_cell.items():
        if not cell.startswith(("<", ">")):
            assert max(same) - min(same) < 1e-3, (cell, same)


@settings(max_examples=300, deadline=None)
@given(_signed(st.one_of(_MAGNITUDES, _AT_BOUNDARIES)), KIND)
def test_a_lone_value_is_never_zero_and_never_has_a_mantissa_of_10(value, kind):
    text = format_number(value, kind)
    number = Printed(text)
    assert number.value != 0
    if number.mantissa is not None:
        assert 1 <= number.mantissa < 10
    else:
        assert abs(number.value) < 10**6
    error = EXACT.subtract(number.value, Decimal(value)).copy_abs()
    assert error <= number.unit / 2


def test_integers_print_exactly():
    big = 2**53
    assert format_column([big + 1, big], "count").cells == [str(big + 1), str(big)]
    assert format_column([-(10**30), None], "count").cells == [
        f"{MINUS}{10**30}",
        "—",
    ]


# ------------------------------------------- every renderer, the same text

#: The issue's run times: mean seconds per algorithm.
RUN_TIMES = pd.DataFrame(
    {"mean score": [0.41, 1.75, 2.4e6], "mean rank": [1.0, 2.0, 3.0]},
    index=pd.Index(["fast", "medium", "slow"], name="algorithm"),
)


def test_run_times_print_apart_in_text_html_and_latex():
    kinds = {"mean score": "score", "mean rank": "rank"}
    text = render_text.text_table(RUN_TIMES, kinds=kinds)
    markup = render.html_table(RUN_TIMES, kinds=kinds)
    latex = render.latex_table(RUN_TIMES, kinds=kinds, float_env=False)
    expected = ["4.100 × 10⁻¹", "1.750 × 10⁰", "2.400 × 10⁶"]
    for cell in expected:
        assert cell in text
        assert f'<td class="num">{cell}</td>' in markup
        mantissa, power = cell.split(" × 10")
        exponent = power.translate(SUPERSCRIPTS)
        assert f"{mantissa} $\\times$ 10$^{{{exponent}}}$" in latex
    for output in (text, markup, latex):
        assert "0.000" not in output and "×10⁶" not in output


@settings(max_examples=60, deadline=None)
@given(st.lists(VALUES, min_size=2, max_size=6), KIND)
def test_every_renderer_writes_the_same_cells(values, kind):
    frame = pd.DataFrame({"value": values})
    column = format_column(values, kind)
    text = render_text.text_table(frame, kinds={"value": kind})
    markup = render.html_table(frame, kinds={"value": kind})
    latex = render.latex_table(frame, kinds={"value": kind}, float_env=False)
    header = str(column.header("value"))
    assert header in text
    assert header in markup
    rows = [line.split(" & ")[-1].removesuffix(r" \\") for line in latex.splitlines()]
    for cell in column.cells:
        assert cell in text
        assert f'<td class="num">{cell}</td>' in markup
        assert render.escape_latex(cell) in rows or cell == "—"


def test_the_score_table_of_a_report_is_scientific_when_its_scale_spans_too_much():
    # the report's table of every score has no header per column: a power of
    # ten it cannot name gives scientific notation, four figures as a column
    scores = np.array([[0.41, 1.75], [2.4e6, 0.5]])
    column = format_column(scores.ravel().tolist(), "score", common_scale=False)
    assert column.cells == [
        "4.100 × 10⁻¹",
        "1.750 × 10⁰",
        "2.400 × 10⁶",
        "5.000 × 10⁻¹",
    ]
    tiny = format_column([1.5e-7, 2.5e-7], "score", common_scale=False)
    assert tiny.scientific and tiny.cells == ["1.500 × 10⁻⁷", "2.500 × 10⁻⁷"]
