"""Time of ``import nbstats`` after ``import pandas``, in fresh interpreters.

Run: ``python benchmarks/bench_import.py`` (``--runs 7`` by default). Each run
is a new interpreter that imports pandas, then nbstats, and reports both
times and the modules nbstats added. Printed: the median of the runs for
pandas and for nbstats, their ratio (on a loaded machine the ratio is the
steadier figure: both imports slow down alike), and the third-party packages
nbstats loaded with their module counts. ``--importtime`` adds one run under
``python -X importtime``: the cumulative microseconds of each package's
outermost imports inside ``import nbstats``, beside pandas' own. Also
printed: the nbstats modules ``import nbstats`` loaded, and how many
modules (nbstats' own, Bayesian among them) a first ``nbstats.friedman``
call loads after it.

The target (issue 37 item 5) is ``import nbstats`` in at most 0.15 s after
pandas on an unloaded machine, loading the accessor and nothing else of
nbstats: no statistics module, no scipy, numba or display library
(``tests/test_import_time.py`` keeps that).
To measure another checkout, run from outside it with
``PYTHONPATH=<checkout>``; the first line names the nbstats measured.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import Counter

#: Packages whose presence after ``import nbstats`` is a regression.
HEAVY = (
    "scipy",
    "numba",
    "llvmlite",
    "matplotlib",
    "ipywidgets",
    "nbconvert",
    "seaborn",
)

_RUN = """
import json, sys, time
start = time.perf_counter()
import pandas
middle = time.perf_counter()
before = set(sys.modules)
import nbstats
end = time.perf_counter()
added = sorted(set(sys.modules) - before)
print(json.dumps({"pandas": middle - start, "nbstats": end - middle,
                  "added": added, "file": nbstats.__file__}))
"""

_FIRST_CALL = """
import json, sys
import numpy as np, pandas as pd
import nbstats
table = pd.DataFrame(np.random.default_rng(0).random((10, 4)), columns=list("ABCD"))
before = set(sys.modules)
nbstats.friedman(table)
added = sorted(set(sys.modules) - before)
ours = sorted(m for m in sys.modules if m.startswith("nbstats"))
print(json.dumps({"added": added, "nbstats": ours}))
"""


def first_call() -> dict:
    """One new interpreter: the modules a first ``nbstats.friedman`` call
    loads, and the nbstats modules loaded after it."""
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def fresh_run() -> dict:
    """One new interpreter: import times and the modules nbstats added."""
    done = subprocess.run(
        [sys.executable, "-c", _RUN], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def packages(modules: list[str]) -> Counter:
    """Module count per top-level third-party package (stdlib left out)."""
    tops = (name.split(".")[0] for name in modules)
    return Counter(
        top
        for top in tops
        if top not in sys.stdlib_module_names and not top.startswith("_")
    )


def importtime() -> tuple[int, Counter]:
    """pandas' cumulative µs, and per package the cumulative µs of its
    outermost imports inside ``import nbstats`` (one ``-X importtime`` run)."""
    code = "import pandas; import nbstats"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line.split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append((depth, name.strip(), int(cumulative)))
    pandas_us = next(us for depth, name, us in rows if depth == 0 and name == "pandas")
    # importtime prints children before their parent: reversed, each row
    # follows its ancestors; count a heavy import only if none is heavy
    totals: Counter = Counter()
    ancestors: list[str] = []
    for depth, name, us in reversed(rows):
        del ancestors[depth:]
        top = name.split(".")[0]
        inside = ancestors[:1] == ["nbstats"]
        if top in HEAVY and inside and not set(ancestors) & set(HEAVY):
            totals[top] += us
        ancestors.append(top)
    return pandas_us, totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    runs = [fresh_run() for _ in range(args.runs)]
    print(f"nbstats from {runs[0]['file']}")
    print(f"machine: {os.cpu_count()} CPUs, load average {load}")
    pandas_s = statistics.median(r["pandas"] for r in runs)
    nbstats_s = statistics.median(r["nbstats"] for r in runs)
    print(f"import pandas:           {pandas_s:.3f} s (median of {args.runs})")
    print(f"import nbstats after it: {nbstats_s:.3f} s (median of {args.runs})")
    print(f"ratio nbstats / pandas:  {nbstats_s / pandas_s:.2f}")
    added = runs[0]["added"]
    counts = packages(added)
    heavy = {top: n for top, n in counts.items() if top in HEAVY}
    print(
        f"modules nbstats added: {len(added)}, of them nbstats' own {counts['nbstats']}"
    )
    ours = sorted(m for m in added if m.split(".")[0] == "nbstats")
    print("nbstats modules:", ", ".join(ours) if len(ours) <= 8 else f"{len(ours)}")
    print("heavy packages loaded:", heavy or "none")
    others = {top: n for top, n in counts.most_common() if top not in HEAVY}
    others.pop("nbstats", None)
    print("other third-party packages loaded:", others or "none")
    call = first_call()
    bayes = [m for m in call["nbstats"] if "bayes" in m]
    print(
        f"first nbstats.friedman call: {len(call['added'])} modules loaded; "
        f"nbstats modules after it {len(call['nbstats'])}, Bayesian {len(bayes)}"
    )
    if args.importtime:
        pandas_us, totals = importtime()
        print(f"-X importtime: pandas {pandas_us} us cumulative")
        for top, us in totals.most_common():
            share = us / pandas_us
            print(f"  {top}: {us} us inside import nbstats ({share:.2f} x pandas)")


if __name__ == "__main__":
    main()
