"""Nemenyi's p-values: one function for posthoc and rank_ci, against scipy."""

import numpy as np
import pytest
from scipy import stats

import nbstats
from nbstats.stats.frequentist.critical_difference import (
    nemenyi_pvalues,
    rank_standard_error,
)


@pytest.mark.parametrize("k", [2, 4, 30])
def test_matches_scipys_studentized_range(k):
    z = np.array([[0.0, 0.4, -1.5], [2.5, np.nan, -3.0]])
    out = nemenyi_pvalues(z, k)
    assert out.shape == z.shape
    assert np.isnan(out[1, 1])
    for value, p in zip(z.ravel(), out.ravel(), strict=True):
        if np.isnan(value):
            continue
        expected = stats.studentized_range.sf(abs(value) * np.sqrt(2), k, np.inf)
        raw = 2 * stats.norm.sf(abs(value))
        # kept between the raw p and Bonferroni's k(k-1)/2 raw p
        expected = min(1.0, max(raw, min(expected, k * (k - 1) / 2 * raw)))
        assert p == pytest.approx(expected, rel=1e-9, abs=1e-15)


def test_far_tail_is_the_normal_bound_not_the_integrals_floor():
    # scipy's integral stops near 1e-16; the raw p times the pairs is below
    p = nemenyi_pvalues(np.array([12.0, 40.0]), 4)
    raw = 2 * stats.norm.sf([12.0, 40.0])
    assert np.all(p <= 6 * raw)
    assert np.all(p >= raw)


def test_posthoc_and_rank_ci_use_the_same_pvalues():
    table = nbstats.datasets.load("demsar2006")
    post = nbstats.posthoc(table, method="nemenyi")
    ranks = post.mean_ranks.to_numpy()
    n, k = table.shape
    z = (ranks[None, :] - ranks[:, None]) / rank_standard_error(k, n)
    expected = nemenyi_pvalues(z, k)
    np.fill_diagonal(expected, np.nan)
    np.testing.assert_allclose(post.adjusted.to_numpy(), expected, rtol=1e-12)
    ci = nbstats.rank_ci(table, method="id-nemenyi")
    assert ci.omnibus_rejected  # so that the pairs' p-values are computed
    np.testing.assert_allclose(
        ci.pvalues.loc[post.adjusted.index, post.adjusted.columns],
        post.adjusted,
        rtol=1e-12,
    )


@pytest.mark.parametrize(
    ("k", "error", "message"),
    [
        (1, ValueError, "n_algorithms must be a whole number >= 2, got 1."),
        (2.5, TypeError, "n_algorithms must be a whole number (int), got 2.5 (float)."),
    ],
)
def test_bad_number_of_algorithms(k, error, message):
    with pytest.raises(error) as info:
        nemenyi_pvalues(np.array([1.0]), k)
    assert str(info.value) == message
