"""Voilà for ``nbstats dashboard``: its command line, its config, its process.

:func:`voila_command` is the locked command line (127.0.0.1, a token, a
kernel cap, idle culling), :func:`write_voila_config` the ``voila.py`` that
lets a closed page shut its kernel down; :func:`run_voila` starts Voilà,
relays its log, prints the URL (with the token) once Voilà listens, and
stops Voilà -- which shuts its kernels down -- on Ctrl-C or SIGTERM.
:func:`serve_notebook` runs them on a notebook, :func:`add_lock_arguments`
adds the lock's options to ``nbstats dashboard``. The lock:

- **a token**: a new random one each start (:func:`secrets.token_urlsafe`),
  printed in the URL (``http://127.0.0.1:PORT/?token=...``). A request
  without it -- the page, the kernel API, the kernel websocket -- is
  refused (the page redirects to a login form asking for it, the API
  answers 403), so neither another user of the machine nor a web page open
  in the browser can use the dashboard. The token reaches Voilà in its
  environment (``JUPYTER_TOKEN``), never on its command line, which every
  local user can read. ``--no-token`` serves without one, with a warning.
- **a kernel cap**: every page load starts a kernel (a few hundred MB). At most
  ``--max-kernels`` (default 3: a presenter's page and a spare or two) run
  at once; a page load beyond that gets an HTTP 503 page saying so and how
  to raise it (:mod:`nbstats.app.voila`). Closing or reloading a
  page shuts its kernel down.
- **idle culling**: a kernel idle for ``--cull-idle`` seconds (default 600)
  is stopped even if its page is open (reloading it starts a new one), so
  forgotten tabs give their memory and their place back.

:mod:`nbstats.app.server` re-exports :func:`voila_command` and
:func:`write_voila_config`. Standard library
only (jupyter_core when ``config_dir`` is given, nbformat in
:func:`serve_notebook`).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, TextIO

from nbstats.io.options import integer_at_least
from nbstats.reporting.export import remove_stale, scratch_prefix
from nbstats.util.interrupts import (
    Interrupted,
    clear_interrupts,
    record_interrupt,
    recorded_interrupt,
)
from nbstats.util.malloc_arenas import ARENAS

__all__ = [
    "DEFAULT_CULL_IDLE",
    "DEFAULT_MAX_KERNELS",
    "KERNEL_MANAGER",
    "NO_TOKEN_WARNING",
    "STOP_TIMEOUT",
    "add_lock_arguments",
    "check_limits",
    "free_port",
    "run_voila",
    "serve_notebook",
    "voila_command",
    "write_voila_config",
]

#: Default ``--max-kernels``: one kernel per open page, each a few hundred MB
#: (``benchmarks/bench_dashboard.py``), so 3 stay under 1 GB -- a presenter's
#: page, a second tab and a spare.
DEFAULT_MAX_KERNELS = 3
#: Default ``--cull-idle`` (seconds): a page unused for 10 minutes frees its kernel.
DEFAULT_CULL_IDLE = 600
#: The kernel manager Voilà is told to use (by name: it imports jupyter_server).
KERNEL_MANAGER = "nbstats.app.voila.CappedKernelManager"
#: The ``voila.py`` :func:`write_voila_config` writes (``c``: the config
#: object traitlets gives a config file).
VOILA_CONFIG = """\
# by nbstats dashboard: each page gets its _xsrf cookie, so that closing or
# reloading it shuts its kernel down; and a template that fetches nothing
# from another host (see nbstats.app.voila)
from nbstats.app.voila import set_xsrf_cookie, use_offline_template

