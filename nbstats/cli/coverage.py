"""``nbstats coverage``: where a score CSV's holes are, and the failed-folds option.

``nbstats coverage scores.csv`` prints :func:`nbstats.coverage` of the CSV
(``-o coverage.html`` writes its HTML, ``.tex`` its LaTeX trade-off table,
``.csv`` the trade-off as data). Long per-fold data is read as by ``nbstats
report``; a cell with a failed fold counts as missing unless ``--min-folds K``
lets the cells with at least K scored folds count.

``--min-folds K`` is also an option of ``report`` and ``analyze``
(:func:`nbstats.score_table`'s ``min_folds``).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

import pandas as pd

from nbstats.io.options import INPUT_OPTIONS, LONG_OPTIONS, add_options, input_size
from nbstats.io.options import integer_at_least as _at_least
from nbstats.scores.folds import cell_list, failed_folds, usable_folds
from nbstats.scores.frames import wide_frame
from nbstats.scores.table import INCOMPLETE_ANALYSES

__all__ = [
    "COVERAGE_WORDS",
    "add_coverage_command",
    "add_min_folds",
    "coverage_text",
    "run_coverage",
]

#: The library's words in the refusals of missing cells and failed folds, as
#: the command line says them.
COVERAGE_WORDS = [
    (
        "nbstats.coverage(scores)",
        "nbstats coverage (on this file, with the same options)",
    ),
    (
        INCOMPLETE_ANALYSES,
        "a report with --nan-policy pairwise (each pair on the cases where both "
        "have a score; Skillings–Mack and the Plackett–Luce ranking on every "
        "case with two scores)",
    ),
    ("nan_policy='pairwise'", "--nan-policy pairwise"),
    ("see nan_policy", "see --nan-policy"),
    ("min_folds=", "--min-folds "),
]

#: What ``-o`` writes, by the file's suffix.
WRITTEN = (".html", ".tex", ".csv")

_MIN_FOLDS_HELP = (
    "per-fold data with failed folds (an absent row or an empty score): "
    "average the folds that exist in each cell with at least K of them; a "
    "cell with fewer is a missing score (see --nan-policy). Without it a "
    "failed fold is refused, naming each cell's count (e.g. 9 of 10 folds). "
    "The report's Methods states how many cells were averaged over fewer "
    "folds; its per-fold tests (--runs) take the same K as the fewest folds "
    "both algorithms of a pair scored on a case"
)

_EPILOG = """\
examples:
  nbstats coverage scores.csv                     # holes, trade-off, analyses
  nbstats coverage scores.csv -o coverage.html    # the same as an HTML page
  nbstats coverage folds.csv --case task --algorithm framework --score acc \\
  --fold fold --min-folds 8                         # cells with >= 8 folds count"""


def add_min_folds(command: Any) -> None:
    """``--min-folds K`` on a command that reads long per-fold data."""
    command.add_argument(
        "--min-folds",
        type=_at_least(1, "a number of folds", "e.g. 8"),
        metavar="K",
        help=_MIN_FOLDS_HELP,
    )


