"""study() under faults: cancelled, lost or never-sent tasks, a pool shut down
or a Dask cluster closed mid-study, SystemExit / GeneratorExit / custom
BaseExceptions in user code, a worker's sys.exit(), interrupts, metrics no
float holds — always a StudyError (or the KeyboardInterrupt itself) carrying
every finished row, never a shorter table and never a hang."""

from __future__ import annotations

import datetime
import sys
import threading
import time
from concurrent.futures import CancelledError, ProcessPoolExecutor, ThreadPoolExecutor

import distributed  # in the test extra, so this runs in CI
import numpy as np
import pandas as pd
import pytest
from fault_executors import CancellingExecutor, HollowExecutor, finishes_within

from nbstats.simulate import StudyError, study

# Module-level functions, so that a process pool can pickle them.
SETTINGS = {"x": [0, 1, 2, 3]}
REPETITIONS = 10  # 40 tasks


def generate(x, random_state=None):
    return x + np.random.default_rng(random_state).random()


def analyse(data):
    return data


def evaluate(result, data, setting):
    return {"value": result}


def _study(**kwargs):
    options = {
        "settings": SETTINGS,
        "repetitions": REPETITIONS,
        "random_state": 0,
        "progress": False,
    }
    return study(generate, analyse, evaluate, **{**options, **kwargs})


FULL = _study()  # the faultless table: every partial row must be one of its rows


def _check_partial(partial: pd.DataFrame) -> None:
    """The rows kept are rows of the faultless study, in its order."""
    assert list(partial.columns) == list(FULL.columns)
    merged = partial.merge(FULL, on=["x", "repetition"], suffixes=("", "_full"))
    assert len(merged) == len(partial)
    np.testing.assert_array_equal(merged["value"], merged["value_full"])
    keys = list(zip(partial["x"], partial["repetition"], strict=True))
    assert keys == sorted(keys)


# --- the executor cancels or loses tasks --------------------------------------


@pytest.mark.parametrize("notify", [True, False], ids=["like-dask", "like-shutdown"])
def test_tasks_the_executor_cancels_are_a_study_error(notify):
    executor = CancellingExecutor(cancel={13, 27, 31, 32, 33}, notify=notify)
    with pytest.raises(StudyError) as info:
        finishes_within(20, lambda: _study(executor=executor))
    error = info.value
    assert isinstance(error.__cause__, CancelledError)
    # the first cancelled task in the study's order: task 13 = x 1, repetition 3
    assert (error.setting, error.repetition) == ({"x": 1}, 3)
    assert "cancelled the task" in str(error)
    # every task but the cancelled ones ran (the executor ran them at once)
    assert "35 of 40 rows were computed" in str(error)
    assert len(error.partial_results) == 35
    assert error.partial_result is error.partial_results
    _check_partial(error.partial_results)


def test_a_task_that_comes_back_empty_is_a_study_error():
    # the future says done, but no row came back for task 6: never 39 rows
    with pytest.raises(StudyError) as info:
        _study(executor=HollowExecutor(lose={6}, empty=([], None)))
    error = info.value
    assert (error.setting, error.repetition) == ({"x": 0}, 6)
    assert "gave back no row" in str(error)
    assert len(error.partial_results) == 39
    _check_partial(error.partial_results)


def test_a_garbled_result_is_a_study_error():
    with pytest.raises(StudyError) as info:
        _study(executor=HollowExecutor(lose={2}, empty=None))
    assert (info.value.setting, info.value.repetition) == ({"x": 0}, 2)
    _check_partial(info.value.partial_results)


class ShutsDownThePool:
    """generate that shuts its own thread pool down (cancel_futures=True) at
    task (x=1, repetition 2); the tasks still queued are cancelled."""

    def __init__(self) -> None:
        self.pool: ThreadPoolExecutor | None = None

    def __call__(self, x, random_state=None):
        if x == 1 and random_state.spawn_key[-1] == 2:
            self.pool.shutdown(wait=False, cancel_futures=True)
        return generate(x, random_state)


