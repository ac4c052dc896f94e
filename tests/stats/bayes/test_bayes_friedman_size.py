"""Size of the Bayesian Friedman test under the null (issue 14).

Tables of i.i.d. normal scores have no difference between algorithms; at
``gamma = 0.05`` each method may declare one in at most ``2 gamma`` of them.
The uncalibrated Monte Carlo rule (``posterior_mass > 1 - gamma``, what
``method="montecarlo"`` did before) is checked on the same tables to show the
test would catch it. The full table: ``benchmarks/bench_bayes_friedman_size.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from nbstats.stats.bayes.friedman import bayes_friedman, posterior_samples

GAMMA = 0.05
N_SETS = 200
#: a count above this is implausible (p < 0.001) if the true rate were 2 gamma
TOLERANCE = int(stats.binom.ppf(0.999, N_SETS, 2 * GAMMA))


def _null_tables(n: int, m: int, seed: int = 14) -> list[np.ndarray]:
    rng = np.random.default_rng([seed, n, m])
    return [rng.normal(size=(n, m)) for _ in range(N_SETS)]


def _counts(n: int, m: int) -> dict[str, int]:
    counts = {"ellipsoid": 0, "montecarlo": 0, "uncalibrated": 0}
    for i, table in enumerate(_null_tables(n, m)):
        ell = bayes_friedman(table, threshold=1 - GAMMA)
        mc = bayes_friedman(
            table,
            threshold=1 - GAMMA,
            method="montecarlo",
            n_samples=1000,
            random_state=i,
        )
        counts["ellipsoid"] += ell.reject
        counts["montecarlo"] += mc.reject
        counts["uncalibrated"] += mc.posterior_mass > 1 - GAMMA
    return counts


@pytest.mark.parametrize(("n", "m"), [(3, 3), (5, 3), (10, 5)])
def test_rejects_a_true_null_at_most_twice_gamma(n, m):
    counts = _counts(n, m)
    assert counts["ellipsoid"] <= TOLERANCE
    assert counts["montecarlo"] <= TOLERANCE
    # the old rule rejected 54%, 30% and 31% of such tables (1000 each)
    assert counts["uncalibrated"] > TOLERANCE
    if n == m:
        # Hotelling's radius is huge there (F with 1 denominator df)
        assert counts["ellipsoid"] == counts["montecarlo"] == 0


@pytest.mark.parametrize("method", ["ellipsoid", "montecarlo"])
@pytest.mark.parametrize(("n", "m"), [(2, 3), (4, 10), (9, 10)])
def test_fewer_cases_than_algorithms_refused_naming_the_minimum(method, n, m):
    table = np.random.default_rng(0).normal(size=(n, m))
    with pytest.raises(ValueError, match="needs at least") as info:
        bayes_friedman(table, method=method)
    text = str(info.value)
    assert f"n >= m = {m} cases" in text
    assert f"got n = {n} cases for m = {m} algorithms" in text
    assert f"at least {m} cases" in text
    assert "nbstats.friedman" in text  # what to use instead
    assert method in text


def test_minimum_is_accepted_by_both_methods():
    table = np.random.default_rng(1).normal(size=(10, 10))
    for method in ("ellipsoid", "montecarlo"):
        res = bayes_friedman(table, method=method, n_samples=1000, random_state=0)
        assert np.isfinite(res.rho)
        assert not res.reject
        # the uncalibrated share is kept for Monte Carlo only
        assert (res.posterior_mass is None) == (method == "ellipsoid")


def test_below_the_minimum_the_posterior_ignores_the_ranks():
    """Why n < m is refused: with s > 0 and affinely independent rank vectors
    the draws are an injective affine image of the same Dirichlet weights, so
    every draw's Mahalanobis distance (and μ0's) is the same for any ranks."""
    rng = np.random.default_rng(5)
    n, m = 3, 6
    mu0 = np.full(m, (m + 1) / 2)

    def distances(ranks: np.ndarray) -> tuple[np.ndarray, float]:
        draws = posterior_samples(ranks, 1.0, 4000, random_state=9)
        # n + 1 = 4 support points span 3 of the m - 1 = 5 dimensions: use
        # numpy's pseudo-inverse of the sample covariance
        centre = draws.mean(axis=0)
        inv = np.linalg.pinv(np.cov(draws.T), hermitian=True)
        d = np.einsum("ij,jk,ik->i", draws - centre, inv, draws - centre)
        return d, float((mu0 - centre) @ inv @ (mu0 - centre))

    first = stats.rankdata(rng.normal(size=(n, m)), axis=1)
    second = stats.rankdata(rng.normal(size=(n, m)), axis=1)
    assert not np.array_equal(first, second)
    (d1, s1), (d2, s2) = distances(first), distances(second)
    np.testing.assert_allclose(d1, d2, rtol=1e-6, atol=1e-9)
    assert s1 == pytest.approx(s2, rel=1e-6)
    # and μ0, a vertex of the support, is farther than 95% of the draws
    assert np.mean(d1 < s1) > 0.95


# -- the Bayesian bootstrap (s = 0) -------------------------------------------


def test_bootstrap_ellipsoid_is_hotellings_t2_on_the_ranks():
    # s = 0: the posterior covariance is (n - 1)/(n + 1) of Hotelling's S/n,
    # and the radius allows for it, so the test is Hotelling's one-sample T²
    # of the rank vectors against (m + 1)/2 (computed here from its textbook
    # formula in m - 1 of the m coordinates)
    rng = np.random.default_rng(3)
    for n, m in [(8, 3), (12, 4), (30, 6)]:
        table = rng.normal(size=(n, m)) + np.linspace(0, 0.6, m)
        ranks = stats.rankdata(-table, axis=1)[:, :-1]
        diff = ranks.mean(axis=0) - (m + 1) / 2
        t2 = n * diff @ np.linalg.solve(np.cov(ranks.T), diff)
        f = t2 * (n - m + 1) / ((n - 1) * (m - 1))
        p_value = stats.f.sf(f, m - 1, n - m + 1)
        res = bayes_friedman(table, s=0, threshold=1 - GAMMA)
        assert res.credibility == pytest.approx(1 - p_value, abs=1e-9)
        assert res.reject == (p_value < GAMMA)


@pytest.mark.parametrize(("n", "m"), [(6, 3), (10, 5)])
def test_bootstrap_rejects_a_true_null_at_most_twice_gamma(n, m):
    counts = {"ellipsoid": 0, "montecarlo": 0}
    for i, table in enumerate(_null_tables(n, m, seed=15)):
        for method in counts:
            counts[method] += bayes_friedman(
                table, s=0, threshold=1 - GAMMA, method=method, n_samples=1000,
                random_state=i,
            ).reject  # fmt: skip
    assert counts["ellipsoid"] <= TOLERANCE
    assert counts["montecarlo"] <= TOLERANCE


def test_bootstrap_below_twice_m_is_singular_too_often():
    """Why s = 0 needs n >= 2m: with 4 cases of 4 algorithms the posterior
    covariance is often singular with μ0 off the posterior's support (an
    infinite distance: a rejection whatever the ranks)."""
    from nbstats.stats.bayes.friedman import posterior_moments

    rng = np.random.default_rng(4)
    infinite = 0
    for _ in range(400):
        ranks = stats.rankdata(rng.normal(size=(4, 4)), axis=1)
        mu, cov = posterior_moments(ranks, 0.0)
        diff = 2.5 - mu
        # off the support: μ0 - μ has a component outside cov's column space
        resid = diff - cov @ np.linalg.pinv(cov, hermitian=True) @ diff
        infinite += np.abs(resid).max() > 1e-8
    assert infinite / 400 > 2 * GAMMA  # 24% of 1000 such tables


@pytest.mark.parametrize("method", ["ellipsoid", "montecarlo"])
def test_bootstrap_needs_twice_as_many_cases_naming_the_minimum(method):
    table = np.random.default_rng(0).normal(size=(7, 4))
    with pytest.raises(ValueError, match="s = 0") as info:
        bayes_friedman(table, s=0, method=method)
    text = str(info.value)
    assert "n >= 2m = 8 cases" in text and "got n = 7 cases for m = 4" in text
    assert "s > 0" in text and "nbstats.friedman" in text
    # 8 cases are enough, and a prior needs only 4
    res = bayes_friedman(table[:4], s=1.0, method=method, n_samples=1000)
    assert res.n_cases == 4
    more = np.random.default_rng(0).normal(size=(8, 4))
    assert bayes_friedman(more, s=0, method=method, n_samples=1000).n_cases == 8
