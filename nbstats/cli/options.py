"""The options of the ``nbstats`` command: their types, help texts and parser.

Each option of ``report`` and ``analyze`` is an argument of
:func:`nbstats.reporting.report`; the values are checked here (an error names the
option and the fix) and the help lists every option with an example.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from typing import Any

from nbstats.app import server as dashboard_server
from nbstats.cli.coverage import add_coverage_command, add_min_folds
from nbstats.cli.sources import add_source_options
from nbstats.io.options import (
    HELP,
    INPUT_OPTIONS,
    LONG_OPTIONS,
    add_options,
    input_size,
    integer_at_least,
    parse_alias,
)
from nbstats.reporting.settings import check_title

ANALYSES = ("frequentist", "bayesian", "ranks")

_DATA_HELP = """\
data: a wide CSV has a column of case names and one column of scores per
  algorithm. The case names are the column given by --case NAME, else the
  first column when its header is empty or it holds a value that is not a
  number; a named first column of numbers (A,B,C then numbers) is refused:
  pass --case NAME if it names the cases, or --no-case-column if every column
  is an algorithm (the rows are then numbered 1, 2, ...). Duplicated or
  unnamed columns, rows with more or fewer fields than the header and empty
  case names are refused, naming the file and the line. A long CSV has one
  row per (case, algorithm[, fold]) and needs --case, --algorithm and
  --score. With repeated (case, algorithm)
  rows and no --fold, a column named fold or folds, and one named run,
  repetition, repeat or rep (any case) are taken as the fold column(s) and a
  note says so; each algorithm's scores are then averaged over the folds of a
  case (--aggregate median: their median). With two such columns, the one
  nested in the other (each of its values within one value of the other) is
  the fold, else the names tell; if neither does, give --fold RUN,FOLD (the
  runs' column first). --fold none turns the recognition off."""

_EPILOGS = {
    "demo": """\
examples:
  nbstats demo                      # writes nbstats-demo.html
  nbstats demo -o demo.pdf          # the same report as PDF (needs xelatex)
  nbstats demo --text               # the frequentist analysis, as text""",
    "report": """\
examples:
  nbstats report scores.csv                       # writes scores.html
  nbstats report errors.csv --lower-is-better --rope 0.01 -o errors.pdf
  nbstats report folds.csv --case set --algorithm model --score acc --fold run,fold
  nbstats report folds.csv --case set --algorithm model --score acc --fold fold \\
  --runs 10 --rope 0.01 --hierarchical              # per-fold tests too
  nbstats report scores.csv --nan-policy omit --loss 1:9 --seed 7
  nbstats report scores.csv --alias "HistGradientBoostingClassifier(lr=0.1)=HGB"
  nbstats report mlflow:my-experiment --tracking-uri sqlite:///mlflow.db \\
  --case dataset --algorithm model --fold fold --score accuracy  # an MLflow experiment
  nbstats report automl:results.csv --score acc   # AutoML-benchmark results

"""
    + _DATA_HELP,
    "analyze": """\
examples:
  nbstats analyze scores.csv                      # what the report states
  nbstats analyze scores.csv --analyses frequentist --alpha 0.1
  nbstats analyze folds.csv --case set --algorithm model --score acc  # folds found
  nbstats analyze scores.csv --detail frequentist --control C4.5
  nbstats analyze scores.csv --detail auto        # tests chosen and explained

"""
    + _DATA_HELP,
    "dashboard": """\
examples:
  nbstats dashboard scores.csv                    # Bayesian dashboard
  nbstats dashboard scores.csv --kind ranks --port 8866
  nbstats dashboard folds.csv --case set --algorithm model --score acc --fold fold
  nbstats dashboard folds.csv --kind folds --case set --algorithm model --score acc \\
  --runs 10                                         # per-fold tests
  nbstats dashboard mlflow:my-experiment --tracking-uri sqlite:///mlflow.db \\
  --case dataset --algorithm model --fold fold --score accuracy""",
}


# -- option types: each refuses a bad value with the fix -----------------------


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; {what}.") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not finite; {what}.")
    return value


def _level(text: str) -> float:
    value = _number(text, "give a level between 0 and 1, e.g. 0.05")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"{text} is not strictly between 0 and 1; give e.g. 0.05."
        )
    return value


def _nonnegative(text: str) -> float:
    value = _number(text, "give a number >= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative; give a number >= 0.")
    return value


def _loss(text: str) -> tuple[float, float]:
    parts = re.split(r"[:,]", text)
    fix = "give two positive losses l0:l1 (or l0,l1), e.g. 1:19"
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{text!r} is not a pair; {fix}.")
    l0, l1 = (_number(p.strip(), fix) for p in parts)
    if l0 <= 0 or l1 <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} has a loss <= 0; {fix}.")
    return l0, l1