def test_thread_pool_shut_down_mid_study_does_not_hang():
    shuts = ShutsDownThePool()
    with ThreadPoolExecutor(1) as pool:
        shuts.pool = pool
        with pytest.raises(StudyError) as info:
            finishes_within(
                20,
                lambda: study(
                    shuts,
                    analyse,
                    evaluate,
                    settings=SETTINGS,
                    repetitions=REPETITIONS,
                    random_state=0,
                    progress=False,
                    executor=pool,
                ),
            )
    error = info.value
    assert isinstance(error.__cause__, CancelledError)
    # one worker runs the tasks in order: 0..12 finished, 13 was cancelled
    assert (error.setting, error.repetition) == ({"x": 1}, 3)
    assert len(error.partial_results) == 13
    _check_partial(error.partial_results)


def test_an_executor_already_shut_down_is_a_study_error():
    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    with pytest.raises(StudyError, match="the executor was shut down") as info:
        _study(executor=pool)
    assert isinstance(info.value.__cause__, RuntimeError)
    assert (info.value.setting, info.value.repetition) == ({"x": 0}, 0)
    assert info.value.partial_results.empty


def slow_generate(x, random_state=None):
    time.sleep(0.02)
    return generate(x, random_state)


def test_dask_cluster_closed_mid_study():
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    client = distributed.Client(cluster)

    def close_soon():
        time.sleep(0.3)  # ~15 of the 40 tasks of 20 ms have run
        client.close()
        cluster.close()

    closer = threading.Thread(target=close_soon)
    closer.start()
    try:
        with pytest.raises(StudyError) as info:
            finishes_within(
                60,
                lambda: study(
                    slow_generate,
                    analyse,
                    evaluate,
                    settings=SETTINGS,
                    repetitions=REPETITIONS,
                    random_state=0,
                    progress=False,
                    executor=client.get_executor(),
                ),
            )
    finally:
        closer.join()
        client.close()
        cluster.close()
    error = info.value
    partial = error.partial_results
    assert 0 < len(partial) < 40
    assert f"{len(partial)} of 40 rows were computed" in str(error)
    _check_partial(partial)


# --- BaseExceptions from the user's functions ----------------------------------


class Abort(BaseException):
    """A custom BaseException, as some libraries define."""


def _raise(kind: str) -> None:
    if kind == "SystemExit":
        sys.exit(3)
    if kind == "GeneratorExit":
        raise GeneratorExit
    raise Abort("stop")


class RaisesAt:
    """``where`` ("generate", "analyse" or "evaluate") raises ``kind`` at task
    (x=2, repetition 1); else the usual study."""

    def __init__(self, where: str, kind: str) -> None:
        self.where, self.kind = where, kind

    def generate(self, x, random_state=None):
        if self.where == "generate" and (x, random_state.spawn_key[-1]) == (2, 1):
            _raise(self.kind)
        return {"x": x, "r": random_state.spawn_key[-1], "v": generate(x, random_state)}

    def analyse(self, data):
        if self.where == "analyse" and (data["x"], data["r"]) == (2, 1):
            _raise(self.kind)
        return data["v"]

    def evaluate(self, result, data, setting):
        if self.where == "evaluate" and (data["x"], data["r"]) == (2, 1):
            _raise(self.kind)
        return {"value": result}


def _raising_study(raises: RaisesAt, **kwargs):
    return study(
        raises.generate,
        raises.analyse,
        raises.evaluate,
        settings=SETTINGS,
        repetitions=REPETITIONS,
        random_state=0,
        progress=False,
        **kwargs,
    )


