"""What counts as a tie among aligned scores (issue 25, item 3; issue 38,
item 2).

The oracle is exact arithmetic: each score read as the decimal it prints as
(``Fraction(repr(x))``) or as the exact sum it was computed from, aligned
scores ``x_ij − x̄_i`` computed as fractions, and ranked with exact ties.
Decimal scores whose differences are equal tie; scores equal up to the
round-off of their own computation tie; distinct aligned scores never merge,
whatever the levels and spreads of the cases.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.stats.frequentist.aligned import (
    SCORE_ULPS,
    aligned_ranks,
    tie_group_starts,
)


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


# --- issue 38, item 2: each value's own round-off bound -----------------------

#: the issue's reproducer: case 2 differs from case 1 by 2e-9 around ±0.0003,
#: 20,000 times the round-off of case 1 (scores near 1000)
ISSUE_38 = np.array(
    [
        [1000.0003, 1000.0, 999.9997],
        [0.0003 + 2e-9, 0.0, -0.0003 - 2e-9],
        [0.5, 0.2, 0.1],
        [2.0, 2.5, 1.0],
    ]
)
#: R's rank(-(x - rowMeans(x))) of that table, as scmamp ranks it: the two
#: exact zeros (1000 - 1000 and 0 - 0) tie, nothing else does
ISSUE_38_R_RANKS = [[5, 6.5, 8], [4, 6.5, 9], [2, 10, 11], [3, 1, 12]]
#: scmamp's friedmanAlignedRanksTest(x)$statistic on that table: scmamp
#: (github b0rxa/scmamp, commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9),
#: R/tests.R sourced in R 4.2.2, printed with sprintf("%.17g")
SCMAMP_T = 5.1025957972805918
#: the same with case 2's middle score 1e-9 instead of 0 (no tie left)
SCMAMP_T_NO_TIE = 5.1089108910891063


def scmamp_statistic(ranks: np.ndarray) -> float:
    """scmamp's T: the tie-free denominator kn(kn+1)(2kn+1)/6 − Σ R_i²/k."""
    n, k = ranks.shape
    kn = n * k
    numerator = (k - 1) * np.sum((ranks.sum(axis=0) - n * (kn + 1) / 2) ** 2)
    return numerator / (
        kn * (kn + 1) * (2 * kn + 1) / 6 - np.sum(ranks.sum(1) ** 2) / k
    )


def test_the_issue_38_reproducer_ranks_as_scmamp():
    ranks = aligned_ranks(ISSUE_38)
    assert ranks.tolist() == ISSUE_38_R_RANKS
    np.testing.assert_array_equal(ranks, exact_aligned_ranks(ISSUE_38))
    # scmamp's statistic from these ranks is scmamp's own number ...
    assert scmamp_statistic(ranks) == pytest.approx(SCMAMP_T, rel=1e-14)
    # ... and nbstats' T, whose denominator is the spread of the ranks
    # themselves (the tie of the two zeros lowers it by 1/2 against the
    # tie-free formula), is the within-case permutation statistic
    res = nbstats.friedman_aligned(ISSUE_38)
    assert res.statistic == pytest.approx(aligned_statistic(ranks), rel=1e-12)
    assert res.statistic == pytest.approx(5.121588089330024, rel=1e-12)


def test_the_issue_38_reproducer_without_the_exact_tie_is_scmamp():
    # moving case 2's middle score off zero by 1e-9 (far more than case 1's
    # round-off, about 1e-13) leaves no tie at all: then T is
    # scmamp's friedmanAlignedRanksTest to machine precision
    table = ISSUE_38.copy()
    table[1, 1] = 1e-9
    ranks = aligned_ranks(table)
    assert ranks.tolist() == [[5, 7, 8], [4, 6, 9], [2, 10, 11], [3, 1, 12]]
    res = nbstats.friedman_aligned(table)
    assert res.statistic == pytest.approx(SCMAMP_T_NO_TIE, rel=1e-12)
    assert res.statistic == pytest.approx(scmamp_statistic(ranks), rel=1e-12)


