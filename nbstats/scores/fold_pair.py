"""Two algorithms' fold scores on one data set, read from a frame.

What ``df.compare.correlated_ttest(a, b, ...)`` and its Bayesian twin read:
a wide frame of one data set's folds, or a long per-fold table with the
case, algorithm, score and fold columns named, paired by fold. Loaded on
the first fold test, not with ``import nbstats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.scores import folds as score_folds
from nbstats.scores.frames import check_columns, pair_of_algorithms

__all__ = ["fold_pair", "frame_column"]


def fold_pair(
    frame: pd.DataFrame,
    a: Any,
    b: Any,
    on: Any,
    case: str | None,
    algorithm: str | None,
    score: str | None,
    fold: str | Sequence[str] | None,
    min_folds: int | None,
    kwargs: dict[str, Any],
    name: str,
) -> tuple[pd.Series, pd.Series, dict[str, Any]]:
    """The two algorithms' fold scores on one data set, paired by fold
    (with ``min_folds``: NaN for a failed fold, which the test leaves out).

    ``frame`` is wide (rows = one data set's folds, columns = algorithms;
    ``algorithm`` None) or long (``algorithm``, ``score``, ``fold`` and
    optionally ``case``/``on`` name its columns); ``name`` is the accessor
    method, for messages.
    """
    call = f"df.compare.{name}"
    minimum = score_folds.check_min_folds(min_folds, paired=True)
    if algorithm is None:
        named = {"on": on, "case": case, "score": score, "fold": fold}
        given = [f"{k}=" for k, v in named.items() if v is not None]
        if given:
            raise ValueError(
                f"{', '.join(given)} describe a long per-fold table: name its "
                "algorithm column too (algorithm=, score=, fold=), or call "
                "this on a wide frame of one data set's folds (rows = folds, "
                "columns = algorithms) without them."
            )
        return frame_column(frame, a), frame_column(frame, b), kwargs
    if score is None or fold is None:
        raise ValueError(
            "a long per-fold table needs score= and fold= (the columns of the "
            "scores and of the fold names) besides algorithm=."
        )
    data = frame
    if case is None:
        if on is not None:
            raise ValueError(
                f"on={on!r} chooses a data set by its value in the case column: "
                "give case= too."
            )
        case = "\0case"  # the whole frame is one data set
        data = data.assign(**{case: 0})
    elif case not in data.columns:
        check_columns(data, case=case)
    else:
        data = _one_case(data, case, on)
    if minimum is None:
        columns = score_folds.check_folds(
            data, case=case, algorithm=algorithm, fold=fold,
            remedy="Score every algorithm on every fold, or pass min_folds=K "
            f"to {call} (the test then uses the folds on which both have a "
            "score).",
        )  # fmt: skip
    else:
        columns = score_folds.check_folds(
            data, case=case, algorithm=algorithm, fold=fold, paired=False
        )
    check_columns(data, score=score)
    found_a, found_b = pair_of_algorithms(data, algorithm, a, b)
    design = ("folds", "runs", "test_fraction")
    if len(columns) > 1 and all(kwargs.get(k) is None for k in design):
        # (run, fold) columns: the runs are the first column's values
        kwargs = {**kwargs, "runs": int(data[columns[0]].nunique())}
    pair = data[data[algorithm].isin([found_a, found_b])]
    failed = score_folds.failed_folds(
        pair, case=case, algorithm=algorithm, score=score, fold=fold
    )
    if len(failed) and minimum is None:
        raise ValueError(score_folds.failed_folds_message(failed, call=call))
    wide = data.pivot(index=columns, columns=algorithm, values=score)
    x = wide[found_a].rename(str(a))
    y = wide[found_b].rename(str(b))
    return x, y, kwargs


def _one_case(data: pd.DataFrame, case: str, on: Any) -> pd.DataFrame:
    values = list(pd.unique(data[case]))
    if on is None:
        if len(values) != 1:
            raise ValueError(
                f"the table holds {len(values)} data sets in column {case!r}: "
                f"choose one with on= (e.g. on={values[0]!r}), or test them "
                "all with df.compare.correlated_pairs(...)."
            )
        on = values[0]
    rows = data[data[case] == on]
    if rows.empty:
        shown = ", ".join(repr(v) for v in values[:10])
        more = f" (and {len(values) - 10} more)" if len(values) > 10 else ""
        raise ValueError(
            f"no data set {on!r} in column {case!r}; it holds {shown}{more}."
        )
    return rows


def frame_column(frame: pd.DataFrame, name: Any) -> pd.Series:
    """The column ``name`` of ``frame``: one algorithm's scores, refused
    when it names no column, several, or a list of them."""
    columns = frame.columns
    # a tuple names a column too: one of a MultiIndex, or a tuple label
    if isinstance(name, (list, np.ndarray, pd.Index)):
        raise TypeError(
            f"expected one column name, got {type(name).__name__} {name!r}."
        )
    if not _has_column(columns, name):
        raise ValueError(
            f"no algorithm (column) named {name!r}; the columns are {list(columns)}."
        )
    column = frame[name]
    if isinstance(column, pd.DataFrame):
        raise ValueError(
            f"column name {name!r} appears more than once; rename the columns."
        )
    return column


def _has_column(columns: pd.Index, name: Any) -> bool:
    """Whether ``name`` is one whole column label (of every MultiIndex level:
    a partial key would select several columns)."""
    if isinstance(columns, pd.MultiIndex) and (
        not isinstance(name, tuple) or len(name) != columns.nlevels
    ):
        return False
    try:
        return name in columns
    except TypeError:  # an unhashable name
        return False
