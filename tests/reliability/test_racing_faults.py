"""Racing under faults: a dying worker, an unpicklable evaluate, time-outs, a
raising evaluate (SystemExit, GeneratorExit and custom BaseExceptions too),
calls the executor cancels (a pool shut down, a Dask cluster closed), failing
instances, bad scores, on every executor — always a RaceError naming the
call, with the cause chained and a consistent partial result, never a hang."""

from __future__ import annotations

import datetime
import os
import pickle
import sys
import threading
import time
from concurrent.futures import CancelledError, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import distributed  # in the test extra, so this runs in CI
import numpy as np
import pandas as pd
import pytest
from fault_executors import CancellingExecutor, finishes_within

import nbstats
from nbstats.stats import racing_state
from nbstats.stats.racing import RaceError

# Module-level functions, so that a process pool can pickle them (by reference:
# forked workers inherit this module).
MEANS = np.array([0.1, 0.3, 0.35, 0.6, 0.9])
CANDIDATES = list(range(len(MEANS)))
RELEASE = threading.Event()  # lets a "hung" thread finish once a test is done


def noisy(candidate: int, instance: int) -> float:
    rng = np.random.default_rng([candidate, instance])
    return float(MEANS[candidate] + rng.normal(0, 0.2))


def dies_at_2_7(candidate: int, instance: int) -> float:
    if (candidate, instance) == (2, 7):
        os._exit(3)  # the worker process dies without a word
    return noisy(candidate, instance)


def raises_at_2_7(candidate: int, instance: int) -> float:
    if (candidate, instance) == (2, 7):
        raise ZeroDivisionError("boom")
    return noisy(candidate, instance)


def sleeps_at_1_6(candidate: int, instance: int) -> float:
    if (candidate, instance) == (1, 6):
        time.sleep(60)  # only ever run in a process that gets terminated
    return noisy(candidate, instance)


def waits_at_1_6(candidate: int, instance: int) -> float:
    if (candidate, instance) == (1, 6):
        RELEASE.wait(30)  # a thread cannot be stopped: the test releases it
    return noisy(candidate, instance)


