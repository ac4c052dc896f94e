"""df.compare.correlated_ttest / bayes_correlated_ttest on long data with
failed folds: min_folds pairs the folds both algorithms scored."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from tests.real_tables import amlb_small_accuracy_folds

AMLB = dict(case="task", algorithm="framework", score="acc", fold="fold")


@pytest.fixture(scope="module")
def amlb() -> pd.DataFrame:
    return amlb_small_accuracy_folds()


def test_refusal_names_the_accessor_min_folds(amlb):
    for name in ("correlated_ttest", "bayes_correlated_ttest"):
        method = getattr(amlb.compare, name)
        with pytest.raises(ValueError, match=f"min_folds=K to df.compare.{name}"):
            method("TPOT", "oboe", on="credit-g", **AMLB, folds=10)
        assert "min_folds" in inspect.signature(method).parameters
    # a pair without failed folds on that case needs no min_folds
    res = amlb.compare.correlated_ttest("TPOT", "H2OAutoML", on="credit-g",
                                        **AMLB, folds=10)  # fmt: skip
    assert res.n_folds == 10


def test_min_folds_uses_the_paired_folds_by_hand(amlb):
    res = amlb.compare.correlated_ttest(
        "TPOT", "oboe", on="credit-g", **AMLB, folds=10, min_folds=6
    )
    wide = amlb[amlb["task"] == "credit-g"].pivot(
        index="fold", columns="framework", values="acc"
    )
    d = (wide["oboe"] - wide["TPOT"]).dropna().to_numpy()
    j = d.size
    t = d.mean() / np.sqrt((1 / j + 1 / 9) * d.var(ddof=1))
    assert (res.n_folds, res.df, res.folds) == (6, 5, 10)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), j - 1), rel=1e-10)
    bayes = amlb.compare.bayes_correlated_ttest(
        "TPOT", "oboe", on="credit-g", **AMLB, folds=10, min_folds=6, rope=0.01
    )
    posterior = stats.t(j - 1, d.mean(), np.sqrt((1 / j + 1 / 9) * d.var(ddof=1)))
    assert bayes.prob_right == pytest.approx(posterior.sf(0.01), rel=1e-10)
    assert bayes.n_folds == 6


def test_min_folds_bad_and_short(amlb):
    with pytest.raises(ValueError, match="both have a score on 6 of the 10"):
        amlb.compare.correlated_ttest(
            "TPOT", "oboe", on="credit-g", **AMLB, folds=10, min_folds=7
        )
    with pytest.raises(ValueError, match="exceeds the 10 folds"):
        amlb.compare.correlated_ttest(
            "TPOT", "oboe", on="credit-g", **AMLB, folds=10, min_folds=11
        )
    with pytest.raises(ValueError, match="at least 2"):
        amlb.compare.correlated_ttest(
            "TPOT", "oboe", on="credit-g", **AMLB, folds=10, min_folds=1
        )
    with pytest.raises(TypeError, match="whole number"):
        amlb.compare.correlated_ttest(
            "TPOT", "oboe", on="credit-g", **AMLB, folds=10, min_folds="6"
        )
    wide = amlb[amlb["task"] == "credit-g"].pivot(
        index="fold", columns="framework", values="acc"
    )
    # a wide frame of one data set's folds: the function's own min_folds
    one = wide.compare.correlated_ttest("TPOT", "oboe", folds=10, min_folds=6)
    assert (one.n_folds, one.df) == (6, 5)
    with pytest.raises(ValueError, match="min_folds=K to nbstats.correlated_ttest"):
        wide.compare.correlated_ttest("TPOT", "oboe", folds=10)


def test_accessor_correlated_pairs_and_hierarchical_take_min_folds(amlb):
    res = amlb.compare.correlated_pairs(**AMLB, folds=10, min_folds=8)
    same = nbstats.correlated_pairs(amlb, **AMLB, folds=10, min_folds=8)
    pd.testing.assert_frame_equal(res.table, same.table)
    pd.testing.assert_frame_equal(res.left_out, same.left_out)
    signature = inspect.signature(amlb.compare.bayes_hierarchical)
    assert "min_folds" in signature.parameters
