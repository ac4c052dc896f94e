"""The report's per-fold section with failed folds (``min_folds``), on the
AutoML benchmark's small suite (tests/data/automl/README.md): its numbers
are ``correlated_pairs(min_folds=K)``'s and ``bayes_hierarchical(min_folds=K)``'s,
its tables, captions and Methods state the (pair, data set) left out, and
without failed folds nothing changes."""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.reporting import report_text
from nbstats.reporting.folds import _probability
from tests.real_tables import amlb_small_2c1h_accuracy_folds, amlb_small_accuracy_folds

AMLB = {"case": "task", "algorithm": "framework", "score": "acc", "fold": "fold"}
K = 8


def _table(text: str, caption: str) -> pd.DataFrame:
    """The plain-text table under the caption that starts with ``caption``:
    columns split on runs of two or more spaces, the first the row names."""
    start = text.index(caption)
    lines = text[start:].split("\n\n", 1)[0].splitlines()[1:]  # the caption
    header = re.split(r"\s{2,}", lines[0].strip())
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[2:]]
    return pd.DataFrame(
        [r[1:] for r in rows], index=[r[0] for r in rows], columns=header
    )


def _analysed(data: pd.DataFrame, nan_policy: str) -> list[str]:
    """The cases the report analyses, counted with pandas: under "omit" those
    on which every framework has at least K scored folds."""
    if nan_policy == "pairwise":
        return list(pd.unique(data["task"]))
    counts = data.groupby(["task", "framework"])["acc"].count().unstack()
    counts = counts.reindex(columns=pd.unique(data["framework"])).fillna(0)
    return [t for t in pd.unique(data["task"]) if (counts.loc[t] >= K).all()]


def _paired_short(data: pd.DataFrame, cases: list[str]) -> set[tuple]:
    """Every ({a, b}, case) with fewer than K folds on which both scored,
    counted by merging the two frameworks' rows on (task, fold)."""
    scored = data[data["acc"].notna()]
    short = set()
    for a, b in itertools.combinations(pd.unique(data["framework"]), 2):
        both = scored[scored.framework == a].merge(
            scored[scored.framework == b], on=["task", "fold"]
        )
        per_case = both.groupby("task").size().reindex(cases, fill_value=0)
        short |= {(frozenset((a, b)), c) for c in per_case.index[per_case < K]}
    return short


def _pair(name: str) -> tuple[str, str]:
    """(a, b) of a row named "b vs a"."""
    b, a = name.split(" vs ")
    return a, b


@pytest.mark.parametrize(
    ("load", "nan_policy", "left_out"),
    [
        (amlb_small_2c1h_accuracy_folds, "omit", 1),  # vehicle: 7 paired folds
        (amlb_small_accuracy_folds, "pairwise", 12),  # oboe's 3 short cells
    ],
)
def test_fold_pairs_are_correlated_pairs_with_min_folds(load, nan_policy, left_out):
    data = load()
    text = report_text(
        data, **AMLB, runs=1, min_folds=K, nan_policy=nan_policy,
        analyses=("frequentist",),
    )  # fmt: skip
    shown = _table(text, "Bayesian correlated t-test on each data set's folds")
    cases = _analysed(data, nan_policy)
    direct = nbstats.correlated_pairs(
        data[data.task.isin(cases)], **AMLB, runs=1, min_folds=K,
        pairs=[_pair(name) for name in shown.index],
    )  # fmt: skip
    # the report's counts are the direct call's, pair by pair
    by_pair = direct.by_pair.set_index(["a", "b"])
    for name, row in shown.iterrows():
        want = by_pair.loc[_pair(name)]
        assert int(row["data sets"]) == want["cases"]
        assert int(row["first better"]) == want["b better"]
        assert int(row["second better"]) == want["a better"]
        assert int(row["undecided"]) == want["undecided"]
        assert int(row["left out"]) == want["left out"]
    # and the left-out (pair, data set) are those an independent count puts below K
    short = _paired_short(data, cases)
    assert len(short) == len(direct.left_out) == left_out
    assert {
        (frozenset((r.a, r.b)), r.case) for r in direct.left_out.itertuples()
    } == short
    assert shown["left out"].astype(int).sum() == left_out
    # the caption and Methods state K and the count, per analysis
    assert (
        f"when there are at least {K}; left out: the data sets with fewer, "
        f"{left_out} (pair, data set) in all." in text
    )
    total = len(direct.table) + left_out
    were = "was" if left_out == 1 else "were"
    assert (
        f"{left_out} of the {total} (pair, data set) combinations had fewer than {K} "
        f"such folds and {were} left out." in text
    )
    # never the old restriction to the cases with every fold
    assert "on which every algorithm has every fold" not in text


