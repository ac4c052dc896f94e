"""The options of the ``nbstats`` command: their types, help texts and parser.

Each option of ``report`` and ``analyze`` is an argument of
:func:`nbstats.report.report`; the values are checked here (an error names the
option and the fix) and the help lists every option with an example.
"""

from __future__ import annotations

import argparse
import codecs
import re
import textwrap
from typing import Any

from nbstats.report.settings import check_title
from nbstats.widgets import serve as dashboard_server

#: Column names (any case) recognised as the folds within a run ...
FOLD_NAMES = ("fold", "folds")
#: ... and as the runs (repetitions) of the cross-validation.
RUN_NAMES = ("run", "runs", "repetition", "repetitions", "repeat", "repeats", "rep")
#: Every column name recognised as a fold column.
FOLD_COLUMNS = FOLD_NAMES + RUN_NAMES

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
  --runs 10                                         # per-fold tests""",
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


def _seed(text: str) -> int | str:
    if text.lower() == "random":
        return "random"
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a seed; give an integer >= 0, or 'random'."
        )
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a count; give an integer >= 1, e.g. 10."
        )
    return value


def _analyses(text: str) -> list[str]:
    chosen = [a.strip().lower() for a in text.split(",") if a.strip()]
    unknown = [a for a in chosen if a not in ANALYSES]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(
            f"{text!r}: choose one or more of {', '.join(ANALYSES)} "
            "(comma-separated or repeated)."
        )
    return chosen


def _alias(text: str) -> tuple[str, str]:
    name, sep, alias = text.rpartition("=")
    if not sep or not name.strip() or not alias.strip():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME=ALIAS; give e.g. "
            "'HistGradientBoostingClassifier(max_iter=300)=HGB' (split at the "
            "last '=')."
        )
    return name.strip(), alias.strip()


def _separator(text: str) -> str:
    named = {"auto": "auto", "tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";"}
    if text.lower() in named:
        return named[text.lower()]
    if len(text) != 1 or text in '"\r\n' or text.isalnum():
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a separator; give one character such as ';' or "
            "'|', tab, or auto."
        )
    return text


def _encoding(text: str) -> str:
    try:
        codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(
            f"unknown encoding {text!r}; give e.g. utf-8, latin-1, cp1252 or utf-16."
        ) from None
    return text


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


def _columns(text: str) -> list[str]:
    names = [c.strip() for c in text.split(",") if c.strip()]
    if not names:
        raise argparse.ArgumentTypeError(
            "give a column name, a comma-separated list such as run,fold, or none."
        )
    return names


# -- the options ----------------------------------------------------------------

#: Every option's help: ``--option`` at the start of a line, then its text;
#: indented lines continue it.
_HELP_TEXT = """\
-o (demo)     where to write the report; the suffix (.html, .pdf, .tex, .ipynb)
              gives the format (default: nbstats-demo.html)
--text        print the frequentist analysis of Tables 2 and 6 instead
-o            the report's file (default: the CSV's name with the format's
              suffix, .html without --format)
--format      default: from the suffix of --output, else html
--detail      report: the report's text, same decisions (default); frequentist:
              every frequentist test and post-hoc procedure; auto: the
              automatic analysis (assumptions checked, tests chosen, each
              choice explained, a paragraph for a paper)
--control     --detail frequentist: the algorithm compared with the others
              (default: the worst-ranked)
csv           the score CSV, wide or long (see 'data' below)
--title       the report's title (default: 'Statistical comparison of m
              algorithms on n cases')
--lower-is-better  lower scores are better (errors, run times); default: higher
--analyses    which analyses: frequentist, bayesian, ranks, comma-separated or
              repeated (default: all three)
--alpha       significance level of the frequentist tests and the rank
              intervals (default: 0.05)
--gamma       1 - G is the credible level of the Bayesian Friedman test and
              the joint Bayesian statements (default: 0.05)
--s           prior strength of every Bayesian analysis, >= 0 (default: each
              test's own: (√17 − 3)/2 for the signed-rank tests, 1 for the
              Bayesian Friedman test and joint statements; 0: the Bayesian
              bootstrap)
--prior       prior of the Bayesian signed-rank tests: idp, the near-ignorance
              prior (lower and upper probabilities; default); bb, the Bayesian
              bootstrap (s -> 0); point, a pseudo-observation of strength --s
              at a zero difference (s = 0.5 unless given)
--rope        half-width of the region of practical equivalence of the
              Bayesian signed-rank tests, in score units (default: 0)
--loss        losses of a Type II and a Type I error, as l0:l1 or l0,l1; an
              algorithm is decided better when its posterior probability of
              being better exceeds l1/(l0+l1) (default: 1:19, i.e. 0.95)
--seed        seed of every Monte Carlo computation: an integer >= 0, or
              'random' for a fresh one, which the output states (default: 0)
--nan-policy  missing scores: raise refuses them and names the cells
              (default); omit drops every incomplete case and says which;
              pairwise (report, analyze) also tests each pair on all the
              cases where both have a score
--aliases     short names A, B, … in tables and figures, with a legend: auto
              when the longest name has more than 20 characters (default), on
              always, off never
--alias       your own short name of one algorithm, split at the last '=';
              repeat it for several; the others keep their names
--alias-file  a text file of NAME=ALIAS lines (blank lines and # comments are
              skipped), read as --alias options
--layout      auto: by the number of algorithms m (2: two-sample tests, 3 to 12:
              standard, more: compact, with the full tables in an appendix);
              standard or compact forces one for m >= 3 (default: auto)
--case        the column of case names: of long data, or of a wide CSV whose
              case names are not its first column or are numbers (see 'data'
              below)
--no-case-column  a wide CSV without case names: every column is an algorithm,
              the rows are numbered 1, 2, ...
--sep         the CSV's field separator: one character, tab, or auto (guessed
              among , ; tab | from the first 64 KB, with a note) (default: comma)
--encoding    the CSV's text encoding, e.g. latin-1, cp1252, utf-16 (default:
              utf-8, with or without a byte-order mark)
--algorithm   the column of algorithm names
--score       the column of scores
--fold        the fold column(s), e.g. fold or run,fold (the runs' column
              first): each algorithm's scores are averaged per case; none: no
              fold column (default: recognised, see 'data' below)
--runs       per-fold data: how many runs (repetitions) of k-fold
              cross-validation made each case's folds (k = folds per case /
              N); with it, or with --fold run,fold, the report also tests each
              case on its own folds (corrected resampled and Bayesian
              correlated t-tests)
--aggregate   how repeated rows of a case and algorithm are combined (default:
              the mean over --fold, refused without one)
--score-unit  the unit of the scores, e.g. 'percentage points': the report
              states the rope in it (default: "in the scores' units")
--core        write only the part that goes into a paper: the ranked summary,
              Figure 1 (the critical-difference diagram) and the results
              paragraph, two PDF pages at most
--hierarchical  per-fold data with --runs: also the Bayesian hierarchical test
              across data sets (Corani et al. 2017) of the first three pairs;
              tens of seconds a pair; needs pip install 'nbstats[hierarchical]'
"""


