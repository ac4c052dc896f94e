"""Ending a command's process without the interpreter's teardown."""

from __future__ import annotations

import atexit
import contextlib
import os
import sys

__all__ = ["exit_quickly"]


def exit_quickly(code: int | None) -> None:
    """End the process now with status ``code`` (None: 0), after flushing
    the standard streams and running the exit handlers.

    For the ``nbstats`` command only, once its work is done and its files
    are closed: the interpreter's own teardown then frees every object of
    pandas, SciPy, matplotlib and numba's compiler one by one, a large share
    of a short command's time (``benchmarks/bench_report.py``) that changes
    nothing the command wrote. The exit handlers still run: temporary
    directories are removed, logs flushed. Never call it from a library
    function: it ends the caller's process.
    """
    for stream in (sys.stdout, sys.stderr):
        # a closed pipe or stream: nothing left to save
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    # atexit has no public way to run its handlers early; this is the one
    # the interpreter itself calls
    atexit._run_exitfuncs()
    os._exit(0 if code is None else int(code))
