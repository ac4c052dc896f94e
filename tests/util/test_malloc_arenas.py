"""The command's cap on glibc's malloc arenas (nbstats.util.malloc_arenas).

glibc's own report (``malloc_info``: one ``<heap nr=…>`` per arena) is the
oracle: six threads allocating at once make six arenas besides the main one
uncapped, and share two once capped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from nbstats.util import malloc_arenas

_ARENAS = textwrap.dedent(
    """
    import ctypes, re, sys, tempfile, threading
    from nbstats.util.malloc_arenas import cap_malloc_arenas

    if sys.argv[1] == "cap":
        print("SET", cap_malloc_arenas())
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = (ctypes.c_char_p, ctypes.c_char_p)
    libc.malloc_info.argtypes = (ctypes.c_int, ctypes.c_void_p)
    libc.fclose.argtypes = (ctypes.c_void_p,)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = (ctypes.c_void_p,)
    barrier = threading.Barrier(6)

    def allocate():
        # one malloc while every other thread holds one: an arena each, if allowed
        block = libc.malloc(4096)
        barrier.wait()
        barrier.wait()
        libc.free(block)

    threads = [threading.Thread(target=allocate) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        stream = libc.fopen(out.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        print("ARENAS", len(re.findall(r"<heap nr=", open(out.name).read())))
    """
)

glibc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="malloc arenas are glibc's",
)


def _arenas(mode: str, **env: str) -> list[str]:
    environ = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run(
        [sys.executable, "-c", _ARENAS, mode],
        env={**environ, **env}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@glibc
def test_capped_threads_share_two_arenas():
    assert _arenas("cap") == ["SET", "True", "ARENAS", str(malloc_arenas.ARENAS)]


@glibc
def test_uncapped_each_thread_gets_an_arena():
    # the oracle works: without the cap, the main arena and one per thread
    assert _arenas("none") == ["ARENAS", "7"]


@glibc
def test_the_users_own_setting_is_left_alone():
    assert _arenas("cap", MALLOC_ARENA_MAX="3") == ["SET", "False", "ARENAS", "3"]


def test_elsewhere_nothing_is_set(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert malloc_arenas.cap_malloc_arenas() is False


def test_a_command_run_here_caps_the_arenas_first(monkeypatch):
    from nbstats.util import warm

    calls = []
    monkeypatch.setenv("NBSTATS_WARM", "0")
    monkeypatch.setattr(malloc_arenas, "cap_malloc_arenas", lambda: calls.append(1))
    assert warm.run_command(["demo"], lambda: len(calls) - 1, "server") == 0
    assert calls == [1]
