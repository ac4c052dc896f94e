"""How long does the Bayesian Plackett–Luce ranking take, beside ``nbstats demo``?

Run: ``python benchmarks/bench_plackett_luce.py``.

1. ``nbstats.bayes_plackett_luce`` with the default 8,000 draws and
   ``nan_policy="partial"``: wall time (median of 3), the smallest ESS and the
   largest R̂ — on the real 50 × 121 table of Fernández-Delgado et al. (2014)
   with its 181 missing cells (``fernandez_delgado2014_top50``), on the full
   179 × 121 table, and on synthetic 50 and 100 × 121 tables with 10 %
   missing cells and ties (accuracies rounded to 0.1 points).
2. ``nbstats demo`` in a fresh process, in the same run (median of 3): the
   issue's target is that (1) takes less time than (2).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import nbstats

RUNS = 3


def suite(m: int, n: int = 121, missing: float = 0.10, seed: int = 0) -> pd.DataFrame:
    """Accuracies (percent, 1 decimal) of m classifiers on n data sets."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(60, 95, size=(n, 1))
    values = base + np.linspace(0, 4, m) + rng.normal(0, 2, size=(n, m))
    values = np.round(np.clip(values, 0, 100), 1)
    values[rng.random((n, m)) < missing] = np.nan
    names = [f"classifier_{j:03d}" for j in range(m)]
    return pd.DataFrame(values, columns=names)


def time_plackett_luce(table: pd.DataFrame) -> tuple[float, object]:
    times = []
    for run in range(RUNS):
        start = time.perf_counter()
        result = nbstats.bayes_plackett_luce(
            table, nan_policy="partial", random_state=run
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def time_demo() -> float:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(RUNS):
            out = Path(tmp) / f"demo{run}.html"
            command = [
                sys.executable,
                "-m",
                "nbstats.cli",
                "demo",
                "-o",
                str(out),
            ]
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    tables = {
        "fernandez_delgado2014_top50": nbstats.datasets.load(
            "fernandez_delgado2014_top50"
        ),
        "fernandez_delgado2014": nbstats.datasets.load("fernandez_delgado2014"),
        "synthetic 50": suite(50),
        "synthetic 100": suite(100),
    }
    for label, table in tables.items():
        m = table.shape[1]
        seconds, result = time_plackett_luce(table)
        print(
            f"bayes_plackett_luce, {label}: {m} × {len(table)} "
            f"({int(table.isna().to_numpy().sum())} missing cells, "
            f"{result.n_samples} draws): median {seconds:.2f} s; "
            f"smallest ESS {result.min_ess:.0f}, largest R̂ {result.max_rhat:.4f}, "
            f"MC error of P(best) ≤ {result.mc_error:.4f}"
        )
        if label == "fernandez_delgado2014_top50":
            pl_50 = seconds
    demo = time_demo()
    print(f"nbstats demo (fresh process): median {demo:.2f} s")
    print(f"ratio demo / Plackett–Luce at 50 × 121: {demo / pl_50:.1f}× (target: > 1)")


if __name__ == "__main__":
    main()
