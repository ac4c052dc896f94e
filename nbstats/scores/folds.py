"""Per-fold long data: which columns name a fold, and do the folds pair up.

The folds of a cross-validation are paired: every algorithm is scored on the
same training and test splits of a case. :func:`check_folds` refuses data
whose folds do not pair up; :func:`fold_summary` counts them for a report.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats.scores.frames import check_columns, check_index_names, table_argument

__all__ = [
    "check_folds",
    "check_min_folds",
    "check_min_folds_reachable",
    "failed_folds",
    "fold_summary",
    "usable_folds",
]

_CELLS_SHOWN = 8


def _fold_columns(fold: str | Sequence[str]) -> list[str]:
    if isinstance(fold, str):
        columns = [fold]
    elif isinstance(fold, Sequence):
        columns = list(fold)
    else:
        columns = []
    if not columns or not all(isinstance(c, str) for c in columns):
        raise TypeError(
            f"fold must be a column name or a list of column names, got {fold!r}."
        )
    return columns


def _check_long(
    data: object, *, fold: str | Sequence[str], **columns: object
) -> list[str]:
    """Refuse per-fold data that is not a long DataFrame with these columns
    (each refusal names the argument); return the fold columns."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            f"{table_argument()}: per-fold data (fold=) must be a long DataFrame, "
            f"got {type(data).__name__}."
        )
    check_columns(data, **{k: v for k, v in columns.items() if v is not None})
    folds = _fold_columns(fold)
    for column in folds:
        check_columns(data, fold=column)
    return folds


def check_folds(
    data: object,
    *,
    case: str,
    algorithm: str,
    fold: str | Sequence[str],
    paired: bool = True,
    remedy: str | None = None,
) -> list[str]:
    """Refuse per-fold long data whose folds do not pair up; return the fold columns.

    Each (case, algorithm, fold) must appear once (otherwise the column does
    not name a fold), and, with ``paired`` (the per-fold tests), on every
    case all algorithms must have the same folds (the folds are paired: the
    same training and test split). ``paired=False`` leaves the fold counts to
    :func:`failed_folds` (a score per case averages its folds). ``remedy``
    replaces the refusal's last sentence (what to do about unequal folds),
    e.g. to name the caller's own ``min_folds``.
    """
    columns = _check_long(data, case=case, algorithm=algorithm, fold=fold)
    check_index_names(data, (case, algorithm, *columns))
    clash = [c for c in columns if c in (case, algorithm)]
    if clash:
        raise ValueError(f"fold column(s) {clash} are also the case or algorithm.")
    keys = data[[case, algorithm, *columns]]
    repeated = keys.duplicated(keep=False)
    if repeated.any():
        first = ", ".join(str(v) for v in keys[repeated].iloc[0].tolist())
        raise ValueError(
            f"{columns} does not identify a fold: {int(keys.duplicated().sum())} "
            f"rows repeat a ({case}, {algorithm}, {', '.join(columns)}) "
            f"combination, e.g. ({first}). Name every column that tells "
            "folds apart (e.g. fold=['run', 'fold'] for repeated k-fold)."
        )
    if not paired:
        return columns
    folds = keys.groupby([case, algorithm], sort=False)[columns].apply(
        lambda g: frozenset(map(tuple, g.to_numpy().tolist()))
    )
    for case_name, per_algorithm in folds.groupby(level=0, sort=False):
        sets = per_algorithm.droplevel(0)
        if sets.nunique() > 1:
            sizes = {str(a): len(f) for a, f in sets.items()}
            union = frozenset().union(*sets)
            short = {str(a): len(union - f) for a, f in sets.items() if f != union}
            raise ValueError(
                f"unequal folds on case {case_name!r}: the algorithms must be "
                f"scored on the same folds, but the fold counts are {sizes} "
                f"(missing folds per algorithm: {short}). "
                + (remedy or "Score every algorithm on every fold, or drop that case.")
            )
    return columns


def fold_summary(
    data: pd.DataFrame,
    *,
    case: str,
    algorithm: str,
    fold: str | Sequence[str],
    score: str | None = None,
    min_folds: int | None = None,
) -> dict[str, object]:
    """How many folds per-fold long data has: the report states it.

    Without ``score``, every algorithm must have the same folds on a case
    (:func:`check_folds`). With ``score``, a fold counts when it has a
    score, and failed folds (see :func:`nbstats.score_table`) are counted
    too: cells averaged over fewer folds (at least ``min_folds``) and cells
    left missing.

    Returns
    -------
    dict
        ``columns`` (the fold columns), ``min_folds`` and ``max_folds`` (per
        case and algorithm) and, when the columns are ``(run, fold)``-like,
        ``runs`` (distinct values of the first column). With failed folds
        (or ``min_folds``) also ``minimum`` (the minimum asked for; None:
        every fold), ``partial_cells`` (cells averaged over fewer folds than
        their case has), ``fewest_folds`` (the fewest folds a used cell
        averages), ``short_cells`` (cells below the minimum: missing
        scores), ``cells`` (all cells) and ``failed_folds`` (folds without a
        score).

    Examples
    --------
    >>> import nbstats
    >>> folds = nbstats.datasets.load("uci_accuracy_folds")
    >>> info = nbstats.fold_summary(folds, case="dataset", algorithm="classifier",
    ...                             fold="fold")
    >>> info["min_folds"], info["max_folds"]
    (100, 100)
    """
    _check_long(data, case=case, algorithm=algorithm, fold=fold, score=score)
    check_min_folds(min_folds)
    if score is not None and (
        min_folds is not None
        or len(
            failed_folds(data, case=case, algorithm=algorithm, score=score, fold=fold)
        )
    ):
        return _failed_summary(data, case, algorithm, fold, score, min_folds)
    columns = check_folds(data, case=case, algorithm=algorithm, fold=fold)
    counts = data.groupby([case, algorithm], sort=False).size()
    info: dict[str, object] = {
        "columns": columns,
        "min_folds": int(counts.min()),
        "max_folds": int(counts.max()),
    }
    if len(columns) > 1:
        info["runs"] = int(data[columns[0]].nunique())
    return info


