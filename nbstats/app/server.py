"""``nbstats dashboard scores.csv``: a dashboard as a standalone web page.

For teaching, and for people who do not use notebooks: the command builds a
notebook that loads the CSV and displays :func:`nbstats.dashboard`, writes
it to a temporary directory and serves it with Voilà on 127.0.0.1 (code
cells hidden). The URL is printed once Voilà listens; Ctrl-C stops Voilà,
which shuts its kernels down, and the temporary directory is removed.

The server is locked, as Jupyter's are (:mod:`.serve_process` has the
details): a new random token each start, printed in the URL, without which
the page and the kernel API refuse a request (``--no-token`` serves without
one, with a warning); at most ``--max-kernels`` kernels (a few hundred MB
each, default 3) at once, a page beyond that getting an HTTP 503 page saying so;
a kernel idle for ``--cull-idle`` seconds (default 600) is stopped.

The CSV is read as ``nbstats report`` reads it, by
:func:`nbstats.io.csv.read_csv` -- at start, and in every kernel -- with
the same options: ``--sep``, ``--encoding``, ``--no-case-column``, and
``--case NAME`` alone naming the case column of a wide file,
``--case/--algorithm/--score`` the columns of long data. A duplicated or
unnamed column, a ragged row, a named first column of numbers without
``--case`` or ``--no-case-column``, an empty, binary or wrongly encoded file
is refused at start, before Voilà starts, with one line naming the file and
the fix (status 2).

Voilà is an optional dependency: ``pip install "nbstats[dashboard]"``.

This module imports only the standard library and pandas at import time;
nbformat is imported by :func:`build_notebook`, Voilà runs in a subprocess.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from nbstats.app.data import (
    FoldInput,
    load_scores,
    option_problem,
    read_folds,
    read_table,
)
from nbstats.app.notebook import (
    ALIASES,
    KINDS,
    NAN_POLICIES,
    build_notebook,
    check_options,
    refuse_options,
)
from nbstats.app.process import (
    DEFAULT_CULL_IDLE,
    DEFAULT_MAX_KERNELS,
    NO_TOKEN_WARNING,
    add_lock_arguments,
    check_limits,
    free_port,
    serve_notebook,
    voila_command,
    write_voila_config,
)
from nbstats.io.options import HELP, INPUT_OPTIONS, LONG_OPTIONS, add_options

__all__ = [
    "KINDS",
    "NO_TOKEN_WARNING",
    "add_arguments",
    "build_notebook",
    "free_port",
    "load_scores",
    "main",
    "run",
    "serve",
    "voila_command",
    "write_voila_config",
]


def serve(
    csv: str | os.PathLike[str],
    *,
    kind: str = "bayes",
    port: int | None = None,
    higher_is_better: bool = True,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
    fold: str | Sequence[str] | None = None,
    runs: int | None = None,
    nan_policy: str = "raise",
    aliases: str = "auto",
    token: bool = True,
    max_kernels: int = DEFAULT_MAX_KERNELS,
    cull_idle: int = DEFAULT_CULL_IDLE,
    sep: str = ",",
    encoding: str = "utf-8",
    no_case_column: bool = False,
    out: TextIO | None = None,
    log: TextIO | None = None,
) -> int:
    """Serve a dashboard of ``csv`` with Voilà until Ctrl-C (or SIGTERM).

    The scores are read and validated first, as :func:`load_scores` does
    (``sep="auto"`` is resolved here, with a note, and the page's kernels
    use the separator found), so a bad file is reported here, before Voilà
    starts, not in the page. Voilà's log goes to ``log`` (default stderr);
    once it listens, ``"nbstats dashboard: <url>"`` is printed to ``out``
    (default stdout), with ``?token=...`` unless ``token=False`` (which
    prints a warning to ``log`` instead). ``port=None`` picks a free port. At most
    ``max_kernels`` pages have a kernel at once (0: no limit); a kernel idle
    for ``cull_idle`` seconds is stopped (0: never). ``kind="folds"``
    checks the per-fold data as :func:`~nbstats.app.data.read_folds`
    does (the fold column recognised when not given, with a note).

    Returns
    -------
    int
        0 after a stop by Ctrl-C or SIGTERM, else Voilà's exit status.

    Raises
    ------
    ValueError, TypeError, OSError
        A missing or invalid score file, an unknown ``kind``.
    ModuleNotFoundError
        Voilà is not installed.
    """
    out = sys.stdout if out is None else out
    log = sys.stderr if log is None else log
    if kind not in KINDS:
        raise ValueError(f"--kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    check_options(nan_policy, aliases)
    check_limits(max_kernels, cull_idle)
    if port is not None and not 0 < port < 65536:
        raise ValueError(f"--port must be between 1 and 65535, got {port}.")
    data = {
        "case": case,
        "algorithm": algorithm,
        "score": score,
        "aggregate": aggregate,
        "nan_policy": nan_policy,
        "encoding": encoding,
        "no_case_column": no_case_column,
    }
    if kind == "folds":
        refuse_options(case, algorithm, score, aggregate, no_case_column, fold,
                       runs, kind, nan_policy)  # fmt: skip
        checked, found = read_folds(
            csv,
            case=case,
            algorithm=algorithm,
            score=score,
            fold=fold,
            runs=runs,
            higher_is_better=higher_is_better,
            sep=sep,
            encoding=encoding,
        )
        fold, runs = checked.fold, checked.runs
        what = _folds_announce(checked)
    else:
        with warnings.catch_warnings():  # the page names the dropped cases
            warnings.simplefilter("ignore")
            table, found = read_table(csv, sep=sep, fold=fold, **data)
        what = f"{table.shape[1]} algorithms on {table.shape[0]} cases"
    if importlib.util.find_spec("voila") is None:
        raise ModuleNotFoundError(
            "the dashboard server needs Voilà: pip install 'nbstats[dashboard]'",
            name="voila",
        )
    if sep == "auto":
        shown = "tab" if found == "\t" else repr(found)
        print(
            f"nbstats: note: --sep auto: the separator of {os.fspath(csv)} is {shown}.",
            file=log,
            flush=True,
        )
    if kind == "folds" and checked.recognised:
        named = fold if isinstance(fold, str) else ",".join(fold)  # type: ignore[arg-type]
        print(
            f"nbstats: note: --kind folds: taking {named} as the fold column(s), "
            f"as --fold {named}.",
            file=log,
            flush=True,
        )
    nb = build_notebook(
        csv,
        kind=kind,
        higher_is_better=higher_is_better,
        aliases=aliases,
        sep=found,
        fold=fold,
        runs=runs,
        **data,
    )
    stem = re.sub(r"[^\w.-]+", "_", Path(csv).stem) or "scores"
    return serve_notebook(
        nb,
        name=f"{stem}.ipynb",
        port=port,
        token=token,
        max_kernels=max_kernels,
        cull_idle=cull_idle,
        out=out,
        log=log,
        announce=f"nbstats: serving the {kind} dashboard of {what} with Voilà "
        "(Ctrl-C to stop)",
    )


def _folds_announce(checked: FoldInput) -> str:
    """``"5 algorithms on 54 data sets (100 folds each)"``."""
    folds = " or ".join(map(str, checked.folds_per_case))
    sets, algorithms = checked.shape
    return f"{algorithms} algorithms on {sets} data sets ({folds} folds each)"


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of ``nbstats dashboard`` (shared by :mod:`nbstats.cli.commands`)."""

    parser.add_argument(
        "csv",
        help="wide: a column of case names (--case COL, else the first column; "
        "a named first column of numbers needs --case or --no-case-column) and "
        "one column of scores per algorithm; long: one row per (case, "
        "algorithm[, fold]) with --case/--algorithm/--score; or a score source: "
        "mlflow:EXPERIMENT, automl:FILE, openml:FILE (read once, at start)",
    )
    parser.add_argument(
        "--kind",
        choices=KINDS,
        default="bayes",
        help="which dashboard (default: bayes)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="port on 127.0.0.1 (default: a free one)",
    )
    add_lock_arguments(parser)
    add_options(parser, {"--lower-is-better": {"action": "store_true"}})
    add_options(parser.add_argument_group("reading the CSV"), INPUT_OPTIONS)
    long = parser.add_argument_group("long data")
    case = HELP["--case"].replace(" (see 'data' below)", "")  # no such section
    long.add_argument("--case", help=case, **LONG_OPTIONS["--case"])
    add_options(long, {o: LONG_OPTIONS[o] for o in ("--algorithm", "--score")})
    long.add_argument(
        "--aggregate",
        choices=("mean", "median"),
        default=None,
        help="long data: combine repeated rows (e.g. folds) of a case and algorithm",
    )
    long.add_argument(
        "--fold",
        help="the fold column(s), e.g. fold or run,fold (the runs' column "
        "first): --kind folds tests each data set on them (default: recognised "
        "by name: fold, folds, run, repetition, repeat, rep; of two, the one "
        "nested in the other is the fold, else the names tell); the other "
        "dashboards average each algorithm's scores over them",
        **LONG_OPTIONS["--fold"],
    )
    long.add_argument(
        "--runs",
        help="--kind folds: how many runs (repetitions) of k-fold "
        "cross-validation made each data set's folds (k = folds / N); not "
        "needed with --fold run,fold",
        **LONG_OPTIONS["--runs"],
    )
    parser.add_argument(
        "--nan-policy",
        choices=NAN_POLICIES,
        default="raise",
        help="missing scores: 'raise' refuses them and names the cells; 'omit' "
        "drops every case with a missing score (the page says which) "
        "(default: raise)",
    )
    parser.add_argument(
        "--aliases",
        choices=tuple(ALIASES),
        default="auto",
        help="short names A, B, ... with a legend to the full names: 'auto' for "
        "each name longer than 20 characters, 'on' for all, 'off' for none "
        "(default: auto)",
    )
    return parser


