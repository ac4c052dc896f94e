"""Friedman's aligned-ranks test, the post-hoc z-tests on aligned and Quade
ranks, and the Finner and Li adjustments against scmamp (issue 18, item 2;
issue 25, item 2).

scmamp (Calvo & Santafé) implements García et al. (2010); its outputs on
García & Herrera's 30 × 5 table and on a tie-free 25 × 5 table are stored in
tests/data/scmamp_reference.json by tests/data/make_scmamp_reference.R.

The omnibus statistics, the mean aligned ranks and Quade's weighted mean
ranks agree with scmamp. The post-hoc z-tests on aligned and Quade ranks do
not, by design (issue 25): nbstats divides the same differences of mean ranks
by the standard errors of the within-case permutation null, scmamp by
``sqrt(k(kn+1)/6)`` (aligned) and ``sqrt(k(k+1)(2n+1)(k-1)/(18n(n+1)))``
(Quade). The tests below recover scmamp's differences from its p-values
(``|d| = Φ⁻¹(1 − p/2) · SE_scmamp``), check that they are nbstats' own, and
check nbstats' z = d / SE with SE computed here from scipy's ranks; on the
tie-free table the Quade z-statistics are scmamp's times exactly
``sqrt((k − 1)/2)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats

DATA = Path(__file__).resolve().parents[2] / "data"
REFERENCE = json.loads((DATA / "scmamp_reference.json").read_text())


@pytest.fixture(scope="module")
def garcia_herrera() -> pd.DataFrame:
    return pd.read_csv(DATA / "garcia_herrera_2008.csv", index_col=0)


@pytest.fixture(scope="module")
def continuous() -> pd.DataFrame:
    values = np.array(REFERENCE["continuous"]["values"])
    return pd.DataFrame(values, columns=list("ABCDE"))


def _matrix(rows: list) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in rows])


def _off(k: int) -> np.ndarray:
    return ~np.eye(k, dtype=bool)


def test_aligned_test_without_ties_equals_scmamp(continuous):
    ref = REFERENCE["continuous"]["results"]
    res = nbstats.friedman_aligned(continuous)
    assert res.statistic == pytest.approx(ref["aligned_T"], rel=1e-12)
    assert res.pvalue == pytest.approx(ref["aligned_p"], rel=1e-9)
    assert res.df == 4


def test_aligned_test_by_its_definition(continuous):
    # Hodges & Lehmann's statistic from scipy's ranks (no ties here)
    x = continuous.to_numpy()
    n, k = x.shape
    r = stats.rankdata(-(x - x.mean(axis=1, keepdims=True))).reshape(n, k)
    kn = k * n
    t = (k - 1) * (np.sum(r.sum(0) ** 2) - k * n**2 / 4 * (kn + 1) ** 2)
    t /= kn * (kn + 1) * (2 * kn + 1) / 6 - np.sum(r.sum(1) ** 2) / k
    res = nbstats.friedman_aligned(continuous)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    np.testing.assert_allclose(res.mean_aligned_ranks, r.mean(axis=0))


@pytest.mark.parametrize("table", ["continuous", "garcia_herrera"])
def test_friedman_posthoc_equals_scmamp(request, table):
    scores = request.getfixturevalue(table)
    block = "continuous" if table == "continuous" else "garcia_herrera_2008"
    ref = REFERENCE[block]
    expected = _matrix(ref.get("results", ref)["friedman_post"])
    res = nbstats.posthoc(scores, method="holm", ranks="friedman")
    k = scores.shape[1]
    np.testing.assert_allclose(
        res.pvalues.to_numpy(dtype=float)[_off(k)], expected[_off(k)], rtol=1e-9
    )


def _scmamp_differences(pvalues: np.ndarray, standard_error: float) -> np.ndarray:
    """|difference of mean ranks| behind scmamp's two-sided normal p-values."""
    return stats.norm.isf(pvalues / 2) * standard_error


