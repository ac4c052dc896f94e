"""The kernels compiled beside the first command (nbstats.stats.compile_ahead).

The helper must compile what a report calls, with the report's types: after
it has run, a demo report, a report of a table with holes and ``analyze``
in a new process compile nothing (numba's compile events, which fire on a
cache miss only). The stamp is what keeps later commands from starting it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from nbstats.stats import compile_ahead
from nbstats.util import warm

_REPORTS = textwrap.dedent(
    """
    import sys
    import numpy as np
    import pandas as pd
    from numba.core import event
    import nbstats
    from nbstats.cli.commands import main

    rng = np.random.default_rng(3)
    values = rng.normal(0.8, 0.03, size=(40, 9)) + np.linspace(0, 0.05, 9)
    values[rng.random(values.shape) < 0.15] = np.nan
    holes = pd.DataFrame(values, columns=[f"method {j}" for j in range(9)])
    with event.install_recorder("numba:compile") as rec:
        assert main(["demo", "-o", sys.argv[1] + "/demo.html"]) == 0
        nbstats.report(holes, sys.argv[1] + "/holes.html", nan_policy="pairwise")
        nbstats.analyze(holes, nan_policy="omit")
    names = [ev.data["dispatcher"].py_func.__name__
             for _, ev in rec.buffer if not ev.is_start]
    print("COMPILED", " ".join(sorted(set(names))))
    """
)


def test_after_the_helper_a_report_compiles_nothing(tmp_path):
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "MPLBACKEND": "Agg",
        "NBSTATS_WARM": "0",
    }
    stamp = tmp_path / "compiled-stamp"
    running = tmp_path / "compiling-stamp"
    running.touch()
    ahead = subprocess.run(
        [sys.executable, "-m", "nbstats.stats.compile_ahead", str(stamp), str(running)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert ahead.returncode == 0, ahead.stderr
    assert stamp.exists() and not running.exists()
    done = subprocess.run(
        [sys.executable, "-c", _REPORTS, str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    line = done.stdout.strip().splitlines()[-1]
    assert line == "COMPILED", line  # no kernel left for the command to compile


def test_only_the_commands_that_call_kernels_compile_ahead(monkeypatch):
    monkeypatch.delenv("NBSTATS_COMPILE_AHEAD", raising=False)
    assert warm.compiles_ahead(["report", "a.csv"])
    assert warm.compiles_ahead(["demo"]) and warm.compiles_ahead(["analyze", "a.csv"])
    assert not warm.compiles_ahead(["coverage", "a.csv"])
    assert not warm.compiles_ahead(["dashboard", "a.csv"])
    assert not warm.compiles_ahead(["report", "--help"])
    assert not warm.compiles_ahead([])
    monkeypatch.setenv("NBSTATS_COMPILE_AHEAD", "0")
    assert not warm.compiles_ahead(["report", "a.csv"])


def _ahead_env(monkeypatch, tmp_path) -> list[tuple[str, ...]]:
    monkeypatch.delenv("NBSTATS_COMPILE_AHEAD", raising=False)
    monkeypatch.setenv("NBSTATS_WARM", "0")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    started: list[tuple[str, ...]] = []
    monkeypatch.setattr(warm, "start_detached", lambda *args: started.append(args))
    return started


def test_the_helper_starts_until_it_has_left_its_stamp(monkeypatch, tmp_path):
    started = _ahead_env(monkeypatch, tmp_path)
    status = warm.run_command(["demo"], lambda: 0, "server", "ahead")
    assert status == 0
    ((module, stamp, running),) = started
    assert module == "ahead"
    assert stamp == str(warm.compiled_stamp(warm.server_key(warm.PACKAGE_DIR)))
    open(stamp, "w").close()  # what the helper does at its end
    os.unlink(running)
    warm.run_command(["demo"], lambda: 0, "server", "ahead")
    warm.run_command(["coverage", "a.csv"], lambda: 0, "server", "ahead")
    assert len(started) == 1


def test_commands_started_together_start_one_helper(monkeypatch, tmp_path):
    started = _ahead_env(monkeypatch, tmp_path)
    for _ in range(3):  # the first is still compiling
        warm.run_command(["report", "a.csv"], lambda: 0, "server", "ahead")
    assert len(started) == 1
    running = Path(started[0][2])
    old = time.time() - warm.AHEAD_STALE_SECONDS - 1
    os.utime(running, (old, old))  # a compilation that died long ago
    warm.run_command(["report", "a.csv"], lambda: 0, "server", "ahead")
    assert len(started) == 2 and started[1][2] == str(running)


def test_the_helper_leaves_its_stamp_and_removes_its_running_file(tmp_path):
    stamp, running = tmp_path / "compiled-x", tmp_path / "compiling-x"
    running.touch()
    compile_ahead.main(str(stamp), str(running))
    assert stamp.exists() and not running.exists()
