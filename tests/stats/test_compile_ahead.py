"""Every kernel compiled at once (nbstats.stats.compile_ahead).

:func:`compile_kernels` must compile what a report calls, with the report's
types: after it has run, a demo report, a report of a table with holes and
``analyze`` in a new process compile nothing (numba's compile events, which
fire on a cache miss only). The warm process calls it while it warms up:
after its warm-up, the same commands in the same process (as in a fork of
it) compile nothing either.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_REPORTS = textwrap.dedent(
    """
    import sys
    import numpy as np
    import pandas as pd
    from numba.core import event
    import nbstats
    from nbstats.cli.commands import main

    if sys.argv[2] == "warm_up":  # as a fork of the warm process
        from nbstats.cli.warm_server import warm_up

        warm_up()

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


def ahead_env(tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),  # as after an install
        "MPLBACKEND": "Agg",
        "NBSTATS_WARM": "0",
    }


def test_after_compile_kernels_a_report_compiles_nothing(tmp_path):
    ahead = subprocess.run(
        [sys.executable, "-c", COMPILE],
        env=ahead_env(tmp_path), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert ahead.returncode == 0, ahead.stderr
    assert_nothing_compiled(tmp_path, "fresh")


def test_after_the_warm_up_a_report_compiles_nothing(tmp_path):
    assert_nothing_compiled(tmp_path, "warm_up")


COMPILE = "from nbstats.stats.compile_ahead import compile_kernels; compile_kernels()"


def assert_nothing_compiled(tmp_path, start: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _REPORTS, str(tmp_path), start],
        env=ahead_env(tmp_path), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    line = done.stdout.strip().splitlines()[-1]
    assert line == "COMPILED", line  # no kernel left for the command to compile
