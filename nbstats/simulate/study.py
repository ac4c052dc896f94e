"""Simulation studies: settings × repetitions → a tidy table of metrics.

A study runs, for every *setting* (keyword arguments of a data generator) and
every repetition, ``generate → analyse → evaluate`` and collects one row of
metrics per run. The runs are independent tasks: each gets its own seed,
derived from ``random_state``, the setting's position and the repetition
alone, so the table is the same whether the tasks run here, in a thread pool,
in a process pool or on a cluster.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import (
    Executor,
    Future,
    ProcessPoolExecutor,
)
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd

from nbstats.simulate.tasks import (
    REPETITION,
    Setting,
    Task,
    keep_finished,
    missing_rows,
    mixed_kinds,
    record,
    run_chunk,
    run_on_executor,
)
from nbstats.stats.racing_executors import describe_failure, show
from nbstats.util.progress import progress_bar
from nbstats.util.random import seed_sequence

__all__ = ["StudyError", "study", "summarise"]

_RESERVED = (REPETITION, "random_state")


class StudyError(RuntimeError):
    """A task of :func:`study` failed, or never ran.

    The message names the setting and repetition; the original exception is
    the ``__cause__``: whatever ``generate``, ``analyse`` or ``evaluate``
    raised (any exception but ``KeyboardInterrupt``: ``SystemExit`` and
    ``GeneratorExit`` too, e.g. a worker's ``sys.exit()``), the reason a
    metric was refused, a ``BrokenProcessPool``, a pickling error, a
    ``RuntimeError`` of an executor that was shut down, or a
    ``CancelledError`` when the executor cancelled the task (a pool shut down
    with ``cancel_futures=True``, a Dask cluster closed mid-study). Nothing
    computed is lost:

    Attributes
    ----------
    partial_results : DataFrame
        The rows of every task that finished, in the study's order and layout
        (also ``partial_result``, the name :class:`nbstats.RaceError` uses).
    setting : dict
        Keyword arguments of the failed task's setting.
    repetition : int
        Repetition number of the failed task.
    """

    def __init__(
        self,
        message: str,
        setting: Setting,
        repetition: int,
        partial_results: pd.DataFrame,
    ) -> None:
        super().__init__(message)
        self.setting = setting
        self.repetition = repetition
        self.partial_results = partial_results

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            type(self),
            (self.args[0], self.setting, self.repetition, self.partial_results),
        )

    @property
    def partial_result(self) -> pd.DataFrame:
        """The same table as ``partial_results``."""
        return self.partial_results


def study(
    generate: Callable[..., Any],
    analyse: Callable[[Any], Any],
    evaluate: Callable[[Any, Any, Setting], Mapping[str, Any]],
    *,
    settings: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    repetitions: int,
    executor: Executor | None = None,
    random_state: object = None,
    progress: bool | None = None,
    chunksize: int = 1,
    allow_nan: bool | Collection[str] = False,
) -> pd.DataFrame:
    """Run a simulation study and return one row of metrics per run.

    For every setting and every repetition ``r = 0, …, repetitions − 1``::

        data = generate(**setting, random_state=seed)
        result = analyse(data)
        row = evaluate(result, data, setting)   # a dict of metrics

    Parameters
    ----------
    generate : callable
        Makes one data set from a setting's keyword arguments and a
        ``random_state`` keyword, which receives a
        :class:`numpy.random.SeedSequence` (``np.random.default_rng`` and
        every nbstats generator accept it). Every key of the setting is
        passed, so a setting may only hold keywords ``generate`` accepts
        (wrap it with ``functools.partial`` or give it ``**kwargs`` to ignore
        others). E.g. :func:`nbstats.simulate.paired_normal`.
    analyse : callable
        ``analyse(data)`` → anything ``evaluate`` understands (a result
        object, a decision, intervals…). It receives no seed: an analysis
        that draws random numbers should take a fixed ``random_state``
        (``functools.partial(nbstats.bayes_signrank, random_state=0)``), or
        ``generate`` can return a seed along with the data.
    evaluate : callable
        ``evaluate(result, data, setting)`` → a dict of metrics (names →
        values), e.g. from :func:`nbstats.simulate.rank_interval_metrics`.
        Metric names must differ from the setting keys and
        ``"repetition"``. A value must be a real number (Python or numpy
        integer or float), a bool, or a text label such as a decision
        ``"a"``/``"b"`` (kept in the table, not summarised). Refused, as a
        failure of the task: ``None``, complex numbers, arrays and other
        objects; text that reads as a number (``"0.5"``, ``"nan"``: return
        the number); NaN unless ``allow_nan`` allows it; a metric whose kind
        (number, bool, text) changes from one row to another. A metric left
        out of a row is missing (NaN) in that row.
    settings : dict or list of dicts
        - a list of dicts: the settings, in that order;
        - a dict: keys whose values are a ``list``, a ``range``, a 1-D
          ndarray or a ``pd.Index`` are varied, every other value is held
          fixed, and the settings are the Cartesian product of the varied
          values, in key order, the last key varying fastest. A tuple is
          one value (e.g. ``loss=(1, 4)``); to hold a list fixed, wrap it:
          ``{"weights": [[1, 2]]}``.
    repetitions : int
        Runs per setting (≥ 1).
    executor : concurrent.futures.Executor, optional
        Where the tasks run: ``None`` runs them here, one after the other;
        a ``ThreadPoolExecutor``, ``ProcessPoolExecutor`` or
        ``dask.distributed.Client(...).get_executor()`` runs them in parallel.
        The caller owns the executor (it is not shut down). A process pool
        or cluster pickles ``generate``, ``analyse``, ``evaluate`` and the
        settings: use module-level functions or ``functools.partial`` of
        them — not lambdas or functions defined inside other functions (and
        with the ``spawn`` or ``forkserver`` start method, not functions
        defined in a notebook or ``__main__``).
    random_state : None, int, Generator or SeedSequence
        Seed of the whole study.
    progress : bool, optional
        Show a tqdm progress bar (``tqdm.auto``: a widget in Jupyter, text in
        a terminal). ``None``: only when stderr is a terminal or in a Jupyter
        kernel — not in scripts with redirected output or under pytest.
    chunksize : int
        Tasks sent to a worker at once. Larger chunks cut the per-task
        overhead of process pools and clusters when tasks take well under a
        millisecond; the results do not depend on it.
    allow_nan : bool or collection of str
        Metrics that may be NaN, meaning "undefined" (e.g.
        :func:`~nbstats.simulate.rank_interval_metrics`' ``fwti`` when the
        algorithms truly differ, :func:`~nbstats.simulate.test_decision_metrics`'
        ``loss`` when every decision is indeterminate): ``True`` for every
        metric, or their names. By default a NaN metric fails its task, so
        that a NaN from a bug is not quietly left out by :func:`summarise`.

    Returns
    -------
    DataFrame
        One row per (setting, repetition), ordered by setting (in the order
        above), then repetition: the setting's keys, ``"repetition"``, then
        the metrics, with a default RangeIndex. The table is identical for
        every ``executor`` and ``chunksize``.

    Raises
    ------
    StudyError
        A task failed: it raised (any exception but ``KeyboardInterrupt``,
        ``SystemExit`` and ``GeneratorExit`` included) or returned a refused
        metric (see ``evaluate``); a worker process died; the task could not
        be sent (pickling, an executor already shut down); or the executor
        cancelled it or gave back no row for it (a pool shut down with
        ``cancel_futures=True``, a Dask cluster closed mid-study). A study
        never returns a table with rows missing. The message names the
        setting and repetition, the original exception is chained, and
        ``error.partial_results`` holds every finished row. With an executor,
        tasks not yet started are cancelled, running ones are waited for and
        kept; if several failed, the first in the study's order is reported.
    TypeError, ValueError
        Bad arguments; functions that a process pool cannot pickle.
    KeyboardInterrupt
        The only exception that is not wrapped: interrupting a study (Ctrl-C,
        the notebook's stop button, or a ``KeyboardInterrupt`` raised in a
        task) cancels the tasks not yet started and re-raises the same
        exception, with the finished rows attached as
        ``interrupt.partial_results`` (and ``interrupt.partial_result``), so
        that ``except KeyboardInterrupt`` still catches it.

    Notes
    -----
    Task ``(s, r)`` — setting number ``s`` (0-based, in the order above),
    repetition ``r`` — is seeded with ``SeedSequence(root.entropy,
    spawn_key=(*root.spawn_key, s, r))`` where ``root`` is the SeedSequence of
    ``random_state``. Seeds never depend on the worker, the executor or the
    order in which tasks finish. So adding repetitions keeps the earlier
    rows, and a setting's rows stay the same when settings are added *after*
    it. Floating-point results are bit-identical on one machine; across
    machines they are as identical as their numpy/BLAS builds.

    Examples
    --------
    Power and type I error of the one-sided Wilcoxon test on Benavoli et
    al.'s (2014) model:

    >>> import nbstats
    >>> from nbstats.simulate import paired_normal, test_decision_metrics
    >>> def analyse(pair):
    ...     res = nbstats.wilcoxon(pair["a"], pair["b"], alternative="greater")
    ...     return "b" if res.pvalue < 0.05 else "a"
    >>> def evaluate(decision, pair, setting):
    ...     return test_decision_metrics(decision, setting["delta"] > 0)
    >>> frame = study(paired_normal, analyse, evaluate,
    ...               settings={"n_cases": 30, "delta": [0.0, 0.1]},
    ...               repetitions=50, random_state=0, progress=False)
    >>> frame.columns.tolist()
    ['n_cases', 'delta', 'repetition', 'rejection_rate', 'loss', 'indeterminacy']
    >>> summarise(frame)["rejection_rate"]
                   mean        se
    n_cases delta
    30      0.0    0.06  0.033927
            0.1    0.90  0.042857
    """
    for name, function in (
        ("generate", generate),
        ("analyse", analyse),
        ("evaluate", evaluate),
    ):
        if not callable(function):
            raise TypeError(f"{name} must be callable, got {function!r}.")
    grid = expand_settings(settings)
    repetitions = _check_positive_int("repetitions", repetitions)
    chunksize = _check_positive_int("chunksize", chunksize)
    nan_ok = _check_allow_nan(allow_nan)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(
            "executor must be a concurrent.futures.Executor (something with "
            f"submit()), or None to run here; got {executor!r}."
        )
    if isinstance(executor, ProcessPoolExecutor):
        _check_picklable(generate=generate, analyse=analyse, evaluate=evaluate)
        _check_picklable(settings=grid)
    root = seed_sequence(random_state)
    tasks: list[Task] = [
        (
            grid[s],
            s,
            r,
            np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, s, r)),
        )
        for s in range(len(grid))
        for r in range(repetitions)
    ]
    chunks = [tasks[i : i + chunksize] for i in range(0, len(tasks), chunksize)]
    functions = (generate, analyse, evaluate, nan_ok)
    rows: dict[int, dict[str, Any]] = {}  # task position -> metrics
    failures: list[tuple[int, BaseException]] = []
    bar = progress_bar(progress, len(tasks), desc="study", unit="task")
    futures: dict[Future[Any], int] = {}
    try:
        if executor is None:
            # one task at a time whatever the chunksize: an interrupt loses
            # no finished row
            for position, task in enumerate(tasks):
                done, failure = run_chunk(functions, [task])
                record(rows, failures, position, done, failure, bar)
                if failure is not None:
                    break
        else:
            run_on_executor(
                executor, functions, chunks, chunksize, rows, failures, bar, futures
            )
    except KeyboardInterrupt as interrupt:
        for other in futures:
            other.cancel()
        keep_finished(futures, rows)
        partial = _frame(grid, tasks, rows)
        interrupt.partial_results = partial  # type: ignore[attr-defined]
        interrupt.partial_result = partial  # type: ignore[attr-defined]
        raise
    finally:
        if bar is not None:
            bar.close()
    frame = _frame(grid, tasks, rows)
    if not failures:
        failures = missing_rows(rows, len(tasks)) or mixed_kinds(rows)
    if failures:
        position, error = min(failures, key=lambda item: item[0])
        setting, s, r, _ = tasks[position]
        raise StudyError(
            f"task failed for setting {s + 1} of {len(grid)} {show(setting)}, "
            f"repetition {r}: {describe_failure(error).rstrip('.')}. "
            f"{len(rows)} of {len(tasks)} rows were computed; they are in "
            "error.partial_results.",
            dict(setting),
            r,
            frame,
        ) from error
    return frame


def expand_settings(
    settings: Mapping[str, Any] | Sequence[Mapping[str, Any]],
) -> list[Setting]:
    """The list of settings a :func:`study` runs, in its order.

    Examples
    --------
    >>> expand_settings({"n": [10, 20], "f": [0.5, 1.0], "kappa": 2.0})
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'n': 10, 'f': 0.5, 'kappa': 2.0}, {'n': 10, 'f': 1.0, 'kappa': 2.0},
     {'n': 20, 'f': 0.5, 'kappa': 2.0}, {'n': 20, 'f': 1.0, 'kappa': 2.0}]
    """
    if isinstance(settings, Mapping):
        _check_keys(settings, "settings")
        keys = list(settings)
        axes = []
        for key in keys:
            value = settings[key]
            if _is_axis(value):
                values = list(value.tolist() if hasattr(value, "tolist") else value)
                if not values:
                    raise ValueError(
                        f"settings[{key!r}] is empty: no setting to run. Give at "
                        "least one value."
                    )
                axes.append(values)
            else:
                axes.append([value])
        return [
            dict(zip(keys, combo, strict=True)) for combo in itertools.product(*axes)
        ]
    if isinstance(settings, Sequence) and not isinstance(settings, (str, bytes)):
        if len(settings) == 0:
            raise ValueError("settings is an empty list: no setting to run.")
        grid = []
        for i, setting in enumerate(settings):
            if not isinstance(setting, Mapping):
                raise TypeError(
                    f"settings[{i}] must be a dict of keyword arguments, got "
                    f"{type(setting).__name__}."
                )
            _check_keys(setting, f"settings[{i}]")
            grid.append(dict(setting))
        return grid
    raise TypeError(
        "settings must be a dict of keyword arguments (list values are varied) "
        f"or a list of such dicts, got {type(settings).__name__}."
    )


def _is_column(name: object, frame: pd.DataFrame) -> bool:
    try:
        return name in frame.columns
    except TypeError:  # unhashable
        return False


def summarise(
    frame: pd.DataFrame, by: str | Sequence[str] | None = None
) -> pd.DataFrame:
    """Mean and Monte Carlo standard error of every metric, per setting.

    Parameters
    ----------
    frame : DataFrame
        A table returned by :func:`study` (or any table with one row per run).
    by : str or list of str, optional
        Columns that identify a setting; default: every column before
        ``"repetition"`` (the setting's keys in a study's table). An empty
        list summarises the whole table in one row.

    Returns
    -------
    DataFrame
        One row per setting (in the order they first appear), indexed by
        ``by``; two column levels: the metric, then ``"mean"`` and ``"se"``.
        Metrics are the numeric and boolean columns other than ``by`` and
        ``"repetition"``. Missing values (e.g. a loss that is undefined when
        a test is indeterminate) are left out: ``se = s / √k`` with ``s``
        the standard deviation (ddof = 1) of the ``k`` non-missing values —
        NaN when ``k < 2``.

    Examples
    --------
    >>> frame = pd.DataFrame({"f": [0.5, 0.5, 1.0, 1.0], "repetition": [0, 1, 0, 1],
    ...                       "fwp": [1.0, 0.0, 1.0, 1.0]})
    >>> summarise(frame)
         fwp
        mean   se
    f
    0.5  0.5  0.5
    1.0  1.0  0.0
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a DataFrame, got {type(frame).__name__}.")
    if by is None:
        if REPETITION not in frame.columns:
            raise ValueError(
                f"frame has no {REPETITION!r} column to find the setting columns "
                "before it; pass by=[...] naming them."
            )
        by = list(frame.columns[: frame.columns.get_loc(REPETITION)])
    elif isinstance(by, str):
        by = [by]
    elif isinstance(by, (list, tuple)):
        by = list(by)
    else:
        raise TypeError(
            f"by must be a column name, a list of them or None, got {by!r} "
            f"({type(by).__name__})."
        )
    unknown = [c for c in by if not _is_column(c, frame)]
    if unknown:
        raise ValueError(
            f"by names unknown column(s) {unknown}; the table has "
            f"{list(frame.columns)}."
        )
    metrics = [
        c
        for c in frame.columns
        if c not in by
        and c != REPETITION
        and (
            pd.api.types.is_numeric_dtype(frame[c])
            or pd.api.types.is_bool_dtype(frame[c])
        )
    ]
    if not metrics:
        raise ValueError("frame has no numeric metric column to summarise.")
    values = frame[metrics].astype(float)
    if by:
        grouped = values.groupby([frame[c] for c in by], sort=False, dropna=False)
        mean, se = grouped.mean(), grouped.sem()
    else:
        mean, se = values.mean().to_frame().T, values.sem().to_frame().T
    table = pd.concat({"mean": mean, "se": se}, axis=1).swaplevel(axis=1)
    return table[[(m, stat) for m in metrics for stat in ("mean", "se")]]