class Returns:
    """evaluate returning ``value`` for (3, 4) and good scores elsewhere."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __call__(self, candidate: int, instance: int) -> object:
        if (candidate, instance) == (3, 4):
            return self.value
        return noisy(candidate, instance)


def _race(evaluate, **kwargs):
    # first_test above the instances used: nobody is dropped before the fault,
    # so the expected partial result is known exactly
    options = {
        "method": "frace-sign",
        "first_test": 50,
        "progress": False,
        "random_state": 0,
    }
    return nbstats.race(evaluate, CANDIDATES, range(40), **{**options, **kwargs})


def _check_partial(error: RaceError, complete_instances: list[int]) -> None:
    partial = error.partial_result
    held = int(partial.scores.notna().sum().sum())
    assert partial.evaluations == held == len(partial.history)
    assert len(partial.scores) == len(complete_instances)
    assert not partial.scores.isna().any().any()  # no hole: complete instances
    assert sorted(set(partial.history["instance"])) == complete_instances
    assert partial.stop_reason == "evaluation failed"
    # the scores held are the ones a faultless evaluation gives
    for row in partial.history.itertuples(index=False):
        assert row.score == noisy(int(row.candidate), row.instance)


# --- a worker that dies ------------------------------------------------------


def test_dying_worker_in_a_process_pool():
    with ProcessPoolExecutor(1) as pool, pytest.raises(RaceError) as info:
        _race(dies_at_2_7, executor=pool)
    error = info.value
    assert isinstance(error.__cause__, BrokenProcessPool)
    assert error.kind == "worker died"
    # one worker runs the calls in order: (0, 7) and (1, 7) came back first
    assert (error.candidate, error.instance) == (2, 7)
    assert "evaluate(2, 7) was lost: BrokenProcessPool" in str(error)
    assert "worker process died" in str(error)
    _check_partial(error, list(range(7)))


# --- a function a process pool cannot pickle ---------------------------------


@pytest.mark.parametrize("kind", ["lambda", "local function"])
def test_unpicklable_evaluate_in_a_process_pool(kind):
    if kind == "lambda":
        evaluate = lambda c, i: noisy(c, i)  # noqa: E731
    else:

        def evaluate(c, i):
            return noisy(c, i)

    with ProcessPoolExecutor(1) as pool, pytest.raises(RaceError) as info:
        _race(evaluate, executor=pool)
    error = info.value
    assert isinstance(error.__cause__, (pickle.PicklingError, AttributeError))
    assert error.kind == "not sent"
    assert (error.candidate, error.instance) == (0, 0)
    assert "could not be sent to the executor" in str(error)
    assert "module level" in str(error)
    _check_partial(error, [])


# --- time limits -------------------------------------------------------------


def test_timeout_in_a_process_pool_terminates_its_workers():
    start = time.monotonic()
    with ProcessPoolExecutor(2) as pool:
        with pytest.raises(RaceError) as info:
            _race(sleeps_at_1_6, executor=pool, timeout=0.5)
        workers = list(pool._processes.values())
    # the pool's workers were terminated: leaving the block did not wait 60 s
    assert time.monotonic() - start < 20
    assert workers and not any(process.is_alive() for process in workers)
    error = info.value
    assert isinstance(error.__cause__, TimeoutError)
    assert (error.kind, error.timeout) == ("timeout", 0.5)
    assert (error.candidate, error.instance) == (1, 6)
    assert "evaluate(1, 6) ran longer than the time limit (timeout=0.5 s)" in str(error)
    _check_partial(error, list(range(6)))


@pytest.mark.parametrize("executor", ["threads", "none"])
def test_timeout_on_threads_and_in_process(executor):
    RELEASE.clear()
    try:
        if executor == "threads":
            with ThreadPoolExecutor(2) as pool:
                with pytest.raises(RaceError) as info:
                    _race(waits_at_1_6, executor=pool, timeout=0.5)
                RELEASE.set()  # else leaving the block waits for the thread
        else:
            with pytest.raises(RaceError) as info:
                _race(waits_at_1_6, timeout=0.5)
    finally:
        RELEASE.set()
    error = info.value
    assert isinstance(error.__cause__, TimeoutError)
    assert (error.kind, error.candidate, error.instance) == ("timeout", 1, 6)
    assert "timeout=0.5 s" in str(error)
    _check_partial(error, list(range(6)))


def test_a_generous_timeout_changes_nothing():
    plain = nbstats.race(noisy, CANDIDATES, range(30), progress=False, n_samples=2000)
    with ThreadPoolExecutor(2) as pool:
        for executor in (None, pool):
            timed = nbstats.race(
                noisy,
                CANDIDATES,
                range(30),
                progress=False,
                n_samples=2000,
                timeout=30,
                executor=executor,
            )
            pd.testing.assert_frame_equal(plain.history, timed.history)
            assert timed.winner == plain.winner


@pytest.mark.parametrize("timeout", [0, -1.0, float("inf"), float("nan"), True, "1"])
def test_bad_timeout(timeout):
    with pytest.raises(ValueError, match="timeout must be a positive number"):
        _race(noisy, timeout=timeout)


def test_executor_must_have_submit():
    with pytest.raises(TypeError, match="executor must be"):
        _race(noisy, executor="threads")


# --- the user's evaluate raises ------------------------------------------------


@pytest.mark.parametrize("executor", ["none", "threads", "processes"])
def test_raising_evaluate_on_every_executor(executor):
    pools = {"threads": ThreadPoolExecutor, "processes": ProcessPoolExecutor}
    if executor == "none":
        with pytest.raises(RaceError) as info:
            _race(raises_at_2_7)
    else:
        with pools[executor](2) as pool, pytest.raises(RaceError) as info:
            _race(raises_at_2_7, executor=pool)
    error = info.value
    assert isinstance(error.__cause__, ZeroDivisionError)
    assert (error.kind, error.candidate, error.instance) == ("raised", 2, 7)
    assert "evaluate(2, 7) raised ZeroDivisionError: boom" in str(error)
    _check_partial(error, list(range(7)))


def test_failure_inside_a_block_keeps_the_other_complete_instances():
    # the block of step 2 is instances 6, 7, 8: 7 fails, 6 and 8 are complete
    with ThreadPoolExecutor(2) as pool, pytest.raises(RaceError) as info:
        _race(raises_at_2_7, executor=pool, instances_per_step=3)
    error = info.value
    assert (error.candidate, error.instance) == (2, 7)
    _check_partial(error, [0, 1, 2, 3, 4, 5, 6, 8])
    assert "4 other evaluation(s) of the incomplete instance(s)" in str(error)


def test_race_error_survives_pickling():
    with pytest.raises(RaceError) as info:
        _race(raises_at_2_7)
    clone = pickle.loads(pickle.dumps(info.value))
    assert (clone.candidate, clone.instance, clone.kind) == (2, 7, "raised")
    assert clone.partial_result.evaluations == info.value.partial_result.evaluations


def test_interrupt_keeps_the_partial_result():
    def interrupted(candidate, instance):
        if (candidate, instance) == (0, 5):
            raise KeyboardInterrupt
        return noisy(candidate, instance)

    with pytest.raises(KeyboardInterrupt) as info:
        _race(interrupted)
    partial = info.value.partial_result
    assert partial.stop_reason == "interrupted"
    assert partial.evaluations == len(partial.history) == 25


# --- scores that are not finite real numbers ---------------------------------


@pytest.mark.parametrize(
    ("value", "cause", "words"),
    [
        (True, TypeError, "True, a bool, not a number"),
        (np.bool_(False), TypeError, "not a number"),
        ("0.5", TypeError, "'0.5', a str, not a number"),
        (None, TypeError, "None, not a number (a missing return statement?)"),
        (0.5 + 0j, TypeError, "(0.5+0j), a complex number"),
        (np.complex128(1), TypeError, "a complex number"),
        (np.array([0.5]), TypeError, "of type ndarray, not a real number"),
        (float("nan"), ValueError, "nan, which is not finite"),
        (-np.inf, ValueError, "-inf, which is not finite"),
    ],
)
def test_bad_scores_are_refused(value, cause, words):
    with pytest.raises(RaceError) as info:
        _race(Returns(value))
    error = info.value
    assert isinstance(error.__cause__, cause)
    assert (error.kind, error.candidate, error.instance) == ("bad score", 3, 4)
    assert f"evaluate(3, 4) returned {value!r}" in str(error)
    assert words in str(error)
    _check_partial(error, list(range(4)))


def test_bad_score_from_a_process_pool():
    with ProcessPoolExecutor(2) as pool, pytest.raises(RaceError) as info:
        _race(Returns("0.5"), executor=pool)
    assert (info.value.kind, info.value.candidate, info.value.instance) == (
        "bad score",
        3,
        4,
    )
    _check_partial(info.value, list(range(4)))


@pytest.mark.parametrize(
    "convert", [np.float32, np.float64, np.int64, np.int8, int, float]
)
def test_numpy_and_python_real_numbers_are_scores(convert):
    def evaluate(candidate, instance):
        return convert(round(10 * noisy(candidate, instance)))

    res = nbstats.race(evaluate, CANDIDATES, range(20), progress=False)
    assert res.scores.dtypes.eq(float).all()
    assert res.evaluations == len(res.history)


# --- Dask ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_executor():
    with (
        distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=2,
            processes=False,
            dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client.get_executor()


def test_dask_failures_become_race_errors(dask_executor):
    with pytest.raises(RaceError) as info:
        _race(raises_at_2_7, executor=dask_executor)
    error = info.value
    assert isinstance(error.__cause__, ZeroDivisionError)
    assert (error.kind, error.candidate, error.instance) == ("raised", 2, 7)
    _check_partial(error, list(range(7)))
    with pytest.raises(RaceError) as info:
        _race(Returns(None), executor=dask_executor)
    assert (info.value.kind, info.value.candidate) == ("bad score", 3)
    _check_partial(info.value, list(range(4)))
    # and a faultless race is the in-process one
    plain = _race(noisy, max_steps=8)
    on_dask = _race(noisy, max_steps=8, executor=dask_executor)
    pd.testing.assert_frame_equal(plain.history, on_dask.history)


def takes_half_a_second(candidate: int, instance: int) -> float:
    time.sleep(0.5)
    return noisy(candidate, instance)


def test_process_pool_counts_time_from_the_real_start():
    # 3 calls of 0.5 s at a time on 2 workers: the third, waiting for a free
    # worker, would look 1 s old if the clock started in the pool's queue
    with ProcessPoolExecutor(2) as pool:
        res = nbstats.race(
            takes_half_a_second,
            [0, 1, 2],
            range(2),
            progress=False,
            executor=pool,
            timeout=0.9,
        )
    assert res.evaluations == 6


def test_dask_timeout(dask_executor):
    RELEASE.clear()
    try:
        with pytest.raises(RaceError) as info:
            _race(waits_at_1_6, executor=dask_executor, timeout=0.5)
    finally:
        RELEASE.set()  # the Dask thread cannot be stopped: let it finish
    error = info.value
    assert isinstance(error.__cause__, TimeoutError)
    assert (error.kind, error.candidate, error.instance) == ("timeout", 1, 6)
    _check_partial(error, list(range(6)))


# --- calls the executor cancels or loses: never dropped, never a hang ---------


@pytest.mark.parametrize("notify", [True, False], ids=["like-dask", "like-shutdown"])
def test_calls_the_executor_cancels_are_a_race_error(notify):
    # 5 candidates, one instance per step: submission 5 * 6 + 3 is (3, 6)
    executor = CancellingExecutor(cancel={33}, notify=notify)
    with pytest.raises(RaceError) as info:
        finishes_within(20, lambda: _race(noisy, executor=executor))
    error = info.value
    assert isinstance(error.__cause__, CancelledError)
    assert (error.kind, error.candidate, error.instance) == ("cancelled", 3, 6)
    assert "evaluate(3, 6) was cancelled by the executor" in str(error)
    _check_partial(error, list(range(6)))


def test_a_call_that_never_came_back_is_a_race_error(monkeypatch):
    # run_calls itself never loses one; the race checks all the same
    def loses_call_2(function, calls, executor, timeout):
        return {i: function(*call) for i, call in enumerate(calls) if i != 2}, []

    monkeypatch.setattr(racing_state, "run_calls", loses_call_2)
    with pytest.raises(RaceError) as info:
        _race(noisy)
    assert (info.value.kind, info.value.candidate, info.value.instance) == (
        "cancelled",
        2,
        0,
    )
    _check_partial(info.value, [])


class ShutsDownThePool:
    """evaluate that shuts its own thread pool down (cancel_futures=True) at
    (1, 7): the calls still queued are cancelled."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self.pool = pool

    def __call__(self, candidate: int, instance: int) -> float:
        if (candidate, instance) == (1, 7):
            self.pool.shutdown(wait=False, cancel_futures=True)
        return noisy(candidate, instance)


