"""The line before numba's first compilation (nbstats.stats.compiled)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nbstats.stats import compiled

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("cache", ["empty", "filled"])
def test_first_run_says_it_compiles_once(tmp_path, cache):
    """A process with an empty numba cache prints the line once, before the
    compilation; a process with the cache filled prints nothing."""
    script = (
        "import numpy as np, nbstats\n"
        "t = nbstats.datasets.load('demsar2006')\n"
        "nbstats.bayes_signrank_pairs(t, n_samples=500, random_state=0)\n"
        "nbstats.bayes_plackett_luce(t, random_state=0, n_samples=400)\n"
    )
    env = {"NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    import os

    env = {**os.environ, **env}
    runs = 2 if cache == "filled" else 1
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env,
            timeout=600, check=True,
        )  # fmt: skip
    said = done.stderr.count(compiled.MESSAGE)
    assert said == (1 if cache == "empty" else 0), done.stderr


def test_is_cached_and_announce(monkeypatch, capsys):
    class Cache:
        class _cache_file:  # numba's attribute names
            _index_path = "/no/such/index.nbi"

    class Kernel:
        _cache = Cache()

    assert not compiled.is_cached(Kernel())
    assert compiled.is_cached(print)  # not numba's: nothing to compile
    monkeypatch.setattr(compiled, "_told", False)
    monkeypatch.setattr(sys, "__stderr__", sys.stderr)
    assert not compiled.announce(print, Kernel())  # one of them is cached
    assert compiled.announce(Kernel(), Kernel())
    assert not compiled.announce(Kernel())  # once per process
    assert capsys.readouterr().err.count(compiled.MESSAGE) == 1
