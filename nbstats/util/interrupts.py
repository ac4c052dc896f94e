"""The ``nbstats`` command's interrupts (SIGINT, SIGTERM): noted, honoured
before anything is written, and kept out of the compiler's locks.

The command's signal handlers raise KeyboardInterrupt, so that every layer
cleans up as it does for Ctrl-C. Two ways that can go wrong:

- Python drops an exception raised inside a finalizer (an object collected
  at that moment), printing it where standard error points: inside a
  report's cells, into the cell's output. So the handlers also *note* the
  signal (:func:`record_interrupt`), and the places that commit work (a
  report's files moved into place, Voilà started) ask for the note
  (:func:`raise_recorded_interrupt`).
- numba's and llvmlite's locks are taken and released by Python code (a
  ``with`` block's ``__enter__`` and ``__exit__``). An exception raised
  between the lock's ``acquire`` and the end of ``__enter__``, or in
  ``__exit__`` before its ``release``, leaves the lock held for good: a
  thread of the command that needs it next (the second half of a
  computation loading the same kernel) waits forever. A handler that finds
  the interrupt there (:func:`inside_compiler_lock`) hands it back to be
  handled a moment later (:func:`deliver_later`), once the lock's code has
  run.
"""

from __future__ import annotations

import _thread
import os
import signal
import threading
from types import FrameType

__all__ = [
    "DELIVER_AFTER",
    "Interrupted",
    "clear_interrupts",
    "deliver_later",
    "inside_compiler_lock",
    "raise_recorded_interrupt",
    "record_interrupt",
    "recorded_interrupt",
]

#: Seconds after which :func:`deliver_later` delivers a signal again.
DELIVER_AFTER = 0.005
#: Signals noted by :func:`record_interrupt`, first first.
_RECEIVED: list[int] = []

#: The functions that take or let go of a compiler lock, by the last parts of
#: their file's path: inside them an exception would leave the lock held.
_LOCK_CODE = {
    ("llvmlite", "binding", "ffi.py"): frozenset({"__enter__", "__exit__"}),
    ("numba", "core", "compiler_lock.py"): frozenset(
        {"__enter__", "__exit__", "acquire", "release"}
    ),
}


def record_interrupt(signum: int) -> None:
    """Note that the process received ``signum`` (SIGINT or SIGTERM): called
    by ``nbstats``' signal handlers before they raise.

    Examples
    --------
    >>> import signal
    >>> record_interrupt(signal.SIGTERM)
    >>> recorded_interrupt() == signal.SIGTERM
    True
    >>> clear_interrupts()
    """
    _RECEIVED.append(signum)


def clear_interrupts() -> None:
    """Forget the signals noted (at the start and end of a command)."""
    _RECEIVED.clear()


def recorded_interrupt() -> int | None:
    """The first signal noted since :func:`clear_interrupts`, or None."""
    return _RECEIVED[0] if _RECEIVED else None


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM during a command (a :class:`KeyboardInterrupt`, so that
    the library cleans up as for Ctrl-C), carrying the signal's number
    (``.signum``: the command's exit status is 128 plus it).

    Examples
    --------
    >>> import signal
    >>> error = Interrupted(signal.SIGTERM)
    >>> str(error), error.signum == signal.SIGTERM
    ('SIGTERM', True)
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def raise_recorded_interrupt() -> None:
    """Raise the KeyboardInterrupt of a signal noted but not acted on (its
    exception dropped): before a command commits its work.

    Examples
    --------
    >>> raise_recorded_interrupt()  # nothing noted: nothing raised
    """
    if _RECEIVED:
        raise Interrupted(_RECEIVED[0])


def inside_compiler_lock(frame: FrameType | None) -> bool:
    """Whether ``frame`` (a signal handler's), or a frame that called it, is
    taking or letting go of numba's or llvmlite's lock: an exception raised
    now could leave the lock held.

    Examples
    --------
    >>> import sys
    >>> inside_compiler_lock(sys._getframe())
    False
    """
    while frame is not None:
        code = frame.f_code
        place = tuple(os.path.normpath(code.co_filename).split(os.sep)[-3:])
        names = _LOCK_CODE.get(place)
        if names is not None and code.co_name in names:
            return True
        frame = frame.f_back
    return False


def deliver_later(signum: int) -> None:
    """Have the main thread's handler of ``signum`` called again in a few
    milliseconds, as if the signal came again: from a handler that cannot
    act yet.

    Not at once: the interpreter would call the handler again inside this
    one (it checks for signals between any two steps of Python code), and
    that one again, while the lock's code waits for them all to return.
    """
    # _thread.interrupt_main is the documented way to simulate a signal's
    # arrival (a second real one could be lost, or reach a child process)
    timer = threading.Timer(DELIVER_AFTER, _thread.interrupt_main, (signum,))
    timer.daemon = True
    timer.start()