_seed_number = integer_at_least(0, "a seed", "or 'random'")


def _seed(text: str) -> int | str:
    if text.lower() == "random":
        return "random"
    return _seed_number(text)


def _analyses(text: str) -> list[str]:
    chosen = [a.strip().lower() for a in text.split(",") if a.strip()]
    unknown = [a for a in chosen if a not in ANALYSES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"{text!r}: choose one or more of {', '.join(ANALYSES)} "
            "(comma-separated or repeated)."
        )
    return chosen


def _title(text: str) -> str:
    try:
        return check_title(text, what="the title")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _unit(text: str) -> str:
    try:
        return check_title(text, what="--score-unit")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# -- the options ----------------------------------------------------------------

#: The report's options (both ``report`` and ``analyze``): argparse settings.
_ANALYSIS_OPTIONS: dict[str, dict[str, Any]] = {
    "csv": {},
    "--title": {"type": _title, "metavar": "TEXT"},
    "--lower-is-better": {"action": "store_true"},
    "--analyses": {"action": "append", "type": _analyses, "metavar": "LIST"},
    "--alpha": {"type": _level, "metavar": "A"},
    "--threshold": {"type": _level, "metavar": "T"},
    "--s": {"type": _nonnegative, "metavar": "S"},
    "--prior": {"choices": ["idp", "bb", "point"]},
    "--rope": {"type": _nonnegative, "metavar": "R"},
    "--loss": {"type": _loss, "metavar": "L0:L1"},
    "--seed": {"type": _seed, "metavar": "N"},
    "--nan-policy": {"choices": ["raise", "omit", "pairwise"]},
    "--aliases": {"choices": ["auto", "on", "off"]},
    "--alias": {"action": "append", "type": parse_alias, "metavar": "NAME=ALIAS"},
    "--alias-file": {"metavar": "FILE"},
    "--layout": {"choices": ["auto", "standard", "compact"]},
    "--score-unit": {"type": _unit, "metavar": "TEXT"},
}


def _subparser(commands: Any, name: str, help: str) -> argparse.ArgumentParser:
    command = commands.add_parser(
        name,
        help=help,
        description=textwrap.fill(help[0].upper() + help[1:] + ".", 79),
        epilog=_EPILOGS[name],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.set_defaults(parser=command)
    return command


def build_parser() -> argparse.ArgumentParser:
    """The ``nbstats`` argument parser (one sub-parser per command)."""
    parser = argparse.ArgumentParser(
        prog="nbstats",
        description="Which algorithms are really better, and how sure can we be.",
        epilog="'nbstats <command> --help' lists a command's options and examples.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    demo = _subparser(
        commands,
        "demo",
        "write the report on Demšar's Table 6 to nbstats-demo.html "
        "(--text: print the frequentist analysis of Tables 2 and 6 instead)",
    )
    demo_output = {"default": "nbstats-demo.html", "metavar": "FILE"}
    add_options(demo, {"--output": demo_output}, "-o (demo)")
    add_options(demo, {"--text": {"action": "store_true"}})
    report = _subparser(
        commands, "report", "write a report (HTML, PDF, TeX or notebook) of a score CSV"
    )
    add_options(report, {"--output": {"metavar": "FILE"}}, "-o")
    add_options(report, {"--format": {"choices": ["html", "pdf", "tex", "ipynb"]}})
    add_options(report, {"--core": {"action": "store_true"}})
    add_options(
        report, {"--venue": {"choices": ["article", "twocolumn", "ieee", "acm"]}}
    )
    analyze = _subparser(
        commands,
        "analyze",
        "print the report's analysis of a score CSV as text (same options, "
        "same decisions)",
    )
    add_options(analyze, {"--detail": {"choices": ["report", "frequentist", "auto"]}})
    add_options(analyze, {"--control": {"metavar": "NAME"}})
    for command in (report, analyze):
        add_options(command, _ANALYSIS_OPTIONS)
        reading = command.add_argument_group("reading the CSV")
        add_options(reading, INPUT_OPTIONS)
        add_options(reading, {"--max-input": {"type": input_size, "metavar": "SIZE"}})
        long = command.add_argument_group("long data")
        add_options(long, LONG_OPTIONS)
        add_min_folds(long)
        add_source_options(command)
    add_source_options(add_coverage_command(commands, _DATA_HELP))
    dashboard = _subparser(
        commands,
        "dashboard",
        "serve a live dashboard of a score CSV on 127.0.0.1 with Voilà "
        "(pip install 'nbstats[dashboard]'); Ctrl-C stops it",
    )
    dashboard_server.add_arguments(dashboard)
    add_source_options(dashboard)
    for action in dashboard._actions:  # the same help for the same options
        if not action.help and action.option_strings:
            action.help = HELP.get(action.option_strings[-1])
    return parser
