"""The command line on score sources: ``mlflow:EXPERIMENT`` (a real sqlite
store written by MLflow's client here), ``automl:FILE`` (the bundled real
AutoML-benchmark results) and ``openml:FILE``; the dashboard on an MLflow
experiment.

Each source's output is compared with the same scores written by hand as a
long CSV and read by the same command.
"""

from __future__ import annotations

import csv
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest

from nbstats.app import process as serve_process
from nbstats.cli.sources import default_output, source_kind
from tests.cli_helpers import calls, run  # noqa: F401  (fixtures)

mlflow_tracking = pytest.importorskip("mlflow.tracking")

AMLB = Path(__file__).parents[1] / "data" / "automl" / "amlb_small_8c4h.csv"
MLFLOW = ["--case", "dataset", "--algorithm", "model", "--score", "accuracy"]
HAND = ["--case", "case", "--algorithm", "algorithm", "--score", "score"]
FREQUENTIST = ["--detail", "frequentist"]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """Experiment "cv": 4 data sets x 3 models x 3 folds; "broken": one run
    without the data set."""
    folder = tmp_path_factory.mktemp("cli-mlflow")
    uri = "sqlite:///" + str(folder / "mlflow.db")
    client = mlflow_tracking.MlflowClient(tracking_uri=uri)
    rng = np.random.default_rng(7)
    rows = []
    cv = client.create_experiment("cv")
    broken = client.create_experiment("broken")
    for case in ("iris", "wine", "digits", "cancer"):
        for model in ("knn", "tree", "svm"):
            for fold in range(3):
                acc = float(np.round(rng.uniform(0.7, 1.0), 6))
                for experiment in (cv, broken):
                    run_id = client.create_run(experiment, tags={"dataset": case})
                    run_id = run_id.info.run_id
                    client.log_param(run_id, "model", model)
                    client.log_param(run_id, "fold", fold)
                    client.log_metric(run_id, "accuracy", acc)
                    client.set_terminated(run_id)
                rows.append({"case": case, "algorithm": model, "fold": fold,
                             "score": acc})  # fmt: skip
    orphan = client.create_run(broken, run_name="orphan").info.run_id
    client.log_param(orphan, "model", "knn")
    client.log_metric(orphan, "accuracy", 0.5)
    client.set_terminated(orphan)
    hand = folder / "hand.csv"
    pd.DataFrame(rows).to_csv(hand, index=False)
    return {"uri": uri, "hand": hand}


def test_source_prefixes():
    assert source_kind("mlflow:my experiment") == "mlflow"
    assert source_kind("AutoML:results.csv") == "automl"
    assert source_kind("C:/scores.csv") is None and source_kind("scores.csv") is None
    assert source_kind("mlflow:") is None


def test_analyze_an_mlflow_experiment_equals_the_csv_written_by_hand(store, capsys):
    source = ["mlflow:cv", "--tracking-uri", store["uri"], *MLFLOW, "--fold", "fold"]
    code, out, err = run(["analyze", *source, "--detail", "frequentist"], capsys)
    assert code == 0, err
    code, hand, err = run(
        ["analyze", store["hand"], *HAND, "--fold", "fold", *FREQUENTIST], capsys
    )
    assert code == 0, err
    assert out == hand
    assert "4 cases" in out or "4 data sets" in out


def test_report_of_an_mlflow_experiment_gets_the_scores(store, calls, capsys, tmp_path):
    source = ["mlflow:cv", "--tracking-uri", store["uri"], *MLFLOW, "--fold", "fold"]
    target = tmp_path / "cv.html"
    code, _, err = run(["report", *source, "-o", target], capsys)
    assert code == 0, err
    [(name, scores, keywords)] = calls
    assert name == "report" and keywords["fold"] == "fold"
    hand = pd.read_csv(store["hand"])
    got = scores[["case", "algorithm", "fold", "score"]]
    keys = ["case", "algorithm", "fold"]
    pd.testing.assert_frame_equal(
        got.sort_values(keys).reset_index(drop=True),
        hand.sort_values(keys).reset_index(drop=True),
    )


def test_mlflow_runs_without_the_data_set_are_named(store, capsys):
    source = [
        "mlflow:broken",
        "--tracking-uri",
        store["uri"],
        *MLFLOW,
        "--fold",
        "fold",
    ]
    code, _, err = run(["analyze", *source], capsys)
    assert code == 2
    assert "1 of 37 finished runs lack a name or the metric" in err
    assert "'orphan'" in err and "--missing drop" in err
    code, _, err = run(
        ["analyze", *source, "--missing", "drop", "--detail", "frequentist"], capsys
    )
    assert code == 0, err
    assert "nbstats: warning: mlflow:broken: " in err and "left out" in err


def test_mlflow_needs_the_names(store, capsys):
    code, _, err = run(
        ["analyze", "mlflow:cv", "--tracking-uri", store["uri"], "--case", "dataset"],
        capsys,
    )
    assert code == 2 and "argument --algorithm: mlflow:cv needs --case" in err
    code, _, err = run(
        ["analyze", "mlflow:cv", "--tracking-uri", store["uri"], *MLFLOW[:4],
         "--score", "f1"],
        capsys,
    )  # fmt: skip
    assert code == 2
    assert "--score 'f1': no run logged a metric 'f1'" not in err
    assert "no run logged a metric 'f1'; the metrics present are accuracy" in err


