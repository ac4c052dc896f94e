"""How numbers, p-values and symbols are written (nbstats.results.formatting).

The expected strings are written by hand from the documented rules (four
decimals or "< 0.001" for p-values, significant figures in fixed notation for
other numbers, U+2212 minus), not copied from the code's output.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from nbstats.results.formatting import (
    Label,
    escape_latex,
    format_pvalue,
    format_value,
    is_pvalue_name,
    to_html,
    to_latex,
)

MINUS = "\u2212"


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0.0012345, "0.001"),
        (0.001, "0.001"),
        (0.000999, "< 0.001"),
        (1e-5, "< 0.001"),
        (0.0, "< 0.001"),
        (0.025806, "0.026"),
        (0.05, "0.050"),
        (0.5, "0.500"),
        (1.0, "1.000"),
        (np.float64(0.12346), "0.123"),
    ],
)
def test_format_pvalue_three_decimals_or_below_0_001(p, text):
    assert format_pvalue(p) == text
    expected_latex = "$<$ 0.001" if text.startswith("<") else text
    assert format_pvalue(p, latex=True) == expected_latex


def test_format_pvalue_of_a_missing_comparison():
    assert format_pvalue(float("nan")) == "—"
    assert format_pvalue(None) == "—"
    assert format_pvalue(float("nan"), latex=True) == "--"


@pytest.mark.parametrize("bad", [-0.01, 1.5, 5.0, float("inf")])
def test_format_pvalue_rejects_values_outside_0_1(bad):
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\]"):
        format_pvalue(bad)


@pytest.mark.parametrize("bad", ["0.05", True, (0.1,)])
def test_format_pvalue_rejects_non_numbers(bad):
    with pytest.raises(TypeError, match="must be a real number"):
        format_pvalue(bad)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (9.27928, "9.279"),
        (0.0163212, "0.01632"),
        (0.00012346, "1.23 × 10⁻⁴"),
        (123456.7, "123457"),
        (12.5, "12.5"),
        (3.0, "3.0"),
        (2e6, "2.00 × 10⁶"),
        (-1.8302, f"{MINUS}1.83"),
        (-7, f"{MINUS}7"),
        (-0.0, "0.0"),
        (4.2e-5, "4.20 × 10⁻⁵"),
        (-4.2e-5, f"{MINUS}4.20 × 10⁻⁵"),
        (1e300, "1.00 × 10³⁰⁰"),
        (float("inf"), "∞"),
        (float("-inf"), f"{MINUS}∞"),
        (float("nan"), "—"),
        (None, "—"),
        (np.bool_(True), "yes"),
        ((0.5, -2.25), f"(0.5, {MINUS}2.25)"),
        ("text", "text"),
    ],
)
def test_format_value(value, text):
    assert format_value(value) == text


def test_format_value_never_uses_e_notation():
    for exponent in range(-15, 16):
        for mantissa in (1.0, 1.234567, -9.87654):
            text = format_value(mantissa * 10.0**exponent)
            assert not re.search(r"\de", text), text
            assert "-" not in text, text  # the minus is U+2212


def test_format_value_keeps_digits_significant_figures():
    assert format_value(math.pi, 3) == "3.14"
    assert format_value(math.pi, 6) == "3.14159"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("p", True),
        ("pvalue", True),
        ("p-value", True),
        ("F p-value", True),
        ("p-value (GG)", True),
        ("adjusted p", True),
        ("holm adj. p", True),
        ("f_pvalue", True),
        ("adjusted", True),
        ("P(SVC better)", False),
        ("prob_right", False),
        ("groups", False),
    ],
)
def test_is_pvalue_name(name, expected):
    assert is_pvalue_name(name) is expected


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("α", r"$\alpha$"),
        ("γ", r"$\gamma$"),
        ("ε", r"$\varepsilon$"),
        ("θ", r"$\theta$"),
        ("χ²", r"$\chi^{2}$"),
        ("≈", r"$\approx$"),
        ("±", r"$\pm$"),
        (MINUS, "$-$"),
        ("≤ ≥", r"$\leq$ $\geq$"),
        ("R⁺", "R$^{+}$"),
        ("R⁻", "R$^{-}$"),
        ("Σ⁻¹", r"$\Sigma^{-1}$"),
        ("μ₀", r"$\mu_{0}$"),
        ("x₁₂", "x$_{12}$"),
        ("→", r"$\rightarrow$"),
        ("×", r"$\times$"),
        ("…", r"\ldots{}"),
        ("½", r"$\frac{1}{2}$"),
        ("–", r"\textendash{}"),
        ("a < b > c | d", "a $<$ b $>$ c $|$ d"),
        ("é ü ß", "é ü ß"),
        ("Случайный лес", "Случайный лес"),
    ],
)
def test_escape_latex_symbols(text, latex):
    assert escape_latex(text) == latex


def test_escape_latex_specials_around_symbols():
    assert escape_latex("x_1 ≤ 50% & $") == r"x\_1 $\leq$ 50\% \& \$"


def test_label_keeps_its_own_forms():
    chi2 = Label("χ²_F", html="χ²<sub>F</sub>", latex=r"$\chi^{2}_{F}$")
    assert chi2 == "χ²_F" and f"{chi2:>6}" == "  χ²_F"
    assert to_html(chi2) == "χ²<sub>F</sub>"
    assert to_latex(chi2) == r"$\chi^{2}_{F}$"
    plain = Label("a_b <c>")
    assert to_html(plain) == "a_b &lt;c&gt;" and to_latex(plain) == r"a\_b $<$c$>$"
    assert to_html("x & y") == "x &amp; y" and to_latex("x & y") == r"x \& y"
