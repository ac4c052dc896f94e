"""The post-hoc z-tests on aligned and Quade ranks divide by the standard
deviation of the difference under the null hypothesis (issue 25, item 2).

Under the null the algorithms are exchangeable within each case: each case's
ranks are assigned to the algorithms in a random order, independently of the
other cases. The oracle enumerates every such assignment of a small table
(all (k!)^n of them) and takes the exact variance of the difference of two
algorithms' mean ranks; nbstats' z must be the difference over its square
root. García et al. (2010) and scmamp divide by other numbers: the tests also
show by how much.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

import nbstats


def permutation_variance(ranks: np.ndarray, weights: np.ndarray) -> float:
    """Exact Var(T_0 − T_1), T_j = Σ_i w_i r_ij / Σ_i w_i, over every
    within-case permutation of ``ranks`` (the mean difference is 0)."""
    n = ranks.shape[0]
    # each case contributes independently: Var = Σ_i w_i² Var_i / (Σ w)²
    total = 0.0
    for i in range(n):
        diffs = [p[0] - p[1] for p in itertools.permutations(ranks[i])]
        total += weights[i] ** 2 * np.mean(np.square(diffs))
    return total / weights.sum() ** 2


def brute_force_variance(ranks: np.ndarray, weights: np.ndarray) -> float:
    """The same by enumerating all (k!)^n joint assignments (tiny tables)."""
    per_case = [list(itertools.permutations(row)) for row in ranks]
    values = [
        sum(w * (p[0] - p[1]) for w, p in zip(weights, joint, strict=True))
        for joint in itertools.product(*per_case)
    ]
    return float(np.var(values) / weights.sum() ** 2)


TABLES = {
    "no ties": np.array(
        [[0.91, 0.52, 0.33], [0.2, 0.6, 0.45], [0.77, 0.74, 0.1], [0.5, 0.9, 0.3]]
    ),
    "ties": np.array(
        [[0.9, 0.5, 0.5], [0.2, 0.6, 0.4], [0.8, 0.7, 0.1], [0.4, 0.4, 0.4]]
    ),
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_aligned_z_uses_the_permutation_variance(name):
    x = TABLES[name]
    n, k = x.shape
    aligned = x - x.mean(axis=1, keepdims=True)
    ranks = stats.rankdata(-aligned.round(12)).reshape(n, k)
    variance = brute_force_variance(ranks, np.ones(n))
    mean_ranks = ranks.mean(axis=0)
    res = nbstats.posthoc(x, method="holm", ranks="aligned")
    z = res.statistics.to_numpy()
    for a, b in itertools.combinations(range(k), 2):
        expected = (mean_ranks[a] - mean_ranks[b]) / np.sqrt(variance)
        assert z[a, b] == pytest.approx(expected, rel=1e-12)
    # scmamp's sqrt(k(kn+1)/6) is the variance of a random permutation of
    # all kn ranks: smaller than the exact one here
    if name == "no ties":
        assert k * (k * n + 1) / 6 < variance


@pytest.mark.parametrize("name", sorted(TABLES))
def test_quade_z_uses_the_permutation_variance(name):
    x = TABLES[name]
    k = x.shape[1]
    q = stats.rankdata(x.max(axis=1) - x.min(axis=1))
    ranks = stats.rankdata(-x, axis=1)
    variance = brute_force_variance(ranks, q)
    assert permutation_variance(ranks, q) == pytest.approx(variance, rel=1e-12)
    weighted = (q[:, None] * ranks).sum(axis=0) / q.sum()
    res = nbstats.posthoc(x, method="holm", ranks="quade")
    z = res.statistics.to_numpy()
    for a, b in itertools.combinations(range(k), 2):
        expected = (weighted[a] - weighted[b]) / np.sqrt(variance)
        assert z[a, b] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("n", "k"), [(5, 3), (8, 4), (6, 5), (30, 7)])
def test_quade_closed_form_without_ties(n, k):
    # Var(T_a − T_b) = k(k+1)(2n+1) / (9n(n+1)); García et al.'s and
    # scmamp's is (k − 1)/2 times it
    rng = np.random.default_rng(n * k)
    x = rng.normal(size=(n, k)) * rng.uniform(0.1, 10, size=(n, 1))
    q = stats.rankdata(x.max(axis=1) - x.min(axis=1))
    ranks = stats.rankdata(-x, axis=1)
    exact = permutation_variance(ranks, q)
    closed = k * (k + 1) * (2 * n + 1) / (9 * n * (n + 1))
    assert exact == pytest.approx(closed, rel=1e-12)
    weighted = (q[:, None] * ranks).sum(axis=0) / q.sum()
    z = nbstats.posthoc(x, method="holm", ranks="quade").statistics.to_numpy()
    assert z[0, 1] == pytest.approx((weighted[0] - weighted[1]) / np.sqrt(closed))