def failed_folds(
    data: pd.DataFrame,
    *,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
) -> pd.DataFrame:
    """Every (case, algorithm) with fewer scored folds than its case has.

    A case's folds are the fold keys that appear on it in any row; a fold of
    a cell is *failed* when its row is absent or its score is missing (NaN).

    Returns
    -------
    DataFrame
        Columns ``case``, ``algorithm``, ``scored`` and ``folds``, one row
        per cell with a failed fold (none: an empty frame), in the data's
        order.

    Examples
    --------
    >>> long = pd.DataFrame({"task": ["t"] * 4, "fw": ["A", "A", "B", "B"],
    ...                      "fold": [0, 1, 0, 1], "acc": [0.9, None, 0.8, 0.7]})
    >>> failed_folds(long, case="task", algorithm="fw", score="acc", fold="fold")
      case algorithm  scored  folds
    0    t         A       1      2
    """
    columns = _fold_columns(fold)
    keys = data[[case, *columns]].drop_duplicates()
    per_case = keys.groupby(case, sort=False).size()
    scored = (
        data[[case, algorithm]]
        .assign(_scored=data[score].notna().to_numpy())
        .groupby([case, algorithm], sort=False)["_scored"]
        .sum()
    )
    algorithms = pd.unique(data[algorithm])
    rows = []
    for case_name, k in per_case.items():
        for name in algorithms:
            got = int(scored.get((case_name, name), 0))
            if got < k:
                rows.append((case_name, name, got, int(k)))
    return pd.DataFrame(rows, columns=["case", "algorithm", "scored", "folds"])


def check_min_folds(min_folds: object, *, paired: bool = False) -> int | None:
    """``min_folds`` as given: None, or an integer ≥ 1 (≥ 2 with ``paired``:
    a per-fold test needs the variance of at least two fold differences)."""
    if min_folds is None:
        return None
    if isinstance(min_folds, bool) or not isinstance(min_folds, int | np.integer):
        raise TypeError(
            f"min_folds must be a whole number of folds (e.g. 8), got {min_folds!r}."
        )
    if paired and min_folds < 2:
        raise ValueError(
            f"min_folds must be at least 2 (the fewest folds on which both "
            f"algorithms of a pair have a score; a per-fold test needs the "
            f"variance of two or more fold differences), got {min_folds}."
        )
    if min_folds < 1:
        raise ValueError(
            f"min_folds must be at least 1 (the fewest folds a cell is averaged "
            f"over), got {min_folds}."
        )
    return int(min_folds)


def check_min_folds_reachable(min_folds: int, counts: pd.Series, fold: object) -> None:
    """Refuse a ``min_folds`` above every case's number of folds (``counts``:
    the folds per case), which would leave out every case."""
    largest = int(counts.max())
    if min_folds > largest:
        raise ValueError(
            f"min_folds={min_folds} exceeds the {largest} folds a case has "
            f"(fold column(s) {fold!r}): every case would be left out. Give at "
            f"most min_folds={largest} (every fold)."
        )


