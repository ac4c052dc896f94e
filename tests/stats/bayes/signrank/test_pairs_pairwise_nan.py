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


def _close(x: float, y: float, n_samples: int) -> bool:
    """Two independent Monte Carlo estimates of one probability agree: within
    5 standard errors of their difference (a floor of p(1 - p) = 1e-4)."""
    p = 0.5 * (x + y)
    return abs(x - y) <= 5 * np.sqrt(2 * max(p * (1 - p), 1e-4) / n_samples)


@pytest.mark.parametrize("prior", ["idp", "point", "bb"])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_each_pair_has_the_posterior_of_bayes_signrank_on_its_complete_cases(
    prior, rope
):
    # the pairs share one stream of weights over every case (shared_draws.py):
    # each pair's posterior is bayes_signrank's on its cases in law, not draw
    # for draw (the draw-for-draw check against a brute force on the
    # restricted stream is in test_shared_draws.py)
    table = _table()
    n_samples = 20_000
    res = nbstats.bayes_signrank_pairs(
        table,
        prior=prior,
        rope=rope,
        n_samples=n_samples,
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
                n_samples=n_samples,
                random_state=7,
                nan_policy="omit",
            )
        for key in ("prob_left", "prob_right", "prob_upper"):
            assert _close(getattr(row, key), getattr(alone, key), n_samples), key
        assert _close(res.probabilities.loc[row.a, row.b], alone.prob_lower, n_samples)


def test_pairs_keep_column_order_and_complete_tables_match_raise():
    # a complete table: "pairwise" draws by case from the shared stream,
    # "raise" each pair's weights in its sorted order; the same posterior
    table = _table().fillna(0.7)
    n_samples = 20_000
    pairwise = nbstats.bayes_signrank_pairs(
        table, n_samples=n_samples, random_state=1, nan_policy="pairwise"
    )
    plain = nbstats.bayes_signrank_pairs(table, n_samples=n_samples, random_state=1)
    assert "n" not in plain.pairs
    assert (pairwise.pairs["n"] == len(table)).all()
    got = pairwise.pairs.drop(columns="n")
    assert list(got.columns) == list(plain.pairs.columns)
    pd.testing.assert_frame_equal(got[["a", "b"]], plain.pairs[["a", "b"]])
    for key in ("prob_left", "prob_right", "prob_upper"):
        for x, y in zip(got[key], plain.pairs[key], strict=True):
            assert _close(x, y, n_samples), key
    # what does not depend on the draws is equal
    for key in ("mean_lower", "mean_upper", "effect"):
        np.testing.assert_allclose(got[key], plain.pairs[key], rtol=1e-12)
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


@pytest.mark.parametrize("prior", ["idp", "point"])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_sets_of_cases_in_two_threads_give_the_numbers_of_one(monkeypatch, prior, rope):
    # the sets of cases are evaluated in two threads on a machine with two
    # processors or more; the numbers are those of one thread, bit for bit
    rng = np.random.default_rng(11)
    values = rng.normal(size=(40, 9)) * 0.02 + np.linspace(0.7, 0.74, 9)
    values[rng.random(size=values.shape) < 0.15] = np.nan
    table = pd.DataFrame(values, columns=[f"algorithm {j}" for j in range(9)])
    kw = {
        "prior": prior,
        "rope": rope,
        "n_samples": 1000,
        "mc_error": 0.004,
        "random_state": 5,
        "nan_policy": "pairwise",
    }
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    two = nbstats.bayes_signrank_pairs(table, **kw).to_frame()
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    one = nbstats.bayes_signrank_pairs(table, **kw).to_frame()
    assert two["n"].nunique() > 3  # many sets of cases
    assert two["draws"].nunique() > 1  # some sets took more batches than others
    pd.testing.assert_frame_equal(two, one)
