"""correlated_ttest / bayes_correlated_ttest with failed folds (NaN) and
min_folds, against the formula (numpy) and scipy.stats.t."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import nbstats


def _folds() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    a = rng.normal(0.8, 0.02, 20)  # 2 runs × 10 folds
    b = a + rng.normal(0.005, 0.01, 20)
    a[[3, 11]] = np.nan
    b[[11, 17]] = np.nan
    return a, b


def test_min_folds_tests_the_paired_folds_by_hand():
    a, b = _folds()
    keep = ~np.isnan(a) & ~np.isnan(b)
    d = b[keep] - a[keep]
    j = d.size
    scale = np.sqrt((1 / j + 1 / 9) * d.var(ddof=1))  # ρ = 1/10 of the design
    t = d.mean() / scale
    res = nbstats.correlated_ttest(a, b, runs=2, min_folds=15)
    assert (res.n_folds, res.df, res.folds, res.runs) == (17, 16, 10, 2)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), j - 1), rel=1e-10)
    bayes = nbstats.bayes_correlated_ttest(a, b, runs=2, min_folds=15, rope=0.002)
    posterior = stats.t(j - 1, d.mean(), scale)
    assert bayes.prob_right == pytest.approx(posterior.sf(0.002), rel=1e-10)
    assert bayes.prob_left == pytest.approx(posterior.cdf(-0.002), rel=1e-10)


def test_refusals_name_the_functions_min_folds():
    a, b = _folds()
    for name in ("correlated_ttest", "bayes_correlated_ttest"):
        function = getattr(nbstats, name)
        with pytest.raises(ValueError, match=f"min_folds=K to nbstats.{name}"):
            function(a, b, runs=2)
        with pytest.raises(ValueError, match="17 of the 20 folds, fewer than"):
            function(a, b, runs=2, min_folds=18)
        with pytest.raises(ValueError, match="exceeds the 20 folds"):
            function(a, b, runs=2, min_folds=21)
        with pytest.raises(ValueError, match="at least 2"):
            function(a, b, runs=2, min_folds=1)
        with pytest.raises(TypeError, match="whole number"):
            function(a, b, runs=2, min_folds=17.0)
