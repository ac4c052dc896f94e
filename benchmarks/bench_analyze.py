"""The automatic analysis: ``nbstats.analyze`` against autorank, same data.

Run: ``python benchmarks/bench_analyze.py``. For 2, 8, 50 and 100 algorithms
on 30 cases (normal scores, so both take the parametric path: rm-ANOVA and
Tukey's HSD, or the paired t-test), prints the median time of
``nbstats.analyze(scores, bayes=False)`` and of ``autorank.autorank(scores)``
(the frequentist analysis both make) and their ratio, and whether both chose
the same omnibus test. Needs autorank (``pip install autorank``).

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.stats.analyze._effect_sizes``: one ``nbstats.effect_size`` call per
  pair took 10 ms a pair, 12 s at 50 algorithms.
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import time
import warnings

import numpy as np
import pandas as pd

import nbstats


def timed(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    from autorank import autorank

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load}")
    print(f"{'algorithms':>10} {'nbstats s':>10} {'autorank s':>11} {'ratio':>7}  same")
    for m in (2, 8, 50, 100):
        rng = np.random.default_rng(m)
        names = [
            f"HistGradientBoostingClassifier(max_iter={300 + j})" for j in range(m)
        ]
        scores = pd.DataFrame(
            rng.normal(size=(30, m)) * 0.02 + np.linspace(0.7, 0.75, m), columns=names
        )
        repeat = 3 if m <= 50 else 1
        nbstats.analyze(scores, bayes=False)  # imports and first-call caches
        ours = timed(lambda s=scores: nbstats.analyze(s, bayes=False), repeat)
        # autorank prints tables even with verbose=False
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            theirs = timed(lambda s=scores: autorank(s, verbose=False), repeat)
            choice = autorank(scores, verbose=False).omnibus
        mine = nbstats.analyze(scores, bayes=False)
        same = {
            "anova": mine.parametric and m > 2,
            "friedman": not mine.parametric and m > 2,
            "ttest": mine.parametric and m == 2,
            "wilcoxon": not mine.parametric and m == 2,
        }.get(choice, False)
        print(
            f"{m:>10} {ours:>10.3f} {theirs:>11.3f} {theirs / ours:>6.1f}x  {same}",
            flush=True,
        )


if __name__ == "__main__":
    main()
