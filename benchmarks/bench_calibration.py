"""Size and power of the post-hoc z-tests on mean ranks, every ranking x every
adjustment (issue 25, item 5).

Run: ``python benchmarks/bench_calibration.py [--reps 2000] [--seed 25]``.

Model (a case effect much larger than the algorithms'):
``x_ij = c_i + s_i (mu_j + e_ij)`` with case locations ``c_i ~ N(0, 10^2)``,
case scales ``s_i ~ LogNormal(0, 0.5^2)``, errors ``e_ij ~ N(0, 1)``. Under H0
``mu_j = 0``; under the alternative ``mu_j = 2 j / (k - 1)`` (evenly spaced,
the extremes two error SDs apart: every pair differs). Settings n in {5, 10,
20, 50} cases x k in {3, 5, 8} algorithms, alpha = 0.05.

Printed per ranking (friedman, aligned, quade) and procedure (every rank
method of ``nbstats.posthoc``): the family-wise error (FWE: P(any rejection)
under H0) and the power (the mean share of the k(k-1)/2 pairs rejected under
the alternative), in percent; with the standard errors of nbstats before
issue 25 ("old": aligned sqrt(k(kn+1)/6) as scmamp, Quade
sqrt(k(k+1)(2n+1)(k-1)/(18n(n+1))) as scmamp and Garcia et al. 2010) and now
("new": the within-case permutation variances), plus P(raw p <= 0.05) per
pair under H0, which should be 5 %.

Vectorised: all replications of a setting are ranked and tested at once; each
procedure's decisions at alpha are computed from its rule for all
replications together. Checked, not trusted: for the first replications of
every setting the z statistics equal ``nbstats.posthoc``'s (new standard
errors) and the decisions equal ``nbstats.adjust_pvalues(...) <= alpha``
(``posthoc``'s studentized-range p-values for Nemenyi).
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import time

import numpy as np
from scipy import stats

import nbstats
from nbstats.stats.frequentist.adjust import rom_critical_values
from nbstats.stats.frequentist.critical_difference import critical_value
from nbstats.stats.frequentist.shaffer import shaffer_multipliers

ALPHA = 0.05
NS = (5, 10, 20, 50)
KS = (3, 5, 8)
RANKINGS = ("friedman", "aligned", "quade")
METHODS = (
    "nemenyi", "bonferroni-dunn", "holm", "hochberg", "hommel", "shaffer",
    "bergmann-hommel", "finner", "li", "rom",
)  # fmt: skip
#: Replications checked against nbstats.posthoc / adjust_pvalues per setting.
CHECKED = 3


def simulate(rng, reps: int, n: int, k: int, effect: bool) -> np.ndarray:
    c = rng.normal(0, 10, (reps, n, 1))
    s = np.exp(rng.normal(0, 0.5, (reps, n, 1)))
    mu = 2 * np.arange(k) / (k - 1) if effect else np.zeros(k)
    return c + s * (mu + rng.normal(size=(reps, n, k)))


def _ranks_within(x: np.ndarray) -> np.ndarray:
    """Ranks 1 = best (highest) along the last axis (continuous: no ties)."""
    return np.argsort(np.argsort(-x, axis=-1), axis=-1) + 1.0


def rank_statistics(x: np.ndarray, ranking: str, variance: str):
    """Per replication: the compared ranks (reps, k) and the standard error
    of a difference (reps,) or scalar."""
    reps, n, k = x.shape
    if ranking == "friedman":
        return _ranks_within(x).mean(axis=1), math.sqrt(k * (k + 1) / (6 * n))
    if ranking == "aligned":
        aligned = x - x.mean(axis=2, keepdims=True)
        r = _ranks_within(aligned.reshape(reps, n * k)).reshape(reps, n, k)
        if variance == "old":
            se = math.sqrt(k * (k * n + 1) / 6)
        else:
            spread = ((r - r.mean(axis=2, keepdims=True)) ** 2).sum(axis=(1, 2))
            se = np.sqrt(2 * spread / (k - 1)) / n
        return r.mean(axis=1), se
    spread = x.max(axis=2) - x.min(axis=2)
    q = np.argsort(np.argsort(spread, axis=1), axis=1) + 1.0  # 1 = smallest range
    r = _ranks_within(x)
    weighted = (q[:, :, None] * r).sum(axis=1) / q.sum(axis=1, keepdims=True)
    if variance == "old":
        se = math.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18 * n * (n + 1)))
    else:
        a = ((q[:, :, None] * (r - (k + 1) / 2)) ** 2).sum(axis=(1, 2))
        se = np.sqrt(2 * a / (k - 1)) / q.sum(axis=1)
    return weighted, se


def exhaustive_sets(k: int) -> np.ndarray:
    """(sets x pairs) indicator of the pairs of every partition's groups."""
    pairs = list(itertools.combinations(range(k), 2))
    rows = set()
    for labels in _growth_strings(k):
        rows.add(tuple(labels[a] == labels[b] for a, b in pairs))
    rows.discard(tuple([False] * len(pairs)))
    return np.array(sorted(rows), dtype=bool)