c.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
use_offline_template(c)
"""

#: How long Voilà may take to shut its kernels down after a stop signal.
STOP_TIMEOUT = 15.0
#: --max-kernels and --cull-idle: whole numbers, 0 for no limit.
_whole_number = integer_at_least(0, "a whole number", "0 for no limit")

NO_TOKEN_WARNING = (
    "nbstats: warning: --no-token: the dashboard is open to every user and "
    "program on this machine, including any web page open in your browser; "
    "each of them can start kernels. Serve with a token (the default) unless "
    "you are alone on the machine."
)

_URL_LINE = re.compile(r"^\s*(https?://\S+)\s*$")


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that is free on ``host`` right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def voila_command(
    notebook: str | os.PathLike[str],
    *,
    port: int,
    port_retries: int = 0,
    connection_dir: str | os.PathLike[str] | None = None,
    config_dir: str | os.PathLike[str] | None = None,
    token: bool = True,
    max_kernels: int = DEFAULT_MAX_KERNELS,
    cull_idle: int = DEFAULT_CULL_IDLE,
) -> list[str]:
    """The Voilà command line: 127.0.0.1 only, no browser, sources stripped.

    ``token=True`` requires a token: the one in the ``JUPYTER_TOKEN``
    environment variable Voilà is started with (:func:`serve` sets it), else
    one jupyter_server generates and Voilà prints in its URL. At most
    ``max_kernels`` kernels (0: no limit); kernels idle for ``cull_idle``
    seconds are stopped, connected or not (0: never). ``config_dir``: where
    :func:`write_voila_config` wrote, searched before the user's Jupyter
    config directories.

    Examples
    --------
    >>> command = voila_command("d.ipynb", port=8866, max_kernels=2)
    >>> [arg for arg in command if "token" in arg or "max_kernels" in arg]
    ['--Voila.auto_token=True', '--CappedKernelManager.max_kernels=2']
    """
    check_limits(max_kernels, cull_idle)
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={int(port)}",
        f"--Voila.port_retries={int(port_retries)}",
        "--strip_sources=True",
        # local only: a failing cell shows its traceback in the page
        "--show_tracebacks=True",
        # never the token itself: any local user can read a command line
        f"--Voila.auto_token={bool(token)}",
        f"--VoilaConfiguration.multi_kernel_manager_class={KERNEL_MANAGER}",
        f"--CappedKernelManager.max_kernels={int(max_kernels)}",
        f"--CappedKernelManager.cull_idle_timeout={int(cull_idle)}",
        # checked often enough that a kernel outlives its idle time by <= 1/4
        f"--CappedKernelManager.cull_interval={max(1, min(60, cull_idle // 4))}",
        # an open but unused page is idle too: its kernel is what the cap frees
        "--CappedKernelManager.cull_connected=True",
    ]
    if connection_dir is not None:
        command.append(f"--Voila.connection_dir_root={connection_dir}")
    if config_dir is not None:  # not the working directory: voila.py there
        from jupyter_core.paths import jupyter_config_path  # would shadow Voilà

        for folder in [str(config_dir), *jupyter_config_path()]:
            command.append(f"--Voila.config_file_paths={folder}")
    return command


def write_voila_config(folder: str | os.PathLike[str]) -> Path:
    """Write the ``voila.py`` Voilà reads when started in ``folder``.

    It installs :func:`nbstats.app.voila.set_xsrf_cookie`, without
    which a page cannot shut its kernel down when closed (a Python hook: no
    command-line option can carry it), and the page's template that fetches
    nothing from another host
    (:func:`~nbstats.app.voila.use_offline_template`). Give ``folder`` to
    :func:`voila_command` as ``config_dir`` (never Voilà's working directory,
    where ``python -m voila`` would import this ``voila.py`` as Voilà).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     print(write_voila_config(folder).name)
    voila.py
    """
    path = Path(folder) / "voila.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(VOILA_CONFIG, encoding="utf-8")
    return path


def check_limits(max_kernels: int, cull_idle: int) -> None:
    """Refuse a kernel cap or idle time that is not a whole number >= 0.

    Examples
    --------
    >>> check_limits(3, 600)
    >>> check_limits(-1, 600)
    Traceback (most recent call last):
    ...
    ValueError: --max-kernels must be a whole number >= 0 (0: no limit), got -1.
    """
    for option, value in (("--max-kernels", max_kernels), ("--cull-idle", cull_idle)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(
                f"{option} must be a whole number >= 0 (0: no limit), got {value!r}."
            )


def add_lock_arguments(parser: argparse.ArgumentParser) -> None:
    """``--no-token``, ``--max-kernels`` and ``--cull-idle``."""
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


def serve_notebook(
    nb: Any,
    *,
    name: str,
    port: int | None,
    token: bool,
    max_kernels: int,
    cull_idle: int,
    out: TextIO,
    log: TextIO,
    announce: str,
) -> int:
    """Serve the notebook ``nb`` (written as ``name`` in a temporary
    directory, removed afterwards) with a locked Voilà until it stops.

    ``announce`` is printed to ``log`` before Voilà starts (after the
    :data:`NO_TOKEN_WARNING` when ``token=False``); returns
    :func:`run_voila`'s status.
    """
    import nbformat

    remove_stale(tempfile.gettempdir())  # what killed dashboards left
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("dashboard")) as tmp:
        notebook = Path(tmp) / name
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
        # Voilà and its kernels are the command's processes: few C heaps, as
        # the command's own (a dashboard's background threads each grew one
        # and kept what they freed); a user's own setting stands
        env.setdefault("MALLOC_ARENA_MAX", str(ARENAS))
        # the token goes by environment: a command line is public on the machine
        env.pop("JUPYTER_TOKEN_FILE", None)
        secret = secrets.token_urlsafe(32) if token else None
        if secret is None:
            env.pop("JUPYTER_TOKEN", None)
            print(NO_TOKEN_WARNING, file=log, flush=True)
        else:
            env["JUPYTER_TOKEN"] = secret
        print(announce, file=log, flush=True)
        return run_voila(command, cwd=tmp, env=env, out=out, log=log, token=secret)


#: Set SIGINT to be ignored (called in Voilà's process before it execs).
_IGNORE_SIGINT = functools.partial(signal.signal, signal.SIGINT, signal.SIG_IGN)


def run_voila(
    command: list[str],
    *,
    cwd: str,
    env: dict[str, str],
    out: TextIO,
    log: TextIO,
    token: str | None = None,
) -> int:
    """Run Voilà, relay its log, print its URL, stop it on Ctrl-C/SIGTERM.

    Voilà starts with SIGINT ignored: Ctrl-C in a terminal reaches the whole
    foreground process group, and a second signal while Voilà shuts its
    kernels down would break that off. Only this process reacts, and it sends
    Voilà exactly one SIGTERM. Voilà stays in this process group, so a
    process manager that kills the group still reaches it.

    Voilà prints ``?token=...`` for a token it did not generate: the URL
    printed to ``out`` carries ``token`` instead.

    Returns
    -------
    int
        0 after a stop by Ctrl-C or SIGTERM, else Voilà's exit status (1 if
        it exited 0 without ever listening).

    Examples
    --------
    A stand-in for Voilà that prints its URL and exits:

    >>> import io, sys
    >>> script = "print('Voila is running at:'); print('http://127.0.0.1:8866/?token=...')"
    >>> out, log = io.StringIO(), io.StringIO()
    >>> run_voila([sys.executable, "-c", script], cwd=".", env={}, out=out,
    ...           log=log, token="s3cr3t")
    0
    >>> print(out.getvalue(), end="")
    nbstats dashboard: http://127.0.0.1:8866/?token=s3cr3t
    """
    main_thread = threading.current_thread() is threading.main_thread()
    signum = recorded_interrupt()
    if signum is not None:  # an interrupt whose exception was dropped: never start
        raise Interrupted(signum)
    # a Ctrl-C or SIGTERM while Voilà starts is noted for _relay, which stops
    # Voilà: raised inside Popen it would leave Voilà running (and SIGINT,
    # ignored here as it once was, was lost)
    previous: dict[int, Any] = {}
    if main_thread:
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(
                number, lambda signum, frame: record_interrupt(signum)
            )
    try:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            # Voilà starts with SIGINT ignored: set in its process between
            # fork and exec, by a builtin (no Python code runs in the child,
            # the reason preexec_fn is unsafe with threads)
            preexec_fn=_IGNORE_SIGINT if os.name == "posix" else None,
        )
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    try:
        with process:  # on leaving: the pipe is closed and Voilà reaped
            return _relay(
                process, out=out, log=log, main_thread=main_thread, token=token
            )
    finally:
        clear_interrupts()  # acted on: Voilà stopped


def _relay(
    process: subprocess.Popen[str],
    *,
    out: TextIO,
    log: TextIO,
    main_thread: bool,
    token: str | None,
) -> int:
    def on_sigterm(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if main_thread:
        previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        if recorded_interrupt() is not None:  # Ctrl-C or SIGTERM while Voilà started
            raise KeyboardInterrupt
        url_next = False
        announced = False
        assert process.stdout is not None
        for line in process.stdout:
            if recorded_interrupt() is not None:  # its exception was dropped
                raise KeyboardInterrupt
            log.write(line)
            log.flush()
            if announced:
                continue
            if "is running at" in line:
                url_next = True
            elif url_next and (match := _URL_LINE.match(line)):
                url = match.group(1)
                if token is not None:
                    url = url.split("?", 1)[0] + f"?token={token}"
                print(f"nbstats dashboard: {url}", file=out, flush=True)
                announced = True
        code = process.wait()
        if not announced:
            print(
                "nbstats: Voilà stopped before serving the dashboard "
                f"(exit status {code}); see its log above.",
                file=log,
                flush=True,
            )
        return code if code != 0 or announced else 1
    except KeyboardInterrupt:
        print("nbstats: stopping Voilà…", file=log, flush=True)
        _stop(process, log)
        return 0
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        if process.poll() is None:  # an unexpected error: never leave it behind
            _stop(process, log)


def _stop(process: subprocess.Popen[str], log: TextIO) -> None:
    """Ask Voilà to stop (it shuts its kernels down), kill it if it hangs.

    Its remaining output is relayed meanwhile, so that a full pipe never
    blocks its shutdown.
    """
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
    try:
        rest, _ = process.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        rest, _ = process.communicate()
    except KeyboardInterrupt:  # a second Ctrl-C: stop now
        process.kill()
        rest, _ = process.communicate()
    if rest:
        log.write(rest)
        log.flush()