def test_thread_pool_shut_down_mid_race_does_not_hang():
    with ThreadPoolExecutor(1) as pool, pytest.raises(RaceError) as info:
        finishes_within(20, lambda: _race(ShutsDownThePool(pool), executor=pool))
    error = info.value
    assert isinstance(error.__cause__, CancelledError)
    # one worker, in order: (2, 7) was the first call cancelled
    assert (error.kind, error.candidate, error.instance) == ("cancelled", 2, 7)
    _check_partial(error, list(range(7)))


def test_an_executor_already_shut_down_is_a_race_error():
    pool = ThreadPoolExecutor(1)
    pool.shutdown()
    with pytest.raises(RaceError, match="the executor was shut down") as info:
        _race(noisy, executor=pool)
    assert isinstance(info.value.__cause__, RuntimeError)
    assert (info.value.kind, info.value.candidate, info.value.instance) == (
        "not sent",
        0,
        0,
    )
    _check_partial(info.value, [])


def sleeps_20_ms(candidate: int, instance: int) -> float:
    time.sleep(0.02)
    return noisy(candidate, instance)


def test_dask_cluster_closed_mid_race():
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    )
    client = distributed.Client(cluster)

    def close_soon():
        time.sleep(0.3)  # a few instances of 5 calls of 20 ms have run
        client.close()
        cluster.close()

    closer = threading.Thread(target=close_soon)
    closer.start()
    try:
        with pytest.raises(RaceError) as info:
            finishes_within(
                60, lambda: _race(sleeps_20_ms, executor=client.get_executor())
            )
    finally:
        closer.join()
        client.close()
        cluster.close()
    error = info.value
    assert error.kind in ("cancelled", "not sent")
    seen = len(error.partial_result.scores)
    assert 0 < seen < 40
    _check_partial(error, list(range(seen)))


