"""Speed of nbstats' frequentist tests against their peers, on the same data.

Run: ``python benchmarks/bench_frequentist.py`` (peers: scipy, and
scikit-posthocs if installed — ``pip install scikit-posthocs``).

Prints, per task, the median time of each implementation and the ratio
peer / nbstats (> 1 means nbstats is faster). Also checks that both give the
same numbers, so the comparison is like for like.

Figures once stated in the package's comments (moved here in issue 37; recorded,
not re-measured by this script, on a 2-vCPU machine):

- ``nbstats.stats.effect_size`` (rank-biserial of many pairs): a post-hoc table
  of 1225 pairs took 180 ms ranked one pair at a time, a few ms as one matrix;
  ``rank_biserial_one_matrix`` below measures it again.
- ``nbstats.stats.frequentist.wilcoxon``: the exact null distribution costs
  about a millisecond at n = 200 (O(n³)); uncached, 4950 pairs of 100
  algorithms took 23 s.
- ``nbstats.stats.ranking`` (Tukey's p-values): integrating the studentized
  range per pair with scipy took 2.6 s at 50 algorithms;
  ``nbstats.stats.frequentist.critical_difference``: one quantile is tens of
  milliseconds.
- ``nbstats.stats.groups.MAX_GROUPS``: listing every maximal clique of 200
  algorithms once took 22 GB.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import stats

import nbstats


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(task: str, ours: float, peer_name: str, peer: float) -> None:
    print(
        f"{task:<52} nbstats {ours * 1e3:9.2f} ms   {peer_name:<22} "
        f"{peer * 1e3:9.2f} ms   ratio {peer / ours:7.1f}x"
    )


def wilcoxon_exact_with_ties() -> None:
    # Exact p-values with ties: scipy falls back to a permutation test
    # (complete enumeration for n <= 13, 9999 random resamples above), nbstats
    # computes the exact conditional distribution by dynamic programming.
    rng = np.random.default_rng(0)
    for n in (13, 30, 100):
        a = rng.integers(0, 5, n).astype(float)
        b = a + rng.integers(-2, 4, n)
        ours = median_time(lambda a=a, b=b: nbstats.wilcoxon(a, b, method="exact"))
        peer = median_time(
            lambda a=a, b=b: stats.wilcoxon(
                b, a, zero_method="zsplit", method=stats.PermutationMethod()
            ),
            repeat=3,
        )
        report(f"Wilcoxon exact with ties, n = {n}", ours, "scipy permutation", peer)


def friedman_many_cases() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2000, 10))
    ours = median_time(lambda: nbstats.friedman(x, tie_correction=True))
    peer = median_time(lambda: stats.friedmanchisquare(*x.T))
    assert np.isclose(
        nbstats.friedman(x, tie_correction=True).statistic,
        stats.friedmanchisquare(*x.T).statistic,
    )
    report("Friedman, 2000 cases x 10 algorithms", ours, "scipy", peer)


def nemenyi_posthoc() -> None:
    try:
        import scikit_posthocs as sp
    except ImportError:
        print("scikit-posthocs not installed: skipping the Nemenyi comparison")
        return
    rng = np.random.default_rng(2)
    for k in (10, 30):
        x = pd.DataFrame(rng.normal(size=(50, k)) + np.linspace(0, 1, k))
        ours = median_time(lambda x=x: nbstats.posthoc(x, method="nemenyi"))
        peer = median_time(lambda x=x: sp.posthoc_nemenyi_friedman(x))
        # scikit-posthocs ranks ascending (1 = lowest); p-values are direction-free
        ours_p = nbstats.posthoc(x, method="nemenyi").adjusted.to_numpy()
        peer_p = sp.posthoc_nemenyi_friedman(x).to_numpy()
        mask = ~np.eye(k, dtype=bool)
        assert np.allclose(ours_p[mask], peer_p[mask], atol=1e-6)
        report(
            f"Nemenyi post-hoc, 50 cases x {k} algorithms",
            ours,
            "scikit-posthocs",
            peer,
        )


def pairwise_wilcoxon_holm() -> None:
    try:
        import scikit_posthocs as sp
    except ImportError:
        return
    rng = np.random.default_rng(3)
    k, n = 10, 40
    x = pd.DataFrame(rng.normal(size=(n, k)) + np.linspace(0, 1, k))
    x.columns = [f"alg{j}" for j in range(k)]
    long = x.melt(var_name="algorithm", value_name="score")
    long["case"] = np.tile(np.arange(n), k)
    long = long.sort_values(["algorithm", "case"])
    ours = median_time(
        lambda: nbstats.comparison_matrix(x, test="wilcoxon", adjust="holm")
    )
    peer = median_time(
        lambda: sp.posthoc_wilcoxon(
            long, val_col="score", group_col="algorithm", p_adjust="holm"
        )
    )
    report(f"Pairwise Wilcoxon + Holm, {n} cases x {k}", ours, "scikit-posthocs", peer)


def conover_posthocs() -> None:
    """Conover's t-tests after Friedman's test (complete table) and after
    Durbin's (a balanced incomplete design: every 4 of 8 algorithms, 70
    blocks, every pair together in 15)."""
    try:
        import scikit_posthocs as sp
    except ImportError:
        return
    import warnings

    rng = np.random.default_rng(4)
    k = 30
    x = pd.DataFrame(rng.normal(size=(50, k)) + np.linspace(0, 1, k))
    ours = median_time(lambda: nbstats.conover(x, adjust="holm"))
    with warnings.catch_warnings():  # its pandas calls are deprecated
        warnings.simplefilter("ignore")
        peer = median_time(lambda: sp.posthoc_conover_friedman(x, p_adjust="holm"))
    report(f"Conover after Friedman, 50 cases x {k}", ours, "scikit-posthocs", peer)
    from itertools import combinations

    t = 8
    rows = []
    for block in combinations(range(t), 4):
        row = np.full(t, np.nan)
        row[list(block)] = rng.normal(size=4) + np.array(block) / 4
        rows.append(row)
    bibd = pd.DataFrame(rows, columns=[f"alg{j}" for j in range(t)])
    ours = median_time(lambda: nbstats.conover(bibd, ranks="durbin", adjust="holm"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peer = median_time(lambda: sp.posthoc_durbin(bibd.to_numpy(), p_adjust="holm"))
        theirs = sp.posthoc_durbin(bibd.to_numpy(), p_adjust="holm").to_numpy()
    mine = nbstats.conover(bibd, ranks="durbin", adjust="holm")
    mask = ~np.eye(t, dtype=bool)
    assert np.allclose(mine.adjusted.to_numpy(dtype=float)[mask], theirs[mask])
    report(f"Conover after Durbin, {len(bibd)} blocks of 4 of {t}", ours,
           "scikit-posthocs", peer)  # fmt: skip


def rank_biserial_one_matrix() -> None:
    """The rank-biserial r of every pair of a post-hoc table: one ranking of
    the cases × pairs matrix (``rank_biserial_columns``, what the comparison
    matrix and the analysis use) against one ranking per pair."""
    from nbstats.stats.effect_size import paired_effect, rank_biserial_columns

    rng = np.random.default_rng(0)
    m, n = 50, 30
    scores = rng.normal(size=(n, m)) + np.linspace(0, 1, m)
    i, j = np.triu_indices(m, 1)
    d = scores[:, j] - scores[:, i]
    ours = median_time(lambda: rank_biserial_columns(d))
    peer = median_time(
        lambda: [paired_effect("rank-biserial", None, None, c) for c in d.T], repeat=3
    )
    one_by_one = [paired_effect("rank-biserial", None, None, c) for c in d.T]
    assert np.allclose(rank_biserial_columns(d), one_by_one)
    report(f"rank-biserial of {d.shape[1]} pairs, one matrix", ours,
           "one pair at a time", peer)  # fmt: skip


if __name__ == "__main__":
    wilcoxon_exact_with_ties()
    friedman_many_cases()
    nemenyi_posthoc()
    pairwise_wilcoxon_holm()
    conover_posthocs()
    rank_biserial_one_matrix()
