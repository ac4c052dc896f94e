"""Per-fold long data for the per-fold tests, failed folds included.

The per-fold tests (:func:`nbstats.correlated_pairs`, the hierarchical test,
the fold dashboard) compare two algorithms fold by fold: the folds are paired.
A *failed fold* (its row absent or its score missing) cannot be paired, so
without ``min_folds`` it is refused, naming the ``min_folds`` of the function
the user called. With ``min_folds=K`` each pair uses, on each case, the folds
where both algorithms have a score; :func:`fold_blocks` keeps the failed
folds as NaN so that each pair finds its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from nbstats.scores.dtypes import real_scores
from nbstats.scores.folds import (
    check_folds,
    check_min_folds,
    check_min_folds_reachable,
    failed_folds,
    failed_folds_message,
)
from nbstats.scores.frames import check_columns, wide_frame
from nbstats.scores.table import incomplete_table, score_table

__all__ = ["FoldBlocks", "check_long_columns", "fold_blocks"]


@dataclass(frozen=True)
class FoldBlocks:
    """Validated per-fold scores, one block per case.

    ``means``: the case × algorithm table (the mean of each cell's scored
    folds; NaN for a cell without any), whose index and columns order the
    blocks; ``blocks[i]``: case i's folds × algorithms scores (NaN: a failed
    fold), its rows every fold key seen on the case; ``failed``: the cells
    with failed folds (:func:`nbstats.scores.folds.failed_folds`, empty without).
    """

    fold_columns: list[str]
    means: pd.DataFrame
    blocks: list[np.ndarray]
    failed: pd.DataFrame
    min_folds: int | None


def check_long_columns(data: object, **columns: object) -> None:
    """Refuse ``data`` that is not a DataFrame, and a column argument (``case=``,
    ``fold=``…; ``fold`` may be a list) that names no column of it.

    Examples
    --------
    >>> long = pd.DataFrame({"task": ["t"], "acc": [0.9]})
    >>> check_long_columns(long, case="task", score="accuracy")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: score='accuracy' not found: data has no column 'accuracy'; ...
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            "data must be a long DataFrame of per-fold scores (one row per "
            f"case, algorithm and fold), got {type(data).__name__}."
        )
    for name, value in columns.items():
        names = list(value) if isinstance(value, (list, tuple)) else [value]
        for column in names:
            try:
                found = column in data.columns
            except TypeError:  # unhashable
                found = False
            if not found:
                raise ValueError(
                    f"{name}={value!r} not found: data has no column {column!r}; "
                    f"its columns are {list(data.columns)!r}."
                )


def fold_blocks(
    data: pd.DataFrame,
    *,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
    min_folds: object,
    call: str,
    unit: str = "(pair, data set)",  # what min_folds leaves out
) -> FoldBlocks:
    """Validate per-fold long data and cut it into one block per case.

    Without ``min_folds`` every algorithm must have every fold of a case
    scored; the refusal names ``min_folds`` of ``call`` (the function the
    user called) and ``unit``, what it leaves out. With ``min_folds`` (an
    integer ≥ 2, at most a case's folds) failed folds stay NaN in the blocks.

    Examples
    --------
    >>> long = pd.DataFrame({
    ...     "task": ["t"] * 6 + ["u"] * 6, "fw": ["A", "A", "A", "B", "B", "B"] * 2,
    ...     "fold": [0, 1, 2] * 4,
    ...     "acc": [0.9, 0.8, None, 0.7, 0.8, 0.9, 0.6, 0.7, 0.8, 0.6, 0.7, 0.9]})
    >>> blocks = fold_blocks(long, case="task", algorithm="fw", score="acc",
    ...                      fold="fold", min_folds=2, call="f")
    >>> blocks.blocks[0]
    array([[0.9, 0.7],
           [0.8, 0.8],
           [nan, 0.9]])
    """
    check_long_columns(data, case=case, algorithm=algorithm, score=score, fold=fold)
    min_folds = check_min_folds(min_folds, paired=True)
    if min_folds is None:
        remedy = (
            "Score every algorithm on every fold, drop that case, or pass "
            f"min_folds=K to {call} (each pair then uses the folds on which "
            "both algorithms have a score)."
        )
        columns = check_folds(
            data, case=case, algorithm=algorithm, fold=fold, remedy=remedy
        )
        failed = pd.DataFrame(columns=["case", "algorithm", "scored", "folds"])
        # the folds pair up (check_folds): only a missing score can fail one;
        # without a column, score_table names the columns
        if score in data.columns and data[score].isna().any():
            failed = failed_folds(
                data, case=case, algorithm=algorithm, score=score, fold=fold
            )
            if len(failed):
                raise ValueError(failed_folds_message(failed, call=call, unit=unit))
        # validates the scores (numbers, no gaps) the way every table is validated
        means = score_table(
            data, case=case, algorithm=algorithm, score=score, fold=fold
        )
    else:
        columns = check_folds(
            data, case=case, algorithm=algorithm, fold=fold, paired=False
        )
        check_columns(data, score=score)
        values = real_scores(data[score], f"column {score!r}")
        if np.isinf(values).any():
            rows = data.index[np.isinf(values)][:5].tolist()
            raise ValueError(
                f"scores must be finite; column {score!r} is infinite in rows "
                f"{rows}. Replace them with a finite score or drop those rows."
            )
        per_case = data[[case, *columns]].drop_duplicates().groupby(case).size()
        check_min_folds_reachable(min_folds, per_case, fold)
        failed = failed_folds(
            data, case=case, algorithm=algorithm, score=score, fold=fold
        )
        data = data.assign(**{score: values})  # float64, NaN for a failed fold
        scored = data[~np.isnan(values)]
        wide = (
            wide_frame(scored, case, algorithm, score, "mean")
            .reindex(index=pd.unique(data[case]), columns=pd.unique(data[algorithm]))
            .rename_axis(index=case, columns=algorithm)
        )
        means = incomplete_table(wide)
    pivot = data.pivot(index=[case, *columns], columns=algorithm, values=score)
    pivot = pivot[means.columns]  # pivot sorts the names; the table keeps their order
    blocks = [
        pivot.xs((label,), level=[0]).to_numpy(dtype=float) for label in means.index
    ]
    return FoldBlocks(
        fold_columns=columns,
        means=means,
        blocks=blocks,
        failed=failed,
        min_folds=min_folds,
    )