def _parse_help(text: str) -> dict[str, str]:
    helps: dict[str, str] = {}
    key = ""
    for line in text.splitlines():
        if line.startswith(" "):
            helps[key] += " " + line.strip()
        else:
            key, rest = re.match(r"(\S+(?: \(\w+\))?)\s+(.*)", line).groups()
            helps[key] = rest
    return helps


_HELP = _parse_help(_HELP_TEXT)

#: The report's options (both ``report`` and ``analyze``): argparse settings.
_ANALYSIS_OPTIONS: dict[str, dict[str, Any]] = {
    "csv": {},
    "--title": {"type": _title, "metavar": "TEXT"},
    "--lower-is-better": {"action": "store_true"},
    "--analyses": {"action": "append", "type": _analyses, "metavar": "LIST"},
    "--alpha": {"type": _level, "metavar": "A"},
    "--gamma": {"type": _level, "metavar": "G"},
    "--s": {"type": _nonnegative, "metavar": "S"},
    "--prior": {"choices": ["idp", "bb", "point"]},
    "--rope": {"type": _nonnegative, "metavar": "R"},
    "--loss": {"type": _loss, "metavar": "L0:L1"},
    "--seed": {"type": _seed, "metavar": "N"},
    "--nan-policy": {"choices": ["raise", "omit", "pairwise"]},
    "--aliases": {"choices": ["auto", "on", "off"]},
    "--alias": {"action": "append", "type": _alias, "metavar": "NAME=ALIAS"},
    "--alias-file": {"metavar": "FILE"},
    "--layout": {"choices": ["auto", "standard", "compact"]},
    "--score-unit": {"type": _unit, "metavar": "TEXT"},
}
#: How the CSV is read (both commands).
_INPUT_OPTIONS: dict[str, dict[str, Any]] = {
    "--sep": {"type": _separator, "default": ",", "metavar": "CHAR"},
    "--encoding": {"type": _encoding, "default": "utf-8", "metavar": "NAME"},
    "--no-case-column": {"action": "store_true"},
}
_LONG_OPTIONS: dict[str, dict[str, Any]] = {
    "--case": {"metavar": "COL"},
    "--algorithm": {"metavar": "COL"},
    "--score": {"metavar": "COL"},
    "--fold": {"type": _columns, "metavar": "COLS"},
    "--aggregate": {"choices": ["mean", "median"]},
    "--runs": {"type": _positive_int, "metavar": "N"},
    "--hierarchical": {"action": "store_true"},
}


def _add(command: Any, options: dict[str, dict[str, Any]], key: str = "") -> None:
    for option, settings in options.items():
        flags = ["-o", option] if option == "--output" else [option]
        command.add_argument(*flags, help=_HELP[key or option], **settings)


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
    _add(demo, {"--output": demo_output}, "-o (demo)")
    _add(demo, {"--text": {"action": "store_true"}})
    report = _subparser(
        commands, "report", "write a report (HTML, PDF, TeX or notebook) of a score CSV"
    )
    _add(report, {"--output": {"metavar": "FILE"}}, "-o")
    _add(report, {"--format": {"choices": ["html", "pdf", "tex", "ipynb"]}})
    _add(report, {"--core": {"action": "store_true"}})
    analyze = _subparser(
        commands,
        "analyze",
        "print the report's analysis of a score CSV as text (same options, "
        "same decisions)",
    )
    _add(analyze, {"--detail": {"choices": ["report", "frequentist", "auto"]}})
    _add(analyze, {"--control": {"metavar": "NAME"}})
    for command in (report, analyze):
        _add(command, _ANALYSIS_OPTIONS)
        _add(command.add_argument_group("reading the CSV"), _INPUT_OPTIONS)
        _add(command.add_argument_group("long data"), _LONG_OPTIONS)
    dashboard = _subparser(
        commands,
        "dashboard",
        "serve a live dashboard of a score CSV on 127.0.0.1 with Voilà "
        "(pip install 'nbstats[dashboard]'); Ctrl-C stops it",
    )
    dashboard_server.add_arguments(dashboard)
    for action in dashboard._actions:  # the same help for the same options
        if not action.help and action.option_strings:
            action.help = _HELP.get(action.option_strings[-1])
    return parser
