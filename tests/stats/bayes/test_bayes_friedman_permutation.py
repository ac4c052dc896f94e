"""The Bayesian Friedman test's distance as a function of Hotelling's T², the
batched distances, and the optional permutation calibration (issue 38,
item 4).

Oracles: Hotelling's T² on the cases' rank vectors computed here with numpy
(the closed form ``D = g(T²)`` of ``friedman_permutation``'s notes); every
within-case permutation of small tables, enumerated (the exact permutation
p-value); the binomial law of the rejection count under the null.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.stats.bayes.friedman_permutation import (
    batch_distances,
    permutation_calibration,
)


def _ranks(x: np.ndarray) -> np.ndarray:
    return stats.rankdata(-x, axis=-1)


def _hotelling_closed_form(ranks: np.ndarray, s: float) -> float:
    """``g(T²) = n(α+1)/(α(n−1)) · T² / (1 + s T²/(α(n−1)))``, α = n + s."""
    n, m = ranks.shape
    # m − 1 contrasts against the last algorithm (any basis of the plane)
    contrasts = ranks[:, :-1] - ranks[:, -1:]
    d = contrasts.mean(axis=0)  # μ0's contrasts are 0
    t2 = n * d @ np.linalg.solve(np.cov(contrasts, rowvar=False).reshape(m - 1, -1), d)
    alpha = n + s
    return n * (alpha + 1) / (alpha * (n - 1)) * t2 / (1 + s * t2 / (alpha * (n - 1)))


@given(
    n=st.integers(4, 20),
    m=st.integers(3, 6),
    s=st.sampled_from([0.0, 0.5, 1.0, 4.0]),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=80, deadline=None)
def test_the_distance_is_a_function_of_hotellings_t2(n, m, s, seed):
    x = np.random.default_rng(seed).normal(size=(n, m))
    x[:, 0] += 0.7  # some signal, so that T² ranges widely
    ranks = _ranks(x)
    contrasts = ranks[:, :-1] - ranks[:, -1:]
    if n <= m or np.linalg.matrix_rank(np.cov(contrasts, rowvar=False)) < m - 1:
        return  # singular S: the pseudo-inverse rule, tested below
    expected = _hotelling_closed_form(ranks, s)
    res = nbstats.bayes_friedman(x, s=s) if n >= (2 * m if s == 0 else m) else None
    if res is not None:
        assert res.statistic == pytest.approx(expected, rel=1e-9)
    assert batch_distances(ranks[None], s)[0] == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("s", [0.0, 1.0])
def test_batched_distances_equal_the_function_also_when_degenerate(s):
    rng = np.random.default_rng(38)
    tables = [rng.normal(size=(12, 4)) for _ in range(20)]
    tables.append(np.tile([4.0, 3.0, 2.0, 1.0], (12, 1)))  # one ranking: degenerate
    tables.append(np.ones((12, 4)))  # all tied: μ = μ0
    tables.append(rng.integers(0, 2, size=(12, 4)).astype(float))  # many ties
    ranks = np.stack([_ranks(t) for t in tables])
    batch = batch_distances(ranks, s)
    for table, distance in zip(tables, batch, strict=True):
        expected = nbstats.bayes_friedman(table, s=s).statistic
        if math.isinf(expected):
            assert math.isinf(distance)
        else:
            assert distance == pytest.approx(expected, rel=1e-9, abs=1e-12)


def _exact_pvalue(ranks: np.ndarray, s: float) -> float:
    """P(D_π ≥ D) over all (m!)^n within-case permutations, enumerated."""
    per_case = [list(itertools.permutations(row)) for row in ranks]
    every = np.array(list(itertools.product(*per_case)))
    null = batch_distances(every, s)
    statistic = batch_distances(ranks[None], s)[0]
    return float(np.mean(null >= statistic * (1 - 1e-9)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_permutation_pvalue_estimates_the_exact_one(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(5, 3))
    x[:, 0] += 0.8 * seed
    ranks = _ranks(x)
    exact = _exact_pvalue(ranks, 1.0)
    b = 20_000
    res = nbstats.bayes_friedman(
        x, calibration="permutation", n_permutations=b, random_state=seed
    )
    pvalue = 1 - res.credibility
    # (1 + count)/(B + 1) is within a few standard errors of the exact share
    assert abs(pvalue - exact) <= 4 * math.sqrt(exact * (1 - exact) / b) + 2 / b
    assert res.reject == (pvalue <= 1 - res.threshold)


def test_rho_separates_the_rejected_statistics():
    rng = np.random.default_rng(5)
    ranks = _ranks(rng.normal(size=(10, 4)))
    b, gamma = 999, 0.05
    for statistic in (0.5, 3.0, 8.0, 15.0, 30.0):
        rho, pvalue = permutation_calibration(ranks, 1.0, statistic, gamma, b, 7)
        assert (pvalue <= gamma) == (statistic > rho)
    # too few permutations to reach γ: never rejects
    rho, pvalue = permutation_calibration(ranks, 1.0, 1e9, gamma, 10, 7)
    assert rho == math.inf and pvalue == pytest.approx(1 / 11)


def test_size_under_the_null_is_at_most_gamma():
    # 10 x 3 tables of i.i.d. scores, where the default ellipsoid rejects
    # about 7% at γ = 0.05 (benchmarks/bench_bayes_friedman_size.py)
    rng = np.random.default_rng(38)
    sets, gamma = 300, 0.05
    rejections = sum(
        nbstats.bayes_friedman(
            rng.normal(size=(10, 3)),
            threshold=1 - gamma,
            calibration="permutation",
            n_permutations=99,
            random_state=i,
        ).reject
        for i in range(sets)
    )
    # a count above this is implausible (p < 0.001) if the size were γ
    assert rejections <= stats.binom.ppf(0.999, sets, gamma)


def test_a_real_difference_is_found_and_the_default_is_unchanged():
    table = nbstats.datasets.load("demsar2006")
    default = nbstats.bayes_friedman(table)
    assert default.calibration == "benavoli" and default.n_permutations is None
    assert default.rho == pytest.approx(12.72, abs=0.005)
    res = nbstats.bayes_friedman(table, calibration="permutation", random_state=1)
    assert res.statistic == default.statistic  # the same posterior distance
    assert res.reject and res.n_permutations == 1999
    assert res.rho > default.rho  # the permutation radius is wider here
    again = nbstats.bayes_friedman(table, calibration="permutation", random_state=1)
    assert (again.rho, again.credibility) == (res.rho, res.credibility)
    assert "1,999 within-case permutations" in repr(res)


def test_the_methods_sentence_states_the_calibration():
    from nbstats.results.methods_text import MethodsContext

    table = nbstats.datasets.load("demsar2006")
    res = nbstats.bayes_friedman(table, calibration="permutation", random_state=1)
    text = res.methods_sentence(MethodsContext(seed=1)).text()
    assert "1,999 random within-case permutations" in text
    plain = nbstats.bayes_friedman(table).methods_sentence(MethodsContext(seed=1))
    assert "permutation" not in plain.text()


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"calibration": "hotelling"}, ValueError, "calibration"),
        (
            {"calibration": "permutation", "method": "montecarlo"},
            ValueError,
            "method='ellipsoid'",
        ),
        (
            {"calibration": "permutation", "n_permutations": 0},
            ValueError,
            "n_permutations must be a whole number >= 1",
        ),
        (
            {"calibration": "permutation", "n_permutations": 9.5},
            TypeError,
            r"n_permutations must be a whole number \(int\)",
        ),
    ],
)
def test_bad_options_are_named(options, error, match):
    table = nbstats.datasets.load("demsar2006")
    with pytest.raises(error, match=match):
        nbstats.bayes_friedman(table, **options)
