"""correlated_pairs: every row equals the one-pair tests (and baycomp)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import nbstats
from tests.conftest import unavailable


@pytest.fixture(scope="module")
def folds() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy_folds")


@pytest.fixture(scope="module")
def wide(folds) -> pd.DataFrame:
    return folds.pivot_table(
        index=["dataset", "fold"], columns="classifier", values="accuracy"
    )


def _long(values: np.ndarray, names: list[str], runs: int, k: int) -> pd.DataFrame:
    """cases × algorithms × (runs·k) scores as a long table with run and fold."""
    rows = []
    for c, a, f in itertools.product(*map(range, values.shape)):
        rows.append((f"case{c}", names[a], f // k, f % k, values[c, a, f]))
    return pd.DataFrame(rows, columns=["case", "algorithm", "run", "fold", "score"])


def test_every_uci_row_equals_the_one_pair_tests(folds, wide):
    res = nbstats.correlated_pairs(
        folds, case="dataset", algorithm="classifier", score="accuracy",
        fold="fold", runs=10, rope=0.01,
    )  # fmt: skip
    assert len(res.table) == 54 * 10 and len(res.by_pair) == 10
    for row in res.table.sample(60, random_state=0).itertuples():
        a, b = wide.loc[row.case, row.a], wide.loc[row.case, row.b]
        bayes = nbstats.bayes_correlated_ttest(a, b, rope=0.01, runs=10)
        freq = nbstats.correlated_ttest(a, b, runs=10)
        assert (row.prob_left, row.prob_rope, row.prob_right) == pytest.approx(
            (bayes.prob_left, bayes.prob_rope, bayes.prob_right), abs=1e-12
        )
        assert row.decision == bayes.decision
        assert (row.t, row.pvalue) == pytest.approx((freq.statistic, freq.pvalue))
        assert row.mean_difference == pytest.approx(freq.mean_difference)
    counts = res.by_pair[["b better", "equivalent", "a better", "undecided"]]
    assert (counts.sum(axis=1) == 54).all()


def test_uci_rows_equal_baycomp(folds, wide):
    try:
        import baycomp
    except ImportError:
        unavailable("baycomp is not installed (pip install -e '.[test]')")
    res = nbstats.correlated_pairs(
        folds, case="dataset", algorithm="classifier", score="accuracy",
        fold="fold", runs=10, rope=0.01, pairs=[("nbc", "aode"), ("j48", "hnb")],
    )  # fmt: skip
    for row in res.table.itertuples():
        expected = baycomp.CorrelatedTTest.probs(
            wide.loc[row.case, row.a].to_numpy(),
            wide.loc[row.case, row.b].to_numpy(),
            rope=0.01,
            runs=10,
        )
        np.testing.assert_allclose(
            (row.prob_left, row.prob_rope, row.prob_right), expected, atol=1e-6
        )


def test_run_and_fold_columns_give_the_design():
    rng = np.random.default_rng(0)
    values = rng.normal(0.8, 0.02, (4, 3, 15)) + np.array([0, 0.01, 0.03])[:, None]
    long = _long(values, ["A", "B", "C"], runs=3, k=5)
    res = nbstats.correlated_pairs(
        long, case="case", algorithm="algorithm", score="score", fold=["run", "fold"]
    )
    row = res.table.iloc[0]
    one = nbstats.correlated_ttest(values[0, 0], values[0, 1], runs=3)
    assert (row.a, row.b, row.case) == ("A", "B", "case0")
    assert row.t == pytest.approx(one.statistic)
    assert np.isnan(res.table["prob_rope"]).all()  # no rope
    lower = nbstats.correlated_pairs(
        long, case="case", algorithm="algorithm", score="score",
        fold=["run", "fold"], higher_is_better=False,
    )  # fmt: skip
    assert lower.table["t"].to_numpy() == pytest.approx(-res.table["t"].to_numpy())


def test_scale_invariance():
    rng = np.random.default_rng(1)
    values = rng.normal(0.8, 0.02, (3, 2, 10))
    long = _long(values, ["A", "B"], runs=2, k=5)
    base = nbstats.correlated_pairs(
        long, case="case", algorithm="algorithm", score="score",
        fold=["run", "fold"], runs=2, rope=0.005,
    )  # fmt: skip
    for factor in (1e-300, 1e300):
        scaled = long.assign(score=long["score"] * factor)
        res = nbstats.correlated_pairs(
            scaled, case="case", algorithm="algorithm", score="score",
            fold=["run", "fold"], runs=2, rope=0.005 * factor,
        )  # fmt: skip
        for column in ("t", "pvalue", "prob_left", "prob_rope", "prob_right"):
            np.testing.assert_allclose(
                res.table[column], base.table[column], rtol=1e-9, atol=1e-12
            )


def test_bad_input(folds):
    keywords = dict(case="dataset", algorithm="classifier", score="accuracy")
    with pytest.raises(ValueError, match="say how the fold scores were made"):
        nbstats.correlated_pairs(folds, fold="fold", **keywords)
    with pytest.raises(ValueError, match="unknown algorithm"):
        nbstats.correlated_pairs(
            folds, fold="fold", runs=10, pairs=[("nbc", "svm")], **keywords
        )
    with pytest.raises(ValueError, match="two different algorithms"):
        nbstats.correlated_pairs(
            folds, fold="fold", runs=10, pairs=[("nbc", "nbc")], **keywords
        )
    with pytest.raises(ValueError, match="unequal folds"):
        nbstats.correlated_pairs(folds.iloc[1:], fold="fold", runs=10, **keywords)
    with pytest.raises(ValueError, match="does not identify a fold"):
        nbstats.correlated_pairs(folds, fold="dataset_", **keywords) if False else (
            nbstats.correlated_pairs(folds.assign(f=1), fold="f", runs=10, **keywords)
        )


def test_result_renders(folds):
    res = nbstats.correlated_pairs(
        folds, case="dataset", algorithm="classifier", score="accuracy",
        fold="fold", runs=10, rope=0.01,
    )  # fmt: skip
    text = repr(res)
    assert "10 pairs × 54 data sets" in text
    assert "undecided" in res._repr_html_()
    assert r"\begin{table}" in res.to_latex()
    assert len(res.to_frame()) == 540
