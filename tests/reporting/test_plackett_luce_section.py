"""The report's sentence on the Plackett–Luce sampler says what R̂ says
(issue 34: at a tiny prior the chains can stay apart, R̂ in the tens; the
report said "the chains agree" whatever R̂ was)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

import nbstats
from nbstats.reporting.plackett_luce import RHAT_LIMIT, _chains_sentence


def test_agreeing_chains_are_said_to_agree():
    text = _chains_sentence(SimpleNamespace(max_rhat=1.002, min_ess=5000.0))
    assert text.startswith("The sampler's chains agree (largest R̂ 1.002")


def test_disagreeing_chains_are_flagged():
    text = _chains_sentence(SimpleNamespace(max_rhat=RHAT_LIMIT + 0.02, min_ess=12.0))
    assert "do not agree" in text and "not to be trusted" in text


def test_constant_draws_say_r_hat_is_not_defined():
    text = _chains_sentence(SimpleNamespace(max_rhat=float("nan"), min_ess=np.nan))
    assert "not defined" in text and "agree" not in text


def test_a_tiny_prior_on_exchangeable_data_is_flagged_in_the_sentence():
    res = nbstats.bayes_plackett_luce(
        pd.DataFrame(np.ones((20, 6))), s=1e-6, random_state=1
    )
    assert res.max_rhat > RHAT_LIMIT
    assert "do not agree" in _chains_sentence(res)
