"""``threshold`` replaced ``gamma`` (issue 37): threshold = 1 − γ, and the
decisions on Demšar's table are those of the old γ rules, written out here.

The old rules (Benavoli et al. 2015, as the code had them before the rename):

- Bayesian Friedman, ellipsoid: reject when the distance of μ0 exceeds
  ``ρ = F⁻¹(1 − γ; m − 1, n − m + 1) (n − 1)(m − 1)/(n − m + 1)``;
  Monte Carlo: reject when ``credibility > 1 − γ``; permutation
  calibration: reject when the p-value ``1 − credibility`` is ``≤ γ``.
- Joint statements: a prefix is accepted while ``joint > 1 − γ``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import nbstats

GAMMAS = [0.01, 0.05, 0.1, 0.2, 0.5]


@pytest.fixture(scope="module")
def table():
    return nbstats.datasets.load("demsar2006")


@pytest.mark.parametrize("gamma", GAMMAS)
def test_friedman_ellipsoid_decides_as_the_gamma_rule(table, gamma):
    n, m = table.shape
    res = nbstats.bayes_friedman(table, threshold=1 - gamma)
    rho_gamma = (
        stats.f.ppf(1 - gamma, m - 1, n - m + 1) * (n - 1) * (m - 1) / (n - m + 1)
    )
    assert res.rho == pytest.approx(rho_gamma, rel=1e-12)
    assert res.reject == (res.statistic > rho_gamma)
    assert res.threshold == 1 - gamma


@pytest.mark.parametrize("gamma", GAMMAS)
def test_friedman_monte_carlo_and_permutation_decide_as_the_gamma_rule(table, gamma):
    mc = nbstats.bayes_friedman(
        table, threshold=1 - gamma, method="montecarlo", n_samples=4000, random_state=1
    )
    assert mc.reject == (mc.credibility > 1 - gamma)
    perm = nbstats.bayes_friedman(
        table, threshold=1 - gamma, calibration="permutation", n_permutations=499,
        random_state=1,
    )  # fmt: skip
    pvalue = 1 - perm.credibility
    assert perm.reject == (pvalue <= gamma)


@pytest.mark.parametrize("gamma", GAMMAS)
@pytest.mark.parametrize(
    ("test", "prior", "rope"),
    [("sign", "point", 0.0), ("signrank", "point", 0.0), ("signrank", "idp", 0.01)],
)
def test_joint_statements_are_accepted_as_the_gamma_rule(
    table, gamma, test, prior, rope
):
    res = nbstats.bayes_posthoc(
        table, threshold=1 - gamma, test=test, prior=prior, rope=rope,
        n_samples=4000, random_state=3,
    )  # fmt: skip
    joint = res.statements["joint"].to_numpy()
    np.testing.assert_array_equal(res.statements["accepted"], joint > 1 - gamma)


def test_the_default_threshold_is_the_old_default_gamma(table):
    """threshold=0.95 is γ = 0.05: the same decisions by default."""
    default = nbstats.bayes_posthoc(table, n_samples=4000, random_state=0)
    explicit = nbstats.bayes_posthoc(
        table, threshold=1 - 0.05, n_samples=4000, random_state=0
    )
    assert default.threshold == 0.95 == 1 - 0.05
    np.testing.assert_array_equal(
        default.statements["accepted"], explicit.statements["accepted"]
    )
    assert (
        nbstats.bayes_friedman(table).reject
        == nbstats.bayes_friedman(table, threshold=1 - 0.05).reject
    )


def test_signed_rank_posthoc_defaults_to_the_signed_rank_tests_prior(table):
    """One default prior per test: bayes_posthoc(test="signrank") takes
    bayes_signrank's (the near-ignorance prior with the IDP default s)."""
    from nbstats.stats.bayes.priors import FRIEDMAN_DEFAULT_S, IDP_DEFAULT_S

    res = nbstats.bayes_posthoc(table, test="signrank", n_samples=2000, random_state=0)
    pair = nbstats.bayes_signrank(table["C4.5"], table["C4.5+m"], n_samples=2000)
    assert (res.prior, res.s) == (pair.prior, pair.s) == ("idp", IDP_DEFAULT_S)
    sign = nbstats.bayes_posthoc(table, n_samples=2000, random_state=0)
    assert (sign.prior, sign.s) == ("point", FRIEDMAN_DEFAULT_S)
    # "bb": the point prior with s = 0, as in bayes_signrank
    bb = nbstats.bayes_posthoc(
        table, test="signrank", prior="bb", n_samples=2000, random_state=0
    )
    assert (bb.prior, bb.s) == ("point", 0.0)
    with pytest.raises(ValueError, match="prior='idp' is for the signed-rank test"):
        nbstats.bayes_posthoc(table, prior="idp")
