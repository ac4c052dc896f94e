"""Fold columns of long score data: which columns tell the folds apart, and
which of two counts the runs (``--fold run,fold``), told from the data (the
fold column is nested within the run column) or else from the names."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from nbstats.io.options import FOLD_COLUMNS, FOLD_NAMES, RUN_NAMES

__all__ = ["check_fold_order", "recognise_folds"]


def _nested(raw: pd.DataFrame, keys: list[str], inner: str, outer: str) -> bool:
    """Whether each value of ``inner`` lies within one value of ``outer``
    (per case and algorithm), as fold numbers that go on across runs do."""
    counts = raw.groupby([*keys, inner], sort=False, dropna=False)[outer].nunique(
        dropna=False
    )
    return bool(counts.max() <= 1)


def _run_and_fold(
    raw: pd.DataFrame, keys: list[str], first: str, second: str
) -> tuple[tuple[str, str] | None, str]:
    """``((run column, fold column), why)`` from the data, else from the names;
    ``(None, why not)`` when neither tells."""
    first_in = _nested(raw, keys, first, second)
    second_in = _nested(raw, keys, second, first)
    by_name = None
    kinds = {c: str(c).lower() for c in (first, second)}
    if kinds[first] in RUN_NAMES and kinds[second] in FOLD_NAMES:
        by_name = (first, second)
    elif kinds[first] in FOLD_NAMES and kinds[second] in RUN_NAMES:
        by_name = (second, first)
    if first_in and second_in:
        return None, (
            f"{first!r} and {second!r} tell the same rows apart (each value of "
            "one goes with one value of the other), so neither counts the runs"
        )
    if first_in or second_in:
        found = (second, first) if first_in else (first, second)
        if by_name is not None and by_name != found:
            return None, (
                f"the data nest {found[1]!r} within {found[0]!r} (each of its "
                f"values belongs to one {found[0]!r}), but the names say "
                f"{by_name[0]!r} counts the runs"
            )
        return found, f"{found[1]!r} is nested within {found[0]!r}"
    if by_name is not None:
        return by_name, f"by their names: {by_name[0]!r} counts the runs"
    return None, (
        f"every value of {first!r} goes with every value of {second!r}, and "
        "their names do not say which counts the runs"
    )


def recognise_folds(
    raw: pd.DataFrame, *, case: str, algorithm: str, score: str | None = None
) -> tuple[str | list[str] | None, str]:
    """The fold column(s) of long data recognised by name, runs first.

    Only when some (case, algorithm) repeats. Two recognised columns are put
    in the order ``[run, fold]`` from the data (the fold column is the one
    nested within the other: each of its values lies within one run) or,
    when every fold meets every run, from the names (``run``, ``repetition``,
    ``repeat``, ``rep`` vs ``fold``, ``folds``), never from the order of the
    columns in the file. Returns ``(fold keyword or None, how it was told)``;
    raises ``ValueError`` asking for ``--fold RUN,FOLD`` when it cannot tell.

    Examples
    --------
    >>> raw = pd.DataFrame({"data": ["d"] * 4, "algo": ["A"] * 4,
    ...                     "fold": [1, 2, 1, 2], "run": [1, 1, 2, 2],
    ...                     "acc": [0.5, 0.6, 0.7, 0.8]})
    >>> recognise_folds(raw, case="data", algorithm="algo", score="acc")[0]
    ['run', 'fold']
    """
    keys = [case, algorithm]
    if any(k not in raw.columns for k in keys) or not raw.duplicated(keys).any():
        return None, ""
    used = {case, algorithm, score}
    found = [c for c in raw.columns if str(c).lower() in FOLD_COLUMNS and c not in used]
    if len(found) <= 1:
        return (found[0] if found else None), ""
    if len(found) > 2:
        raise ValueError(
            f"columns {found} all look like fold columns; name the ones that "
            "tell the folds apart, the runs' column first, e.g. --fold run,fold "
            "(or --fold fold with --runs N for N runs of k-fold cross-validation)."
        )
    order, why = _run_and_fold(raw, keys, found[0], found[1])
    if order is None:
        raise ValueError(
            f"columns {found[0]!r} and {found[1]!r} both look like fold columns, "
            f"and which one counts the runs cannot be told: {why}. Give them "
            f"with the runs' column first, --fold RUN,FOLD (e.g. --fold "
            f"{found[1]},{found[0]} or --fold {found[0]},{found[1]}), or one of "
            "them with --runs N."
        )
    return list(order), why


def check_fold_order(
    raw: pd.DataFrame, *, case: str, algorithm: str, fold: Sequence[str]
) -> None:
    """Refuse two given fold columns whose order contradicts the data or the
    names: the first counts the runs (``--fold run,fold``).

    Examples
    --------
    >>> raw = pd.DataFrame({"data": ["d"] * 4, "algo": ["A"] * 4,
    ...                     "fold": [1, 2, 3, 4], "run": [1, 1, 2, 2],
    ...                     "acc": [0.5, 0.6, 0.7, 0.8]})
    >>> check_fold_order(raw, case="data", algorithm="algo", fold=["fold", "run"])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --fold fold,run: the first column counts the runs, but ...
    """
    if len(fold) != 2 or any(c not in raw.columns for c in (case, algorithm, *fold)):
        return
    order, why = _run_and_fold(raw, [case, algorithm], fold[0], fold[1])
    if order is not None and list(order) != list(fold):
        raise ValueError(
            f"--fold {fold[0]},{fold[1]}: the first column counts the runs, but "
            f"{why}; pass --fold {order[0]},{order[1]}."
        )