@pytest.mark.r_oracle
def test_the_issue_38_reproducer_against_r(run_r):
    """R ranks the exact aligned scores and computes both denominators."""
    rows = ", ".join(repr(float(v)) for v in ISSUE_38.ravel())
    script = f"""
    x <- matrix(c({rows}), ncol = 3, byrow = TRUE)
    k <- ncol(x); n <- nrow(x); kn <- k * n
    r <- matrix(rank(-as.vector(x - rowMeans(x))), ncol = k)
    num <- (k - 1) * sum((colSums(r) - n * (kn + 1) / 2)^2)
    tied <- num / sum((r - rowMeans(r))^2)
    free <- num / (kn * (kn + 1) * (2 * kn + 1) / 6 - sum(rowSums(r)^2) / k)
    cat(sprintf('{{"ranks": [%s], "tied": %.17g, "free": %.17g}}',
                paste(sprintf("%.17g", t(r)), collapse = ","), tied, free))
    """
    out = run_r(script)
    np.testing.assert_array_equal(
        aligned_ranks(ISSUE_38), np.array(out["ranks"]).reshape(4, 3)
    )
    assert out["free"] == pytest.approx(SCMAMP_T, rel=1e-14)
    assert nbstats.friedman_aligned(ISSUE_38).statistic == pytest.approx(
        out["tied"], rel=1e-12
    )


def _tie_groups_by_brute_force(values, bound):
    """The documented rule, written plainly: walking up, a value and the
    values exactly equal to it join the current group if each of them ties
    every member (``|a − b| <= bound_a + bound_b``), else start a new one."""
    starts, group = [], []
    j = 0
    while j < len(values):
        unit = [i for i in range(j, len(values)) if values[i] == values[j]]
        joins = bool(group) and all(
            values[u] - values[g] <= bound[u] + bound[g] for u in unit for g in group
        )
        starts += [not joins] + [False] * (len(unit) - 1)
        group = group + unit if joins else unit
        j += len(unit)
    return starts


@given(
    st.lists(
        st.tuples(
            # dyadic steps and bounds: the comparisons are exact
            st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.5, 5.0]),
            st.sampled_from([0.0, 0.125, 0.25, 0.5, 1.0, 2.0]),
        ),
        min_size=1,
        max_size=14,
    )
)
@settings(max_examples=300, deadline=None)
def test_groups_tie_pairwise_and_follow_the_rule(steps):
    values = np.cumsum([step for step, _ in steps])
    bound = np.array([b for _, b in steps])
    starts = tie_group_starts(values, bound)
    assert starts.tolist() == _tie_groups_by_brute_force(values, bound)
    # every group is a set of values that tie pairwise (or are equal)
    for group in np.split(np.arange(values.size), np.flatnonzero(starts)[1:]):
        for a in group:
            for b in group:
                assert abs(values[a] - values[b]) <= bound[a] + bound[b]


def test_a_large_bound_does_not_merge_two_small_ones():
    # 1.0 and 1.1 both lie within the first value's bound, not within each
    # other's: the first two tie, the third starts a new group
    starts = tie_group_starts(np.array([0.0, 1.0, 1.1]), np.array([5.0, 0.01, 0.01]))
    assert starts.tolist() == [True, False, True]
    # exactly equal values tie whatever their bounds, also bounds of 0
    assert tie_group_starts(np.zeros(3), np.zeros(3)).tolist() == [True, False, False]


def test_a_chain_of_near_ties_does_not_merge():
    # three cases at 2^20 whose aligned differences are d, d + δ and d + 2δ,
    # with δ at 0.8 of the sum of two values' bounds: neighbours tie, the
    # ends do not. Groups are formed from below: -d3 ~ -d2, then d1 ~ d2
    # (and d3 alone).
    # With k = 2, k (x_i1 − x̄_i) is x_i1 − x_i0 and its bound
    # (k + 1 + SCORE_ULPS) eps (k |x_i1| + |x_i0| + |x_i1|)
    big = 2.0**20
    k = 2
    bound = (k + 1 + SCORE_ULPS) * np.finfo(float).eps * 4 * big
    delta = 0.8 * 2 * bound
    d = 1e-3
    table = np.array(
        [[big, big + d], [big, big + d + delta], [big, big + d + 2 * delta]]
    )
    ranks = aligned_ranks(table)
    assert ranks[:, 1].tolist() == [2.5, 2.5, 1.0]
    assert ranks[:, 0].tolist() == [4.0, 5.5, 5.5]


