"""``nbstats dashboard scores.csv``: a dashboard as a standalone web page.

For teaching, and for people who do not use notebooks: the command builds a
notebook that loads the CSV and displays :func:`nbstats.dashboard`, writes
it to a temporary directory and serves it with Voilà on 127.0.0.1 (code
cells hidden). The URL is printed once Voilà listens; Ctrl-C stops Voilà,
which shuts its kernels down, and the temporary directory is removed.

The server is locked, as Jupyter's are:

- **a token**: a new random one each start (:func:`secrets.token_urlsafe`),
  printed in the URL (``http://127.0.0.1:PORT/?token=...``). A request
  without it -- the page, the kernel API, the kernel websocket -- is
  refused (the page redirects to a login form asking for it, the API
  answers 403), so neither another user of the machine nor a web page open
  in the browser can use the dashboard. The token reaches Voilà in its
  environment (``JUPYTER_TOKEN``), never on its command line, which every
  local user can read. ``--no-token`` serves without one, with a warning.
- **a kernel cap**: every page load starts a kernel (200-300 MB). At most
  ``--max-kernels`` (default 3: a presenter's page and a spare or two) run
  at once; a page load beyond that gets an HTTP 503 page saying so and how
  to raise it (:mod:`nbstats.widgets.serve_voila`). Closing or reloading a
  page shuts its kernel down.
- **idle culling**: a kernel idle for ``--cull-idle`` seconds (default 600)
  is stopped even if its page is open (reloading it starts a new one), so
  forgotten tabs give their memory and their place back.

Voilà is an optional dependency: ``pip install "nbstats[dashboard]"``.

This module imports only the standard library and pandas at import time;
nbformat is imported by :func:`build_notebook`, Voilà runs in a subprocess.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import os
import re
import secrets
import sys
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from nbstats.widgets.serve_process import (
    DEFAULT_CULL_IDLE,
    DEFAULT_MAX_KERNELS,
    check_limits,
    free_port,
    run_voila,
    voila_command,
    write_voila_config,
)

__all__ = [
    "KINDS",
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

#: The dashboards ``nbstats dashboard --kind`` can serve.
KINDS = ("bayes", "frequentist", "ranks")
#: ``--aliases`` → the ``aliases=`` of :func:`nbstats.dashboard`.
ALIASES = {"auto": "auto", "on": True, "off": False}
NAN_POLICIES = ("raise", "omit")

#: CSS class the served notebook gives each control (``nbstats-control-<name>``)
#: and the whole dashboard (``nbstats-dashboard``), so pages can be styled and
#: driven by a browser test without depending on widget labels.
CONTROL_CLASS = "nbstats-control-"
DASHBOARD_CLASS = "nbstats-dashboard"

NO_TOKEN_WARNING = (
    "nbstats: warning: --no-token: the dashboard is open to every user and "
    "program on this machine, including any web page open in your browser; "
    "each of them can start kernels. Serve with a token (the default) unless "
    "you are alone on the machine."
)


def load_scores(
    csv: str | os.PathLike[str],
    *,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
    nan_policy: str = "raise",
) -> pd.DataFrame:
    """Read a score CSV and validate it as :func:`nbstats.score_table` does.

    Wide (no ``case``/``algorithm``/``score``): first column = case names, the
    other columns = algorithms. Long: one row per (case, algorithm[, fold]),
    the three columns named by ``case``, ``algorithm`` and ``score``.
    """
    import nbstats

    path = Path(csv)
    if not path.is_file():
        raise FileNotFoundError(f"no such score file: {str(path)!r}")
    long = any(v is not None for v in (case, algorithm, score))
    if aggregate is not None and not long:
        raise ValueError(
            "aggregate combines repeated rows of long data; give --case, "
            "--algorithm and --score too."
        )
    raw = pd.read_csv(path) if long else pd.read_csv(path, index_col=0)
    return nbstats.score_table(
        raw,
        case=case,
        algorithm=algorithm,
        score=score,
        aggregate=aggregate,
        nan_policy=nan_policy,
    )


def build_notebook(
    csv: str | os.PathLike[str],
    *,
    kind: str = "bayes",
    higher_is_better: bool = True,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    aggregate: str | None = None,
    title: str | None = None,
    nan_policy: str = "raise",
    aliases: str = "auto",
) -> Any:
    """The notebook Voilà serves: a title and one cell showing the dashboard.

    The CSV is read by the kernel from its absolute path (so every page load
    sees the file as it is then); names are embedded with :func:`repr`, so
    any path or column name is safe.

    Returns
    -------
    nbformat.NotebookNode
        A version-4 notebook with the ``python3`` kernel.

    Examples
    --------
    >>> nb = build_notebook("scores.csv", kind="ranks")
    >>> print(nb.cells[-1].source)  # doctest: +ELLIPSIS
    import logging
    <BLANKLINE>
    import pandas as pd
    import nbstats
    <BLANKLINE>
    # a missing font is not the reader's business
    logging.getLogger('matplotlib.font_manager').setLevel(logging.ERROR)
    scores = pd.read_csv(r'/.../scores.csv', index_col=0)
    board = nbstats.dashboard(scores, kind='ranks')
    ...
    """
    import nbformat.v4 as nbf

    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    _check_options(nan_policy, aliases)
    path = Path(csv).expanduser().resolve()
    long = any(v is not None for v in (case, algorithm, score))
    if long:
        read = (
            f"nbstats.score_table(\n    pd.read_csv({_literal(path)}),\n"
            f"    case={case!r},\n    algorithm={algorithm!r},\n"
            f"    score={score!r},\n    aggregate={aggregate!r},\n"
            f"    nan_policy={nan_policy!r},\n)"
        )
    else:  # the dashboard validates (and names the cases nan_policy drops)
        read = f"pd.read_csv({_literal(path)}, index_col=0)"
    options = f"kind={kind!r}"
    if not higher_is_better:
        options += ", higher_is_better=False"
    if nan_policy != "raise":
        options += f", nan_policy={nan_policy!r}"
    if aliases != "auto":
        options += f", aliases={ALIASES[aliases]!r}"
    code = "\n".join(
        [
            "import logging",
            "",
            "import pandas as pd",
            "import nbstats",
            "",
            "# a missing font is not the reader's business",
            "logging.getLogger('matplotlib.font_manager').setLevel(logging.ERROR)",
            f"scores = {read}",
            f"board = nbstats.dashboard(scores, {options})",
            "# hooks for styling and browser tests",
            f"board.widget.add_class({DASHBOARD_CLASS!r})",
            "for name, control in board.controls.items():",
            f"    control.add_class({CONTROL_CLASS!r} + name)",
            "board",
        ]
    )
    direction = "higher" if higher_is_better else "lower"
    heading = title or f"nbstats — {_KIND_TITLES[kind]}"
    intro = (
        f"# {html.escape(heading)}\n\n"
        f"Scores from <code>{html.escape(path.name)}</code> "
        f"({direction} scores are better; rank 1 = best). "
        "Move a control and every view is recomputed."
    )
    nb = nbf.new_notebook(
        cells=[nbf.new_markdown_cell(intro), nbf.new_code_cell(code)],
        metadata={
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3",
                "language": "python",
            },
            "language_info": {"name": "python"},
        },
    )
    return nb


_KIND_TITLES = {
    "bayes": "Bayesian comparison dashboard",
    "frequentist": "frequentist comparison dashboard",
    "ranks": "rank confidence intervals dashboard",
}


def _check_options(nan_policy: str, aliases: str) -> None:
    if nan_policy not in NAN_POLICIES:
        raise ValueError(
            f"--nan-policy must be one of {', '.join(NAN_POLICIES)}; "
            f"got {nan_policy!r}."
        )
    if aliases not in ALIASES:
        raise ValueError(
            f"--aliases must be one of {', '.join(ALIASES)}; got {aliases!r}."
        )


def _literal(path: Path) -> str:
    """A Python literal for a path (raw string when it has no quote or
    trailing backslash, else plain repr)."""
    text = str(path)
    if "'" not in text and not text.endswith("\\") and "\n" not in text:
        return f"r'{text}'"
    return repr(text)


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
    nan_policy: str = "raise",
    aliases: str = "auto",
    token: bool = True,
    max_kernels: int = DEFAULT_MAX_KERNELS,
    cull_idle: int = DEFAULT_CULL_IDLE,
    out: TextIO | None = None,
    log: TextIO | None = None,
) -> int:
    """Serve a dashboard of ``csv`` with Voilà until Ctrl-C (or SIGTERM).

    The scores are validated first, so a bad file is reported here, not in
    the page. Voilà's log goes to ``log`` (default stderr); once it listens,
    ``"nbstats dashboard: <url>"`` is printed to ``out`` (default stdout),
    with ``?token=...`` unless ``token=False`` (which prints a warning to
    ``log`` instead). ``port=None`` picks a free port. At most
    ``max_kernels`` pages have a kernel at once (0: no limit); a kernel idle
    for ``cull_idle`` seconds is stopped (0: never).

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
    _check_options(nan_policy, aliases)
    check_limits(max_kernels, cull_idle)
    if importlib.util.find_spec("voila") is None:
        raise ModuleNotFoundError(
            "the dashboard server needs Voilà: pip install 'nbstats[dashboard]'",
            name="voila",
        )
    with warnings.catch_warnings():  # the page names the dropped cases
        warnings.simplefilter("ignore")
        table = load_scores(
            csv,
            case=case,
            algorithm=algorithm,
            score=score,
            aggregate=aggregate,
            nan_policy=nan_policy,
        )
    if port is not None and not 0 < port < 65536:
        raise ValueError(f"--port must be between 1 and 65535, got {port}.")

    import nbformat

    nb = build_notebook(
        csv,
        kind=kind,
        higher_is_better=higher_is_better,
        case=case,
        algorithm=algorithm,
        score=score,
        aggregate=aggregate,
        nan_policy=nan_policy,
        aliases=aliases,
    )
    with tempfile.TemporaryDirectory(prefix="nbstats-dashboard-") as tmp:
        stem = re.sub(r"[^\w.-]+", "_", Path(csv).stem) or "scores"
        notebook = Path(tmp) / f"{stem}.ipynb"
        nbformat.write(nb, notebook)
        config = write_voila_config(Path(tmp) / "config").parent
        # a port we chose may be taken in the meantime: let Voilà try others
        # then (it reports the one it got); a port the user chose must be that
        retries = 0 if port is not None else 10
        command = voila_command(
            notebook,
            port=free_port() if port is None else port,
            port_retries=retries,
            connection_dir=tmp,
            config_dir=config,
            token=token,
            max_kernels=max_kernels,
            cull_idle=cull_idle,
        )
        env = dict(os.environ)
        # kernels need matplotlib's inline backend to show figures in the page
        env.pop("MPLBACKEND", None)
        env["PYTHONUNBUFFERED"] = "1"
        # the token goes by environment: a command line is public on the machine
        env.pop("JUPYTER_TOKEN_FILE", None)
        secret = secrets.token_urlsafe(32) if token else None
        if secret is None:
            env.pop("JUPYTER_TOKEN", None)
            print(NO_TOKEN_WARNING, file=log, flush=True)
        else:
            env["JUPYTER_TOKEN"] = secret
        print(
            f"nbstats: serving the {kind} dashboard of {table.shape[1]} algorithms "
            f"on {table.shape[0]} cases with Voilà (Ctrl-C to stop)",
            file=log,
            flush=True,
        )
        return run_voila(command, cwd=tmp, env=env, out=out, log=log, token=secret)


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of ``nbstats dashboard`` (shared by :mod:`nbstats.cli`)."""
    parser.add_argument(
        "csv",
        help="wide: rows = cases (first column), columns = algorithms; "
        "long: one row per (case, algorithm[, fold]) with --case/--algorithm/--score",
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
    parser.add_argument(
        "--no-token",
        action="store_true",
        help="serve without a token: every user and program on this machine, "
        "and any web page open in your browser, can then open the dashboard and "
        "start kernels (a warning is printed). Default: a new random token each "
        "start, printed in the URL; requests without it are refused",
    )
    parser.add_argument(
        "--max-kernels",
        type=_whole_number,
        default=DEFAULT_MAX_KERNELS,
        metavar="N",
        help="most pages served at once: each page load runs its own kernel "
        "(200-300 MB); a page beyond N gets an error page saying so. 0 = no limit "
        f"(default: {DEFAULT_MAX_KERNELS})",
    )
    parser.add_argument(
        "--cull-idle",
        type=_whole_number,
        default=DEFAULT_CULL_IDLE,
        metavar="SECONDS",
        help="stop the kernel of a page unused for this long, even if still open, "
        "freeing its memory and its place under --max-kernels (reload the page to "
        f"get a new one). 0 = never (default: {DEFAULT_CULL_IDLE})",
    )
    parser.add_argument("--lower-is-better", action="store_true")
    parser.add_argument("--case", default=None, help="long data: the case column")
    parser.add_argument(
        "--algorithm", default=None, help="long data: the algorithm column"
    )
    parser.add_argument("--score", default=None, help="long data: the score column")
    parser.add_argument(
        "--aggregate",
        choices=("mean", "median"),
        default=None,
        help="long data: combine repeated rows (e.g. folds) of a case and algorithm",
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
        help="short names A, B, ... with a legend to the full names: 'auto' when "
        "a name is longer than 20 characters, 'on' always, 'off' never "
        "(default: auto)",
    )
    return parser


def _whole_number(text: str) -> int:
    """An argparse type: an integer >= 0, refused with the fix."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"expected a whole number >= 0 (0: no limit), got {text!r}"
        )
    return value


def run(args: argparse.Namespace) -> int:
    """Serve the dashboard described by parsed :func:`add_arguments` options.

    Errors are reported as ``nbstats: error: ...`` on stderr (status 2).
    """
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
            nan_policy=getattr(args, "nan_policy", "raise"),
            aliases=getattr(args, "aliases", "auto"),
            token=not getattr(args, "no_token", False),
            max_kernels=getattr(args, "max_kernels", DEFAULT_MAX_KERNELS),
            cull_idle=getattr(args, "cull_idle", DEFAULT_CULL_IDLE),
        )
    except (ValueError, TypeError, OSError, ImportError) as error:
        message = str(error)
        if "aggregate=" in message and args.aggregate is None:
            message += " (here: --aggregate mean or --aggregate median)"
        print(f"nbstats: error: {message}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nbstats.widgets.serve scores.csv [options]``."""
    parser = argparse.ArgumentParser(
        prog="nbstats dashboard",
        description="Serve a live dashboard of a score CSV on 127.0.0.1 (Voilà), "
        "locked by a token printed in its URL.",
    )
    return run(add_arguments(parser).parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
