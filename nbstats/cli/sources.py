"""Score sources on the command line: ``nbstats report mlflow:EXPERIMENT``,
``automl:results.csv``, ``openml:runs.csv``.

The input argument of ``report``, ``analyze`` and ``dashboard`` may name a
source instead of a CSV, with a prefix:

- ``mlflow:EXPERIMENT`` (a name or an id) with ``--tracking-uri URI``
  (default: MLflow's own); ``--case``, ``--algorithm`` (and ``--fold``,
  ``--repeat``) name the params or tags, ``--score`` the metric
  (:func:`nbstats.io.read_mlflow`);
- ``automl:results.csv`` and ``openml:runs.csv``: the AutoML benchmark's
  results or an OpenML-style run table, ``--score`` the metric column (or
  metric name); ``--case``/``--algorithm`` the columns, when not the usual
  ones (:func:`nbstats.io.read_automl_benchmark`).

The source is read into its long table (``case``, ``algorithm``, [``repeat``,]
``fold``, ``score``); what the reader left out is printed as a warning; the
table then goes through the same checks and options as a long CSV, with
its folds as ``--fold``. A metric known to be lower-is-better (log-loss,
RMSE) sets ``--lower-is-better``, with a note. ``dashboard`` serves a
snapshot: the long table is written to a CSV in a temporary directory,
removed when the server stops.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "SOURCES",
    "add_source_options",
    "read_source",
    "source_kind",
    "source_snapshot",
]

#: The prefixes of the input argument that name a score source.
SOURCES = ("mlflow", "automl", "openml")

_HELP = {
    "--tracking-uri": "mlflow:EXPERIMENT: the tracking store, e.g. "
    "sqlite:///mlflow.db or http://host:5000 (default: MLflow's own, "
    "MLFLOW_TRACKING_URI)",
    "--repeat": "mlflow:EXPERIMENT: the param or tag naming each run's repeat "
    "of the cross-validation (with --fold)",
    "--missing": "mlflow:EXPERIMENT: finished runs without a name or the "
    "metric: 'raise' refuses them, naming them (default); 'drop' leaves them "
    "out, with a warning",
    "--duplicates": "a source with two runs of the same case, algorithm (and "
    "fold): refused by default; mean, median, first or last combine them",
}


def source_kind(text: str) -> str | None:
    """The source named by the input argument (``"mlflow"``, ...), or None
    for a CSV path."""
    prefix, colon, rest = str(text).partition(":")
    if colon and prefix.lower() in SOURCES and rest:
        return prefix.lower()
    return None


def add_source_options(command: argparse.ArgumentParser) -> None:
    """The options of score sources, in their own group of ``command``."""
    group = command.add_argument_group(
        "score sources (input mlflow:EXPERIMENT, automl:FILE or openml:FILE)"
    )
    group.add_argument("--tracking-uri", metavar="URI", help=_HELP["--tracking-uri"])
    group.add_argument("--repeat", metavar="NAME", help=_HELP["--repeat"])
    group.add_argument(
        "--missing", choices=("raise", "drop"), default=None, help=_HELP["--missing"]
    )
    group.add_argument(
        "--duplicates",
        choices=("mean", "median", "first", "last"),
        default=None,
        help=_HELP["--duplicates"],
    )


#: The readers' keywords in their messages, as the options that set them.
_OPTION_WORDS = (
    ("duplicates='mean', 'median', 'first' or 'last'",
     "--duplicates mean, median, first or last"),
    ("missing='drop'", "--missing drop"),
    ("min_folds=K", "--min-folds K"),
    ("score=", "--score "),
    ("case=", "--case "),
    ("algorithm=", "--algorithm "),
    ("fold=", "--fold "),
)  # fmt: skip


def _option_words(message: str) -> str:
    message = re.sub(r"\b(score|case|algorithm|fold)='([^']*)'", r"--\1 \2", message)
    message = re.sub(
        r" \((each|all) in \.attrs\['\w+'\]( with its reason)?\)", "", message
    )
    for keyword, option in _OPTION_WORDS:
        message = message.replace(keyword, option)
    return message


def _note(text: str) -> None:
    print(f"nbstats: note: {text}", file=sys.stderr)


def _refuse_for(kind: str, args: argparse.Namespace, options: dict[str, str]) -> None:
    for attribute, why in options.items():
        if getattr(args, attribute, None) not in (None, False):
            option = "--" + attribute.replace("_", "-")
            args.parser.error(f"argument {option}: not with {kind}: input; {why}.")


def _read(kind: str, where: str, args: argparse.Namespace) -> pd.DataFrame:
    from nbstats.io import read_automl_benchmark, read_mlflow

    duplicates = getattr(args, "duplicates", None)
    if kind == "mlflow":
        missing = [o for o in ("case", "algorithm", "score") if not getattr(args, o)]
        if missing:
            args.parser.error(
                f"argument --{missing[0]}: mlflow:{where} needs --case and "
                "--algorithm (the params or tags naming each run's data set and "
                "algorithm) and --score (the metric)."
            )
        fold = args.fold
        if fold is not None and len(fold) != 1:
            args.parser.error(
                "argument --fold: mlflow: input takes one param or tag for the "
                "fold; name the repeat's with --repeat."
            )
        return read_mlflow(
            where,
            tracking_uri=getattr(args, "tracking_uri", None),
            case=args.case,
            algorithm=args.algorithm,
            score=args.score,
            fold=None if fold is None else fold[0],
            repeat=getattr(args, "repeat", None),
            missing=getattr(args, "missing", None) or "raise",
            duplicates=duplicates,
        )
    _refuse_for(kind, args, {
        "tracking_uri": "it is for mlflow:", "repeat": "it is for mlflow:",
        "missing": "it is for mlflow:",
        "fold": "the folds are the file's fold (and repeat) columns",
        "no_case_column": "the file is long",
    })  # fmt: skip
    return read_automl_benchmark(
        where,
        score=args.score,
        case=args.case,
        algorithm=args.algorithm,
        duplicates=duplicates,
    )


def read_source(args: argparse.Namespace) -> pd.DataFrame | None:
    """Read the source the input argument names (None for a CSV).

    Sets ``args`` as for its long table (``case``, ``algorithm``, ``score``,
    ``fold``), ``args.source_frame`` to the table, and ``--lower-is-better``
    when the metric is known to be lower-is-better. A reader's errors are
    prefixed with the input argument.
    """
    if getattr(args, "csv", None) is None:  # nbstats demo
        return None
    kind = source_kind(args.csv)
    if kind is None:
        for option in ("tracking_uri", "repeat", "missing", "duplicates"):
            if getattr(args, option, None) is not None:
                flag = "--" + option.replace("_", "-")
                args.parser.error(
                    f"argument {flag}: applies to a score source (mlflow:, "
                    "automl:, openml:), not to a CSV."
                )
        return None
    where = str(args.csv).partition(":")[2]
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            long = _read(kind, where, args)
    except (ValueError, TypeError) as error:
        raise type(error)(f"{args.csv}: {_option_words(str(error))}") from None
    for warning in caught:  # at once: before any refusal of the table
        if issubclass(warning.category, UserWarning):
            text = _option_words(str(warning.message))
            print(f"nbstats: warning: {args.csv}: {text}", file=sys.stderr)
    keywords = long.attrs["score_table"]
    args.case, args.algorithm, args.score = "case", "algorithm", "score"
    fold = keywords.get("fold")
    args.fold = None if fold is None else ([fold] if isinstance(fold, str) else fold)
    metric, higher = long.attrs["metric"], long.attrs["higher_is_better"]
    if higher is False and not args.lower_is_better:
        args.lower_is_better = True
        _note(
            f"{args.csv}: the metric {metric} is lower-is-better: read as with "
            "--lower-is-better."
        )
    elif higher is None and not args.lower_is_better:
        _note(
            f"{args.csv}: the direction of the metric {metric} is not known: "
            "higher is taken as better (pass --lower-is-better if lower is)."
        )
    args.source_frame = long
    return long


def default_output(args: argparse.Namespace, suffix: str) -> str:
    """The report's file for a source: its name, made a file name."""
    where = str(args.csv).partition(":")[2]
    stem = Path(where).stem if source_kind(args.csv) != "mlflow" else where
    name = re.sub(r"[^\w.-]+", "_", stem).strip("._") or "scores"
    return f"{name}{suffix}"


@contextlib.contextmanager
def source_snapshot(args: argparse.Namespace) -> Iterator[Any]:
    """For ``nbstats dashboard``: the source's long table written to a CSV in
    a temporary directory (removed on exit), ``args.csv`` pointing at it."""
    long = read_source(args)
    if long is None:
        yield args
        return
    with tempfile.TemporaryDirectory(prefix="nbstats-source-") as folder:
        path = Path(folder) / default_output(args, ".csv")
        columns = [
            c for c in ("case", "algorithm", "repeat", "fold", "score") if c in long
        ]
        long[columns].to_csv(path, index=False)
        args.csv = str(path)
        yield args