def add_coverage_command(commands: Any, data_help: str = "") -> argparse.ArgumentParser:
    """The ``coverage`` sub-command and its options (``data_help``: how a CSV
    is read, the epilog's second part)."""
    about = (
        "show where a score CSV's missing scores are, which algorithms to leave "
        "out to keep how many complete cases, and which analyses use the "
        "incomplete table as it is"
    )
    command = commands.add_parser(
        "coverage",
        help=about,
        description=textwrap.fill(about[0].upper() + about[1:] + ".", 79),
        epilog=_EPILOG + ("\n\n" + data_help if data_help else ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.set_defaults(parser=command)
    command.add_argument("csv", help="the score CSV (wide, or long with --case ...)")
    command.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="also write the result: .html (a page), .tex (the trade-off "
        "table) or .csv (the trade-off as data)",
    )
    command.add_argument(
        "--method",
        choices=["auto", "exact", "greedy"],
        default="auto",
        help="the trade-off search: exact where cheap, else the best set found, "
        "marked not proven (auto); exact at any cost; or greedy only",
    )
    reading = command.add_argument_group("reading the CSV")
    add_options(reading, INPUT_OPTIONS)
    add_options(reading, {"--max-input": {"type": input_size, "metavar": "SIZE"}})
    long = command.add_argument_group("long data")
    add_options(
        long,
        {k: LONG_OPTIONS[k] for k in ("--case", "--algorithm", "--score", "--fold")},
    )
    add_options(long, {"--aggregate": LONG_OPTIONS["--aggregate"]})
    add_min_folds(long)
    return command


def coverage_table(raw: pd.DataFrame, keywords: dict[str, Any]) -> tuple[Any, str]:
    """The wide table, holes kept, and a note on the failed folds (or "")."""
    if "score" not in keywords:
        return raw, ""
    case, algorithm, score = (keywords[k] for k in ("case", "algorithm", "score"))
    fold = keywords.get("fold")
    aggregate = keywords.get("aggregate")
    if fold is None:
        return wide_frame(raw, case, algorithm, score, aggregate), ""
    minimum = keywords.get("min_folds")
    failed = failed_folds(raw, case=case, algorithm=algorithm, score=score, fold=fold)
    # without --min-folds a cell needs every fold of its case to count
    kept, _ = usable_folds(
        raw, case=case, algorithm=algorithm, score=score, fold=fold,
        min_folds=minimum, refuse=False,
    )  # fmt: skip
    wide = wide_frame(kept, case, algorithm, score, aggregate or "mean")
    wide = wide.reindex(
        index=pd.unique(raw[case]), columns=pd.unique(raw[algorithm])
    ).rename_axis(index=case, columns=algorithm)
    if not len(failed):
        return wide, ""
    short = failed[failed["scored"] < (minimum or sys.maxsize)]
    note = f"{len(failed)} cells have failed folds: {cell_list(failed)}; " + (
        f"{len(short)} with fewer than --min-folds {minimum} count as missing."
        if minimum
        else "they count as missing (--min-folds K counts those with at "
        "least K scored folds)."
    )
    return wide, note


def coverage_text(result: Any) -> str:
    """The command's output: the summary and the advice."""
    return result.summary() + "\n\n" + result.advice()


def run_coverage(args: argparse.Namespace, raw: pd.DataFrame, keywords: dict) -> Any:
    """Print the coverage of the CSV read by the command (and write ``-o``)."""
    from nbstats.stats.coverage import coverage

    if args.output and Path(args.output).suffix.lower() not in WRITTEN:
        args.parser.error(
            f"argument -o/--output: {args.output}: give a file ending in .html, "
            ".tex or .csv (the suffix chooses what is written)."
        )
    table, note = coverage_table(raw, keywords)
    if note:
        print(f"nbstats: note: {note}", file=sys.stderr)
    try:
        result = coverage(table, method=args.method)
    except (ValueError, TypeError) as error:
        kind = TypeError if isinstance(error, TypeError) else ValueError
        raise kind(f"{args.csv}: {error}") from None
    print(coverage_text(result))
    if args.output:
        _write(result, Path(args.output))
        print(f"nbstats: wrote {args.output}")
    return result


def _write(result: Any, path: Path) -> None:
    suffix = path.suffix.lower()
    if suffix == ".html":
        body = result._repr_html_()
        text = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            "<title>nbstats coverage</title></head><body>"
            f"{body}</body></html>\n"
        )
    elif suffix == ".tex":
        text = result.to_latex()
    elif suffix == ".csv":
        frame = result.to_frame()
        frame["left_out"] = ["; ".join(map(str, n)) for n in frame["left_out"]]
        text = frame.to_csv(index=False)
    else:  # refused before any work (run_coverage)
        raise AssertionError(suffix)
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