def _growth_strings(k: int):
    def extend(prefix, top):
        if len(prefix) == k:
            yield prefix
            return
        for label in range(top + 2):
            yield from extend([*prefix, label], max(top, label))

    yield from extend([0], 0)


def _step_down(p: np.ndarray, critical: np.ndarray) -> np.ndarray:
    order = np.argsort(p, axis=1, kind="stable")
    ordered = np.take_along_axis(p, order, axis=1)
    passed = np.cumprod(ordered <= critical, axis=1).astype(bool)
    out = np.empty_like(passed)
    np.put_along_axis(out, order, passed, axis=1)
    return out


def _step_up(p: np.ndarray, critical: np.ndarray) -> np.ndarray:
    order = np.argsort(p, axis=1, kind="stable")
    ordered = np.take_along_axis(p, order, axis=1)
    below = ordered <= critical
    # reject the smallest up to the last one below its critical value
    last = np.where(below.any(axis=1), below.shape[1] - np.argmax(below[:, ::-1], 1), 0)
    passed = np.arange(p.shape[1])[None, :] < last[:, None]
    out = np.empty_like(passed)
    np.put_along_axis(out, order, passed, axis=1)
    return out


def _hommel(p: np.ndarray) -> np.ndarray:
    """Hommel (1988): j = max{j : p_(m-j+l) > l alpha / j for l = 1..j};
    reject p_i <= alpha / j (everything when no such j exists)."""
    m = p.shape[1]
    ordered = np.sort(p, axis=1)
    largest_j = np.zeros(p.shape[0], dtype=int)
    for j in range(1, m + 1):
        tail = ordered[:, m - j :]
        ok = (tail > np.arange(1, j + 1) * ALPHA / j).all(axis=1)
        largest_j = np.where(ok, j, largest_j)
    bound = np.where(largest_j > 0, ALPHA / np.maximum(largest_j, 1), np.inf)
    return p <= bound[:, None]


