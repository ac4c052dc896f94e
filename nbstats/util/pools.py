"""Thread pools that survive a fork (the command's warm process)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["default_threads", "in_two_threads", "thread_pool"]

Item = TypeVar("Item")

_POOLS: dict[str, ThreadPoolExecutor] = {}
_LOCK = threading.Lock()


def thread_pool(name: str, workers: int = 2) -> ThreadPoolExecutor:
    """The process's pool ``name`` (made on first use, its threads named so).

    A forked process has none of its parent's threads, so a pool inherited
    from the parent would take work that no thread ever runs; after a fork
    (:mod:`nbstats.util.warm`) every pool is made anew.

    Examples
    --------
    >>> thread_pool("nbstats-example") is thread_pool("nbstats-example")
    True
    >>> thread_pool("nbstats-example").submit(sum, [1, 2]).result()
    3
    """
    with _LOCK:
        pool = _POOLS.get(name)
        if pool is None:
            pool = ThreadPoolExecutor(workers, thread_name_prefix=name)
            _POOLS[name] = pool
        return pool


def default_threads() -> int:
    """The threads a computation splits into by default: 2 on a machine with
    two processors or more, else 1.

    Examples
    --------
    >>> default_threads() in (1, 2)
    True
    """
    return 2 if (os.cpu_count() or 1) >= 2 else 1


#: Seconds :func:`in_two_threads` waits for the pool's half once this
#: thread's was interrupted (KeyboardInterrupt), before it lets the interrupt
#: go on. A Ctrl-C that lands while numba loads a kernel in this thread can
#: leave llvmlite's lock held by this thread (it is taken and released in
#: Python code); a pool thread that needs the lock then never ends, and
#: waiting for it would hang the caller. The command's own handler waits
#: those moments out (:mod:`nbstats.util.interrupts`); a Jupyter kernel's
#: does not. A half still running after this
#: is stuck, or in a long piece of work; either way it is left to end on its
#: own (its results are not used).
INTERRUPTED_WAIT = 10.0


def in_two_threads(
    name: str, work: Callable[[Sequence[Item]], Any], items: Sequence[Item]
) -> tuple[Any, Any]:
    """``(work(items[::2]), work(items[1::2]))``: the odd items in the pool
    ``name``, the even ones in this thread at the same time.

    Interleaved, so that each thread gets items of every size. When this
    thread's half fails, its error is raised once the pool's half has ended;
    when it is interrupted, after at most :data:`INTERRUPTED_WAIT` seconds.

    Examples
    --------
    >>> in_two_threads("nbstats-example", sum, [1, 2, 3, 4, 5])
    (9, 6)
    """
    other = thread_pool(name).submit(work, items[1::2])
    try:
        even = work(items[::2])
    except KeyboardInterrupt:
        futures.wait([other], timeout=INTERRUPTED_WAIT)
        raise
    except BaseException:
        futures.wait([other])
        raise
    return even, other.result()


def _forget_pools() -> None:
    global _LOCK
    _POOLS.clear()
    _LOCK = threading.Lock()  # held by a thread that is gone, perhaps


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)
