"""How ``nbstats dashboard`` reads its CSV: the options, checked at start.

The served page's kernel reads the file again (every page load sees the file
as it is then); this module reads it once before Voilà starts, with the same
functions (:func:`nbstats.io.csv.read_csv`, :func:`nbstats.score_table`,
the fold dashboard's :class:`~nbstats.widgets.folds_data.FoldTests`), so a
bad file or a bad combination of options is refused in the terminal, with
one line naming the file and the fix, not in the page.

Imports only the standard library and pandas at import time.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pandas as pd

__all__ = [
    "FoldInput",
    "fold_keyword",
    "load_scores",
    "option_problem",
    "read_folds",
    "read_table",
]

#: ``--fold none``: the report's way of saying "no fold column".
NO_FOLD = ["none"]


def load_scores(
    csv: str | os.PathLike[str],
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
    fold: str | Sequence[str] | None = None,
    nan_policy: str = "raise",
    sep: str = ",",
    encoding: str = "utf-8",
    no_case_column: bool = False,
) -> pd.DataFrame:
    """Read a score CSV as ``nbstats report`` does and validate it.

    The file is checked by :func:`nbstats.io.csv.read_csv` before pandas
    parses it, then validated by :func:`nbstats.score_table`; an error names
    the file (and the line) and the fix. The keywords are the options of
    ``nbstats report``: wide data (no ``algorithm``/``score``) has a column
    of case names -- ``case``, else the first column -- and one column of
    scores per algorithm (``no_case_column=True``: every column is an
    algorithm, rows numbered 1, 2, ...); long data has one row per (case,
    algorithm[, fold]) in the columns ``case``, ``algorithm`` and ``score``,
    repeated rows combined by ``aggregate`` or averaged over the ``fold``
    column(s). ``sep="auto"`` guesses the separator among ``, ; tab |``.

    Returns
    -------
    pandas.DataFrame
        The validated score table (rows = cases, columns = algorithms).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "scores.csv"
    >>> _ = path.write_text("data set;A;B\\nd1;0.5;0.6\\nd2;0.7;0.9\\n")
    >>> load_scores(path, sep=";").shape
    (2, 2)
    >>> _ = path.write_text("case,A,A\\nd1,0.5,0.6\\nd2,0.7,0.9\\n")
    >>> load_scores(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...scores.csv, line 1: duplicated column name 'A' (columns 2 and 3); ...
    """
    table, _ = read_table(
        csv,
        case=case,
        algorithm=algorithm,
        score=score,
        aggregate=aggregate,
        fold=fold,
        nan_policy=nan_policy,
        sep=sep,
        encoding=encoding,
        no_case_column=no_case_column,
    )
    return table


def option_problem(
    case: str | None,
    algorithm: str | None,
    score: str | None,
    aggregate: str | None,
    no_case_column: bool,
    *,
    fold: Sequence[str] | str | None = None,
    runs: int | None = None,
    kind: str = "bayes",
    nan_policy: str = "raise",
) -> tuple[str, str] | None:
    """``(option, problem)`` for a combination the dashboard refuses (the
    report's rules, and the fold dashboard's: long per-fold data, every
    fold kept), else None.

    Examples
    --------
    >>> option_problem(None, None, None, "mean", False)[0]
    '--aggregate'
    >>> option, problem = option_problem("d", "a", "s", "mean", False, kind="folds")
    >>> option, problem.split(";")[0]
    ('--aggregate', 'not with --kind folds, which tests each data set on its own folds')
    """
    is_long = algorithm is not None or score is not None
    if is_long:
        given = {"--case": case, "--algorithm": algorithm, "--score": score}
        missing = [option for option, value in given.items() if value is None]
        if missing:
            return missing[0], (
                "long data needs --case, --algorithm and --score (the CSV's "
                f"columns); missing: {', '.join(missing)}."
            )
    elif kind == "folds":
        return "--kind", (
            "folds needs long per-fold data, one row per (data set, algorithm, "
            "fold): give --case, --algorithm and --score (the CSV's columns), "
            "and --fold if its fold column is not called fold or run."
        )
    else:
        per_fold = {"--aggregate": aggregate, "--fold": fold, "--runs": runs}
        for option, value in per_fold.items():
            if value is not None:
                return option, (
                    "applies to long data; also give --case, --algorithm and "
                    "--score (the CSV's columns of cases, algorithms and scores)."
                )
    if no_case_column and case is not None:
        return "--no-case-column", (
            "not with --case, which names the column of cases (and long data "
            "has one); give one or the other."
        )
    if kind != "folds":
        if runs is not None:
            return "--runs", (
                "applies to --kind folds (runs of k-fold cross-validation); the "
                "other dashboards average the folds (--fold or --aggregate)."
            )
        return None
    if aggregate is not None:
        return "--aggregate", (
            "not with --kind folds, which tests each data set on its own folds; "
            "drop --aggregate (it would average the folds away)."
        )
    if fold is not None and _fold_list(fold) == NO_FOLD:
        return (
            "--fold",
            "--kind folds needs the fold column(s); 'none' says there is none.",
        )
    if nan_policy != "raise":
        return "--nan-policy", (
            "--kind folds needs every fold score (the correlated t-test pairs the "
            "folds); drop --nan-policy and fill or remove the missing scores."
        )
    return None


def _fold_list(fold: Sequence[str] | str) -> list[str]:
    return [fold] if isinstance(fold, str) else [str(f) for f in fold]


def fold_keyword(fold: Sequence[str] | str | None) -> str | list[str] | None:
    """The library's ``fold=``: one name, a list, or None (``--fold none``)."""
    if fold is None:
        return None
    names = _fold_list(fold)
    if [name.lower() for name in names] == NO_FOLD:
        return None
    return names[0] if len(names) == 1 else names


def _check(problem: tuple[str, str] | None) -> None:
    if problem is not None:
        raise ValueError(f"{problem[0]}: {problem[1]}")


def _read_raw(csv: str | os.PathLike[str], data: dict[str, Any]) -> tuple:
    """``(raw frame, separator, is_long)``, by :func:`nbstats.io.csv.read_csv`."""
    from nbstats.io.csv import read_csv

    long = {key: data[key] for key in ("case", "algorithm", "score")}
    is_long = long["algorithm"] is not None
    raw, found = read_csv(
        os.fspath(csv),
        sep=data["sep"],
        encoding=data["encoding"],
        case=data["case"],
        no_case_column=data["no_case_column"],
        long=long if is_long else None,
    )
    return raw, found, is_long


def _named(path: str, error: Exception) -> Exception:
    """The error with the file's name in front, as the report's errors are."""
    kind = TypeError if isinstance(error, TypeError) else ValueError
    return kind(f"{path}: {error}")


def read_table(csv: str | os.PathLike[str], **data: Any) -> tuple[pd.DataFrame, str]:
    """The table :func:`load_scores` returns (``data``: its keywords) and the
    separator used (``sep="auto"`` resolved)."""
    from nbstats.scores.table import score_table

    data.setdefault("fold", None)
    _check(
        option_problem(
            data["case"],
            data["algorithm"],
            data["score"],
            data["aggregate"],
            data["no_case_column"],
            fold=data["fold"],
        )
    )
    raw, found, is_long = _read_raw(csv, data)
    keywords: dict[str, Any] = {}
    if is_long:
        keywords = {key: data[key] for key in ("case", "algorithm", "score")}
        keywords["aggregate"] = data["aggregate"]
        fold = fold_keyword(data["fold"])
        if fold is not None:
            keywords["fold"] = fold
    try:
        table = score_table(raw, **keywords, nan_policy=data["nan_policy"])
    except (ValueError, TypeError) as error:
        raise _named(os.fspath(csv), error) from None
    return table, found


class FoldInput:
    """Per-fold data checked for the fold dashboard: what the page is built from.

    Attributes
    ----------
    fold : str or list of str
        The fold column(s), runs first: given, or recognised as ``nbstats
        report`` recognises them (:func:`nbstats.io.csv.recognise_folds`).
    recognised : bool
        Whether ``fold`` was recognised rather than given (the CLI says so).
    runs : int or None
        The runs the design control starts at.
    shape : tuple of int
        (data sets, algorithms).
    folds_per_case : list of int
        The distinct numbers of fold scores per data set.
    """

    def __init__(
        self,
        fold: str | list[str],
        recognised: bool,
        runs: int | None,
        shape: tuple[int, int],
        folds_per_case: list[int],
    ) -> None:
        self.fold, self.recognised, self.runs = fold, recognised, runs
        self.shape, self.folds_per_case = shape, folds_per_case


def read_folds(
    csv: str | os.PathLike[str],
    *,
    case: str | None,
    algorithm: str | None,
    score: str | None,
    fold: Sequence[str] | str | None = None,
    runs: int | None = None,
    higher_is_better: bool = True,
    sep: str = ",",
    encoding: str = "utf-8",
) -> tuple[FoldInput, str]:
    """Check a per-fold CSV as the fold dashboard will read it.

    Returns ``(FoldInput, separator)``. Raises ValueError/TypeError naming
    the file and the fix: options that do not go together, a fold column
    that cannot be found or recognised, unequal or missing folds, a number of
    runs that does not divide the folds.

    Examples
    --------
    >>> import tempfile, nbstats
    >>> from pathlib import Path
    >>> path = Path(tempfile.mkdtemp()) / "folds.csv"
    >>> data = nbstats.datasets.load("uci_accuracy_folds")
    >>> data[data.dataset.isin(["iris", "wine"])].to_csv(path, index=False)
    >>> found, _ = read_folds(
    ...     path, case="dataset", algorithm="classifier", score="accuracy", runs=10
    ... )
    >>> found.fold, found.recognised, found.runs, found.shape, found.folds_per_case
    ('fold', True, 10, (2, 5), [100])
    """
    from nbstats.io.csv import check_fold_order, recognise_folds
    from nbstats.widgets.folds_data import FoldTests

    _check(
        option_problem(
            case, algorithm, score, None, False, fold=fold, runs=runs, kind="folds"
        )
    )
    data = {"case": case, "algorithm": algorithm, "score": score}
    data.update(sep=sep, encoding=encoding, no_case_column=False)
    raw, found, _ = _read_raw(csv, data)
    path = os.fspath(csv)
    keyword = fold_keyword(fold)
    recognised = keyword is None
    try:
        if keyword is None:
            keyword, _ = recognise_folds(
                raw,
                case=case,  # type: ignore[arg-type]
                algorithm=algorithm,  # type: ignore[arg-type]
                score=score,
            )
        else:
            check_fold_order(
                raw,
                case=case,  # type: ignore[arg-type]
                algorithm=algorithm,  # type: ignore[arg-type]
                fold=[keyword] if isinstance(keyword, str) else keyword,
            )
    except ValueError as error:
        raise _named(path, error) from None
    if keyword is None:
        raise ValueError(
            f"{path}: --kind folds: no fold column recognised (fold, folds, run, "
            f"repetition, repeat or rep); name it with --fold COLS, e.g. --fold "
            f"fold or --fold run,fold. The columns are {list(raw.columns)}."
        )
    try:
        tests = FoldTests(
            raw,
            case=case,  # type: ignore[arg-type]
            algorithm=algorithm,  # type: ignore[arg-type]
            score=score,  # type: ignore[arg-type]
            fold=keyword,
            higher_is_better=higher_is_better,
        )
        if runs is None and len(tests.fold_columns) < 2:
            counts = sorted(tests.groups)
            raise ValueError(
                f"--kind folds: say how the {' or '.join(map(str, counts))} fold "
                "scores of each data set were made, since the correction of the "
                "variance depends on it: --runs N for N runs of k-fold "
                f"cross-validation (k = scores / N; --runs 1: one {counts[0]}-fold "
                "cross-validation), or --fold run,fold naming the column of runs too."
            )
        start = tests.initial_runs(None, runs, None)
    except (ValueError, TypeError) as error:
        raise _named(path, error) from None
    shape = (len(tests.cases), len(tests.names))
    return FoldInput(keyword, recognised, start, shape, sorted(tests.groups)), found
