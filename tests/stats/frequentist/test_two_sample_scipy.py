"""Sign test, Wilcoxon and t-test against scipy, closed forms and brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.stats.frequentist.wilcoxon import (
    EXACT_LIMIT_N,
    EXACT_MAX_N,
    at_most_tail,
    signed_rank_null_pmf,
)

ALTERNATIVES = ["two-sided", "greater", "less"]


def _continuous_pair(seed, n=20, shift=0.3):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    return a, a + shift + rng.normal(size=n)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed", range(4))
def test_wilcoxon_exact_equals_scipy_without_ties(alternative, seed):
    # no ties, no zeros: scipy's exact distribution is the same definition;
    # scipy's x - y is our b - a, so scipy gets (b, a)
    a, b = _continuous_pair(seed)
    ours = nbstats.wilcoxon(a, b, alternative=alternative, method="exact")
    ref = stats.wilcoxon(b, a, alternative=alternative, method="exact")
    assert ours.statistic == ref.statistic
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt"])
@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_wilcoxon_approx_equals_scipy_with_ties_and_zeros(
    zero_method, correction, alternative
):
    # for wilcox and pratt scipy's normal approximation uses the conditional
    # mean and tie-corrected variance, the same definition as ours
    rng = np.random.default_rng(7)
    a = rng.integers(0, 6, 60).astype(float)
    b = a + rng.integers(-3, 5, 60)
    ours = nbstats.wilcoxon(
        a,
        b,
        zero_method=zero_method,
        alternative=alternative,
        method="approx",
        correction=correction,
    )
    ref = stats.wilcoxon(
        b,
        a,
        zero_method=zero_method,
        alternative=alternative,
        method="asymptotic",
        correction=correction,
    )
    assert ours.n_zero > 0
    assert ours.statistic == pytest.approx(ref.statistic)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_wilcoxon_zsplit_statistic_equals_scipy_and_demsar(table2):
    a, b = table2["C4.5"], table2["C4.5+m"]
    ref = stats.wilcoxon(b, a, zero_method="zsplit", method="asymptotic")
    assert nbstats.wilcoxon(a, b).statistic == ref.statistic == 12


def _brute_force_pvalue(d, zero_method, alternative):
    """Enumerate all 2^n sign assignments of the non-zero differences."""
    d = np.asarray(d, dtype=float)
    if zero_method == "wilcox":
        d = d[d != 0]
    r = stats.rankdata(np.abs(d))
    random = d != 0
    fixed = r[~random].sum() / 2 if zero_method == "zsplit" else 0.0
    observed = r[d > 0].sum() + fixed
    sums = np.array(
        [
            np.dot(signs, r[random]) + fixed
            for signs in itertools.product([0, 1], repeat=int(random.sum()))
        ]
    )
    tol = 1e-9
    upper = np.mean(sums >= observed - tol)
    lower = np.mean(sums <= observed + tol)
    return {
        "greater": upper,
        "less": lower,
        "two-sided": min(1, 2 * min(upper, lower)),
    }[alternative]


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed", range(3))
def test_wilcoxon_exact_with_ties_equals_brute_force(zero_method, alternative, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, 13).astype(float)
    b = a + rng.integers(-2, 4, 13)
    ours = nbstats.wilcoxon(a, b, zero_method=zero_method, alternative=alternative)
    assert ours.method == "exact"
    expected = _brute_force_pvalue(b - a, zero_method, alternative)
    assert ours.pvalue == pytest.approx(expected, rel=1e-12)


def test_wilcoxon_table2_exact_pvalue_by_brute_force(table2):
    d = table2["C4.5+m"] - table2["C4.5"]
    res = nbstats.wilcoxon(table2["C4.5"], table2["C4.5+m"])
    assert res.pvalue == pytest.approx(_brute_force_pvalue(d, "zsplit", "two-sided"))


def test_null_pmf_is_a_distribution_and_symmetric():
    ranks = stats.rankdata([1, 1, 2, 3, 3, 3, 5.5, 8])
    pmf = signed_rank_null_pmf(ranks)
    assert pmf.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(pmf, pmf[::-1], atol=1e-15)
    support = np.arange(pmf.size) / 2
    assert np.dot(support, pmf) == pytest.approx(ranks.sum() / 2)
    assert np.dot((support - ranks.sum() / 2) ** 2, pmf) == pytest.approx(
        (ranks**2).sum() / 4
    )


@pytest.mark.parametrize("seed", range(6))
def test_at_most_tail_by_brute_force_with_ties(seed):
    # every one of the 2^n sign assignments counted: P(2R+ <= s) for every s
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 13))
    ranks = stats.rankdata(rng.integers(0, 4, size=n))  # many ties
    doubled = np.rint(2 * ranks).astype(np.int64)
    signs = np.array(list(itertools.product([0, 1], repeat=n)))
    sums = signs @ doubled
    for s in range(-1, int(doubled.sum()) + 2):
        assert at_most_tail(doubled, s) == pytest.approx(np.mean(sums <= s), abs=1e-15)


@pytest.mark.parametrize("n", [40, 150, EXACT_MAX_N])
def test_at_most_tail_is_the_full_null_distribution_at_large_n(n):
    # the truncated programme (either tail) against the whole pmf's cumsum
    rng = np.random.default_rng(n)
    ranks = stats.rankdata(np.round(rng.normal(size=n), 1))
    doubled = np.rint(2 * ranks).astype(np.int64)
    cdf = np.cumsum(signed_rank_null_pmf(ranks))
    for s in rng.integers(0, doubled.sum() + 1, size=25):
        assert at_most_tail(doubled, int(s)) == pytest.approx(
            cdf[s], rel=1e-10, abs=1e-300
        )


def test_auto_switches_to_approx_above_documented_n():
    a, b = _continuous_pair(3, n=EXACT_MAX_N + 1)
    assert nbstats.wilcoxon(a, b).method == "approx"
    a, b = _continuous_pair(3, n=EXACT_MAX_N)
    assert nbstats.wilcoxon(a, b).method == "exact"


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_exact_beyond_auto_equals_scipy(alternative):
    """Between EXACT_MAX_N and EXACT_LIMIT_N the exact distribution is still
    computed on request (not cached), and is scipy's."""
    a, b = _continuous_pair(8, n=EXACT_MAX_N + 100, shift=0.1)
    ours = nbstats.wilcoxon(a, b, alternative=alternative, method="exact")
    ref = stats.wilcoxon(b, a, alternative=alternative, method="exact")
    assert ours.method == "exact"
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


