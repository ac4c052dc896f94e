"""Command line: the report's options, as ``nbstats <command> --help`` lists them.

- ``nbstats demo``: the report on Demšar's Table 6, written to nbstats-demo.html
  (``--text`` prints the frequentist analysis of Tables 2 and 6 instead);
- ``nbstats report scores.csv -o report.html``: a report of any score CSV, with
  every option of :func:`nbstats.report.report`;
- ``nbstats analyze scores.csv``: the same analysis as text, with the same
  options and the same decisions (:func:`nbstats.report.report_text`);
  ``--detail frequentist`` prints the full frequentist analysis instead;
- ``nbstats dashboard scores.csv``: a live dashboard served by Voilà on
  127.0.0.1 (see :mod:`nbstats.widgets.serve`).

Bad options end with ``nbstats <command>: error: argument --option: …`` and
status 2; bad data with ``nbstats: error: …`` (the library's message, its
keyword names replaced by the options) and status 2.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

import nbstats
from nbstats.results.render import format_value
from nbstats.widgets import serve as dashboard_server

#: Columns ``--fold`` is recognised from, compared case-insensitively.
FOLD_COLUMNS = ("fold", "folds", "run", "repetition", "repeat")

ANALYSES = ("frequentist", "bayesian", "ranks")

_DATA_HELP = """\
data: a wide CSV has the case names in its first column and one column of
  scores per algorithm; a long CSV has one row per (case, algorithm[, fold])
  and needs --case, --algorithm and --score. With repeated (case, algorithm)
  rows and no --fold, a column named fold, folds, run, repetition or repeat
  (any case) is taken as the fold column(s) and a note says so; each
  algorithm's scores are then averaged over the folds of a case (--aggregate
  median: their median). --fold none turns the recognition off."""

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
  nbstats report folds.csv --case dataset --algorithm classifier \\
      --score accuracy --fold run,fold --analyses bayesian,ranks
  nbstats report scores.csv --nan-policy omit --loss 1:9 --seed 7 \\
      --alias "HistGradientBoostingClassifier(max_iter=300)=HGB"

"""
    + _DATA_HELP,
    "analyze": """\
examples:
  nbstats analyze scores.csv                      # what the report states
  nbstats analyze scores.csv --analyses frequentist --alpha 0.1
  nbstats analyze folds.csv --case dataset --algorithm classifier \\
      --score accuracy                            # folds recognised
  nbstats analyze scores.csv --detail frequentist --control C4.5

"""
    + _DATA_HELP,
    "dashboard": """\
examples:
  nbstats dashboard scores.csv                    # Bayesian dashboard
  nbstats dashboard scores.csv --kind ranks --port 8866
  nbstats dashboard folds.csv --case dataset --algorithm classifier \\
      --score accuracy --aggregate mean""",
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
              every frequentist test and post-hoc procedure
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
--rope        half-width of the region of practical equivalence of the
              Bayesian signed-rank tests, in score units (default: 0)
--loss        losses of a Type II and a Type I error, as l0:l1 or l0,l1; an
              algorithm is decided better when its posterior probability of
              being better exceeds l1/(l0+l1) (default: 1:19, i.e. 0.95)
--seed        seed of every Monte Carlo computation: an integer >= 0, or
              'random' for a fresh one, which the output states (default: 0)
--nan-policy  missing scores: raise refuses them and names the cells
              (default); omit drops every incomplete case and says which
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
--case        the column of case names
--algorithm   the column of algorithm names
--score       the column of scores
--fold        the fold column(s), e.g. fold or run,fold: each algorithm's
              scores are averaged per case; none: no fold column (default:
              recognised, see 'data' below)
