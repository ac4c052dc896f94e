"""rank_ci with missing cells (issue 18, item 1): nan_policy="pairwise" for
the Wilcoxon methods, a clear refusal for the others."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats


def _holes(seed: int = 0, n: int = 25, m: int = 5, holes: int = 12) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n, m)) + np.linspace(0, 1.5, m)
    table = pd.DataFrame(values, columns=[f"alg{j}" for j in range(m)])
    for _ in range(holes):
        table.iat[rng.integers(n), rng.integers(m)] = np.nan
    return table


@pytest.mark.parametrize("method", ["id-wilcoxon-2s", "id-wilcoxon-1s"])
def test_complete_table_gives_the_usual_intervals(method):
    table = _holes(holes=0)
    plain = nbstats.rank_ci(table, method=method)
    pairwise = nbstats.rank_ci(table, method=method, nan_policy="pairwise")
    assert plain.lower.tolist() == pairwise.lower.tolist()
    assert plain.upper.tolist() == pairwise.upper.tolist()


def test_pairwise_tests_use_each_pairs_cases():
    table = _holes()
    res = nbstats.rank_ci(table, method="id-wilcoxon-2s", nan_policy="pairwise")
    sm = nbstats.skillings_mack(table)
    assert res.omnibus_pvalue == pytest.approx(sm.pvalue, rel=1e-12)
    assert res.omnibus_rejected and res.incomplete
    names = list(table.columns)
    for a in names:
        raw = []
        for b in names:
            if b == a:
                continue
            both = table[[a, b]].dropna()
            # scipy's exact two-sided signed-rank test (continuous: no ties)
            raw.append(stats.wilcoxon(both[b], both[a], method="exact").pvalue)
        holm = multipletests(raw, method="holm")[1]
        got = res.pvalues.loc[a].drop(a).to_numpy(dtype=float)
        np.testing.assert_allclose(got, holm, rtol=1e-10)
    assert "Skillings–Mack" in res.summary()
    # every interval holds the algorithm's rank by mean rank among observed
    position = res.mean_ranks.rank(method="first")
    assert ((res.lower <= position) & (position <= res.upper)).all()


@pytest.mark.parametrize("method", ["bootstrap", "id-nemenyi", "anova-tukey"])
def test_other_methods_refuse_naming_the_alternatives(method):
    with pytest.raises(ValueError, match="id-wilcoxon-2s") as info:
        nbstats.rank_ci(_holes(), method=method, nan_policy="pairwise")
    assert method in str(info.value) and "nan_policy='omit'" in str(info.value)


def test_missing_cells_without_a_policy_are_refused():
    with pytest.raises(ValueError, match="missing"):
        nbstats.rank_ci(_holes())


def test_cd_diagram_of_pairwise_tests_with_missing_cells():
    import matplotlib.pyplot as plt

    res = nbstats.comparison_matrix(_holes(), nan_policy="pairwise")
    ax = nbstats.plots.cd_diagram(res)
    labels = " ".join(t.get_text() for t in ax.texts)
    for name in res.mean_ranks.index:
        assert name in labels
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="unknown nan_policy='pairwise'"):
        nbstats.posthoc(_holes(), method="nemenyi", nan_policy="pairwise")
