"""The report's section on per-fold scores (correlated t-tests per data set)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.reporting import methods, report_text

UCI = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")


@pytest.fixture(scope="module")
def uci_folds() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy_folds")


@pytest.fixture(scope="module")
def two_sample_text(uci_folds) -> str:
    two = uci_folds[uci_folds["classifier"].isin(["nbc", "aode"])]
    return report_text(two, **UCI, runs=10, rope=0.01, analyses=("frequentist",))


def _long(values: np.ndarray, names: list[str], runs: int, k: int) -> pd.DataFrame:
    rows = [
        (f"set{c}", names[a], f // k, f % k, values[c, a, f])
        for c, a, f in itertools.product(*map(range, values.shape))
    ]
    return pd.DataFrame(rows, columns=["set", "method", "run", "fold", "acc"])


def test_two_sample_report_lists_every_data_set(two_sample_text, uci_folds):
    text = two_sample_text
    assert "Each data set on its own: the folds" in text
    assert "10 runs of 10-fold cross-validation on each of the 54 data sets" in text
    direct = nbstats.correlated_pairs(
        uci_folds, **UCI, runs=10, rope=0.01, pairs=[("nbc", "aode")]
    )
    counts = direct.by_pair.iloc[0]
    row = (
        f"aode vs nbc {counts['cases']} {counts['b better']} "
        f"{counts['equivalent']} {counts['a better']} {counts['undecided']}"
    )
    assert row in " ".join(text.split())
    # every data set's row, with the decision computed here
    anneal = direct.table.set_index("case").loc["anneal"]
    section = text[text.index("Each data set on its own") :]
    line = next(x for x in section.splitlines() if x.strip().startswith("anneal"))
    # the decision names the algorithm (a = nbc, b = aode), never "a" or "b"
    words = {"a": "nbc better", "b": "aode better"}
    assert line.endswith(words.get(anneal["decision"], anneal["decision"]))
    assert "Nadeau" in text and "Corani" in text  # cited in the references
    assert "1/n + ρ/(1 − ρ)" in text  # the Methods paragraph


def test_run_and_fold_columns_need_no_runs():
    rng = np.random.default_rng(0)
    values = rng.normal(0.8, 0.02, (6, 3, 10)) + np.array([0, 0.01, 0.05])[:, None]
    long = _long(values, ["A", "B", "C"], runs=2, k=5)
    text = report_text(
        long, case="set", algorithm="method", score="acc", fold=["run", "fold"],
        analyses=("frequentist",),
    )  # fmt: skip
    assert "2 runs of 5-fold cross-validation on each of the 6 data sets" in text
    direct = nbstats.correlated_pairs(
        long, case="set", algorithm="method", score="acc", fold=["run", "fold"]
    )
    assert len(direct.by_pair) == 3
    assert "no rope was set" in text


def test_without_runs_the_report_says_what_it_needs(uci_folds):
    five = uci_folds[uci_folds["dataset"].isin(uci_folds["dataset"].unique()[:8])]
    text = report_text(five, **UCI, analyses=("frequentist",))
    assert "but not how they were made" in text
    assert "--runs on the command line" in text
    assert "Nadeau" not in text


def test_dropped_cases_leave_the_fold_section(uci_folds):
    subset = uci_folds[uci_folds["dataset"].isin(uci_folds["dataset"].unique()[:6])]
    subset = subset.copy()
    subset.loc[subset.index[0], "accuracy"] = np.nan
    dropped = subset.loc[subset.index[0], "dataset"]
    text = report_text(
        subset, **UCI, runs=10, nan_policy="omit", analyses=("frequentist",)
    )
    assert "on each of the 5 data sets" in text
    section = text[text.index("Each data set on its own") :]
    section = section[: section.index("Methods")]
    assert dropped not in section


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"runs": 10}, "give the fold column"),
        ({**UCI, "runs": 3}, "does not divide the 100 folds"),
        ({**UCI, "runs": 0}, "at least 1"),
        ({**UCI, "runs": 2.0}, "whole number"),
    ],
)
def test_bad_runs(uci_folds, options, message):
    data = uci_folds if "fold" in options else nbstats.datasets.load("demsar2006")
    with pytest.raises((ValueError, TypeError), match=message):
        report_text(data, **options)


def test_runs_must_agree_with_a_run_column():
    rng = np.random.default_rng(1)
    long = _long(rng.normal(0.8, 0.02, (3, 3, 10)), ["A", "B", "C"], runs=2, k=5)
    with pytest.raises(ValueError, match="has 2 distinct runs"):
        report_text(
            long, case="set", algorithm="method", score="acc",
            fold=["run", "fold"], runs=5,
        )  # fmt: skip


def test_fold_references_exist():
    for key in ("nadeau2003", "corani2015"):
        assert key in methods.REFERENCES
