"""Fewer C heaps (malloc arenas) in the ``nbstats`` command's process.

glibc gives each thread that allocates at the same time as another a heap of
its own (an *arena*), up to eight per processor, and keeps what is freed in
each for reuse. A report runs its statistics in two threads (the Bayesian
pairs' halves, the Plackett–Luce chains), and its PDF then waits for
xelatex, which adds its own couple of hundred megabytes on top: the memory
the pool threads' arenas kept is what lifted a PDF report over its ceiling
(``benchmarks/bench_report.py``). Two arenas hold the command's two threads;
a third thread shares one. Standard library only: called before the
command's imports.
"""

from __future__ import annotations

import ctypes
import os
import sys

__all__ = ["ARENAS", "cap_malloc_arenas"]

#: Arenas the command's process may have: one per thread of its work.
ARENAS = 2
#: glibc's ``mallopt`` parameter ``M_ARENA_MAX`` (``malloc.h``).
_M_ARENA_MAX = -8


def cap_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Let glibc's ``malloc`` make at most ``arenas`` arenas in this process
    from now on; whether it was set.

    Not set elsewhere than on Linux with glibc, nor when the user chose a
    number with the ``MALLOC_ARENA_MAX`` environment variable (glibc reads
    it itself). For a command's own process only: a library call leaves
    the user's process as it is.

    Examples
    --------
    >>> cap_malloc_arenas() in (True, False)
    True
    """
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        # the process's own symbols, the C library's among them
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # no dlopen, or not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt(_M_ARENA_MAX, arenas) == 1
