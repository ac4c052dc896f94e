"""read_automl_benchmark on a real AutoML-benchmark results file (bundled,
tests/data/automl/README.md names its source) and on OpenML-style run tables.

The expected numbers are read from the file with the standard csv module,
not with the code under test.
"""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.io import read_automl_benchmark

RESULTS = Path(__file__).parents[1] / "data" / "automl" / "amlb_small_8c4h.csv"


def _rows() -> list[dict[str, str]]:
    with RESULTS.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _read(**kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        long = read_automl_benchmark(RESULTS, **kw)
    return long, [str(w.message) for w in caught]


def test_result_mixing_auc_and_logloss_is_refused_naming_both_and_the_fix():
    with pytest.raises(ValueError, match=".") as error:
        read_automl_benchmark(RESULTS)
    message = str(error.value)
    assert "auc (higher is better)" in message
    assert "logloss (lower is better)" in message
    assert "score='acc'" in message
    assert "car" in message and "Australian" in message


def test_failed_runs_are_left_out_and_named_with_their_info():
    failed = [r for r in _rows() if not r["acc"]]
    assert len(failed) == 25  # the file's own count (README)
    long, told = _read(score="acc")
    dropped = long.attrs["dropped"]
    assert len(dropped) == len(failed)
    assert {(d["case"], d["algorithm"], d["fold"]) for d in dropped} == {
        (r["task"], r["framework"], int(r["fold"])) for r in failed
    }
    assert all(d["reason"].startswith("failed run (no acc; info: ") for d in dropped)
    assert len(long) == 800 - 25
    (message,) = told
    assert "left out or combined 25 of 800 runs" in message
    assert "Oboe could not produce any model" in message
    # the TPOT run aborted on fabert's fold 4 is the one fold missing in its cell
    assert "('fabert', 'TPOT') lacks fold 4" in message
    cells = {
        (c["case"], c["algorithm"]): c["missing"] for c in long.attrs["incomplete"]
    }
    assert cells[("fabert", "TPOT")] == [4]
    assert cells[("fabert", "oboe")] == "all"  # every fold failed
    with pytest.raises(ValueError, match=r"\(.fabert., .TPOT.\): 9 of 10 folds"):
        nbstats.score_table(long, **long.attrs["score_table"])


def test_accuracy_round_trip_equals_the_table_written_by_hand():
    rows = [r for r in _rows() if r["acc"]]
    counts: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        counts.setdefault((r["task"], r["framework"]), []).append(float(r["acc"]))
    frameworks = sorted({r["framework"] for r in _rows()})
    complete = sorted(
        t
        for t in {r["task"] for r in rows}
        if all(len(counts.get((t, f), [])) == 10 for f in frameworks)
    )
    assert len(complete) >= 10
    hand = pd.DataFrame(
        [
            {"case": t, "algorithm": f, "fold": i, "score": s}
            for (t, f), scores in counts.items()
            if t in complete
            for i, s in enumerate(scores)
        ]
    )
    expected = nbstats.score_table(
        hand, case="case", algorithm="algorithm", score="score", aggregate="mean"
    )
    long, _ = _read(score="acc")
    kept = long[long["case"].isin(complete)]
    got = nbstats.score_table(kept, **long.attrs["score_table"])
    pd.testing.assert_frame_equal(
        got.sort_index().sort_index(axis=1), expected.sort_index().sort_index(axis=1)
    )
    # one cell by hand: autosklearn's mean accuracy on Australian
    assert got.loc["Australian", "autosklearn"] == pytest.approx(
        np.mean(counts[("Australian", "autosklearn")]), abs=1e-15
    )
    assert long.attrs["metric"] == "acc" and long.attrs["higher_is_better"] is True


def test_result_of_binary_tasks_alone_is_auc():
    frame = pd.read_csv(RESULTS)
    binary = frame[frame["task"].isin(["Australian", "kc1", "credit-g", "phoneme"])]
    with pytest.warns(UserWarning, match="failed run"):
        long = read_automl_benchmark(binary)
    assert long.attrs["metric"] == "auc" and long.attrs["higher_is_better"] is True
    np.testing.assert_array_equal(long["score"], long["auc"])


def test_logloss_column_is_lower_is_better():
    frame = pd.read_csv(RESULTS)
    multiclass = frame[frame["task"].isin(["car", "segment", "mfeat-factors"])]
    long = read_automl_benchmark(multiclass, score="logloss")
    assert long.attrs["higher_is_better"] is False


def test_unknown_metric_lists_the_metric_columns():
    with pytest.raises(ValueError, match=r"score='f1'.*result, acc, auc, logloss"):
        read_automl_benchmark(RESULTS, score="f1")


def test_metric_column_of_recent_files_same_direction_is_read():
    runs = pd.DataFrame(
        {
            "task": ["a", "a", "b", "b"] * 2,
            "framework": ["X"] * 4 + ["Y"] * 4,
            "fold": [0, 1, 0, 1] * 2,
            "metric": ["auc", "auc", "neg_logloss", "neg_logloss"] * 2,
            "result": [0.9, 0.8, -0.3, -0.4, 0.7, 0.6, -0.5, -0.6],
        }
    )
    long = read_automl_benchmark(runs)
    assert long.attrs["metric"] == "auc/neg_logloss"
    assert long.attrs["higher_is_better"] is True
    table = nbstats.score_table(long, **long.attrs["score_table"])
    assert table.loc["b", "X"] == pytest.approx(-0.35)


def test_duplicated_runs_are_refused_naming_what_differs():
    frame = pd.read_csv(RESULTS)
    extra = frame.iloc[[0]].assign(acc=0.5, tag="rerun")
    twice = pd.concat([frame, extra], ignore_index=True)
    with pytest.raises(ValueError, match=".") as error:
        read_automl_benchmark(twice, score="acc")
    message = str(error.value)
    assert "1 runs repeat a (case, algorithm, fold)" in message
    assert "case='Australian', algorithm='autosklearn', fold=4" in message
    assert "differ in" in message and "tag" in message
    assert "duplicates='mean'" in message
    with pytest.warns(
        UserWarning, match="2 duplicate, combined by the mean of its 2 runs"
    ):
        long = read_automl_benchmark(twice, score="acc", duplicates="mean")
    cell = long[(long.case == "Australian") & (long.algorithm == "autosklearn")]
    assert cell.loc[cell.fold == 4, "score"].item() == pytest.approx(
        (0.898551 + 0.5) / 2
    )


def _openml_runs() -> pd.DataFrame:
    frame = pd.read_csv(RESULTS)
    long = frame.melt(
        id_vars=["task", "framework", "fold"],
        value_vars=["acc", "auc"],
        var_name="metric",
        value_name="value",
    )
    return long.rename(columns={"framework": "flow"}).assign(repeat=0)


def test_openml_style_table_reads_the_same_scores():
    runs = _openml_runs()
    with pytest.raises(ValueError, match=r"2 metrics \(acc, auc\); choose one"):
        read_automl_benchmark(runs)
    with pytest.raises(ValueError, match=r"score='rmse'.*acc, auc"):
        read_automl_benchmark(runs, score="rmse")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        openml = read_automl_benchmark(runs, score="acc")
        amlb = read_automl_benchmark(RESULTS, score="acc")
    assert openml.attrs["score_table"]["fold"] == ["repeat", "fold"]
    assert len(openml.attrs["dropped"]) == 25
    keys = ["case", "algorithm", "fold"]
    a = openml[[*keys, "score"]].sort_values(keys).reset_index(drop=True)
    b = amlb[[*keys, "score"]].sort_values(keys).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