@pytest.mark.parametrize("n", [EXACT_LIMIT_N + 1, 100_000])
def test_exact_refuses_above_its_limit_naming_size_and_alternative(n):
    """At n = 10⁵ the exact distribution once asked for 74.5 GiB."""
    a, b = _continuous_pair(4, n=n)
    with pytest.raises(ValueError, match=rf"{n} ranked differences.*method='approx'"):
        nbstats.wilcoxon(a, b, method="exact")
    with pytest.raises(ValueError, match=rf"{n} ranked differences"):
        nbstats.comparison_matrix(
            np.column_stack([a, b]), test=nbstats.WilcoxonTest(method="exact")
        )


@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_auto_at_large_n_is_scipys_approximation(alternative, correction):
    a, b = _continuous_pair(6, n=100_000, shift=0.005)
    ours = nbstats.wilcoxon(a, b, alternative=alternative, correction=correction)
    ref = stats.wilcoxon(
        b, a, alternative=alternative, method="asymptotic", correction=correction
    )
    assert ours.method == "approx"
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_exact_is_fast_and_close_to_approx_at_large_n():
    a, b = _continuous_pair(5, n=400, shift=0.1)
    exact = nbstats.wilcoxon(a, b, method="exact")
    approx = nbstats.wilcoxon(a, b, method="approx", correction=True)
    assert exact.pvalue == pytest.approx(approx.pvalue, rel=0.02)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("ties", ["split", "drop"])
def test_sign_test_is_a_binomial_test(alternative, ties):
    rng = np.random.default_rng(2)
    a = rng.integers(0, 3, 25).astype(float)
    b = rng.integers(0, 3, 25).astype(float)
    res = nbstats.sign_test(a, b, alternative=alternative, ties=ties)
    wins, losses, n_ties = (b > a).sum(), (b < a).sum(), (b == a).sum()
    shared = n_ties // 2 if ties == "split" else 0
    ref = stats.binomtest(
        wins + shared, wins + losses + 2 * shared, alternative=alternative
    )
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert (res.wins, res.losses, res.n_ties) == (wins, losses, n_ties)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_ttest_equals_scipy(alternative):
    a, b = _continuous_pair(11, n=17)
    ours = nbstats.ttest(a, b, alternative=alternative, level=0.9)
    ref = stats.ttest_rel(b, a, alternative=alternative)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert ours.df == ref.df
    np.testing.assert_allclose(
        ours.confidence_interval, tuple(ref.confidence_interval(0.9)), rtol=1e-12
    )


def test_ttest_constant_difference_has_infinite_t_without_warning():
    res = nbstats.ttest([1.0, 2.0, 3.0], [1.5, 2.5, 3.5])
    assert res.statistic == np.inf
    assert res.pvalue == 0.0


def test_lower_is_better_flips_orientation():
    a, b = _continuous_pair(0)
    up = nbstats.wilcoxon(a, b, alternative="greater")
    down = nbstats.wilcoxon(-a, -b, alternative="greater", higher_is_better=False)
    assert up == down


def test_series_names_flow_into_result(table2):
    res = nbstats.wilcoxon(table2["C4.5"], table2["C4.5+m"])
    assert (res.name_a, res.name_b) == ("C4.5", "C4.5+m")
    unnamed = nbstats.wilcoxon(table2["C4.5"].to_numpy(), table2["C4.5+m"].to_list())
    assert (unnamed.name_a, unnamed.name_b) == ("a", "b")
    assert tuple(unnamed) == tuple(res)


def test_aligned_series_in_other_order(table2):
    a = table2["C4.5"]
    b = table2["C4.5+m"].iloc[::-1]
    assert nbstats.wilcoxon(a, b) == nbstats.wilcoxon(a, pd.Series(b, index=a.index))
