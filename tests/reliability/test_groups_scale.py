"""Non-significant groups and Nemenyi's rank intervals at thousands of algorithms.

The attack (issue 30, finding 8): ``posthoc(method="nemenyi")`` and
``rank_ci(method="id-nemenyi")`` hit a ``RecursionError`` at about 1000
algorithms (the recursive clique search in ``groups.py``), and used 956 MB at
2000 algorithms, 2.8 GB at 4000. Each case runs in a subprocess, killed as
soon as its resident memory passes 1 GB (polled every 10 ms); a finished
child reports its peak (``VmHWM``, the kernel's own account of its memory
map; ``ru_maxrss`` would keep the forking test worker's across ``exec``).
The children run under a memory ceiling of 1 GB: at the default 512 MB the
functions of every pair refuse 4000 algorithms up front.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import psutil
import pytest
from scipy import stats

LIMIT = 1_000_000_000  # bytes

PRELUDE = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np, pandas as pd
    import nbstats
    from nbstats.stats.groups import nonsignificant_groups
    """
)

REPORT = textwrap.dedent(
    """
    # the high-water mark of this process's own memory map: ru_maxrss would
    # keep the forking test worker's across exec
    with open("/proc/self/status") as status:
        peak = next(int(l.split()[1]) * 1024 for l in status if l[:6] == "VmHWM:")
    print(json.dumps({"peak": peak, "result": result}))
    """
)


def _run(body: str, timeout: float = 120.0) -> dict:
    """Run ``body`` in a fresh Python; kill it past LIMIT bytes of RSS."""
    code = PRELUDE + textwrap.dedent(body) + REPORT
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        # 4000 algorithms' 8 million pairs need 600-900 MB of working memory,
        # over the default ceiling of 512 MB (refused there, issue 34)
        env={**os.environ, "NBSTATS_MAX_MEMORY": "1G"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    process = psutil.Process(child.pid)
    start, largest = time.monotonic(), 0
    while child.poll() is None:
        try:
            largest = max(largest, process.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        if largest > LIMIT or time.monotonic() - start > timeout:
            child.kill()
            child.communicate()
            pytest.fail(
                f"killed at {largest / 1e6:.0f} MB RSS after "
                f"{time.monotonic() - start:.1f} s (limit {LIMIT / 1e6:.0f} MB, "
                f"{timeout:.0f} s)"
            )
        time.sleep(0.01)
    out, err = child.communicate()
    assert child.returncode == 0, err[-3000:]
    report = json.loads(out.strip().splitlines()[-1])
    assert report["peak"] <= LIMIT, f"peak {report['peak'] / 1e6:.0f} MB"
    return report


def test_groups_of_4000_algorithms_in_rank_runs():
    # Nemenyi's shape: a pair differs when its mean ranks are more than 300
    # apart, so the groups are the 3700 runs of 301 consecutive algorithms
    report = _run(
        """
        m = 4000
        names = [f"a{i:04d}" for i in range(m)]
        position = np.arange(m)
        reject = np.abs(position[:, None] - position[None, :]) > 300
        frame = pd.DataFrame(reject, index=names, columns=names)
        ranks = pd.Series(position + 1.0, index=names)
        groups = nonsignificant_groups(frame, ranks)
        result = [len(groups), len(groups[0]), groups[-1][-1]]
        """
    )
    assert report["result"] == [3700, 301, "a3999"]


def test_groups_of_4000_algorithms_by_clique_search():
    # one pair differs against the rank order: the search (not the runs)
    # finds both groups of 3999, 3999 levels deep
    report = _run(
        """
        m = 4000
        names = [f"a{i:04d}" for i in range(m)]
        reject = np.zeros((m, m), dtype=bool)
        reject[0, 2] = reject[2, 0] = True
        frame = pd.DataFrame(reject, index=names, columns=names)
        groups = nonsignificant_groups(frame, pd.Series(np.arange(1.0, m + 1), index=names))
        result = [[len(g), "a0000" in g, "a0002" in g] for g in groups]
        """
    )
    assert report["result"] == [[3999, True, False], [3999, False, True]]


def test_rank_ci_nemenyi_at_4000_algorithms():
    # a trend strong enough for Iman-Davenport to reject, so that the
    # Nemenyi p-values of all 8 million pairs are computed
    report = _run(
        """
        rng = np.random.default_rng(0)
        m, n = 4000, 4
        x = rng.normal(size=(n, m)) + np.linspace(0, 6, m)
        res = nbstats.rank_ci(x, method="id-nemenyi")
        result = [
            bool(res.omnibus_rejected),
            int((res.upper - res.lower).min()),
            float(res.mean_ranks.max() - res.mean_ranks.min()),
            float(np.nanmin(res.pvalues.to_numpy())),
        ]
        """
    )
    rejected, narrowest, widest_gap, smallest_p = report["result"]
    assert rejected
    # 4 cases cannot separate any pair (Nemenyi's CD is about 8000 ranks)
    assert narrowest == 3999
    # the extreme pair's p-value, from scipy's studentized range
    se = np.sqrt(4000 * 4001 / (6 * 4))
    expected = stats.studentized_range.sf(widest_gap / se * np.sqrt(2), 4000, np.inf)
    assert smallest_p == pytest.approx(expected, rel=1e-9)


def test_posthoc_nemenyi_at_4000_algorithms():
    report = _run(
        """
        rng = np.random.default_rng(0)
        x = rng.normal(size=(10, 4000))
        res = nbstats.posthoc(x, method="nemenyi")
        result = len(res.groups)
        """,
        timeout=60,
    )
    assert report["result"] == 1


def test_letters_of_4000_algorithms():
    # 3700 groups of 301, none redundant (each holds a pair no other does):
    # the redundancy check compared every pair with every group in Python
    report = _run(
        """
        m = 4000
        names = [f"a{i:04d}" for i in range(m)]
        position = np.arange(m)
        reject = np.abs(position[:, None] - position[None, :]) > 300
        frame = pd.DataFrame(reject, index=names, columns=names)
        shown = nbstats.letters(frame, pd.Series(position + 1.0, index=names))
        result = [shown.iloc[0], shown.index[-1], len(shown.iloc[300]) > 0]
        """
    )
    assert report["result"] == ["a", "a3999", True]