--aggregate   how repeated rows of a case and algorithm are combined (default:
              the mean over --fold, refused without one)
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
    "--title": {"metavar": "TEXT"},
    "--lower-is-better": {"action": "store_true"},
    "--analyses": {"action": "append", "type": _analyses, "metavar": "LIST"},
    "--alpha": {"type": _level, "metavar": "A"},
    "--gamma": {"type": _level, "metavar": "G"},
    "--s": {"type": _nonnegative, "metavar": "S"},
    "--rope": {"type": _nonnegative, "metavar": "R"},
    "--loss": {"type": _loss, "metavar": "L0:L1"},
    "--seed": {"type": _seed, "metavar": "N"},
    "--nan-policy": {"choices": ["raise", "omit"]},
    "--aliases": {"choices": ["auto", "on", "off"]},
    "--alias": {"action": "append", "type": _alias, "metavar": "NAME=ALIAS"},
    "--alias-file": {"metavar": "FILE"},
    "--layout": {"choices": ["auto", "standard", "compact"]},
}
_LONG_OPTIONS: dict[str, dict[str, Any]] = {
    "--case": {"metavar": "COL"},
    "--algorithm": {"metavar": "COL"},
    "--score": {"metavar": "COL"},
    "--fold": {"type": _columns, "metavar": "COLS"},
    "--aggregate": {"choices": ["mean", "median"]},
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
    analyze = _subparser(
        commands,
        "analyze",
        "print the report's analysis of a score CSV as text (same options, "
        "same decisions)",
    )
    _add(analyze, {"--detail": {"choices": ["report", "frequentist"]}})
    _add(analyze, {"--control": {"metavar": "NAME"}})
    for command in (report, analyze):
        _add(command, _ANALYSIS_OPTIONS)
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


# -- text analyses ---------------------------------------------------------------


def frequentist_analysis(
    table: pd.DataFrame,
    *,
    alpha: float = 0.05,
    control: str | None = None,
    higher_is_better: bool = True,
) -> str:
    """The complete frequentist analysis of a score table, as readable text.

    Friedman and Iman–Davenport, repeated-measures ANOVA, Nemenyi (with CD and
    groups), then comparisons against ``control`` (default: the worst-ranked
    algorithm) with Bonferroni–Dunn, Holm, Hochberg and Hommel, and all pairs
    with Shaffer and with Holm-adjusted Wilcoxon tests.
    """
    table = nbstats.score_table(table)
    hib = {"higher_is_better": higher_is_better}
    ranks = nbstats.mean_ranks(table, **hib)
    if control is None:
        control = str(ranks.idxmax())
    direction = "higher" if higher_is_better else "lower"
    out = [
        f"{table.shape[1]} algorithms on {table.shape[0]} cases "
        f"({direction} scores are better; rank 1 = best)",
        "",
        "Scores with ranks",
        "-----------------",
        _scores_with_ranks(table, higher_is_better),
        "",
        nbstats.friedman(table, **hib).summary(),
        "",
        nbstats.rm_anova(table).summary(),
        "",
    ]
    for level in sorted({alpha, 0.10}):
        out += [
            nbstats.posthoc(table, method="nemenyi", alpha=level, **hib).summary(),
            "",
        ]
    out += [
        nbstats.posthoc(
            table, method="bonferroni-dunn", control=control, alpha=alpha, **hib
        ).summary(),
        "",
    ]
    out.append(f"Step-down and step-up procedures against {control} (α = {alpha:g})")
    out.append("-" * len(out[-1]))
    decisions = {}
    for method in ("holm", "hochberg", "hommel"):
        res = nbstats.posthoc(table, method=method, control=control, alpha=alpha, **hib)
        decisions[method] = res.adjusted.map(format_value) + res.reject.map(
            {True: " *", False: ""}
        )
    first = nbstats.posthoc(table, method="holm", control=control, alpha=alpha, **hib)
    summary = pd.DataFrame(
        {
            "z": first.statistics.map(format_value),
            "p": first.pvalues.map(format_value),
            **{f"{m} adj. p": v for m, v in decisions.items()},
        }
    )
    out += [summary.to_string(), "(* = rejected)", ""]
    out += [nbstats.posthoc(table, method="shaffer", alpha=alpha, **hib).summary(), ""]
    out += [
        nbstats.posthoc(
            table, method="wilcoxon", adjust="holm", alpha=alpha, **hib
        ).summary(),
        "",
    ]
    return "\n".join(out)


def _scores_with_ranks(table: pd.DataFrame, higher_is_better: bool) -> str:
    ranks = nbstats.ranks(table, higher_is_better=higher_is_better)
    cells = table.map(lambda v: f"{v:.4g}") + ranks.map(lambda r: f" ({r:g})")
    cells.loc["mean rank"] = nbstats.mean_ranks(
        table, higher_is_better=higher_is_better
    ).map(lambda r: f"{r:.3f}")
    return cells.to_string()


def _demo() -> str:
    table6 = nbstats.datasets.load("demsar2006")
    table2 = nbstats.datasets.load("demsar2006_table2")
    header = (
        "nbstats demo: Demšar (2006), Tables 2 and 6 — AUC of C4.5 variants on 14 "
        "UCI data sets.\n(The 'voting' tie in Table 6 is broken as in the paper: "
        "C4.5+cf = 0.97501; see nbstats.datasets.)\n"
    )
    two = [
        "Two algorithms (Table 2): C4.5 vs C4.5+m",
        "========================================",
        "",
        table2.compare.wilcoxon("C4.5", "C4.5+m").summary(),
        "",
        table2.compare.sign_test("C4.5", "C4.5+m").summary(),
        "",
        table2.compare.ttest("C4.5", "C4.5+m").summary(),
        "",
        "Several algorithms (Table 6)",
        "============================",
        "",
    ]
    return header + "\n" + "\n".join(two) + frequentist_analysis(table6, control="C4.5")


# -- data -----------------------------------------------------------------------


def read_scores(
    path: str,
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    fold: str | Sequence[str] | None = None,
    aggregate: str | None = None,
    nan_policy: str = "raise",
) -> pd.DataFrame:
    """A score table from a CSV: wide (first column = cases) or long.

    Long data needs ``case``, ``algorithm`` and ``score`` (and ``fold`` or
    ``aggregate`` for repeated rows, see :func:`nbstats.score_table`); a CSV
    that is not a wide table of numbers gets an error naming its columns and
    the options.

    Examples
    --------
    >>> import nbstats, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.csv")
    >>> nbstats.datasets.load("demsar2006").to_csv(path)
    >>> read_scores(path).shape
    (14, 4)
    """
    long = {"case": case, "algorithm": algorithm, "score": score}
    raw = _read_csv(path, long=any(v is not None for v in long.values()))
    if fold is not None:
        long["fold"] = fold
    return nbstats.score_table(raw, **long, aggregate=aggregate, nan_policy=nan_policy)


def _read_csv(path: str, *, long: bool) -> pd.DataFrame:
    if not Path(path).is_file():
        raise FileNotFoundError(f"no such score file: {path!r}")
    raw = pd.read_csv(path)
    if long:
        return raw
    if raw.shape[1] < 3:
        raise ValueError(
            f"{path}: a wide score CSV needs a column of case names and at least "
            f"2 columns of scores, got columns {list(raw.columns)}."
        )
    labels, values = raw.columns[0], raw.columns[1:]
    text = [c for c in values if not pd.api.types.is_numeric_dtype(raw[c])]
    if text:
        raise ValueError(
            f"{path}: column(s) {text} are not numeric, so this is not a wide "
            f"score table (first column = cases, one column of scores per "
            f"algorithm). For long data (one row per case and algorithm) pass "
            f"--case COL --algorithm COL --score COL; the columns are "
            f"{list(raw.columns)}."
        )
    return raw.set_index(labels)


def _fold(args: argparse.Namespace, raw: pd.DataFrame) -> tuple[Any, str | None]:
    """The ``fold`` keyword (``None``: none) and the note when it is recognised."""
    if args.fold is not None and [f.lower() for f in args.fold] == ["none"]:
        return None, None
    if args.fold is not None:
        missing = [c for c in args.fold if c not in raw.columns]
        if missing:
            raise ValueError(
                f"--fold: column(s) {missing} not found; the columns are "
                f"{list(raw.columns)}."
            )
        return (args.fold[0] if len(args.fold) == 1 else list(args.fold)), None
    keys = [args.case, args.algorithm]
    if any(k not in raw.columns for k in keys) or not raw.duplicated(keys).any():
        return None, None
    used = {args.case, args.algorithm, args.score}
    found = [c for c in raw.columns if str(c).lower() in FOLD_COLUMNS and c not in used]
    if not found:
        return None, None
    how = "median" if args.aggregate == "median" else "mean"
    note = (
        f"repeated ({args.case}, {args.algorithm}) rows: taking "
        f"{' and '.join(map(repr, found))} as the fold column"
        f"{'s' if len(found) > 1 else ''} (the {how} of each algorithm's "
        f"scores per case, as --fold {','.join(map(str, found))}; "
        "--fold none turns this off)."
    )
    return (found[0] if len(found) == 1 else found), note


def _alias_option(args: argparse.Namespace, command: argparse.ArgumentParser) -> Any:
    """``aliases=`` of the report: ``None`` (not given), a choice or a mapping."""
    pairs = []
    if args.alias_file is not None:
        pairs += _read_alias_file(args.alias_file)
    pairs += args.alias or []
    if pairs and args.aliases is not None:
        command.error(
            "argument --aliases: not with --alias/--alias-file, which name the "
            "aliases themselves; give one or the other."
        )
    if pairs:
        return dict(pairs)
    return {"auto": "auto", "on": True, "off": False, None: None}[args.aliases]


def _read_alias_file(path: str) -> list[tuple[str, str]]:
    if not Path(path).is_file():
        raise FileNotFoundError(f"--alias-file: no such file: {path!r}")
    pairs = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            pairs.append(_alias(line))
        except argparse.ArgumentTypeError as error:
            raise ValueError(f"--alias-file {path}, line {number}: {error}") from None
    return pairs


def _prepare(
    args: argparse.Namespace, command: argparse.ArgumentParser
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """Read and check the CSV: ``(raw data, validated table, data keywords)``.

    Prints a note when a fold column is recognised and when ``--nan-policy
    omit`` drops cases. The keywords hold only the options given.
    """
    long = {"case": args.case, "algorithm": args.algorithm, "score": args.score}
    is_long = any(v is not None for v in long.values())
    missing = [f"--{k}" for k, v in long.items() if v is None]
    if is_long and missing:
        command.error(
            f"argument {missing[0]}: long data needs --case, --algorithm and "
            f"--score (the CSV's columns); missing: {', '.join(missing)}."
        )
    if not is_long and (args.fold is not None or args.aggregate is not None):
        option = "--fold" if args.fold is not None else "--aggregate"
        command.error(
            f"argument {option}: applies to long data; also give --case, "
            "--algorithm and --score (the CSV's columns of cases, algorithms "
            "and scores)."
        )
    raw = _read_csv(args.csv, long=is_long)
    keywords: dict[str, Any] = dict(long) if is_long else {}
    if is_long:
        fold, note = _fold(args, raw)
        if note:
            _note(note)
        if fold is not None:
            keywords["fold"] = fold
    if args.aggregate is not None:
        keywords["aggregate"] = args.aggregate
    if args.nan_policy is not None:
        keywords["nan_policy"] = args.nan_policy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the note below says it
        table = nbstats.score_table(raw, **keywords)
    cases = pd.unique(raw[args.case]) if is_long else raw.index
    kept = set(table.index)
    dropped = [c for c in cases if c not in kept]
    if dropped:
        shown = ", ".join(f"'{c}'" for c in dropped[:20])
        more = f" and {len(dropped) - 20} more" if len(dropped) > 20 else ""
        _note(
            f"--nan-policy omit dropped {len(dropped)} of {len(cases)} cases "
            f"with missing scores: {shown}{more}."
        )
    return raw, table, keywords


def _report_keywords(
    args: argparse.Namespace, command: argparse.ArgumentParser, table: pd.DataFrame
) -> dict[str, Any]:
    """The report options given on the command line, as keywords."""
    from nbstats.names import make_aliases

    keywords: dict[str, Any] = {}
    if args.analyses:
        chosen = {a for group in args.analyses for a in group}
        keywords["analyses"] = tuple(a for a in ANALYSES if a in chosen)
    if args.lower_is_better:
        keywords["higher_is_better"] = False
    for name in ("title", "alpha", "gamma", "s", "rope", "loss", "layout"):
        if getattr(args, name) is not None:
            keywords[name] = getattr(args, name)
    if args.seed is not None:
        keywords["random_state"] = None if args.seed == "random" else args.seed
    aliases = _alias_option(args, command)
    if aliases is not None:
        try:
            make_aliases(list(table.columns), aliases)
        except (ValueError, TypeError) as error:
            option = "--alias" if isinstance(aliases, dict) else "--aliases"
            raise ValueError(f"{option}: {error}") from None
        keywords["aliases"] = aliases
    return keywords


def _note(text: str) -> None:
    print(f"nbstats: note: {text}", file=sys.stderr)


# The library's keywords in its messages, as the options that set them.
_OPTION_WORDS = [
    ("nan_policy='omit'", "--nan-policy omit"),
    (
        "pass aggregate='mean' or 'median'",
        "pass --fold COLUMN(S) (e.g. --fold fold) or --aggregate mean|median",
    ),
    ("case=, algorithm= and score=", "--case, --algorithm and --score"),
    ("aggregate=", "--aggregate"),
    ("fold=['run', 'fold']", "--fold run,fold"),
    ("random_state", "--seed"),
]


def _option_words(message: str) -> str:
    for keyword, option in _OPTION_WORDS:
        message = message.replace(keyword, option)
    return message


# -- the commands ---------------------------------------------------------------

#: Options of the report that ``analyze --detail frequentist`` does not take.
_NOT_FREQUENTIST = (
    "title analyses gamma s rope loss seed aliases alias alias_file layout"
)


def _run_demo(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    if args.text:
        print(_demo())
        return
    table6 = nbstats.datasets.load("demsar2006")
    path = nbstats.report(
        table6, args.output, title="nbstats demo: Demšar (2006), Table 6"
    )
    print(f"nbstats: wrote {path}")


def _run_report(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    raw, table, data = _prepare(args, command)
    keywords = _report_keywords(args, command, table)
    output = args.output or str(Path(args.csv).with_suffix(".html"))
    if args.format and args.output is None:
        output = str(Path(args.csv).with_suffix(f".{args.format}"))
    path = nbstats.report(raw, output, format=args.format, **data, **keywords)
    print(f"nbstats: wrote {path}")


def _run_analyze(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    if args.detail == "frequentist":
        given = [o for o in _NOT_FREQUENTIST.split() if getattr(args, o) is not None]
        if given:
            option = "--" + given[0].replace("_", "-")
            command.error(
                f"argument {option}: does not apply to --detail frequentist, "
                "which prints the frequentist tests only; drop one of them."
            )
        raw, table, data = _prepare(args, command)
        text = frequentist_analysis(
            table,
            alpha=0.05 if args.alpha is None else args.alpha,
            control=args.control,
            higher_is_better=not args.lower_is_better,
        )
    else:
        if args.control is not None:
            command.error(
                "argument --control: applies to --detail frequentist only; the "
                "report compares every algorithm with the best-ranked one."
            )
        from nbstats.report import report_text

        raw, table, data = _prepare(args, command)
        text = report_text(raw, **data, **_report_keywords(args, command, table))
    print(text)


_COMMANDS: dict[str, Callable[[argparse.Namespace, argparse.ArgumentParser], None]]
_COMMANDS = {"demo": _run_demo, "report": _run_report, "analyze": _run_analyze}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``nbstats`` command.

    Returns the exit status: 0, or 2 after printing ``nbstats: error: …``
    (bad data, a failed report). Bad options exit with status 2 through
    argparse, naming the option.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "dashboard":
        return dashboard_server.run(args)
    command = args.parser
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            _COMMANDS[args.command](args, command)
    except (ValueError, TypeError, OSError, RuntimeError) as error:
        print(f"nbstats: error: {_option_words(str(error))}", file=sys.stderr)
        return 2
    for message in dict.fromkeys(str(w.message) for w in caught):
        if not message.startswith("nan_policy='omit'"):  # noted by _prepare
            print(f"nbstats: warning: {_option_words(message)}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
