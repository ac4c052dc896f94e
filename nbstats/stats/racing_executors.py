"""Running a race's evaluations: in process or on an executor, with a time limit.

:func:`run_calls` runs one step's ``evaluate(candidate, instance)`` calls and
returns every value it got and every failure, whatever went wrong: the user's
function raised, a call ran past the time limit, a process-pool worker died
(``BrokenProcessPool``), the function or its arguments could not be sent to a
worker (pickling). The racing procedure (:mod:`nbstats.stats.racing`) turns a
failure into a :class:`~nbstats.stats.racing.RaceError`; :func:`describe_failure`
words the cause the same way for :func:`nbstats.simulate.study`.
"""

from __future__ import annotations

import contextvars
import dataclasses
import datetime as dt
import math
import pickle
import reprlib
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import (
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    as_completed,
)
from concurrent.futures.process import BrokenProcessPool
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from nbstats.results.racing import RaceResult

__all__ = [
    "CallFailure",
    "RaceError",
    "check_timeout",
    "describe_failure",
    "failure_words",
    "real_number_problem",
    "run_calls",
    "score_problem",
    "show",
]

# executors whose futures say when a call starts (Future.running())
_REPORTS_RUNNING = (ThreadPoolExecutor, ProcessPoolExecutor)
# seconds between two looks at the pending calls when there is no time limit
_POLL = 0.1
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 80
_SHORT.maxdict = _SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxset = 12


class RaceError(RuntimeError):
    """An evaluation failed, so the race stopped.

    The message names the candidate and the instance; the original exception
    is the ``__cause__``: the one ``evaluate`` raised (any exception but
    ``KeyboardInterrupt``: ``SystemExit`` and ``GeneratorExit`` too, e.g. a
    process-pool worker's ``sys.exit()``), the executor's
    ``BrokenProcessPool``, pickling error or ``RuntimeError`` (shut down),
    a ``CancelledError`` when the executor cancelled the call, a
    ``TimeoutError`` at the time limit, the ``TypeError``/``ValueError`` of a
    score that is not a finite real number, or what the ``instances``
    iterable raised.

    Attributes
    ----------
    partial_result : RaceResult
        Everything gathered before the failure: every instance on which all
        surviving candidates were evaluated (an instance with a failed
        evaluation is left out whole, so ``scores`` has no hole and
        ``evaluations`` counts exactly the scores it holds).
    candidate, instance : object
        The call that failed: ``evaluate(candidate, instance)`` (both
        ``None`` when the ``instances`` iterable failed).
    kind : str
        ``"raised"``, ``"timeout"``, ``"worker died"``, ``"not sent"`` (the
        executor could not pickle the call, or was shut down),
        ``"cancelled"`` (the executor cancelled the call), ``"bad score"`` or
        ``"instances"`` (iterating over the instances raised).
    timeout : float or None
        The race's time limit per evaluation.
    """

    def __init__(
        self,
        message: str,
        partial_result: RaceResult,
        candidate: Any = None,
        instance: Any = None,
        kind: str = "raised",
        timeout: float | None = None,
    ) -> None:
        super().__init__(message)
        self.partial_result = partial_result
        self.candidate = candidate
        self.instance = instance
        self.kind = kind
        self.timeout = timeout

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            type(self),
            (
                self.args[0],
                self.partial_result,
                self.candidate,
                self.instance,
                self.kind,
                self.timeout,
            ),
        )


@dataclasses.dataclass(frozen=True)
class CallFailure:
    """Call number ``index`` failed with ``error``; ``kind`` is one of
    ``"raised"``, ``"timeout"``, ``"worker died"``, ``"not sent"`` (pickling,
    an executor shut down), ``"cancelled"``, ``"bad score"`` or
    ``"instances"``."""

    index: int
    error: BaseException
    kind: str


def check_timeout(timeout: object) -> float | None:
    """``None`` or a positive, finite number of seconds.

    Examples
    --------
    >>> check_timeout(0.5), check_timeout(None)
    (0.5, None)
    """
    if timeout is None:
        return None
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, Real)
        or not math.isfinite(float(timeout))
        or timeout <= 0
    ):
        raise ValueError(
            f"timeout must be a positive number of seconds (or None for no "
            f"limit), got {timeout!r}."
        )
    return float(timeout)


