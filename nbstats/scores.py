"""The one input model: score tables, their validation, direction and ranks.

A *score table* has one row per case (data set, problem instance, …) and one
column per algorithm. Every statistic in nbstats reads its data through this
module, so every function refuses the same bad input with the same message.

Ranks are always **1 = best**, ties get the average of the ranks they span
(Demšar's convention); ``higher_is_better=False`` is the same as negating every
score.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from nbstats import _scipy_stats as sps
from nbstats.dtypes import real_scores
from nbstats.names import check_names, lookalike_key

__all__ = ["fold_summary", "incomplete_table", "mean_ranks", "ranks", "score_table"]

NanPolicy = Literal["raise", "omit", "pairwise"]
Aggregate = Literal["mean", "median"] | None

_MAX_CELLS_SHOWN = 8


def score_table(
    data: pd.DataFrame | np.ndarray | Sequence[Sequence[float]],
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    fold: str | Sequence[str] | None = None,
    aggregate: Aggregate = None,
    nan_policy: NanPolicy = "raise",
) -> pd.DataFrame:
    """Validate scores and return them as a wide score table.

    Parameters
    ----------
    data : DataFrame or 2-D array-like
        Either a *wide* table (rows = cases, columns = algorithms) or, when
        ``case``, ``algorithm`` and ``score`` are given, a *long* ("tidy") table
        with one row per (case, algorithm[, fold]).
    case, algorithm, score : str, optional
        Column names of a long table. Give all three or none.
    fold : str or sequence of str, optional
        Long data with per-fold scores (cross-validation): the column(s) that
        name a fold, e.g. ``"fold"`` or ``["run", "fold"]`` for repeated
        k-fold. Every algorithm must have the same folds on a case, and each
        (case, algorithm, fold) must appear once; the folds of each case are
        then combined by ``aggregate`` (default ``"mean"``). See
        :func:`fold_summary` for the number of folds.
    aggregate : {None, "mean", "median"}
        How to combine several rows of the same (case, algorithm), e.g. the
        folds of a cross-validation. ``None`` refuses duplicated rows (with
        ``fold``, ``None`` means ``"mean"``).
    nan_policy : {"raise", "omit"}
        ``"raise"`` refuses missing scores and names the cells; ``"omit"`` drops
        every case with a missing score and warns how many were dropped.
        ``"pairwise"`` is refused here: a score table is the input of methods
        that need every case complete; the methods that compare each pair on
        its own cases take it (see :func:`nbstats.missing.pairwise_table`).

    Returns
    -------
    DataFrame
        A new float64 table: index = cases, columns = algorithms. Long data
        keeps its column names as the axis names; otherwise unnamed axes are
        named ``"case"`` and ``"algorithm"`` (``"case_name"`` when an
        algorithm is called ``"case"``, ``"algorithm_name"`` when the index
        is called ``"algorithm"``). The input is never modified.

    Raises
    ------
    ValueError
        Missing or infinite scores, duplicated names, fewer than 2 algorithms
        or 2 cases, unknown columns, duplicated long rows without ``aggregate``.
    TypeError
        Non-numeric score columns.

    Examples
    --------
    >>> import nbstats
    >>> long = pd.DataFrame({"data": ["d1", "d1", "d2", "d2"],
    ...                      "algo": ["A", "B", "A", "B"],
    ...                      "acc": [0.8, 0.9, 0.7, 0.75]})
    >>> nbstats.score_table(long, case="data", algorithm="algo", score="acc")
    algo    A     B
    data
    d1    0.8  0.90
    d2    0.7  0.75
    """
    check_complete_policy(nan_policy)
    long_args = {"case": case, "algorithm": algorithm, "score": score}
    if any(v is not None for v in long_args.values()):
        missing = [k for k, v in long_args.items() if v is None]
        if missing:
            raise ValueError(
                "long data needs all of case=, algorithm= and score=; missing: "
                + ", ".join(f"{m}=" for m in missing)
                + ". For a wide table (rows = cases, columns = algorithms) "
                "give none of them."
            )
        if fold is not None:
            check_folds(data, case=case, algorithm=algorithm, fold=fold)
            aggregate = "mean" if aggregate is None else aggregate
        wide = _pivot_long(data, case, algorithm, score, aggregate)
    else:
        if fold is not None:
            raise ValueError(
                "fold= only applies to long data; also give case=, algorithm= "
                "and score= to name its columns."
            )
        if aggregate is not None:
            raise ValueError(
                "aggregate= only applies to long data; also give case=, "
                "algorithm= and score= to name its columns."
            )
        wide = _as_wide_frame(data)
    return _validate_wide(wide, nan_policy=nan_policy)


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
) -> tuple[np.ndarray, str, str]:
    """Validate two paired score vectors; return ``d`` (> 0 where b is better).

    Returns
    -------
    d : ndarray
        ``b - a`` when higher is better, ``a - b`` otherwise.
    name_a, name_b : str
        Names taken from Series names, else ``"a"`` and ``"b"``.
    """
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    if nan_policy == "pairwise":  # one pair: its complete cases are the omitted
        nan_policy = "omit"
    check_flag("higher_is_better", higher_is_better)
    name_a = _series_name(a, "a")
    name_b = _series_name(b, "b")
    if name_a == name_b:
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
    frame = pd.DataFrame({name_a: va, name_b: vb})
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
    return d, name_a, name_b


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


def _series_name(x: object, default: str) -> str:
    name = getattr(x, "name", None)
    return default if name is None else str(name)


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
    if isinstance(data, pd.Series):
        raise ValueError(
            "a score table needs one column per algorithm, got a Series; for "
            "two algorithms use the two-sample functions, e.g. "
            "nbstats.wilcoxon(a, b), or pass a DataFrame."
        )
    # a list keeps its values' types: [[True, 2]] must not become [[1, 2]]
    arr = np.asarray(data, dtype=object if isinstance(data, list | tuple) else None)
    if arr.ndim != 2:
        raise ValueError(
            f"a score table must be 2-D (rows = cases, columns = algorithms), "
            f"got an array of shape {arr.shape}."
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
            "long data (case=, algorithm=, score=) must be a DataFrame, got "
            f"{type(data).__name__}."
        )
    check_choice("aggregate", aggregate, (None, "mean", "median"))
    unknown = [c for c in (case, algorithm, score) if c not in data.columns]
    if unknown:
        raise ValueError(
            f"column(s) {unknown} not found; the table has columns "
            f"{list(data.columns)}."
        )
    _check_index_names(data, (case, algorithm, score))
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


def _check_index_names(data: pd.DataFrame, columns: Sequence[object]) -> None:
    """Refuse long data whose index is named like one of its used columns."""
    clash = [c for c in columns if c is not None and c in data.index.names]
    if clash:
        raise ValueError(
            f"{clash[0]!r} names both a column and the index of the long table; "
            "drop the index (data.reset_index(drop=True)) or rename it "
            "(data.rename_axis(None))."
        )


def incomplete_table(
    data: pd.DataFrame | np.ndarray | Sequence[Sequence[float]],
) -> pd.DataFrame:
    """Validate a wide score table and keep its missing cells (NaN).

    Everything :func:`score_table` checks is checked (names, numbers, finite
    values, at least two algorithms and two cases); a missing score stays NaN
    instead of being refused. For the methods built for incomplete designs
    (Skillings–Mack, Durbin, partial rankings, pairs on their shared cases).

    Parameters
    ----------
    data : DataFrame or 2-D array-like
        Rows = cases, columns = algorithms; NaN (or None, pd.NA) marks a
        missing score.

    Returns
    -------
    DataFrame
        A new float64 table.

    Examples
    --------
    >>> incomplete_table([[0.9, None], [0.7, 0.6]]).isna().sum().sum()
    np.int64(1)
    """
    return _validate_wide(_as_wide_frame(data), nan_policy="raise", keep_nan=True)


def _exact_mean(values: pd.Series) -> float:
    # divided by a power of two first (exact), so the sum cannot overflow
    scale = power_of_two_scale(values.to_numpy(dtype=float))
    return math.fsum(values.to_numpy(dtype=float) / scale) / len(values) * scale


def _validate_wide(
    frame: pd.DataFrame,
    *,
    nan_policy: NanPolicy,
    min_algorithms: int = 2,
    keep_nan: bool = False,
) -> pd.DataFrame:
    if frame.columns.has_duplicates:
        dup = list(frame.columns[frame.columns.duplicated()].unique())
        raise ValueError(
            f"algorithm names must be unique, {dup} appear more than once; "
            f"rename the columns."
        )
    if frame.index.has_duplicates:
        dup = list(frame.index[frame.index.duplicated()].unique()[:5])
        raise ValueError(
            f"case names must be unique, {dup} appear more than once; make the "
            f"index unique (e.g. reset_index()) or aggregate repeated rows."
        )
    check_names(frame)
    table = pd.DataFrame(
        {
            j: real_scores(frame.iloc[:, j], f"column {name!r}")
            for j, name in enumerate(frame.columns)
        },
        index=frame.index.copy(),
    )
    table.columns = frame.columns.copy()
    table.index.name = table.index.name or _free_name("case", table.columns)
    table.columns.name = table.columns.name or _free_name(
        "algorithm", [table.index.name]
    )
    values = table.to_numpy()
    infinite = np.isinf(values)
    if infinite.any():
        raise ValueError(
            "scores must be finite; infinite values at "
            + _describe_cells(table, infinite)
            + ". Replace them with a finite score or drop those cases."
        )
    missing = np.isnan(values)
    if missing.any() and not keep_nan:
        if nan_policy == "raise":
            raise ValueError(
                "missing scores at "
                + _describe_cells(table, missing)
                + ". Fill them, drop those cases, or pass nan_policy='omit' to "
                "drop every incomplete case."
            )
        incomplete = missing.any(axis=1)
        warnings.warn(
            f"nan_policy='omit': dropped {int(incomplete.sum())} of "
            f"{len(table)} cases with missing scores.",
            UserWarning,
            stacklevel=3,
        )
        table = table.loc[~incomplete]
    n_cases, n_algorithms = table.shape
    if n_algorithms < min_algorithms:
        raise ValueError(
            f"need at least {min_algorithms} algorithms (columns) to compare, "
            f"got {n_algorithms}."
        )
    if n_cases < 2:
        raise ValueError(
            f"need at least 2 cases (rows) to compare algorithms, got {n_cases}"
            + (
                " after dropping incomplete cases."
                if missing.any() and not keep_nan
                else "."
            )
        )
    return table


def _free_name(base: str, taken: Sequence[object]) -> str:
    """``base``, or ``base_name``, ``base_name2``, … if a name in ``taken``
    looks like it: the default name of an unnamed axis must not clash with an
    algorithm called ``"case"`` when the table becomes a CSV or a long table.
    """
    keys = {lookalike_key(str(t)) for t in taken}
    candidates = (
        base if i == 0 else f"{base}_name{'' if i == 1 else i}"
        for i in range(len(keys) + 2)
    )
    return next(c for c in candidates if c not in keys)


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
    _check_index_names(data, (case, algorithm, *columns))
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


def _describe_cells(table: pd.DataFrame, mask: np.ndarray) -> str:
    rows, cols = np.nonzero(mask)
    cells = [
        f"({table.index[r]!r}, {table.columns[c]!r})"
        for r, c in zip(rows[:_MAX_CELLS_SHOWN], cols[:_MAX_CELLS_SHOWN], strict=True)
    ]
    more = len(rows) - len(cells)
    return (
        "(case, algorithm) "
        + ", ".join(cells)
        + (f" and {more} more" if more > 0 else "")
    )


def check_complete_policy(nan_policy: object) -> None:
    """Refuse ``nan_policy="pairwise"`` for a method that needs complete cases.

    The message names the public function the user called: the outermost
    nbstats frame on the stack (e.g. ``friedman``), so that every method of
    that kind refuses with its own name without passing it down.
    """
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    if nan_policy != "pairwise":
        return
    method = "this method"
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith(
        "nbstats"
    ):
        if not frame.f_code.co_name.startswith(("_", "<")):
            method = frame.f_code.co_name
        frame = frame.f_back
    raise ValueError(
        f"nan_policy='pairwise' compares each pair of algorithms on the cases "
        f"where both have a score, but {method} uses every algorithm on the same "
        "cases (it ranks or models them together). Pass nan_policy='omit' to drop "
        "the incomplete cases, or use a method that compares pairs separately: "
        "posthoc(method='wilcoxon'|'sign'|'ttest') or bayes_signrank_pairs."
    )


def check_choice(name: str, value: object, choices: Sequence[object]) -> None:
    if value not in choices:
        raise ValueError(
            f"unknown {name}={value!r}; choose one of "
            + ", ".join(repr(c) for c in choices)
            + "."
        )


def check_flag(name: str, value: object) -> None:
    """Refuse non-booleans: a string such as "no" would silently count as True."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")
