"""read_sklearn on scikit-learn's own cross_validate and GridSearchCV, run on
small data sets that scikit-learn ships.

The expected values come from scikit-learn's own arrays (test_score,
cv_results_'s split and mean columns), and a long table written by hand.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    RepeatedStratifiedKFold,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import nbstats
from nbstats.io import read_sklearn

DATA = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "breast_cancer": load_breast_cancer(return_X_y=True),
}
MODELS = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}


@pytest.fixture(scope="module")
def results():
    return {
        (d, m): cross_validate(MODELS[m], *DATA[d], cv=5, return_train_score=True)
        for d in DATA
        for m in MODELS
    }


def _by_hand(results, metric="test_score"):
    rows = [
        {"case": d, "algorithm": m, "fold": i, "score": float(s)}
        for (d, m), result in results.items()
        for i, s in enumerate(result[metric])
    ]
    return pd.DataFrame(rows)


def test_cross_validate_round_trip_equals_the_table_written_by_hand(results):
    long = read_sklearn(results)
    assert list(long.columns[:4]) == ["case", "algorithm", "fold", "score"]
    assert {"fit_time", "score_time", "train_score"} <= set(long.columns)
    assert long.attrs["dropped"] == [] and long.attrs["incomplete"] == []
    got = nbstats.score_table(long, **long.attrs["score_table"])
    hand = nbstats.score_table(
        _by_hand(results), case="case", algorithm="algorithm", score="score",
        fold="fold",
    )  # fmt: skip
    pd.testing.assert_frame_equal(got, hand)
    for (d, m), result in results.items():  # scikit-learn's own mean
        assert got.loc[d, m] == pytest.approx(np.mean(result["test_score"]), abs=1e-15)


def test_records_read_as_the_mapping(results):
    records = [{"data": d, "model": m, **r} for (d, m), r in results.items()]
    long = read_sklearn(records, case="data", algorithm="model")
    pd.testing.assert_frame_equal(long, read_sklearn(results))
    with pytest.raises(
        ValueError, match=r"record 0 has no key 'case'.*'data', 'model'"
    ):
        read_sklearn(records)


def test_multi_metric_needs_a_choice_and_an_unknown_one_lists_them():
    scoring = ["accuracy", "balanced_accuracy"]
    results = {
        (d, m): cross_validate(MODELS[m], *DATA[d], cv=3, scoring=scoring)
        for d in ("iris", "wine")
        for m in MODELS
    }
    with pytest.raises(ValueError, match=r"2 metrics \(accuracy, balanced_accuracy\)"):
        read_sklearn(results)
    with pytest.raises(
        ValueError, match=r"no metric 'f1'; the metrics present are accuracy, "
        "balanced_accuracy",
    ):  # fmt: skip
        read_sklearn(results, score="f1")
    long = read_sklearn(results, score="balanced_accuracy")
    assert long.attrs["metric"] == "balanced_accuracy"
    np.testing.assert_array_equal(
        long.loc[(long.case == "wine") & (long.algorithm == "nb"), "score"],
        results[("wine", "nb")]["test_balanced_accuracy"],
    )
    assert "test_accuracy" in long.columns  # the other metric is kept


def test_repeated_folds_keep_the_repeat():
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    results = {
        (d, m): cross_validate(MODELS[m], *DATA[d], cv=cv)
        for d in ("iris", "wine")
        for m in MODELS
    }
    long = read_sklearn(results, n_repeats=2)
    assert long.attrs["score_table"]["fold"] == ["repeat", "fold"]
    cell = long[(long.case == "iris") & (long.algorithm == "tree")]
    assert cell["repeat"].tolist() == [0, 0, 0, 1, 1, 1]
    assert cell["fold"].tolist() == [0, 1, 2, 0, 1, 2]
    with pytest.raises(ValueError, match="6 test scores cannot be 4 repeats"):
        read_sklearn(results, n_repeats=4)


@pytest.fixture(scope="module")
def searches():
    grid = {"n_neighbors": [1, 5, 15], "weights": ["uniform", "distance"]}
    return {
        d: GridSearchCV(KNeighborsClassifier(), grid, cv=5).fit(*DATA[d])
        for d in ("iris", "wine", "breast_cancer")
    }


def test_search_needs_a_setting(searches):
    with pytest.raises(ValueError, match=r"holds 6 parameter settings; choose: "):
        read_sklearn(searches)


def test_every_setting_as_its_own_algorithm(searches):
    long = read_sklearn({(d, "knn"): s for d, s in searches.items()}, setting="all")
    names = list(pd.unique(long["algorithm"]))
    assert names[0] == "knn(n_neighbors=1, weights='uniform')"
    unnamed = read_sklearn(searches, setting="all")
    assert unnamed["algorithm"].iloc[0] == (
        "KNeighborsClassifier(n_neighbors=1, weights='uniform')"
    )
    assert len(names) == 6
    table = nbstats.score_table(long, **long.attrs["score_table"])
    for d, search in searches.items():  # the search's own mean over the folds
        results = search.cv_results_
        for i, params in enumerate(results["params"]):
            name = "knn(" + ", ".join(f"{k}={v!r}" for k, v in params.items()) + ")"
            assert table.loc[d, name] == pytest.approx(
                results["mean_test_score"][i], abs=1e-12
            )


def test_a_chosen_setting_beside_a_cross_validate(searches, results):
    chosen = {(d, "knn"): s for d, s in searches.items()}
    chosen.update({k: v for k, v in results.items() if k[1] == "nb"})
    long = read_sklearn(chosen, setting={"n_neighbors": 5, "weights": "uniform"})
    assert set(long["algorithm"]) == {"knn", "nb"}
    index = (
        searches["wine"]
        .cv_results_["params"]
        .index({"n_neighbors": 5, "weights": "uniform"})
    )
    cell = long[(long.case == "wine") & (long.algorithm == "knn")]
    np.testing.assert_array_equal(
        cell["score"],
        [searches["wine"].cv_results_[f"split{i}_test_score"][index] for i in range(5)],
    )
    with pytest.raises(ValueError, match=r"no setting match\(es\) setting="):
        read_sklearn(chosen, setting={"n_neighbors": 7})
    with pytest.raises(ValueError, match=r"2 settings match\(es\)"):
        read_sklearn(chosen, setting={"n_neighbors": 5})


def test_best_setting_is_the_search_s_own_best(searches):
    long = read_sklearn(searches, setting="best")
    assert set(long["algorithm"]) == {"KNeighborsClassifier"}
    for d, search in searches.items():
        best = search.cv_results_["params"][search.best_index_]
        cell = long[long.case == d]
        assert set(cell["params"]) == {", ".join(f"{k}={v!r}" for k, v in best.items())}
        assert cell["score"].mean() == pytest.approx(search.best_score_, abs=1e-12)
    plain = {d: s.cv_results_ for d, s in searches.items()}
    with pytest.raises(ValueError, match="name the estimator"):
        read_sklearn(plain, setting="best")


class _FailsWithoutFirstRow(ClassifierMixin, BaseEstimator):
    """Fails to fit when the first row of the data is not in the training
    set: with KFold(5) unshuffled, on fold 0 alone."""

    def __init__(self, first=None):
        self.first = first

    def fit(self, X, y):
        if not (self.first == X).all(axis=1).any():
            raise ValueError("cannot fit without the first row")
        self.classes_ = np.unique(y)
        self.majority_ = np.bincount(y).argmax()
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def test_failed_fit_is_left_out_named_and_refused_by_score_table():
    X, y = DATA["iris"]
    results = {
        ("iris", "nb"): cross_validate(GaussianNB(), X, y, cv=KFold(5)),
        ("wine", "nb"): cross_validate(GaussianNB(), *DATA["wine"], cv=KFold(5)),
        ("wine", "odd"): cross_validate(GaussianNB(), *DATA["wine"], cv=KFold(5)),
    }
    with pytest.warns(FitFailedWarning):
        results[("iris", "odd")] = cross_validate(
            _FailsWithoutFirstRow(X[0]), X, y, cv=KFold(5), error_score=np.nan
        )
    with pytest.warns(UserWarning, match=".") as told:
        long = read_sklearn(results)
    message = str(told[0].message)
    assert "left out or combined 1 of 20 runs: 1 failed fit" in message
    assert "('iris', 'odd') lacks fold 0" in message
    (dropped,) = long.attrs["dropped"]
    assert (dropped["case"], dropped["algorithm"], dropped["fold"]) == (
        "iris",
        "odd",
        0,
    )
    with pytest.raises(ValueError, match=r"\('iris', 'odd'\): 4 of 5 folds"):
        nbstats.score_table(long, **long.attrs["score_table"])


def test_a_fold_missing_in_one_cell_is_named(results):
    short = dict(results)
    short[("wine", "tree")] = {k: v[:4] for k, v in results[("wine", "tree")].items()}
    with pytest.warns(UserWarning, match=r"\('wine', 'tree'\) lacks fold 4"):
        long = read_sklearn(short)
    assert long.attrs["incomplete"] == [
        {"case": "wine", "algorithm": "tree", "missing": [4]}
    ]


def test_duplicated_runs_are_refused_unless_combined(results):
    records = [{"case": d, "algorithm": m, **r} for (d, m), r in results.items()]
    again = dict(records[0], test_score=records[0]["test_score"] + 0.01)
    with pytest.raises(ValueError, match=".") as error:
        read_sklearn([*records, again])
    message = str(error.value)
    assert "5 runs repeat a (case, algorithm, fold) combination" in message
    assert "case='iris', algorithm='nb', fold=0" in message
    assert "duplicates='mean', 'median', 'first' or 'last'" in message
    with pytest.warns(
        UserWarning, match="10 duplicate, combined by the median of its 2 runs"
    ):
        long = read_sklearn([*records, again], duplicates="median")
    cell = long[(long.case == "iris") & (long.algorithm == "nb")]
    np.testing.assert_allclose(cell["score"], records[0]["test_score"] + 0.005)
    with pytest.warns(UserWarning, match="duplicate"):
        first = read_sklearn([*records, again], duplicates="first")
    pd.testing.assert_frame_equal(first, read_sklearn(records))
    assert len(first.attrs["dropped"]) == 5


def test_bad_input_names_the_problem(results):
    with pytest.raises(TypeError, match=r"key 'iris': .*\(data set, estimator\)"):
        read_sklearn({"iris": results[("iris", "nb")]})
    with pytest.raises(TypeError, match="mapping .* or a list of records"):
        read_sklearn(42)
    with pytest.raises(ValueError, match="n_repeats must be a positive integer"):
        read_sklearn(results, n_repeats=0)
    records = [{"case": "a", "algorithm": "b", "test_score": [1.0]}] * 2
    with pytest.raises(ValueError, match="duplicates='sum'"):
        read_sklearn(records, duplicates="sum")


@settings(max_examples=40, deadline=None)
@given(
    scores=st.lists(
        st.floats(0, 1, allow_nan=False), min_size=2 * 3 * 4, max_size=2 * 3 * 4
    )
)
def test_any_scores_give_the_per_cell_mean(scores):
    values = np.array(scores).reshape(2, 3, 4)  # case x algorithm x fold
    results = {
        (f"d{i}", f"a{j}"): {"test_score": values[i, j], "fit_time": np.zeros(4)}
        for i in range(2)
        for j in range(3)
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        long = read_sklearn(results)
    table = nbstats.score_table(long, **long.attrs["score_table"])
    np.testing.assert_allclose(
        table.loc[[f"d{i}" for i in range(2)], [f"a{j}" for j in range(3)]],
        values.mean(axis=2),
        rtol=0,
        atol=1e-15,
    )


def test_a_repeated_multi_metric_search():
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)
    scoring = {"acc": "accuracy", "bal": "balanced_accuracy"}
    grid = {"max_depth": [1, 3]}
    searches = {
        (d, "tree"): GridSearchCV(
            DecisionTreeClassifier(random_state=0), grid, cv=cv, scoring=scoring,
            refit="acc",
        ).fit(*DATA[d])
        for d in ("iris", "wine")
    }  # fmt: skip
    with pytest.raises(ValueError, match=r"2 metrics \(acc, bal\)"):
        read_sklearn(searches, setting="all", n_repeats=2)
    long = read_sklearn(searches, score="bal", setting={"max_depth": 3}, n_repeats=2)
    assert long.attrs["score_table"]["fold"] == ["repeat", "fold"]
    results = searches[("wine", "tree")].cv_results_
    cell = long[long.case == "wine"]
    assert cell["repeat"].tolist() == [0, 0, 0, 1, 1, 1]
    np.testing.assert_array_equal(
        cell["score"], [results[f"split{i}_test_bal"][1] for i in range(6)]
    )
    assert cell["score"].mean() == pytest.approx(results["mean_test_bal"][1], abs=1e-12)