def cell_list(failed: pd.DataFrame) -> str:
    """``('t', 'A'): 9 of 10 folds, …``: the first cells, then a count."""
    shown = [
        f"({row.case!r}, {row.algorithm!r}): {row.scored} of {row.folds} folds"
        for row in failed.head(_CELLS_SHOWN).itertuples()
    ]
    more = len(failed) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def failed_folds_message(
    failed: pd.DataFrame, *, call: str | None = None, unit: str | None = None
) -> str:
    """The refusal of failed folds without ``min_folds``.

    ``call``: the per-fold test the user called (e.g.
    ``"nbstats.correlated_pairs"``), whose own ``min_folds`` pairs the folds
    instead of averaging them; the message names it, and ``unit``, what it
    leaves out below the minimum (None: one test, refused below it).

    Examples
    --------
    >>> failed = pd.DataFrame({"case": ["t"], "algorithm": ["A"], "scored": [9],
    ...                        "folds": [10]})
    >>> print(failed_folds_message(failed, call="f", unit="data set"))
    ... # doctest: +NORMALIZE_WHITESPACE
    failed folds: 1 (case, algorithm) cell has fewer scored folds than the
    case: ('t', 'A'): 9 of 10 folds. A fold without a score (an absent row or
    a missing score) cannot be paired. Pass min_folds=K to f to compare each
    pair on the folds where both algorithms have a score, leaving out a data
    set with fewer than K such folds (e.g. min_folds=9); the result records
    the folds used and what was left out. Or rerun the failed folds.
    """
    n = len(failed)
    suggestion = max(int(failed["folds"].max()) - 1, 1)
    if call is not None:
        return (
            f"failed folds: {n} (case, algorithm) cell{'s' if n != 1 else ''} "
            f"{'have' if n != 1 else 'has'} fewer scored folds than the case: "
            + cell_list(failed)
            + ". A fold without a score (an absent row or a missing score) "
            f"cannot be paired. Pass min_folds=K to {call} to compare "
            + (
                f"each pair on the folds where both algorithms have a score, "
                f"leaving out a {unit} with fewer than K such folds "
                f"(e.g. min_folds={max(suggestion, 2)}); the result records the "
                "folds used and what was left out."
                if unit
                else "the pair on the folds where both algorithms have a "
                f"score, if at least K (e.g. min_folds={max(suggestion, 2)}); "
                "the result's n counts them."
            )
            + " Or rerun the failed folds."
        )
    return (
        f"failed folds: {n} (case, algorithm) cell{'s' if n != 1 else ''} "
        f"{'have' if n != 1 else 'has'} fewer scored folds than the case: "
        + cell_list(failed)
        + ". A fold without a score (an absent row or a missing score) leaves "
        "its cell without a mean. Pass min_folds=K to average the folds that "
        f"exist in every cell with at least K of them (e.g. min_folds="
        f"{suggestion}; a cell with fewer becomes a missing score, see "
        "nan_policy); a report states in Methods how many cells were averaged "
        "over fewer folds. Or rerun the failed folds."
    )


def usable_folds(
    data: pd.DataFrame,
    *,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
    min_folds: int | None,
    refuse: bool = True,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows a score per case averages, and the cells with failed folds.

    Rows without a score are left out, and so are all rows of a cell with
    fewer than ``min_folds`` scored folds (the cell becomes a missing score;
    without ``min_folds``, a cell with any failed fold). ``refuse`` (and no
    ``min_folds``): a failed fold is refused instead
    (:func:`failed_folds_message`, naming each cell's count).

    Returns
    -------
    (DataFrame, DataFrame)
        The rows kept, and :func:`failed_folds` of the data.
    """
    min_folds = check_min_folds(min_folds)
    if score not in data.columns:  # refused with the other columns later
        return data, pd.DataFrame(columns=["case", "algorithm", "scored", "folds"])
    failed = failed_folds(data, case=case, algorithm=algorithm, score=score, fold=fold)
    if not len(failed):
        return data, failed
    if min_folds is None and refuse:
        raise ValueError(failed_folds_message(failed))
    kept = data[data[score].notna()]
    short = failed if min_folds is None else failed[failed["scored"] < min_folds]
    if len(short):
        cells = pd.MultiIndex.from_frame(short[["case", "algorithm"]])
        rows = pd.MultiIndex.from_frame(kept[[case, algorithm]])
        kept = kept[~rows.isin(cells)]
    return kept, failed


def short_cells_note(failed: pd.DataFrame, min_folds: int) -> str:
    """The cells below ``min_folds``, for the refusal of missing scores."""
    short = failed[failed["scored"] < min_folds]
    n = len(short)
    return (
        f"{n} cell{'s' if n != 1 else ''} {'have' if n != 1 else 'has'} fewer "
        f"than min_folds={min_folds} scored folds and {'are' if n != 1 else 'is'} "
        f"missing: {cell_list(short)}. "
    )


def _failed_summary(
    data: pd.DataFrame,
    case: str,
    algorithm: str,
    fold: str | Sequence[str],
    score: str,
    min_folds: int | None,
) -> dict[str, object]:
    columns = check_folds(data, case=case, algorithm=algorithm, fold=fold, paired=False)
    kept, failed = usable_folds(
        data, case=case, algorithm=algorithm, score=score, fold=fold,
        min_folds=min_folds, refuse=False,
    )  # fmt: skip
    counts = kept.groupby([case, algorithm], sort=False).size()
    per_case = data[[case, *columns]].drop_duplicates().groupby(case).size()
    used = failed[failed["scored"] >= (min_folds or np.inf)]
    info: dict[str, object] = {
        "columns": columns,
        "min_folds": int(per_case.min()),
        "max_folds": int(per_case.max()),
        "minimum": None if min_folds is None else int(min_folds),
        "cells": int(len(per_case) * data[algorithm].nunique()),
        "partial_cells": len(used),
        "fewest_folds": int(counts.min()) if len(counts) else 0,
        "short_cells": int((failed["scored"] < (min_folds or np.inf)).sum()),
        "failed_folds": int((failed["folds"] - failed["scored"]).sum()),
    }
    if len(columns) > 1:
        info["runs"] = int(data[columns[0]].nunique())
    return info
