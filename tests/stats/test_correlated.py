"""Correlated t-tests against baycomp, the Nadeau–Bengio formula and scipy."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.stats.correlated import fold_design
from tests.conftest import unavailable


@pytest.fixture(scope="module")
def baycomp():
    try:
        import baycomp
    except ImportError:
        unavailable("baycomp is not installed (pip install -e '.[test]')")
    return baycomp


@pytest.fixture(scope="module")
def uci_folds() -> pd.DataFrame:
    long = nbstats.datasets.load("uci_accuracy_folds")
    return long.pivot_table(
        index=["dataset", "fold"], columns="classifier", values="accuracy"
    )


def _nadeau_bengio(a, b, k):
    """The corrected resampled t statistic written out, independently."""
    d = np.asarray(b, float) - np.asarray(a, float)
    n = d.size
    mean = math.fsum(d) / n
    var = math.fsum((x - mean) ** 2 for x in d) / (n - 1)
    se = math.sqrt(var * (1 / n + 1 / (k - 1)))
    return mean / se, n - 1, mean, se


@pytest.mark.parametrize(("runs", "k"), [(1, 10), (10, 10), (3, 5), (5, 2)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_correlated_ttest_equals_the_formula(runs, k, seed):
    rng = np.random.default_rng(seed)
    a = rng.normal(0.8, 0.03, runs * k)
    b = a + rng.normal(0.005, 0.02, runs * k)
    t, df, mean, se = _nadeau_bengio(a, b, k)
    res = nbstats.correlated_ttest(a, b, runs=runs)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.df == df
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-10)
    half = stats.t.ppf(0.975, df) * se
    assert res.confidence_interval == pytest.approx((mean - half, mean + half))
    assert nbstats.correlated_ttest(a, b, folds=k).statistic == res.statistic
    greater = nbstats.correlated_ttest(a, b, runs=runs, alternative="greater")
    assert greater.pvalue == pytest.approx(stats.t.sf(t, df), rel=1e-10)
    assert greater.confidence_interval[1] == math.inf


def test_correlated_ttest_is_the_paired_ttest_with_a_larger_variance():
    """With ρ → 0 the correction vanishes: scipy's ttest_rel."""
    rng = np.random.default_rng(5)
    a, b = rng.normal(0, 1, 40), rng.normal(0.3, 1, 40)
    res = nbstats.correlated_ttest(a, b, test_fraction=1e-12)
    assert res.statistic == pytest.approx(stats.ttest_rel(b, a).statistic, rel=1e-9)


def test_lower_is_better_flips_the_sign():
    rng = np.random.default_rng(3)
    a, b = rng.normal(0, 1, 20), rng.normal(0.5, 1, 20)
    up = nbstats.correlated_ttest(a, b, folds=10)
    down = nbstats.correlated_ttest(a, b, folds=10, higher_is_better=False)
    assert down.statistic == pytest.approx(-up.statistic)
    bayes = nbstats.bayes_correlated_ttest(a, b, folds=10, higher_is_better=False)
    assert bayes.prob_left == pytest.approx(
        nbstats.bayes_correlated_ttest(a, b, folds=10).prob_right
    )


@pytest.mark.parametrize("rope", [0.0, 0.002, 0.01, 0.05])
@pytest.mark.parametrize(("runs", "k"), [(1, 10), (10, 10), (4, 5)])
def test_bayes_correlated_ttest_equals_baycomp_on_random_folds(baycomp, rope, runs, k):
    rng = np.random.default_rng(runs * 100 + k)
    for _ in range(5):
        a = rng.normal(0.8, 0.03, runs * k)
        b = a + rng.normal(rng.uniform(-0.02, 0.02), 0.02, runs * k)
        res = nbstats.bayes_correlated_ttest(a, b, rope=rope, runs=runs)
        expected = baycomp.CorrelatedTTest.probs(a, b, rope=rope, runs=runs)
        ours = (
            (res.prob_left, res.prob_right)
            if rope == 0
            else (res.prob_left, res.prob_rope, res.prob_right)
        )
        np.testing.assert_allclose(ours, expected, atol=1e-6)


def test_bayes_correlated_ttest_equals_baycomp_on_every_uci_data_set(
    baycomp, uci_folds
):
    """nbc vs aode, 10 runs of 10-fold CV, rope 0.01 — all 54 data sets."""
    compared = 0
    for dataset, block in uci_folds.groupby(level="dataset"):
        a, b = block["nbc"].to_numpy(), block["aode"].to_numpy()
        res = nbstats.bayes_correlated_ttest(a, b, rope=0.01, runs=10)
        expected = baycomp.CorrelatedTTest.probs(a, b, rope=0.01, runs=10)
        np.testing.assert_allclose(
            (res.prob_left, res.prob_rope, res.prob_right),
            expected,
            atol=1e-6,
            err_msg=dataset,
        )
        compared += 1
    assert compared == 54


