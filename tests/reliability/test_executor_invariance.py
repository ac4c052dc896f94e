"""Properties of study() and race() on any executor: the same table, history
and winner whatever the order in which calls finish and whatever the
chunksize; and whichever calls an executor cancels, a named error whose
partial result is exactly the work that ran — never a shorter table."""

from __future__ import annotations

from concurrent.futures import CancelledError

import numpy as np
import pandas as pd
import pytest
from fault_executors import CancellingExecutor, ShuffledExecutor, finishes_within
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.simulate import StudyError, paired_normal, study
from nbstats.stats.racing import RaceError

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

STUDY_SETTINGS = {"n_cases": [5, 8], "delta": [0.0, 0.1, 0.2]}
REPETITIONS = 3  # 18 tasks


def mean_difference(pair: pd.DataFrame) -> float:
    return float((pair["b"] - pair["a"]).mean())


def evaluate_pair(result, pair, setting):
    return {"mean_diff": result, "first_a": float(pair["a"].iloc[0])}


def _study(**kwargs):
    return study(
        paired_normal,
        mean_difference,
        evaluate_pair,
        settings=STUDY_SETTINGS,
        repetitions=REPETITIONS,
        random_state=7,
        progress=False,
        **kwargs,
    )


FULL = _study()


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), chunksize=st.integers(1, 7))
def test_study_is_the_same_whatever_the_order_calls_finish(seed, chunksize):
    executor = ShuffledExecutor(seed)
    try:
        frame = finishes_within(
            30, lambda: _study(executor=executor, chunksize=chunksize)
        )
    finally:
        executor.shutdown()
    pd.testing.assert_frame_equal(frame, FULL, check_exact=True)


@SETTINGS
@given(
    cancel=st.sets(st.integers(0, 17), min_size=1),
    chunksize=st.integers(1, 4),
    notify=st.booleans(),
)
def test_study_with_cancelled_tasks_is_an_error_with_exactly_the_rest(
    cancel, chunksize, notify
):
    n_chunks = -(-18 // chunksize)
    cancel = {c for c in cancel if c < n_chunks} or {n_chunks - 1}
    executor = CancellingExecutor(cancel, notify=notify)
    with pytest.raises(StudyError) as info:
        finishes_within(30, lambda: _study(executor=executor, chunksize=chunksize))
    error = info.value
    assert isinstance(error.__cause__, CancelledError)
    # the executor ran every other chunk: the rows are the full table's
    # without the cancelled chunks' tasks
    lost = {c * chunksize + k for c in cancel for k in range(chunksize)}
    kept = [p for p in range(18) if p not in lost]
    if kept:
        expected = FULL.iloc[kept].reset_index(drop=True)
        pd.testing.assert_frame_equal(error.partial_results, expected, check_exact=True)
    else:  # no row: the metric names are not known
        assert error.partial_results.empty
        assert list(error.partial_results.columns) == [
            "n_cases",
            "delta",
            "repetition",
        ]
    first = min(cancel) * chunksize  # the first task of the first cancelled chunk
    assert error.repetition == first % REPETITIONS
    assert error.setting == {k: FULL.loc[first, k] for k in ("n_cases", "delta")}
    assert f"{len(kept)} of 18 rows were computed" in str(error)


MEANS = np.array([0.1, 0.3, 0.35, 0.6, 0.9])


def noisy(candidate: int, instance: int) -> float:
    rng = np.random.default_rng([candidate, instance])
    return float(MEANS[candidate] + rng.normal(0, 0.2))


def _race(method, **kwargs):
    return nbstats.race(
        noisy,
        list(range(5)),
        range(30),
        method=method,
        random_state=3,
        n_samples=2000,
        progress=False,
        **kwargs,
    )


PLAIN = {method: _race(method) for method in ("bayes", "frace-sign")}


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), method=st.sampled_from(["bayes", "frace-sign"]))
def test_race_is_the_same_whatever_the_order_calls_finish(seed, method):
    executor = ShuffledExecutor(seed)
    try:
        res = finishes_within(60, lambda: _race(method, executor=executor))
    finally:
        executor.shutdown()
    plain = PLAIN[method]
    pd.testing.assert_frame_equal(res.history, plain.history, check_exact=True)
    pd.testing.assert_frame_equal(res.eliminations, plain.eliminations)
    assert res.winner == plain.winner


@SETTINGS
@given(cancel=st.sets(st.integers(0, 149), min_size=1), notify=st.booleans())
def test_race_with_cancelled_calls_is_an_error_with_exactly_the_rest(cancel, notify):
    # no test before instance 50: 5 calls per instance, submission n is
    # evaluate(n % 5, n // 5)
    executor = CancellingExecutor(cancel, notify=notify)
    with pytest.raises(RaceError) as info:
        finishes_within(
            30, lambda: _race("frace-sign", executor=executor, first_test=50)
        )
    error = info.value
    first = min(cancel)
    assert isinstance(error.__cause__, CancelledError)
    assert (error.kind, error.candidate, error.instance) == (
        "cancelled",
        first % 5,
        first // 5,
    )
    partial = error.partial_result
    assert len(partial.scores) == first // 5
    assert partial.evaluations == len(partial.history) == 5 * (first // 5)
    for row in partial.history.itertuples(index=False):
        assert row.score == noisy(int(row.candidate), row.instance)