def _bergmann_hommel(p: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """Closed testing: H_i is rejected when every exhaustive set holding it
    has a p-value <= alpha / |set|."""
    size = sets.sum(axis=1)
    out = np.empty(p.shape, dtype=bool)
    for start in range(0, p.shape[0], 200):
        chunk = p[start : start + 200]
        below = chunk[:, None, :] <= (ALPHA / size)[None, :, None]
        rejected_set = (below & sets[None]).any(axis=2)
        kept = (~rejected_set).astype(np.float32) @ sets.astype(np.float32)
        out[start : start + 200] = kept == 0
    return out


def decisions(method: str, z: np.ndarray, p: np.ndarray, k: int, sets) -> np.ndarray:
    m = p.shape[1]
    i = np.arange(1, m + 1)
    if method == "nemenyi":
        return np.abs(z) >= critical_value(k, ALPHA, "nemenyi")
    if method == "bonferroni-dunn":
        return p <= ALPHA / m
    if method == "holm":
        return _step_down(p, ALPHA / (m - i + 1))
    if method == "hochberg":
        return _step_up(p, ALPHA / (m - i + 1))
    if method == "hommel":
        return _hommel(p)
    if method == "shaffer":
        return _step_down(p, ALPHA / shaffer_multipliers(k))
    if method == "bergmann-hommel":
        return _bergmann_hommel(p, sets)
    if method == "finner":
        return _step_down(p, 1 - (1 - ALPHA) ** (i / m))
    if method == "li":
        largest = p.max(axis=1, keepdims=True)
        return (largest <= ALPHA) | (p <= ALPHA * (1 - largest) / (1 - ALPHA))
    if method == "rom":
        return _step_up(p, rom_critical_values(ALPHA, m)[0][::-1])
    raise ValueError(method)


def check(x, z, p, reject, ranking, k) -> None:
    """The first replications against nbstats itself (new standard errors)."""
    for rep in range(CHECKED):
        res = nbstats.posthoc(x[rep], method="holm", ranks=ranking)
        first, second = np.triu_indices(k, 1)
        theirs = res.statistics.to_numpy()[first, second]
        np.testing.assert_allclose(z[rep], theirs, rtol=1e-9, atol=1e-12)
        for method, decided in reject.items():
            if method == "nemenyi":
                other = nbstats.posthoc(x[rep], method="nemenyi", ranks=ranking)
                adjusted = other.adjusted.to_numpy()[first, second]
            else:
                name = "bonferroni" if method == "bonferroni-dunn" else method
                adjusted = nbstats.adjust_pvalues(p[rep], name, n_algorithms=k)
            clear = np.abs(adjusted - ALPHA) > 1e-9
            assert np.array_equal((adjusted <= ALPHA)[clear], decided[rep][clear]), (
                method,
                ranking,
            )


def run(reps: int, seed: int, variances: tuple[str, ...]):
    results = {}  # (variance, ranking, method, n, k) -> (fwe, power)
    raw_size = {}  # (variance, ranking, n, k) -> P(p <= alpha) under H0
    for n, k in itertools.product(NS, KS):
        sets = exhaustive_sets(k)
        first, second = np.triu_indices(k, 1)
        for effect in (False, True):
            rng = np.random.default_rng([seed, n, k, effect])
            x = simulate(rng, reps, n, k, effect)
            for ranking, variance in itertools.product(RANKINGS, variances):
                ranks, se = rank_statistics(x, ranking, variance)
                se = np.reshape(se, (-1, 1))
                z = (ranks[:, first] - ranks[:, second]) / se
                p = 2 * stats.norm.sf(np.abs(z))
                reject = {m: decisions(m, z, p, k, sets) for m in METHODS}
                if variance == "new" or ranking == "friedman":
                    check(x, z, p, reject, ranking, k)
                if not effect:
                    raw_size[variance, ranking, n, k] = float((p <= ALPHA).mean())
                for method, decided in reject.items():
                    key = (variance, ranking, method, n, k)
                    value = decided.mean() if effect else decided.any(axis=1).mean()
                    old = results.get(key, (np.nan, np.nan))
                    results[key] = (old[0], value) if effect else (value, old[1])
    return results, raw_size


def print_tables(results, raw_size, reps: int, variances) -> None:
    cells = list(itertools.product(NS, KS))
    head = " ".join(f"{n:>3}x{k:<2}" for n, k in cells)
    se = 100 * math.sqrt(ALPHA * (1 - ALPHA) / reps)
    print(f"\nFWE bound alpha + 3 MC s.e. = {100 * ALPHA + 3 * se:.1f} %")
    for variance in variances:
        print(f"\n== {variance} standard errors: P(raw p <= 0.05) under H0, % ==")
        print(f"{'ranking':<27}{head}")
        for ranking in RANKINGS:
            row = " ".join(
                f"{100 * raw_size[variance, ranking, n, k]:6.1f}" for n, k in cells
            )
            print(f"{ranking:<27}{row}")
        for label, index in (("FWE under H0", 0), ("power", 1)):
            print(f"\n== {variance} standard errors: {label}, % (n cases x k) ==")
            print(f"{'ranking / procedure':<27}{head}")
            for ranking, method in itertools.product(RANKINGS, METHODS):
                values = [
                    results[variance, ranking, method, n, k][index] for n, k in cells
                ]
                row = " ".join(f"{100 * v:6.1f}" for v in values)
                print(f"{ranking + ' / ' + method:<27}{row}")
    if len(variances) == 2:
        print("\n== summary: max FWE over the settings / mean power, %, old -> new ==")
        for ranking, method in itertools.product(RANKINGS, METHODS):
            text = []
            for index, reduce in ((0, max), (1, np.mean)):
                old, new = (
                    100
                    * reduce(
                        [results[v, ranking, method, n, k][index] for n, k in cells]
                    )
                    for v in variances
                )
                text.append(f"{old:5.1f} -> {new:5.1f}")
            print(f"{ranking + ' / ' + method:<27}FWE {text[0]}   power {text[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument(
        "--variance", choices=("old", "new", "both"), default="both",
        help="standard errors of the aligned and Quade z-tests",
    )  # fmt: skip
    args = parser.parse_args()
    variances = ("old", "new") if args.variance == "both" else (args.variance,)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"machine: {os.cpu_count()} CPUs, load average {load}")
    print(f"{args.reps} replications per setting, seed {args.seed}, alpha {ALPHA}")
    start = time.perf_counter()
    results, raw_size = run(args.reps, args.seed, variances)
    elapsed = time.perf_counter() - start
    print_tables(results, raw_size, args.reps, variances)
    print(f"\nrun time: {elapsed:.1f} s")


if __name__ == "__main__":
    main()
