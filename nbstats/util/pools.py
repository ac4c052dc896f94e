"""Thread pools that survive a fork (the command's warm process)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["thread_pool"]

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


def _forget_pools() -> None:
    global _LOCK
    _POOLS.clear()
    _LOCK = threading.Lock()  # held by a thread that is gone, perhaps


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)
