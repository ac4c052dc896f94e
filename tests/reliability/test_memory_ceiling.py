"""The Bayesian tests stay within their memory ceiling, measured as a real
process's peak resident memory.

``bayes_signrank_pairs`` on 200 cases × 100 algorithms (4950 pairs) once
peaked at 5.95 GB: every pair's per-draw sums at once. It runs here in a
subprocess; its peak RSS (``VmHWM``, the kernel's own account of the
process's memory map; not ``ru_maxrss``, which keeps the forking parent's
high-water mark across ``exec``) must stay
below 1 GB at the default ceiling, and the call's growth above the process's
baseline (Python, numpy, numba, a warm-up call; RSS polled every 2 ms during
the call) below the ceiling, also at a ceiling of 64 MB set through
``NBSTATS_MAX_MEMORY``.

The draws are fewer than the default 50,000 to keep the test short: the
ceiling does not depend on them — pairs are grouped so that a group's sums
fit an eighth of the ceiling whatever the draws (more draws: fewer pairs a
group), and the draws are cached only when they fit too. (The default
50,000 draws: ``benchmarks/bench_memory.py``, about 300 MB.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import json, threading, time
    import numpy as np, pandas as pd, psutil
    import nbstats
    from nbstats.util.memory import get_memory_ceiling

    rng = np.random.default_rng(0)
    m, n = 100, 200
    table = pd.DataFrame(
        rng.normal(0.8, 0.05, (n, m)) + np.linspace(0, 0.02, m),
        columns=[f"alg{j}" for j in range(m)],
    )
    # warm-up with the same options: imports, every compiled kernel (a
    # compilation needs tens of MB of its own), first allocations
    nbstats.bayes_signrank_pairs(
        table.iloc[:, :3], rope=0.01, n_samples=1000, random_state=0,
        interval=False,
    )
    process = psutil.Process()
    baseline = process.memory_info().rss
    during = [baseline]
    running = threading.Event()
    running.set()

    def poll():
        while running.is_set():
            during.append(process.memory_info().rss)
            time.sleep(0.002)

    watcher = threading.Thread(target=poll)
    watcher.start()
    res = nbstats.bayes_signrank_pairs(
        table, rope=0.01, n_samples=N_SAMPLES, random_state=0, interval=False
    )
    running.clear()
    watcher.join()
    # the peak of this process's own memory map (VmHWM): ru_maxrss would also
    # keep the high-water mark of the process that forked it (a test worker
    # past 1 GB made this child look 1.2 GB at once)
    with open("/proc/self/status") as status:
        peak = next(
            int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:")
        )
    print(json.dumps({
        "pairs": len(res.pairs), "baseline": baseline, "peak": peak,
        "call_peak": max(during), "ceiling": get_memory_ceiling(),
    }))
    """
)


def _run(n_samples: int, ceiling: str | None) -> dict[str, int]:
    env = dict(os.environ)
    env.pop("NBSTATS_MAX_MEMORY", None)
    if ceiling is not None:
        env["NBSTATS_MAX_MEMORY"] = ceiling
    code = CHILD.replace("N_SAMPLES", str(n_samples))
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("ceiling", "expected"), [(None, 512 * 2**20), ("64M", 64 * 2**20)]
)
def test_pairs_200_by_100_stay_within_the_ceiling(ceiling, expected):
    out = _run(5_000, ceiling)
    assert out["pairs"] == 4950
    assert out["ceiling"] == expected
    assert out["peak"] <= 2**30, f"peak RSS {out['peak'] / 2**20:.0f} MB"
    # the call's own growth, polled every 2 ms while it runs (ru_maxrss would
    # also count a compilation of the kernels during the warm-up, should
    # numba's cache be cold)
    growth = out["call_peak"] - out["baseline"]
    assert growth <= out["ceiling"], (
        f"the call grew the process by {growth / 2**20:.0f} MB, over the "
        f"{out['ceiling'] / 2**20:.0f} MB ceiling"
    )


def test_a_bad_ceiling_in_the_environment_is_a_clear_error():
    env = dict(os.environ, NBSTATS_MAX_MEMORY="lots")
    done = subprocess.run(
        [sys.executable, "-c", "import nbstats.util.memory"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "NBSTATS_MAX_MEMORY" in done.stderr and "'512M'" in done.stderr
