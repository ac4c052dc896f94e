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

import dataclasses
import math
import pickle
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from numbers import Real
from typing import TYPE_CHECKING, Any

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
]

# executors whose futures say when a call starts (Future.running())
_REPORTS_RUNNING = (ThreadPoolExecutor, ProcessPoolExecutor)


class RaceError(RuntimeError):
    """An evaluation failed, so the race stopped.

    The message names the candidate and the instance; the original exception
    (the one ``evaluate`` raised, the executor's ``BrokenProcessPool`` or
    pickling error, a ``TimeoutError`` at the time limit, or the
    ``TypeError``/``ValueError`` of a score that is not a finite real number)
    is the ``__cause__``.

    Attributes
    ----------
    partial_result : RaceResult
        Everything gathered before the failure: every instance on which all
        surviving candidates were evaluated (an instance with a failed
        evaluation is left out whole, so ``scores`` has no hole and
        ``evaluations`` counts exactly the scores it holds).
    candidate, instance : object
        The call that failed: ``evaluate(candidate, instance)``.
    kind : str
        ``"raised"``, ``"timeout"``, ``"worker died"``, ``"not sent"`` (the
        executor could not pickle the call) or ``"bad score"``.
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
    ``"raised"``, ``"timeout"``, ``"worker died"``, ``"not sent"`` (pickling)
    or ``"bad score"``."""

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
    ``numpy.bool_``), strings (even ``"0.5"``), ``None``, complex numbers and
    arrays are not. Finiteness is not checked here.

    Examples
    --------
    >>> import numpy as np
    >>> real_number_problem(np.float32(0.5)) is None
    True
    >>> real_number_problem("0.5")
    'a str, not a number (convert it with float() if it is one)'
    >>> real_number_problem(True)
    'a bool, not a number (return 1.0 or 0.0 if that is the score)'
    """
    kind = type(value).__name__
    if isinstance(value, bool) or kind == "bool_" or kind == "bool":
        return f"a {kind}, not a number (return 1.0 or 0.0 if that is the score)"
    if isinstance(value, (str, bytes)):
        return f"a {kind}, not a number (convert it with float() if it is one)"
    if isinstance(value, Real):
        return None
    if isinstance(value, complex) or "complex" in kind:
        return "a complex number; a score must be real"
    if value is None:
        return "not a number (a missing return statement?)"
    return f"of type {kind}, not a real number"


def score_problem(value: object) -> Exception | None:
    """The error to report for a score that is not a finite real number.

    Examples
    --------
    >>> score_problem(0.5) is None
    True
    >>> score_problem(float("nan"))  # doctest: +ELLIPSIS
    ValueError('nan, which is not finite; a failed evaluation must raise ...')
    """
    problem = real_number_problem(value)
    if problem is not None:
        return TypeError(f"{value!r}, {problem}")
    if not math.isfinite(float(value)):  # type: ignore[arg-type]
        return ValueError(
            f"{value!r}, which is not finite; a failed evaluation must raise "
            "(or return a finite worst score if that is what it means)"
        )
    return None


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
    return f"raised {describe_failure(failure.error)}"


def describe_failure(error: BaseException) -> str:
    """``Type: message`` of an executor failure, with what it usually means.

    Examples
    --------
    >>> from concurrent.futures.process import BrokenProcessPool
    >>> describe_failure(BrokenProcessPool("terminated abruptly"))[:60]
    'BrokenProcessPool: terminated abruptly (a worker process die'
    """
    text = f"{type(error).__name__}: {error}"
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
    return text


def _is_pickling_error(error: BaseException) -> bool:
    if isinstance(error, pickle.PicklingError):
        return True
    text = str(error)
    return isinstance(error, (AttributeError, TypeError)) and (
        "pickle" in text or "Can't get local object" in text
    )


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
        except Exception as error:  # reported with its candidate and instance
            return values, [CallFailure(index, error, "raised")]
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

    thread = threading.Thread(target=target, name="nbstats-race-call", daemon=True)
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
    poll = None if timeout is None else min(0.05, timeout / 10)
    exact = isinstance(executor, _REPORTS_RUNNING)
    stopping = False
    try:
        while True:
            while todo and not failures and len(pending) < limit:
                index, (candidate, instance) = todo.pop()
                try:
                    future = executor.submit(function, candidate, instance)
                except Exception as error:  # e.g. a Dask client that cannot pickle
                    if isinstance(error, RuntimeError) and "shutdown" in str(error):
                        raise
                    failures.append(CallFailure(index, error, _kind(error)))
                    break
                futures[future] = index
                pending.add(future)
            if failures and not stopping:  # the first failure: stop submitting
                stopping = True
                _cancel(pending)
                pending = {future for future in pending if not future.cancelled()}
            if not pending:
                return values, failures
            done, pending = wait(pending, timeout=poll, return_when=FIRST_COMPLETED)
            now = time.monotonic()
            for future in done:
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


def _outcome(
    future: Future[Any],
    index: int,
    values: dict[int, Any],
    failures: list[CallFailure],
) -> None:
    if future.cancelled():
        return
    try:
        values[index] = future.result()
    except CancelledError:
        return
    except Exception as error:
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