def test_posterior_is_students_t_with_the_corrected_scale():
    rng = np.random.default_rng(11)
    a = rng.normal(0.7, 0.05, 50)
    b = a + rng.normal(0.01, 0.02, 50)
    res = nbstats.bayes_correlated_ttest(a, b, rope=0.005, folds=5)
    _, df, mean, se = _nadeau_bengio(a, b, 5)
    assert (res.df, res.mean, res.scale) == pytest.approx((df, mean, se))
    assert res.prob_right == pytest.approx(stats.t.sf((0.005 - mean) / se, df))
    low, high = res.credible_interval(0.9)
    assert (low, high) == pytest.approx(stats.t.interval(0.9, df, mean, se))
    total = res.prob_left + res.prob_rope + res.prob_right
    assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("shift", "rope", "decision"),
    [(0.05, 0.0, "b"), (-0.05, 0.0, "a"), (0.0, 0.5, "equivalent"), (0.0, 0.0, None)],
)
def test_decisions_use_the_vocabulary(shift, rope, decision):
    rng = np.random.default_rng(2)
    a = rng.normal(0.8, 0.01, 30)
    b = a + shift + rng.normal(0, 0.005, 30)
    res = nbstats.bayes_correlated_ttest(a, b, rope=rope, folds=10)
    if decision is None:  # centred noise: no region reaches 0.95
        assert res.decision == "undecided"
        # without a rope "undecided" never reads as "a better"
        assert "neither b nor a reaches the threshold" in repr(res)
    else:
        assert res.decision == decision
    assert "keep" not in repr(res)


def test_equal_differences_give_a_point_mass(baycomp):
    a = np.linspace(0.7, 0.8, 10)
    for shift, rope in [(0.0, 0.0), (0.0, 0.01), (0.02, 0.01), (-0.02, 0.0)]:
        res = nbstats.bayes_correlated_ttest(a, a + shift, rope=rope, folds=10)
        expected = baycomp.CorrelatedTTest.probs(a, a + shift, rope=rope, runs=1)
        ours = (
            (res.prob_left, res.prob_right)
            if rope == 0
            else (res.prob_left, res.prob_rope, res.prob_right)
        )
        # baycomp compares exact zero variance; a + shift - a is not exactly
        # constant in floating point, so compare with a tolerance on the mass
        np.testing.assert_allclose(ours, expected, atol=1e-6)
    zero = nbstats.correlated_ttest(a, a, folds=10)
    assert (zero.statistic, zero.pvalue) == (0.0, 1.0)
    same = nbstats.correlated_ttest(np.zeros(4), np.full(4, 0.5), folds=2)
    assert (same.statistic, same.pvalue) == (math.inf, 0.0)


@pytest.mark.parametrize("factor", [1e-300, 1e-150, 1e-6, 1e6, 1e150, 1e300])
def test_invariant_under_rescaling(factor):
    rng = np.random.default_rng(9)
    a = rng.normal(0.8, 0.03, 20)
    b = a + rng.normal(0.01, 0.02, 20)
    base = nbstats.correlated_ttest(a, b, folds=10)
    scaled = nbstats.correlated_ttest(a * factor, b * factor, folds=10)
    assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
    assert scaled.pvalue == pytest.approx(base.pvalue, rel=1e-10)
    assert scaled.mean_difference == pytest.approx(base.mean_difference * factor)
    bayes = nbstats.bayes_correlated_ttest(a, b, rope=0.01, folds=10)
    big = nbstats.bayes_correlated_ttest(
        a * factor, b * factor, rope=0.01 * factor, folds=10
    )
    for name in ("prob_left", "prob_rope", "prob_right"):
        assert getattr(big, name) == pytest.approx(getattr(bayes, name), abs=1e-12)


def test_overflowing_differences_are_refused():
    with pytest.raises(ValueError, match="overflow|finite"):
        nbstats.correlated_ttest([1e308, -1e308], [-1e308, 1e308], folds=2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "say how the fold scores were made"),
        ({"runs": 3}, "not a multiple of 3"),
        ({"runs": 10, "folds": 5}, "50 scores expected"),
        ({"folds": 1}, "at least 2"),
        ({"runs": 10}, "k-fold cross-validation needs k >= 2"),
        ({"folds": 2.5}, "whole number"),
        ({"runs": True}, "whole number"),
        ({"test_fraction": 1.0}, "strictly between 0 and 1"),
        ({"test_fraction": 0.2, "folds": 5}, "not both"),
    ],
)
def test_bad_designs_are_refused(kwargs, message):
    a, b = np.arange(10.0), np.arange(10.0)[::-1]
    with pytest.raises((ValueError, TypeError), match=message):
        nbstats.correlated_ttest(a, b, **kwargs)
    with pytest.raises((ValueError, TypeError), match=message):
        nbstats.bayes_correlated_ttest(a, b, **kwargs)


