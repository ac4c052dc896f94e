"""posthoc(..., nan_policy="pairwise"): each pair on its own complete cases."""

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
    res = nbstats.posthoc(table, method=method, nan_policy="pairwise")
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
    pairwise = nbstats.posthoc(table, method="wilcoxon", nan_policy="pairwise")
    with pytest.warns(UserWarning, match="dropped"):
        omit = nbstats.posthoc(table, method="wilcoxon", nan_policy="omit")
    assert omit.pair_cases is None
    assert "n" not in omit.to_frame()
    assert (pairwise.to_frame()["n"] > omit.n_cases).all()


def test_complete_table_gives_the_same_as_raise():
    table = _table().fillna(0.0)
    pairwise = nbstats.posthoc(table, method="ttest", nan_policy="pairwise")
    plain = nbstats.posthoc(table, method="ttest")
    pd.testing.assert_frame_equal(
        pairwise.to_frame().drop(columns="n"), plain.to_frame()
    )
    assert (pairwise.to_frame()["n"] == len(table)).all()


def test_against_a_control():
    table = _table(m=4)
    control = table.columns[0]
    res = nbstats.posthoc(
        table, method="wilcoxon", control=control, nan_policy="pairwise"
    )
    frame = res.to_frame()
    for b, n, p in zip(frame["b"], frame["n"], frame["pvalue"], strict=True):
        both = table[[control, b]].dropna()
        assert n == len(both)
        assert p == pytest.approx(ss.wilcoxon(both[b] - both[control]).pvalue)
    assert "cases per pair" in str(res)


@pytest.mark.parametrize("method", ["nemenyi", "holm", "bergmann-hommel"])
def test_rank_methods_refuse_pairwise(method):
    with pytest.raises(ValueError, match="nan_policy='omit'.*method='wilcoxon'"):
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
        nbstats.posthoc(table, method="sign", nan_policy="pairwise")