def real_number_problem(value: object) -> str | None:
    """Why ``value`` is not a real number, or ``None`` if it is one.

    Python and numpy integers and floats are real numbers; ``bool`` (and
    ``numpy.bool_``), strings (even ``"0.5"``), ``None``, complex numbers,
    durations and dates (``numpy.timedelta64``, which numpy counts as an
    integer, ``numpy.datetime64``, ``datetime``), arrays and integers too
    large for a float (``10**400``) are not. Finiteness is not checked here.

    Examples
    --------
    >>> import numpy as np
    >>> real_number_problem(np.float32(0.5)) is None
    True
    >>> real_number_problem("0.5")
    'a str, not a number (convert it with float() if it is one)'
    >>> real_number_problem(True)
    'a bool, not a number (return 1.0 or 0.0 if that is the score)'
    >>> real_number_problem(np.timedelta64(3, "s"))[:44]
    'a timedelta64 (a duration or a date), not a '
    """
    kind = type(value).__name__
    if isinstance(value, bool) or kind == "bool_" or kind == "bool":
        return f"a {kind}, not a number (return 1.0 or 0.0 if that is the score)"
    if isinstance(value, (str, bytes)):
        return f"a {kind}, not a number (convert it with float() if it is one)"
    if isinstance(value, (np.timedelta64, np.datetime64, dt.timedelta, dt.date)):
        return (
            f"a {kind} (a duration or a date), not a number (convert it to "
            "one, e.g. seconds: value / np.timedelta64(1, 's'))"
        )
    if isinstance(value, Real):
        try:
            float(value)
        except OverflowError:
            return "too large for a float (beyond ±1.8e308)"
        except Exception as error:  # a Real whose __float__ fails
            return f"a {kind} that float() cannot convert ({error})"
        return None
    if isinstance(value, complex) or "complex" in kind:
        return "a complex number; a score must be real"
    if value is None:
        return "not a number (a missing return statement?)"
    return f"of type {kind}, not a real number"


def score_problem(value: object) -> Exception | None:
    """The error to report for a score that is not a finite real number a
    float holds exactly (an integer beyond 2**53 would silently be rounded).

    Examples
    --------
    >>> score_problem(0.5) is None
    True
    >>> score_problem(float("nan"))  # doctest: +ELLIPSIS
    ValueError('nan, which is not finite; a failed evaluation must raise ...')
    >>> score_problem(10**400)  # doctest: +ELLIPSIS
    TypeError('100000000000000000...0000000000000000000, too large for a float ...')
    """
    problem = real_number_problem(value)
    if problem is not None:
        return TypeError(f"{show(value)}, {problem}")
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number):
        return ValueError(
            f"{show(value)}, which is not finite; a failed evaluation must raise "
            "(or return a finite worst score if that is what it means)"
        )
    if isinstance(value, Integral) and int(value) != int(number):
        return ValueError(
            f"{show(value)}, an integer that a float cannot hold exactly (it "
            f"would become {int(number)}); scale it, or return a float if "
            "rounding is fine"
        )
    return None


def show(value: object) -> str:
    """``repr(value)`` cut to a readable length (a 400-digit integer, a big
    array), and never failing.

    Examples
    --------
    >>> show(10**40)
    '100000000000000000...0000000000000000000'
    """
    return _SHORT.repr(value)


def failure_words(failure: CallFailure, timeout: float | None) -> str:
    """What happened to a call, to follow ``evaluate(candidate, instance)``."""
    if failure.kind == "timeout":
        return f"ran longer than the time limit (timeout={timeout:g} s)"
    if failure.kind == "bad score":
        return f"returned {failure.error}"
    if failure.kind == "worker died":
        return f"was lost: {describe_failure(failure.error)}"
    if failure.kind == "not sent":
        return f"could not be sent to the executor: {describe_failure(failure.error)}"
    if failure.kind == "cancelled":
        return (
            "was cancelled by the executor before it returned (was it shut "
            "down, or its cluster closed?); it did not run"
        )
    return f"raised {describe_failure(failure.error)}"


