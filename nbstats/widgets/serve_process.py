"""Running Voilà for ``nbstats dashboard``: its log, its URL, its stop.

:func:`run_voila` starts the command :func:`nbstats.widgets.serve.voila_command`
builds, relays Voilà's log, prints the URL (with the token) once Voilà
listens, and stops Voilà -- which shuts its kernels down -- on Ctrl-C or
SIGTERM. Standard library only.
"""

from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import threading
from typing import TextIO

__all__ = ["STOP_TIMEOUT", "run_voila"]

#: How long Voilà may take to shut its kernels down after a stop signal.
STOP_TIMEOUT = 15.0

_URL_LINE = re.compile(r"^\s*(https?://\S+)\s*$")


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
    if main_thread:
        previous_sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
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
        )
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous_sigint)
    with process:  # on leaving: the pipe is closed and Voilà reaped
        return _relay(process, out=out, log=log, main_thread=main_thread, token=token)


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
        url_next = False
        announced = False
        assert process.stdout is not None
        for line in process.stdout:
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
