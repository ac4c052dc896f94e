"""The one input model: score tables and their validation.

A *score table* has one row per case (data set, problem instance, …) and one
column per algorithm. Every statistic in nbstats reads its data through this
module, so every function refuses the same bad input with the same message.
Long data and arrays become a wide frame in :mod:`nbstats.scores.frames`,
per-fold data is checked in :mod:`nbstats.scores.folds`, and the argument
checks every function shares are in :mod:`nbstats.util.checks`.

Ranks are in :mod:`nbstats.scores.ranks`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.scores.dtypes import real_scores
from nbstats.scores.folds import (
    cell_list,
    check_folds,
    check_min_folds,
    short_cells_note,
    usable_folds,
)
from nbstats.scores.frames import (  # noqa: F401  (importable from here too)
    Aggregate,
    as_vector,
    power_of_two_scale,
    wide_frame,
)
from nbstats.scores.names import check_names, lookalike_key, name_index
from nbstats.util.checks import check_choice, check_complete_policy

__all__ = ["NanPolicy", "incomplete_table", "score_table"]

NanPolicy = Literal["raise", "omit", "pairwise"]

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
    min_folds: int | None = None,
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
        :func:`fold_summary` for the number of folds. A *failed fold* (its
        row absent, or its score missing) is refused, naming each such cell
        and its count ("9 of 10 folds"), unless ``min_folds`` is given.
    aggregate : {None, "mean", "median"}
        How to combine several rows of the same (case, algorithm), e.g. the
        folds of a cross-validation. ``None`` refuses duplicated rows (with
        ``fold``, ``None`` means ``"mean"``).
    nan_policy : {"raise", "omit"}
        ``"raise"`` refuses missing scores and names the cells; ``"omit"`` drops
        every case with a missing score and warns how many were dropped.
        ``"pairwise"`` is refused here: a score table is the input of methods
        that need every case complete; the methods that compare each pair on
        its own cases take it (see :func:`nbstats.scores.missing.pairwise_table`).

    Returns
    -------
    DataFrame
        A new float64 table: index = cases, columns = algorithms. Long data
        keeps its column names as the axis names; otherwise unnamed axes are
        named ``"case"`` and ``"algorithm"`` (``"case_name"`` when an
        algorithm is called ``"case"``, ``"algorithm_name"`` when the index
        is called ``"algorithm"``). Any hashable name is kept as given: a
        tuple such as ``("RF", 100)`` is one algorithm (or case) name, and a
        MultiIndex (columns or index) becomes the flat Index of its tuples,
        named by the tuple of its level names (:func:`nbstats.scores.names.name_index`);
        every result then carries the tuples. The input is never modified.

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
    check_min_folds(min_folds)
    check_choice("aggregate", aggregate, (None, "mean", "median"))
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
        short = ""
        given = data
        if fold is not None:
            check_folds(data, case=case, algorithm=algorithm, fold=fold, paired=False)
            data, failed = usable_folds(
                data, case=case, algorithm=algorithm, score=score, fold=fold,
                min_folds=min_folds, refuse=nan_policy == "raise",
            )  # fmt: skip
            if min_folds is not None and (failed["scored"] < min_folds).any():
                short = short_cells_note(failed, min_folds)
            told = short.strip() or (
                f"failed folds: {cell_list(failed)} are missing scores (every "
                "fold is needed without min_folds=K)."
                if min_folds is None and len(failed)
                else ""
            )
            if told and nan_policy != "raise":
                # the cells become missing scores: say why before omit drops them
                warnings.warn(told, UserWarning, stacklevel=2)
            aggregate = "mean" if aggregate is None else aggregate
        elif min_folds is not None:
            raise ValueError(
                "min_folds= applies to per-fold data; also give fold= (the "
                "column(s) that name a fold)."
            )
        wide = wide_frame(data, case, algorithm, score, aggregate)
        if data is not given:  # a cell, case or algorithm without folds stays
            wide = wide.reindex(
                index=pd.unique(given[case]), columns=pd.unique(given[algorithm])
            ).rename_axis(index=case, columns=algorithm)
        if short and nan_policy == "raise":
            try:
                return _validate_wide(wide, nan_policy=nan_policy)
            except ValueError as error:
                raise ValueError(short + str(error)) from None
    else:
        if fold is not None or min_folds is not None:
            raise ValueError(
                f"{'fold' if fold is not None else 'min_folds'}= only applies "
                "to long data; also give case=, algorithm= "
                "and score= to name its columns."
            )
        if aggregate is not None:
            raise ValueError(
                "aggregate= only applies to long data; also give case=, "
                "algorithm= and score= to name its columns."
            )
        wide = wide_frame(data)
    return _validate_wide(wide, nan_policy=nan_policy)


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
    return _validate_wide(wide_frame(data), nan_policy="raise", keep_nan=True)


def _validate_wide(
    frame: pd.DataFrame,
    *,
    nan_policy: NanPolicy,
    min_algorithms: int = 2,
    keep_nan: bool = False,
) -> pd.DataFrame:
    # one name axis downstream: a MultiIndex's tuple is one flat name
    if frame.columns.dtype == object or frame.index.dtype == object:
        frame = frame.set_axis(name_index(frame.index), axis=0).set_axis(
            name_index(frame.columns), axis=1
        )
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
            raise ValueError(missing_cells_message(table, missing))
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


#: The analyses that take incomplete tables, as the refusal names them (the
#: command line says it in its own words: ``nbstats.cli.commands``).
INCOMPLETE_ANALYSES = (
    "skillings_mack(scores), the pairwise tests (posthoc, comparison_matrix, "
    "bayes_signrank_pairs with nan_policy='pairwise') and the Plackett–Luce "
    "partial rankings (bayes_plackett_luce(scores, nan_policy='partial'))"
)


def missing_cells_message(table: pd.DataFrame, missing: np.ndarray) -> str:
    """The refusal of missing cells: where they are, what ``nan_policy='omit'``
    would keep, and where to look instead (:func:`nbstats.coverage`, the
    analyses that use incomplete tables as they are).

    Examples
    --------
    >>> t = pd.DataFrame({"A": [1.0, np.nan, 3.0], "B": [2.0, 2.0, 1.0],
    ...                   "C": [0.5, 1.0, 1.5]}, index=["x", "y", "z"])
    >>> print(missing_cells_message(t, t.isna().to_numpy()))  # doctest: +ELLIPSIS
    missing scores at (case, algorithm) ('y', 'A'): 1 missing score in 1 of 3 cases. ...
    """
    n = len(table)
    incomplete = int(missing.any(axis=1).sum())
    cells = int(missing.sum())
    text = (
        "missing scores at "
        + _describe_cells(table, missing)
        + f": {cells:,} missing score{'s' if cells != 1 else ''} in {incomplete} "
        f"of {n} cases."
    )
    if table.shape[1] > 2:
        kept = n - incomplete
        text += (
            f" nan_policy='omit' would drop {incomplete} of the {n} cases and "
            f"keep {kept}"
            + (
                ": more than half of the cases left out, and the complete ones "
                "may be a biased subset (e.g. those on which every slow method "
                "finished)"
                if 2 * incomplete > n
                else ""
            )
            + ". nbstats.coverage(scores) shows the holes per algorithm and "
            "which algorithms to leave out to keep more complete cases; "
            + INCOMPLETE_ANALYSES
            + " use incomplete tables as they are."
        )
    return (
        text + " Fill the cells, leave out algorithms or cases, or pass "
        "nan_policy='omit' to drop every incomplete case."
    )


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
