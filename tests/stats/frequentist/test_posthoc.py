"""Post-hoc procedures: definitions, shapes, groups, and their consistency."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats
from nbstats.stats.frequentist.posthoc import POSTHOC_METHODS, nonsignificant_groups


@pytest.fixture
def scores():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(25, 5)) + [0, 0.3, 0.6, 0.9, 1.5]
    return pd.DataFrame(x, columns=list("ABCDE"))


def test_nemenyi_pvalues_from_studentized_range(scores):
    res = nbstats.posthoc(scores, method="nemenyi")
    ranks = nbstats.mean_ranks(scores)
    se = np.sqrt(5 * 6 / (6 * 25))
    q = abs(ranks["A"] - ranks["E"]) / se * np.sqrt(2)
    assert res.adjusted.loc["A", "E"] == pytest.approx(
        stats.studentized_range.sf(q, 5, np.inf), rel=1e-6
    )
    # reject exactly when the mean ranks differ by more than the CD
    diff = np.abs(ranks.to_numpy()[:, None] - ranks.to_numpy()[None, :])
    off_diagonal = ~np.eye(5, dtype=bool)
    np.testing.assert_array_equal(
        res.reject.to_numpy()[off_diagonal],
        (diff > res.critical_difference)[off_diagonal],
    )


def test_matrices_are_symmetric_with_nan_diagonal(scores):
    res = nbstats.posthoc(scores, method="holm")
    p = res.adjusted.to_numpy()
    assert np.isnan(np.diag(p)).all()
    np.testing.assert_array_equal(p, p.T)
    z = res.statistics.to_numpy()
    np.testing.assert_allclose(z, -z.T)
    assert not res.reject.to_numpy().diagonal().any()


@pytest.mark.parametrize("method", ["wilcoxon", "sign", "ttest"])
@pytest.mark.parametrize(
    "adjust", ["holm", "hochberg", "hommel", "bonferroni", "shaffer", "none"]
)
def test_pairwise_tests_are_the_two_sample_tests_adjusted(scores, method, adjust):
    res = nbstats.comparison_matrix(scores, test=method, adjust=adjust)
    test = {
        "wilcoxon": nbstats.wilcoxon,
        "sign": nbstats.sign_test,
        "ttest": nbstats.ttest,
    }[method]
    frame = res.to_frame()
    raw = [
        test(scores[a], scores[b]).pvalue for a, b in zip(frame.a, frame.b, strict=True)
    ]
    np.testing.assert_allclose(frame.pvalue, raw)
    np.testing.assert_allclose(frame.adjusted, nbstats.adjust_pvalues(raw, adjust))
    np.testing.assert_array_equal(frame.reject, frame.adjusted <= 0.05)


@pytest.mark.parametrize("method", ["bonferroni-dunn", "holm", "hochberg", "hommel"])
def test_control_comparisons_are_series_over_the_others(scores, method):
    res = nbstats.posthoc(scores, method=method, control="C")
    assert isinstance(res.adjusted, pd.Series)
    assert res.adjusted.index.tolist() == ["A", "B", "D", "E"]
    z = (nbstats.mean_ranks(scores)["C"] - nbstats.mean_ranks(scores)) / np.sqrt(
        30 / 150
    )
    np.testing.assert_allclose(res.statistics, z.drop("C"))
    np.testing.assert_allclose(res.pvalues, 2 * stats.norm.sf(np.abs(z.drop("C"))))
    assert "C" in res.groups[0]


def test_bonferroni_dunn_all_pairs_has_a_larger_cd(scores):
    control = nbstats.posthoc(scores, method="bonferroni-dunn", control="A")
    pairs = nbstats.posthoc(scores, method="bonferroni-dunn")
    assert pairs.critical_difference > control.critical_difference
    expected = stats.norm.isf(0.05 / (2 * 10)) * np.sqrt(30 / 150)
    assert pairs.critical_difference == pytest.approx(expected)


def test_groups_are_the_maximal_cliques_not_only_intervals():
    names = list("ABCD")
    reject = pd.DataFrame(False, index=names, columns=names)
    for a, b in [("A", "C"), ("B", "D")]:
        reject.loc[a, b] = reject.loc[b, a] = True
    ranks = pd.Series([1.0, 2.0, 3.0, 4.0], index=names)
    assert nonsignificant_groups(reject, ranks) == [
        ("A", "B"),
        ("A", "D"),
        ("B", "C"),
        ("C", "D"),
    ]


def test_groups_cover_every_algorithm_and_are_maximal(scores):
    for method in ["nemenyi", "holm", "wilcoxon", "shaffer"]:
        if method == "wilcoxon":
            res = nbstats.comparison_matrix(scores, alpha=0.2)
        else:
            res = nbstats.posthoc(scores, method=method, alpha=0.2)
        covered = set().union(*map(set, res.groups))
        assert covered == set("ABCDE")
        for group in res.groups:
            for a in group:
                for b in group:
                    assert a == b or not res.reject.loc[a, b]
            outside = set("ABCDE") - set(group)
            for c in outside:  # maximal: no outsider fits
                assert any(res.reject.loc[c, g] for g in group)


def test_significant_pairs_are_ordered_better_first(table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    for better, worse in res.significant_pairs():
        assert res.mean_ranks[better] < res.mean_ranks[worse]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "tukey"}, "unknown method='tukey'"),
        ({"method": "wilcoxon"}, "unknown method='wilcoxon'"),
        ({"method": "conover"}, "unknown method='conover'"),
        ({"method": "holm", "control": "Z"}, "control='Z' is not one of"),
        ({"ranks": "durbin"}, "unknown ranks='durbin'"),
        ({"nan_policy": "pairwise"}, "unknown nan_policy='pairwise'"),
        ({"alpha": 0}, r"alpha must be a number in \(0, 1\), got 0"),
        ({"adjust": "holm"}, "unexpected keyword argument 'adjust'"),
        ({"ranking": "aligned"}, "unexpected keyword argument 'ranking'"),
    ],
)
def test_bad_arguments(scores, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        nbstats.posthoc(scores, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"alpha": "0.1"}, TypeError, "alpha must be a number"),
        ({"higher_is_better": "yes"}, TypeError, "higher_is_better must be True"),
        ({"ranks": None}, ValueError, "unknown ranks=None"),
        ({"method": 3}, ValueError, "unknown method=3"),
    ],
)
def test_wrong_types_are_named(scores, kwargs, error, match):
    with pytest.raises(error, match=match):
        nbstats.posthoc(scores, **kwargs)


@pytest.mark.parametrize("ranks", ["friedman", "aligned", "quade"])
@pytest.mark.parametrize("method", ["shaffer", "bergmann-hommel"])
def test_all_pairs_procedures_against_a_control_are_holm(scores, method, ranks):
    # comparisons with one control are free combinations: any subset of the
    # k - 1 hypotheses can be true together, so Shaffer's and Bergmann and
    # Hommel's procedures have no restriction to use and are Holm's
    res = nbstats.posthoc(scores, method=method, control="C", ranks=ranks)
    assert res.method == res.adjust == "holm"
    assert "Holm" in res.note and "any combination" in res.note
    assert "note" in res.summary()
    # Holm on the same raw p-values, computed independently (statsmodels)
    reject, holm, _, _ = multipletests(res.pvalues.to_numpy(), 0.05, "holm")
    np.testing.assert_allclose(res.adjusted.to_numpy(), holm, rtol=1e-12)
    np.testing.assert_array_equal(res.reject.to_numpy(), reject)
    # ... and the raw p-values are the z-tests on the chosen ranks
    plain = nbstats.posthoc(scores, method="holm", control="C", ranks=ranks)
    pd.testing.assert_series_equal(res.pvalues, plain.pvalues)
    assert plain.note is None


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_nemenyi_against_a_control_is_bonferroni_dunn(scores, alpha):
    res = nbstats.posthoc(scores, method="nemenyi", control="A", alpha=alpha)
    assert res.method == "bonferroni-dunn"
    assert "Bonferroni–Dunn" in res.note
    k, n = 5, 25
    # Demšar (2006), §3.2.2: CD = q_alpha sqrt(k(k+1)/(6N)), q_alpha the
    # two-sided normal quantile at alpha / (k - 1)
    q = stats.norm.isf(alpha / (2 * (k - 1)))
    assert res.critical_difference == pytest.approx(q * np.sqrt(k * (k + 1) / (6 * n)))
    bonferroni = np.minimum(1, res.pvalues.to_numpy() * (k - 1))
    np.testing.assert_allclose(res.adjusted.to_numpy(), bonferroni, rtol=1e-12)
    same = nbstats.posthoc(scores, method="bonferroni-dunn", control="A", alpha=alpha)
    pd.testing.assert_series_equal(res.adjusted, same.adjusted)
    assert same.note is None


@pytest.mark.parametrize(
    "method", ["nemenyi", "holm", "shaffer", "bergmann-hommel", "li", "rom"]
)
@pytest.mark.parametrize("control", [None, "B"])
@pytest.mark.parametrize("ranks", ["friedman", "aligned", "quade"])
def test_every_combination_is_defined(scores, method, control, ranks):
    res = nbstats.posthoc(scores, method=method, control=control, ranks=ranks)
    assert res.ranks == ranks and res.control == control
    assert res.method in POSTHOC_METHODS
    assert (res.method == method) == (res.note is None)
    assert res.groups


@pytest.mark.parametrize("method", ["ttest", "wilcoxon", "sign"])
def test_pairwise_tests_at_the_edge_of_float64(table6, method):
    # b - a of scores near ±1.7e308 would overflow without the exact rescaling
    at_unit = nbstats.comparison_matrix(table6 - 0.5, test=method)
    at_edge = nbstats.comparison_matrix((table6 - 0.5) * 2.0**1023, test=method)
    pd.testing.assert_frame_equal(at_unit.pvalues, at_edge.pvalues)
    pd.testing.assert_frame_equal(at_unit.statistics, at_edge.statistics)
