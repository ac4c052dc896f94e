"""rm_anova sees a consistent small effect next to a large case effect.

The attack (issue 30, finding 1): B is 0.2 ms faster than A on all 20 tasks,
which range over 0–1000 s. The old "rounding dust" rule measured the sums of
squares against a total that included the case effect, and gave F = 0, p = 1
where the paired t-test gives p ≈ 1e-11. With two algorithms the ANOVA *is*
the paired t-test: F = t², the same p-value, also in the limits.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats
from statsmodels.stats.anova import AnovaRM

import nbstats

SETTINGS = settings(max_examples=200, deadline=None)


def _attack_table(n_algorithms: int = 2) -> pd.DataFrame:
    rng = np.random.default_rng(30)
    a = rng.uniform(0, 1000, 20)
    columns = {"A": a, "B": a - 0.0002}
    if n_algorithms == 3:
        columns["C"] = a + 0.0003
    return pd.DataFrame(columns, index=[f"task{i}" for i in range(20)])


def _assert_f_is_t_squared(a: np.ndarray, b: np.ndarray) -> None:
    anova = nbstats.rm_anova(np.column_stack([a, b]))
    t = nbstats.ttest(a, b)
    # scipy's paired t-test as the independent reference where it is defined
    if np.isfinite(t.statistic) and t.statistic != 0:
        d = b - a
        # a power of two: exact, and t does not depend on the units
        unit = 2.0 ** np.floor(np.log2(np.max(np.abs(d))))
        with warnings.catch_warnings():
            # scipy's heuristic warns of cancellation on some exact two-case
            # differences (e.g. [1.83, 0]); the value is checked below anyway
            warnings.filterwarnings("ignore", "Precision loss", RuntimeWarning)
            reference = stats.ttest_1samp(d / unit, 0.0)
        assert t.statistic == pytest.approx(reference.statistic, rel=1e-9)
    if np.isinf(t.statistic):
        assert anova.statistic == np.inf
        assert anova.pvalue == 0.0
    elif t.statistic == 0:
        assert anova.statistic == 0.0
        assert anova.pvalue == 1.0
    else:
        assert anova.statistic == pytest.approx(t.statistic**2, rel=1e-9)
        assert anova.pvalue == pytest.approx(t.pvalue, rel=1e-8, abs=1e-300)
    assert t.pvalue == pytest.approx(anova.pvalue, rel=1e-8, abs=1e-300)


def test_attack_small_consistent_effect_is_found():
    table = _attack_table()
    anova = nbstats.rm_anova(table)
    t = nbstats.ttest(table["A"], table["B"])
    reference = stats.ttest_rel(table["B"], table["A"])
    assert t.statistic == pytest.approx(reference.statistic, rel=1e-9)
    assert anova.statistic == pytest.approx(reference.statistic**2, rel=1e-9)
    assert anova.pvalue == pytest.approx(reference.pvalue, rel=1e-8)
    assert anova.pvalue < 1e-10


def test_attack_with_three_algorithms_agrees_with_statsmodels():
    table = _attack_table(3)
    # statsmodels on the case-centred table (its own sums lose the effect in
    # the case's round-off as the old code did); centring changes no F
    centred = table.sub(table["A"], axis=0)
    long = centred.rename_axis("case").reset_index().melt(id_vars="case")
    reference = AnovaRM(long, "value", "case", within=["variable"]).fit()
    res = nbstats.rm_anova(table)
    assert res.statistic == pytest.approx(
        reference.anova_table["F Value"].iloc[0], rel=1e-6
    )
    assert res.pvalue < 1e-10


def test_attack_analyze_goes_on_to_the_posthoc():
    table = _attack_table(3)
    res = nbstats.analyze(table, higher_is_better=False)
    assert res.omnibus.pvalue < 1e-10
    assert res.pairwise is not None  # the post-hoc: "no post-hoc" before


def test_one_ulp_everywhere_is_infinite_as_the_t_test():
    a = np.linspace(1.0, 1.9, 10)  # one binade: the same ulp on every case
    b = np.nextafter(a, np.inf)
    assert nbstats.ttest(a, b).statistic == np.inf
    res = nbstats.rm_anova(np.column_stack([a, b]))
    assert (res.statistic, res.pvalue, res.pvalue_gg) == (np.inf, 0.0, 0.0)


def test_no_difference_at_all_is_zero_as_the_t_test():
    a = np.array([0.1, 0.7, 1e300, 3.3])
    t = nbstats.ttest(a, a.copy())
    res = nbstats.rm_anova(np.column_stack([a, a]))
    assert (t.statistic, t.pvalue) == (0.0, 1.0)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


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
def test_two_algorithms_f_is_t_squared_at_every_scale(ab):
    a, b = ab
    _assert_f_is_t_squared(a, b)
    _assert_f_is_t_squared(b, a)


def _long(x: np.ndarray) -> pd.DataFrame:
    n, k = x.shape
    return pd.DataFrame(
        {
            "case": np.repeat(np.arange(n), k),
            "algorithm": np.tile(np.arange(k), n),
            "score": x.ravel(),
        }
    )


@SETTINGS
@given(
    shape=st.tuples(st.integers(3, 12), st.integers(2, 6)),
    seed=st.integers(0, 2**32 - 1),
    case_effect=st.sampled_from([0.0, 1.0, 1e3, 1e6]),
)
def test_agrees_with_statsmodels_anovarm(shape, seed, case_effect):
    rng = np.random.default_rng(seed)
    n, k = shape
    effects = rng.normal(size=k)
    noise = rng.normal(size=(n, k))
    cases = rng.normal(size=(n, 1)) * case_effect
    ours = nbstats.rm_anova(cases + effects + noise)
    # statsmodels sums the uncentred table: give it the case-free one (the
    # same F in exact arithmetic) so its own round-off does not decide
    ref = AnovaRM(_long(effects + noise), "score", "case", within=["algorithm"])
    table = ref.fit().anova_table
    assert ours.statistic == pytest.approx(table["F Value"].iloc[0], rel=1e-7)
    assert ours.pvalue == pytest.approx(table["Pr > F"].iloc[0], rel=1e-6, abs=1e-15)
