"""Every Bayesian test is safe over its whole range of prior strength s.

The attack (issue 34): a sampler must be numerically safe over its whole
documented range, or refuse what lies outside with a message. The signed-rank
posterior squares the draw's total weight, ``(g0 + T)²`` with ``g0`` a
Gamma(s) variate, which overflowed near s = 1e154: at s = 1e200
``bayes_signrank`` returned P(left) = P(right) = 0 with only a numpy warning.
Now every test takes 0 < s ≤ 1e100 (s = 0 where it is allowed) and refuses
larger s by name; inside the range no warning is raised and every posterior
is a probability distribution.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.stats.bayes.priors import MAX_S

TABLE = np.random.default_rng(0).normal(size=(12, 4)) + [0.0, 0.3, 0.5, 0.1]
A, B = TABLE[:, 0], TABLE[:, 1]


def _calls(s: float, rope: float):
    """Every public function that takes a prior strength s, called with it."""
    kw = {"s": s, "rope": rope}
    draws = {"n_samples": 2000, "random_state": 0}
    return {
        "bayes_sign_test": lambda: nbstats.bayes_sign_test(A, B, **kw),
        "bayes_signrank point": lambda: nbstats.bayes_signrank(
            A, B, prior="point", **kw, **draws
        ),
        "bayes_signrank idp": lambda: nbstats.bayes_signrank(
            A, B, prior="idp", **kw, **draws
        ),
        "bayes_signrank_pairs": lambda: nbstats.bayes_signrank_pairs(
            TABLE, prior="point", **kw, **draws
        ),
        "bayes_posthoc signrank": lambda: nbstats.bayes_posthoc(
            TABLE, test="signrank", **kw, **draws
        ),
        "bayes_posthoc sign": lambda: nbstats.bayes_posthoc(
            TABLE, test="sign", **kw, **draws
        ),
        "bayes_friedman": lambda: nbstats.bayes_friedman(
            TABLE, s=s, random_state=0, n_samples=2000
        ),
    }


def _probabilities(res) -> list[float]:
    """The posterior probabilities a result states (regions, lower/upper)."""
    out = []
    for name in [*dir(res), "credibility"]:
        if (name.startswith("prob") or name == "credibility") and not name.endswith(
            "mc_error"
        ):
            value = getattr(res, name, None)
            if isinstance(value, (float, np.floating)):
                out.append(float(value))
    for frame_name in ("pairs", "statements"):
        frame = getattr(res, frame_name, None)
        if frame is not None:
            for column in frame.columns:
                if str(column).startswith("prob") and "error" not in str(column):
                    out += frame[column].dropna().astype(float).tolist()
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    log10_s=st.floats(min_value=-300, max_value=100),
    rope=st.sampled_from([0.0, 0.1]),
)
def test_every_test_is_a_distribution_over_the_whole_range(log10_s, rope):
    s = min(10.0**log10_s, MAX_S)
    for name, call in _calls(s, rope).items():
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # no overflow
            res = call()
        probs = _probabilities(res)
        assert probs, name
        assert all(0.0 <= p <= 1.0 for p in probs), (name, s, probs)
        if hasattr(res, "prob_right_upper"):  # near-ignorance: bounds in order
            for region in ("left", "right", "rope")[: 3 if rope else 2]:
                low = getattr(res, f"prob_{region}_lower")
                high = getattr(res, f"prob_{region}_upper")
                assert low <= high, (name, s, region)
        if name in ("bayes_sign_test", "bayes_signrank point"):
            # one posterior: its regions are a distribution (without a rope,
            # draws with θ exactly ½ are in neither region)
            regions = [res.prob_left, res.prob_right, res.prob_rope or 0.0]
            assert sum(regions) <= 1.0 + 1e-12, (name, s)
            if rope:
                assert sum(regions) == pytest.approx(1.0, abs=1e-9), (name, s)


def test_the_issue_case_at_s_1e200_is_refused_not_zero():
    for name, call in _calls(1e200, 0.0).items():
        with pytest.raises(ValueError, match=r"s=1e\+200 is beyond 1e100.*s <= 1e100"):
            call()
        assert name


def test_the_largest_s_gives_the_limit_of_the_prior_alone():
    # at s = 1e100 the pseudo-observation at 0 outweighs the data: its own
    # pair (0 + 0)/2 is ½ (H(0) = ½), so every draw of θ is ½ to double
    # precision; near-ignorance: the prior's mass goes all left or all right
    point = nbstats.bayes_signrank(A, B, prior="point", s=MAX_S, random_state=0)
    assert point.posterior_mean == pytest.approx(0.5, abs=1e-12)
    assert point.prob_left == point.prob_right == 0.0  # every draw exactly ½
    idp = nbstats.bayes_signrank(A, B, prior="idp", s=MAX_S, random_state=0)
    assert idp.prob_right_lower == pytest.approx(0.0, abs=1e-12)
    assert idp.prob_right_upper == pytest.approx(1.0, abs=1e-12)


def test_report_settings_refuse_it_too():
    with pytest.raises(ValueError, match="beyond 1e100"):
        nbstats.reporting.report_text(TABLE, s=1e101)
