"""What the docstring of ``aligned_standard_error`` states (issues 37, 38).

``Σ_{a<b} z_ab² = k T / 2``: with ``z_ab = (R̄_a − R̄_b) / SE`` and the
identity ``Σ_{a<b} (R̄_a − R̄_b)² = k Σ_a (R̄_a − R̄)²``, the squared z-tests
of all pairs add up to k/2 times the omnibus statistic, for the aligned ranks
(T of ``friedman_aligned``, SE of ``aligned_standard_error``) and for
Friedman's ranks (χ²_F, SE ``sqrt(k (k + 1) / (6 n))``) alike. The oracle is
the pairwise sum computed here from the z-statistics of ``posthoc`` and the
statistics of the omnibus tests, each from its own code path.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.stats.frequentist.aligned import aligned_standard_error


def _pairwise_sum_of_squares(z: np.ndarray) -> float:
    k = z.shape[0]
    return float(sum(z[a, b] ** 2 for a, b in itertools.combinations(range(k), 2)))


@given(
    n=st.integers(3, 12),
    k=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    ties=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_aligned_z_squares_add_up_to_k_t_over_two(n, k, seed, ties):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) + rng.normal(0, 5, size=(n, 1))
    if ties:
        x = rng.integers(0, 3, size=(n, k)).astype(float)
    omnibus = nbstats.friedman_aligned(x)
    z = nbstats.posthoc(x, method="holm", ranks="aligned").statistics.to_numpy()
    assert _pairwise_sum_of_squares(z) == pytest.approx(
        k * omnibus.statistic / 2, rel=1e-10, abs=1e-12
    )


@given(n=st.integers(3, 12), k=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_friedman_z_squares_add_up_to_k_chi2_over_two(n, k, seed):
    # continuous scores: no ties within a case, so χ²_F has no tie correction
    x = np.random.default_rng(seed).normal(size=(n, k))
    chi2 = stats.friedmanchisquare(*x.T).statistic if k >= 3 else None
    omnibus = nbstats.friedman(x).statistic
    if chi2 is not None:
        assert omnibus == pytest.approx(chi2, rel=1e-12)
    z = nbstats.posthoc(x, method="holm", ranks="friedman").statistics.to_numpy()
    assert _pairwise_sum_of_squares(z) == pytest.approx(k * omnibus / 2, rel=1e-10)


def test_closed_form_on_a_small_table():
    # ranks [[1, 3, 5], [2, 4, 6]] (the docstring's example): mean ranks 1.5,
    # 3.5, 5.5 and SE = 2, so z = −1, −2, −1 for the pairs (0,1), (0,2),
    # (1,2) and Σ z² = 6; rank totals R̂ = (3, 7, 11) about n(kn + 1)/2 = 7,
    # so T = (k − 1) Σ_j (R̂_j − 7)² / Σ(r − r̄_i)² = 2 · 32 / 16 = 4 = 2 Σz²/k
    ranks = np.array([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    se = aligned_standard_error(ranks)
    assert se == 2.0
    means = ranks.mean(axis=0)
    z = (means[:, None] - means[None, :]) / se
    assert _pairwise_sum_of_squares(z) == pytest.approx(6.0, rel=1e-15)
    n, k = ranks.shape
    kn = n * k
    t = (
        (k - 1)
        * np.sum((ranks.sum(axis=0) - n * (kn + 1) / 2) ** 2)
        / np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2)
    )
    assert t == 4.0
    assert _pairwise_sum_of_squares(z) == k * t / 2  # not k T
