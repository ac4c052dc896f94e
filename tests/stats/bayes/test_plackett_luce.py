"""The Bayesian Plackett–Luce ranking against maximum likelihood, Stan and known truths."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.stats.bayes.plackett_luce import bayes_plackett_luce

choix = pytest.importorskip("choix")

REFERENCE = pathlib.Path(__file__).parents[2] / "data" / "plackett_luce_reference.json"


def simulate_scores(worths: np.ndarray, n: int, seed: int) -> np.ndarray:
    """Scores whose rankings follow Plackett–Luce (Gumbel scores of log worths)."""
    rng = np.random.default_rng(seed)
    return np.log(worths) + rng.gumbel(size=(n, len(worths)))


def mle_worths(scores: np.ndarray) -> np.ndarray:
    """choix's maximum-likelihood worths, normalised to sum to 1."""
    rankings = []
    for row in scores:
        observed = np.flatnonzero(~np.isnan(row))
        rankings.append(list(observed[np.argsort(-row[observed])]))
    params = choix.ilsr_rankings(scores.shape[1], rankings)
    worths = np.exp(params)
    return worths / worths.sum()


def test_posterior_means_agree_with_maximum_likelihood():
    true = np.array([0.3, 0.25, 0.15, 0.12, 0.1, 0.08])
    scores = simulate_scores(true, n=600, seed=11)
    res = bayes_plackett_luce(scores, random_state=1)
    np.testing.assert_allclose(res.ranking["worth"], mle_worths(scores), atol=0.02)


def test_partial_rankings_agree_with_maximum_likelihood():
    true = np.array([0.35, 0.25, 0.2, 0.12, 0.08])
    scores = simulate_scores(true, n=700, seed=5)
    rng = np.random.default_rng(6)
    gaps = rng.random(scores.shape) < 0.3
    gaps[:, 0] &= np.arange(len(scores)) % 2 == 0  # keep most of the first
    scores[gaps] = np.nan
    res = bayes_plackett_luce(scores, nan_policy="partial", random_state=2)
    keep = np.sum(~np.isnan(scores), axis=1) >= 2
    np.testing.assert_allclose(
        res.ranking["worth"], mle_worths(scores[keep]), atol=0.02
    )
    assert res.n_left_out == int((~keep).sum())
    assert res.n_partial == int(np.isnan(scores[keep]).any(axis=1).sum())


def test_known_worths_are_recovered():
    true = np.array([0.4, 0.3, 0.2, 0.1])
    scores = simulate_scores(true, n=3000, seed=3)
    res = bayes_plackett_luce(scores, random_state=4)
    ranking = res.ranking
    assert np.all(ranking["worth_lower"] < true)
    assert np.all(true < ranking["worth_upper"])
    np.testing.assert_allclose(ranking["worth"], true, atol=0.015)
    assert int(np.argmax(res.prob_best)) == 0
    np.testing.assert_array_equal(ranking["rank_lower"], [1, 2, 3, 4])
    np.testing.assert_array_equal(ranking["rank_upper"], [1, 2, 3, 4])


def test_agrees_with_stored_stan_run_of_scmamps_model():
    """tests/data/make_plackett_luce_reference.py ran the model with Stan's NUTS."""
    ref = json.loads(REFERENCE.read_text(encoding="utf-8"))
    scores = np.array(ref["scores"])
    res = bayes_plackett_luce(scores, s=ref["prior"], n_samples=40_000, random_state=7)
    ranking = res.ranking
    ours = {
        "worth": (ranking["worth"], ranking["worth"] * 0),
        "expected_rank": (ranking["expected_rank"], ranking["expected_rank_mc_error"]),
        "prob_best": (ranking["prob_best"], ranking["prob_best_mc_error"]),
    }
    worth_sd = res.worths.std(axis=0)
    worth_mc = worth_sd / np.sqrt(res.diagnostics["ess"].to_numpy())
    ours["worth"] = (ranking["worth"], worth_mc)
    for name, (value, mc) in ours.items():
        theirs = np.array(ref[name])
        combined = np.hypot(np.asarray(mc), np.array(ref[name + "_mc_error"]))
        assert np.all(np.abs(np.asarray(value) - theirs) <= 4 * combined + 1e-12), name


def test_same_answer_whatever_the_order_of_rows_and_columns():
    rng = np.random.default_rng(8)
    names = [f"alg{j}" for j in range(6)]
    table = pd.DataFrame(
        np.round(rng.normal(size=(25, 6)) + np.linspace(0, 1, 6), 1), columns=names
    )
    table.iloc[3, 2] = np.nan
    base = bayes_plackett_luce(table, nan_policy="partial", random_state=9)
    shuffled = table.iloc[rng.permutation(25), rng.permutation(6)]
    other = bayes_plackett_luce(shuffled, nan_policy="partial", random_state=9)
    pd.testing.assert_frame_equal(other.ranking.loc[names], base.ranking)
    pd.testing.assert_frame_equal(other.prob_above.loc[names, names], base.prob_above)


