"""Result-class boilerplate in the base class: one-row frames and the
region probabilities of a Bayesian test of two algorithms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.results.base import region_rows


@pytest.fixture(scope="module")
def pair():
    table = nbstats.datasets.load("demsar2006")
    return table["C4.5"], table["C4.5+m"]


def test_a_one_row_frame_holds_the_attributes_in_order(pair):
    res = nbstats.ttest(*pair)
    frame = res.to_frame()
    assert list(frame.columns) == [
        "a",
        "b",
        "statistic",
        "df",
        "pvalue",
        "mean_difference",
        "ci_low",
        "ci_high",
        "alternative",
    ]
    row = frame.iloc[0]
    # scipy's paired t-test is the independent number
    from scipy import stats

    expected = stats.ttest_rel(pair[1], pair[0])
    assert row["statistic"] == pytest.approx(expected.statistic)
    assert row["pvalue"] == pytest.approx(expected.pvalue)
    assert (row["a"], row["b"]) == ("C4.5", "C4.5+m")
    assert (row["ci_low"], row["ci_high"]) == res.confidence_interval
    assert row["mean_difference"] == pytest.approx(np.mean(pair[1] - pair[0]))


def test_friedman_frame_splits_its_degrees_of_freedom():
    res = nbstats.friedman(nbstats.datasets.load("demsar2006"))
    row = res.to_frame().iloc[0]
    # Demšar (2006), §3.2.2: F_F with (k − 1, (k − 1)(N − 1)) = (3, 39) df
    assert (row["f_df1"], row["f_df2"]) == (3, 39)
    assert row["statistic"] == pytest.approx(9.28, abs=0.005)


def test_a_value_for_a_column_not_named_is_refused(pair):
    res = nbstats.sign_test(*pair)
    with pytest.raises(ValueError, match=r"columns not named: \['nope'\]"):
        res._row("a b pvalue", nope=1)


def test_region_rows_name_the_algorithms(pair):
    res = nbstats.bayes_sign_test(*pair, rope=0.01)
    rows = dict(region_rows(res))
    assert rows["P(C4.5+m better)"] == res.prob_right
    assert rows["P(C4.5 better)"] == res.prob_left
    assert rows["P(within rope ±0.01)"] == res.prob_rope
    without = nbstats.bayes_sign_test(*pair)
    assert len(region_rows(without)) == 2


def test_fold_results_name_the_difference():
    rng = np.random.default_rng(0)
    folds = pd.DataFrame(
        {"nbc": rng.normal(0.80, 0.02, 30), "aode": rng.normal(0.81, 0.02, 30)}
    )
    res = nbstats.bayes_correlated_ttest(folds["nbc"], folds["aode"], folds=10, runs=3)
    summary = res.summary()
    assert "posterior mean of aode − nbc" in summary
    assert "b − a" not in summary


def test_the_two_t_tests_share_their_figures():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0.80, 0.02, 30), rng.normal(0.81, 0.02, 30)
    res = nbstats.correlated_ttest(a, b, folds=10, runs=3)
    frame = res.to_frame()
    assert list(frame.columns) == [
        "a",
        "b",
        "statistic",
        "df",
        "pvalue",
        "mean_difference",
        "ci_low",
        "ci_high",
        "n_folds",
        "rho",
        "alternative",
    ]
    # Nadeau & Bengio (2003): t = mean(d) / sqrt((1/n + ρ/(1 − ρ)) var(d))
    d = b - a
    t = d.mean() / np.sqrt((1 / 30 + 0.1 / 0.9) * d.var(ddof=1))
    assert frame.loc[0, "statistic"] == pytest.approx(t)
    labels = [label for label, _ in res._scalars()]
    assert labels == [
        "t",
        "df",
        "p-value",
        "mean difference (b − a)",
        "95% CI",
        "folds",
    ]
