"""thread_pool: one pool per name, made anew in a forked process."""

from __future__ import annotations

import os

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
