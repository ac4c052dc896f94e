"""Command line: the report's options, as ``nbstats <command> --help`` lists them.

- ``nbstats demo``: the report on Demšar's Table 6, written to nbstats-demo.html
  (``--text`` prints the frequentist analysis of Tables 2 and 6 instead);
- ``nbstats report scores.csv -o report.html``: a report of any score CSV, with
  every option of :func:`nbstats.reporting.report`;
- ``nbstats analyze scores.csv``: the same analysis as text, with the same
  options and the same decisions (:func:`nbstats.reporting.report_text`);
  ``--detail frequentist`` prints the full frequentist analysis instead;
- ``nbstats dashboard scores.csv``: a live dashboard served by Voilà on
  127.0.0.1 (see :mod:`nbstats.app.server`).

Bad options end with ``nbstats <command>: error: argument --option: …`` and
status 2; bad data with ``nbstats: error: <file>[, line N]: …`` (checked by
:mod:`nbstats.io.csv` before pandas reads the file, then the library's
message with its keyword names replaced by the options) and status 2; an
unwritable report path is refused before any work. SIGINT (Ctrl-C) and
SIGTERM end a command with one line (``nbstats: interrupted (SIGTERM);
report.html left unchanged``) and status 130 or 143: the kernel is killed,
the old report and its directory are left as they were.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from nbstats.app import server as dashboard_server
from nbstats.cli.coverage import COVERAGE_WORDS, coverage_table, run_coverage
from nbstats.cli.options import ANALYSES, build_parser
from nbstats.cli.reading import note, read_data
from nbstats.cli.sources import default_output, read_source, source_snapshot
from nbstats.cli.text import demo_text, frequentist_analysis
from nbstats.io.csv import (
    read_alias_file,
    read_scores,
)
from nbstats.io.options import FOLD_COLUMNS
from nbstats.scores.table import score_table
from nbstats.util import interrupts
from nbstats.util.interrupts import Interrupted

__all__ = ["FOLD_COLUMNS", "build_parser", "main", "read_scores"]

# -- data -----------------------------------------------------------------------


def _alias_option(args: argparse.Namespace, command: argparse.ArgumentParser) -> Any:
    """``aliases=`` of the report: ``None`` (not given), a choice or a mapping."""
    pairs = []
    if args.alias_file is not None:
        pairs += read_alias_file(args.alias_file)
    pairs += args.alias or []
    if pairs and args.aliases is not None:
        command.error(
            "argument --aliases: not with --alias/--alias-file, which name the "
            "aliases themselves; give one or the other."
        )
    if pairs:
        return dict(pairs)
    return {"auto": "auto", "on": True, "off": False, None: None}[args.aliases]


def _prepare(
    args: argparse.Namespace, command: argparse.ArgumentParser
) -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """Read and check the CSV: ``(raw data, validated table, data keywords)``.

    Prints a note when a fold column is recognised and when ``--nan-policy
    omit`` drops cases. The keywords hold only the options given.
    """
    raw, keywords = read_data(args, command)
    is_long = "score" in keywords
    if args.nan_policy is not None:
        keywords["nan_policy"] = args.nan_policy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the note below says it
        try:
            # "pairwise" keeps the incomplete cases for the pair tables; the
            # analyses of all algorithms use the complete ones, checked here
            checked = dict(keywords)
            if checked.get("nan_policy") == "pairwise":
                checked["nan_policy"] = "omit"
            table = score_table(raw, **checked)
        except (ValueError, TypeError) as error:  # name the file
            kind = TypeError if isinstance(error, TypeError) else ValueError
            raise kind(f"{args.csv}: {error}") from None
    cases = pd.unique(raw[args.case]) if is_long else raw.index
    kept = set(table.index)
    dropped = [c for c in cases if c not in kept]
    if dropped:
        shown = ", ".join(f"'{c}'" for c in dropped[:20])
        more = f" and {len(dropped) - 20} more" if len(dropped) > 20 else ""
        policy = keywords.get("nan_policy", "omit")
        note(
            f"--nan-policy {policy} dropped {len(dropped)} of {len(cases)} cases "
            f"with missing scores: {shown}{more}"
            + (
                " from the analyses of all algorithms at once; each pair's "
                "tests use every case where both have a score, and Skillings-Mack "
                "and Plackett-Luce every case as it is."
                if policy == "pairwise"
                else "."
            )
        )
    return raw, table, keywords


def _report_keywords(
    args: argparse.Namespace, command: argparse.ArgumentParser, table: pd.DataFrame
) -> dict[str, Any]:
    """The report options given on the command line, as keywords."""
    from nbstats.scores.aliases import make_aliases

    keywords: dict[str, Any] = {}
    if args.analyses:
        chosen = {a for group in args.analyses for a in group}
        keywords["analyses"] = tuple(a for a in ANALYSES if a in chosen)
    if args.lower_is_better:
        keywords["higher_is_better"] = False
    for name in ("title", "alpha", "threshold", "s", "prior", "rope", "loss", "layout"):
        if getattr(args, name) is not None:
            keywords[name] = getattr(args, name)
    if getattr(args, "runs", None) is not None:
        keywords["runs"] = args.runs
    if getattr(args, "hierarchical", False):
        keywords["hierarchical"] = True
    if getattr(args, "score_unit", None) is not None:
        keywords["score_unit"] = args.score_unit
    if getattr(args, "core", False):
        keywords["core_only"] = True
    if getattr(args, "venue", None) is not None:
        keywords["venue"] = args.venue
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


# The library's keywords in its messages, as the options that set them.
_OPTION_WORDS = [
    *COVERAGE_WORDS,
    ("nan_policy='omit'", "--nan-policy omit"),
    (
        "pass aggregate='mean' or 'median'",
        "pass --fold COLUMN(S) (e.g. --fold fold) or --aggregate mean|median",
    ),
    ("case=, algorithm= and score=", "--case, --algorithm and --score"),
    ("aggregate=", "--aggregate"),
    ("fold=['run', 'fold']", "--fold run,fold"),
    ("hierarchical=True", "--hierarchical"),
    (
        "(case=, algorithm=, score=, fold=) and runs=",
        "(--case, --algorithm, --score, --fold) and --runs",
    ),
    ("random_state", "--seed"),
    (
        "make the index unique (e.g. reset_index()) or aggregate repeated rows",
        "give every case its own name (repeated rows of folds: pass --case, "
        "--algorithm, --score and --fold on long data)",
    ),
]


def _option_words(message: str) -> str:
    for keyword, option in _OPTION_WORDS:
        message = message.replace(keyword, option)
    return message


# -- the commands ---------------------------------------------------------------

#: Options of the report that ``analyze --detail frequentist`` does not take.
_NOT_FREQUENTIST = (
    "title analyses threshold s rope loss seed aliases alias alias_file layout runs "
    "hierarchical score_unit"
)
#: ... and those ``analyze --detail auto`` does not take (it takes --rope and
#: --seed for its Bayesian counterpart).
_NOT_AUTO = (
    "title analyses threshold s prior loss aliases alias alias_file layout runs "
    "hierarchical score_unit"
)


def _target(args: argparse.Namespace, output: str) -> Path:
    """The report's path, checked writable before any work; kept on ``args``
    for the message of an interrupt."""
    from nbstats.reporting import export

    target = Path(output).expanduser().absolute()
    export.check_target(target)
    args.target = target
    args.target_existed = target.exists()
    return target


def _headless() -> None:
    """A report's figures are drawn in this process and saved to files: no
    window system (a GUI backend needs a display and starts slower)."""
    os.environ.setdefault("MPLBACKEND", "Agg")


def _run_demo(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    _headless()
    if args.text:
        print(demo_text())
        return
    from nbstats.datasets import load
    from nbstats.reporting import report

    _target(args, args.output)
    table6 = load("demsar2006")
    path = report(table6, args.output, title="nbstats demo: Demšar (2006), Table 6")
    print(f"nbstats: wrote {path}")


def _run_report(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    _headless()
    from nbstats.reporting import report
    from nbstats.reporting.export import FORMATS

    suffix = f".{args.format}" if args.format else ".html"
    if getattr(args, "source_frame", None) is not None and args.output is None:
        args.output = default_output(args, suffix)
    output = args.output or str(Path(args.csv).with_suffix(".html"))
    named = FORMATS.get(Path(output).suffix.lower())
    if args.format and args.output is not None and named not in (None, args.format):
        command.error(
            f"argument --format: {args.format}, but -o {args.output} ends in "
            f"{Path(output).suffix} (an {named} file): the file would hold a "
            f"{args.format} report under the wrong name. Give -o "
            f"{Path(output).with_suffix('.' + args.format).name}, or leave out "
            "--format (the suffix gives the format)."
        )
    if args.format and args.output is None:
        output = str(Path(args.csv).with_suffix(f".{args.format}"))
    target = _target(args, output)
    raw, table, data = _prepare(args, command)
    keywords = _report_keywords(args, command, table)
    try:
        path = report(raw, output, format=args.format, **data, **keywords)
    except OSError as error:
        if error.errno is None or target.name in str(error):
            raise  # a missing tool, or a message that names the report
        kept = "the old report is unchanged" if args.target_existed else "no report"
        raise OSError(  # e.g. a full disk: say which report was not written
            f"cannot write {str(target)!r}: {error.strerror or error}; {kept}."
        ) from None
    print(f"nbstats: wrote {path}")


def _seed_of(args: argparse.Namespace) -> int | None:
    """``--seed``: 0 by default, None for 'random'."""
    if args.seed is None:
        return 0
    return None if args.seed == "random" else int(args.seed)


def _refuse(
    args: argparse.Namespace, command: argparse.ArgumentParser, options: str, why: str
) -> None:
    """Stop (status 2) at the first of ``options`` given, saying ``why``."""
    given = [o for o in options.split() if getattr(args, o, None) not in (None, False)]
    if given:
        option = "--" + given[0].replace("_", "-")
        command.error(
            f"argument {option}: does not apply to --detail {args.detail}, {why}; "
            "drop one of them."
        )


def _run_analyze(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    _headless()
    if args.detail == "auto":
        _refuse(args, command, _NOT_AUTO + " control",
                "which chooses its tests from the data")  # fmt: skip
        if args.nan_policy == "pairwise":
            command.error(
                "argument --nan-policy: --detail auto analyses every algorithm on "
                "the same cases; pass --nan-policy omit to drop the incomplete ones."
            )
        raw, table, data = _prepare(args, command)
        from nbstats.stats.analyze import analyze

        result = analyze(
            _with_holes(raw, data, table),
            nan_policy="omit",
            alpha=0.05 if args.alpha is None else args.alpha,
            higher_is_better=not args.lower_is_better,
            rope=0.0 if args.rope is None else args.rope,
            random_state=_seed_of(args),
        )
        print(result.summary())
        return
    if args.detail == "frequentist":
        _refuse(args, command, _NOT_FREQUENTIST,
                "which prints the frequentist tests only")  # fmt: skip
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
        from nbstats.reporting import report_text

        raw, table, data = _prepare(args, command)
        text = report_text(raw, **data, **_report_keywords(args, command, table))
    print(text)


def _with_holes(raw: pd.DataFrame, data: dict[str, Any], table: pd.DataFrame) -> Any:
    """The scores with the cases ``--nan-policy omit`` dropped, so that
    ``analyze --detail auto`` shows their coverage (``table`` when none was)."""
    wide, _ = coverage_table(raw, data)
    return table if len(wide) == len(table) else wide


def _run_coverage(args: argparse.Namespace, command: argparse.ArgumentParser) -> None:
    raw, keywords = read_data(args, command)
    run_coverage(args, raw, keywords)


_COMMANDS: dict[str, Callable[[argparse.Namespace, argparse.ArgumentParser], None]]
_COMMANDS = {
    "demo": _run_demo,
    "report": _run_report,
    "analyze": _run_analyze,
    "coverage": _run_coverage,
}


def _skip_iri_grammar() -> None:
    """Keep jsonschema from loading rfc3987_syntax in this process.

    nbformat imports jsonschema, which imports rfc3987_syntax when it is
    installed; that compiles an IRI grammar, a noticeable share of a
    report's time (``benchmarks/bench_report.py``), and report notebooks
    never use IRI formats. Done only in
    the command's own process (a library call leaves the user's process
    alone), and only when nothing has imported it yet.
    """
    sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]


def _raise_interrupted(signum: int, frame: Any) -> None:
    if interrupts.inside_compiler_lock(frame):  # raised now, it would stay held
        interrupts.deliver_later(signum)
        return
    # one interrupt is enough: the clean-up it starts must not be cut short
    for other in (signal.SIGINT, signal.SIGTERM):
        signal.signal(other, signal.SIG_IGN)
    interrupts.record_interrupt(signum)  # kept if the exception is dropped
    raise Interrupted(signum)


@contextlib.contextmanager
def _interrupts_as_exceptions() -> Any:
    """SIGINT and SIGTERM raise :class:`Interrupted` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for number in previous:
        signal.signal(number, _raise_interrupted)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _run_dashboard(args: argparse.Namespace) -> int:
    """``nbstats dashboard``: Ctrl-C and SIGTERM as the server handles them
    (a second Ctrl-C while Voilà stops kills it), quiet before it starts."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, _raise_once(number))
    return dashboard_server.run(args)


def _raise_once(signum: int) -> Any:
    """A handler raising :class:`Interrupted` that leaves the next signal to
    the server (Python's own handlers: KeyboardInterrupt, or the end)."""

    def handler(number: int, frame: Any) -> None:
        default = signal.default_int_handler if number == signal.SIGINT else None
        signal.signal(number, default or signal.SIG_DFL)
        interrupts.record_interrupt(number)  # kept if the exception is dropped
        raise Interrupted(number)

    return handler


def _interrupted(args: argparse.Namespace | None, signum: int) -> str:
    """The one line printed on an interrupt: what became of the report."""
    name = signal.Signals(signum).name
    target = getattr(args, "target", None)
    if target is None:
        return f"nbstats: interrupted ({name})"
    if getattr(args, "target_existed", False):
        return f"nbstats: interrupted ({name}); {target} left unchanged"
    return f"nbstats: interrupted ({name}); nothing written to {target}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``nbstats`` command.

    Returns the exit status: 0, or 2 after printing ``nbstats: error: …``
    (bad data, a failed report); after SIGINT (Ctrl-C) or SIGTERM, 130 or 143
    (128 + the signal's number) with one line saying that the report was left
    as it was. Bad options exit with status 2 through argparse, naming the
    option.
    """
    status = None
    try:
        # a signal noted by a handler belongs to this command alone
        interrupts.clear_interrupts()
        status = _main(argv)
        interrupts.clear_interrupts()
    except KeyboardInterrupt:  # before _main's quiet handler is in place
        if status is None:  # (after it, _main has said its line)
            print(_interrupted(None, signal.SIGINT), file=sys.stderr)
            status = 128 + signal.SIGINT
    return status


def _main(argv: Sequence[str] | None) -> int:
    args: argparse.Namespace | None = None
    told = False
    try:
        # first of all: a Ctrl-C at any moment ends with one line, and never
        # with a traceback (not even while the options are parsed)
        with _interrupts_as_exceptions():
            try:
                args = build_parser().parse_args(argv)
                if args.command == "dashboard":
                    with source_snapshot(args):
                        return _run_dashboard(args)
                command = args.parser
                _skip_iri_grammar()
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    read_source(args)
                    _COMMANDS[args.command](args, command)
            except KeyboardInterrupt as interrupt:
                signum = getattr(interrupt, "signum", signal.SIGINT)
                told = True
                print(_interrupted(args, signum), file=sys.stderr)
                return 128 + signum
    except KeyboardInterrupt:  # before the handler is in place, or after
        if not told:
            print(_interrupted(args, signal.SIGINT), file=sys.stderr)
        return 128 + signal.SIGINT
    except (ValueError, TypeError, OSError, RuntimeError) as error:
        print(f"nbstats: error: {_option_words(str(error))}", file=sys.stderr)
        return 2
    for message in dict.fromkeys(str(w.message) for w in caught):
        if not message.startswith("nan_policy='omit'"):  # noted by _prepare
            print(f"nbstats: warning: {_option_words(message)}", file=sys.stderr)
    return 0
