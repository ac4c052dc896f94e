"""Size of the Bayesian Friedman test: how often it rejects a true null.

Run: ``python benchmarks/bench_bayes_friedman_size.py [--n-sets 1000]``
(about four minutes for 1000 sets on one free core, nine at a load average
of 8; ``--n-sets 200`` for a quick look; ``--s``, ``--ns`` and ``--ms`` pick
other cells).

For every cell ``n`` (cases) × ``m`` (algorithms) it draws ``--n-sets`` score
tables of i.i.d. standard normal scores (all algorithms exchangeable: the null
of the Friedman test holds) and counts how often
:func:`nbstats.bayes_friedman` declares a difference at ``gamma`` (default
0.05), for both methods on the same tables. It prints the rejection rate with
its Monte Carlo standard error ``sqrt(p (1 - p) / n_sets)``, or ``refuses``
where the function raises a ``ValueError`` for that ``n`` and ``m`` (and
``+fallback`` where it warns and falls back to another method). The
requirement (issue 14) is a rate of at most ``2 gamma`` in every cell the
function accepts.

The Monte Carlo method uses ``--n-samples`` posterior draws per table (2000
by default, fewer than the function's 50,000 to keep the run affordable; the
rate hardly depends on it, see ``--n-samples``). The script only calls the
public function, so the same command run on two versions of nbstats
(``PYTHONPATH=...``) gives comparable tables.
"""

from __future__ import annotations

import argparse
import math
import os
import time
import warnings

import numpy as np

import nbstats

NS = (2, 3, 5, 10, 25, 50)
MS = (3, 5, 10)
METHODS = ("ellipsoid", "montecarlo")


def rejection_rate(
    n: int,
    m: int,
    method: str,
    *,
    n_sets: int,
    n_samples: int,
    gamma: float,
    s: float,
    seed: int,
) -> tuple[float | None, bool]:
    """``(rate, fell_back)``; ``rate`` None when the function refuses."""
    rng = np.random.default_rng([seed, n, m])
    rejections = 0
    fell_back = False
    for i in range(n_sets):
        table = rng.normal(size=(n, m))
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                res = nbstats.bayes_friedman(
                    table,
                    s=s,
                    gamma=gamma,
                    method=method,
                    n_samples=n_samples,
                    random_state=i,
                )
        except ValueError:
            return None, False
        fell_back = fell_back or any(
            "falls back" in str(w.message) or "fall back" in str(w.message)
            for w in caught
        )
        rejections += bool(res.reject)
    return rejections / n_sets, fell_back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-sets", type=int, default=1000)
    parser.add_argument("--n-samples", type=int, default=2000)
    parser.add_argument("--gamma", type=float, default=0.05)
    parser.add_argument("--s", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--ns", type=int, nargs="*", default=list(NS))
    parser.add_argument("--ms", type=int, nargs="*", default=list(MS))
    args = parser.parse_args()

    print(
        f"Bayesian Friedman test under the null (i.i.d. normal scores): rejection "
        f"rate at gamma = {args.gamma}, s = {args.s}; {args.n_sets} null tables "
        f"per cell, {args.n_samples} Monte Carlo draws per table; bound 2 gamma "
        f"= {2 * args.gamma:g}"
    )
    print(f"nbstats from {os.path.dirname(nbstats.__file__)}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    header = f"{'n':>4} {'m':>4}  " + "  ".join(f"{k:>22}" for k in METHODS)
    print(header)
    print("-" * len(header))
    worst = 0.0
    for m in args.ms:
        for n in args.ns:
            cells = []
            for method in METHODS:
                rate, fell_back = rejection_rate(
                    n,
                    m,
                    method,
                    n_sets=args.n_sets,
                    n_samples=args.n_samples,
                    gamma=args.gamma,
                    s=args.s,
                    seed=args.seed,
                )
                if rate is None:
                    cells.append("refuses")
                    continue
                worst = max(worst, rate)
                se = math.sqrt(rate * (1 - rate) / args.n_sets)
                flag = "" if rate <= 2 * args.gamma else " !"
                tail = " +fallback" if fell_back else ""
                cells.append(f"{rate:6.3f} ± {se:.3f}{flag}{tail}")
            print(f"{n:>4} {m:>4}  " + "  ".join(f"{c:>22}" for c in cells))
    print(
        f"largest rate {worst:.3f} (bound {2 * args.gamma:g}); "
        f"{time.perf_counter() - start:.0f} s, load average at end: "
        f"{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
