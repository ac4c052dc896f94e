"""Every pairwise table carries an effect size (issue 18, item 3): the
matched-pairs rank-biserial correlation of b − a, computed here from its
definition (Kerby 2014: the signed-rank sums, (R⁺ − R⁻)/(R⁺ + R⁻), zeros
split as the Wilcoxon test's default)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats


def _rank_biserial(d: np.ndarray) -> float:
    # zero differences ranked and split between the sides, as the Wilcoxon
    # test's default (zero_method="zsplit") counts them
    ranks = stats.rankdata(np.abs(d))
    half = ranks[d == 0].sum() / 2
    plus, minus = ranks[d > 0].sum() + half, ranks[d < 0].sum() + half
    return float((plus - minus) / (plus + minus))


@pytest.mark.parametrize("method", ["nemenyi", "holm", "conover", "wilcoxon", "ttest"])
def test_effect_of_every_pair(table6, method):
    if method == "conover":
        res = nbstats.conover(table6)
    elif method in ("wilcoxon", "ttest"):
        res = nbstats.comparison_matrix(table6, test=method)
    else:
        res = nbstats.posthoc(table6, method=method)
    frame = res.to_frame()
    if method in ("wilcoxon", "ttest"):  # the row's effect over the column
        frame["effect"] = -frame["effect"]
    for row in frame.itertuples(index=False):
        d = (table6[row.b] - table6[row.a]).to_numpy()
        assert row.effect == pytest.approx(_rank_biserial(d), abs=1e-12)
    # the matrix is antisymmetric: (b, a) is −(a, b)
    e = res.effect_sizes.to_numpy(dtype=float)
    off = ~np.eye(len(e), dtype=bool)
    np.testing.assert_allclose(e[off], -e.T[off])
    assert set(frame["magnitude"]) <= {"negligible", "small", "medium", "large"}
    if method not in ("wilcoxon", "ttest"):
        assert "r" in res._table().columns


def test_direction_and_missing_cells():
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.normal(size=(20, 3)) + [0, 0, 2], columns=list("abc"))
    res = nbstats.posthoc(table, method="holm", control="a")
    assert res.effect_sizes["c"] > 0.9  # c is far better than a
    # lower is better: the same scores negated give the same effects
    flipped = nbstats.posthoc(
        -table, method="holm", control="a", higher_is_better=False
    )
    np.testing.assert_allclose(flipped.effect_sizes, res.effect_sizes)
    holes = table.copy()
    holes.iloc[:5, 1] = np.nan
    pair = nbstats.comparison_matrix(holes, nan_policy="pairwise")
    d = (holes["b"] - holes["a"]).dropna().to_numpy()
    # the comparison matrix gives the row's effect over the column
    assert pair.effect_sizes.loc["b", "a"] == pytest.approx(_rank_biserial(d))
