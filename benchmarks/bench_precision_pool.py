"""The pairs table under a precision target (mc_error) at 50 algorithms, IDP
with a rope: wall time, each pair's draws, and the memory of the pooled
per-placement counts (pairs x placement states x 3 regions).

    python benchmarks/bench_precision_pool.py [--algorithms 50] [--cases 30]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import nbstats


def table(algorithms: int, cases: int, seed: int = 0) -> pd.DataFrame:
    """Accuracies with close algorithms (many pairs near a decision)."""
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.0, 0.02, algorithms)
    base = rng.uniform(0.6, 0.9, size=(cases, 1))
    noise = rng.normal(0.0, 0.01, size=(cases, algorithms))
    return pd.DataFrame(
        base + skill + noise, columns=[f"alg{j:02d}" for j in range(algorithms)]
    )


def pooled_bytes(algorithms: int, cases: int, itemsize: int) -> int:
    """The pooled placement counts: pairs x (4 n + 5) states x 3 regions."""
    pairs = algorithms * (algorithms - 1) // 2
    return pairs * (4 * cases + 5) * 3 * itemsize


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--algorithms", type=int, default=50)
    parser.add_argument("--cases", type=int, default=30)
    parser.add_argument("--rope", type=float, default=0.005)
    parser.add_argument("--mc-error", type=float, default=0.002)
    args = parser.parse_args()
    scores = table(args.algorithms, args.cases)
    kw = {"rope": args.rope, "interval": False, "random_state": 0}
    nbstats.bayes_signrank_pairs(scores.iloc[:, :3], mc_error=0.01, **kw)  # compile
    start = time.perf_counter()
    res = nbstats.bayes_signrank_pairs(scores, mc_error=args.mc_error, **kw)
    elapsed = time.perf_counter() - start
    draws = res.pairs["draws"]
    print(
        f"{args.algorithms} algorithms ({len(res.pairs)} pairs), {args.cases} cases, "
        f"rope {args.rope}, mc_error {args.mc_error}: {elapsed:.1f} s; "
        f"draws mean {draws.mean():,.0f}, max {draws.max():,}, "
        f"pairs past the first batch {(draws > draws.min()).sum()}; "
        f"MC error {res.mc_error:.4f}"
    )
    for m in (50, 100):
        for n in (30, 100, 1000):
            print(
                f"  pooled placement counts, {m} algorithms, {n} cases: "
                f"{pooled_bytes(m, n, 4) / 2**20:,.1f} MiB (int32)"
            )


if __name__ == "__main__":
    main()