# --- BaseExceptions from evaluate ------------------------------------------------


class Abort(BaseException):
    """A custom BaseException, as some libraries define."""


class ExitsAt27:
    """evaluate raising ``kind`` at (2, 7)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __call__(self, candidate: int, instance: int) -> float:
        if (candidate, instance) == (2, 7):
            if self.kind == "SystemExit":
                sys.exit("bye")
            if self.kind == "GeneratorExit":
                raise GeneratorExit
            raise Abort("stop")
        return noisy(candidate, instance)


@pytest.mark.parametrize("executor", ["none", "timeout", "threads", "processes"])
@pytest.mark.parametrize("kind", ["SystemExit", "GeneratorExit", "Abort"])
def test_base_exceptions_in_evaluate_are_race_errors(kind, executor):
    pools = {"threads": ThreadPoolExecutor, "processes": ProcessPoolExecutor}
    if executor in ("none", "timeout"):
        timeout = 10 if executor == "timeout" else None  # a thread per call
        with pytest.raises(RaceError) as info:
            _race(ExitsAt27(kind), timeout=timeout)
    else:
        with pools[executor](2) as pool, pytest.raises(RaceError) as info:
            _race(ExitsAt27(kind), executor=pool)
    error = info.value
    assert type(error.__cause__).__name__ == kind
    assert (error.kind, error.candidate, error.instance) == ("raised", 2, 7)
    assert f"evaluate(2, 7) raised {kind}" in str(error)
    _check_partial(error, list(range(7)))


def interrupts_at_3_4(candidate: int, instance: int) -> float:
    if (candidate, instance) == (3, 4):
        raise KeyboardInterrupt
    return noisy(candidate, instance)


def test_interrupt_in_a_worker_thread_keeps_the_partial_result():
    with ThreadPoolExecutor(2) as pool, pytest.raises(KeyboardInterrupt) as info:
        _race(interrupts_at_3_4, executor=pool)
    partial = info.value.partial_result
    assert partial.stop_reason == "interrupted"
    assert partial.evaluations == len(partial.history) == 20  # instances 0..3


class Instances:
    """Instances 0, 1, … that fail with ``error`` at number ``at``."""

    def __init__(self, at: int, error: BaseException) -> None:
        self.at, self.error = at, error

    def __iter__(self):
        for number in range(40):
            if number == self.at:
                raise self.error
            yield number


@pytest.mark.parametrize("error", [ValueError("no more data"), Abort("stop")])
def test_instances_that_fail_are_a_race_error(error):
    with pytest.raises(RaceError) as info:
        nbstats.race(
            noisy,
            CANDIDATES,
            Instances(9, error),
            method="frace-sign",
            first_test=50,
            progress=False,
        )
    race_error = info.value
    assert race_error.__cause__ is error
    assert race_error.kind == "instances"
    assert (race_error.candidate, race_error.instance) == (None, None)
    assert "instances iterable raised" in str(race_error)
    assert "instance number 9" in str(race_error)
    partial = race_error.partial_result
    assert partial.stop_reason == "instances failed"
    assert sorted(set(partial.history["instance"])) == list(range(9))


# --- scores no float holds -------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "cause", "words"),
    [
        (np.timedelta64(5, "s"), TypeError, "a timedelta64 (a duration or a date)"),
        (np.timedelta64(5, "ns"), TypeError, "a timedelta64 (a duration or a date)"),
        (np.datetime64("2020-01-01"), TypeError, "a datetime64 (a duration"),
        (datetime.timedelta(seconds=5), TypeError, "a timedelta (a duration"),
        (datetime.datetime(2020, 1, 1), TypeError, "a datetime (a duration"),
        (10**400, TypeError, "too large for a float"),
        (-(10**400), TypeError, "too large for a float"),
        (2**60 + 1, ValueError, "would become 1152921504606846976"),
        (np.int64(2**62 + 1), ValueError, "a float cannot hold exactly"),
        (np.longdouble("1e4000"), ValueError, "which is not finite"),
        (1 + 2j, TypeError, "a complex number"),
        ("fast", TypeError, "a str, not a number"),
        (b"0.5", TypeError, "a bytes, not a number"),
    ],
    ids=[
        "timedelta64-s",
        "timedelta64-ns",
        "datetime64",
        "timedelta",
        "datetime",
        "10**400",
        "-10**400",
        "2**60+1",
        "int64",
        "longdouble-inf",
        "complex",
        "str",
        "bytes",
    ],
)
@pytest.mark.parametrize("executor", ["none", "threads"])
def test_scores_no_float_holds_are_race_errors(value, cause, words, executor):
    if executor == "none":
        with pytest.raises(RaceError) as info:
            _race(Returns(value))
    else:
        with ThreadPoolExecutor(2) as pool, pytest.raises(RaceError) as info:
            _race(Returns(value), executor=pool)
    error = info.value
    assert isinstance(error.__cause__, cause)
    assert (error.kind, error.candidate, error.instance) == ("bad score", 3, 4)
    assert "evaluate(3, 4) returned " in str(error)
    assert words in str(error)
    assert len(str(error)) < 1000  # a 400-digit number is cut short
    _check_partial(error, list(range(4)))


def test_exact_big_integers_are_scores():
    # 2**60 is a float exactly: kept, not refused
    def evaluate(candidate, instance):
        return 2**60 + 2**10 * candidate

    res = _race(evaluate, max_steps=3)
    assert res.scores.loc[0, "4"] == 2**60 + 2**12


class BadRepr:
    """A candidate whose repr fails."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __str__(self) -> str:
        return "bad-repr"


