"""Adjusted p-values against statsmodels' multipletests and closed forms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

import nbstats
from nbstats.stats.frequentist.adjust import shaffer_hypothesis_counts

STATSMODELS_NAMES = {
    "holm": "holm",
    "hochberg": "simes-hochberg",
    "hommel": "hommel",
    "bonferroni": "bonferroni",
}


@pytest.mark.parametrize("method", sorted(STATSMODELS_NAMES))
@pytest.mark.parametrize("size", [1, 2, 3, 4, 7, 20, 45])
@pytest.mark.parametrize("seed", range(3))
def test_matches_statsmodels(method, size, seed):
    # statsmodels' definitions of these four are the textbook adjusted p-values
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.2, size) ** rng.uniform(0.5, 3)
    p[: size // 3] = p[0]  # some ties
    expected = multipletests(p, method=STATSMODELS_NAMES[method])[1]
    np.testing.assert_allclose(nbstats.adjust_pvalues(p, method), expected, rtol=1e-12)


def test_demsar_holm_example():
    adjusted = nbstats.adjust_pvalues([0.016, 0.019, 0.607], "holm")
    np.testing.assert_allclose(adjusted, [0.048, 0.048, 0.607])


def test_hochberg_and_hommel_closed_forms_for_two():
    # m = 2: Hochberg adjusts p_(1) to min(2 p_(1), p_(2)); Hommel does the same
    p = np.array([0.03, 0.04])
    np.testing.assert_allclose(nbstats.adjust_pvalues(p, "hochberg"), [0.04, 0.04])
    np.testing.assert_allclose(nbstats.adjust_pvalues(p, "hommel"), [0.04, 0.04])
    np.testing.assert_allclose(nbstats.adjust_pvalues(p, "holm"), [0.06, 0.06])


@pytest.mark.parametrize(
    ("k", "counts"),
    [
        (2, {0, 1}),
        (3, {0, 1, 3}),
        (4, {0, 1, 2, 3, 6}),
        # partitions of 5: 5 | 4+1 | 3+2 | 3+1+1 | 2+2+1 | 2+1+1+1 | 1*5
        (5, {10, 6, 4, 3, 2, 1, 0}),
    ],
)
def test_shaffer_possible_true_hypotheses(k, counts):
    assert set(shaffer_hypothesis_counts(k)) == counts


def test_shaffer_k4_multipliers_by_hand():
    # with 6 pairs the multipliers are 6, 3, 3, 3, 2, 1 (after the first
    # rejection at most 3 equalities can still hold together)
    p = np.array([0.001, 0.002, 0.003, 0.004, 0.005, 0.006])
    expected = np.maximum.accumulate(np.array([6, 3, 3, 3, 2, 1]) * p)
    np.testing.assert_allclose(nbstats.adjust_pvalues(p, "shaffer"), expected)


def test_shaffer_never_exceeds_holm():
    rng = np.random.default_rng(1)
    for k in range(2, 9):
        p = rng.uniform(0, 0.1, k * (k - 1) // 2)
        shaffer = nbstats.adjust_pvalues(p, "shaffer")
        holm = nbstats.adjust_pvalues(p, "holm")
        assert np.all(shaffer <= holm + 1e-15)


def test_series_keeps_index_and_order():
    p = pd.Series([0.04, 0.01, 0.03], index=["x", "y", "z"])
    out = nbstats.adjust_pvalues(p, "holm")
    assert out.index.tolist() == ["x", "y", "z"]
    np.testing.assert_allclose(out, [0.06, 0.03, 0.06])


def test_bonferroni_dunn_alias_and_none():
    p = [0.01, 0.02]
    np.testing.assert_allclose(
        nbstats.adjust_pvalues(p, "bonferroni-dunn"), [0.02, 0.04]
    )
    np.testing.assert_allclose(nbstats.adjust_pvalues(p, "none"), p)


@pytest.mark.parametrize(
    ("p", "method", "match"),
    [
        ([0.1, 0.2], "fdr", "unknown method='fdr'"),
        ([0.1, np.nan], "holm", "NaN at positions \\[1\\]"),
        ([0.1, 1.2], "holm", "must lie in \\[0, 1\\]"),
        ([[0.1, 0.2]], "holm", "must be 1-D"),
        ([0.1, 0.2], "shaffer", "not such a number"),
    ],
)
def test_bad_input(p, method, match):
    with pytest.raises(ValueError, match=match):
        nbstats.adjust_pvalues(p, method)


def _partitions(k, largest=None):
    """Every partition of k into parts of at most ``largest`` (brute force)."""
    largest = k if largest is None else largest
    if k == 0:
        yield ()
        return
    for part in range(min(k, largest), 0, -1):
        for rest in _partitions(k - part, part):
            yield (part, *rest)


@pytest.mark.parametrize("k", range(1, 16))
def test_shaffer_counts_are_those_of_every_partition(k):
    # independent oracle: enumerate the partitions of the k algorithms into
    # groups of equal ones; a group of j makes j(j - 1)/2 true equalities
    brute = {sum(j * (j - 1) // 2 for j in parts) for parts in _partitions(k)}
    assert set(shaffer_hypothesis_counts(k)) == brute


def test_shaffer_at_800_algorithms_has_no_recursion_limit():
    from nbstats.stats.frequentist.shaffer import shaffer_multipliers

    k = 800
    m = k * (k - 1) // 2
    counts = np.array(sorted(shaffer_hypothesis_counts(k)))
    assert counts[0] == 0 and counts[-1] == m  # none true, or all equal
    # next to all equal: one algorithm apart, C(k - 1, 2) = m - (k - 1)
    assert counts[-2] == m - (k - 1)
    multipliers = shaffer_multipliers(k)
    assert multipliers[0] == m and multipliers[-1] == 1
    assert np.all(np.diff(multipliers) <= 0)
    # each multiplier is the largest possible count not above what remains
    remaining = np.arange(m, 0, -1)
    picks = np.random.default_rng(0).integers(0, m, size=200)
    for i in picks:
        assert multipliers[i] == counts[counts <= remaining[i]].max()
    p = np.random.default_rng(1).random(m)
    adjusted = nbstats.adjust_pvalues(p, "shaffer", n_algorithms=k)
    assert np.all(adjusted >= p) and np.all(adjusted <= 1)