def _quade_by_hand(x: np.ndarray) -> tuple[np.ndarray, float]:
    """Quade's weighted mean ranks (1 = best) and the within-case permutation
    standard error of their differences, from scipy's ranks."""
    k = x.shape[1]
    q = stats.rankdata(x.max(axis=1) - x.min(axis=1))
    r = stats.rankdata(-x, axis=1)
    weighted = (q[:, None] * r).sum(axis=0) / q.sum()
    a = np.sum((q[:, None] * (r - (k + 1) / 2)) ** 2)
    return weighted, float(np.sqrt(2 * a / (k - 1)) / q.sum())


@pytest.mark.parametrize("table", ["continuous", "garcia_herrera"])
def test_quade_posthoc_differs_from_scmamp_by_its_standard_error_only(request, table):
    scores = request.getfixturevalue(table)
    block = "continuous" if table == "continuous" else "garcia_herrera_2008"
    ref = REFERENCE[block]
    scmamp_p = _matrix(ref.get("results", ref)["quade_post"])
    n, k = scores.shape
    scmamp_se = np.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18 * n * (n + 1)))
    weighted, se = _quade_by_hand(scores.to_numpy())
    res = nbstats.posthoc(scores, method="holm", ranks="quade")
    z = res.statistics.to_numpy(dtype=float)
    # the same weighted mean ranks as scmamp ...
    ours = np.abs(weighted[:, None] - weighted[None, :])
    np.testing.assert_allclose(
        ours[_off(k)], _scmamp_differences(scmamp_p, scmamp_se)[_off(k)], rtol=1e-7
    )
    # ... over the permutation standard error, not scmamp's
    np.testing.assert_allclose(np.abs(z)[_off(k)], ours[_off(k)] / se, rtol=1e-12)
    if table == "continuous":  # no ties: the closed form, scmamp's / sqrt((k-1)/2)
        closed = np.sqrt(k * (k + 1) * (2 * n + 1) / (9 * n * (n + 1)))
        assert se == pytest.approx(closed, rel=1e-12)
        assert scmamp_se / se == pytest.approx(np.sqrt((k - 1) / 2), rel=1e-12)
        scmamp_z = stats.norm.isf(scmamp_p / 2)
        np.testing.assert_allclose(
            np.abs(z)[_off(k)], scmamp_z[_off(k)] * np.sqrt((k - 1) / 2), rtol=1e-7
        )


def _aligned_by_hand(x: np.ndarray) -> tuple[np.ndarray, float]:
    """Mean aligned ranks (1 = best; no ties) and the within-case permutation
    standard error of their differences, from scipy's ranks."""
    n, k = x.shape
    r = stats.rankdata(-(x - x.mean(axis=1, keepdims=True))).reshape(n, k)
    spread = np.sum((r - r.mean(axis=1, keepdims=True)) ** 2)
    return r.mean(axis=0), float(np.sqrt(2 * spread / (k - 1)) / n)


def test_aligned_posthoc_differs_from_scmamp_by_its_standard_error_only(continuous):
    scmamp_p = _matrix(REFERENCE["continuous"]["results"]["aligned_post"])
    n, k = continuous.shape
    scmamp_se = np.sqrt(k * (k * n + 1) / 6)
    mean_ranks, se = _aligned_by_hand(continuous.to_numpy())
    ours = np.abs(mean_ranks[:, None] - mean_ranks[None, :])
    np.testing.assert_allclose(
        ours[_off(k)], _scmamp_differences(scmamp_p, scmamp_se)[_off(k)], rtol=1e-7
    )
    res = nbstats.posthoc(continuous, method="holm", ranks="aligned")
    z = res.statistics.to_numpy(dtype=float)
    np.testing.assert_allclose(np.abs(z)[_off(k)], ours[_off(k)] / se, rtol=1e-12)
    # the permutation standard error is the larger one here, as it is on
    # average under the null (by sqrt((kn - 1)/(kn - n)))
    assert se > scmamp_se
    assert res.critical_difference is None and "aligned ranks" in res.summary()


