"""How the Bayesian results write their numbers and decisions.

Every expected value here is worked by hand or by an independent rule written
in the test (the number policy's probability rule: three decimals, "< 0.001"
below 0.001, "> 0.999" above 0.999; a Monte Carlo error rounded *up* to two
significant figures with :mod:`decimal`), never read from the code under test.
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, Decimal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.results import bayes, bayes_posthoc
from nbstats.results.monte_carlo import format_mc_error, round_up


def policy(p: float) -> str:
    """The probability rule of the number policy, written here."""
    return "< 0.001" if p < 0.001 else "> 0.999" if p > 0.999 else f"{p:.3f}"


def up_two_figures(x: float) -> str:
    """``x`` rounded up to two significant figures, by :mod:`decimal`."""
    d = Decimal(repr(x))
    exponent = d.adjusted() - 1  # the place of the second figure
    return str(d.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_CEILING))


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (0.003536, "0.0036"),  # .2g would say 0.0035: an understated bound
        (0.0036, "0.0036"),  # already two figures: unchanged
        (0.0035, "0.0035"),
        (0.00999, "0.010"),  # up to the next decade
        (0.012, "0.012"),
        (0.1234, "0.13"),
        (0.00015, "0.00015"),
    ],
)
def test_round_up_two_significant_figures(error, expected):
    assert round_up(error) == expected
    assert up_two_figures(error).rstrip("0").rstrip(".") == expected.rstrip("0").rstrip(
        "."
    )


def test_mc_error_words():
    assert format_mc_error(0.003536, 20_000) == "Monte Carlo error ≤ 0.0036"
    # every draw in one region: the rule of three, 3 / 20000 = 0.00015
    zero = format_mc_error(0.0, 20_000)
    assert zero.startswith("Monte Carlo error < 0.00015 ")
    assert "≤ 0" not in zero
    assert format_mc_error(0.0, 4000).startswith("Monte Carlo error < 0.00075 ")


@pytest.fixture(scope="module")
def c45():
    table = nbstats.datasets.load("demsar2006_table2") * 100
    return table


def test_idp_summary_writes_intervals_by_the_policy(c45):
    res = nbstats.bayes_signrank(
        c45["C4.5"], c45["C4.5+m"], rope=1, n_samples=4000, random_state=0
    )
    flat = " ".join(res.summary().split())
    for key in ("left", "rope", "right"):
        low = getattr(res, f"prob_{key}_lower")
        high = getattr(res, f"prob_{key}_upper")
        assert f"{policy(low)} to {policy(high)}" in flat, key
    mean = f"{policy(res.posterior_mean_lower)} to {policy(res.posterior_mean_upper)}"
    assert mean in flat
    assert f"(Monte Carlo error ≤ {up_two_figures(res.mc_error)})" in flat
    assert ".0000 to" not in flat and "to 1.0000" not in flat


def test_sign_test_all_draws_in_one_region_states_a_bound():
    """b better than a by 5 on 40 of 40 cases, rope 1: no draw leaves the
    right region, the estimated error is 0 and a bound is stated."""
    a = pd.Series(np.zeros(40), name="a1")
    b = pd.Series(np.full(40, 5.0), name="b1")
    res = nbstats.bayes_sign_test(a, b, rope=1, n_samples=4000, random_state=0)
    assert res.prob_right == 1.0 and res.mc_error == 0.0
    flat = " ".join(res.summary().split())
    assert "Monte Carlo error < 0.00075" in flat  # 3 / 4000
    assert "Monte Carlo error ≤ 0" not in flat


@pytest.fixture(scope="module")
def pairs(c45):
    table = nbstats.datasets.load("demsar2006") * 100
    return nbstats.bayes_signrank_pairs(table, rope=1, n_samples=4000, random_state=0)


def test_pairs_table_writes_decisions_in_words(pairs):
    shown = pairs._table()
    words = {
        "equivalent": "equivalent",
        "undecided": "undecided",
        "indeterminate": "indeterminate",
    }
    for row in pairs.pairs.itertuples(index=False):
        expected = {"a": f"{row.a} better", "b": f"{row.b} better"}.get(
            row.decision, words.get(row.decision)
        )
        assert shown.loc[f"{row.a} vs {row.b}", "decision"] == expected
        for key in ("left", "rope", "right"):
            low = getattr(row, f"prob_{key}_lower")
            high = getattr(row, f"prob_{key}_upper")
            assert shown.loc[f"{row.a} vs {row.b}", f"prob_{key}"] == (
                f"{policy(low)} to {policy(high)}"
            )
    # the codes stay in the data
    assert set(pairs.to_frame()["decision"]) <= {
        "a",
        "b",
        "equivalent",
        "undecided",
        "indeterminate",
    }


def test_pairs_counts_in_words(pairs):
    codes = list(pairs.pairs["decision"])
    scalars = dict(pairs._scalars())
    assert scalars["pairs with one algorithm better"] == sum(
        c in ("a", "b") for c in codes
    )
    assert scalars["pairs undecided"] == codes.count("undecided")
    if "equivalent" in codes:
        assert scalars["pairs decided equivalent"] == codes.count("equivalent")
    assert not any("'" in label for label in scalars)
    flat = " ".join(pairs.summary().split())
    assert f"(Monte Carlo error ≤ {up_two_figures(pairs.mc_error)})" in flat


def test_posthoc_declares_probabilities(c45):
    table = nbstats.datasets.load("demsar2006") * 100
    res = nbstats.bayes_posthoc(table, n_samples=4000, random_state=0)
    kinds = res._kinds()
    assert kinds["prob"] == kinds["joint"] == "probability"
    text = " ".join(res.summary().split())
    for joint in res.statements["joint"]:
        assert policy(joint) in text
    shares = res.statements["joint"].to_numpy()
    error = math.sqrt((shares * (1 - shares)).max() / 4000)
    if error > 0:
        assert f"(Monte Carlo error ≤ {up_two_figures(error)})" in text


def test_friedman_error_rounded_up():
    table = nbstats.datasets.load("demsar2006") * 100
    res = nbstats.bayes_friedman(
        table, method="montecarlo", n_samples=4000, random_state=0
    )
    p = float(res.credibility)
    error = math.sqrt(p * (1 - p) / 4000)
    text = " ".join(res.summary().split())
    expected = (
        f"Monte Carlo error ≤ {up_two_figures(error)}"
        if error > 0
        else "Monte Carlo error < 0.00075"
    )
    assert expected in text


def test_posthoc_result_lives_in_its_own_module():
    assert bayes.BayesPosthocResult is bayes_posthoc.BayesPosthocResult
    assert nbstats.results.BayesPosthocResult is bayes_posthoc.BayesPosthocResult
    lines = Path(bayes.__file__).read_text(encoding="utf-8").count("\n")
    assert lines < 600
