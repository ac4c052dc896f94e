"""Hodges–Lehmann: the Walsh-average selection against the materialised sort,
the interval against R's wilcox.test(conf.int = TRUE) with each option, and
against the signed-rank tests it inverts.

R is given the differences as C99 hexadecimal floats (bit-identical, ties and
zeros kept) and prints with %.17g. In R's approximate branch the interval ends
and the estimate are roots found by ``uniroot`` to ``tol.root``: the scripts
pass ``tol.root = 1e-12`` so that the roots sit on the jumps of R's step
function (the Walsh averages) to ~1e-12; one test keeps R's default 1e-4 and
checks agreement to that tolerance.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import nbstats
from nbstats.stats.effect_size import hodges_lehmann
from nbstats.stats.frequentist.walsh_order import walsh_order_statistics
from nbstats.stats.frequentist.wilcoxon import EXACT_LIMIT_N


def _walsh_sorted(d: np.ndarray) -> np.ndarray:
    """The old, quadratic definition: every average formed and sorted."""
    half = np.asarray(d, dtype=float) / 2
    i, j = np.triu_indices(half.size)
    return np.sort(half[i] + half[j])


def _samples(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 70))
    return [
        rng.normal(0.2, 1, n),
        rng.integers(-3, 4, n).astype(float),  # ties and zeros
        np.round(rng.normal(0, 1, n), 1),
        rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, n),  # rounding
        np.full(n, 2.5),
        rng.choice([-1e308, 1e308, 0.0, 1e-300], n),  # extremes, no overflow
    ]


@pytest.mark.parametrize("seed", range(40))
def test_selection_equals_the_sorted_averages_bit_for_bit(seed):
    rng = np.random.default_rng(100 + seed)
    for d in _samples(seed):
        w = _walsh_sorted(d)
        ranks = np.unique(np.r_[rng.integers(1, w.size + 1, 12), 1, w.size])
        ranks = np.unique(np.r_[ranks, np.minimum(ranks + 1, w.size)])  # neighbours
        for cap in (1, 6, None):  # small caps force the pivot rounds
            got = walsh_order_statistics(d, ranks, materialize=cap)
            np.testing.assert_array_equal(got, w[ranks - 1])


def test_every_rank_of_small_samples_through_the_pivot_rounds():
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 9, 20):
        for d in (rng.normal(size=n), rng.integers(-2, 3, n).astype(float)):
            w = _walsh_sorted(d)
            ranks = np.arange(1, w.size + 1)
            together = walsh_order_statistics(d, ranks, materialize=2)  # "next"
            np.testing.assert_array_equal(together, w)
            alone = [walsh_order_statistics(d, k, materialize=2)[0] for k in ranks]
            np.testing.assert_array_equal(alone, w)


def test_selection_at_a_size_where_the_averages_are_known():
    """d = a permutation of 1 … n: the k-th smallest sum i + j (i ≤ j) is the
    smallest s with #{i ≤ j: i + j ≤ s} ≥ k, counted in closed form."""
    n = 30_000
    d = np.random.default_rng(0).permutation(np.arange(1.0, n + 1))
    i = np.arange(1, n + 1)

    def count(s: int) -> int:  # pairs i ≤ j ≤ n with j ≤ s − i
        return int(np.maximum(np.minimum(n, s - i) - i + 1, 0).sum())

    total = n * (n + 1) // 2
    ranks = [1, 2, 1000, total // 3, total // 2, total // 2 + 1, total - 5, total]
    got = walsh_order_statistics(d, ranks)
    for k, value in zip(ranks, got, strict=True):
        lo, hi = 2, 2 * n
        while lo < hi:
            mid = (lo + hi) // 2
            lo, hi = (mid + 1, hi) if count(mid) < k else (lo, mid)
        assert value == lo / 2, k


def test_selection_rejects_ranks_outside():
    with pytest.raises(ValueError, match="ranks must lie in 1 … 6"):
        walsh_order_statistics(np.array([1.0, 2.0, 3.0]), [0])


@pytest.mark.parametrize("seed", range(6))
def test_estimate_is_the_median_of_the_averages(seed):
    for d in _samples(seed):
        for zero_method in ("zsplit", "wilcox"):
            used = d[d != 0] if zero_method == "wilcox" else d
            if used.size == 0:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # unreachable levels
                res = hodges_lehmann(d, zero_method=zero_method)
            assert res.estimate == float(np.median(_walsh_sorted(used)))


def _r_case(d: np.ndarray, *, exact: str, correct: bool, level: float, tol: float):
    vector = "c(" + ", ".join(float(v).hex() for v in d) + ")"
    return (
        f"{{w <- suppressWarnings(wilcox.test({vector}, conf.int = TRUE, "
        f"exact = {exact}, correct = {'TRUE' if correct else 'FALSE'}, "
        f"conf.level = {level}, tol.root = {tol})); "
        "c(w$estimate, w$conf.int, attr(w$conf.int, 'conf.level'))}"
    )


def _run_cases(run_r, cases, **options) -> np.ndarray:
    script = (
        'num <- function(x) sprintf("%.17g", x)\n'
        f"out <- c({', '.join(_r_case(d, **options) for d in cases)})\n"
        'cat(paste0("[", paste(num(out), collapse = ","), "]"))\n'
    )
    return np.array(run_r(script), dtype=float).reshape(-1, 4)


def _cases() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(11)
    zeros = np.round(rng.normal(0.03, 0.02, 40), 4)
    zeros[:6] = 0.0
    small_ties = np.array([0.5, 1.0, 1.0, -0.5, 2.0])
    return {
        "n<50, no ties": rng.normal(0.2, 1, 23),
        "n=49": rng.normal(0.1, 1, 49),
        "n=50": rng.normal(0.1, 1, 50),
        "n>=50": rng.normal(0.3, 1, 140),
        "ties": np.round(rng.normal(0.2, 1, 35), 1),
        "zeros": zeros,
        "small, ties (alpha doubled)": small_ties,
        "|d| ties only": np.array([-1.0, 1.0, 2.5, 3.0, -0.7, 4.0, 0.2, 1.7]),
    }


@pytest.mark.r_oracle
@pytest.mark.parametrize("correct", [True, False])
@pytest.mark.parametrize("level", [0.95, 0.8])
def test_r_defaults_with_zeros_dropped(run_r, correct, level):
    """R's exact = NULL rule is interval_method="auto"; R drops zeros."""
    cases = _cases()
    r = _run_cases(
        run_r,
        list(cases.values()),
        exact="NULL",
        correct=correct,
        level=level,
        tol=1e-12,
    )
    for (name, d), (estimate, low, high, r_level) in zip(cases.items(), r, strict=True):
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            res = nbstats.effect_size(
                np.zeros(d.size),
                d,
                effect="hodges-lehmann",
                zero_method="wilcox",
                correction=correct,
                level=level,
            )
        _assert_like_r(name, d[d != 0], res, estimate, low, high, r_level)


def _assert_like_r(name, used, res, estimate, low, high, r_level):
    assert res.confidence_interval == pytest.approx((low, high), abs=1e-9), name
    if res.interval_method == "exact":
        assert res.value == estimate, name
    else:
        # R's estimate is a root of a step function: the median when N is
        # odd, any point between the middle two averages when N is even
        w = _walsh_sorted(used)
        middle = w[(w.size - 1) // 2], w[w.size // 2]
        assert middle[0] - 1e-9 <= estimate <= middle[1] + 1e-9, name
        if w.size % 2:
            assert res.value == pytest.approx(estimate, abs=1e-9), name
    assert res.level == pytest.approx(r_level, abs=1e-12) or (
        res.interval_method == "exact"  # R keeps the asked level unless far off
    ), name


@pytest.mark.r_oracle
@pytest.mark.parametrize("correct", [True, False])
def test_r_exact_and_approx_forced(run_r, correct):
    """R's exact = TRUE is interval_method="exact" (no ties, no zeros: R only
    computes it then); exact = FALSE is "approx"."""
    cases = {k: v for k, v in _cases().items() if "ties" not in k and k != "zeros"}
    for exact, method in (("TRUE", "exact"), ("FALSE", "approx")):
        r = _run_cases(
            run_r,
            list(cases.values()),
            exact=exact,
            correct=correct,
            level=0.9,
            tol=1e-12,
        )
        for (name, d), (estimate, low, high, r_level) in zip(
            cases.items(), r, strict=True
        ):
            res = nbstats.effect_size(
                np.zeros(d.size),
                d,
                effect="hodges-lehmann",
                interval_method=method,
                correction=correct,
                level=0.9,
            )
            assert res.interval_method == method
            _assert_like_r(name, d, res, estimate, low, high, r_level)


@pytest.mark.r_oracle
def test_r_default_tolerance(run_r):
    """At R's default tol.root = 1e-4 the roots are within 1e-4 of ours."""
    cases = _cases()
    r = _run_cases(
        run_r, list(cases.values()), exact="NULL", correct=True, level=0.95, tol=1e-4
    )
    for (name, d), (estimate, low, high, _) in zip(cases.items(), r, strict=True):
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            res = hodges_lehmann(d, zero_method="wilcox", correction=True)
        assert res.interval == pytest.approx((low, high), abs=1e-4), name
        if res.method == "exact" or (res.n_cases * (res.n_cases + 1) // 2) % 2:
            assert res.estimate == pytest.approx(estimate, abs=1e-4), name


def test_the_audits_zero_case_moves_with_zero_method():
    """Zeros kept (the default) vs dropped (R): different estimates, both
    the median of their own Walsh averages."""
    d = np.array([0.0, 0.0, 0.0349, 0.0258, 0.0444, 0.0301, 0.041, 0.0122])
    kept = nbstats.effect_size(np.zeros(8), d, effect="hodges-lehmann")
    dropped = nbstats.effect_size(
        np.zeros(8), d, effect="hodges-lehmann", zero_method="wilcox"
    )
    assert kept.value == float(np.median(_walsh_sorted(d)))
    assert dropped.value == float(np.median(_walsh_sorted(d[d != 0])))
    assert dropped.value > kept.value
    assert kept.n_zero == dropped.n_zero == 2
    assert "2 zero differences dropped" in repr(dropped)
    assert "2 zero differences kept" in repr(kept)


@pytest.mark.parametrize("correction", [False, True])
@pytest.mark.parametrize("method", ["exact", "approx"])
def test_interval_inverts_nbstats_wilcoxon(method, correction):
    """θ strictly inside the interval: the two-sided test of d − θ does not
    reject at 1 − level; just outside it does (θ between Walsh averages)."""
    rng = np.random.default_rng(5)
    d = rng.normal(0.4, 1, 30 if method == "exact" else 120)
    if method == "approx":  # tied values (the tie-corrected variance) and
        d = np.round(d * 8) / 8  # zeros, on a grid where every sum is exact
    level = 0.9
    res = hodges_lehmann(
        d, level, zero_method="wilcox", interval_method=method, correction=correction
    )
    d = d[d != 0]  # zero_method="wilcox"
    w = np.unique(_walsh_sorted(d))
    low, high = res.interval
    at_low, at_high = np.searchsorted(w, low), np.searchsorted(w, high)
    inside = [(w[at_low] + w[at_low + 1]) / 2, (w[at_high - 1] + w[at_high]) / 2]
    outside = [(w[at_low - 1] + w[at_low]) / 2, (w[at_high] + w[at_high + 1]) / 2]
    test_method = "exact" if method == "exact" else "approx"

    def pvalue(theta):
        return nbstats.wilcoxon(
            np.zeros(d.size), d - theta, method=test_method, correction=correction
        ).pvalue

    alpha = 1 - level
    assert all(pvalue(t) > alpha for t in inside)
    assert all(pvalue(t) <= alpha for t in outside)


def test_exact_interval_with_zeros_kept_is_the_exact_inversion():
    d = np.array([0.0, 1.3, -0.4, 2.2, 0.9, 1.7, 3.1, -1.2, 0.5, 2.6])
    res = hodges_lehmann(d, 0.9, interval_method="exact")
    w = _walsh_sorted(d)
    k, upper = res.order
    assert res.interval == (w[k - 1], w[upper - 1])
    # k = R's qsignrank(0.05, 10) = 11: P(T+ <= 10) < 0.05 <= P(T+ <= 11)
    assert k == 11
    assert upper == w.size - k + 1


def test_unreachable_level_is_said_and_lowered():
    with pytest.warns(UserWarning, match="has level 0.9375"):
        res = nbstats.effect_size(
            np.zeros(5), [1.0, 2.0, 4.0, -0.5, 3.0], effect="hodges-lehmann"
        )
    assert res.level == 1 - 2 / 2**5
    assert res.confidence_interval == (-0.5, 4.0)


def test_bad_options_are_named():
    d = np.array([1.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="distinct differences.*'approx'"):
        hodges_lehmann(d, interval_method="exact")
    big = np.arange(1.0, EXACT_LIMIT_N + 2)
    with pytest.raises(ValueError, match=f"above {EXACT_LIMIT_N}.*'approx'"):
        hodges_lehmann(big, interval_method="exact")
    with pytest.raises(ValueError, match="every difference is zero"):
        hodges_lehmann(np.zeros(4), zero_method="wilcox")
    with pytest.raises(ValueError, match="only applies to effect='hodges-lehmann'"):
        nbstats.effect_size([1, 2], [2, 3], effect="cliff", interval_method="exact")
    with pytest.raises(ValueError, match="interval_method"):
        nbstats.effect_size(
            [1, 2], [2, 3], effect="hodges-lehmann", interval_method="normal"
        )
    with pytest.raises(
        ValueError, match=r"level must be a number in \(0, 1\), got 1\.0"
    ):
        hodges_lehmann(np.arange(1.0, 9), 1.0)
    assert hodges_lehmann(np.zeros(4)).estimate == 0.0


def test_large_n_has_a_finite_interval_around_the_estimate():
    rng = np.random.default_rng(2)
    d = rng.normal(0.05, 1, 200_000)
    res = hodges_lehmann(d)
    assert res.method == "approx"
    low, high = res.interval
    assert low < res.estimate < high
    # the approximate half-width of the HL interval: z σ_d √(π/3) / √n
    half = 1.959963984540054 * math.sqrt(math.pi / 3 / d.size)
    assert (high - low) / 2 == pytest.approx(half, rel=0.05)


def test_every_difference_equal():
    """R: estimate c (its "midrange"), interval NaN; nbstats: (c, c), every
    Walsh average being c."""
    res = hodges_lehmann(np.full(60, 2.5))
    assert res.estimate == 2.5
    assert res.interval == (2.5, 2.5)
    assert res.method == "approx"
