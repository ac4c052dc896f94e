"""Hodges–Lehmann estimate and 95% interval: time and peak memory, the old
quadratic way against the selection nbstats uses now.

Run: ``python benchmarks/bench_hodges_lehmann.py [--max-naive-gb 2]``

"old": every one of the N = n(n + 1)/2 Walsh averages formed (with the
``triu_indices`` that index them), sorted, and the median and the order
statistics read off — what ``effect_size(effect="hodges-lehmann")`` did before.
It is run only where its estimated peak (N × 24 bytes) fits
``--max-naive-gb``; above, the line says what it would need.
"new": ``nbstats.stats.effect_size.hodges_lehmann`` (the same estimate and
interval; checked equal where both run).

Peak memory is ``tracemalloc``'s (it sees numpy's allocations), measured in a
second run so that tracing does not slow the timed one.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from nbstats.stats.effect_size import hodges_lehmann


def naive(d: np.ndarray, k: int) -> tuple[float, float, float]:
    """The old computation, inline: every Walsh average in memory."""
    half = d / 2
    i, j = np.triu_indices(d.size)
    walsh = np.sort(half[i] + half[j])
    return float(np.median(walsh)), float(walsh[k - 1]), float(walsh[walsh.size - k])


T = TypeVar("T")


def measure(call: Callable[[], T]) -> tuple[T, float, float]:
    start = time.perf_counter()
    result = call()
    elapsed = time.perf_counter() - start
    tracemalloc.start()
    call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, elapsed, peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-naive-gb", type=float, default=2.0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    hodges_lehmann(rng.normal(size=60))  # warm-up: scipy.stats is imported lazily
    print(f"{'n':>9} {'method':<5} {'time':>10} {'peak memory':>14}  result")
    for n in (1_000, 10_000, 100_000, 1_000_000):
        d = rng.normal(0.1, 1, n)
        new, t_new, m_new = measure(lambda d=d: hodges_lehmann(d, 0.95))
        k = new.order[0]
        need_gb = n * (n + 1) / 2 * 24 / 2**30
        if need_gb <= args.max_naive_gb:
            old, t_old, m_old = measure(lambda d=d, k=k: naive(d, k))
            same = old == (new.estimate, *new.interval)
            print(
                f"{n:>9} {'old':<5} {t_old:>9.3f}s {m_old:>11.1f} MB  "
                f"estimate, interval {old}"
            )
            print(
                f"{n:>9} {'new':<5} {t_new:>9.3f}s {m_new:>11.1f} MB  "
                f"{'equal' if same else 'DIFFERENT'}; old/new time "
                f"{t_old / t_new:.1f}x, memory {m_old / m_new:.0f}x"
            )
        else:
            print(
                f"{n:>9} {'old':<5} {'not run':>10} {need_gb:>11.1f} GB  "
                f"(N = {n * (n + 1) // 2:.3g} averages; > --max-naive-gb)"
            )
            print(
                f"{n:>9} {'new':<5} {t_new:>9.3f}s {m_new:>11.1f} MB  "
                f"estimate {new.estimate:.6g}, interval "
                f"({new.interval[0]:.6g}, {new.interval[1]:.6g})"
            )


if __name__ == "__main__":
    main()
