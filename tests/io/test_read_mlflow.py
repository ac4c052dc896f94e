"""read_mlflow on a real MLflow tracking store: an sqlite file written by
MLflow's own client in the test, read back.

The expected tables are built from the scores the test logged, by hand.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
import pytest

mlflow_tracking = pytest.importorskip("mlflow.tracking")

import nbstats  # noqa: E402
from nbstats.io import read_mlflow  # noqa: E402

CASES = ("iris", "wine", "digits")
MODELS = ("knn", "tree", "svm")
FOLDS = 3


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """One sqlite store: experiment "clean" (3 x 3 x 3 runs, scores kept in
    ``logged``), and experiments with one fault each."""
    uri = "sqlite:///" + str(tmp_path_factory.mktemp("mlflow") / "mlflow.db")
    client = mlflow_tracking.MlflowClient(tracking_uri=uri)
    rng = np.random.default_rng(0)
    logged = []

    def run(experiment, status="FINISHED", tags=None, params=None, metrics=None):
        created = client.create_run(experiment, tags=tags or {})
        run_id = created.info.run_id
        for key, value in (params or {}).items():
            client.log_param(run_id, key, value)
        for key, value in (metrics or {}).items():
            client.log_metric(run_id, key, value)
        client.set_terminated(run_id, status)
        return run_id

    def grid(experiment, skip=(), record=False):
        for case in CASES:
            for model in MODELS:
                for fold in range(FOLDS):
                    if (case, model, fold) in skip:
                        continue
                    acc = float(np.round(rng.uniform(0.6, 1.0), 6))
                    loss = float(np.round(rng.uniform(0.1, 1.0), 6))
                    run(experiment, tags={"dataset": case},
                        params={"model": model, "fold": fold},
                        metrics={"accuracy": acc, "logloss": loss})  # fmt: skip
                    if record:
                        logged.append((case, model, fold, acc, loss))

    clean = client.create_experiment("clean")
    grid(clean, record=True)
    failed = client.create_experiment("failed")
    grid(failed, skip={("wine", "svm", 1)})
    run(failed, status="FAILED", tags={"dataset": "wine"},
        params={"model": "svm", "fold": 1})  # fmt: skip
    parent = client.create_experiment("parent")
    grid(parent)
    run(parent, params={"model": "knn"}, metrics={"accuracy": 0.5})
    run(parent, metrics={"best": 0.9})
    duplicated = client.create_experiment("duplicated")
    grid(duplicated)
    run(duplicated, tags={"dataset": "iris"},
        params={"model": "knn", "fold": 0}, metrics={"accuracy": 0.25})  # fmt: skip
    steps = client.create_experiment("steps")  # the folds as a metric's steps
    for case in CASES:
        for model in MODELS:
            run_id = client.create_run(steps, tags={"dataset": case}).info.run_id
            client.log_param(run_id, "model", model)
            for c, m, fold, acc, _ in logged:
                if (c, m) == (case, model):
                    client.log_metric(run_id, "accuracy", acc, step=fold)
            client.set_terminated(run_id)
    return {"uri": uri, "logged": logged, "clean_id": clean}


def _hand(logged, column):
    index = {"accuracy": 3, "logloss": 4}[column]
    return pd.DataFrame(
        [
            {"case": r[0], "algorithm": r[1], "fold": r[2], "score": r[index]}
            for r in logged
        ]
    )


def _read(store, experiment="clean", **kw):
    kw = {"case": "dataset", "algorithm": "model", "score": "accuracy",
          "fold": "fold", **kw}  # fmt: skip
    return read_mlflow(experiment, tracking_uri=store["uri"], **kw)


def test_round_trip_equals_the_table_written_by_hand(store):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        long = _read(store)
    assert list(long.columns) == [
        "case", "algorithm", "fold", "score", "run_id", "run_name", "status"
    ]  # fmt: skip
    assert long["fold"].dtype.kind == "i"  # params are text; folds read back as numbers
    got = nbstats.score_table(long, **long.attrs["score_table"])
    hand = nbstats.score_table(
        _hand(store["logged"], "accuracy"), case="case", algorithm="algorithm",
        score="score", fold="fold",
    )  # fmt: skip
    pd.testing.assert_frame_equal(got.sort_index(), hand.sort_index())
    iris_knn = [r[3] for r in store["logged"] if r[:2] == ("iris", "knn")]
    assert got.loc["iris", "knn"] == pytest.approx(np.mean(iris_knn), abs=1e-15)
    assert long.attrs["metric"] == "accuracy" and long.attrs["higher_is_better"]


def test_by_id_and_a_lower_is_better_metric(store):
    long = _read(store, str(store["clean_id"]), score="logloss")
    assert long.attrs["higher_is_better"] is False
    keys = ["case", "algorithm", "fold"]
    got = long[[*keys, "score"]].sort_values(keys).reset_index(drop=True)
    hand = _hand(store["logged"], "logloss").sort_values(keys).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, hand, check_dtype=False)


def test_unknown_names_list_what_the_store_holds(store):
    with pytest.raises(ValueError, match=r"no MLflow experiment named 'nope'.*'clean'"):
        _read(store, "nope")
    with pytest.raises(
        ValueError, match=r"score='f1': no run logged a metric 'f1'; the metrics "
        "present are accuracy, logloss",
    ):  # fmt: skip
        _read(store, score="f1")
    with pytest.raises(
        ValueError, match=r"case='data': no run has a param or tag 'data'; the "
        "params are fold, model, the tags dataset",
    ):  # fmt: skip
        _read(store, case="data")


def test_failed_run_is_left_out_and_its_fold_named(store):
    with pytest.warns(UserWarning, match=".") as told:
        long = _read(store, "failed")
    message = str(told[0].message)
    assert "left out or combined 1 of 27 runs: 1 failed run (status FAILED)" in message
    assert "('wine', 'svm') lacks fold 1" in message
    (dropped,) = long.attrs["dropped"]
    # the fold param (text) read back as a number, as in the table
    assert (dropped["case"], dropped["algorithm"], dropped["fold"]) == (
        "wine",
        "svm",
        1,
    )
    with pytest.raises(ValueError, match=r"\('wine', 'svm'\): 2 of 3 folds"):
        nbstats.score_table(long, **long.attrs["score_table"])


def test_runs_without_the_data_set_are_counted_and_named(store):
    with pytest.raises(ValueError, match=".") as error:
        _read(store, "parent")
    message = str(error.value)
    assert "2 of 29 finished runs lack a name or the metric" in message
    assert "2 without 'dataset'" in message
    assert "1 without 'accuracy'" in message and "missing='drop'" in message
    with pytest.warns(UserWarning, match=r"left out or combined 2 of 29 runs"):
        long = _read(store, "parent", missing="drop")
    assert len(long) == 27
    reasons = sorted(d["reason"] for d in long.attrs["dropped"])
    assert reasons[0].startswith("run with no 'dataset' and no 'fold'")


def test_duplicated_runs_are_refused_unless_combined(store):
    with pytest.raises(ValueError, match=".") as error:
        _read(store, "duplicated")
    message = str(error.value)
    assert "1 runs repeat a (case, algorithm, fold)" in message
    assert "case='iris', algorithm='knn', fold=0" in message
    assert "differ in run_id, run_name" in message
    with pytest.warns(UserWarning, match="duplicate"):
        last = _read(store, "duplicated", duplicates="last")
    with pytest.raises(ValueError, match="Their params differ in 'fold': if one "
                       "names the fold, pass fold='fold'"):  # fmt: skip
        _read(store, "clean", fold=None)
    cell = last[(last.case == "iris") & (last.algorithm == "knn") & (last.fold == 0)]
    assert cell["score"].item() == 0.25


def test_without_mlflow_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow.tracking", None)
    with pytest.raises(ImportError, match=r'pip install "nbstats\[mlflow\]"'):
        read_mlflow("x", case="a", algorithm="b", score="c")


def test_folds_logged_as_steps_of_the_metric(store):
    long = _read(store, "steps", fold="step")
    assert len(long) == len(CASES) * len(MODELS) * FOLDS
    keys = ["case", "algorithm", "fold"]
    got = long[[*keys, "score"]].sort_values(keys).reset_index(drop=True)
    hand = _hand(store["logged"], "accuracy").sort_values(keys)
    pd.testing.assert_frame_equal(got, hand.reset_index(drop=True), check_dtype=False)


def test_a_store_given_by_its_path_and_a_missing_store(store, tmp_path):
    path = store["uri"].removeprefix("sqlite:///")
    long = read_mlflow("clean", tracking_uri=path, case="dataset", algorithm="model",
                       score="accuracy", fold="fold")  # fmt: skip
    assert len(long) == len(CASES) * len(MODELS) * FOLDS
    missing = tmp_path / "nothing.db"
    with pytest.raises(FileNotFoundError, match="no such MLflow store"):
        read_mlflow("clean", tracking_uri=f"sqlite:///{missing}", case="dataset",
                    algorithm="model", score="accuracy")  # fmt: skip
    assert not missing.exists()  # reading wrote nothing