#: The library's keywords in its messages, as the dashboard's options.
_OPTION_WORDS = (
    ("nan_policy='omit'", "--nan-policy omit"),
    ("pass aggregate='mean' or 'median'", "pass --aggregate mean or median"),
    ("case=, algorithm= and score=", "--case, --algorithm and --score"),
    ("aggregate=", "--aggregate"),
    ("pass runs= or test_fraction=", "pass --runs N"),
    (
        "make the index unique (e.g. reset_index()) or aggregate repeated rows",
        "give every case its own name (repeated rows of folds: give long data "
        "with --case, --algorithm, --score and --aggregate)",
    ),
)


def run(args: argparse.Namespace) -> int:
    """Serve the dashboard described by parsed :func:`add_arguments` options.

    Options that do not go together are refused as ``nbstats report``
    refuses them (through ``args.parser`` when set: usage and status 2);
    other errors -- a bad CSV first of all -- are reported as one line,
    ``nbstats: error: <file>[, line N]: ...``, on stderr (status 2), before
    Voilà starts.
    """
    no_case_column = getattr(args, "no_case_column", False)
    fold, runs = getattr(args, "fold", None), getattr(args, "runs", None)
    nan_policy = getattr(args, "nan_policy", "raise")
    problem = option_problem(
        args.case,
        args.algorithm,
        args.score,
        args.aggregate,
        no_case_column,
        fold=fold,
        runs=runs,
        kind=args.kind,
        nan_policy=nan_policy,
    )
    parser = getattr(args, "parser", None)
    if problem is not None and parser is not None:
        parser.error(f"argument {problem[0]}: {problem[1]}")
    try:
        return serve(
            args.csv,
            kind=args.kind,
            port=args.port,
            higher_is_better=not args.lower_is_better,
            case=args.case,
            algorithm=args.algorithm,
            score=args.score,
            aggregate=args.aggregate,
            fold=fold,
            runs=runs,
            nan_policy=nan_policy,
            aliases=getattr(args, "aliases", "auto"),
            token=not getattr(args, "no_token", False),
            max_kernels=getattr(args, "max_kernels", DEFAULT_MAX_KERNELS),
            cull_idle=getattr(args, "cull_idle", DEFAULT_CULL_IDLE),
            sep=getattr(args, "sep", ","),
            encoding=getattr(args, "encoding", "utf-8"),
            no_case_column=no_case_column,
        )
    except (ValueError, TypeError, OSError, ImportError) as error:
        message = " ".join(str(error).split())  # one line
        for keyword, option in _OPTION_WORDS:
            message = message.replace(keyword, option)
        print(f"nbstats: error: {message}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nbstats.app.server scores.csv [options]``."""
    parser = argparse.ArgumentParser(
        prog="nbstats dashboard",
        description="Serve a live dashboard of a score CSV on 127.0.0.1 (Voilà), "
        "locked by a token printed in its URL.",
    )
    parser.set_defaults(parser=parser)
    return run(add_arguments(parser).parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