def test_other_bad_input():
    with pytest.raises(ValueError, match="at least 2"):
        nbstats.correlated_ttest([0.5], [0.6], test_fraction=0.1)
    with pytest.raises(ValueError, match="one score per case"):
        nbstats.correlated_ttest([0.5, 0.6], [0.6], folds=2)
    with pytest.raises(ValueError, match="rope"):
        nbstats.bayes_correlated_ttest([0.5, 0.6], [0.6, 0.7], folds=2, rope=-1)
    with pytest.raises(ValueError, match="level must lie"):
        nbstats.correlated_ttest([0.5, 0.6], [0.6, 0.7], folds=2, level=1)


def test_missing_folds_are_omitted_on_request():
    a = np.array([0.8, 0.82, np.nan, 0.81, 0.79, 0.8])
    b = np.array([0.82, 0.83, 0.8, 0.84, 0.8, 0.81])
    with pytest.raises(ValueError, match="missing|NaN"):
        nbstats.correlated_ttest(a, b, folds=3)
    with pytest.warns(UserWarning, match="dropped 1 of 6"):
        res = nbstats.correlated_ttest(a, b, runs=2, nan_policy="omit")
    keep = ~np.isnan(a)
    t, df, _, _ = _nadeau_bengio(a[keep], b[keep], 3)  # ρ of the design: 1/3
    assert (res.statistic, res.df, res.n_folds) == (pytest.approx(t), df, 5)


def test_design_is_described():
    assert fold_design(100, runs=10).describe() == (
        "10 × 10-fold cross-validation (ρ = 1/10)"
    )
    res = nbstats.correlated_ttest(np.zeros(10), np.arange(10.0), runs=2)
    assert "2 × 5-fold CV" in repr(res)
    assert "2 × 5-fold CV" in res._repr_html_()
    assert r"\begin{table}" in res.to_latex()


def test_results_render_and_plot(tmp_path):
    rng = np.random.default_rng(4)
    a = pd.Series(rng.normal(0.8, 0.02, 20), name="HistGradientBoosting(lr=0.05)")
    b = pd.Series(a.to_numpy() + 0.01, name="RandomForest & <co>")
    res = nbstats.bayes_correlated_ttest(a, b, rope=0.005, folds=10)
    html = res._repr_html_()
    assert "&lt;co&gt;" in html and "<co>" not in html
    assert r"\&" in res.to_latex()
    frame = res.to_frame()
    assert frame.loc[0, "decision"] == res.decision
    ax = res.plot()
    from nbstats import plots

    texts = plots.legend_texts(ax)
    assert any("P(rope ±0.005)" in text for text in texts)
    plots.save(ax, tmp_path / "posterior.png")
    assert (tmp_path / "posterior.png").stat().st_size > 1000
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


# -- the k × r structure (issue 34: 10 scores passed with folds=3, not runs=3)


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(2, 200),
    k=st.one_of(st.none(), st.integers(2, 25)),
    r=st.one_of(st.none(), st.integers(1, 25)),
)
def test_folds_and_runs_follow_one_rule(n, k, r):
    # r runs of k-fold cross-validation give exactly r × k scores: a design is
    # accepted exactly when some whole r and k >= 2 with r × k = n fit it
    if k is None and r is None:
        return
    if k is not None and r is not None:
        fits = k * r == n
    elif k is not None:
        fits = n % k == 0
    else:
        fits = n % r == 0 and n // r >= 2
    if not fits:
        with pytest.raises(ValueError, match="scores"):
            fold_design(n, folds=k, runs=r)
        return
    design = fold_design(n, folds=k, runs=r)
    assert design.folds * design.runs == n
    assert design.rho == 1 / design.folds
    # the same design, however it is named
    assert fold_design(n, folds=design.folds) == design
    assert fold_design(n, runs=design.runs) == design


def test_ten_scores_are_refused_with_folds_3_as_with_runs_3():
    a = np.linspace(0.8, 0.9, 10)
    b = a + np.linspace(-0.01, 0.03, 10)
    for design in ({"folds": 3}, {"runs": 3}):
        with pytest.raises(ValueError, match="10 is not a multiple of 3") as error:
            nbstats.correlated_ttest(a, b, **design)
        assert "test_fraction=1/" in str(error.value)  # the way out
        with pytest.raises(ValueError, match="10 is not a multiple of 3"):
            nbstats.bayes_correlated_ttest(a, b, **design)
    # the way out: the correlation of 3-fold splits without whole runs
    res = nbstats.correlated_ttest(a, b, test_fraction=1 / 3)
    t, df, _, _ = _nadeau_bengio(a, b, 3)
    assert (res.statistic, res.df) == (pytest.approx(t), df)
