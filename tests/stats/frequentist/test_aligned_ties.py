"""What counts as a tie among aligned scores (issue 25, item 3).

The oracle is exact arithmetic: each score read as the decimal it prints as
(``Fraction(repr(x))``), aligned scores ``x_ij − x̄_i`` computed as fractions,
and ranked with exact ties. Decimal scores whose differences are equal tie;
distinct aligned scores never merge, whatever the scales of the cases.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.stats.frequentist.aligned import aligned_ranks


def exact_aligned_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks (1 = best, ties averaged) of the exact decimal aligned scores."""
    n, k = values.shape
    exact = [[Fraction(repr(float(v))) for v in row] for row in values]
    aligned = [x - sum(row) / k for row in exact for x in row]
    order = sorted(range(n * k), key=lambda i: -aligned[i])  # best first
    ranks = np.empty(n * k)
    start = 0
    while start < len(order):
        stop = start
        while (
            stop + 1 < len(order) and aligned[order[stop + 1]] == aligned[order[start]]
        ):
            stop += 1
        for position in range(start, stop + 1):
            ranks[order[position]] = (start + stop) / 2 + 1
        start = stop + 1
    return ranks.reshape(n, k)


def aligned_statistic(ranks: np.ndarray) -> float:
    """T of the within-case permutation distribution (Hodges & Lehmann)."""
    n, k = ranks.shape
    totals = ranks.sum(axis=0)
    spread = np.sum((ranks - ranks.mean(axis=1, keepdims=True)) ** 2)
    return (k - 1) * np.sum((totals - n * (n * k + 1) / 2) ** 2) / spread


def test_the_issue_example_equals_the_tie_free_definition():
    # cases of very different scales: the tolerance of the large one (1e-9 of
    # 1e6 before) merged the small cases' distinct aligned scores
    table = np.array([[0, 1e6], [0.5, 0.5001], [0.3, 0.3002], [0.7, 0.7003]])
    res = nbstats.friedman_aligned(table)
    n, k = table.shape
    ranks = stats.rankdata(-(table - table.mean(axis=1, keepdims=True))).reshape(n, k)
    assert res.statistic == pytest.approx(aligned_statistic(ranks), rel=1e-12)
    # scmamp's friedmanAlignedRanksTest: T = 3.05, p = 0.081
    assert res.statistic == pytest.approx(3.048, abs=5e-4)
    assert res.pvalue == pytest.approx(stats.chi2.sf(res.statistic, 1), rel=1e-12)
    assert res.pvalue == pytest.approx(0.081, abs=5e-4)


def _decimal_table(rng, n: int, k: int, digits: int) -> np.ndarray:
    """Decimal scores with many equal differences, cases of scales 1e-3 … 1e6."""
    steps = rng.integers(0, 6, size=(n, k))  # few distinct values: many ties
    base = np.round(rng.uniform(0, 1, size=(n, 1)), digits)
    scale = 10.0 ** rng.integers(-3, 7, size=(n, 1))
    cells = base + steps * 10.0**-digits
    # the decimal each cell prints as, times its case's power of ten
    return np.array(
        [
            [float(f"{v:.{digits}f}e{int(np.log10(s))}") for v in row]
            for row, s in zip(cells, scale[:, 0], strict=True)
        ]
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("n", "k"), [(6, 2), (10, 3), (20, 5)])
def test_ranks_equal_exact_decimal_ranks(seed, n, k):
    rng = np.random.default_rng(seed)
    table = _decimal_table(rng, n, k, digits=3)
    expected = exact_aligned_ranks(table)
    np.testing.assert_array_equal(aligned_ranks(table), expected)
    np.testing.assert_array_equal(
        aligned_ranks(table, higher_is_better=False), n * k + 1 - expected
    )
    res = nbstats.friedman_aligned(table)
    assert res.statistic == pytest.approx(aligned_statistic(expected), rel=1e-12)


def test_decimal_ties_and_the_statistic_with_ties():
    # 0.803 - 0.75 and 0.845 - 0.792 differ in binary, not in decimal: they
    # tie; the same at another scale (x 1e6) does not tie with them
    table = np.array([[0.803, 0.75], [0.845, 0.792], [803000.0, 750000.0]])
    ranks = aligned_ranks(table)
    assert ranks[0].tolist() == ranks[1].tolist() == [2.5, 4.5]
    assert ranks[2].tolist() == [1.0, 6.0]
    # Demšar's Table 6 has tied aligned scores: T's denominator is the sum
    # of the tied ranks' squares about each case's mean, not the tie-free
    # kn(kn+1)(2kn+1)/6 - Σ R_i²/k
    table = nbstats.datasets.load("demsar2006")
    expected = exact_aligned_ranks(table.to_numpy())
    res = nbstats.friedman_aligned(table)
    assert res.statistic == pytest.approx(aligned_statistic(expected), rel=1e-12)
    assert nbstats.friedman_aligned(table, higher_is_better=False).statistic == (
        pytest.approx(res.statistic, rel=1e-12)
    )


def test_a_frame_keeps_working():
    frame = pd.DataFrame(
        [[0, 1e6], [0.5, 0.5001], [0.3, 0.3002], [0.7, 0.7003]], columns=["a", "b"]
    )
    res = nbstats.friedman_aligned(frame)
    assert res.mean_aligned_ranks.to_dict() == {"a": 6.5, "b": 2.5}


def _anchored_groups(values, tolerance):
    """The documented rule, one value at a time: a value joins the current
    group when it is within max(its tolerance, the first member's) of the
    group's first member; otherwise it starts a new group."""
    starts, anchor = [True], 0
    for j in range(1, len(values)):
        joins = values[j] - values[anchor] <= max(tolerance[anchor], tolerance[j])
        starts.append(not joins)
        anchor = anchor if joins else j
    return starts


@pytest.mark.parametrize("seed", range(4))
def test_groups_of_ties_are_anchored_not_chained(seed):
    from nbstats.stats.frequentist.aligned import _tie_group_starts

    rng = np.random.default_rng(seed)
    for _ in range(500):
        size = int(rng.integers(1, 12))
        values = np.cumsum(rng.choice([0, 0.3, 0.6, 0.9, 1.5, 5], size=size))
        tolerance = rng.choice([0.5, 1.0, 2.0], size=size)
        expected = _anchored_groups(values, tolerance)
        assert _tie_group_starts(values, tolerance).tolist() == expected


def test_a_chain_of_near_ties_does_not_merge():
    # three cases at 2^20 whose differences are 1e-3, 1e-3 + 3e-6 and
    # 1e-3 + 6e-6: the tolerance, 1e-12 of the operands (~4e-6), ties the
    # first two; the third is within it of the second, not of the first.
    # Groups are anchored at their lowest value: d1 ~ d2 above, -d3 ~ -d2 below
    big = 2.0**20
    table = np.array(
        [[big, big + 1e-3], [big, big + 1e-3 + 3e-6], [big, big + 1e-3 + 6e-6]]
    )
    ranks = aligned_ranks(table)
    assert ranks[:, 1].tolist() == [2.5, 2.5, 1.0]
    assert ranks[:, 0].tolist() == [4.0, 5.5, 5.5]
