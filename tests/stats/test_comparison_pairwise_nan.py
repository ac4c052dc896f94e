"""comparison_matrix(..., nan_policy="pairwise"): each pair on its own complete
cases."""

import numpy as np
import pandas as pd
import pytest
import scipy.stats as ss
from statsmodels.stats.multitest import multipletests

import nbstats


def _table(seed: int = 1, m: int = 5, n: int = 24) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    names = [f"HistGradientBoostingClassifier(max_iter={100 * j})" for j in range(m)]
    table = pd.DataFrame(rng.normal(size=(n, m)) + np.arange(m) * 0.3, columns=names)
    holes = rng.choice(n * m, size=n * m // 8, replace=False)
    values = table.to_numpy().copy()
    values.flat[holes] = np.nan
    return pd.DataFrame(values, columns=names)


@pytest.mark.parametrize(
    ("method", "oracle"),
    [
        ("wilcoxon", lambda d: ss.wilcoxon(d).pvalue),
        ("ttest", lambda d: ss.ttest_1samp(d, 0.0).pvalue),
        # continuous scores: no zero differences, so no ties to split
        ("sign", lambda d: ss.binomtest(int((d > 0).sum()), len(d)).pvalue),
    ],
)
def test_each_pair_equals_a_test_on_its_complete_cases(method, oracle):
    table = _table()
    res = nbstats.comparison_matrix(table, test=method, nan_policy="pairwise")
    frame = res.to_frame()
    expected = []
    for a, b, n in zip(frame["a"], frame["b"], frame["n"], strict=True):
        both = table[[a, b]].dropna()
        assert n == len(both)
        expected.append(oracle((both[b] - both[a]).to_numpy()))
    np.testing.assert_allclose(frame["pvalue"], expected, rtol=1e-9)
    holm = multipletests(expected, method="holm")[1]
    np.testing.assert_allclose(frame["adjusted"], holm, rtol=1e-9)


def test_pairwise_uses_more_cases_than_omit():
    table = _table()
    pairwise = nbstats.comparison_matrix(table, nan_policy="pairwise")
    with pytest.warns(UserWarning, match="dropped"):
        omit = nbstats.comparison_matrix(table, nan_policy="omit")
    assert (omit.to_frame()["n"] == omit.n_cases).all()
    assert (pairwise.to_frame()["n"] > omit.n_cases).all()


def test_complete_table_gives_the_same_as_raise():
    table = _table().fillna(0.0)
    pairwise = nbstats.comparison_matrix(table, test="ttest", nan_policy="pairwise")
    plain = nbstats.comparison_matrix(table, test="ttest")
    pd.testing.assert_frame_equal(pairwise.to_frame(), plain.to_frame())
    assert (pairwise.to_frame()["n"] == len(table)).all()


def test_the_views_of_a_post_hoc_result_take_it():
    table = _table(m=4)
    res = nbstats.comparison_matrix(table, nan_policy="pairwise")
    assert "cases per pair" in str(res)
    shown = nbstats.letters(res)
    assert set(shown.letters.index) == set(table.columns)
    assert res.groups == list(nbstats.letters(res.reject, res.mean_ranks).groups)


@pytest.mark.parametrize("method", ["nemenyi", "holm", "bergmann-hommel"])
def test_rank_methods_refuse_pairwise(method):
    with pytest.raises(ValueError, match="unknown nan_policy='pairwise'"):
        nbstats.posthoc(_table(), method=method, nan_policy="pairwise")


def test_a_pair_without_shared_cases_is_named():
    table = pd.DataFrame(
        {
            "A": [1.0, 2, 3, 4],
            "B": [1.0, 2, np.nan, np.nan],
            "C": [np.nan, np.nan, 2.0, 5],
        }
    )
    with pytest.raises(ValueError, match=r"\('B', 'C'\): 0.*Drop the algorithms"):
        nbstats.comparison_matrix(table, test="sign", nan_policy="pairwise")