@pytest.mark.parametrize("executor", ["none", "threads", "processes"])
@pytest.mark.parametrize("kind", ["SystemExit", "GeneratorExit", "Abort"])
@pytest.mark.parametrize("where", ["generate", "analyse", "evaluate"])
def test_base_exceptions_are_wrapped_with_the_rows(where, kind, executor):
    raises = RaisesAt(where, kind)
    pools = {"threads": ThreadPoolExecutor, "processes": ProcessPoolExecutor}
    if executor == "none":
        with pytest.raises(StudyError) as info:
            _raising_study(raises)
    else:
        with pools[executor](2) as pool, pytest.raises(StudyError) as info:
            _raising_study(raises, executor=pool)
    error = info.value
    assert type(error.__cause__).__name__ == kind
    assert (error.setting, error.repetition) == ({"x": 2}, 1)
    assert f"repetition 1: {kind}" in str(error)
    partial = error.partial_results
    if executor == "none":  # in order: everything before the failed task
        assert len(partial) == 21
    assert (2, 1) not in set(zip(partial["x"], partial["repetition"], strict=True))
    _check_partial(partial)


def exits_at_x_1(x, random_state=None):
    if x == 1:
        sys.exit("worker says bye")
    return generate(x, random_state)


def test_process_pool_worker_calling_sys_exit():
    with ProcessPoolExecutor(1) as pool, pytest.raises(StudyError) as info:
        study(
            exits_at_x_1,
            analyse,
            evaluate,
            settings=SETTINGS,
            repetitions=REPETITIONS,
            random_state=0,
            progress=False,
            executor=pool,
            chunksize=3,
        )
    error = info.value
    assert isinstance(error.__cause__, SystemExit)
    assert "SystemExit: worker says bye" in str(error)
    assert (error.setting, error.repetition) == ({"x": 1}, 0)
    # one worker, in order: the 10 rows of x = 0 came back, never the row
    # that exited; the worker may finish chunks already queued behind it
    # before the pool is cancelled, and the rows it finished are kept (each
    # checked against the faultless study below)
    rows = error.partial_results
    assert rows.loc[rows["x"] == 0, "repetition"].tolist() == list(range(10))
    assert rows[(rows["x"] == 1) & (rows["repetition"] == 0)].empty
    _check_partial(rows)


# --- KeyboardInterrupt: the only one not wrapped, with the rows attached --------


class InterruptsAt:
    def __init__(self, task: int) -> None:
        self.task = task

    def __call__(self, x, random_state=None):
        if 10 * x + random_state.spawn_key[-1] == self.task:
            raise KeyboardInterrupt
        return generate(x, random_state)


def test_interrupt_in_process_keeps_every_finished_row_whatever_the_chunksize():
    with pytest.raises(KeyboardInterrupt) as info:
        study(
            InterruptsAt(13),
            analyse,
            evaluate,
            settings=SETTINGS,
            repetitions=REPETITIONS,
            random_state=0,
            progress=False,
            chunksize=4,
        )
    partial = info.value.partial_results
    assert info.value.partial_result is partial
    assert len(partial) == 13  # tasks 0..12, although task 13 is in chunk 12..15
    _check_partial(partial)


@pytest.mark.parametrize(("workers", "chunksize"), [(1, 1), (2, 4), (2, 3)])
def test_interrupt_in_a_worker_thread_carries_the_rows(workers, chunksize):
    """Every task before the interrupted one finished, and its row is kept,
    even when its chunk was collected after the interrupted one (the pool's
    threads may also have finished some after it: kept too)."""
    with ThreadPoolExecutor(workers) as pool, pytest.raises(KeyboardInterrupt) as info:
        study(
            InterruptsAt(25),
            analyse,
            evaluate,
            settings=SETTINGS,
            repetitions=REPETITIONS,
            random_state=0,
            progress=False,
            executor=pool,
            chunksize=chunksize,
        )
    partial = info.value.partial_results
    keys = zip(partial["x"], partial["repetition"], strict=True)
    tasks = [10 * x + r for x, r in keys]
    assert tasks[:25] == list(range(25)) and 25 not in tasks
    _check_partial(partial)