def describe_failure(error: BaseException) -> str:
    """``Type: message`` of an executor failure, with what it usually means.

    Examples
    --------
    >>> from concurrent.futures.process import BrokenProcessPool
    >>> describe_failure(BrokenProcessPool("terminated abruptly"))[:60]
    'BrokenProcessPool: terminated abruptly (a worker process die'
    """
    try:
        words = str(error)
    except Exception:  # an exception whose __str__ fails: still reported
        words = "(its message cannot be shown)"
    text = f"{type(error).__name__}: {words}"
    if isinstance(error, BrokenProcessPool):
        return (
            f"{text} (a worker process died — os._exit, a crash, or killed "
            "for lack of memory; the pool cannot be used any more)"
        )
    if _is_pickling_error(error):
        return (
            f"{text} (it could not be sent to a worker process: use functions "
            "defined at module level, or functools.partial of them — not "
            "lambdas or functions defined inside another function)"
        )
    if isinstance(error, RuntimeError) and "shutdown" in words:
        return f"{text} (the executor was shut down: give a running one)"
    return text


def _is_pickling_error(error: BaseException) -> bool:
    if isinstance(error, pickle.PicklingError):
        return True
    if not isinstance(error, (AttributeError, TypeError)):
        return False
    try:
        text = str(error)
    except Exception:  # an exception whose __str__ fails
        return False
    return "pickle" in text or "Can't get local object" in text


def _kind(error: BaseException) -> str:
    if isinstance(error, BrokenProcessPool):
        return "worker died"
    if _is_pickling_error(error):
        return "not sent"
    return "raised"


def run_calls(
    function: Callable[[Any, Any], Any],
    calls: Sequence[tuple[Any, Any]],
    executor: Executor | None,
    timeout: float | None,
) -> tuple[dict[int, Any], list[CallFailure]]:
    """Run ``function(*call)`` for every call; return values and failures.

    ``values`` maps a call's index to what it returned. In process, calls run
    in order and stop at the first failure. On an executor, every call is
    submitted; after the first failure the calls not started are cancelled and
    the running ones are waited for (their values are kept), except after a
    time-out: then nothing more is waited for, and a
    :class:`~concurrent.futures.ProcessPoolExecutor`'s worker processes are
    terminated (a Python thread cannot be stopped: a timed-out call on a
    thread keeps running in the background).
    """
    if executor is None:
        return _run_here(function, calls, timeout)
    return _run_on(function, calls, executor, timeout)


def _run_here(
    function: Callable[[Any, Any], Any],
    calls: Sequence[tuple[Any, Any]],
    timeout: float | None,
) -> tuple[dict[int, Any], list[CallFailure]]:
    values: dict[int, Any] = {}
    for index, (candidate, instance) in enumerate(calls):
        try:
            if timeout is None:
                values[index] = function(candidate, instance)
            else:
                values[index] = _call_in_thread(function, candidate, instance, timeout)
        except _Timeout as error:
            return values, [CallFailure(index, error, "timeout")]
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # SystemExit, GeneratorExit… too:
            return values, [CallFailure(index, error, "raised")]  # reported
    return values, []


class _Timeout(TimeoutError):
    """Raised by the race itself (not by the user's function) at the limit."""


