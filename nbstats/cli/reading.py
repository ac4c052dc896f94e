"""How the command line reads a score file (or a score source's table) and
the options on its data: long-data columns, folds, ``--aggregate`` and
``--min-folds``; and its one-line notes on stderr."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import pandas as pd

from nbstats.io.csv import check_fold_order, read_csv, recognise_folds


def fold_option(args: argparse.Namespace, raw: pd.DataFrame) -> tuple[Any, str | None]:
    """The ``fold`` keyword (``None``: none) and the note when it is recognised."""
    if args.fold is not None and [f.lower() for f in args.fold] == ["none"]:
        return None, None
    if args.fold is not None:
        missing = [c for c in args.fold if c not in raw.columns]
        if missing:
            raise ValueError(
                f"{args.csv}: --fold: column(s) {missing} not found; the columns "
                f"are {list(raw.columns)}."
            )
        try:
            check_fold_order(
                raw, case=args.case, algorithm=args.algorithm, fold=args.fold
            )
        except ValueError as error:
            raise ValueError(f"{args.csv}: {error}") from None
        return (args.fold[0] if len(args.fold) == 1 else list(args.fold)), None
    try:
        found, why = recognise_folds(
            raw, case=args.case, algorithm=args.algorithm, score=args.score
        )
    except ValueError as error:
        rows = f"repeated ({args.case}, {args.algorithm}) rows"
        raise ValueError(f"{args.csv}: {rows}: {error}") from None
    if found is None:
        return None, None
    how = "median" if args.aggregate == "median" else "mean"
    if isinstance(found, str):
        taken = f"{found!r} as the fold column"
        option = found
    else:
        taken = (
            f"{found[0]!r} as the runs and {found[1]!r} as the folds within a "
            f"run ({why})"
        )
        option = ",".join(map(str, found))
    told = (
        f"repeated ({args.case}, {args.algorithm}) rows: taking {taken} (the "
        f"{how} of each algorithm's scores per case, as --fold {option}; "
        "--fold none turns this off)."
    )
    return found, told


def read_data(
    args: argparse.Namespace, command: argparse.ArgumentParser
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Read the CSV and the options on its data: ``(raw data, keywords)``
    (long-data columns, folds, ``--aggregate``, ``--min-folds``), without
    validating the scores."""
    long = {"case": args.case, "algorithm": args.algorithm, "score": args.score}
    is_long = args.algorithm is not None or args.score is not None
    missing = [f"--{k}" for k, v in long.items() if v is None]
    if is_long and missing:
        command.error(
            f"argument {missing[0]}: long data needs --case, --algorithm and "
            f"--score (the CSV's columns); missing: {', '.join(missing)}."
        )
    per_fold = {"--fold": args.fold, "--aggregate": args.aggregate}
    per_fold["--runs"] = getattr(args, "runs", None)
    per_fold["--min-folds"] = getattr(args, "min_folds", None)
    given = [option for option, value in per_fold.items() if value is not None]
    if not is_long and given:
        option = given[0]
        command.error(
            f"argument {option}: applies to long data; also give --case, "
            "--algorithm and --score (the CSV's columns of cases, algorithms "
            "and scores)."
        )
    if args.no_case_column and args.case is not None:
        command.error(
            "argument --no-case-column: not with --case, which names the column "
            "of cases (and long data has one); give one or the other."
        )
    raw, sep = read_input(args, long if is_long else None)
    if args.sep == "auto":
        note(f"--sep auto: the separator of {args.csv} is {shown_separator(sep)}.")
    keywords: dict[str, Any] = dict(long) if is_long else {}
    if is_long:
        fold, told = fold_option(args, raw)
        if told:
            note(told)
        if fold is not None:
            keywords["fold"] = fold
    if args.aggregate is not None:
        keywords["aggregate"] = args.aggregate
    if getattr(args, "min_folds", None) is not None:
        if "fold" not in keywords:
            command.error(
                "argument --min-folds: applies to per-fold data; give --fold "
                "COLUMN(S) (no fold column was recognised)."
            )
        keywords["min_folds"] = args.min_folds
    return raw, keywords


def read_input(
    args: argparse.Namespace, long: dict[str, Any] | None
) -> tuple[pd.DataFrame, str]:
    """The long table of a score source (:mod:`nbstats.cli.sources`), else
    the checked CSV."""
    frame = getattr(args, "source_frame", None)
    if frame is not None:
        return frame, ","
    return read_csv(
        args.csv,
        sep=args.sep,
        encoding=args.encoding,
        case=args.case,
        no_case_column=args.no_case_column,
        long=long,
        max_bytes=args.max_input,
    )


def shown_separator(sep: str) -> str:
    return "tab" if sep == "\t" else repr(sep)


def note(text: str) -> None:
    print(f"nbstats: note: {text}", file=sys.stderr)
