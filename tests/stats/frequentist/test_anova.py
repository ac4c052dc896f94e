"""Repeated-measures ANOVA against statsmodels' AnovaRM and Box's ε formula."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.anova import AnovaRM

import nbstats


def _long(x):
    n, k = x.shape
    return pd.DataFrame(
        {
            "case": np.repeat(np.arange(n), k),
            "algorithm": np.tile(np.arange(k), n),
            "score": x.ravel(),
        }
    )


@pytest.mark.parametrize("seed", range(4))
def test_equals_statsmodels_anovarm(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(15, 4)) + rng.normal(size=(15, 1)) * 3 + [0, 0.2, 0.5, 0.1]
    ours = nbstats.rm_anova(x)
    ref = AnovaRM(_long(x), "score", "case", within=["algorithm"]).fit().anova_table
    assert ours.statistic == pytest.approx(ref["F Value"].iloc[0], rel=1e-10)
    assert ours.pvalue == pytest.approx(ref["Pr > F"].iloc[0], rel=1e-8)
    assert ours.df == (ref["Num DF"].iloc[0], ref["Den DF"].iloc[0])


def _box_epsilon(x):
    """Greenhouse–Geisser ε from Box's (1954) formula on the raw covariances."""
    s = np.cov(x, rowvar=False)
    k = s.shape[0]
    mean_all = s.mean()
    mean_diag = np.trace(s) / k
    row_means = s.mean(axis=1)
    numerator = k**2 * (mean_diag - mean_all) ** 2
    denominator = (k - 1) * (
        np.sum(s**2) - 2 * k * np.sum(row_means**2) + k**2 * mean_all**2
    )
    return numerator / denominator


@pytest.mark.parametrize("seed", range(4))
def test_greenhouse_geisser_epsilon_equals_box_formula(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(20, 5)) * [1, 2, 3, 1, 5]
    res = nbstats.rm_anova(x)
    assert res.epsilon == pytest.approx(_box_epsilon(x), rel=1e-10)
    df1, df2 = res.df
    assert res.pvalue_gg == pytest.approx(
        stats.f.sf(res.statistic, res.epsilon * df1, res.epsilon * df2)
    )


def test_rank_transform_is_anova_of_global_ranks(table6):
    ranked = stats.rankdata(table6.to_numpy()).reshape(table6.shape)
    assert nbstats.rm_anova(table6, rank_transform=True).statistic == pytest.approx(
        nbstats.rm_anova(ranked).statistic
    )


def test_two_algorithms_f_is_paired_t_squared(table2):
    res = nbstats.rm_anova(table2)
    t = nbstats.ttest(table2["C4.5"], table2["C4.5+m"])
    assert res.statistic == pytest.approx(t.statistic**2)
    assert res.pvalue == pytest.approx(t.pvalue)
    assert res.epsilon == 1.0


def test_sum_of_squares_add_up(table6):
    table = nbstats.rm_anova(table6).table
    total = ((table6.to_numpy() - table6.to_numpy().mean()) ** 2).sum()
    assert table["sum_sq"].sum() == pytest.approx(total)


@pytest.mark.parametrize("factor", [1e150, 1.7e308, 1e-200])
def test_extreme_units_keep_f_and_give_the_table_a_unit(table6, factor):
    # F from statsmodels at unit scale; the table in units of attrs["unit"]²
    from statsmodels.stats.anova import AnovaRM

    long = (
        table6.rename_axis("case")
        .reset_index()
        .melt(id_vars="case", var_name="algorithm", value_name="auc")
    )
    reference = AnovaRM(long, "auc", "case", within=["algorithm"]).fit()
    res = nbstats.rm_anova(table6 * factor)
    assert res.statistic == pytest.approx(reference.anova_table["F Value"].iloc[0])
    unit = res.table.attrs["unit"]
    assert unit != 1.0  # (factor)² leaves the float64 range
    plain = nbstats.rm_anova(table6).table["sum_sq"]
    expected = plain * (factor / unit) ** 2
    np.testing.assert_allclose(res.table["sum_sq"], expected, rtol=1e-9)


def test_moderate_units_keep_the_table_in_squared_units(table6):
    res = nbstats.rm_anova(table6 * 1e6)
    assert res.table.attrs["unit"] == 1.0
    np.testing.assert_allclose(
        res.table["sum_sq"], nbstats.rm_anova(table6).table["sum_sq"] * 1e12
    )
