"""Synthetic generators: moments against their definitions, determinism."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from nbstats.simulate import (
    CandidateEvaluator,
    challenge_scores,
    paired_normal,
    racing_candidates,
)

# --- challenge_scores (Foucart et al. 2025, supplement) ----------------------


def _sigma_n(kappa: float = 2.0) -> float:
    # the supplement: sigma_N = sqrt(sigma_D), sigma_D the difficulty's sd
    return math.sqrt(stats.laplace_asymmetric(kappa).std())


def test_challenge_shape_names_and_true_ranks():
    scores, truth = challenge_scores(7, 4, 0.5, random_state=0)
    assert scores.shape == (7, 4)
    assert scores.index.tolist() == [f"case{j}" for j in range(1, 8)]
    assert scores.columns.tolist() == ["alg1", "alg2", "alg3", "alg4"]
    assert (scores.index.name, scores.columns.name) == ("case", "algorithm")
    # algorithm i = 0..m-1 has mean offset i f sigma_N: the last is the best
    assert truth.tolist() == [4.0, 3.0, 2.0, 1.0]
    assert truth.index.equals(scores.columns)


def test_challenge_no_separation_ties_every_true_rank():
    _, truth = challenge_scores(5, 5, 0.0, random_state=0)
    assert truth.tolist() == [3.0] * 5


@pytest.mark.parametrize("f", [0.25, 1.0, 2.0])
def test_challenge_offsets_are_i_f_sigma_n(f):
    # s_ij - mean_i(s_.j) removes the difficulty: its column mean estimates
    # (i - (m - 1)/2) f sigma_N
    n, m = 40_000, 4
    scores, _ = challenge_scores(n, m, f, random_state=11)
    values = scores.to_numpy()
    centred = values - values.mean(axis=1, keepdims=True)
    sigma_n = _sigma_n()
    expected = (np.arange(m) - (m - 1) / 2) * f * sigma_n
    # sd of a centred cell is sigma_N sqrt(1 - 1/m)
    se = sigma_n * math.sqrt(1 - 1 / m) / math.sqrt(n)
    np.testing.assert_allclose(centred.mean(axis=0), expected, atol=5 * se)
    # and the noise sd: s_1j - s_0j ~ N(f sigma_N, 2 sigma_N^2)
    diff = values[:, 1] - values[:, 0]
    assert diff.mean() == pytest.approx(f * sigma_n, abs=5 * sigma_n * 2**0.5 / n**0.5)
    assert diff.std(ddof=1) == pytest.approx(math.sqrt(2) * sigma_n, rel=0.02)


def test_challenge_difficulty_matches_scipy_laplace_asymmetric():
    # f = 0: the case mean over m algorithms is d_j + (mean of m normals),
    # so its mean is E[d] and its skewness kappa3(d) / var^1.5
    n, m = 100_000, 50
    scores, _ = challenge_scores(n, m, 0.0, random_state=3)
    case_means = scores.mean(axis=1).to_numpy()
    dist = stats.laplace_asymmetric(2.0)
    mean_d, var_d, skew_d = (float(v) for v in dist.stats(moments="mvs"))
    assert skew_d < 0  # kappa = 2: a long tail towards low scores
    var = var_d + _sigma_n() ** 2 / m
    assert case_means.mean() == pytest.approx(mean_d, abs=5 * math.sqrt(var / n))
    assert case_means.var(ddof=1) == pytest.approx(var, rel=0.03)
    expected_skew = skew_d * var_d**1.5 / var**1.5
    assert stats.skew(case_means) == pytest.approx(expected_skew, abs=0.15)


def test_challenge_kappa_one_is_symmetric():
    scores, _ = challenge_scores(100_000, 20, 0.0, kappa=1.0, random_state=4)
    assert stats.skew(scores.mean(axis=1)) == pytest.approx(0.0, abs=0.1)


def test_challenge_deterministic_for_equal_seeds():
    a = challenge_scores(10, 3, 1.0, random_state=5)
    b = challenge_scores(10, 3, 1.0, random_state=5)
    pd.testing.assert_frame_equal(a[0], b[0])
    pd.testing.assert_series_equal(a[1], b[1])
    c, _ = challenge_scores(10, 3, 1.0, random_state=6)
    assert not np.allclose(a[0].to_numpy(), c.to_numpy())
    # a Generator is advanced: two calls with it differ, and equal
    # generators give equal tables
    rng = np.random.default_rng(0)
    first, _ = challenge_scores(10, 3, 1.0, random_state=rng)
    second, _ = challenge_scores(10, 3, 1.0, random_state=rng)
    assert not np.allclose(first.to_numpy(), second.to_numpy())
    again, _ = challenge_scores(10, 3, 1.0, random_state=np.random.default_rng(0))
    pd.testing.assert_frame_equal(first, again)


def test_challenge_common_random_numbers_across_separability():
    # same seed: same difficulty and noise draws, only the offsets change
    low, _ = challenge_scores(6, 3, 0.5, random_state=9)
    high, _ = challenge_scores(6, 3, 1.5, random_state=9)
    offsets = np.arange(3) * 1.0 * _sigma_n()
    np.testing.assert_allclose(
        high.to_numpy() - low.to_numpy(), np.tile(offsets, (6, 1))
    )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"n_cases": 1}, ValueError),
        ({"n_algorithms": 1}, ValueError),
        ({"n_cases": 5.0}, TypeError),
        ({"separability": -0.5}, ValueError),
        ({"separability": math.nan}, ValueError),
        ({"kappa": 0.0}, ValueError),
        ({"separability": "big"}, TypeError),
    ],
)
def test_challenge_bad_input(kwargs, error):
    args = {"n_cases": 5, "n_algorithms": 3, "separability": 1.0, **kwargs}
    with pytest.raises(error):
        challenge_scores(**args)


# --- paired_normal (Benavoli et al. 2014, eq. 10) ---------------------------


@pytest.mark.parametrize(
    ("delta", "sigma", "rho"),
    [(0.05, 0.12, 0.0), (-0.07, 0.12, 0.95), (1.0, 2.0, -0.5)],
)
def test_paired_normal_moments(delta, sigma, rho):
    n = 200_000
    pair = paired_normal(n, delta, sigma=sigma, rho=rho, random_state=2)
    assert pair.columns.tolist() == ["a", "b"]
    se_mean = sigma / math.sqrt(n)
    assert pair["a"].mean() == pytest.approx(0.0, abs=5 * se_mean)
    assert pair["b"].mean() == pytest.approx(delta, abs=5 * se_mean)
    cov = np.cov(pair.to_numpy(), rowvar=False)
    expected = sigma**2 * np.array([[1, rho], [rho, 1]])
    np.testing.assert_allclose(cov, expected, atol=0.02 * sigma**2)
    # the difference b - a has mean delta and variance 2 sigma^2 (1 - rho)
    d = pair["b"] - pair["a"]
    assert d.var() == pytest.approx(2 * sigma**2 * (1 - rho), rel=0.02)


def test_paired_normal_perfect_correlation():
    pair = paired_normal(10, 0.3, rho=1.0, random_state=0)
    np.testing.assert_allclose(pair["b"] - pair["a"], 0.3)


def test_paired_normal_deterministic():
    pd.testing.assert_frame_equal(
        paired_normal(30, 0.05, random_state=1), paired_normal(30, 0.05, random_state=1)
    )
    assert not paired_normal(30, 0.05, random_state=1).equals(
        paired_normal(30, 0.05, random_state=2)
    )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"rho": 1.5}, ValueError),
        ({"sigma": 0.0}, ValueError),
        ({"n_cases": 1}, ValueError),
        ({"delta": math.inf}, ValueError),
        ({"delta": True}, TypeError),
    ],
)
def test_paired_normal_bad_input(kwargs, error):
    args = {"n_cases": 10, "delta": 0.0, **kwargs}
    with pytest.raises(error):
        paired_normal(**args)


# --- racing_candidates (Benavoli et al. 2015, §7.1) -------------------------


def test_racing_means_are_uniform():
    means, evaluate = racing_candidates(20_000, random_state=0)
    assert means.shape == (20_000,)
    assert means.min() >= 0 and means.max() < 1
    assert stats.kstest(means, "uniform").pvalue > 1e-3
    assert not means.flags.writeable
    assert evaluate.best == int(np.argmax(means))


def test_racing_scores_are_normal_around_the_mean():
    means, evaluate = racing_candidates(3, sigma=0.5, random_state=1)
    draws = np.array([evaluate(2, k) for k in range(4000)])
    assert draws.mean() == pytest.approx(means[2], abs=5 * 0.5 / math.sqrt(4000))
    assert draws.std(ddof=1) == pytest.approx(0.5, rel=0.05)


def test_racing_evaluate_is_deterministic_and_order_free():
    _, evaluate = racing_candidates(5, random_state=7)
    pairs = [(c, k) for c in range(5) for k in range(6)]
    forward = {p: evaluate(*p) for p in pairs}
    shuffled = [pairs[i] for i in np.random.default_rng(0).permutation(len(pairs))]
    backward = {p: evaluate(*p) for p in shuffled}
    assert forward == backward
    assert len(set(forward.values())) == len(pairs)  # every pair its own draw
    # numpy integers are accepted and give the same scores
    assert evaluate(np.int64(3), np.int32(4)) == forward[(3, 4)]


def test_racing_equal_seeds_equal_races_and_pickles():
    means_a, eval_a = racing_candidates(4, random_state=3)
    means_b, eval_b = racing_candidates(4, random_state=3)
    np.testing.assert_array_equal(means_a, means_b)
    assert eval_a(1, 2) == eval_b(1, 2)
    means_c, eval_c = racing_candidates(4, random_state=4)
    assert not np.array_equal(means_a, means_c)
    assert eval_a(1, 2) != eval_c(1, 2)
    # picklable (process pools): the copy scores identically
    clone = pickle.loads(pickle.dumps(eval_a))
    assert isinstance(clone, CandidateEvaluator)
    assert [clone(c, 9) for c in range(4)] == [eval_a(c, 9) for c in range(4)]


def test_racing_unseeded_evaluator_is_still_deterministic():
    _, evaluate = racing_candidates(3, random_state=None)
    assert evaluate(0, 0) == evaluate(0, 0)


@pytest.mark.parametrize(
    ("candidate", "instance", "error"),
    [(5, 0, ValueError), (-1, 0, ValueError), (0, -1, ValueError), (0.5, 0, TypeError)],
)
def test_racing_evaluate_bad_arguments(candidate, instance, error):
    _, evaluate = racing_candidates(5, random_state=0)
    with pytest.raises(error):
        evaluate(candidate, instance)


def test_racing_bad_input():
    with pytest.raises(ValueError, match="n_candidates"):
        racing_candidates(1)
    with pytest.raises(ValueError, match="sigma"):
        racing_candidates(3, sigma=-1.0)
