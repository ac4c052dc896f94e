"""Confidence intervals for ranks (Foucart et al. 2025, supplement).

Expected values come from elsewhere than the code under test: closed-form
p-values of perfectly ordered tables, scipy.stats (wilcoxon, studentized_range,
tukey_hsd, friedmanchisquare, f), statsmodels' ``multipletests``, the figures
printed in the supplement (38 and 184 cases), and a slow explicit bootstrap.
Ranks are 1 = best throughout (the supplement ranks 1 = lowest score).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats
from nbstats.results.base import Result
from nbstats.results.ranking import RankCIResult
from nbstats.stats.ranking import RANK_CI_METHODS, nemenyi_min_cases, rank_ci
from nbstats.util.random import seed_sequence

TEST_METHODS = ("id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s", "anova-tukey")


def supplement_scores(seed: int, m: int = 5, n: int = 20, f: float = 1.0):
    """The supplement's generator (§2): s_ij = d_j + n_ij.

    d_j ~ laplace_asymmetric(kappa=2); n_ij ~ N(i f σ_N, σ_N) for algorithm
    i = 1..m with σ_N = sqrt(σ_D), σ_D the standard deviation of the
    difficulty. Higher is better, so alg{m} is the best.
    """
    rng = np.random.default_rng(seed)
    difficulty = stats.laplace_asymmetric(kappa=2)
    sigma_n = np.sqrt(difficulty.std())
    d = difficulty.rvs(size=n, random_state=rng)
    offsets = np.arange(1, m + 1) * f * sigma_n
    x = d[:, None] + rng.normal(loc=offsets, scale=sigma_n, size=(n, m))
    return pd.DataFrame(x, columns=[f"alg{i}" for i in range(1, m + 1)])


def ordered_table(n: int, m: int, *, gap: float = 100.0, seed: int = 0):
    """Perfectly separated: column j beats column j - 1 on every case.

    The best algorithm is the last column (``alg{m}``).
    """
    rng = np.random.default_rng(seed)
    difficulty = rng.uniform(0, 10, size=n)
    x = difficulty[:, None] + gap * np.arange(m)
    return pd.DataFrame(x, columns=[f"alg{j}" for j in range(1, m + 1)])


def intervals(res: RankCIResult) -> list[tuple[int, int]]:
    return list(zip(res.lower.tolist(), res.upper.tolist(), strict=True))


def singletons_best_last(m: int) -> list[tuple[int, int]]:
    """[i, i] when the last column is best: alg1 → m, …, alg{m} → 1."""
    return [(m - j, m - j) for j in range(m)]


# ---------------------------------------------------------------- nemenyi_min_cases


def test_nemenyi_min_cases_matches_the_supplement():
    # "For m = 5, we already have n >= 38. At m = 10, it is n >= 184."
    assert nemenyi_min_cases(5) == 38
    assert nemenyi_min_cases(10) == 184
    assert nemenyi_min_cases(5, alpha=0.05) == 38


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10])
@pytest.mark.parametrize("m", [2, 3, 4, 5, 7, 10, 12])
def test_nemenyi_min_cases_is_where_the_cd_drops_to_one(m, alpha):
    n = nemenyi_min_cases(m, alpha)
    assert nbstats.critical_difference(m, n, alpha) <= 1
    assert n == 2 or nbstats.critical_difference(m, n - 1, alpha) > 1
    # and the formula, with scipy's studentized range directly
    q = stats.studentized_range.ppf(1 - alpha, m, np.inf)
    assert n == math.ceil(m * (m + 1) / 12 * q**2)


def test_nemenyi_min_cases_is_the_boundary_of_full_separation():
    m = 5
    n = nemenyi_min_cases(m)
    at = rank_ci(ordered_table(n, m), method="id-nemenyi")
    assert intervals(at) == singletons_best_last(m)
    below = rank_ci(ordered_table(n - 1, m), method="id-nemenyi")
    # neighbours differ by exactly one mean rank, now less than the CD; the
    # algorithms two apart are still separated
    assert intervals(below) == [(4, 5), (3, 5), (2, 4), (1, 3), (1, 2)]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n_algorithms": 1}, ValueError),
        ({"n_algorithms": 0}, ValueError),
        ({"n_algorithms": 2.5}, TypeError),
        ({"n_algorithms": True}, TypeError),
        ({"n_algorithms": "5"}, TypeError),
        ({"n_algorithms": 5, "alpha": 0}, ValueError),
        ({"n_algorithms": 5, "alpha": 1}, ValueError),
        ({"n_algorithms": 5, "alpha": -0.1}, ValueError),
        ({"n_algorithms": 5, "alpha": "0.05"}, TypeError),
    ],
)
def test_nemenyi_min_cases_refuses_bad_input(kwargs, error):
    with pytest.raises(error, match="n_algorithms |alpha"):
        nemenyi_min_cases(**kwargs)


# ------------------------------------------------ the supplement's worked example


def expected_wilcoxon_intervals(x: pd.DataFrame, *, sided: str, alpha: float = 0.05):
    """Intervals from scipy.stats.wilcoxon + statsmodels' Holm, by hand.

    Higher scores are better; rank 1 = best. Two-sided: Holm over each row's
    m - 1 p-values, direction from the mean difference. One-sided: Holm over
    each row's m - 1 "greater" p-values, and separately its m - 1 "less" ones.
    """
    names = list(x.columns)
    m = len(names)
    out = []
    for a in names:
        others = [b for b in names if b != a]
        if sided == "two":
            raw = [stats.wilcoxon(x[b], x[a]).pvalue for b in others]
            reject = multipletests(raw, alpha=alpha, method="holm")[0]
            diff = [x[b].mean() - x[a].mean() for b in others]
            n_better = sum(r and d > 0 for r, d in zip(reject, diff, strict=True))
            n_worse = sum(r and d < 0 for r, d in zip(reject, diff, strict=True))
        else:
            up = [
                stats.wilcoxon(x[b], x[a], alternative="greater").pvalue for b in others
            ]
            down = [
                stats.wilcoxon(x[b], x[a], alternative="less").pvalue for b in others
            ]
            n_better = int(multipletests(up, alpha=alpha, method="holm")[0].sum())
            n_worse = int(multipletests(down, alpha=alpha, method="holm")[0].sum())
        out.append((1 + n_better, m - n_worse))
    return out


def test_one_sided_holm_per_side_widens_an_interval_as_in_the_supplement():
    # Seed found by search: the supplement's generator, m = 5, n = 20, f = 1,
    # reproduces its worked example. Two-sided: fully separated. One-sided,
    # Holm per side: the second-lowest algorithm's only small "worse" p-value
    # (against the lowest) is multiplied by m - 1 = 4 and is no longer
    # significant, so its interval becomes [4, 5] (the supplement's [1, 2]
    # with 1 = lowest).
    x = supplement_scores(38)
    two = rank_ci(x, method="id-wilcoxon-2s")
    one = rank_ci(x, method="id-wilcoxon-1s")
    assert intervals(two) == [(5, 5), (4, 4), (3, 3), (2, 2), (1, 1)]
    assert intervals(one) == [(5, 5), (4, 5), (3, 3), (2, 2), (1, 1)]
    # the same numbers from scipy + statsmodels
    assert intervals(two) == expected_wilcoxon_intervals(x, sided="two")
    assert intervals(one) == expected_wilcoxon_intervals(x, sided="one")

    # the mechanism: alg1's row has four small "better" p-values, so alg2's is
    # multiplied by 1 and alg1 sees alg2 as better; alg2's row has a single
    # small "worse" p-value (alg1's), multiplied by 4, so alg2 does not see
    # alg1 as worse. Per-row families make the decisions asymmetric.
    assert one.better.loc["alg1", "alg2"]
    assert not one.worse.loc["alg2", "alg1"]
    assert two.worse.loc["alg2", "alg1"]
    raw = stats.wilcoxon(x["alg1"], x["alg2"], alternative="less").pvalue
    assert raw < 0.05
    assert one.pvalues_worse.loc["alg2", "alg1"] == pytest.approx(4 * raw)
    assert one.pvalues_worse.loc["alg2", "alg1"] >= 0.05
    assert one.pvalues.loc["alg1", "alg2"] == pytest.approx(raw)


def test_worked_example_at_the_top_of_the_ranking():
    # Reversed direction: alg1 is now the best. The runner-up gets [1, 2] from
    # the one-sided procedure but [2, 2] from the two-sided one; the best
    # keeps [1, 1] with both (its "worse" side holds four small p-values).
    x = supplement_scores(38)
    two = rank_ci(x, method="id-wilcoxon-2s", higher_is_better=False)
    one = rank_ci(x, method="id-wilcoxon-1s", higher_is_better=False)
    assert intervals(two) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
    assert intervals(one) == [(1, 1), (1, 2), (3, 3), (4, 4), (5, 5)]


# ------------------------------------------------------------ pairwise evidence


@pytest.fixture
def mixed():
    """Moderate separation: some pairs significant, some not (no ties)."""
    return supplement_scores(7, m=5, n=20, f=0.5)


def test_two_sided_pvalues_are_scipy_wilcoxon_holm_adjusted_per_row(mixed):
    res = rank_ci(mixed, method="id-wilcoxon-2s")
    assert res.omnibus_rejected
    names = list(mixed.columns)
    for a in names:
        others = [b for b in names if b != a]
        # scipy's defaults: zero_method="wilcox", exact for n <= 50 without ties
        raw = [stats.wilcoxon(mixed[a], mixed[b]).pvalue for b in others]
        adjusted = multipletests(raw, method="holm")[1]
        np.testing.assert_allclose(
            res.pvalues.loc[a, others].to_numpy(), adjusted, rtol=1e-10
        )
    assert res.pvalues_worse.equals(res.pvalues)
    assert intervals(res) == expected_wilcoxon_intervals(mixed, sided="two")
    # some pairs are undecided, so the test is not trivial
    assert res.better.to_numpy().any()
    assert (res.upper > res.lower).any()


def test_one_sided_pvalues_are_scipy_wilcoxon_holm_per_row_and_side(mixed):
    res = rank_ci(mixed, method="id-wilcoxon-1s")
    names = list(mixed.columns)
    for a in names:
        others = [b for b in names if b != a]
        greater = [
            stats.wilcoxon(mixed[b], mixed[a], alternative="greater").pvalue
            for b in others
        ]
        less = [
            stats.wilcoxon(mixed[b], mixed[a], alternative="less").pvalue
            for b in others
        ]
        np.testing.assert_allclose(
            res.pvalues.loc[a, others].to_numpy(),
            multipletests(greater, method="holm")[1],
            rtol=1e-10,
        )
        np.testing.assert_allclose(
            res.pvalues_worse.loc[a, others].to_numpy(),
            multipletests(less, method="holm")[1],
            rtol=1e-10,
        )
    assert intervals(res) == expected_wilcoxon_intervals(mixed, sided="one")


def test_iman_davenport_pvalue_from_scipy(mixed):
    n, k = mixed.shape
    chi2 = stats.friedmanchisquare(*mixed.to_numpy().T).statistic  # no ties
    f_stat = (n - 1) * chi2 / (n * (k - 1) - chi2)
    expected = stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1))
    for method in ("id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s"):
        res = rank_ci(mixed, method=method)
        assert res.omnibus_pvalue == pytest.approx(expected, rel=1e-10)


def test_nemenyi_pvalues_from_the_studentized_range(mixed):
    res = rank_ci(mixed, method="id-nemenyi")
    n, m = mixed.shape
    ranks = stats.rankdata(-mixed.to_numpy(), axis=1).mean(axis=0)
    se = np.sqrt(m * (m + 1) / (6 * n))
    for i, a in enumerate(mixed.columns):
        for j, b in enumerate(mixed.columns):
            if i == j:
                continue
            y = np.sqrt(2) * abs(ranks[i] - ranks[j]) / se
            p = stats.studentized_range.sf(y, m, np.inf)
            assert res.pvalues.loc[a, b] == pytest.approx(p, rel=1e-6)
            assert res.better.loc[a, b] == (p < 0.05 and ranks[j] < ranks[i])
    np.testing.assert_array_equal(res.worse.to_numpy(), res.better.to_numpy().T)


def test_tukey_pvalues_on_global_ranks(mixed):
    res = rank_ci(mixed, method="anova-tukey")
    x = mixed.to_numpy()
    ranks = stats.rankdata(x).reshape(x.shape)  # 1 = lowest score
    expected = stats.tukey_hsd(*ranks.T).pvalue
    off = ~np.eye(x.shape[1], dtype=bool)
    # the studentized range's tail is tabulated, accurate to 1e-9 absolute
    np.testing.assert_allclose(
        res.pvalues.to_numpy()[off], expected[off], rtol=1e-8, atol=1e-9
    )
    means = ranks.mean(axis=0)
    ahead = means[None, :] > means[:, None]
    np.testing.assert_array_equal(res.better.to_numpy(), (expected < 0.05) & ahead)
    # omnibus: the repeated-measures ANOVA on the same global ranks
    assert res.omnibus_pvalue == pytest.approx(
        nbstats.rm_anova(mixed, rank_transform=True).pvalue
    )


# ------------------------------------------------------- hand-made tiny tables


def test_bootstrap_tiny_cases():
    # huge gaps: every resample orders the algorithms the same way
    res = rank_ci(ordered_table(6, 3), method="bootstrap", random_state=1)
    assert intervals(res) == singletons_best_last(3)
    # two identical columns tie in every resample at rank 1.5, widened to [1, 2]
    x = pd.DataFrame({"A": [5.0, 6, 7, 8], "B": [5.0, 6, 7, 8], "C": [1.0, 2, 3, 4]})
    res = rank_ci(x, method="bootstrap", n_resamples=50, random_state=2)
    assert intervals(res) == [(1, 2), (1, 2), (3, 3)]
    assert res.n_resamples == 50
    assert res.pvalues is None and res.pvalues_worse is None
    assert not res.better.to_numpy().any() and not res.worse.to_numpy().any()
    assert math.isnan(res.omnibus_pvalue) and res.omnibus_rejected is None


def test_nemenyi_tiny_cases():
    # m = 3 perfectly ordered: mean ranks 1, 2, 3; neighbours give
    # Y = sqrt(2) * 1 / sqrt(3*4 / (6n)) = sqrt(n), extremes 2 sqrt(n);
    # q(3, inf, 0.05) = 3.314: sqrt(10) = 3.16 < q < sqrt(11) = 3.317.
    q = stats.studentized_range.ppf(0.95, 3, np.inf)
    assert math.sqrt(10) < q < math.sqrt(11)
    res = rank_ci(ordered_table(11, 3), method="id-nemenyi")
    assert intervals(res) == [(3, 3), (2, 2), (1, 1)]
    res = rank_ci(ordered_table(10, 3), method="id-nemenyi")
    assert res.omnibus_pvalue == 0.0  # F_F is infinite
    assert intervals(res) == [(2, 3), (1, 3), (1, 2)]


def test_two_sided_wilcoxon_tiny_cases():
    # m = 3 perfectly ordered over n cases: every pair has all n differences of
    # one sign, two-sided exact p = 2 / 2**n; Holm multiplies the smaller of
    # each row's two (equal) p-values by 2.
    res = rank_ci(ordered_table(6, 3), method="id-wilcoxon-2s")
    # 2 * 2/64 = 1/16 > 0.05: nothing is significant
    assert intervals(res) == [(1, 3)] * 3
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(res.pvalues.to_numpy()[off], 1 / 16)
    res = rank_ci(ordered_table(7, 3), method="id-wilcoxon-2s")
    # 2 * 2/128 = 1/32 < 0.05: everything is
    assert intervals(res) == [(3, 3), (2, 2), (1, 1)]


def test_one_sided_wilcoxon_tiny_cases():
    # one-sided exact p = 1 / 2**n on the side of the difference, 1 on the
    # other; each row and side holds at most two small p-values.
    res = rank_ci(ordered_table(6, 3), method="id-wilcoxon-1s")
    # 2 * 1/64 = 1/32 < 0.05: fully separated where two-sided found nothing
    assert intervals(res) == [(3, 3), (2, 2), (1, 1)]
    # the best (alg3) has no better algorithm: its "better" p-values are 1
    np.testing.assert_allclose(res.pvalues.loc["alg3", ["alg1", "alg2"]], 1.0)
    np.testing.assert_allclose(res.pvalues_worse.loc["alg3", ["alg1", "alg2"]], 1 / 32)
    # middle: one small p-value on each side, multiplied by 2 (Holm over the
    # side's two p-values, the other being 1)
    assert res.pvalues.loc["alg2", "alg3"] == pytest.approx(1 / 32)
    assert res.pvalues_worse.loc["alg2", "alg1"] == pytest.approx(1 / 32)
    res = rank_ci(ordered_table(5, 3), method="id-wilcoxon-1s")
    # 2 * 1/32 = 1/16 > 0.05
    assert intervals(res) == [(1, 3)] * 3


def test_anova_tukey_tiny_cases():
    # disjoint bands: global ranks A 1-3, B 4-6, C 7-9, additive in case and
    # algorithm, so the rank ANOVA has no error (F infinite, p = 0). Tukey:
    # means 2, 5, 8, pooled variance 1 on 6 df, q = 3 / sqrt(1/3) for
    # neighbours.
    x = pd.DataFrame({"A": [1.0, 2, 3], "B": [11.0, 12, 13], "C": [21.0, 22, 23]})
    p_neighbours = stats.studentized_range.sf(3 / math.sqrt(1 / 3), 3, 6)
    assert p_neighbours < 0.05
    res = rank_ci(x, method="anova-tukey")
    assert res.omnibus_pvalue == 0.0
    assert intervals(res) == [(3, 3), (2, 2), (1, 1)]
    assert res.pvalues.loc["A", "B"] == pytest.approx(p_neighbours, rel=1e-6)
    # interleaved: global ranks A 1,4,7; B 2,5,8; C 3,6,9 — still additive, so
    # the rank ANOVA rejects, but Tukey ignores the pairing: means 4, 5, 6 with
    # pooled variance 9, q = 2 / sqrt(3) at most, nothing significant.
    x = pd.DataFrame({"A": [1.0, 5, 9], "B": [2.0, 6, 10], "C": [3.0, 7, 11]})
    res = rank_ci(x, method="anova-tukey")
    assert res.omnibus_rejected
    assert stats.studentized_range.sf(2 / math.sqrt(3), 3, 6) > 0.05
    assert intervals(res) == [(1, 3)] * 3


def test_anova_tukey_constant_columns():
    # every column constant: Tukey's standard error is 0, any difference is
    # decisive (scipy's tukey_hsd would divide by zero)
    x = pd.DataFrame({"A": [1.0] * 4, "B": [2.0] * 4, "C": [2.0] * 4})
    res = rank_ci(x, method="anova-tukey")
    assert intervals(res) == [(3, 3), (1, 2), (1, 2)]


# ------------------------------------------------------ omnibus not rejected


@pytest.fixture
def latin_square():
    """4 algorithms, 8 cases: each algorithm takes each within-case rank twice.

    Friedman's mean ranks are all equal (χ²_F = 0) and so are the mean global
    ranks (rows are disjoint bands), so both omnibus tests give p = 1.
    """
    base = np.array([[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]], float)
    x = np.vstack([base, base]) + 10 * np.arange(8)[:, None]
    return pd.DataFrame(x, columns=list("ABCD"))


@pytest.mark.parametrize("method", TEST_METHODS)
def test_omnibus_not_rejected_gives_the_full_range(latin_square, method):
    res = rank_ci(latin_square, method=method)
    assert res.omnibus_pvalue == pytest.approx(1.0)
    assert res.omnibus_rejected is False
    assert intervals(res) == [(1, 4)] * 4
    assert res.pvalues is None and res.pvalues_worse is None
    assert not res.better.to_numpy().any() and not res.worse.to_numpy().any()


@pytest.mark.parametrize("method", TEST_METHODS)
def test_noise_only_gives_the_full_range(method):
    rng = np.random.default_rng(11)
    x = rng.normal(size=(30, 5)) + rng.normal(scale=5, size=(30, 1))
    res = rank_ci(x, method=method)
    assert res.omnibus_pvalue >= 0.05  # checked, so the test means something
    assert intervals(res) == [(1, 5)] * 5


# ------------------------------------------------------- perfectly separated


@pytest.mark.parametrize("method", RANK_CI_METHODS)
def test_perfect_separation_with_many_cases_gives_every_rank(method):
    m = 5
    n = max(40, nemenyi_min_cases(m))
    res = rank_ci(ordered_table(n, m), method=method, random_state=0)
    assert intervals(res) == singletons_best_last(m)
    if method != "bootstrap":
        assert res.omnibus_rejected
        # every ordered pair decided, in the right direction
        expected = np.triu(np.ones((m, m), dtype=bool), 1)  # later is better
        np.testing.assert_array_equal(res.better.to_numpy(), expected)
        np.testing.assert_array_equal(res.worse.to_numpy(), expected.T)


# ---------------------------------------------------------------- properties


def random_tables():
    rng = np.random.default_rng(2025)
    for _ in range(12):
        n = int(rng.integers(3, 25))
        m = int(rng.integers(2, 7))
        shift = rng.uniform(0, 1.5) * np.arange(m)
        x = rng.normal(size=(n, m)) + shift[rng.permutation(m)]
        if rng.uniform() < 0.3:  # ties within and across cases
            x = np.round(x)
        yield x


@pytest.mark.parametrize("method", RANK_CI_METHODS)
def test_intervals_are_ordered_and_within_range(method):
    for x in random_tables():
        m = x.shape[1]
        res = rank_ci(x, method=method, n_resamples=200, random_state=5)
        lower, upper = res.lower.to_numpy(), res.upper.to_numpy()
        assert res.lower.dtype == np.int64 and res.upper.dtype == np.int64
        assert (lower >= 1).all() and (upper <= m).all() and (lower <= upper).all()
        better, worse = res.better.to_numpy(), res.worse.to_numpy()
        assert not (better & better.T).any()
        assert not np.diag(better).any() and not np.diag(worse).any()
        if method != "bootstrap":
            np.testing.assert_array_equal(lower, 1 + better.sum(axis=1))
            np.testing.assert_array_equal(upper, m - worse.sum(axis=1))
        if method in ("id-nemenyi", "anova-tukey"):
            np.testing.assert_array_equal(worse, better.T)
        pd.testing.assert_series_equal(
            res.mean_ranks,
            nbstats.mean_ranks(x).rename_axis("algorithm"),
        )


@pytest.mark.parametrize("method", RANK_CI_METHODS)
def test_lower_is_better_equals_negated_scores(method):
    for x in random_tables():
        kwargs = {"method": method, "n_resamples": 100, "random_state": 3}
        assert rank_ci(x, higher_is_better=False, **kwargs) == rank_ci(-x, **kwargs)


def test_supplement_convention_is_the_mirror_image():
    # the supplement's interval [L, U] (1 = lowest score) is [m+1-U, m+1-L]
    # here: ranking by "lower is better" reproduces the supplement's ranks.
    # (Not the bootstrap draw by draw: it draws from the rows sorted by their
    # oriented scores, so the other orientation draws other cases.)
    x = supplement_scores(7, f=0.5)
    m = x.shape[1]
    for method in TEST_METHODS:
        ours = rank_ci(x, method=method)
        theirs = rank_ci(x, method=method, higher_is_better=False)
        np.testing.assert_array_equal(ours.lower, m + 1 - theirs.upper.to_numpy())
        np.testing.assert_array_equal(ours.upper, m + 1 - theirs.lower.to_numpy())


# ---------------------------------------------------------------- bootstrap


def slow_bootstrap(x: np.ndarray, alpha: float, n_boot: int, seed: int):
    """One resample at a time, ranks counted by hand, percentiles by index.

    The documented draws: indices into the rows sorted by their scores (the
    columns of an array are named "0", "1", …: already in name order here).
    """
    n, m = x.shape
    assert m <= 10
    x = x[sorted(range(n), key=lambda i: tuple(x[i]))]
    rng = np.random.default_rng(seed_sequence(seed))
    resamples = rng.integers(0, n, size=(n_boot, n))
    ranks = np.empty((n_boot, m))
    for b in range(n_boot):
        totals = [sum(x[i, j] for i in resamples[b]) for j in range(m)]
        for j in range(m):
            ahead = sum(t > totals[j] for t in totals)
            tied = sum(t == totals[j] for t in totals) - 1
            ranks[b, j] = 1 + ahead + tied / 2  # 1 = best, average ties
    lower, upper = [], []
    for j in range(m):
        ordered = sorted(ranks[:, j])
        lo = ordered[math.floor(alpha / 2 * (n_boot - 1))]
        hi = ordered[math.ceil((1 - alpha / 2) * (n_boot - 1))]
        lower.append(math.floor(lo))
        upper.append(math.ceil(hi))
    return lower, upper


@pytest.mark.parametrize(("alpha", "n_boot", "seed"), [(0.1, 200, 8), (0.05, 301, 9)])
def test_bootstrap_matches_a_slow_loop(alpha, n_boot, seed):
    # small integers: exact sums, so ties between means are exact ties
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, size=(9, 4)).astype(float) + [0, 0, 1, 1]
    res = rank_ci(
        x, method="bootstrap", alpha=alpha, n_resamples=n_boot, random_state=seed
    )
    lower, upper = slow_bootstrap(x, alpha, n_boot, seed)
    assert res.lower.tolist() == lower
    assert res.upper.tolist() == upper
    assert (res.upper > res.lower).any()  # not a degenerate case


def test_bootstrap_is_deterministic_given_random_state():
    x = supplement_scores(3, f=0.25)
    a = rank_ci(x, method="bootstrap", random_state=42)
    b = rank_ci(x, method="bootstrap", random_state=42)
    assert a == b
    c = rank_ci(x, method="bootstrap", random_state=np.random.default_rng(42))
    d = rank_ci(x, method="bootstrap", random_state=np.random.default_rng(42))
    assert c == d
    assert a.n_resamples == 1000


def test_bootstrap_blocks_do_not_change_the_answer(monkeypatch):
    import nbstats.stats.ranking as ranking

    x = supplement_scores(5, f=0.25)
    whole = rank_ci(x, method="bootstrap", n_resamples=300, random_state=1)
    monkeypatch.setattr(ranking, "_BOOTSTRAP_BLOCK", x.size * 7)  # 7 per block
    assert rank_ci(x, method="bootstrap", n_resamples=300, random_state=1) == whole


# ---------------------------------------------------------------- bad input


@pytest.fixture
def small():
    return supplement_scores(1, m=3, n=8)


def test_unknown_method(small):
    with pytest.raises(ValueError, match="unknown method='nemenyi'.*bootstrap"):
        rank_ci(small, method="nemenyi")


@pytest.mark.parametrize("alpha", [0, 1, 1.5, -0.05, float("nan")])
def test_alpha_outside_unit_interval(small, alpha):
    with pytest.raises(
        ValueError,
        match=r"alpha must be a number in \(0, 1\), got .*; e\.g\. alpha=0\.05",
    ):
        rank_ci(small, alpha=alpha)


@pytest.mark.parametrize("alpha", ["0.05", True, None])
def test_alpha_not_a_number(small, alpha):
    with pytest.raises(TypeError, match="alpha must be a number"):
        rank_ci(small, alpha=alpha)


@pytest.mark.parametrize("n_boot", [0, -10])
def test_n_boot_below_one(small, n_boot):
    with pytest.raises(
        ValueError, match="n_resamples must be a whole number >= 1, got -?[0-9]+"
    ):
        rank_ci(small, method="bootstrap", n_resamples=n_boot)


@pytest.mark.parametrize("n_boot", [10.0, True, "100"])
def test_n_boot_not_an_integer(small, n_boot):
    with pytest.raises(
        TypeError, match=r"n_resamples must be a whole number \(int\), got"
    ):
        rank_ci(small, method="bootstrap", n_resamples=n_boot)


def test_missing_scores_follow_nan_policy(small):
    x = small.copy()
    x.iloc[2, 1] = np.nan
    with pytest.raises(ValueError, match="missing scores at"):
        rank_ci(x)
    with pytest.warns(UserWarning, match="dropped 1 of 8 cases"):
        res = rank_ci(x, nan_policy="omit")
    assert res.n_cases == 7
    with pytest.raises(ValueError, match="unknown nan_policy"):
        rank_ci(small, nan_policy="drop")


def test_fewer_than_two_algorithms(small):
    with pytest.raises(ValueError, match="at least 2 algorithms"):
        rank_ci(small[["alg1"]])


def test_other_bad_input(small):
    with pytest.raises(TypeError, match="higher_is_better must be True or False"):
        rank_ci(small, higher_is_better="no")
    with pytest.raises(TypeError, match="random_state"):
        rank_ci(small, method="bootstrap", random_state="seed")
    with pytest.raises(ValueError, match="at least 2 cases"):
        rank_ci(small.iloc[:1])


# ---------------------------------------------------------------- result object


def test_result_object(small):
    res = rank_ci(supplement_scores(38), method="id-wilcoxon-1s")
    assert isinstance(res, Result)
    with pytest.raises(TypeError):
        iter(res)  # attribute-only: no unpacking
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.alpha = 0.1
    frame = res.to_frame()
    assert list(frame.columns) == ["algorithm", "mean_rank", "lower", "upper"]
    assert frame["algorithm"].tolist() == ["alg5", "alg4", "alg3", "alg2", "alg1"]
    assert frame["mean_rank"].is_monotonic_increasing
    text = res.summary()
    assert "alg2 : [4, 5]" in text
    assert "alg5 : [1, 1]" in text
    assert "Iman–Davenport" in text
    assert repr(res) == text
    assert res.intervals()["alg2"] == (4, 5)
    assert res.n_algorithms == 5 and res.level == pytest.approx(0.95)


def test_names_are_escaped_in_html_and_latex():
    nasty = "<b>x_1 & 50%</b>"
    x = ordered_table(8, 3).rename(columns={"alg1": nasty})
    res = rank_ci(x, method="bootstrap", n_resamples=50, random_state=0)
    page = res._repr_html_()
    assert "&lt;b&gt;x_1 &amp; 50%&lt;/b&gt;" in page and nasty not in page
    latex = res.to_latex()
    assert r"x\_1 \& 50\%" in latex
    assert "resamples" in res.summary()


def test_wilcoxon_drops_zero_differences_like_scipy_default():
    # zero_method="wilcox" (scipy's default, the supplement's choice): the two
    # zero differences are dropped; "zsplit" would give a different p-value
    base = np.arange(12.0) * 10
    d = np.array([0, 0, 1, 2, -3, 4, 5, 6, 7, -8, 9, 10.0])
    x = pd.DataFrame({"A": base, "B": base + d, "C": base + 3 * d + 50})
    res = rank_ci(x, method="id-wilcoxon-2s")
    for a in "ABC":
        others = [b for b in "ABC" if b != a]
        raw = [stats.wilcoxon(x[b], x[a]).pvalue for b in others]
        np.testing.assert_allclose(
            res.pvalues.loc[a, others].to_numpy(),
            multipletests(raw, method="holm")[1],
            rtol=1e-10,
        )
    assert stats.wilcoxon(x["B"], x["A"]).pvalue == pytest.approx(0.10546875)


@pytest.mark.parametrize("method", RANK_CI_METHODS)
def test_rank_ci_at_the_edge_of_float64(method):
    # bootstrap means and mean differences of scores near 1.7e308 would
    # overflow without the exact rescaling
    table = nbstats.datasets.load("demsar2006")
    at_unit = rank_ci(table, method=method, random_state=0, n_resamples=200)
    at_edge = rank_ci(table * 2.0**1023, method=method, random_state=0, n_resamples=200)
    assert at_unit.intervals() == at_edge.intervals()