def test_aligned_with_ties_differs_from_scmamp_only_by_its_round_off(
    garcia_herrera,
):
    # equal aligned scores (0.803 - 0.75 = 0.845 - 0.792) tie here, while
    # scmamp ranks their binary round-off: close, not equal
    ref = REFERENCE["garcia_herrera_2008"]
    res = nbstats.friedman_aligned(garcia_herrera)
    assert res.statistic == pytest.approx(ref["aligned_T"], rel=0.005)
    assert res.statistic != pytest.approx(ref["aligned_T"], rel=1e-6)
    # the differences of mean aligned ranks behind scmamp's p-values are
    # nbstats' up to those ties (a few ranks in 150)
    n, k = garcia_herrera.shape
    scmamp = _scmamp_differences(
        _matrix(ref["aligned_post"]), np.sqrt(k * (k * n + 1) / 6)
    )
    mean_ranks = res.mean_aligned_ranks.to_numpy()
    ours = np.abs(mean_ranks[:, None] - mean_ranks[None, :])
    np.testing.assert_allclose(ours[_off(k)], scmamp[_off(k)], atol=0.2)


@pytest.mark.parametrize("method", ["finner", "li"])
def test_adjustments_equal_scmamp_on_its_example(method):
    # scmamp's vignette: quadePost(data.gh.2008, control = 2), then adjusted
    ref = REFERENCE["garcia_herrera_2008"]
    raw = np.array([p for p in ref["quade_post_control_2"] if p is not None])
    expected = np.array([p for p in ref[method] if p is not None])
    np.testing.assert_allclose(nbstats.adjust_pvalues(raw, method), expected, rtol=1e-9)


def test_quade_posthoc_against_a_control(garcia_herrera):
    # scmamp's quadePost(control = 2): the same differences, nbstats' own
    # standard error; the adjustment is applied to nbstats' p-values
    ref = REFERENCE["garcia_herrera_2008"]
    res = nbstats.posthoc(
        garcia_herrera, method="finner", control="k-NN(k=1)", ranks="quade"
    )
    n, k = garcia_herrera.shape
    scmamp_se = np.sqrt(k * (k + 1) * (2 * n + 1) * (k - 1) / (18 * n * (n + 1)))
    scmamp = np.array([p for p in ref["quade_post_control_2"] if p is not None])
    weighted, se = _quade_by_hand(garcia_herrera.to_numpy())
    others = [j for j in range(k) if j != 1]
    ours = np.abs(weighted[others] - weighted[1])
    np.testing.assert_allclose(ours, _scmamp_differences(scmamp, scmamp_se), rtol=1e-7)
    np.testing.assert_allclose(
        res.pvalues.to_numpy(), 2 * stats.norm.sf(ours / se), rtol=1e-9
    )
    np.testing.assert_allclose(
        res.adjusted.to_numpy(),
        nbstats.adjust_pvalues(res.pvalues.to_numpy(), "finner"),
        rtol=1e-12,
    )


def test_ties_and_bad_input():
    tied = pd.DataFrame(np.full((4, 3), 0.5), columns=list("abc"))
    res = nbstats.friedman_aligned(tied)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    with pytest.raises(ValueError, match="missing"):
        nbstats.friedman_aligned(pd.DataFrame({"a": [1.0, np.nan], "b": [2.0, 3.0]}))
    with pytest.raises(ValueError, match="unknown ranks='kendall'"):
        nbstats.posthoc(tied, method="holm", ranks="kendall")


def test_accessor():
    table = nbstats.datasets.load("demsar2006")
    assert table.compare.friedman_aligned().statistic == pytest.approx(
        nbstats.friedman_aligned(table).statistic
    )
