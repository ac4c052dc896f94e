"""The options shared by the ``nbstats`` command and its dashboard server.

How a score CSV is read (``--sep``, ``--encoding``, the long-data columns),
the fold and run column names, and every option's help text: defined here,
below both :mod:`nbstats.cli.options` and :mod:`nbstats.app.server`, so
that the same option means the same thing in both.
"""

from __future__ import annotations

import argparse
import codecs
import re
from collections.abc import Callable
from typing import Any

__all__ = [
    "FOLD_COLUMNS",
    "FOLD_NAMES",
    "HELP",
    "INPUT_OPTIONS",
    "LONG_OPTIONS",
    "RUN_NAMES",
    "add_options",
    "input_size",
    "integer_at_least",
    "parse_alias",
]

#: Column names (any case) recognised as the folds within a run ...
FOLD_NAMES = ("fold", "folds")
#: ... and as the runs (repetitions) of the cross-validation.
RUN_NAMES = ("run", "runs", "repetition", "repetitions", "repeat", "repeats", "rep")
#: Every column name recognised as a fold column.
FOLD_COLUMNS = FOLD_NAMES + RUN_NAMES


def integer_at_least(minimum: int, what: str, hint: str) -> Callable[[str], int]:
    """An argparse type: an integer >= ``minimum``, else an error naming
    ``what`` the option takes and ``hint`` (an example or what 0 means).

    >>> integer_at_least(1, "a count", "e.g. 10")("3")
    3
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {what}; give an integer >= {minimum}, {hint}."
            )
        return value

    return parse


_positive_int = integer_at_least(1, "a count", "e.g. 10")


def parse_alias(text: str) -> tuple[str, str]:
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


def input_size(text: str) -> int:
    """An argparse type: a size in bytes, e.g. ``512M`` or ``2G``.

    >>> input_size("1G") == 2**30
    True
    """
    from nbstats.io.text import parse_size

    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _columns(text: str) -> list[str]:
    names = [c.strip() for c in text.split(",") if c.strip()]
    if not names:
        raise argparse.ArgumentTypeError(
            "give a column name, a comma-separated list such as run,fold, or none."
        )
    return names


#: Every option's help: ``--option`` at the start of a line, then its text;
#: indented lines continue it.
_HELP_TEXT = """\
-o (demo)     where to write the report; the suffix (.html, .pdf, .tex, .ipynb)
              gives the format (default: nbstats-demo.html)
--text        print the frequentist analysis of Tables 2 and 6 instead
-o            the report's file (default: the CSV's name with the format's
              suffix, .html without --format)
--format      default: from the suffix of --output, else html; an --output
              whose suffix names another format is refused
--detail      report: the report's text, same decisions (default); frequentist:
              every frequentist test and post-hoc procedure; auto: the
              automatic analysis (assumptions checked, tests chosen, each
              choice explained, a paragraph for a paper)
--control     --detail frequentist: the algorithm compared with the others
              (default: the worst-ranked)
csv           the score CSV, wide or long (see 'data' below), or a score source:
              mlflow:EXPERIMENT, automl:FILE or openml:FILE (see 'score sources')
--title       the report's title (default: 'Statistical comparison of m
              algorithms on n cases')
--lower-is-better  lower scores are better (errors, run times); default: higher
--analyses    which analyses: frequentist, bayesian, ranks, comma-separated or
              repeated (default: all three)
--alpha       significance level of the frequentist tests and the rank
              intervals (default: 0.05)
--threshold   the credible level of the Bayesian Friedman test (default:
              0.95); the pairs and their joint statements decide by --loss
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
              (default); omit drops every incomplete case from every
              analysis and says which; pairwise (report, analyze) keeps the
              complete cases for the analyses of all algorithms at once
              (mean ranks, Friedman, Nemenyi, Holm) but tests each pair on
              all the cases where both have a score, runs Skillings-Mack on
              every case, and fits Plackett-Luce (P(best), expected rank) to
              every case, each ranking the algorithms it has
--aliases     short names A, B, … in tables and figures, with a legend: auto
              gives them to each name of more than 20 characters (default), on
              to every name, off to none
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
--max-input   the largest score file read, bytes or with a unit (e.g. 1G);
              a larger file is refused before it is read whole (default:
              256M, or the environment variable NBSTATS_MAX_INPUT, which the
              dashboard honours too)
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
              paragraph, two PDF pages up to about 42 algorithms
--venue       the paper venue the tables are set for, in the report and the
              files beside it: article (one column, 10 pt; default),
              twocolumn (article, two columns), ieee (IEEEtran conference),
              acm (acmart sigconf); in two columns a table fits the column or
              spans both (table*), never a longtable
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


HELP = _parse_help(_HELP_TEXT)

#: How the CSV is read (``report``, ``analyze`` and ``dashboard``).
INPUT_OPTIONS: dict[str, dict[str, Any]] = {
    "--sep": {"type": _separator, "default": ",", "metavar": "CHAR"},
    "--encoding": {"type": _encoding, "default": "utf-8", "metavar": "NAME"},
    "--no-case-column": {"action": "store_true"},
}
LONG_OPTIONS: dict[str, dict[str, Any]] = {
    "--case": {"metavar": "COL"},
    "--algorithm": {"metavar": "COL"},
    "--score": {"metavar": "COL"},
    "--fold": {"type": _columns, "metavar": "COLS"},
    "--aggregate": {"choices": ["mean", "median"]},
    "--runs": {"type": _positive_int, "metavar": "N"},
    "--hierarchical": {"action": "store_true"},
}


def add_options(
    command: Any, options: dict[str, dict[str, Any]], key: str = ""
) -> None:
    for option, settings in options.items():
        flags = ["-o", option] if option == "--output" else [option]
        command.add_argument(*flags, help=HELP[key or option], **settings)
