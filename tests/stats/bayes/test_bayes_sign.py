"""Bayesian sign test: Theorem 2 of Benavoli et al. (2015), rope, edge cases."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

import nbstats


def _pair(wins, losses, ties, seed=0):
    rng = np.random.default_rng(seed)
    d = np.array([1.0] * wins + [-1.0] * losses + [0.0] * ties)
    d = d * rng.uniform(0.5, 2, d.size)
    a = rng.normal(size=d.size)
    return a, a + d


@pytest.mark.parametrize(
    ("wins", "losses", "ties"), [(10, 2, 2), (7, 6, 0), (3, 9, 5), (15, 12, 3)]
)
def test_closed_form_is_the_beta_tail(wins, losses, ties):
    a, b = _pair(wins, losses, ties)
    res = nbstats.bayes_sign_test(a, b, random_state=0)
    assert res.prob_right == pytest.approx(stats.beta.sf(0.5, wins, losses), abs=1e-12)
    assert res.prob_left == pytest.approx(stats.beta.cdf(0.5, wins, losses), abs=1e-12)
    assert (res.wins, res.losses, res.n_ties) == (wins, losses, ties)


@pytest.mark.parametrize("s", [0.0, 0.5, 1.0, 5.0])
def test_theorem2_closed_form_equals_monte_carlo_for_any_s(s):
    # an independent Monte Carlo with numpy's own Dirichlet sampler:
    # theta = w0/2 + sum_i w_i H(b_i - a_i), (w0, w) ~ Dir(s, 1, ..., 1)
    a, b = _pair(9, 6, 3, seed=1)
    h = np.heaviside(b - a, 0.5)
    rng = np.random.default_rng(42)
    n_draws = 100_000
    alpha = np.array([s] + [1.0] * h.size) if s > 0 else np.ones(h.size)
    weights = rng.dirichlet(alpha, n_draws)
    theta = weights[:, 1:] @ h + 0.5 * weights[:, 0] if s > 0 else weights @ h
    mc = np.mean(theta > 0.5)
    se = np.sqrt(mc * (1 - mc) / n_draws)
    res = nbstats.bayes_sign_test(a, b, s=s, random_state=0)
    assert abs(res.prob_right - mc) < 3 * se
    # nbstats' own draws of theta agree as well
    own = np.mean(res.samples > 0.5)
    assert abs(res.prob_right - own) < 3 * np.sqrt(own * (1 - own) / res.samples.size)


def test_edge_cases_without_wins_or_losses():
    a = np.arange(6.0)
    assert nbstats.bayes_sign_test(a, a - 1).prob_right == 0.0
    assert nbstats.bayes_sign_test(a, a + 1).prob_right == 1.0
    assert nbstats.bayes_sign_test(a, a + 1).decision == "b"


def test_all_ties_is_no_evidence_either_way():
    a = np.linspace(0, 1, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = nbstats.bayes_sign_test(a, a.copy(), random_state=0)
    assert res.prob_right == 0.0
    assert res.prob_left == 0.0
    assert np.allclose(res.samples, 0.5)
    assert res.decision == "undecided"


def test_rope_probabilities_equal_an_independent_dirichlet_monte_carlo():
    rng = np.random.default_rng(3)
    a = rng.normal(size=40)
    b = a + rng.normal(0.02, 0.03, 40)
    rope = 0.01
    d = b - a
    counts = [(d < -rope).sum(), (np.abs(d) <= rope).sum() + 1.0, (d > rope).sum()]
    draws = rng.dirichlet(counts, 200_000)
    expected = np.bincount(np.argmax(draws, axis=1), minlength=3) / len(draws)
    res = nbstats.bayes_sign_test(a, b, rope=rope, s=1.0, random_state=0)
    got = np.array([res.prob_left, res.prob_rope, res.prob_right])
    se = np.sqrt(expected * (1 - expected) * (1 / 50_000 + 1 / 200_000))
    assert np.all(np.abs(got - expected) < 4 * se + 1e-12)
    assert got.sum() == pytest.approx(1.0)


def test_prob_equivalent_matches_an_independent_monte_carlo():
    a, b = _pair(8, 7, 4, seed=5)
    h = np.heaviside(b - a, 0.5)
    weights = np.random.default_rng(9).dirichlet([1.0] + [1.0] * h.size, 200_000)
    theta = weights[:, 1:] @ h + 0.5 * weights[:, 0]
    expected = np.mean(np.abs(theta - 0.5) < 0.05)
    got = nbstats.bayes_sign_test(a, b, random_state=0).prob_equivalent(0.05)
    assert abs(got - expected) < 4 * np.sqrt(
        expected * (1 - expected) * (1 / 50_000 + 1 / 200_000)
    )


def test_decision_follows_the_loss_threshold():
    a, b = _pair(11, 4, 0, seed=2)  # P(b better) ~ 0.98
    p = stats.beta.sf(0.5, 11, 4)
    assert 0.95 < p < 0.99
    assert nbstats.bayes_sign_test(a, b, loss=(1, 19)).decision == "b"
    assert nbstats.bayes_sign_test(a, b, loss=(1, 99)).decision == "undecided"
    assert nbstats.bayes_sign_test(a, b, threshold=0.5).threshold == 0.5


def test_common_random_numbers_make_s_smooth_and_seeds_reproducible():
    a, b = _pair(9, 6, 5, seed=4)
    first = nbstats.bayes_sign_test(a, b, random_state=7)
    assert np.array_equal(
        first.samples, nbstats.bayes_sign_test(a, b, random_state=7).samples
    )
    s_grid = np.linspace(0.5, 1.5, 11)
    eq = [
        nbstats.bayes_sign_test(a, b, s=s, random_state=7).prob_equivalent(0.1)
        for s in s_grid
    ]
    assert np.max(np.abs(np.diff(eq))) < 0.01


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"s": -1}, ValueError, "s must be a number >= 0"),
        ({"rope": -0.1}, ValueError, "rope"),
        ({"threshold": 1.5}, ValueError, "threshold"),
        ({"loss": (1, -2)}, ValueError, "loss must be a pair"),
        ({"n_samples": 0}, ValueError, "n_samples must be a whole number >= 1"),
        ({"n_samples": 2.5}, TypeError, "n_samples must be a whole number"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    a, b = _pair(5, 5, 0)
    with pytest.raises(error, match=match):
        nbstats.bayes_sign_test(a, b, **kwargs)


def test_few_samples_warn():
    a, b = _pair(5, 5, 0)
    with pytest.warns(UserWarning, match="Monte Carlo error"):
        nbstats.bayes_sign_test(a, b, n_samples=100)


def test_nan_is_refused_and_omitted_on_request():
    a, b = _pair(5, 5, 0)
    a[2] = np.nan
    with pytest.raises(ValueError, match="missing scores"):
        nbstats.bayes_sign_test(a, b)
    with pytest.warns(UserWarning, match="dropped 1 of 10"):
        res = nbstats.bayes_sign_test(a, b, nan_policy="omit")
    assert res.wins + res.losses + res.n_ties == 9
