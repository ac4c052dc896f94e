"""Effect sizes against brute force, scipy and R's wilcox.test(conf.int=TRUE)."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.stats.effect_size import cliffs_delta, magnitude


def _brute_delta(a, b):
    greater = sum(y > x for x, y in itertools.product(a, b))
    less = sum(y < x for x, y in itertools.product(a, b))
    return (greater - less) / (len(a) * len(b))


@pytest.mark.parametrize("seed", range(5))
def test_cliff_and_vargha_delaney_equal_brute_force(seed):
    rng = np.random.default_rng(seed)
    a = np.round(rng.normal(0, 1, 25), 1)  # rounding makes ties
    b = np.round(rng.normal(0.4, 1, 25), 1)
    delta = _brute_delta(a, b)
    assert cliffs_delta(a, b) == pytest.approx(delta, abs=1e-15)
    cliff = nbstats.effect_size(a, b, effect="cliff")
    assert cliff.value == pytest.approx(delta, abs=1e-15)
    vd = nbstats.effect_size(a, b, effect="vargha-delaney")
    ties = sum(x == y for x, y in itertools.product(a, b))
    wins = sum(y > x for x, y in itertools.product(a, b))
    assert vd.value == pytest.approx((wins + ties / 2) / 625, abs=1e-15)
    lower = nbstats.effect_size(a, b, effect="cliff", higher_is_better=False)
    assert lower.value == pytest.approx(-delta, abs=1e-15)


def test_cohen_and_hedges():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0, 1, 20), rng.normal(0.5, 1, 20)
    d = b - a
    dz = d.mean() / d.std(ddof=1)
    res = nbstats.effect_size(a, b, effect="cohen-d")
    assert res.value == pytest.approx(dz, rel=1e-12)
    # d_z is the paired t statistic over sqrt(n)
    assert res.value == pytest.approx(stats.ttest_rel(b, a).statistic / math.sqrt(20))
    g = nbstats.effect_size(a, b, effect="hedges-g")
    assert g.value == pytest.approx(dz * (1 - 3 / (4 * 19 - 1)), rel=1e-12)
    for factor in (1e-300, 1e300):
        scaled = nbstats.effect_size(a * factor, b * factor, effect="cohen-d")
        assert scaled.value == pytest.approx(dz, rel=1e-12)


def test_rank_biserial_is_demsars_table_2(table2):
    res = nbstats.effect_size(table2["C4.5"], table2["C4.5+m"], effect="rank-biserial")
    assert res.value == pytest.approx((93 - 12) / 105)
    assert res.magnitude == "large"
    wilcoxon = nbstats.wilcoxon(table2["C4.5"], table2["C4.5+m"])
    assert res.value == pytest.approx(wilcoxon.effect_size)


def _brute_rank_biserial(d: np.ndarray) -> float:
    """Every pair of cases (i, j), i ≤ j, with d_i + d_j > 0 counts +1 and
    < 0 counts −1 (= 0: nothing), over n(n+1)/2: the Walsh-average form of
    the matched-pairs rank-biserial r (Kerby 2014), zsplit by construction."""
    n = d.size
    if n == 0:
        return 0.0
    sums = [d[i] + d[j] for i in range(n) for j in range(i, n)]
    return (sum(x > 0 for x in sums) - sum(x < 0 for x in sums)) / len(sums)


@pytest.mark.parametrize("seed", range(6))
def test_rank_biserial_of_many_pairs_at_once(seed):
    """The post-hoc and Bayesian pair tables compute every pair's r in one
    ranking; each column must be its own r, on its own cases."""
    from nbstats.stats.effect_size import rank_biserial_columns

    rng = np.random.default_rng(seed)
    n, k = 12, 9
    # distinct magnitudes, no two |d| equal: the Walsh form is then exact
    d = rng.permutation(np.arange(1, n * k + 1)).reshape(n, k) / 7.0
    d *= rng.choice([-1.0, 1.0], size=(n, k))
    d[rng.random((n, k)) < 0.25] = np.nan
    got = rank_biserial_columns(d)
    for j in range(k):
        column = d[:, j][~np.isnan(d[:, j])]
        assert got[j] == pytest.approx(_brute_rank_biserial(column), abs=1e-12)
        assert (
            got[j]
            == nbstats.effect_size(
                np.zeros(column.size), column, effect="rank-biserial"
            ).value
        )
    with pytest.raises(ValueError, match="cases × pairs"):
        rank_biserial_columns(np.ones(3))


@pytest.mark.parametrize(
    ("kind", "value", "word"),
    [
        ("cliff", 0.1, "negligible"),
        ("cliff", -0.2, "small"),
        ("cliff", 0.4, "medium"),
        ("cliff", 0.5, "large"),
        ("vargha-delaney", 0.55, "negligible"),
        ("vargha-delaney", 0.37, "small"),
        ("vargha-delaney", 0.70, "medium"),
        ("vargha-delaney", 0.29, "large"),
        ("cohen-d", 0.1, "negligible"),
        ("cohen-d", -0.79, "medium"),
        ("hodges-lehmann", 5.0, None),
    ],
)
def test_magnitude_words(kind, value, word):
    assert magnitude(kind, value) == word


def _walsh_brute(d):
    return sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))


def test_hodges_lehmann_estimate_is_the_median_of_walsh_averages():
    rng = np.random.default_rng(3)
    d = rng.normal(0.3, 1, 17)
    res = nbstats.effect_size(np.zeros(17), d, effect="hodges-lehmann")
    assert res.value == pytest.approx(float(np.median(_walsh_brute(d))))
    assert res.magnitude is None


def test_hodges_lehmann_interval_equals_r(run_r):
    """Exact case (n <= 50, no ties, no zeros): R's order statistics."""
    rng = np.random.default_rng(7)
    cases = [rng.normal(0.2, 1, n) for n in (5, 9, 14, 30, 50)]
    cases.append(nbstats.datasets.load("demsar2006_table2").pipe(
        lambda t: (t["C4.5+m"] - t["C4.5"]).to_numpy()
    ))  # fmt: skip
    for level in (0.95, 0.9):
        exprs = []
        for d in cases:
            vector = "c(" + ", ".join(float(v).hex() for v in d) + ")"
            exprs.append(
                f"{{w <- suppressWarnings(wilcox.test({vector}, conf.int = TRUE, "
                f"conf.level = {level}, exact = TRUE)); "
                "c(w$conf.int[1], w$conf.int[2])}"
            )
        script = (
            'num <- function(x) sprintf("%.17g", x)\n'
            f"out <- c({', '.join(exprs)})\n"
            'cat(paste0("[", paste(num(out), collapse = ","), "]"))\n'
        )
        values = np.array(run_r(script)).reshape(-1, 2)
        for d, (low, high) in zip(cases, values, strict=True):
            if np.unique(np.abs(d)).size < d.size or np.any(d == 0):
                continue  # R's exact interval needs no ties (checked below)
            with warnings.catch_warnings():  # n = 5 cannot reach 0.95
                warnings.simplefilter("ignore", UserWarning)
                res = nbstats.effect_size(
                    np.zeros(d.size),
                    d,
                    effect="hodges-lehmann",
                    level=level,
                    interval_method="exact",  # R's exact = TRUE (auto: n < 50)
                )
            assert res.interval_method == "exact"
            assert res.confidence_interval == pytest.approx((low, high), rel=1e-12)


