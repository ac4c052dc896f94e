"""Which fold column counts the runs: told from the data or the names, never
from the order of the CSV's columns (issue 30, finding 3).

Repeated k-fold cross-validation gives two columns, the run and the fold
within it. The correlated t-tests correct the variance with ρ = 1/k, so
taking the folds for the runs (20 runs of 5-fold instead of 5 runs of
20-fold) changes every decision of the per-data-set section.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.app.data import read_folds
from nbstats.io.csv import check_fold_order, recognise_folds

RUNS, FOLDS = 5, 20
LONG = ["--case", "dataset", "--algorithm", "classifier", "--score", "accuracy"]


def folds_frame(runs=RUNS, folds=FOLDS, nested=False, seed=0) -> pd.DataFrame:
    """Long per-fold scores with the fold column BEFORE the run column."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"d{i}", algo, r * folds + f if nested else f, r, rng.uniform(0.5, 0.9))
        for i in range(3)
        for algo in ("A", "B", "C")
        for r in range(runs)
        for f in range(folds)
    ]
    return pd.DataFrame(
        rows, columns=["dataset", "classifier", "fold", "run", "accuracy"]
    )


def nbstats_cli(*argv, cwd):
    # the nbstats under test, not whichever one is installed
    root = str(Path(nbstats.__file__).resolve().parents[1])
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=root)
    return subprocess.run(
        [sys.executable, "-m", "nbstats.cli", *map(str, argv)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_report_states_5_runs_of_20_fold_whatever_the_column_order(tmp_path):
    # the attack's case: columns dataset,classifier,fold,run,accuracy
    folds_frame().to_csv(tmp_path / "folds.csv", index=False)
    done = nbstats_cli("analyze", "folds.csv", *LONG, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "taking 'run' as the runs and 'fold' as the folds" in done.stderr
    assert "5 runs of 20-fold cross-validation" in done.stdout
    assert "20 runs of 5-fold" not in done.stdout


@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize("order", [["fold", "run"], ["run", "fold"]])
def test_the_run_column_is_found_in_either_column_order(nested, order):
    raw = folds_frame(nested=nested)
    raw = raw[["dataset", "classifier", *order, "accuracy"]]
    found, _ = recognise_folds(
        raw, case="dataset", algorithm="classifier", score="accuracy"
    )
    assert found == ["run", "fold"]


def test_nesting_in_the_data_tells_which_unnamed_column_is_the_fold():
    # fold numbers that go on across runs (0..99): the fold is nested in the
    # run; names that say nothing ("rep" is a run name, "folds" a fold name,
    # but here both are told by the data alone)
    raw = folds_frame(nested=True).rename(columns={"fold": "folds", "run": "rep"})
    found, why = recognise_folds(
        raw, case="dataset", algorithm="classifier", score="accuracy"
    )
    assert found == ["rep", "folds"]
    assert "nested" in why


def test_two_crossed_columns_without_telling_names_are_refused():
    raw = folds_frame().rename(columns={"run": "folds"})  # fold and folds
    with pytest.raises(ValueError, match=r"--fold RUN,FOLD"):
        recognise_folds(raw, case="dataset", algorithm="classifier", score="accuracy")


def test_data_that_contradict_the_names_are_refused():
    # 'run' values nested within 'fold' values: the names and the data disagree
    raw = folds_frame(nested=True).rename(columns={"fold": "run", "run": "fold"})
    with pytest.raises(ValueError, match="the names say 'run' counts the runs"):
        recognise_folds(raw, case="dataset", algorithm="classifier", score="accuracy")


def test_the_cli_refuses_what_it_cannot_tell(tmp_path):
    raw = folds_frame().rename(columns={"run": "folds"})
    raw.to_csv(tmp_path / "folds.csv", index=False)
    done = nbstats_cli("analyze", "folds.csv", *LONG, "--detail", "frequentist",
                       cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("nbstats: error: folds.csv: repeated (dataset, ")
    assert "--fold RUN,FOLD" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_given_order_that_contradicts_the_names_is_refused(tmp_path):
    folds_frame().to_csv(tmp_path / "folds.csv", index=False)
    done = nbstats_cli("analyze", "folds.csv", *LONG, "--fold", "fold,run",
                       "--detail", "frequentist", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "pass --fold run,fold" in done.stderr
    raw = folds_frame()
    check_fold_order(raw, case="dataset", algorithm="classifier", fold=["run", "fold"])


def test_the_fold_dashboard_finds_the_runs_in_either_order(tmp_path):
    path = tmp_path / "folds.csv"
    folds_frame().to_csv(path, index=False)
    found, _ = read_folds(
        path, case="dataset", algorithm="classifier", score="accuracy"
    )
    assert found.fold == ["run", "fold"]
    assert found.runs == RUNS