def _call_in_thread(
    function: Callable[[Any, Any], Any], candidate: Any, instance: Any, timeout: float
) -> Any:
    """Run one call in a daemon thread and wait at most ``timeout`` seconds."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = function(candidate, instance)
        except BaseException as error:  # handed to the caller
            box["error"] = error

    # the caller's context (its memory ceiling): a new thread starts empty
    thread = threading.Thread(
        target=contextvars.copy_context().run,
        args=(target,),
        name="nbstats-race-call",
        daemon=True,
    )
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise _Timeout(f"still running after the time limit of {timeout:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _run_on(
    function: Callable[[Any, Any], Any],
    calls: Sequence[tuple[Any, Any]],
    executor: Executor,
    timeout: float | None,
) -> tuple[dict[int, Any], list[CallFailure]]:
    values: dict[int, Any] = {}
    failures: list[CallFailure] = []
    futures: dict[Future[Any], int] = {}
    limit = len(calls)
    if timeout is not None and isinstance(executor, ProcessPoolExecutor):
        # one call per worker: a call the pool reports as started is running
        # (else it may wait in the workers' queue with its clock ticking)
        limit = max(1, int(getattr(executor, "_max_workers", 1) or 1))
    todo = list(enumerate(calls))[::-1]
    pending: set[Future[Any]] = set()
    started: dict[Future[Any], float] = {}
    last_done = time.monotonic()
    poll = _POLL if timeout is None else min(0.05, timeout / 10)
    exact = isinstance(executor, _REPORTS_RUNNING)
    stopping = False
    try:
        while True:
            while todo and not failures and len(pending) < limit:
                index, (candidate, instance) = todo.pop()
                try:
                    future = executor.submit(function, candidate, instance)
                except Exception as error:  # pickling, an executor shut down
                    kind = (
                        "worker died" if _kind(error) == "worker died" else "not sent"
                    )
                    failures.append(CallFailure(index, error, kind))
                    break
                futures[future] = index
                pending.add(future)
            if failures and not stopping:  # the first failure: stop submitting
                stopping = True
                ours = {f for f in pending if not f.cancelled() and f.cancel()}
                pending -= ours
            if not pending:
                return values, failures
            done = _finished(pending, poll, refill=bool(todo) and not failures)
            pending -= done
            # ThreadPoolExecutor.shutdown(cancel_futures=True) cancels futures
            # without waking their waiters: look at each one
            swept = {future for future in pending if future.cancelled()}
            pending -= swept
            now = time.monotonic()
            for future in done | swept:
                last_done = now
                _outcome(future, futures[future], values, failures)
            late = (
                []
                if timeout is None
                else _late(pending, started, now, timeout, exact, last_done)
            )
            if late:
                message = f"still running after the time limit of {timeout:g} s"
                index = min(futures[future] for future in late)
                failures.append(CallFailure(index, _Timeout(message), "timeout"))
                _cancel(pending)
                if isinstance(executor, ProcessPoolExecutor):
                    terminate_workers(executor)
                return values, failures
    except BaseException:  # KeyboardInterrupt: do not leave work queued
        _cancel(set(futures))
        raise


def _finished(pending: set[Future[Any]], poll: float, refill: bool) -> set[Future[Any]]:
    """The pending calls that finish within ``poll`` seconds; back at the
    first one if it failed, or if ``refill`` (a call waits for a free slot).

    One ``as_completed`` per ``poll`` seconds, not a ``wait(FIRST_COMPLETED)``
    per finished call, which would cost time quadratic in the calls of a step.
    """
    done: set[Future[Any]] = set()
    try:
        for future in as_completed(pending, timeout=poll):
            done.add(future)
            if refill or future.cancelled() or future.exception() is not None:
                break
    except TimeoutError:  # the caller looks at the time limit and cancellations
        pass
    return done


def _outcome(
    future: Future[Any],
    index: int,
    values: dict[int, Any],
    failures: list[CallFailure],
) -> None:
    """Record a finished call. Only the calls the race itself cancelled (after
    a failure) are left out; the executor cancelling one (shut down, cluster
    closed) is a failure."""
    try:
        values[index] = future.result()
    except CancelledError:
        error = CancelledError("the executor cancelled the call before it returned")
        failures.append(CallFailure(index, error, "cancelled"))
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # SystemExit of a worker's sys.exit() too
        failures.append(CallFailure(index, error, _kind(error)))


def _late(
    pending: set[Future[Any]],
    started: dict[Future[Any], float],
    now: float,
    timeout: float,
    exact: bool,
    last_done: float,
) -> list[Future[Any]]:
    """The pending calls that have run longer than ``timeout``.

    Thread and process pools say when a call starts (a process pool when it
    hands the call to its workers' queue, which can be one call early); for
    other executors (Dask's) a call counts from its submission or from the
    last call that finished, whichever is later.
    """
    late = []
    for future in pending:
        if exact:
            if future not in started:
                if not future.running():
                    continue
                started[future] = now
            start = started[future]
        else:
            start = last_done
        if now - start > timeout:
            late.append(future)
    return late


def _cancel(pending: set[Future[Any]]) -> None:
    for future in pending:
        future.cancel()


def terminate_workers(executor: ProcessPoolExecutor) -> None:
    """Terminate the worker processes of a process pool (children of this
    process, started by the pool); the pool is broken afterwards."""
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            if process.is_alive():
                process.terminate()
        except (AssertionError, ValueError, OSError):  # not ours, or closed
            continue
    for process in list(processes.values()):
        try:
            process.join(1.0)
            if process.is_alive():
                process.kill()
        except (AssertionError, ValueError, OSError):
            continue