@pytest.fixture(scope="module")
def two_frameworks() -> pd.DataFrame:
    """oboe and autosklearn at 2 cores x 1 h: 12 cases with >= 8 folds each,
    on one of which (vehicle) they share only 7 scored folds."""
    data = amlb_small_2c1h_accuracy_folds()
    return data[data.framework.isin(["autosklearn", "oboe"])]


def test_two_algorithms_list_each_data_sets_paired_folds(two_frameworks):
    data = two_frameworks
    text = report_text(
        data, **AMLB, runs=1, min_folds=K, nan_policy="omit",
        analyses=("frequentist",),
    )  # fmt: skip
    shown = _table(text, "Each data set's correlated t-tests")
    assert "left out with fewer: vehicle (7 of 10)." in text
    assert "vehicle" not in shown.index
    assert "1 of the 12 (pair, data set) combinations had fewer than 8" in text
    cases = _analysed(data, "omit")
    assert len(cases) == 12 and set(shown.index) == set(cases) - {"vehicle"}
    (a, b) = [c.removeprefix("P(").removesuffix(" better)") for c in shown.columns
              if c.startswith("P(")]  # fmt: skip
    direct = nbstats.correlated_pairs(
        data[data.task.isin(cases)], **AMLB, runs=1, min_folds=K, pairs=[(a, b)]
    ).table.set_index("case")
    wide = data.pivot(index=["task", "fold"], columns="framework", values="acc")
    for case, row in shown.iterrows():
        want = direct.loc[case]
        assert int(row["folds"]) == want["n"]
        assert row["p-value"] == f"{want['pvalue']:.3f}"
        assert row[f"P({a} better)"] == _probability(want["prob_left"])
        assert row[f"P({b} better)"] == _probability(want["prob_right"])
        # by hand: d = b - a on the folds both scored, J of them, rho = 1/10
        d = (wide.loc[case, b] - wide.loc[case, a]).dropna().to_numpy()
        j = len(d)
        t = d.mean() / np.sqrt((1 / j + 1 / 9) * d.var(ddof=1))
        assert j == want["n"]
        assert row["p-value"] == f"{2 * stats.t.sf(abs(t), j - 1):.3f}"
        assert row[f"P({b} better)"] == _probability(stats.t.cdf(t, j - 1))
    assert (shown["folds"].astype(int) < 10).sum() == 2  # cnae-9, credit-g: 9


def test_hierarchical_takes_min_folds(two_frameworks):
    pytest.importorskip("numpyro")
    from nbstats.reporting import _REPORT_DEFAULTS, _prepare
    from nbstats.reporting.folds import fold_scores_csv, read_fold_scores

    options = dict(**AMLB, runs=1, min_folds=K, nan_policy="omit",
                   analyses=("frequentist",))  # fmt: skip
    text = report_text(two_frameworks, **options, hierarchical=True)
    shown = _table(text, "Bayesian hierarchical test on")
    # the same call on the report's own long table (the draws depend on the
    # order of the data sets)
    table, settings = _prepare(
        two_frameworks, **{**_REPORT_DEFAULTS, **options, "hierarchical": True}
    )
    cases = table.dropna().index
    long = read_fold_scores(fold_scores_csv(settings.fold_scores), {}, cases)
    (name,) = shown.index
    a, b = _pair(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        direct = nbstats.bayes_hierarchical(
            a, b, data=long, case="case", algorithm="algorithm", score="score",
            fold="fold", runs=1, random_state=0, min_folds=K,
        )  # fmt: skip
    row = shown.loc[name]
    assert list(direct.left_out["case"]) == ["vehicle"]
    assert int(row["data sets"]) == len(direct.datasets) == 11
    assert int(row["left out"]) == 1
    assert row["P(b better)"] == _probability(direct.prob_right)
    assert row["P(a better)"] == _probability(direct.prob_left)
    assert "those with at least 8 such folds; left out: those with fewer" in text
    methods = text[text.index("Methods\n") :]
    assert (
        "In the hierarchical model, too, a data set's likelihood took only the "
        "folds both algorithms scored, and a data set with fewer than 8 of them "
        f"was left out of the pair: 1 of the 12 (pair, data set) in all ({name}: 1)."
    ) in methods
    # it follows the per-fold tests and precedes the versions
    assert methods.index("hierarchical model") < methods.index("All computations")


def test_complete_folds_are_unchanged_by_min_folds():
    data = nbstats.datasets.load("uci_accuracy_folds")
    data = data[
        data.dataset.isin(data.dataset.unique()[:6])
        & data.classifier.isin(["nbc", "aode", "hnb"])
    ]
    uci = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")
    options = dict(**uci, runs=10, analyses=("frequentist",))
    plain = report_text(data, **options)
    assert report_text(data, **options, min_folds=K) == plain
    assert "left out" not in plain[plain.index("Each data set on its own") :]
    assert "min_folds" not in plain
