"""bayes_signrank_pairs(..., nan_policy="pairwise"): each pair on its own cases."""

import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats


def _table(seed: int = 3, m: int = 4, n: int = 15) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    names = ["nbc", "aode", "Random forest (500 trees)", "k-NN, k = 5"][:m]
    values = rng.normal(size=(n, m)) * 0.02 + np.linspace(0.7, 0.74, m)
    values[rng.random(size=values.shape) < 0.12] = np.nan
    return pd.DataFrame(values, columns=names)


@pytest.mark.parametrize("prior", ["idp", "point", "bb"])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_each_pair_equals_bayes_signrank_on_its_complete_cases(prior, rope):
    table = _table()
    res = nbstats.bayes_signrank_pairs(
        table,
        prior=prior,
        rope=rope,
        n_samples=2000,
        random_state=7,
        nan_policy="pairwise",
    )
    assert "n" in res.pairs
    for row in res.pairs.itertuples():
        both = table[[row.a, row.b]].dropna()
        assert row.n == len(both)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "dropped k cases"
            alone = nbstats.bayes_signrank(
                table[row.a],
                table[row.b],
                prior=prior,
                rope=rope,
                n_samples=2000,
                random_state=7,
                nan_policy="omit",
            )
        assert row.prob_left == pytest.approx(alone.prob_left, abs=1e-12)
        assert row.prob_right == pytest.approx(alone.prob_right, abs=1e-12)
        assert row.decision == alone.decision
        assert res.probabilities.loc[row.a, row.b] == pytest.approx(
            alone.prob_lower, abs=1e-12
        )


def test_pairs_keep_column_order_and_complete_tables_match_raise():
    table = _table().fillna(0.7)
    pairwise = nbstats.bayes_signrank_pairs(
        table, n_samples=1000, random_state=1, nan_policy="pairwise"
    )
    plain = nbstats.bayes_signrank_pairs(table, n_samples=1000, random_state=1)
    pd.testing.assert_frame_equal(pairwise.pairs.drop(columns="n"), plain.pairs)
    assert "n" not in plain.pairs
    pd.testing.assert_series_equal(pairwise.mean_ranks, plain.mean_ranks)


def test_bayes_posthoc_and_friedman_refuse_pairwise_naming_themselves():
    table = _table()
    with pytest.raises(ValueError, match="bayes_posthoc uses every algorithm"):
        nbstats.bayes_posthoc(table, nan_policy="pairwise")
    with pytest.raises(ValueError, match="bayes_friedman uses every algorithm"):
        nbstats.bayes_friedman(table, nan_policy="pairwise")
    # rank_ci takes it for its pairwise Wilcoxon methods (the default) and
    # refuses it, naming the method, for the others
    with pytest.raises(ValueError, match="method='id-nemenyi' cannot use"):
        nbstats.rank_ci(table, method="id-nemenyi", nan_policy="pairwise")
    assert nbstats.rank_ci(table, nan_policy="pairwise").incomplete


def test_normal_method_pairwise_equals_the_pair_alone():
    table = _table(n=40)
    res = nbstats.bayes_signrank_pairs(
        table, method="normal", random_state=2, nan_policy="pairwise"
    )
    row = res.pairs.iloc[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        alone = nbstats.bayes_signrank(
            table[row.a],
            table[row.b],
            method="normal",
            random_state=2,
            nan_policy="omit",
        )
    assert row.prob_right == pytest.approx(alone.prob_right, abs=1e-12)


@pytest.mark.parametrize(
    "test",
    [nbstats.wilcoxon, nbstats.sign_test, nbstats.bayes_signrank, nbstats.ttest],
)
def test_two_sample_tests_take_pairwise_as_their_one_pair(test):
    table = _table()
    kwargs = {"random_state": 0} if test is nbstats.bayes_signrank else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        pairwise = test(table["nbc"], table["aode"], nan_policy="pairwise", **kwargs)
        omit = test(table["nbc"], table["aode"], nan_policy="omit", **kwargs)
    assert pairwise.to_frame().equals(omit.to_frame())