def _exact_ranks(aligned: list[Fraction], shape) -> np.ndarray:
    """Average ranks (1 = best) of exact values."""
    order = sorted(range(len(aligned)), key=lambda i: -aligned[i])
    ranks = np.empty(len(aligned))
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
    return ranks.reshape(shape)


@st.composite
def level_and_spread_tables(draw):
    """Decimal score tables whose cases have very different levels and
    spreads: case i is ``L_i 10^{l_i} + d_ij 10^{s_i}`` with levels up to
    10^9 and spreads down to 10^-12 of the table's largest level. Returns
    the exact decimal values and the floats that print as them."""
    n = draw(st.integers(2, 7))
    k = draw(st.integers(2, 5))
    highest = draw(st.integers(-6, 6))
    levels = [highest] + draw(
        st.lists(st.integers(highest - 10, highest), min_size=n - 1, max_size=n - 1)
    )
    top = highest + 3  # the largest level is below 10^top
    exact = []
    for level in levels:
        spread = draw(st.integers(max(top - 12, level - 9), level + 2))
        base = draw(st.integers(-999, 999))
        steps = draw(st.lists(st.integers(-2, 2), min_size=k, max_size=k))
        exact.append(
            [
                Fraction(base) * Fraction(10) ** level
                + Fraction(step) * Fraction(10) ** spread
                for step in steps
            ]
        )
    floats = np.array([[float(v) for v in row] for row in exact])
    return exact, floats


@given(level_and_spread_tables())
@settings(max_examples=200, deadline=None)
def test_ranks_of_cases_of_any_level_and_spread_are_exact(table):
    exact, floats = table
    n, k = floats.shape
    aligned = [v - sum(row) / k for row in exact for v in row]
    expected = _exact_ranks(aligned, (n, k))
    np.testing.assert_array_equal(aligned_ranks(floats), expected)
    np.testing.assert_array_equal(
        aligned_ranks(floats, higher_is_better=False), n * k + 1 - expected
    )
    # the same ranks whatever the order of the cases and of the algorithms
    rows, cols = np.arange(n)[::-1], np.roll(np.arange(k), 1)
    np.testing.assert_array_equal(
        aligned_ranks(floats[np.ix_(rows, cols)]), expected[np.ix_(rows, cols)]
    )


@given(
    folds=st.lists(
        st.lists(st.floats(0, 1), min_size=3, max_size=60),
        min_size=2,
        max_size=4,
    ),
    n=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=150, deadline=None)
def test_means_summed_in_different_orders_still_tie(folds, n, seed):
    """Each case's score of algorithm j is the mean of the same fold scores
    summed in another order: exactly, every case has the same aligned
    scores, so algorithm j's n cells tie; in floating point they differ by
    a few units in the last place."""
    k = len(folds)
    r = min(len(f) for f in folds)
    folds = [f[:r] for f in folds]
    exact_means = [sum(Fraction(v) for v in f) / r for f in folds]
    centre = sum(exact_means) / k
    aligned = [m - centre for m in exact_means]
    # distinct exact aligned scores must differ by more than round-off
    assume(
        all(
            a == b or abs(a - b) > Fraction(1, 10**12)
            for i, a in enumerate(aligned)
            for b in aligned[i + 1 :]
        )
    )
    rng = np.random.default_rng(seed)
    table = np.array(
        [[sum(rng.permutation(f).tolist()) / r for f in folds] for _ in range(n)]
    )
    expected = _exact_ranks(aligned * n, (n, k))
    np.testing.assert_array_equal(aligned_ranks(table), expected)
