"""The normal approximation of the signed-rank posterior against Monte Carlo.

Oracle: ``bayes_signrank(method="montecarlo")`` — the Dirichlet process drawn
exactly — at 1,200 and 4,000 cases; independently, the exact posterior mean
of θ (Dirichlet moments). The normal form must match θ's mean, spread and the
reported probabilities within their Monte Carlo error.
"""

from __future__ import annotations

import numpy as np
import pytest

import nbstats
from nbstats.stats.bayes.signrank.one_pair import NORMAL_CASES, posterior_means


def _data(n: int, shift: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.normal(0.0, 1.0, n)
    return a, a + np.round(rng.normal(shift, 1.0, n), 2)  # rounded: ties


@pytest.mark.parametrize(
    ("prior", "s", "z0"), [("idp", None, 0.0), ("bb", None, 0.0), ("point", 4.0, 0.2)]
)
def test_normal_form_matches_monte_carlo_at_1200_cases(prior, s, z0):
    a, b = _data(1200, 0.0, 1)
    kw = dict(prior=prior, s=s, prior_at=z0, rope=0.3, random_state=3)
    exact = nbstats.bayes_signrank(a, b, method="montecarlo", n_samples=3000, **kw)
    approx = nbstats.bayes_signrank(a, b, method="normal", n_samples=50_000, **kw)
    assert (exact.method, approx.method) == ("montecarlo", "normal")
    sd = exact.samples.std()
    for got, ref in ((approx.samples_lower, exact.samples_lower),
                     (approx.samples_upper, exact.samples_upper)):  # fmt: skip
        assert abs(got.mean() - ref.mean()) < 0.1 * sd
        assert got.std() == pytest.approx(ref.std(), rel=0.1)
    # the exact posterior mean of θ (Dirichlet moments), an independent number
    d = b - a
    mean_lower, mean_upper = posterior_means(d, prior, exact.s, z0)
    assert approx.samples_lower.mean() == pytest.approx(mean_lower, abs=0.05 * sd)
    assert approx.samples_upper.mean() == pytest.approx(mean_upper, abs=0.05 * sd)
    # the region draws (for rope) too: their means and spreads
    for k in range(3):
        got, ref = approx.region_samples[:, k], exact.region_samples[:, k]
        assert abs(got.mean() - ref.mean()) < 0.1 * ref.std()
        assert got.std() == pytest.approx(ref.std(), rel=0.1)
    tolerance = 4 * exact.mc_error + 0.01
    for name in ("prob_lower", "prob_upper", "prob_left", "prob_rope", "prob_right"):
        assert getattr(approx, name) == pytest.approx(
            getattr(exact, name), abs=tolerance
        ), name
    assert 0.1 < exact.prob_right < 0.9  # a case where the probabilities matter
    low, high = exact.credible_interval
    assert approx.credible_interval == pytest.approx((low, high), abs=0.1 * sd)


def test_normal_form_matches_monte_carlo_at_4000_cases():
    a, b = _data(4000, 0.01, 2)
    exact = nbstats.bayes_signrank(
        a, b, prior="bb", method="montecarlo", n_samples=1500, random_state=0
    )
    approx = nbstats.bayes_signrank(a, b, prior="bb", random_state=0)
    assert approx.method == "normal" and approx.n_samples == 50_000
    sd = exact.samples.std()
    assert abs(approx.samples.mean() - exact.samples.mean()) < 0.15 * sd
    assert approx.samples.std() == pytest.approx(sd, rel=0.1)
    assert approx.prob_right == pytest.approx(
        exact.prob_right, abs=4 * exact.mc_error + 0.01
    )


def test_auto_uses_monte_carlo_up_to_the_limit_and_reports_precision():
    a, b = _data(NORMAL_CASES, 0.02, 4)
    res = nbstats.bayes_signrank(a[:200], b[:200], n_samples=4000, random_state=0)
    assert res.method == "montecarlo" and res.n_samples == 4000
    p = np.array([res.prob_lower, res.prob_left, res.prob_right])
    assert res.mc_error == pytest.approx(np.sqrt(p * (1 - p) / 4000).max())
    assert "posterior draws" in res._repr_html_()
    big = nbstats.bayes_signrank(a, b, method="auto", random_state=0)
    assert big.method == "montecarlo"  # exactly NORMAL_CASES: still Monte Carlo
    with pytest.raises(ValueError, match="method"):
        nbstats.bayes_signrank(a, b, method="asymptotic")


def test_normal_form_is_reproducible_and_degenerate_data_stay_exact():
    a, b = _data(2000, 0.02, 5)
    one = nbstats.bayes_signrank(a, b, random_state=7)
    two = nbstats.bayes_signrank(a, b, random_state=7)
    np.testing.assert_array_equal(one.samples, two.samples)
    # b better on every case: θ = 1 in every draw (no variance to approximate)
    res = nbstats.bayes_signrank(a, a + 1.0, prior="bb", random_state=0)
    assert res.method == "normal"
    assert res.prob_right == 1.0 and res.credible_interval == (1.0, 1.0)


def test_monte_carlo_beyond_the_ceiling_is_refused_with_the_fix():
    from nbstats.util.memory import memory_ceiling

    a, b = _data(60_000, 0.0, 6)  # 60,000 cases: ~100 MB of kernel buffers
    with memory_ceiling("64M"), pytest.raises(ValueError, match="method='normal'"):
        nbstats.bayes_signrank(a, b, method="montecarlo", n_samples=1000)
    with memory_ceiling("64M"):  # the default finds the normal form
        assert nbstats.bayes_signrank(a, b, random_state=0).method == "normal"
