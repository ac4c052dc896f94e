"""Tukey's HSD sees a consistent small effect next to a large case effect.

The attack (issue 30, finding 1, on the ANOVA's post-hoc): B is 0.2 ms faster
than A on all 20 tasks, which range over 0–1000 s. ``tukey_hsd`` computed its
error mean square from residuals of the raw scores, whose round-off (an ulp of
1000 s, about 1e-13) is of the size of the real residuals: t came out at
2.1e10 where the exact value is 3.1e10. The references here are computed
exactly with fractions from the same floats (no round-off at all), scipy's
studentized range, R's ``TukeyHSD`` and ``tukey_hsd`` itself on the table with
the case effect removed first; with two algorithms Tukey's t is the paired
t-test's, also in the limits (t = ±∞ when every case has the same difference,
0 when none differs).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

import nbstats
from nbstats.stats.frequentist.tukey import tukey_hsd

SETTINGS = settings(max_examples=150, deadline=None)


def _attack_table(n_algorithms: int = 2) -> pd.DataFrame:
    rng = np.random.default_rng(30)
    a = rng.uniform(0, 1000, 20)
    # a noise of a few ulps of the task's size on top of the 0.2 ms
    columns = {"A": a, "B": a - 0.0002 + rng.normal(size=20) * 1e-13}
    if n_algorithms == 3:
        columns["C"] = a + 0.0003 + rng.normal(size=20) * 1e-13
    return pd.DataFrame(columns, index=[f"task{i}" for i in range(20)])


def _exact_tukey(table: pd.DataFrame) -> dict[tuple[str, str], float]:
    """Tukey's t of every pair of the two-way model, in exact rationals.

    Every float is a rational: the means, the residuals of
    ``score ~ algorithm + case`` and their sum of squares are exact, and only
    the final square root is rounded.
    """
    x = [[Fraction(float(v)) for v in row] for row in table.to_numpy()]
    n, k = len(x), len(x[0])
    rows = [sum(r) / k for r in x]
    cols = [sum(x[i][j] for i in range(n)) / n for j in range(k)]
    grand = sum(rows) / n
    ss = sum(
        (x[i][j] - rows[i] - cols[j] + grand) ** 2 for i in range(n) for j in range(k)
    )
    mse = ss / ((n - 1) * (k - 1))
    names = list(table.columns)
    out = {}
    for i, j in combinations(range(k), 2):
        # t = d / sqrt(2 mse / n), as sign(d) sqrt(d² n / (2 mse))
        d = cols[j] - cols[i]
        square = d * d * n / (2 * mse)
        out[names[i], names[j]] = float(np.sign(float(d))) * np.sqrt(float(square))
    return out


@pytest.mark.parametrize("n_algorithms", [2, 3])
def test_attack_t_is_the_exact_one(n_algorithms):
    table = _attack_table(n_algorithms)
    res = tukey_hsd(table)
    exact = _exact_tukey(table)
    k, df = n_algorithms, 19 * (n_algorithms - 1)
    for (a, b), t in exact.items():
        assert abs(t) > 1e9
        assert res.statistics.loc[a, b] == pytest.approx(t, rel=1e-9)
        assert res.statistics.loc[b, a] == pytest.approx(-t, rel=1e-9)
        expected = stats.studentized_range.sf(abs(t) * np.sqrt(2), k, df)
        assert res.adjusted.loc[a, b] == pytest.approx(expected, abs=1e-12)
        assert res.pvalues.loc[a, b] == pytest.approx(2 * stats.t.sf(abs(t), df))


@pytest.mark.parametrize("n_algorithms", [2, 3])
def test_attack_equals_the_table_without_its_case_effect(n_algorithms):
    table = _attack_table(n_algorithms)
    # x - x_A is exact here (Sterbenz: the scores of a case are within a
    # factor 2 of each other), and leaves no case effect to lose things in
    centred = table.sub(table["A"], axis=0)
    res, reference = tukey_hsd(table), tukey_hsd(centred)
    np.testing.assert_allclose(res.statistics, reference.statistics, rtol=1e-9)
    np.testing.assert_allclose(res.adjusted, reference.adjusted, rtol=1e-9)


def test_attack_agrees_with_r_on_the_centred_table(run_r):
    table = _attack_table(3)
    centred = table.sub(table["A"], axis=0) * 2.0**13  # exact: a power of two
    y = ", ".join(repr(float(v)) for v in centred.to_numpy().ravel())
    expected = run_r(
        f"""