def test_hodges_lehmann_normal_interval_is_the_order_statistic_formula():
    """Where R's uniroot on the standardised statistic jumps across ±z:
    k = N + 1 − ⌈N/2 + z σ⌉, σ² tie-corrected over groups of equal d."""
    rng = np.random.default_rng(9)
    d = np.round(rng.normal(0.1, 1, 80), 2)  # > 50 cases and ties: normal
    res = nbstats.effect_size(np.zeros(80), d, effect="hodges-lehmann")
    walsh = _walsh_brute(d)
    total = len(walsh)
    _, counts = np.unique(d, return_counts=True)
    assert counts.max() > 1
    sigma = math.sqrt(80 * 81 * 161 / 24 - np.sum(counts**3 - counts) / 48)
    k = total + 1 - math.ceil(total / 2 + 1.959963984540054 * sigma)
    assert res.interval_method == "approx"
    assert res.confidence_interval == (walsh[k - 1], walsh[total - k])
    assert res.confidence_interval[0] <= res.value <= res.confidence_interval[1]


def test_bad_input():
    with pytest.raises(ValueError, match="unknown effect"):
        nbstats.effect_size([1, 2], [2, 3], effect="glass")
    with pytest.raises(
        ValueError,
        match=r"level must be a number in \(0, 1\), got 1; e\.g\. level=0\.95",
    ):
        nbstats.effect_size([1, 2], [2, 3], effect="hodges-lehmann", level=1)
    with pytest.raises(ValueError, match="at least 3 cases"):
        nbstats.effect_size([1, 2], [2, 4], effect="hedges-g")
    with pytest.raises(ValueError, match="missing"):
        nbstats.effect_size([1, np.nan, 3], [2, 3, 4])


def test_missing_cells_are_dropped_in_pairs_on_request():
    a = np.array([1.0, np.nan, 3.0, 4.0])
    b = np.array([2.0, 5.0, 2.0, 6.0])
    with pytest.warns(UserWarning, match="dropped 1"):
        res = nbstats.effect_size(a, b, effect="cliff", nan_policy="omit")
    assert res.value == pytest.approx(_brute_delta([1, 3, 4], [2, 2, 6]))
    assert res.n_cases == 3


def test_result_renders():
    a = pd.Series([0.8, 0.82, 0.79, 0.9], name="RF <100 trees>")
    b = pd.Series([0.85, 0.83, 0.8, 0.95], name="GBM & co")
    with pytest.warns(UserWarning, match="cannot be reached with 4 differences"):
        res = nbstats.effect_size(a, b, effect="hodges-lehmann")
    assert "GBM &amp; co" in res._repr_html_()
    assert r"GBM \& co" in res.to_latex()
    assert "Hodges–Lehmann" in repr(res)
    assert res.to_frame().loc[0, "effect"] == "hodges-lehmann"
