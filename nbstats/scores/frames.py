"""From the user's data to a wide frame: arrays, long data, one column.

:func:`wide_frame` pivots long data (``case``, ``algorithm``, ``score``
columns; repeated measurements combined by an exact mean or the median) and
labels a bare 2-D array; :func:`as_vector` reads one algorithm's scores. The
values are checked as real numbers here, the table as a whole in
:mod:`nbstats.scores.table`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.scores.dtypes import real_scores
from nbstats.util.checks import check_choice

__all__ = [
    "Aggregate",
    "as_vector",
    "check_index_names",
    "pair_of_algorithms",
    "power_of_two_scale",
    "wide_frame",
]

Aggregate = Literal["mean", "median"] | None


def power_of_two_scale(values: np.ndarray) -> float:
    """The power of two ``c`` with ``c <= max |values| < 2c`` (1.0 for zeros).

    Dividing by a power of two is exact (short of underflow), so scaled data
    keep every tie and every order of the original, and sums of the scaled
    values (below 2 in magnitude) can neither overflow nor lose the
    subnormal range.
    """
    largest = float(np.max(np.abs(values))) if values.size else 0.0
    if largest == 0.0 or not np.isfinite(largest):
        return 1.0
    return float(np.ldexp(1.0, int(np.frexp(largest)[1]) - 1))


def as_vector(x: object, label: str) -> np.ndarray:
    """One algorithm's scores as a checked 1-D float array.

    The two-sample functions read each argument here: a DataFrame, a 2-D
    array or a value that is not a real number is refused with an error that
    names the argument (``label``) and the fix.

    Parameters
    ----------
    x : Series, 1-D array-like
        One score per case.
    label : str
        The argument's name in error messages, e.g. ``"a"``.

    Returns
    -------
    ndarray
        float64 scores.

    Examples
    --------
    >>> as_vector([0.9, 0.8], "a")
    array([0.9, 0.8])
    """
    if isinstance(x, pd.DataFrame):
        raise TypeError(
            f"{label} must be one column of scores, got a DataFrame; "
            f"select a column, e.g. df['name']."
        )
    name = getattr(x, "name", None)
    where = label if name is None else f"{label} ({name!r})"
    if getattr(x, "dtype", None) is None:
        # a list keeps its values' types: [True, 2] must not become [1, 2]
        x = np.asarray(x, dtype=object if isinstance(x, list | tuple) else None)
    if np.ndim(x) != 1:
        raise ValueError(
            f"{label} must be 1-D (one score per case), got shape {np.shape(x)}."
        )
    return real_scores(x, where)


def wide_frame(
    data: object,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: Aggregate = None,
) -> pd.DataFrame:
    """The wide table (rows = cases, columns = algorithms) before validation.

    Long data (``case``, ``algorithm`` and ``score`` name its columns) is
    pivoted, repeated measurements combined by ``aggregate``; a 2-D array gets
    the labels ``case1, case2, ...`` and ``alg1, alg2, ...``. The values are
    not checked further: :func:`score_table` and :func:`incomplete_table` do
    that. For callers that must see the table before a ``nan_policy`` drops
    cases (the report counts them).

    Parameters
    ----------
    data : DataFrame or 2-D array-like
        A wide table, or long data with ``case``, ``algorithm`` and ``score``.
    case, algorithm, score : str, optional
        The columns of long data (all three, or none for a wide table).
    aggregate : {None, "mean", "median"}
        How repeated (case, algorithm) rows of long data are combined.

    Returns
    -------
    DataFrame
        The wide table (``data`` itself when it already is a wide DataFrame).

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"d": ["x", "x", "y", "y"], "a": ["A", "B", "A", "B"],
    ...                      "s": [0.9, 0.8, 0.7, 0.75]})
    >>> wide_frame(long, case="d", algorithm="a", score="s")
    a    A     B
    d
    x  0.9  0.80
    y  0.7  0.75
    """
    if case is None and algorithm is None and score is None:
        return _as_wide_frame(data)
    return _pivot_long(data, case, algorithm, score, aggregate)


def _as_wide_frame(data: object) -> pd.DataFrame:
    if isinstance(data, pd.DataFrame):
        return data
    name = table_argument()
    if isinstance(data, pd.Series):
        raise ValueError(
            f"{name}: a score table needs one column per algorithm, got a Series; for "
            "two algorithms use the two-sample functions, e.g. "
            "nbstats.wilcoxon(a, b), or pass a DataFrame."
        )
    # a list keeps its values' types: [[True, 2]] must not become [[1, 2]]
    arr = np.asarray(data, dtype=object if isinstance(data, list | tuple) else None)
    if arr.ndim == 0 and arr.dtype.kind not in "biuf":  # a string, an object
        raise TypeError(
            f"{name} must be a score table: a DataFrame or a 2-D array-like "
            f"(rows = cases, columns = algorithms), got {type(data).__name__}."
        )
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (a score table: rows = cases, columns = "
            f"algorithms), got an array of shape {arr.shape}."
        )
    return pd.DataFrame(
        arr,
        index=pd.Index([f"case{i + 1}" for i in range(arr.shape[0])], name="case"),
        columns=pd.Index(
            [f"alg{j + 1}" for j in range(arr.shape[1])], name="algorithm"
        ),
    )


def _pivot_long(
    data: object, case: str, algorithm: str, score: str, aggregate: Aggregate
) -> pd.DataFrame:
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            f"{table_argument()}: long data (case=, algorithm=, score=) must be "
            f"a DataFrame, got {type(data).__name__}."
        )
    check_choice("aggregate", aggregate, (None, "mean", "median"))
    check_columns(data, case=case, algorithm=algorithm, score=score)
    check_index_names(data, (case, algorithm, score))
    numbers = real_scores(data[score], f"score column {score!r}")
    data = data.copy(deep=False)
    data[score] = numbers
    keys = data[[case, algorithm]]
    duplicated = keys.duplicated(keep=False)
    if duplicated.any() and aggregate is None:
        examples = keys[duplicated].drop_duplicates().head(3)
        shown = ", ".join(
            f"({c!r}, {a!r})" for c, a in examples.itertuples(index=False)
        )
        raise ValueError(
            f"{int(keys.duplicated().sum())} duplicated ({case}, {algorithm}) "
            f"rows, e.g. {shown}; pass aggregate='mean' or 'median' to combine "
            f"repeated measurements (such as folds) into one score."
        )
    case_order = pd.unique(data[case])
    algorithm_order = pd.unique(data[algorithm])
    grouped = data.groupby([case, algorithm], sort=False)[score]
    if aggregate == "median":
        cells = grouped.median(skipna=False)
    else:
        # "mean" or no duplicates. math.fsum rounds the sum exactly, so two
        # algorithms with the same fold scores in another order get the same
        # mean (a plain sum can differ in the last bit and break a true tie,
        # which changes every rank statistic); a missing fold gives NaN.
        cells = grouped.agg(_exact_mean)
    wide = cells.unstack(algorithm).reindex(index=case_order, columns=algorithm_order)
    wide.index.name = case
    wide.columns.name = algorithm
    return wide


def check_columns(data: pd.DataFrame, **columns: object) -> None:
    """Refuse a column argument that does not name a column of ``data``,
    naming the argument (``case=``, ``score=``, ...) and the columns there are.

    Examples
    --------
    >>> check_columns(pd.DataFrame({"d": [1]}), case="x")
    Traceback (most recent call last):
    ...
    ValueError: case='x' is not a column of the table; its columns are ['d'].
    """
    for argument, column in columns.items():
        try:
            known = column in data.columns
        except TypeError:  # an unhashable value
            known = False
        if not known:
            raise ValueError(
                f"{argument}={column!r} is not a column of the table; its "
                f"columns are {list(data.columns)}."
            )


def pair_of_algorithms(
    data: pd.DataFrame, algorithm: str, a: object, b: object
) -> tuple[object, object]:
    """The values of column ``algorithm`` that name ``a`` and ``b`` (a name's
    ``str`` finds it too), or a ``ValueError`` naming the argument and the
    algorithms there are.

    Examples
    --------
    >>> long = pd.DataFrame({"algorithm": [1, 2], "score": [0.8, 0.9]})
    >>> pair_of_algorithms(long, "algorithm", "1", 2)
    (np.int64(1), np.int64(2))
    >>> pair_of_algorithms(long, "algorithm", 1, "svm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: b='svm' is not an algorithm ...; the algorithms are ['1', '2'].
    """
    present = {str(v): v for v in pd.unique(data[algorithm])}
    for label, name in (("a", a), ("b", b)):
        if str(name) not in present:
            raise ValueError(
                f"{label}={name!r} is not an algorithm in column {algorithm!r}; "
                f"the algorithms are {sorted(present)}."
            )
    return present[str(a)], present[str(b)]


#: The names a public function gives its table argument.
_TABLE_ARGUMENTS = ("scores", "data")


def table_argument() -> str:
    """The name the public function called gives its table argument
    (``scores`` or ``data``): the outermost nbstats frame on the stack that
    has one, so that a message about a bad table names the argument the user
    passed, whichever function reads it."""
    frame = sys._getframe(1)
    name = "scores"
    while frame is not None and frame.f_globals.get("__name__", "").startswith(
        "nbstats"
    ):
        code = frame.f_code
        arguments = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        found = [a for a in _TABLE_ARGUMENTS if a in arguments]
        if found and not code.co_name.startswith("_"):
            name = found[0]
        frame = frame.f_back
    return name


def check_index_names(data: pd.DataFrame, columns: Sequence[object]) -> None:
    """Refuse long data whose index is named like one of its used columns."""
    clash = [c for c in columns if c is not None and c in data.index.names]
    if clash:
        raise ValueError(
            f"{clash[0]!r} names both a column and the index of the long table; "
            "drop the index (data.reset_index(drop=True)) or rename it "
            "(data.rename_axis(None))."
        )


def _exact_mean(values: pd.Series) -> float:
    # divided by a power of two first (exact), so the sum cannot overflow
    scale = power_of_two_scale(values.to_numpy(dtype=float))
    return math.fsum(values.to_numpy(dtype=float) / scale) / len(values) * scale
