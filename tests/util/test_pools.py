"""thread_pool: one pool per name, made anew in a forked process; in_two_threads
when this thread's half fails or is interrupted."""

from __future__ import annotations

import os
import threading
import time

import pytest

from nbstats.util.pools import thread_pool


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_pool_works_in_a_forked_process():
    pool = thread_pool("nbstats-test-fork")
    assert pool.submit(sum, [1, 2]).result(timeout=10) == 3  # its threads exist
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the parent's threads are not here
        try:
            fresh = thread_pool("nbstats-test-fork")
            value = fresh.submit(sum, [3, 4]).result(timeout=10)
            os.write(write, b"new" if fresh is not pool and value == 7 else b"old")
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    assert os.read(read, 16) == b"new"
    os.close(read)
    assert thread_pool("nbstats-test-fork") is pool  # the parent keeps its own


# -- in_two_threads: what happens when this thread's half fails -------------------


def _halves(mine, pools):
    """A work function: this thread's half (even items) runs ``mine``, the
    pool's half ``pools``."""

    def work(items):
        return (mine if items[0] == 0 else pools)()

    return work


def test_an_interrupt_waits_for_the_pools_half_when_it_ends():
    from nbstats.util.pools import in_two_threads

    ended = threading.Event()

    def pools():
        time.sleep(0.2)
        ended.set()

    def mine():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        in_two_threads("nbstats-test-halves", _halves(mine, pools), [0, 1])
    assert ended.is_set()  # waited for: no work left running


def test_an_interrupt_does_not_wait_for_a_stuck_half(monkeypatch):
    """A pool thread stuck for good (a lock the interrupted thread left held)
    does not hang the caller: the interrupt goes on after INTERRUPTED_WAIT."""
    from nbstats.util import pools

    monkeypatch.setattr(pools, "INTERRUPTED_WAIT", 0.3)
    release = threading.Event()

    def mine():
        raise KeyboardInterrupt

    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            pools.in_two_threads(
                "nbstats-test-stuck", _halves(mine, release.wait), [0, 1]
            )
        assert time.monotonic() - start < 5
    finally:
        release.set()  # the pool thread ends


def test_another_error_is_raised_once_the_pools_half_has_ended():
    from nbstats.util.pools import in_two_threads

    ended = threading.Event()

    def pools():
        time.sleep(0.2)
        ended.set()

    def mine():
        raise ValueError("mine")

    with pytest.raises(ValueError, match="mine"):
        in_two_threads("nbstats-test-error", _halves(mine, pools), [0, 1])
    assert ended.is_set()


def test_both_halves_results():
    from nbstats.util.pools import in_two_threads

    assert in_two_threads("nbstats-test-sum", sum, [1, 2, 3, 4, 5]) == (9, 6)
