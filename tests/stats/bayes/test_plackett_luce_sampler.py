"""The compiled Plackett–Luce chains: Gamma draws, threads, stretches, ties."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special, stats

from nbstats.stats.bayes import plackett_luce_sampler
from nbstats.stats.bayes.exponentials import sfc64_state
from nbstats.stats.bayes.gamma_variates import draw_log_gamma
from nbstats.stats.bayes.plackett_luce_sampler import RankingData, sample_worths


@pytest.mark.parametrize("shape", [1e-3, 0.3, 1.0, 2.5, 40.0, 1e6])
def test_log_gamma_draws_follow_scipys_log_gamma_law(shape):
    state = sfc64_state(np.random.SeedSequence(int(shape * 1000) % 2**32))
    draws = np.array([draw_log_gamma(state, shape) for _ in range(20_000)])
    # E[log G(a)] = ψ(a), Var = ψ'(a): closed forms, not our code
    mean, variance = special.digamma(shape), special.polygamma(1, shape)
    assert abs(draws.mean() - mean) <= 5 * np.sqrt(variance / draws.size)
    assert stats.kstest(draws, stats.loggamma(shape).cdf).pvalue > 1e-3


def test_log_gamma_is_finite_at_the_priors_extremes():
    state = sfc64_state(np.random.SeedSequence(1))
    for shape in (1e-300, 42e300):
        draws = [draw_log_gamma(state, shape) for _ in range(200)]
        assert np.all(np.isfinite(draws)), shape
    # a huge shape: log G is log a to within its sd 1/√a
    assert draw_log_gamma(state, 1e300) == pytest.approx(np.log(1e300), rel=1e-12)


def _data(seed=0, cases=30, m=5, ties=True, holes=True):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(cases, m)) + np.linspace(0, 1.5, m)
    if ties:
        values = np.round(values)  # many ties
    if holes:
        values[rng.random(values.shape) < 0.2] = np.nan
        values[:, :2] = np.where(np.isnan(values[:, :2]), 0.0, values[:, :2])
    # ranks 1 = best, ties averaged, NaN kept (scipy, not our ranking code)
    return RankingData(stats.rankdata(-values, axis=1, nan_policy="omit"))


KW = {"prior": 1.0, "chains": 4, "draws": 300, "warmup": 120}


def test_the_draws_do_not_depend_on_threads_or_on_the_stretches(monkeypatch):
    data = _data()
    one = sample_worths(data, rng=np.random.default_rng(3), threads=1, **KW)
    two = sample_worths(data, rng=np.random.default_rng(3), threads=2, **KW)
    np.testing.assert_array_equal(one, two)
    # progress-bar stretches that cut the warm-up and the draws elsewhere
    monkeypatch.setattr(plackett_luce_sampler, "STRETCH", 7)
    short = sample_worths(data, rng=np.random.default_rng(3), threads=2, **KW)
    np.testing.assert_array_equal(one, short)
    # a large table's calls are shorter: one iteration each here
    monkeypatch.setattr(plackett_luce_sampler, "STRETCH_SLOTS", 1)
    single = sample_worths(data, rng=np.random.default_rng(3), threads=2, **KW)
    np.testing.assert_array_equal(one, single)


def test_chains_have_streams_of_their_own():
    draws = sample_worths(_data(), rng=np.random.default_rng(4), **KW)
    assert not np.array_equal(draws[0], draws[1])
    np.testing.assert_allclose(np.exp(draws).sum(axis=-1), 1.0)


def test_the_progress_bar_counts_one_chains_iterations():
    class Bar:
        total = 0

        def update(self, n):
            self.total += n

    bar = Bar()
    sample_worths(_data(), rng=np.random.default_rng(0), bar=bar, **KW)
    assert bar.total == KW["warmup"] + KW["draws"]


def test_tied_ranks_are_broken_uniformly():
    """All scores tied within each case: every ordering of a case is equally
    likely, so every algorithm has the same posterior mean worth."""
    data = RankingData(np.full((50, 4), 2.5))
    draws = np.exp(sample_worths(data, rng=np.random.default_rng(5), **KW))
    means = draws.reshape(-1, 4).mean(axis=0)
    spread = draws.reshape(-1, 4).std(axis=0) / np.sqrt(
        draws.shape[0] * draws.shape[1] / 20
    )
    assert np.all(np.abs(means - 0.25) <= 5 * spread)


def test_tie_groups_are_indexed_by_case():
    ranks = np.array(
        [[1.5, 1.5, 3.0, np.nan], [1.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0]]
    )
    data = RankingData(ranks)
    assert data.group_start.tolist() == [0, 1, 2, 2]
    assert data.tie_starts.tolist() == [0, 1]
    assert data.tie_sizes.tolist() == [2, 3]
    # case 0 ranks three of four: its last slot holds the dummy m = 4
    assert data.fixed_order.tolist() == [[0, 1, 2, 4], [0, 1, 2, 3], [0, 1, 2, 3]]
