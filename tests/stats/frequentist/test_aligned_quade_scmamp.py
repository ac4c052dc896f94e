"""Friedman's aligned-ranks test, the post-hoc z-tests on aligned and Quade
ranks, and the Finner and Li adjustments against scmamp (issue 18, item 2).

scmamp (Calvo & Santafé) implements García et al. (2010); its outputs on
García & Herrera's 30 × 5 table and on a tie-free 25 × 5 table are stored in
tests/data/scmamp_reference.json by tests/data/make_scmamp_reference.R.
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
@pytest.mark.parametrize(
    ("ranking", "key"), [("quade", "quade_post"), ("friedman", "friedman_post")]
)
def test_rank_posthoc_equals_scmamp(request, table, ranking, key):
    scores = request.getfixturevalue(table)
    block = "continuous" if table == "continuous" else "garcia_herrera_2008"
    ref = REFERENCE[block]
    expected = _matrix(ref.get("results", ref)[key])
    res = nbstats.posthoc(scores, method="holm", ranking=ranking)
    k = scores.shape[1]
    np.testing.assert_allclose(
        res.pvalues.to_numpy(dtype=float)[_off(k)], expected[_off(k)], rtol=1e-9
    )


def test_aligned_posthoc_without_ties_equals_scmamp(continuous):
    expected = _matrix(REFERENCE["continuous"]["results"]["aligned_post"])
    res = nbstats.posthoc(continuous, method="holm", ranking="aligned")
    np.testing.assert_allclose(
        res.pvalues.to_numpy(dtype=float)[_off(5)], expected[_off(5)], rtol=1e-9
    )
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
    post = nbstats.posthoc(garcia_herrera, method="holm", ranking="aligned")
    np.testing.assert_allclose(
        post.pvalues.to_numpy(dtype=float)[_off(5)],
        _matrix(ref["aligned_post"])[_off(5)],
        rtol=0.05,
    )


@pytest.mark.parametrize("method", ["finner", "li"])
def test_adjustments_equal_scmamp_on_its_example(method):
    # scmamp's vignette: quadePost(data.gh.2008, control = 2), then adjusted
    ref = REFERENCE["garcia_herrera_2008"]
    raw = np.array([p for p in ref["quade_post_control_2"] if p is not None])
    expected = np.array([p for p in ref[method] if p is not None])
    np.testing.assert_allclose(nbstats.adjust_pvalues(raw, method), expected, rtol=1e-9)


def test_quade_posthoc_against_a_control(garcia_herrera):
    ref = REFERENCE["garcia_herrera_2008"]
    res = nbstats.posthoc(
        garcia_herrera, method="finner", control="k-NN(k=1)", ranking="quade"
    )
    expected = [p for p in ref["quade_post_control_2"] if p is not None]
    np.testing.assert_allclose(res.pvalues.to_numpy(), expected, rtol=1e-9)
    np.testing.assert_allclose(
        res.adjusted.to_numpy(), [p for p in ref["finner"] if p is not None], rtol=1e-9
    )


def test_ties_and_bad_input():
    tied = pd.DataFrame(np.full((4, 3), 0.5), columns=list("abc"))
    res = nbstats.friedman_aligned(tied)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    with pytest.raises(ValueError, match="missing"):
        nbstats.friedman_aligned(pd.DataFrame({"a": [1.0, np.nan], "b": [2.0, 3.0]}))
    with pytest.raises(ValueError, match="ranking='aligned' chooses the ranks"):
        nbstats.posthoc(tied, method="wilcoxon", ranking="aligned")
    with pytest.raises(ValueError, match="ranking"):
        nbstats.posthoc(tied, method="holm", ranking="kendall")


def test_accessor():
    table = nbstats.datasets.load("demsar2006")
    assert table.compare.friedman_aligned().statistic == pytest.approx(
        nbstats.friedman_aligned(table).statistic
    )
