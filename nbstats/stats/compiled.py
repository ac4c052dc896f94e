"""One line before numba compiles nbstats' kernels (the first run after install).

The compiled kernels (``@numba.njit(cache=True)``) are compiled on their first
call and cached on disk beside their module (or in ``NUMBA_CACHE_DIR``); every
later process loads them in milliseconds. The first run after installing
nbstats, or after an upgrade, compiles them: seconds of silence. Each kernel
module calls :func:`announce` with its kernels when it is imported (kernel
modules load on first use, just before the compilation); if any of them has
no cache yet, one line on the process's standard error says what is happening,
once per process.

The line goes to ``sys.__stderr__``, the process's own stream, not to
``sys.stderr``: a report running its cells in this process captures the
latter as the notebook's output, and the compilation is no part of a report.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

__all__ = ["MESSAGE", "announce", "is_cached"]

#: What the line says.
MESSAGE = (
    "nbstats: compiling its numerical kernels with numba (once after installing "
    "or upgrading; later runs load them from the cache) ..."
)

_told = False


def is_cached(dispatcher: Any) -> bool:
    """Whether numba has an on-disk cache index for ``dispatcher`` (a
    function without ``cache=True``, or not compiled by numba, counts as
    cached: nothing to announce).

    Examples
    --------
    >>> is_cached(len)
    True
    """
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return index is None or os.path.exists(index)


def announce(*dispatchers: Any) -> bool:
    """Print :data:`MESSAGE` once per process if none of ``dispatchers`` (one
    module's kernels) is cached yet; return whether it was printed now."""
    global _told
    if _told or any(is_cached(d) for d in dispatchers):
        return False
    _told = True
    stream = sys.__stderr__
    if stream is not None:
        # a closed stream: nothing to say it on
        with contextlib.suppress(OSError, ValueError):
            print(MESSAGE, file=stream, flush=True)
    return True
