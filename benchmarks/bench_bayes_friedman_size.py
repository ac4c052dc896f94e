"""Size of the Bayesian Friedman test: how often it declares a difference
when there is none (issue 14; issue 38, item 4).

Run: ``python benchmarks/bench_bayes_friedman_size.py`` (about three
minutes on one free core; ``--sets 2000 --perm-sets 0`` for a quick look;
``--s``, ``--ns``, ``--ms``, ``--scores`` pick other cells).

For every cell ``n`` (cases) × ``m`` (algorithms) with ``n >= m`` (below, the
function refuses) it draws ``--sets`` null tables, every algorithm's scores
i.i.d. (``--scores normal``: standard normal, no ties; ``ties``: uniform on
{0, 1, 2}), and prints the share of tables on which the test declares a
difference at γ = 0.05 and γ = 0.10, with its Monte Carlo standard error
``sqrt(p (1 - p) / sets)``:

- ``benavoli``: the default ellipsoid of :func:`nbstats.bayes_friedman`
  (Benavoli et al. 2015, eq. 19: radius ρ_F, Hotelling's critical value);
- ``permutation``: the same distance with ``calibration="permutation"``
  (``--perm-sets`` tables per cell, ``--permutations`` permutations each;
  ``0`` sets skips it);
- ``montecarlo``: ``method="montecarlo"`` (``--mc-sets`` tables per cell,
  2000 draws each; ``0`` skips it, the default: it takes long).

Fast and checked: the ellipsoid's distances of all tables of a cell come from
:func:`nbstats.stats.bayes.friedman_permutation.batch_distances` at once,
compared with ρ_F; on the first ``--check`` tables of every cell the
statistic and both decisions are compared with ``nbstats.bayes_friedman``'s
(the script stops if one differs). The permutation and Monte Carlo columns
call ``nbstats.bayes_friedman`` itself.
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np
from scipy import stats

import nbstats
from nbstats.stats.bayes.friedman_calibration import bootstrap_factor, hotelling_rho
from nbstats.stats.bayes.friedman_permutation import batch_distances

NS = (3, 4, 5, 6, 8, 10, 15, 20, 30, 50)
MS = (3, 4, 5, 6, 8, 10)
GAMMAS = (0.05, 0.10)


def null_tables(rng: np.random.Generator, sets: int, n: int, m: int, scores: str):
    """``sets`` score tables ``n × m`` under the null, and their ranks (1 = best)."""
    if scores == "normal":
        x = rng.normal(size=(sets, n, m))
    elif scores == "ties":
        x = rng.integers(0, 3, size=(sets, n, m)).astype(float)
    else:
        raise ValueError(f"unknown scores {scores!r}")
    return x, stats.rankdata(-x, axis=2)


def benavoli_rates(x, ranks, n, m, s, check) -> list[float]:
    """Rejection rates of the default ellipsoid at each γ (checked)."""
    distances = batch_distances(ranks, s)
    rates = []
    for gamma in GAMMAS:
        rho = hotelling_rho(1 - gamma, n, m) * bootstrap_factor(n, s)
        reject = distances > rho
        for i in range(min(check, len(x))):
            res = nbstats.bayes_friedman(x[i], s=s, threshold=1 - gamma)
            same = math.isclose(res.statistic, distances[i], rel_tol=1e-9) or (
                math.isinf(res.statistic) and math.isinf(distances[i])
            )
            if not same or bool(res.reject) != bool(reject[i]):
                raise AssertionError(f"batch and bayes_friedman differ: n={n}, m={m}")
        rates.append(float(np.mean(reject)))
    return rates


def called_rates(x, s, **options) -> list[float]:
    """Rejection rates at each γ by calling ``nbstats.bayes_friedman``: the
    credibility at γ = 0.05 decides at every γ (``reject`` is
    ``credibility > 1 - γ``, or ``p <= γ`` for the permutation test)."""
    counts = np.zeros(len(GAMMAS))
    for i, table in enumerate(x):
        res = nbstats.bayes_friedman(table, s=s, random_state=i, **options)
        for g, gamma in enumerate(GAMMAS):
            if options.get("calibration") == "permutation":
                counts[g] += 1 - res.credibility <= gamma + 1e-12
            else:
                counts[g] += res.credibility > 1 - gamma
    return (counts / len(x)).tolist()


def cell(rate: float | None, sets: int) -> str:
    if rate is None:
        return f"{'':>14}"
    se = math.sqrt(rate * (1 - rate) / sets)
    return f"{rate:6.3f} ± {se:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=20_000)
    parser.add_argument("--perm-sets", type=int, default=1000)
    parser.add_argument("--permutations", type=int, default=199)
    parser.add_argument("--mc-sets", type=int, default=0)
    parser.add_argument("--check", type=int, default=20)
    parser.add_argument("--s", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--scores", default="normal", choices=("normal", "ties"))
    parser.add_argument("--ns", type=int, nargs="*", default=list(NS))
    parser.add_argument("--ms", type=int, nargs="*", default=list(MS))
    args = parser.parse_args()

    print(
        f"Bayesian Friedman test under the null ({args.scores} scores), s = "
        f"{args.s}: share of tables declared different at gamma = 0.05 | 0.10 "
        f"(± Monte Carlo standard error); {args.sets} tables per cell "
        f"(permutation: {args.perm_sets} tables, {args.permutations} "
        f"permutations; montecarlo: {args.mc_sets} tables)"
    )
    print(f"nbstats from {os.path.dirname(nbstats.__file__)}")
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    start = time.perf_counter()
    columns = ["benavoli"]
    if args.perm_sets:
        columns.append("permutation")
    if args.mc_sets:
        columns.append("montecarlo")
    header = f"{'n':>3} {'m':>3}  " + "  ".join(
        f"{f'{c} 0.05':>14}  {f'{c} 0.10':>14}" for c in columns
    )
    print(header)
    print("-" * len(header))
    for m in args.ms:
        for n in args.ns:
            if n < m or (args.s == 0 and n < 2 * m):
                continue  # the function refuses these
            rng = np.random.default_rng([args.seed, n, m])
            x, ranks = null_tables(rng, args.sets, n, m, args.scores)
            parts = [
                "  ".join(
                    cell(r, args.sets)
                    for r in benavoli_rates(x, ranks, n, m, args.s, args.check)
                )
            ]
            if args.perm_sets:
                rates = called_rates(
                    x[: args.perm_sets],
                    args.s,
                    calibration="permutation",
                    n_permutations=args.permutations,
                )
                parts.append("  ".join(cell(r, args.perm_sets) for r in rates))
            if args.mc_sets:
                rates = called_rates(
                    x[: args.mc_sets], args.s, method="montecarlo", n_samples=2000
                )
                parts.append("  ".join(cell(r, args.mc_sets) for r in rates))
            print(f"{n:>3} {m:>3}  " + "  ".join(parts), flush=True)
    print(
        f"{time.perf_counter() - start:.0f} s, load average at end: "
        f"{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
