"""Old over new variance of a difference of mean aligned ranks (issue 38, item 3).

Run: ``python benchmarks/bench_aligned_variance_ratio.py [--reps 4000]``
(about half a minute on one free core).

Two variances of ``R̄_a − R̄_b``, the difference of two algorithms' mean
aligned ranks, under the null that the algorithms are exchangeable within
each case:

- *old* (scmamp's ``friedmanAlignedRanksPost``): ``k (kn + 1) / 6``, the
  variance if the ``kn`` aligned ranks were a random permutation;
- *new* (nbstats, :func:`~nbstats.stats.frequentist.aligned.aligned_standard_error`
  squared): ``2 Σ_i Σ_j (r_ij − r̄_i)² / ((k − 1) n²)``, the exact variance of
  the within-case permutation distribution given the observed ranks.

The docstring once called ``(kn − n)/(kn − 1)`` the expected ratio old/new;
this script measures it. For each design, ``n`` cases and ``k`` algorithms it
draws ``--reps`` null tables and prints the mean of the ratio old/new over
the tables (± its Monte Carlo standard error) and the ratio of old to the mean
of new, beside ``(kn − n)/(kn − 1)``.

Designs (rows = cases, the algorithms exchangeable in every one):

- ``normal``: ``x_ij = c_i + e_ij``, ``e_ij ~ N(0, 1)``;
- ``scales``: ``x_ij = c_i + s_i e_ij``, ``s_i ~ LogNormal(0, 0.5²)`` (the
  model of ``benchmarks/bench_calibration.py`` and the scmamp migration page);
- ``wide scales``: the same with ``s_i ~ LogNormal(0, 1)``;
- ``heavy tails``: ``e_ij`` Student t with 2 degrees of freedom;
- ``ties``: ``e_ij`` uniform on {0, 1, 2} (many tied aligned scores).

(The case locations ``c_i ~ N(0, 10²)`` are removed by the alignment and do
not matter.) The ranks come from
:func:`nbstats.stats.frequentist.aligned.aligned_ranks`; the new variance is
checked against ``aligned_standard_error`` on the first table of every cell.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from nbstats.stats.frequentist.aligned import aligned_ranks, aligned_standard_error

NS = (5, 10, 20, 50)
KS = (3, 5, 8)


def _errors(design: str, rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    if design == "normal":
        return rng.normal(size=(n, k))
    if design == "scales":
        return np.exp(rng.normal(0, 0.5, (n, 1))) * rng.normal(size=(n, k))
    if design == "wide scales":
        return np.exp(rng.normal(0, 1.0, (n, 1))) * rng.normal(size=(n, k))
    if design == "heavy tails":
        return rng.standard_t(2, size=(n, k))
    if design == "ties":
        return rng.integers(0, 3, size=(n, k)).astype(float)
    raise ValueError(f"unknown design {design!r}")


DESIGNS = ("normal", "scales", "wide scales", "heavy tails", "ties")


def ratios(design: str, n: int, k: int, reps: int, seed: int) -> np.ndarray:
    """old/new for ``reps`` null tables."""
    rng = np.random.default_rng([seed, n, k, DESIGNS.index(design)])
    old = k * (k * n + 1) / 6
    out = np.empty(reps)
    for rep in range(reps):
        x = rng.normal(0, 10, (n, 1)) + _errors(design, rng, n, k)
        r = aligned_ranks(x)
        spread = float(np.sum((r - r.mean(axis=1, keepdims=True)) ** 2))
        new = 2 * spread / ((k - 1) * n**2)
        if rep == 0:  # the formula is the function's
            assert np.isclose(np.sqrt(new), aligned_standard_error(r), rtol=1e-12)
        out[rep] = old / new
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--ns", type=int, nargs="*", default=list(NS))
    parser.add_argument("--ks", type=int, nargs="*", default=list(KS))
    parser.add_argument("--designs", nargs="*", default=list(DESIGNS))
    args = parser.parse_args()
    print(
        f"old/new variance of a difference of mean aligned ranks under the null; "
        f"{args.reps} tables per cell; load average {os.getloadavg()[0]:.2f}"
    )
    start = time.perf_counter()
    header = (
        f"{'design':<12} {'n':>3} {'k':>3}  {'(kn-n)/(kn-1)':>13}  "
        f"{'mean old/new':>17}  {'old/mean new':>12}"
    )
    print(header)
    print("-" * len(header))
    for design in args.designs:
        for k in args.ks:
            for n in args.ns:
                r = ratios(design, n, k, args.reps, args.seed)
                old = k * (k * n + 1) / 6
                mean_new = np.mean(old / r)
                se = r.std(ddof=1) / np.sqrt(r.size)
                formula = (k * n - n) / (k * n - 1)
                print(
                    f"{design:<12} {n:>3} {k:>3}  {formula:>13.3f}  "
                    f"{r.mean():>8.3f} ± {se:.4f}  {old / mean_new:>12.3f}"
                )
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