y <- c({y})
alg <- factor(rep(1:3, times = 20))
case <- factor(rep(1:20, each = 3))
fit <- aov(y ~ alg + case)
mse <- deviance(fit) / df.residual(fit)
tk <- TukeyHSD(fit, "alg")$alg
cat(sprintf('{{"diff": [%s], "t": [%s]}}',
    paste(sprintf("%.17g", tk[, "diff"]), collapse = ","),
    paste(sprintf("%.17g", tk[, "diff"] / sqrt(2 * mse / 20)), collapse = ",")))
"""
    )
    res = tukey_hsd(table)
    # R's rows: 2-1, 3-1, 3-2 (mean of the first minus the second)
    pairs = [("A", "B"), ("A", "C"), ("B", "C")]
    for (a, b), t in zip(pairs, expected["t"], strict=True):
        assert res.statistics.loc[a, b] == pytest.approx(t, rel=1e-6)


def test_two_algorithms_one_ulp_everywhere_is_infinite_as_the_t_test():
    a = np.linspace(1.0, 1.9, 10)  # one binade: the same ulp on every case
    b = np.nextafter(a, np.inf)
    res = tukey_hsd(pd.DataFrame({"a": a, "b": b}))
    assert nbstats.ttest(a, b).statistic == np.inf
    assert res.statistics.loc["a", "b"] == np.inf
    assert res.adjusted.loc["a", "b"] == 0.0
    assert bool(res.reject.loc["a", "b"])


def test_identical_cases_three_algorithms_are_infinite_or_zero():
    # every case the same differences, two algorithms tied within every case
    a = np.array([3.0, 700.0, 0.25, 1e6])
    table = pd.DataFrame({"a": a, "b": a + 1.0, "c": a})
    res = tukey_hsd(table)
    assert res.statistics.loc["a", "b"] == np.inf
    assert res.statistics.loc["b", "c"] == -np.inf
    assert res.statistics.loc["a", "c"] == 0.0
    assert res.adjusted.loc["a", "c"] == 1.0


def test_no_difference_at_all_is_zero_as_the_t_test():
    a = np.array([0.1, 0.7, 1e300, 3.3])
    res = tukey_hsd(pd.DataFrame({"a": a, "b": a.copy()}))
    assert (res.statistics.loc["a", "b"], res.adjusted.loc["a", "b"]) == (0.0, 1.0)


@st.composite
def _paired_at_scale(draw):
    n = draw(st.integers(2, 20))
    offset = 10.0 ** draw(st.integers(-270, 300))
    base = draw(
        hnp.arrays(np.float64, n, elements=st.floats(0, 1000, allow_subnormal=False))
    )
    a = base * offset
    kind = draw(st.sampled_from(["relative", "constant", "ulp"]))
    if kind == "ulp":
        b = np.nextafter(a, draw(st.sampled_from([np.inf, -np.inf])))
    elif kind == "constant":
        b = a + draw(st.floats(-1, 1, allow_subnormal=False)) * offset * 1e-9
    else:
        exponent = draw(st.integers(-15, 0))
        relative = draw(
            hnp.arrays(np.float64, n, elements=st.floats(-1, 1, allow_subnormal=False))
        )
        b = a + a * relative * 10.0**exponent
    return a, b


@SETTINGS
@given(ab=_paired_at_scale())
def test_two_algorithms_t_is_the_paired_t_at_every_scale(ab):
    a, b = ab
    t = nbstats.ttest(a, b)
    res = tukey_hsd(pd.DataFrame({"a": a, "b": b}))
    ours = res.statistics.loc["a", "b"]
    if np.isinf(t.statistic) or t.statistic == 0:
        # the limits: every case the same difference, or none differs
        assert ours == t.statistic
        assert res.pvalues.loc["a", "b"] == t.pvalue
        assert res.adjusted.loc["a", "b"] == t.pvalue
    else:
        # the exact t (the paired t-test's own round-off reaches 30 % when
        # the differences differ by an ulp: mean - d_i loses the last bit)
        exact = _exact_tukey(pd.DataFrame({"a": a, "b": b}))["a", "b"]
        assert ours == pytest.approx(exact, rel=1e-9)
        assert t.statistic == pytest.approx(exact, rel=0.5)
        p = 2 * stats.t.sf(abs(exact), len(a) - 1)
        assert res.pvalues.loc["a", "b"] == pytest.approx(p, rel=1e-8, abs=1e-300)
        # k = 2: the studentized range of two means is |t| √2
        assert res.adjusted.loc["a", "b"] == pytest.approx(p, rel=1e-6, abs=1e-12)
