"""Normality, equal variances and Mauchly's sphericity test."""

import numpy as np
import pandas as pd
import pytest
import scipy.stats as ss

import nbstats
from nbstats.stats.frequentist.assumptions import equal_variances, mauchly, normality


def _r_mauchly(run_r, table: pd.DataFrame) -> dict:
    rows = ", ".join(repr(float(v)) for v in table.to_numpy().ravel())
    n, k = table.shape
    script = f"""
Y <- matrix(c({rows}), nrow = {n}, ncol = {k}, byrow = TRUE)
m <- mauchly.test(lm(Y ~ 1), X = ~1)
cat(sprintf('{{"W": %.17g, "p": %.17g}}', m$statistic, m$p.value))
"""
    return run_r(script)


@pytest.mark.parametrize("seed", [None, 0, 1, 2])
def test_mauchly_matches_r(run_r, seed):
    if seed is None:
        table = nbstats.datasets.load("demsar2006")
    else:
        rng = np.random.default_rng(seed)
        k = 3 + seed
        # correlated columns with unequal variances: sphericity fails at times
        mixing = rng.normal(size=(k, k)) * [1, 0.5, 2, 1, 3][:k]
        table = pd.DataFrame(rng.normal(size=(15, k)) @ mixing)
    expected = _r_mauchly(run_r, table)
    res = mauchly(table)
    assert res.statistic == pytest.approx(expected["W"], rel=1e-9)
    # R's second-order term writes 3k where Anderson (2003, §10.7) has 3p,
    # p = k - 1 (R's stats:::mauchly.test.SSD); nbstats follows Anderson, so
    # the p-values differ in the fourth decimal at most
    assert res.pvalue == pytest.approx(expected["p"], abs=5e-4)


def test_mauchly_epsilon_is_rm_anovas_and_needs_enough_cases():
    table = nbstats.datasets.load("demsar2006")
    assert mauchly(table).epsilon == pytest.approx(nbstats.rm_anova(table).epsilon)
    few = pd.DataFrame(np.random.default_rng(0).normal(size=(3, 5)))
    res = mauchly(few)
    assert not res.testable and np.isnan(res.pvalue)
    with pytest.raises(ValueError, match="three or more algorithms"):
        mauchly(table.iloc[:, :2])


def test_normality_is_shapiro_at_a_bonferroni_level():
    rng = np.random.default_rng(4)
    table = pd.DataFrame(
        {"normal": rng.normal(size=30), "skewed": rng.exponential(size=30) ** 3}
    )
    res = normality(table, alpha=0.05)
    for name in table:
        w, p = ss.shapiro(table[name])
        assert res.loc[name, "W"] == pytest.approx(w)
        assert res.loc[name, "pvalue"] == pytest.approx(p)
        assert res.loc[name, "normal"] == (p > 0.025)


def test_equal_variances_bartlett_or_levene():
    rng = np.random.default_rng(5)
    table = pd.DataFrame(rng.normal(size=(20, 3)) * [1, 1, 3])
    name, stat, p = equal_variances(table, normal=True)
    assert name == "Bartlett"
    assert (stat, p) == pytest.approx(tuple(ss.bartlett(*table.to_numpy().T)))
    name, stat, p = equal_variances(table, normal=False)
    assert name == "Levene"
    expected = ss.levene(*table.to_numpy().T, center="median")
    assert (stat, p) == pytest.approx(tuple(expected))