def test_all_scores_tied_gives_a_uniform_posterior():
    table = np.ones((20, 5))
    res = bayes_plackett_luce(table, random_state=3)
    best = res.ranking["prob_best"]
    mc = res.ranking["prob_best_mc_error"]
    assert np.all(np.abs(best - 0.2) <= 4 * mc)
    np.testing.assert_allclose(res.ranking["expected_rank"], 3.0, atol=0.1)
    np.testing.assert_allclose(res.ranking["worth"], 0.2, atol=0.01)


def test_two_tied_leaders_share_first_place():
    rng = np.random.default_rng(0)
    table = rng.normal(size=(30, 4))
    table[:, 0] = table[:, 1] = 10.0  # 0 and 1 tie at the top on every case
    res = bayes_plackett_luce(table, random_state=1)
    best = res.ranking["prob_best"].to_numpy()
    assert abs(best[0] - best[1]) <= 4 * np.hypot(
        *res.ranking["prob_best_mc_error"][:2]
    )
    assert best[:2].sum() > 0.99


def test_lower_is_better_reverses_the_ranking():
    true = np.array([0.5, 0.3, 0.2])
    scores = simulate_scores(true, n=300, seed=1)
    up = bayes_plackett_luce(scores, random_state=2)
    down = bayes_plackett_luce(-scores, higher_is_better=False, random_state=2)
    pd.testing.assert_frame_equal(up.ranking, down.ranking)


def test_probabilities_are_consistent():
    table = nbstats.datasets.load("demsar2006")
    res = bayes_plackett_luce(table, random_state=0)
    assert res.prob_best.sum() == pytest.approx(1.0)
    above = res.prob_above.to_numpy()
    off = ~np.eye(len(above), dtype=bool)
    np.testing.assert_allclose((above + above.T)[off], 1.0)
    # expected rank = 1 + Σ_j P(j above i)
    np.testing.assert_allclose(res.expected_rank, 1 + above.sum(axis=0))
    assert res.n_samples == 8000
    assert res.max_rhat < 1.01


def test_same_seed_same_draws_and_seeds_differ_within_mc_error():
    table = nbstats.datasets.load("demsar2006")
    a = bayes_plackett_luce(table, random_state=5)
    b = bayes_plackett_luce(table, random_state=5)
    c = bayes_plackett_luce(table, random_state=6)
    np.testing.assert_array_equal(a.worths, b.worths)
    gap = np.abs(a.prob_best - c.prob_best)
    assert np.all(
        gap
        <= 5
        * np.hypot(a.ranking["prob_best_mc_error"], c.ranking["prob_best_mc_error"])
        + 1e-12
    )


def test_two_algorithms_match_the_beta_posterior():
    """With m = 2, the worth of the first is Beta(α + wins, α + losses)."""
    scores = np.array([[1.0, 0.0]] * 14 + [[0.0, 1.0]] * 6)
    res = bayes_plackett_luce(scores, n_samples=40_000, random_state=0)
    w = res.worths[:, 0]
    assert w.mean() == pytest.approx(15 / 22, abs=3 * w.std() / np.sqrt(res.min_ess))
    assert res.prob_best.iloc[0] == pytest.approx(stats.beta.sf(0.5, 15, 7), abs=0.01)


def test_many_algorithms_run():
    rng = np.random.default_rng(2)
    table = rng.normal(size=(40, 100)) + np.linspace(0, 3, 100)
    res = bayes_plackett_luce(table, n_samples=800, random_state=1)
    assert res.ranking.shape[0] == 100
    assert int(np.argmax(res.prob_best)) >= 90


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"s": 0}, ValueError, "s must be a number > 0"),
        ({"s": "1"}, TypeError, "s must be a number"),
        ({"prior": 1.0}, TypeError, "prior"),
        ({"level": 1.5}, ValueError, r"level must be a number in \(0, 1\)"),
        ({"level": "0.9"}, TypeError, "level must be a number"),
        ({"n_samples": 10}, ValueError, ">= 400"),
        ({"n_samples": 1000.0}, TypeError, "n_samples must be a whole number"),
        ({"nan_policy": "pairwise"}, ValueError, "nan_policy"),
        ({"random_state": "x"}, TypeError, "random_state"),
        ({"random_state": -1}, ValueError, "random_state"),
        ({"higher_is_better": "no"}, TypeError, "higher_is_better"),
        ({"progress": "no"}, TypeError, "progress"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        bayes_plackett_luce(np.random.default_rng(0).normal(size=(5, 3)), **kwargs)


def test_missing_cells_are_refused_by_default_and_named():
    table = pd.DataFrame({"A": [1.0, 2.0, np.nan], "B": [0.5, 1.0, 2.0]})
    with pytest.raises(ValueError, match="missing scores at"):
        bayes_plackett_luce(table)


def test_cases_without_two_scores_are_refused_when_none_is_left():
    table = pd.DataFrame({"A": [1.0, np.nan, np.nan], "B": [np.nan, 1.0, np.nan]})
    table["C"] = [np.nan, np.nan, 3.0]
    with pytest.raises(ValueError, match="no case ranks two or more"):
        bayes_plackett_luce(table, nan_policy="partial")
