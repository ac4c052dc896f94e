"""signed_rank_pvalues: the Wilcoxon test of every column at once, as the rank
intervals use it; equal to one signed_rank_test per column, and to scipy."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from nbstats.stats.frequentist.wilcoxon import (
    EXACT_MAX_N,
    signed_rank_pvalues,
    signed_rank_test,
)


def _matrix(n: int, k: int, seed: int, *, ties: bool) -> np.ndarray:
    rng = np.random.default_rng(seed)
    d = (
        rng.integers(-3, 4, size=(n, k)).astype(float)
        if ties
        else rng.normal(0.2, 1, size=(n, k))
    )
    d[rng.random((n, k)) < 0.15] = np.nan  # cases a pair lacks
    return d


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize(
    ("n", "ties"), [(6, True), (30, True), (30, False), (EXACT_MAX_N + 40, False)]
)
def test_each_column_is_its_own_test(alternative, n, ties):
    d = _matrix(n, 25, n, ties=ties)
    got = signed_rank_pvalues(d, alternative)
    for j in range(d.shape[1]):
        column = d[:, j][~np.isnan(d[:, j])]
        alone = signed_rank_test(column, zero_method="wilcox", alternative=alternative)
        assert got[j] == alone.pvalue, (j, got[j], alone.pvalue)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_equals_scipy_without_ties(alternative):
    d = _matrix(20, 10, 4, ties=False)
    got = signed_rank_pvalues(d, alternative)
    for j in range(d.shape[1]):
        column = d[:, j][~np.isnan(d[:, j])]
        ref = stats.wilcoxon(column, alternative=alternative, method="exact")
        assert got[j] == pytest.approx(ref.pvalue, rel=1e-12)


def test_columns_without_differences_and_bad_input():
    d = np.array([[0.0, np.nan, 1.0], [0.0, np.nan, 2.0]])
    # all zeros, all missing: nothing to rank, p = 1; the third is P(R+ ≥ 3)
    assert signed_rank_pvalues(d, "greater").tolist() == [1.0, 1.0, 0.25]
    with pytest.raises(ValueError, match="cases × pairs"):
        signed_rank_pvalues(np.ones(3), "greater")
    with pytest.raises(ValueError, match="alternative"):
        signed_rank_pvalues(d, "bigger")