def _amlb_subset(tmp_path, tasks):
    """The real results, less oboe (which fails on several tasks) and fabert."""
    with AMLB.open(newline="", encoding="utf-8") as handle:
        rows = [
            r
            for r in csv.DictReader(handle)
            if r["framework"] != "oboe" and r["task"] in tasks
        ]
    path = tmp_path / "amlb.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path, rows


def test_automl_results_equal_the_csv_written_by_hand(tmp_path, capsys):
    tasks = {"Australian", "car", "segment", "kr-vs-kp", "phoneme", "jasmine"}
    path, rows = _amlb_subset(tmp_path, tasks)
    hand = tmp_path / "hand.csv"
    pd.DataFrame(
        {
            "case": [r["task"] for r in rows],
            "algorithm": [r["framework"] for r in rows],
            "fold": [int(r["fold"]) for r in rows],
            "score": [float(r["acc"]) for r in rows],
        }
    ).to_csv(hand, index=False)
    code, out, err = run(
        ["analyze", f"automl:{path}", "--score", "acc", *FREQUENTIST], capsys
    )
    assert code == 0, err
    code, expected, err = run(
        ["analyze", hand, *HAND, "--fold", "fold", *FREQUENTIST], capsys
    )
    assert code == 0, err
    assert out == expected


def test_the_whole_automl_file_with_failed_folds_reaches_an_analysis(capsys):
    """The real file as it is: its failed folds are named, --min-folds keeps
    the cells with at least 8 scored folds, and the three with fewer become
    missing scores that --nan-policy omit leaves out, as said on stderr."""
    args = ["analyze", f"automl:{AMLB}", "--score", "acc", *FREQUENTIST]
    code, _, err = run(args, capsys)
    assert code != 0 and "('fabert', 'TPOT'): 9 of 10 folds" in err
    assert "--min-folds" in err
    code, out, err = run([*args, "--min-folds", "8", "--nan-policy", "omit"], capsys)
    assert code == 0, err
    assert (
        "dropped 3 of 16 cases with missing scores: 'credit-g', 'fabert', 'kc1'" in err
    )
    assert "13" in out.split("\n", 3)[0] + out.split("\n", 3)[1], out[:300]


def test_automl_result_column_refused_and_logloss_is_lower_is_better(tmp_path, capsys):
    code, _, err = run(["analyze", f"automl:{AMLB}"], capsys)
    assert code == 2
    assert "mix directions" in err and "--score acc" in err
    path, _ = _amlb_subset(tmp_path, {"car", "segment", "mfeat-factors", "cnae-9"})
    code, out, err = run(
        ["analyze", f"openml:{path}", "--score", "logloss", *FREQUENTIST], capsys
    )
    assert code == 0, err
    assert "the metric logloss is lower-is-better" in err
    code, lower, _ = run(
        [
            "analyze",
            f"automl:{path}",
            "--score",
            "logloss",
            "--lower-is-better",
            *FREQUENTIST,
        ],
        capsys,
    )
    assert lower == out


def test_source_options_are_refused_where_they_do_not_apply(tmp_path, capsys):
    code, _, err = run(["analyze", f"automl:{AMLB}", "--fold", "fold"], capsys)
    assert code == 2 and "argument --fold: not with automl: input" in err
    code, _, err = run(["analyze", AMLB, "--tracking-uri", "sqlite:///x.db"], capsys)
    assert code == 2 and "argument --tracking-uri: applies to a score source" in err


def test_default_report_name():
    class Args:
        csv = "mlflow:my experiment/v2"

    assert default_output(Args, ".html") == "my_experiment_v2.html"
    Args.csv = "automl:/data/results.csv"
    assert default_output(Args, ".pdf") == "results.pdf"


def test_dashboard_opens_on_an_mlflow_experiment(store, monkeypatch, capsys):
    served = []

    def fake_run_voila(command, *, cwd, env, out, log, token):
        from nbclient import NotebookClient

        (notebook,) = Path(cwd).glob("*.ipynb")
        nb = nbformat.read(notebook, as_version=4)
        NotebookClient(nb, timeout=120, kernel_name="python3").execute()
        served.append(nb)
        return 0

    monkeypatch.setattr(serve_process, "run_voila", fake_run_voila)
    source = ["mlflow:cv", "--tracking-uri", store["uri"], *MLFLOW, "--fold", "fold"]
    code, out, err = run(["dashboard", *source, "--kind", "frequentist"], capsys)
    assert code == 0, err
    (nb,) = served
    errors = [
        o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"
    ]
    assert not errors
    snapshot = [s for s in nb.cells[1].source.split("'") if s.endswith("cv.csv")]
    assert snapshot and not Path(snapshot[0]).exists()  # removed after the server
    assert "3 algorithms on 4 cases" in err + out
