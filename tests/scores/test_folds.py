"""Failed folds: the refusal names each cell's count, min_folds averages the
folds that exist, fold_summary counts them (AutoML benchmark per-fold data)."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.scores.folds import failed_folds
from tests.real_tables import amlb_small_accuracy_folds

KW = {"case": "task", "algorithm": "framework", "score": "acc", "fold": "fold"}


def amlb() -> pd.DataFrame:
    return amlb_small_accuracy_folds()


def scored_folds(data: pd.DataFrame) -> pd.Series:
    """Scored folds per (task, framework), with pandas alone."""
    return data.groupby(["task", "framework"])["acc"].count()


def test_amlb_failed_folds_are_refused_naming_each_cell_and_its_count() -> None:
    data = amlb()
    counts = scored_folds(data)
    assert (counts < 10).sum() == 6  # the file: 25 failed folds in 6 cells
    with pytest.raises(ValueError, match="failed folds") as info:
        nbstats.score_table(data, **KW)
    message = str(info.value)
    assert message.startswith("failed folds: 6 (case, algorithm) cells")
    for (task, framework), k in counts[counts < 10].items():
        assert f"({task!r}, {framework!r}): {k} of 10 folds" in message
    assert "('fabert', 'TPOT'): 9 of 10 folds" in message
    assert "('fabert', 'oboe'): 0 of 10 folds" in message
    assert "min_folds=" in message


def test_amlb_min_folds_averages_the_folds_that_exist() -> None:
    data = amlb()
    with (
        pytest.warns(UserWarning, match="3 cells have fewer than min_folds=8"),
        pytest.warns(UserWarning, match="dropped 3 of 16 cases"),
    ):
        table = nbstats.score_table(data, **KW, min_folds=8, nan_policy="omit")
    counts = scored_folds(data)
    expected = data.groupby(["task", "framework"])["acc"].mean().unstack()
    short = counts[counts < 8].index.get_level_values("task")
    assert sorted(short) == ["credit-g", "fabert", "kc1"]
    assert sorted(set(data["task"]) - set(table.index)) == ["credit-g", "fabert", "kc1"]
    # a cell with 9 or 8 folds is the mean of those folds (pandas skips NaN)
    for task, framework in [("fabert", "TPOT"), ("blood-transfusion", "oboe")]:
        if task in table.index:
            assert table.loc[task, framework] == pytest.approx(
                expected.loc[task, framework], rel=1e-15
            )
    assert table.loc["blood-transfusion", "oboe"] == pytest.approx(
        data.query("task == 'blood-transfusion' and framework == 'oboe'")["acc"]
        .dropna()
        .mean()
    )
    pd.testing.assert_frame_equal(
        table,
        expected.loc[table.index, table.columns],
        check_names=False,
        rtol=1e-15,
    )


def test_amlb_cells_below_the_minimum_are_refused_as_missing() -> None:
    with pytest.raises(ValueError, match="min_folds=8") as info:
        nbstats.score_table(amlb(), **KW, min_folds=8)
    message = str(info.value)
    assert message.startswith(
        "3 cells have fewer than min_folds=8 scored folds and are missing: "
    )
    assert "('kc1', 'oboe'): 3 of 10 folds" in message
    assert "missing scores at (case, algorithm)" in message
    # min_folds=1 keeps every cell with a score: only fabert/oboe (0 folds)
    with pytest.raises(ValueError, match=r"\('fabert', 'oboe'\): 0 of 10 folds"):
        nbstats.score_table(amlb(), **KW, min_folds=1)


def test_amlb_fold_summary_counts_the_failed_folds() -> None:
    data = amlb()
    info = nbstats.fold_summary(
        data, case="task", algorithm="framework", fold="fold", score="acc", min_folds=8
    )
    counts = scored_folds(data)
    assert info["failed_folds"] == int(data["acc"].isna().sum()) == 25
    assert info["partial_cells"] == int(((counts >= 8) & (counts < 10)).sum()) == 3
    assert info["short_cells"] == int((counts < 8).sum()) == 3
    assert info["fewest_folds"] == 8
    assert (info["min_folds"], info["max_folds"], info["cells"]) == (10, 10, 80)


def test_absent_rows_are_failed_folds_too() -> None:
    data = amlb().dropna(subset=["acc"])  # failed folds as absent rows
    with pytest.raises(ValueError, match=r"\('fabert', 'TPOT'\): 9 of 10 folds"):
        nbstats.score_table(data, **KW)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table = nbstats.score_table(data, **KW, min_folds=8, nan_policy="omit")
    assert len(table) == 13
    # a framework with no row at all on a task still stands as a missing cell
    assert "oboe" in table.columns


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=6, max_size=6),
    st.integers(1, 4),
)
def test_min_folds_property(failed: list[int], minimum: int) -> None:
    # 3 cases x 2 algorithms x 4 folds; the first `failed[i]` folds of cell i
    # have no score: the cell is the mean of the others if >= minimum remain
    rng = np.random.default_rng(0)
    rows = []
    for i, (case, alg) in enumerate((c, a) for c in "xyz" for a in "AB"):
        for f in range(4):
            score = np.nan if f < failed[i] else float(rng.random())
            rows.append((case, alg, f, score))
    data = pd.DataFrame(rows, columns=["task", "framework", "fold", "acc"])
    failed_cells = failed_folds(
        data, case="task", algorithm="framework", score="acc", fold="fold"
    )
    assert failed_cells["scored"].tolist() == [4 - k for k in failed if k]
    means = data.groupby(["task", "framework"])["acc"].mean().unstack()
    kept = data.groupby(["task", "framework"])["acc"].count().unstack() >= minimum
    complete = kept.all(axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        if complete.sum() < 2:
            with pytest.raises(ValueError, match="at least 2 cases"):
                nbstats.score_table(data, **KW, min_folds=minimum, nan_policy="omit")
            return
        table = nbstats.score_table(data, **KW, min_folds=minimum, nan_policy="omit")
    assert list(table.index) == list(complete[complete].index)
    np.testing.assert_allclose(table.to_numpy(), means.loc[table.index].to_numpy())


@pytest.mark.parametrize(
    ("kw", "error", "words"),
    [
        ({"min_folds": 0}, ValueError, "min_folds must be at least 1"),
        ({"min_folds": True}, TypeError, "whole number of folds"),
        ({"min_folds": 2.5}, TypeError, "whole number of folds"),
        ({"min_folds": "8"}, TypeError, "whole number of folds"),
    ],
)
def test_bad_min_folds(kw, error, words) -> None:
    with pytest.raises(error, match=re.escape(words)):
        nbstats.score_table(amlb(), **KW, **kw)


def test_min_folds_needs_per_fold_data() -> None:
    data = amlb()
    with pytest.raises(ValueError, match="min_folds= applies to per-fold data"):
        nbstats.score_table(
            data.drop(columns="fold").drop_duplicates(["task", "framework"]),
            case="task",
            algorithm="framework",
            score="acc",
            min_folds=8,
        )
    with pytest.raises(ValueError, match="min_folds= only applies to long data"):
        nbstats.score_table([[1.0, 2.0], [3.0, 4.0]], min_folds=8)


def test_omit_says_which_cells_failed_folds_made_missing() -> None:
    data = amlb()
    with pytest.warns(UserWarning, match="failed folds|dropped") as caught:
        nbstats.score_table(data, **KW, nan_policy="omit")
    messages = [str(w.message) for w in caught]
    assert any(
        m.startswith("failed folds: ") and "('fabert', 'TPOT'): 9 of 10 folds" in m
        for m in messages
    )
    assert "nan_policy='omit': dropped 5 of 16 cases with missing scores." in messages
    with pytest.warns(UserWarning, match="min_folds=9|dropped") as caught:
        nbstats.score_table(data, **KW, nan_policy="omit", min_folds=9)
    messages = [str(w.message) for w in caught]
    assert messages[0].startswith("4 cells have fewer than min_folds=9 scored folds")
    assert "('fabert', 'TPOT')" not in messages[0]  # 9 folds: its mean is used