def test_rows_collected_after_the_interrupted_chunk_are_kept():
    """A chunk that finished before the interrupt but is collected after it
    (as_completed gives finished futures in any order) keeps its rows."""
    from concurrent.futures import Future

    from nbstats.simulate.tasks import keep_finished

    finished, interrupted, pending = Future(), Future(), Future()
    finished.set_result(([{"m": 0.0}, {"m": 1.0}], None))
    stop = KeyboardInterrupt()
    stop.finished_rows = [{"m": 2.0}]
    interrupted.set_exception(stop)
    rows = {}
    keep_finished({finished: 0, interrupted: 2, pending: 4}, rows)
    assert rows == {0: {"m": 0.0}, 1: {"m": 1.0}, 2: {"m": 2.0}}


# --- metrics that no float (or int64 column) holds ----------------------------


class Metric:
    def __init__(self, value):
        self.value = value

    def __call__(self, result, data, setting):
        return {"m": self.value if setting["x"] == 1 else 0.5}


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (np.timedelta64(5, "s"), "a timedelta64 (a duration or a date)"),
        (np.timedelta64(5, "ns"), "a timedelta64 (a duration or a date)"),
        (np.datetime64("2020-01-01"), "a datetime64"),
        (datetime.timedelta(seconds=5), "a timedelta"),
        (10**400, "too large for a float"),
        (2**70, "beyond the int64 range"),
    ],
    ids=[
        "timedelta64-s",
        "timedelta64-ns",
        "datetime64",
        "timedelta",
        "10**400",
        "2**70",
    ],
)
def test_metrics_no_column_holds_fail_their_task(value, words):
    with pytest.raises(StudyError, match=r"repetition 0: TypeError") as info:
        study(
            generate,
            analyse,
            Metric(value),
            settings=SETTINGS,
            repetitions=2,
            random_state=0,
            progress=False,
        )
    assert words in str(info.value)
    assert len(str(info.value)) < 1000  # a 400-digit number is cut short
    assert info.value.partial_results["x"].tolist() == [0, 0]


def test_process_pool_shut_down_mid_study_does_not_hang():
    with ProcessPoolExecutor(1) as pool:

        def shut_down_soon():
            time.sleep(0.4)  # ~10 of the 40 tasks of 20 ms have run
            pool.shutdown(wait=False, cancel_futures=True)

        closer = threading.Thread(target=shut_down_soon)
        closer.start()
        try:
            with pytest.raises(StudyError) as info:
                finishes_within(
                    30,
                    lambda: study(
                        slow_generate,
                        analyse,
                        evaluate,
                        settings=SETTINGS,
                        repetitions=REPETITIONS,
                        random_state=0,
                        progress=False,
                        executor=pool,
                    ),
                )
        finally:
            closer.join()
    error = info.value
    assert isinstance(error.__cause__, CancelledError)
    assert 0 < len(error.partial_results) < 40
    _check_partial(error.partial_results)


class BadRepr:
    """A setting value whose repr fails (and is 10,000 characters otherwise)."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def fails_on_bad_repr(x, random_state=None):
    if isinstance(x, BadRepr):
        raise ValueError("boom")
    return generate(x, random_state)


def test_a_setting_whose_repr_fails_still_gives_a_study_error():
    with pytest.raises(StudyError, match="ValueError: boom") as info:
        study(
            fails_on_bad_repr,
            analyse,
            evaluate,
            settings={"x": [0, BadRepr()]},
            repetitions=2,
            random_state=0,
            progress=False,
        )
    assert info.value.partial_results["x"].tolist() == [0, 0]


class Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no str")


def raises_unprintable(x, random_state=None):
    if x == 1:
        raise Unprintable
    return generate(x, random_state)


def test_an_exception_whose_str_fails_still_gives_a_study_error():
    with pytest.raises(StudyError, match="Unprintable") as info:
        study(
            raises_unprintable,
            analyse,
            evaluate,
            settings=SETTINGS,
            repetitions=2,
            random_state=0,
            progress=False,
        )
    assert isinstance(info.value.__cause__, Unprintable)
    assert info.value.partial_results["x"].tolist() == [0, 0]
