"""correlated_pairs(min_folds=K): each pair on the folds both algorithms scored.

Checked against hand computations with numpy and scipy.stats.t (not the
module's code), on a real AutoML benchmark file with failed folds and on
generated data.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from tests.real_tables import (
    amlb_small_2c1h_accuracy_folds,
    amlb_small_accuracy_folds,
)

AMLB = dict(case="task", algorithm="framework", score="acc", fold="fold")


@pytest.fixture(scope="module")
def amlb() -> pd.DataFrame:
    return amlb_small_accuracy_folds()


def _hand(a: np.ndarray, b: np.ndarray, ratio: float) -> tuple[int, float, float]:
    """(J, t, two-sided p) of the corrected resampled t-test on the folds
    where both a and b have a score, by the formula."""
    keep = ~np.isnan(a) & ~np.isnan(b)
    d = b[keep] - a[keep]
    j = d.size
    if d.var(ddof=1) == 0:  # every difference equal: t = 0 (all 0) or ±∞
        t = 0.0 if d.mean() == 0 else np.sign(d.mean()) * np.inf
    else:
        t = d.mean() / np.sqrt((1 / j + ratio) * d.var(ddof=1))
    return j, t, min(1.0, 2 * stats.t.sf(abs(t), j - 1))


def test_amlb_refusal_names_correlated_pairs_min_folds(amlb):
    with pytest.raises(ValueError, match="failed folds") as error:
        nbstats.correlated_pairs(amlb, folds=10, **AMLB)
    text = str(error.value)
    assert "min_folds=K to nbstats.correlated_pairs" in text
    assert "('credit-g', 'oboe'): 6 of 10 folds" in text
    assert "score_table" not in text


def test_amlb_min_folds_pairs_the_folds_both_scored(amlb):
    res = nbstats.correlated_pairs(amlb, folds=10, min_folds=8, **AMLB)
    wide = amlb.pivot(index=["task", "fold"], columns="framework", values="acc")
    # oboe has 6, 0 and 3 of 10 folds on credit-g, fabert and kc1: every pair
    # with oboe is left out there, and nothing else
    left = res.left_out
    assert set(left["case"]) == {"credit-g", "fabert", "kc1"}
    assert (left[["a", "b"]] == "oboe").any(axis=1).all()
    assert len(left) == 3 * 4
    expected = {"credit-g": 6, "fabert": 0, "kc1": 3}
    assert (left["folds"] == left["case"].map(expected)).all()
    assert (left["of"] == 10).all()
    assert len(res.table) + len(left) == 16 * 10
    assert (res.by_pair["cases"] + res.by_pair["left out"] == 16).all()
    # every row, by hand: J paired folds, ratio 1/(k − 1) = 1/9, df J − 1
    for row in res.table.itertuples():
        a = wide.loc[row.case, row.a].to_numpy(float)
        b = wide.loc[row.case, row.b].to_numpy(float)
        j, t, p = _hand(a, b, 1 / 9)
        assert row.n == j >= 8
        assert row.t == pytest.approx(t, rel=1e-12)
        assert row.pvalue == pytest.approx(p, rel=1e-10)
    partial = res.table[res.table["n"] < 10]
    # blood-transfusion (oboe 8), fabert (TPOT 9), vehicle (oboe 9)
    assert sorted(set(partial["case"])) == ["blood-transfusion", "fabert", "vehicle"]
    text = repr(res)
    assert "10 pairs × 16 data sets" in text
    assert re.search(r"paired folds required \(min_folds\) +: 8\n", text)
    assert re.search(r"\(pair, data set\) left out +: 12\n", text)
    caption = res.to_latex().splitlines()[2]
    assert "folds) = 8; (pair, data set) left out = 12." in caption


def test_closed_form_on_runs_times_folds_with_dropped_folds():
    rng = np.random.default_rng(3)
    runs, k = 2, 5
    rows = []
    for c, alg, r, f in itertools.product(range(3), "ABC", range(runs), range(k)):
        shift = {"A": 0.0, "B": 0.01, "C": 0.02}[alg]
        rows.append((f"case{c}", alg, r, f, 0.8 + shift + rng.normal(0, 0.01)))
    long = pd.DataFrame(rows, columns=["case", "alg", "run", "fold", "acc"])
    # case0: A loses (0, 1) and (1, 3), B loses (1, 3) and (0, 4): A–B share 7
    drop = (long["case"] == "case0") & (
        ((long["alg"] == "A") & long[["run", "fold"]].apply(tuple, axis=1).isin(
            [(0, 1), (1, 3)]))
        | ((long["alg"] == "B") & long[["run", "fold"]].apply(tuple, axis=1).isin(
            [(1, 3), (0, 4)]))
    )  # fmt: skip
    long.loc[drop & (long["alg"] == "A"), "acc"] = np.nan  # a missing score
    long = long[~(drop & (long["alg"] == "B"))]  # an absent row
    keywords = dict(case="case", algorithm="alg", score="acc", fold=["run", "fold"])
    with pytest.raises(ValueError, match="min_folds=K to nbstats.correlated_pairs"):
        nbstats.correlated_pairs(long, **keywords)
    res = nbstats.correlated_pairs(long, min_folds=5, rope=0.005, **keywords)
    row = res.table.set_index(["case", "a", "b"]).loc[("case0", "A", "B")]
    wide = long.pivot(index=["case", "run", "fold"], columns="alg", values="acc")
    a = wide.loc["case0", "A"].to_numpy(float)
    b = wide.loc["case0", "B"].to_numpy(float)
    j, t, p = _hand(a, b, 1 / (k - 1))  # ρ = 1/k: ρ/(1 − ρ) = 1/(k − 1)
    assert (row["n"], j) == (7, 7)
    assert row["t"] == pytest.approx(t, rel=1e-12)
    assert row["pvalue"] == pytest.approx(p, rel=1e-10)
    # the Bayesian posterior: Student t(J − 1, mean d, corrected scale)
    keep = ~np.isnan(a) & ~np.isnan(b)
    d = b[keep] - a[keep]
    scale = np.sqrt((1 / 7 + 1 / (k - 1)) * d.var(ddof=1))
    posterior = stats.t(6, loc=d.mean(), scale=scale)
    assert row["prob_right"] == pytest.approx(posterior.sf(0.005), rel=1e-10)
    assert row["prob_left"] == pytest.approx(posterior.cdf(-0.005), rel=1e-10)
    # A–C on case0 uses A's 8 folds, B–C all 10 minus B's 2
    n = res.table.set_index(["case", "a", "b"])["n"]
    assert (n[("case0", "A", "C")], n[("case0", "B", "C")]) == (8, 8)
    assert (n.drop("case0", level=0) == 10).all()
    assert res.left_out.empty
    # the one-pair test with nan_policy="omit" is the same rule
    with pytest.warns(UserWarning, match="dropped 3 of 10"):
        one = nbstats.correlated_ttest(a, b, runs=2, nan_policy="omit")
    assert row["t"] == pytest.approx(one.statistic, rel=1e-12)


def test_min_folds_leaves_out_a_short_pair_only():
    long = _frame(np.random.default_rng(0).normal(0.8, 0.01, (2, 3, 6)))
    short = long.drop(long.index[(long["case"] == "case1") & (long["algorithm"] == "A")
                                 & (long["fold"] < 3)])  # fmt: skip
    res = nbstats.correlated_pairs(short, folds=6, min_folds=4, **_COLUMNS)
    assert res.left_out[["a", "b", "case", "folds", "of"]].values.tolist() == [
        ["A", "B", "case1", 3, 6],
        ["A", "C", "case1", 3, 6],
    ]
    assert res.by_pair["left out"].tolist() == [1, 1, 0]
    assert res.by_pair["cases"].tolist() == [1, 1, 2]
    methods = res.methods_sentence(_context()).text()
    assert "2 of the 6 (pair, data set) combinations had fewer than 4" in methods
    # min_folds=3 keeps them, on 3 folds
    kept = nbstats.correlated_pairs(short, folds=6, min_folds=3, **_COLUMNS)
    assert kept.left_out.empty and sorted(kept.table["n"]) == [3, 3, 6, 6, 6, 6]


@pytest.mark.parametrize(
    ("min_folds", "error", "message"),
    [
        (0, ValueError, "at least 2"),
        (1, ValueError, "at least 2"),
        (11, ValueError, "exceeds the 10 folds"),
        (8.0, TypeError, "whole number"),
        ("8", TypeError, "whole number"),
        (True, TypeError, "whole number"),
    ],
)
def test_bad_min_folds(amlb, min_folds, error, message):
    with pytest.raises(error, match=message):
        nbstats.correlated_pairs(amlb, folds=10, min_folds=min_folds, **AMLB)


def test_min_folds_without_failed_folds_changes_nothing():
    long = _frame(np.random.default_rng(1).normal(0.8, 0.01, (3, 3, 5)))
    base = nbstats.correlated_pairs(long, folds=5, **_COLUMNS)
    same = nbstats.correlated_pairs(long, folds=5, min_folds=5, **_COLUMNS)
    pd.testing.assert_frame_equal(base.table, same.table)
    assert same.left_out.empty and "left out" not in base.by_pair


_COLUMNS = dict(case="case", algorithm="algorithm", score="score", fold="fold")


def _frame(values: np.ndarray) -> pd.DataFrame:
    """cases × algorithms × folds as a long table."""
    names = "ABCDE"
    rows = [
        (f"case{c}", names[a], f, float(values[c, a, f]))
        for c, a, f in itertools.product(*map(range, values.shape))
    ]
    return pd.DataFrame(rows, columns=["case", "algorithm", "fold", "score"])


def _context():
    from nbstats.results.methods_text import MethodsContext

    return MethodsContext()


@settings(max_examples=40, deadline=None)
@given(
    shape=st.tuples(st.integers(2, 3), st.integers(3, 4), st.integers(4, 6)),
    seed=st.integers(0, 2**32 - 1),
    victim=st.integers(0, 3),
    drops=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5)), max_size=6),
    absent=st.booleans(),
)
def test_removing_folds_never_changes_untouched_pairs(
    shape, seed, victim, drops, absent
):
    values = np.random.default_rng(seed).normal(0.8, 0.02, shape)
    q, m, k = shape
    long = _frame(values)
    victim = "ABCDE"[victim % m]
    hit = pd.Series(False, index=long.index)
    for c, f in drops:
        hit |= (
            (long["case"] == f"case{c % q}")
            & (long["algorithm"] == victim)
            & (long["fold"] == f % k)
        )
    cut = long[~hit] if absent else long.assign(score=long["score"].mask(hit))
    full = nbstats.correlated_pairs(long, folds=k, min_folds=2, rope=0.01, **_COLUMNS)
    part = nbstats.correlated_pairs(cut, folds=k, min_folds=2, rope=0.01, **_COLUMNS)
    numbers = ["n", "mean_difference", "t", "pvalue", "prob_left", "prob_right"]
    keys = ["a", "b", "case"]
    touched = {f"case{c % q}" for c, _ in drops}
    a = full.table.set_index(keys)
    b = part.table.set_index(keys)
    untouched = [
        key for key in a.index if victim not in key[:2] or key[2] not in touched
    ]
    assert set(untouched) <= set(b.index)
    np.testing.assert_allclose(
        b.loc[untouched, numbers].to_numpy(float),
        a.loc[untouched, numbers].to_numpy(float),
        rtol=1e-12,
        atol=1e-15,
    )
    assert (b.loc[untouched, "decision"] == a.loc[untouched, "decision"]).all()
    # a touched (pair, data set) uses exactly the folds the victim kept
    for key in set(b.index) - set(untouched):
        dropped = {f % k for c, f in drops if f"case{c % q}" == key[2]}
        assert b.loc[key, "n"] == k - len(dropped)


def test_second_amlb_table_absent_rows_and_missing_scores():
    # 2 cores × 1 hour: 6 runs without a row, 42 without an accuracy
    long = amlb_small_2c1h_accuracy_folds()
    with pytest.raises(ValueError, match="min_folds=K to nbstats.correlated_pairs"):
        nbstats.correlated_pairs(long, folds=10, **AMLB)
    res = nbstats.correlated_pairs(long, folds=10, min_folds=8, rope=0.01, **AMLB)
    wide = long.pivot(index=["task", "fold"], columns="framework", values="acc")
    expected_out, rows = set(), 0
    for task, block in wide.groupby(level=0):
        for a, b in itertools.combinations(pd.unique(long["framework"]), 2):
            j = int((block[a].notna() & block[b].notna()).sum())
            if j < 8:
                expected_out.add((a, b, task, j))
            rows += 1
    got = set(res.left_out[["a", "b", "case", "folds"]].itertuples(index=False))
    assert got == expected_out and len(got) > 0
    assert len(res.table) + len(res.left_out) == rows
    for row in res.table.itertuples():
        a = wide.loc[row.case, row.a].to_numpy(float)
        b = wide.loc[row.case, row.b].to_numpy(float)
        j, t, p = _hand(a, b, 1 / 9)
        assert row.n == j
        assert row.t == pytest.approx(t, rel=1e-12)
        assert row.pvalue == pytest.approx(p, rel=1e-10)
        keep = ~np.isnan(a) & ~np.isnan(b)
        d = b[keep] - a[keep]
        if d.var(ddof=1) > 0:
            scale = np.sqrt((1 / j + 1 / 9) * d.var(ddof=1))
            posterior = stats.t(j - 1, d.mean(), scale)
            assert row.prob_right == pytest.approx(posterior.sf(0.01), abs=1e-12)


def test_an_empty_list_of_pairs_is_refused_by_name(amlb):
    with pytest.raises(ValueError, match="pairs is empty"):
        nbstats.correlated_pairs(
            amlb, case="task", algorithm="framework", score="acc", fold="fold",
            folds=10, min_folds=8, pairs=[],
        )  # fmt: skip
