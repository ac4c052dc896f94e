"""Running a study's tasks and checking their metrics.

:func:`run_chunk` runs ``generate → analyse → evaluate`` for a list of tasks
(here or in a worker) and returns the rows and the first failure;
:func:`run_on_executor` sends the chunks to an executor and gathers what comes
back, so that no task is ever dropped silently: a task the executor cancels
or loses is a failure. :func:`check_metrics` and :func:`mixed_kinds` refuse
metrics that a table could not hold or that :func:`~nbstats.simulate.summarise`
would quietly leave out. Used by :func:`nbstats.simulate.study`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from concurrent.futures import CancelledError, Executor, Future, as_completed
from numbers import Integral
from typing import Any

import numpy as np

from nbstats.stats.racing_executors import real_number_problem, show
from nbstats.util.memory import get_memory_ceiling, run_with_ceiling

#: Column holding the repetition number (0, 1, …) in a study's table.
REPETITION = "repetition"
#: Seconds between two looks at the executor's futures (see run_on_executor).
POLL = 0.5
_INT64 = -(2**63)

Setting = dict[str, Any]
# one task: (setting, setting index, repetition, seed)
Task = tuple[Setting, int, int, np.random.SeedSequence]


def run_chunk(
    functions: tuple[Any, ...], chunk: list[Task]
) -> tuple[list[dict[str, Any]], tuple[int, BaseException] | None]:
    """Run tasks in order; stop at the first failure and return it with its
    offset in the chunk (exceptions are returned, so the rows before it are
    not lost). Every exception is returned but ``KeyboardInterrupt``, which
    carries the rows finished before it as ``finished_rows``.

    Examples
    --------
    >>> seed = np.random.SeedSequence(0)
    >>> functions = (lambda x, random_state: x, abs, lambda r, d, s: {"m": r}, False)
    >>> run_chunk(functions, [({"x": -2}, 0, 0, seed), ({"x": "?"}, 1, 0, seed)])
    ([{'m': 2}], (1, TypeError("bad operand type for abs(): 'str'")))
    """
    generate, analyse, evaluate, nan_ok = functions
    done: list[dict[str, Any]] = []
    for offset, (setting, _, _, seed) in enumerate(chunk):
        try:
            data = generate(**setting, random_state=seed)
            result = analyse(data)
            metrics = evaluate(result, data, dict(setting))
            done.append(check_metrics(metrics, setting, nan_ok))
        except KeyboardInterrupt as interrupt:
            # the rows finished before it travel with it (study keeps them)
            interrupt.finished_rows = done  # type: ignore[attr-defined]
            raise
        except BaseException as error:  # SystemExit, GeneratorExit…: reported
            return done, (offset, error)  # with its setting and repetition
    return done, None


def run_on_executor(
    executor: Executor,
    functions: tuple[Any, ...],
    chunks: list[list[Task]],
    chunksize: int,
    rows: dict[int, dict[str, Any]],
    failures: list[tuple[int, BaseException]],
    bar: Any,
    futures: dict[Future[Any], int],
) -> None:
    """Submit every chunk and record what comes back, until every future is
    done or cancelled; fills ``futures`` (future -> position of its first
    task) so that an interrupt can cancel them.

    A future the executor cancels (a shut-down pool, a closed cluster) is a
    failure of its first task. ``as_completed`` alone could wait for ever:
    ``ThreadPoolExecutor.shutdown(cancel_futures=True)`` cancels futures
    without waking their waiters. So it runs for at most ``POLL`` seconds at
    a time, and between two runs every pending future's ``cancelled()`` is
    looked at (``wait(FIRST_COMPLETED)`` after each completion would cost
    time quadratic in the number of tasks).
    """
    for index, chunk in enumerate(chunks):
        try:
            # the caller's memory ceiling: a worker thread or process does not
            # inherit the caller's context (the numbers do not depend on it)
            future = executor.submit(
                run_with_ceiling, get_memory_ceiling(), run_chunk, functions, chunk
            )
        except Exception as error:  # a shut-down executor, a pickling error
            failures.append((index * chunksize, error))
            break
        futures[future] = index * chunksize
    ours: set[Future[Any]] = set()  # cancelled by us, after a failure
    stopping = False
    pending = set(futures)

    def collect(future: Future[Any]) -> None:
        pending.discard(future)
        start = futures[future]
        if future.cancelled():
            if future not in ours:
                failures.append((start, _cancelled_error()))
            return
        try:
            result, failure = future.result()
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # e.g. a result that would not pickle
            result, failure = [], (0, error)
        record(rows, failures, start, result, failure, bar)

    while pending:
        if failures and not stopping:  # stop what has not started
            stopping = True
            ours.update(f for f in pending if not f.cancelled() and f.cancel())
        try:
            for future in as_completed(set(pending), timeout=POLL):
                collect(future)
                if failures and not stopping:
                    break
        except TimeoutError:  # nothing more for now: look for cancellations
            pass
        for future in [f for f in pending if f.cancelled()]:
            collect(future)


def _cancelled_error() -> CancelledError:
    return CancelledError(
        "the executor cancelled the task before it returned (was it shut "
        "down, or its cluster closed?); it did not run"
    )


def missing_rows(
    rows: dict[int, dict[str, Any]], n_tasks: int
) -> list[tuple[int, BaseException]]:
    """The first task with no row although nothing failed: an executor that
    lost it. Never silently a shorter table.

    Examples
    --------
    >>> missing_rows({0: {"m": 1.0}, 2: {"m": 0.5}}, 3)
    [(1, RuntimeError('the executor gave back no row for this task'))]
    """
    for position in range(n_tasks):
        if position not in rows:
            message = "the executor gave back no row for this task"
            return [(position, RuntimeError(message))]
    return []


def keep_finished(
    futures: dict[Future[Any], int], rows: dict[int, dict[str, Any]]
) -> None:
    """After an interrupt, keep every row that was finished: those of the
    chunks done but not yet collected (``as_completed`` gives the done ones
    in any order, so the interrupted chunk may come first), and those the
    interrupted chunk finished before the interrupt.

    Examples
    --------
    >>> from concurrent.futures import Future
    >>> done = Future()
    >>> done.set_result(([{"m": 1.0}], None))
    >>> stopped = KeyboardInterrupt()
    >>> stopped.finished_rows = [{"m": 2.0}]
    >>> interrupted = Future()
    >>> interrupted.set_exception(stopped)
    >>> rows = {}
    >>> keep_finished({done: 0, interrupted: 1}, rows)
    >>> rows
    {0: {'m': 1.0}, 1: {'m': 2.0}}
    """
    for future, start in futures.items():
        if not future.done() or future.cancelled():
            continue
        error = future.exception()
        if error is None:
            done, _ = future.result()
        elif isinstance(error, KeyboardInterrupt):
            done = getattr(error, "finished_rows", [])
        else:
            continue  # a failure: no row
        for offset, metrics in enumerate(done):
            rows.setdefault(start + offset, metrics)


def record(
    rows: dict[int, dict[str, Any]],
    failures: list[tuple[int, BaseException]],
    start: int,
    done: list[dict[str, Any]],
    failure: tuple[int, BaseException] | None,
    bar: Any,
) -> None:
    """Keep the rows of a chunk that starts at task ``start`` and its failure
    (offset in the chunk → position in the study); advance the bar."""
    for offset, metrics in enumerate(done):
        rows[start + offset] = metrics
    if failure is not None:
        failures.append((start + failure[0], failure[1]))
    if bar is not None and done:
        bar.update(len(done))


def check_metrics(
    metrics: object, setting: Setting, nan_ok: bool | frozenset[str] = False
) -> dict[str, Any]:
    """``evaluate``'s metrics as a dict, or the error that fails the task:
    not a dict, a name that clashes, or a value a table column cannot hold
    (see :func:`nbstats.simulate.study`'s ``evaluate``).

    Examples
    --------
    >>> check_metrics({"fwp": 0.5, "decision": "a"}, {"n": 10})
    {'fwp': 0.5, 'decision': 'a'}
    >>> check_metrics({"m": 10**400}, {})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    TypeError: metric 'm' is 1000...000, too large for a float (beyond ±1.8e308); ...
    """
    if not isinstance(metrics, Mapping):
        raise TypeError(
            "evaluate must return a dict of metrics (name -> number), got "
            f"{type(metrics).__name__}."
        )
    for key, value in metrics.items():
        if not isinstance(key, str):
            raise TypeError(f"metric names must be strings, got {key!r}.")
        if key in setting or key == REPETITION:
            raise ValueError(
                f"metric {key!r} has the name of a setting key or of "
                f"{REPETITION!r}; rename it."
            )
        _check_metric(key, value, nan_ok is True or (bool(nan_ok) and key in nan_ok))
    return dict(metrics)


def _check_metric(key: str, value: object, nan_ok: bool) -> None:
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return  # a label, e.g. a decision "a" / "b"
        raise TypeError(
            f"metric {key!r} is the text {value!r}, which reads as a number: "
            "return the number itself (a text column is not summarised)."
        )
    problem = real_number_problem(value)
    if problem is not None and not problem.startswith("a bool"):
        raise TypeError(
            f"metric {key!r} is {show(value)}, {problem}; a metric must be a real "
            "number, a bool or a text label."
        )
    if (
        problem is None
        and isinstance(value, Integral)
        and not _INT64 <= value < -_INT64
    ):
        raise TypeError(
            f"metric {key!r} is {show(value)}, beyond the int64 range: the column "
            "would hold Python objects, which summarise leaves out; return a "
            "float."
        )
    if problem is None and math.isnan(float(value)) and not nan_ok:  # type: ignore[arg-type]
        raise ValueError(
            f"metric {key!r} is NaN. If NaN means 'undefined' for this metric "
            f"(summarise leaves it out), pass allow_nan=[{key!r}] (or "
            "allow_nan=True); otherwise it is a bug in evaluate."
        )


def mixed_kinds(rows: dict[int, dict[str, Any]]) -> list[tuple[int, BaseException]]:
    """A metric that is a number in one row and text or a bool in another:
    an object column, which :func:`~nbstats.simulate.summarise` would quietly
    leave out.

    Examples
    --------
    >>> mixed_kinds({0: {"m": 0.5}, 1: {"m": "a"}})  # doctest: +ELLIPSIS
    [(1, TypeError("metric 'm' is 'a' (text) here but a number in row 0; ..."))]
    """
    first: dict[str, tuple[str, int]] = {}
    for position in sorted(rows):
        for key, value in rows[position].items():
            if isinstance(value, float) and math.isnan(value):
                continue  # missing: fits any kind
            kind = (
                "text"
                if isinstance(value, str)
                else "bool"
                if isinstance(value, (bool, np.bool_))
                else "number"
            )
            seen, where = first.setdefault(key, (kind, position))
            if seen != kind:
                message = (
                    f"metric {key!r} is {value!r} ({kind}) here but a {seen} in "
                    f"row {where}; a metric must keep one kind (number, bool or "
                    "text) in every row."
                )
                return [(position, TypeError(message))]
    return []