def fails_on_bad_repr(candidate, instance: int) -> float:
    if isinstance(candidate, BadRepr) and instance == 3:
        raise ValueError("boom")
    return 0.5 if isinstance(candidate, BadRepr) else noisy(candidate, instance)


def test_a_candidate_whose_repr_fails_still_gives_a_race_error():
    with pytest.raises(RaceError, match="raised ValueError: boom") as info:
        nbstats.race(
            fails_on_bad_repr,
            [0, BadRepr()],
            range(10),
            method="frace-sign",
            first_test=50,
            progress=False,
        )
    assert isinstance(info.value.candidate, BadRepr)
    assert info.value.instance == 3
    assert info.value.partial_result.evaluations == 6


class Unprintable(TypeError):
    def __str__(self) -> str:
        raise RuntimeError("no str")


def raises_unprintable_at_2_7(candidate: int, instance: int) -> float:
    if (candidate, instance) == (2, 7):
        raise Unprintable
    return noisy(candidate, instance)


def test_an_exception_whose_str_fails_still_gives_a_race_error():
    with pytest.raises(RaceError, match="raised Unprintable") as info:
        _race(raises_unprintable_at_2_7)
    assert (info.value.kind, info.value.candidate, info.value.instance) == (
        "raised",
        2,
        7,
    )
    _check_partial(info.value, list(range(7)))
