"""The memory ceiling belongs to a context, not to the process (issue 34, 11).

``memory_ceiling()`` once set a module global: while thread A was inside
``with memory_ceiling("16M")`` thread B saw 16 MiB, and after the
interleaved exits of A (16M) and B (4G) the ceiling stayed 16 MiB for the
whole process. It is now a :class:`contextvars.ContextVar`: threads and
asyncio tasks each see their own, a ``with`` block restores exactly what it
found, and the process-wide default (``NBSTATS_MAX_MEMORY``) is untouched.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbstats.util import memory
from nbstats.util.memory import (
    get_memory_ceiling,
    memory_ceiling,
    run_with_ceiling,
    set_memory_ceiling,
)

MB = 2**20


def _in_thread(function):
    """``function()`` in a fresh thread; its value or its error."""
    box = {}

    def target():
        try:
            box["value"] = function()
        except BaseException as error:  # handed back
            box["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(30)
    if "error" in box:
        raise box["error"]
    return box["value"]


def test_issue_reproducer_interleaved_threads_restore_the_default():
    """A enters 16M, B enters 4G, A leaves, B leaves (the issue's order):
    inside, each sees its own; after, both threads and the main one see
    the default."""
    default = get_memory_ceiling()
    step = threading.Barrier(2, timeout=30)
    seen = {}

    def a():
        with memory_ceiling("16M"):
            step.wait()  # 1: A inside
            step.wait()  # 2: B inside
            seen["a_inside"] = get_memory_ceiling()
        step.wait()  # 3: A left
        step.wait()  # 4: B left
        seen["a_after"] = get_memory_ceiling()

    def b():
        step.wait()  # 1: A inside; B still outside
        seen["b_before"] = get_memory_ceiling()
        with memory_ceiling("4G"):
            step.wait()  # 2
            step.wait()  # 3: A left
            seen["b_inside"] = get_memory_ceiling()
        step.wait()  # 4
        seen["b_after"] = get_memory_ceiling()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert seen == {
        "a_inside": 16 * MB,
        "b_before": default,
        "b_inside": 4 * 2**30,
        "a_after": default,
        "b_after": default,
    }
    assert get_memory_ceiling() == default


def test_a_thread_does_not_see_the_callers_block_nor_change_it():
    default = get_memory_ceiling()
    with memory_ceiling("32M"):
        assert _in_thread(get_memory_ceiling) == default
        _in_thread(lambda: set_memory_ceiling("1G"))
        assert get_memory_ceiling() == 32 * MB
    assert get_memory_ceiling() == default


def test_set_memory_ceiling_is_per_context_and_none_restores_the_default():
    default = get_memory_ceiling()

    def inside():
        previous = set_memory_ceiling("64M")
        assert previous == default
        assert get_memory_ceiling() == 64 * MB
        assert set_memory_ceiling(None) == 64 * MB
        return get_memory_ceiling()

    assert _in_thread(inside) == default
    assert get_memory_ceiling() == default


def test_asyncio_tasks_each_keep_their_ceiling():
    async def task(size: str, entered: asyncio.Event, other: asyncio.Event):
        with memory_ceiling(size):
            entered.set()
            await other.wait()  # the other task is inside its own block
            await asyncio.sleep(0)
            return get_memory_ceiling()

    async def main():
        first, second = asyncio.Event(), asyncio.Event()
        return await asyncio.gather(
            task("16M", first, second), task("2G", second, first)
        )

    assert asyncio.run(main()) == [16 * MB, 2 * 2**30]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(16, 4096), min_size=1, max_size=6))
def test_nested_blocks_restore_each_level(sizes):
    """Any nesting, left in reverse order, restores every level."""
    default = get_memory_ceiling()

    def nest(level: int) -> None:
        if level == len(sizes):
            return
        outer = get_memory_ceiling()
        with memory_ceiling(f"{sizes[level]}M"):
            assert get_memory_ceiling() == sizes[level] * MB
            nest(level + 1)
            assert get_memory_ceiling() == sizes[level] * MB
        assert get_memory_ceiling() == outer

    nest(0)
    assert get_memory_ceiling() == default


def test_an_exception_leaves_the_block_restored():
    default = get_memory_ceiling()
    with pytest.raises(RuntimeError, match="boom"), memory_ceiling("16M"):
        raise RuntimeError("boom")
    assert get_memory_ceiling() == default
    with pytest.raises(ValueError, match="too small"), memory_ceiling("1M"):
        pass  # refused on entry: nothing to restore
    assert get_memory_ceiling() == default


def test_budget_and_check_fits_read_the_contexts_ceiling():
    default = get_memory_ceiling()
    with memory_ceiling("64M"):
        assert memory.budget() == 8 * MB
        assert _in_thread(memory.budget) == default // 8
        with pytest.raises(ValueError, match="ceiling of 64 MB"):
            memory.check_fits(65 * MB, "the draws", "use fewer")
        # another thread is not refused by this block's ceiling
        assert _in_thread(lambda: memory.check_fits(65 * MB, "x", "y")) is None


def test_run_with_ceiling_carries_a_ceiling_to_an_executor():
    with memory_ceiling("48M"), ThreadPoolExecutor(1) as pool:
        carried = pool.submit(
            run_with_ceiling, get_memory_ceiling(), get_memory_ceiling
        )
        assert carried.result() == 48 * MB
        # the worker thread is left as it was
        assert pool.submit(get_memory_ceiling).result() != 48 * MB


def _generate(size, random_state):
    return size


def _analyse(data):
    return get_memory_ceiling()


def _evaluate(result, data, setting):
    return {"ceiling": result}


def test_a_studys_tasks_on_a_thread_pool_run_under_the_callers_ceiling():
    import nbstats

    with memory_ceiling("40M"), ThreadPoolExecutor(2) as pool:
        table = nbstats.simulate.study(
            _generate, _analyse, _evaluate, settings={"size": [1, 2]},
            repetitions=2, executor=pool, random_state=0, progress=False,
        )  # fmt: skip
    assert set(table["ceiling"]) == {40 * MB}


def test_a_race_call_with_a_time_limit_keeps_the_callers_ceiling():
    import numpy as np

    import nbstats

    seen = []

    def evaluate(candidate, instance):
        seen.append(get_memory_ceiling())
        return float(candidate) + 0.01 * instance

    with memory_ceiling("24M"):
        nbstats.race(
            evaluate, [0.0, 1.0, 2.0], range(6), timeout=30, max_steps=2,
            random_state=0, progress=False,
        )  # fmt: skip
    assert seen and set(seen) == {24 * MB}
    del np


def test_a_reports_kernel_gets_the_callers_ceiling(monkeypatch):
    """The report is sized against the caller's ceiling (set in code here),
    so its kernel, another process, gets it through the environment."""
    from nbstats.reporting import kernel

    monkeypatch.delenv("NBSTATS_MAX_MEMORY", raising=False)
    with memory_ceiling("48M"):
        assert kernel._kernel_env()["NBSTATS_MAX_MEMORY"] == str(48 * MB)
    assert kernel._kernel_env()["NBSTATS_MAX_MEMORY"] == str(get_memory_ceiling())
