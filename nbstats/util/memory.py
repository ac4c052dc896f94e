"""The memory ceiling of the Bayesian tests.

Every Bayesian function works through its posterior draws in chunks, and
keeps per-draw arrays (the pairs' Walsh sums, stored events, cached random
numbers) only within a share of one ceiling: by default 512 MiB of working
memory, so that a call at any size stays below 1 GB with the interpreter and
its libraries (about 200 MB). Set it

- for a process, with the environment variable ``NBSTATS_MAX_MEMORY`` (bytes,
  or with a unit: ``"256M"``, ``"2G"``), read when nbstats is imported
  — e.g. for ``nbstats report``, whose notebook runs in its own kernel;
- in code, with :func:`set_memory_ceiling`, or for a block with
  :func:`memory_ceiling`.

The value set in code belongs to the current *context*
(:mod:`contextvars`): a thread or an asyncio task that sets it changes
neither another thread's nor another task's, and leaving a ``with`` block
restores exactly the value it found, whatever other threads did meanwhile.
A new thread starts from the process-wide default (the environment
variable's); the threads and tasks nbstats starts itself (a race's calls
with a time limit, a study's tasks, also in other processes) run with the
ceiling of the caller that started them.

A lower ceiling makes the functions evaluate fewer pairs or draws at a time
(slower, never different: the draws are the same); it does not bound what a
result holds (e.g. ``n_samples`` draws of θ for a plot).

Examples
--------
>>> from nbstats.util import memory
>>> with memory.memory_ceiling("128M"):
...     memory.get_memory_ceiling() // 2**20
128
>>> memory.get_memory_ceiling() == memory.DEFAULT_CEILING
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = [
    "DEFAULT_CEILING",
    "budget",
    "check_fits",
    "get_memory_ceiling",
    "give_back_freed_memory",
    "memory_ceiling",
    "run_with_ceiling",
    "set_memory_ceiling",
    "trim_heap",
]

_T = TypeVar("_T")

#: Working memory of a Bayesian call, bytes (without the environment variable).
DEFAULT_CEILING = 512 * 2**20
#: Below this the functions cannot work (one chunk of draws needs a few MB).
MIN_CEILING = 16 * 2**20

_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def parse_bytes(value: int | str, name: str = "value") -> int:
    """Bytes from an int or a string such as ``"512M"`` or ``"1.5G"``;
    ``name`` is the argument (or variable) the messages name.

    Examples
    --------
    >>> parse_bytes("1.5G") == 3 * 2**29, parse_bytes(2**25)
    (True, 33554432)
    """
    if isinstance(value, bool):
        raise TypeError(
            f"{name} must be a memory ceiling in bytes (int) or a size such as "
            f"'512M', got {value!r} (bool)."
        )
    if isinstance(value, int):
        nbytes = value
    elif isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([KMG]?)i?B?\s*", value.upper())
        if match is None:
            raise ValueError(
                f"{name}={value!r} is not a size; write bytes or e.g. '512M', '2G'."
            )
        nbytes = int(float(match.group(1)) * _UNITS[match.group(2)])
    else:
        raise TypeError(
            f"{name} must be a memory ceiling in bytes (int) or a size such as "
            f"'512M', got {value!r} ({type(value).__name__})."
        )
    if nbytes < MIN_CEILING:
        raise ValueError(
            f"{name}={value!r} is a memory ceiling of {nbytes:,} bytes, too "
            f"small; use at least {MIN_CEILING // 2**20} MB."
        )
    return nbytes


def _from_environment() -> int:
    value = os.environ.get("NBSTATS_MAX_MEMORY")
    if value is None or not value.strip():
        return DEFAULT_CEILING
    try:
        return parse_bytes(value, "NBSTATS_MAX_MEMORY")
    except TypeError as error:  # pragma: no cover - the environment holds text
        raise ValueError(str(error)) from None


#: The process-wide default: the environment variable's, read at import.
_DEFAULT = _from_environment()
#: The ceiling set in code, per context (None: the process-wide default).
_CEILING: ContextVar[int | None] = ContextVar("nbstats_memory_ceiling", default=None)


def get_memory_ceiling() -> int:
    """The current context's ceiling, bytes.

    Examples
    --------
    >>> get_memory_ceiling() >= MIN_CEILING
    True
    """
    value = _CEILING.get()
    return _DEFAULT if value is None else value


def set_memory_ceiling(value: int | str | None) -> int:
    """Set the current context's ceiling (bytes or e.g. ``"256M"``; None: the
    process-wide default, ``NBSTATS_MAX_MEMORY``'s or 512 MiB); returns the
    previous one. Other threads and asyncio tasks keep theirs.

    Examples
    --------
    >>> previous = set_memory_ceiling("64M")
    >>> get_memory_ceiling() // 2**20
    64
    >>> _ = set_memory_ceiling(None)
    """
    previous = get_memory_ceiling()
    _CEILING.set(None if value is None else parse_bytes(value))
    return previous


def memory_ceiling(value: int | str) -> AbstractContextManager[None]:
    """The ceiling ``value`` inside a ``with`` block, in this context only.

    Leaving the block (also by an exception) restores the value found on
    entry, even when other threads or tasks entered and left their own
    blocks in between.

    Examples
    --------
    >>> with memory_ceiling("32M"):
    ...     get_memory_ceiling() // 2**20
    32
    """
    return _ceiling_block(parse_bytes(value))  # checked now, not on entry


@contextmanager
def _ceiling_block(nbytes: int) -> Iterator[None]:
    token = _CEILING.set(nbytes)
    try:
        yield
    finally:
        _CEILING.reset(token)


def run_with_ceiling(
    ceiling: int, function: Callable[..., _T], *args: Any, **kwargs: Any
) -> _T:
    """``function(*args, **kwargs)`` under ``ceiling`` (bytes): how work that
    nbstats hands to another thread or process, which do not inherit a
    context, keeps its caller's ceiling (picklable, unlike a
    :class:`contextvars.Context`).

    Examples
    --------
    >>> run_with_ceiling(2**25, get_memory_ceiling)
    33554432
    """
    with memory_ceiling(ceiling):
        return function(*args, **kwargs)


def budget(share: float = 0.125) -> int:
    """Bytes one kind of per-draw array may take: ``share`` of the ceiling
    (an eighth by default: 64 MiB of the default 512 MiB)."""
    return int(get_memory_ceiling() * share)


def check_fits(nbytes: int, what: str, fix: str) -> None:
    """A clear error when ``what`` needs more than the ceiling at once.

    Examples
    --------
    >>> check_fits(2**40, "the draws", "use fewer")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the draws need about 1,048,576 MB at once, over the memory ...
    """
    ceiling = get_memory_ceiling()
    if nbytes > ceiling:
        # the need rounded up and the ceiling down: ceil(x) >= x > y >=
        # floor(y), so the words never read "24 MB, over the ceiling of 24 MB"
        need, limit = -(-int(nbytes) // 2**20), ceiling // 2**20
        raise ValueError(
            f"{what} need about {need:,} MB at once, over the memory "
            f"ceiling of {limit:,} MB (NBSTATS_MAX_MEMORY or "
            f"nbstats.set_memory_ceiling); {fix}."
        )


def give_back_freed_memory() -> None:
    """Collect garbage and return the freed heap to the system (glibc's
    ``malloc_trim``), before this process waits for a large subprocess.

    A report keeps the heap its analyses grew to (glibc keeps freed blocks
    for reuse); xelatex then adds its own 200 MB on top. Elsewhere than
    glibc, only the garbage is collected.

    Examples
    --------
    >>> give_back_freed_memory()
    """
    import gc

    gc.collect()
    trim_heap()


def trim_heap() -> None:
    """Return the free pages of the C heap to the system (glibc's
    ``malloc_trim``), without a garbage collection: after work whose large
    temporaries are gone, in a process that lives on (a dashboard's kernel).
    Elsewhere than glibc, nothing.

    Examples
    --------
    >>> trim_heap()
    """
    import ctypes

    try:
        # the process's own symbols, the C library's among them
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc (or no dlopen)
        return
    trim(0)
