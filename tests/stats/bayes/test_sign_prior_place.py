"""Where the Bayesian sign test's prior sits (issue 18, item 5): a tie (the
rope), a win of a (left) or a win of b (right), as baycomp's
``SignTest(prior=(s, LEFT | ROPE | RIGHT))``.

Oracles: baycomp's Dirichlet sampler (an independent implementation) with a
rope, and the Beta closed form computed with scipy without one.
"""

from __future__ import annotations

import baycomp
import numpy as np
import pytest
from scipy import stats

import nbstats
from tests.stats.bayes.test_against_baycomp import N_OURS, assert_within_mc

PLACES = {"left": 0, "rope": 1, "right": 2}  # baycomp's LEFT, ROPE, RIGHT


def _pair(seed: int, n: int = 20) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.7, 0.9, n)
    return a, a + rng.normal(0.004, 0.01, n)


@pytest.mark.parametrize("place", ["left", "rope", "right"])
@pytest.mark.parametrize("s", [1.0, 3.0])
def test_matches_baycomp_with_a_rope(place, s):
    a, b = _pair(1)
    theirs = baycomp.SignTest.probs(
        a, b, rope=0.005, prior=(s, PLACES[place]), nsamples=N_OURS, random_state=1
    )
    res = nbstats.bayes_sign_test(
        a, b, rope=0.005, s=s, prior_at=place, n_samples=N_OURS, random_state=1
    )
    ours = (res.prob_left, res.prob_rope, res.prob_right)
    assert_within_mc(ours, tuple(float(p) for p in theirs), N_OURS, N_OURS)
    assert res.prior_at == place


@pytest.mark.parametrize("place", ["left", "rope", "right"])
def test_closed_form_without_a_rope(place):
    a, b = _pair(2, n=15)
    d = b - a
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    s = 2.0
    res = nbstats.bayes_sign_test(a, b, s=s, prior_at=place, random_state=0)
    g = wins + s * (place == "right")
    lo = losses + s * (place == "left")
    # θ > ½ ⟺ θ_g > θ_l, and θ_g / (θ_g + θ_l) ~ Beta(g, l)
    assert res.prob_right == pytest.approx(stats.beta.sf(0.5, g, lo), abs=1e-12)
    assert res.prob_left == pytest.approx(stats.beta.cdf(0.5, g, lo), abs=1e-12)
    # and the draws of θ agree with it
    assert np.mean(res.samples > 0.5) == pytest.approx(res.prob_right, abs=0.01)


def test_the_prior_moves_the_answer_its_way():
    a, b = _pair(3)
    kw = {"rope": 0.005, "s": 5.0, "n_samples": 20_000, "random_state": 0}
    left = nbstats.bayes_sign_test(a, b, prior_at="left", **kw)
    rope = nbstats.bayes_sign_test(a, b, prior_at="rope", **kw)
    right = nbstats.bayes_sign_test(a, b, prior_at="right", **kw)
    assert left.prob_left > rope.prob_left and right.prob_right > rope.prob_right
    assert "prior strength s (on a = b)" in rope.summary()
    assert "prior strength s (on b better)" in right.summary()
    assert "prior strength s (on a better)" in left.summary()


def test_joint_sign_statements_take_the_place_too():
    table = nbstats.datasets.load("demsar2006")
    for place in ("left", "right"):
        joint = nbstats.bayes_posthoc(
            table, prior_at=place, s=2.0, n_samples=5000, random_state=0
        )
        # exact marginals: Beta with the prior's weight on its side
        a, b = table.columns[0], table.columns[1]
        d = (table[b] - table[a]).to_numpy()
        g = (d > 0).sum() + 2.0 * (place == "right")
        lo = (d < 0).sum() + 2.0 * (place == "left")
        expected = stats.beta.sf(0.5, g, lo)
        assert joint.probabilities.loc[a, b] == pytest.approx(expected, abs=1e-12)
        assert joint.prior_at == place
    with pytest.raises(ValueError, match="is for the sign test"):
        nbstats.bayes_posthoc(table, test="signrank", prior_at="left")


def test_bad_place_is_refused():
    a, b = _pair(4)
    with pytest.raises(ValueError, match="prior_at"):
        nbstats.bayes_sign_test(a, b, prior_at="middle")