def _frame(
    grid: list[Setting], tasks: list[Task], rows: dict[int, dict[str, Any]]
) -> pd.DataFrame:
    setting_columns = list(dict.fromkeys(k for setting in grid for k in setting))
    positions = sorted(rows)
    metric_columns = list(dict.fromkeys(k for p in positions for k in rows[p]))
    records = [{**tasks[p][0], REPETITION: tasks[p][2], **rows[p]} for p in positions]
    columns = [*setting_columns, REPETITION, *metric_columns]
    if not records:
        return pd.DataFrame(columns=columns)
    return pd.DataFrame.from_records(records, columns=columns)


def _check_allow_nan(allow_nan: object) -> bool | frozenset[str]:
    if isinstance(allow_nan, bool):
        return allow_nan
    if (
        isinstance(allow_nan, Collection)
        and not isinstance(allow_nan, str)
        and all(isinstance(name, str) for name in allow_nan)
    ):
        return frozenset(allow_nan)
    raise TypeError(
        f"allow_nan must be True, False or a list of metric names, got {allow_nan!r}."
    )


def _check_keys(setting: Mapping[Any, Any], label: str) -> None:
    for key in setting:
        if not isinstance(key, str):
            raise TypeError(
                f"{label} keys are keyword arguments and must be strings, got {key!r}."
            )
        if key in _RESERVED:
            raise ValueError(
                f"{label} may not set {key!r}: study sets "
                + ("the seed of every task" if key == "random_state" else "that column")
                + " itself."
            )


def _is_axis(value: object) -> bool:
    if isinstance(value, (list, range, pd.Index)):
        return True
    return isinstance(value, np.ndarray) and value.ndim == 1


def _check_positive_int(name: str, value: object) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool):
        raise TypeError(f"{name} must be a positive integer, got {value!r}.")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}.")
    return int(value)


def _check_picklable(**objects: object) -> None:
    for name, obj in objects.items():
        try:
            pickle.dumps(obj)
        except Exception as error:
            raise TypeError(
                f"{name} cannot be sent to a process pool ({type(error).__name__}: "
                f"{error}). Use functions defined at module level, or "
                "functools.partial of them — not lambdas or functions defined "
                "inside another function."
            ) from None
