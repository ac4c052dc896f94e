"""Foucart et al. (2025) supplement: FWTI and power tables of the five rank-CI methods.

Run: ``python benchmarks/rank_ci_foucart2025.py [--reps 1000] [--workers 2]``.
The supplement's tables come from its own simulation (repetitions not stated
in our copy); the default here is 200 repetitions per setting, run on a process
pool. The metrics are defined in :func:`nbstats.simulate.rank_interval_metrics`.
"""

from __future__ import annotations

import argparse
import functools
import time
from concurrent.futures import ProcessPoolExecutor

import nbstats
from nbstats import simulate

METHODS = ["bootstrap", "id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s", "anova-tukey"]
PAPER_FWTI = {  # (m, n): per method, from the supplement's FWTI table
    (5, 20): [0.33, 0.04, 0.04, 0.05, 0.00],
    (10, 20): [0.96, 0.02, 0.04, 0.04, 0.00],
    (5, 40): [0.26, 0.04, 0.03, 0.04, 0.00],
    (10, 40): [0.94, 0.03, 0.05, 0.05, 0.00],
}
PAPER_POWER = {  # f: per method (FWP, IP, DP, FWDP), m = 5, n = 20
    0.25: [
        (0.94, 0.21, 0.0, 0.0),
        (0.61, 0.11, 0.0, 0.0),
        (0.66, 0.19, 0.02, 0.0),
        (0.68, 0.25, 0.04, 0.05),
        (0.14, 0.02, 0.0, 0.0),
    ],
    0.5: [
        (1.0, 0.50, 0.02, 0.0),
        (0.61, 0.11, 0.0, 0.0),
        (1.0, 0.60, 0.13, 0.0),
        (1.0, 0.65, 0.18, 0.0),
        (0.88, 0.23, 0.0, 0.0),
    ],
    1.0: [
        (1.0, 0.79, 0.32, 0.06),
        (1.0, 0.58, 0.0, 0.0),
        (1.0, 0.93, 0.73, 0.43),
        (1.0, 0.93, 0.71, 0.28),
        (1.0, 0.61, 0.05, 0.0),
    ],
    2.0: [
        (1.0, 1.0, 0.99, 0.97),
        (1.0, 0.60, 0.0, 0.0),
        (1.0, 1.0, 1.0, 1.0),
        (1.0, 1.0, 1.0, 1.0),
        (1.0, 0.95, 0.82, 0.68),
    ],
}


def generate(n_cases, n_algorithms, separability, random_state=None):
    return simulate.challenge_scores(
        n_cases, n_algorithms, separability, random_state=random_state
    )


def analyse(data):
    scores, _ = data
    return {
        m: nbstats.rank_ci(scores, method=m, n_resamples=1000, random_state=0)
        for m in METHODS
    }


def evaluate(results, data, setting):
    _, truth = data
    row = {}
    for method, res in results.items():
        for key, value in simulate.rank_interval_metrics(
            res.lower, res.upper, truth
        ).items():
            row[f"{method}:{key}"] = value
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    run = functools.partial(
        simulate.study,
        generate,
        analyse,
        evaluate,
        repetitions=args.reps,
        random_state=2025,
    )
    with ProcessPoolExecutor(args.workers) as pool:
        start = time.perf_counter()
        fwti = run(
            settings={
                "n_cases": [20, 40],
                "n_algorithms": [5, 10],
                "separability": 0.0,
            },
            executor=pool,
        )
        print(
            f"FWTI (f = 0), {args.reps} repetitions, "
            f"{time.perf_counter() - start:.0f} s"
        )
        means = fwti.groupby(["n_algorithms", "n_cases"]).mean(numeric_only=True)
        for (m, n), row in means.iterrows():
            paper = PAPER_FWTI[(m, n)]
            cells = "  ".join(
                f"{method} {row[f'{method}:fwti']:.2f} ({p:.2f})"
                for method, p in zip(METHODS, paper, strict=True)
            )
            print(f"  m={m:<3} n={n:<3} {cells}")
        print("  (paper in parentheses)")
        start = time.perf_counter()
        power = run(
            settings={
                "n_cases": 20,
                "n_algorithms": 5,
                "separability": [0.25, 0.5, 1.0, 2.0],
            },
            executor=pool,
        )
        print(
            f"\nPower, m = 5, n = 20, {time.perf_counter() - start:.0f} s: "
            "FWP IP DP FWDP (paper)"
        )
        means = power.groupby("separability").mean(numeric_only=True)
        for f, row in means.iterrows():
            print(f"  f = {f:g}")
            for method, paper in zip(METHODS, PAPER_POWER[f], strict=True):
                ours = [row[f"{method}:{k}"] for k in ("fwp", "ip", "dp", "fwdp")]
                print(
                    f"    {method:<16}"
                    + "  ".join(
                        f"{o:.2f} ({p:.2f})" for o, p in zip(ours, paper, strict=True)
                    )
                )


if __name__ == "__main__":
    main()
