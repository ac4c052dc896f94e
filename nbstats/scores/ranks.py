"""Ranks of a score table: 1 = best, ties get the average of the ranks they span.

Demšar's convention; ``higher_is_better=False`` is the same as negating every
score. Also the paired differences the two-sample tests read.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.scores.frames import as_vector
from nbstats.scores.names import name_index, plain_name
from nbstats.scores.table import NanPolicy, _validate_wide, score_table
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_flag

__all__ = ["mean_ranks", "ranks"]


def ranks(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> pd.DataFrame:
    """Rank the algorithms within each case: 1 = best, ties get average ranks.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table (see :func:`score_table`).
    higher_is_better : bool
        Whether a higher score is better (accuracy) or worse (error, runtime).
    nan_policy : {"raise", "omit"}
        See :func:`score_table`.

    Returns
    -------
    DataFrame
        Same shape, index and columns as the validated score table.

    Examples
    --------
    >>> import nbstats
    >>> nbstats.ranks([[0.9, 0.8, 0.9], [0.5, 0.7, 0.6]])
    algorithm  alg1  alg2  alg3
    case
    case1       1.5   3.0   1.5
    case2       3.0   1.0   2.0
    """
    table = score_table(scores, nan_policy=nan_policy)
    return pd.DataFrame(
        rank_rows(table.to_numpy(), higher_is_better=higher_is_better),
        index=table.index,
        columns=table.columns,
    )


def mean_ranks(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> pd.Series:
    """Average rank of each algorithm over the cases (1 = best).

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> nbstats.mean_ranks(table).round(3).tolist()
    [3.143, 2.0, 2.893, 1.964]
    """
    return (
        ranks(scores, higher_is_better=higher_is_better, nan_policy=nan_policy)
        .mean(axis=0)
        .rename("mean rank")
    )


def rank_rows(values: np.ndarray, *, higher_is_better: bool = True) -> np.ndarray:
    """Rank each row of a validated float array, 1 = best, average ties."""
    check_flag("higher_is_better", higher_is_better)
    oriented = -values if higher_is_better else values
    return sps.rankdata(oriented, method="average", axis=1)


def oriented(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Scores turned so that larger is always better."""
    check_flag("higher_is_better", higher_is_better)
    return values if higher_is_better else -values


def paired_differences(
    a: object,
    b: object,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> tuple[np.ndarray, object, object]:
    """Validate two paired score vectors; return ``d`` (> 0 where b is better).

    Returns
    -------
    d : ndarray
        ``b - a`` when higher is better, ``a - b`` otherwise.
    name_a, name_b : object
        The Series' names as given (a tuple stays a tuple), else ``"a"`` and
        ``"b"``; two names that read the same get `` (a)`` and `` (b)``.
    """
    d, name_a, name_b, _ = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    return d, name_a, name_b


def paired_differences_cases(
    a: object,
    b: object,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> tuple[np.ndarray, object, object, pd.Index]:
    """:func:`paired_differences` and the labels of the cases of ``d``.

    The labels are ``a``'s index when ``a`` is a Series (the cases where
    both have a score, under ``nan_policy="omit"``), else the positions
    0, 1, …, as for the rows of a score table made from an array.

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.Series([0.8, None, 0.7], index=["iris", "wine", "yeast"])
    >>> b = pd.Series([0.9, 0.6, 0.7], index=["iris", "wine", "yeast"])
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     d, _, _, cases = paired_differences_cases(a, b, nan_policy="omit")
    >>> print(caught[0].message)
    nan_policy='omit': dropped 1 of 3 cases with missing scores.
    >>> list(cases), [round(float(x), 2) for x in d]
    (['iris', 'yeast'], [0.1, 0.0])
    """
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    if nan_policy == "pairwise":  # one pair: its complete cases are the omitted
        nan_policy = "omit"
    check_flag("higher_is_better", higher_is_better)
    name_a = _series_name(a, "a")
    name_b = _series_name(b, "b")
    if str(name_a) == str(name_b):
        name_a, name_b = f"{name_a} (a)", f"{name_b} (b)"
    both_series = isinstance(a, pd.Series) and isinstance(b, pd.Series)
    if both_series and not a.index.equals(b.index):
        if a.index.has_duplicates or set(a.index) != set(b.index):
            raise ValueError(
                "a and b are Series whose indexes name different cases; "
                "pair them first, e.g. a, b = a.align(b, join='inner')."
            )
        b = b.reindex(a.index)
    va = as_vector(a, "a")
    vb = as_vector(b, "b")
    if va.shape != vb.shape:
        raise ValueError(
            f"a and b must hold one score per case each, got {va.size} and "
            f"{vb.size} scores; pass the two columns of one score table."
        )
    frame = pd.DataFrame(
        np.column_stack([va, vb]), columns=name_index([name_a, name_b])
    )
    if isinstance(a, pd.Series):
        frame.index = a.index
    table = _validate_wide(frame, nan_policy=nan_policy, min_algorithms=2)
    va, vb = table.iloc[:, 0].to_numpy(), table.iloc[:, 1].to_numpy()
    with np.errstate(over="ignore"):
        d = vb - va if higher_is_better else va - vb
    overflow = ~np.isfinite(d)
    if overflow.any():
        raise ValueError(
            f"the differences between {name_a!r} and {name_b!r} overflow float64 "
            f"(beyond ±{np.finfo(float).max:.3g}) at {int(overflow.sum())} "
            "case(s); rescale both columns by the same factor, e.g. divide by "
            "1e10."
        )
    return d, name_a, name_b, table.index.copy()


def _series_name(x: object, default: str) -> object:
    name = getattr(x, "name", None)
    return default if name is None else plain_name(name)
