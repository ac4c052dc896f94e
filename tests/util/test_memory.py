"""give_back_freed_memory: the heap a computation freed goes back to the system."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="malloc_trim is glibc's",
)

# 2,000 blocks of 60 kB (below glibc's threshold for blocks of their own
# mappings: they come from the heap), every 100th kept so that the heap's
# top cannot shrink by itself; the resident memory before and after
_SCRIPT = textwrap.dedent(
    """
    import psutil
    from nbstats.util.memory import give_back_freed_memory

    process = psutil.Process()
    blocks = [bytearray(b"x" * 60_000) for _ in range(2_000)]
    kept = blocks[::100]
    del blocks
    before = process.memory_info().rss
    give_back_freed_memory()
    after = process.memory_info().rss
    print(before - after, len(kept))
    """
)


def test_freed_heap_goes_back_to_the_system():
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=True
    )
    returned, kept = map(int, done.stdout.split())
    assert kept == 20
    # about 118 MB were freed in the middle of the heap: most of it returned
    assert returned > 80 * 2**20
