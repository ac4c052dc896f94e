"""Per-fold long data: which columns name a fold, and do the folds pair up.

The folds of a cross-validation are paired: every algorithm is scored on the
same training and test splits of a case. :func:`check_folds` refuses data
whose folds do not pair up; :func:`fold_summary` counts them for a report.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from nbstats.score_frames import check_index_names

__all__ = ["check_folds", "fold_summary"]


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


def check_folds(
    data: object, *, case: str, algorithm: str, fold: str | Sequence[str]
) -> list[str]:
    """Refuse per-fold long data whose folds do not pair up; return the fold columns.

    Each (case, algorithm, fold) must appear once (otherwise the column does
    not name a fold), and on every case all algorithms must have the same
    folds (the folds are paired: the same training and test split).
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            "per-fold data (fold=) must be a long DataFrame, got "
            f"{type(data).__name__}."
        )
    columns = _fold_columns(fold)
    unknown = [c for c in (case, algorithm, *columns) if c not in data.columns]
    if unknown:
        raise ValueError(
            f"column(s) {unknown} not found; the table has columns "
            f"{list(data.columns)}."
        )
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
                f"(missing folds per algorithm: {short}). Score every "
                "algorithm on every fold, or drop that case."
            )
    return columns


def fold_summary(
    data: pd.DataFrame, *, case: str, algorithm: str, fold: str | Sequence[str]
) -> dict[str, object]:
    """How many folds per-fold long data has: the report states it.

    Returns
    -------
    dict
        ``columns`` (the fold columns), ``min_folds`` and ``max_folds`` (per
        case and algorithm) and, when the columns are ``(run, fold)``-like,
        ``runs`` (distinct values of the first column).

    Examples
    --------
    >>> import nbstats
    >>> folds = nbstats.datasets.load("uci_accuracy_folds")
    >>> info = nbstats.fold_summary(folds, case="dataset", algorithm="classifier",
    ...                             fold="fold")
    >>> info["min_folds"], info["max_folds"]
    (100, 100)
    """
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
