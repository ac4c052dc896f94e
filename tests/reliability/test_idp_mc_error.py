"""Every Monte Carlo result states its draws and Monte Carlo error, in its
summary and its HTML (issue 26, item 3); every Bayesian function says what
``random_state=None`` does.

``bayes_sign_test(..., rope=...)`` sampled its probabilities but stated
nothing: two calls with the default seed gave 0.5589 and 0.5622.
"""

from __future__ import annotations

import html
import inspect
import re

import numpy as np
import pytest

import nbstats

DRAWS = 4000


@pytest.fixture(scope="module")
def table():
    return nbstats.datasets.load("demsar2006") * 100


def _results(table):
    a, b = table["C4.5"], table["C4.5+m"]
    kw = {"n_samples": DRAWS, "random_state": 0}
    out = {}
    for prior in ("idp", "bb", "point"):
        for rope in (0.0, 1.0):
            out[f"signrank-{prior}-{rope}"] = nbstats.bayes_signrank(
                a, b, prior=prior, rope=rope, **kw
            )
    out["signrank-normal"] = nbstats.bayes_signrank(a, b, method="normal", **kw)
    out["pairs"] = nbstats.bayes_signrank_pairs(table, rope=1, **kw)
    out["sign-rope"] = nbstats.bayes_sign_test(a, b, rope=1, **kw)
    out["posthoc-sign"] = nbstats.bayes_posthoc(table, **kw)
    out["posthoc-idp"] = nbstats.bayes_posthoc(
        table, test="signrank", prior="idp", rope=1, **kw
    )
    out["friedman"] = nbstats.bayes_friedman(table, method="montecarlo", **kw)
    return out


def test_every_monte_carlo_result_states_draws_and_error(table):
    for name, res in _results(table).items():
        for text in (res.summary(), html.unescape(res._repr_html_())):
            flat = " ".join(text.split())
            # a bound, or (every draw in one region) the rule of three's
            assert re.search(rf"{DRAWS:,} \(Monte Carlo error [≤<] 0\.\d", flat), name
            assert "Monte Carlo error ≤ 0)" not in flat, name
            error = getattr(res, "mc_error", None)
            if error is not None and error > 0:
                # the printed bound is never below the error it states
                shown = re.search(r"Monte Carlo error ≤ ([0-9.]+)", flat)[1]
                assert float(shown) >= error, (name, shown, error)


def test_sign_test_with_a_rope_reports_its_error(table):
    a, b = table["C4.5"], table["C4.5+m"]
    res = nbstats.bayes_sign_test(a, b, rope=1, n_samples=DRAWS, random_state=0)
    probs = np.array([res.prob_left, res.prob_rope, res.prob_right])
    assert res.n_samples == DRAWS
    assert res.mc_error == pytest.approx(
        np.sqrt(probs * (1 - probs) / DRAWS).max(), rel=1e-12
    )
    frame = res.to_frame()
    assert frame["n_samples"].item() == DRAWS
    # without a rope the probabilities are exact (Theorem 2): said so
    exact = nbstats.bayes_sign_test(a, b, n_samples=DRAWS, random_state=0)
    assert exact.mc_error == 0.0
    assert "probabilities exact" in exact.summary()


@pytest.mark.parametrize(
    "function",
    [
        nbstats.bayes_signrank,
        nbstats.bayes_signrank_pairs,
        nbstats.bayes_sign_test,
        nbstats.bayes_posthoc,
        nbstats.bayes_friedman,
    ],
)
def test_random_state_none_is_documented(function):
    doc = " ".join(inspect.getdoc(function).split())
    # bayes_signrank_pairs refers to bayes_signrank's description
    if function is nbstats.bayes_signrank_pairs:
        assert "random_state, method As for :func:`nbstats.bayes_signrank`" in doc
        return
    assert "``None`` takes fresh entropy from the operating system" in doc
    assert "give an int to reproduce" in doc
