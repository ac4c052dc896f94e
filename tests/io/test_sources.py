"""What the readers share (nbstats.io.sources): combining duplicated runs,
cells short of folds, the direction of a metric. Checked against plain
Python loops over the same rows."""

from __future__ import annotations

import statistics
import warnings

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbstats.io.sources import combine_duplicates, finish, metric_direction

rows = st.lists(
    st.tuples(
        st.sampled_from(["d1", "d2"]),
        st.sampled_from(["A", "B"]),
        st.integers(0, 2),
        st.floats(-1e6, 1e6, allow_nan=False),
    ),
    min_size=1,
    max_size=30,
)


def _frame(data):
    return pd.DataFrame(data, columns=["case", "algorithm", "fold", "score"])


@settings(max_examples=60, deadline=None)
@given(data=rows, how=st.sampled_from(["mean", "median", "first", "last"]))
def test_combined_duplicates_equal_the_groups_by_hand(data, how):
    keys = ["case", "algorithm", "fold"]
    dropped: list[dict] = []
    frame = _frame(data)
    repeated = frame.duplicated(keys).any()
    if not repeated:
        assert combine_duplicates(frame, keys, None, dropped=dropped) is frame
    got = combine_duplicates(frame, keys, how, dropped=dropped)
    groups: dict[tuple, list[float]] = {}
    for case, algorithm, fold, score in data:
        groups.setdefault((case, algorithm, fold), []).append(score)
    combine = {
        "mean": statistics.fmean,
        "median": statistics.median,
        "first": lambda v: v[0],
        "last": lambda v: v[-1],
    }[how]
    expected = {k: combine(v) for k, v in groups.items()}
    assert len(got) == len(expected)
    for row in got.itertuples(index=False):
        assert row.score == pytest.approx(
            expected[(row.case, row.algorithm, row.fold)], rel=1e-12, abs=1e-9
        )
    # every run of a group of several is listed (combined), or the left-out ones
    several = sum(len(v) for v in groups.values() if len(v) > 1)
    extra = sum(len(v) - 1 for v in groups.values())
    assert len(dropped) == (several if how in ("mean", "median") else extra)


def test_duplicates_refused_by_default_with_the_fix():
    frame = _frame([("d1", "A", 0, 0.5), ("d1", "A", 0, 0.7), ("d1", "B", 0, 0.1)])
    with pytest.raises(ValueError, match=r"1 runs repeat a \(case, algorithm, fold\)"):
        combine_duplicates(frame, ["case", "algorithm", "fold"], None, dropped=[])
    with pytest.raises(ValueError, match="duplicates='sum': choose one of"):
        combine_duplicates(frame, ["case", "algorithm", "fold"], "sum", dropped=[])


def test_cells_short_of_folds_are_named():
    frame = _frame(
        [("d1", a, f, 0.5) for a in "AB" for f in range(3) if (a, f) != ("B", 1)]
        + [("d2", "A", f, 0.5) for f in range(3)]
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        long = finish(frame, reader="test", dropped=[], n_runs=len(frame),
                      metric="acc", higher_is_better=True)  # fmt: skip
    assert long.attrs["incomplete"] == [
        {"case": "d1", "algorithm": "B", "missing": [1]},
        {"case": "d2", "algorithm": "B", "missing": "all"},
    ]
    (message,) = [str(w.message) for w in caught]
    assert "('d1', 'B') lacks fold 1" in message
    assert "('d2', 'B') has no scored run" in message
    assert long.attrs["score_table"] == {
        "case": "case", "algorithm": "algorithm", "score": "score", "fold": "fold"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("name", "higher"),
    [("acc", True), ("test_accuracy", True), ("auc", True), ("neg_log_loss", True),
     ("logloss", False), ("rmse", False), ("mystery", None)],
)  # fmt: skip
def test_metric_direction(name, higher):
    assert metric_direction(name) is higher
