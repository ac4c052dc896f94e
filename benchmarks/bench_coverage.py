"""The trade-off search of ``nbstats.coverage``: time and exactness.

Run: ``python benchmarks/bench_coverage.py``. On the bundled TabZilla table
(171 data sets x 42 algorithms, 36 with holes: the integer programme), on its
first 20 algorithms (subset sums), on random tables with 60 and 100
algorithms (a hole in 3% of the cells, plus a few algorithms with many) and
with 100 and 800 algorithms whose holes fall anywhere (5%), prints
the median time of each method, how many frontier rows the exact method
proved, and how many complete cases greedy loses against it at the same
number of algorithms.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import numpy as np
import pandas as pd

import nbstats

DATA = Path(__file__).parents[1] / "tests" / "data" / "tabzilla"


def timed(function, repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def random_table(m: int, n: int = 150, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.uniform(size=(n, m))
    holes = rng.random((n, m)) < 0.03
    holes[:, : m // 10] |= rng.random((n, m // 10)) < 0.4  # a few slow methods
    values[holes] = np.nan
    return pd.DataFrame(values, columns=[f"alg{j}" for j in range(m)])


def uniform_table(m: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.uniform(size=(n, m))
    values[rng.random((n, m)) < 0.05] = np.nan
    return pd.DataFrame(values, columns=[f"alg{j}" for j in range(m)])


def loss(exact: pd.DataFrame, greedy: pd.DataFrame) -> int:
    """Most cases greedy misses at any number of algorithms kept."""
    worst = 0
    for row in greedy.itertuples():
        best = exact.loc[exact["n_left_out"] <= row.n_left_out, "n_cases"].max()
        worst = max(worst, int(best - row.n_cases))
    return worst


def main() -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load}")
    tabzilla = pd.read_csv(DATA / "tabzilla_accuracy_wide.csv", index_col=0)
    tables = {
        "TabZilla 171x42": tabzilla,
        "TabZilla 171x20": tabzilla.iloc[:, :20],
        "random 150x60": random_table(60),
        "random 150x100": random_table(100),
        # holes everywhere (5 % of cells, none favoured): the hardest case,
        # where the time budget, not the node limit, bounds the search
        "uniform 200x100": uniform_table(100, 200),
        "uniform 30x800": uniform_table(800, 30),
    }
    print(f"{'table':>16} {'auto s':>7} {'greedy s':>9} {'rows':>5} {'proven':>7} "
          f"{'greedy loses':>13}  search")  # fmt: skip
    for name, table in tables.items():
        t_auto, auto = timed(lambda t=table: nbstats.coverage(t))
        t_greedy, greedy = timed(lambda t=table: nbstats.coverage(t, method="greedy"))
        rows = len(auto.tradeoff)
        proven = int(auto.tradeoff["exact"].sum())
        lost = loss(auto.tradeoff, greedy.tradeoff)
        print(f"{name:>16} {t_auto:7.2f} {t_greedy:9.2f} {rows:5d} {proven:7d} "
              f"{lost:13d}  {auto.search}")  # fmt: skip


if __name__ == "__main__":
    main()
