"""One decision vocabulary: "a", "b", "equivalent", "undecided", "indeterminate".

The rule (decide) is checked against its definition on hand-made
probabilities; every Bayesian result, the pair table, the dashboard and the
report must use it and its words, and no text may say "keep".
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.results.decisions import DECISIONS, describe
from nbstats.stats.bayes.decision import decide, decide_many
from nbstats.stats.bayes.signrank.bounds import signrank_bounds

T = 0.95


@pytest.mark.parametrize(
    ("probs", "upper", "expected"),
    [
        ((0.0, 1.0, 0.0), None, "equivalent"),  # rope-certain equivalence
        ((0.01, 0.02, 0.97), None, "b"),
        ((0.97, 0.02, 0.01), None, "a"),
        ((0.3, 0.4, 0.3), None, "undecided"),
        ((0.2, None, 0.8), None, "undecided"),  # no rope, no evidence for b
        ((0.97, None, 0.03), None, "a"),
        ((0.02, None, 0.90), (0.05, None, 0.97), "indeterminate"),  # IDP straddles
        ((0.02, None, 0.96), (0.05, None, 0.99), "b"),  # IDP: every prior agrees
        ((0.01, 0.90, 0.0), (0.02, 0.97, 0.01), "indeterminate"),
    ],
)
def test_the_rule(probs, upper, expected):
    assert decide(*probs, T, upper=upper) == expected
    many = decide_many(
        *(np.array([np.nan if p is None else p]) for p in probs),
        T,
        upper=None
        if upper is None
        else tuple(np.array([np.nan if p is None else p]) for p in upper),
    )
    assert many.tolist() == [expected]


def test_every_region_by_brute_force():
    rng = np.random.default_rng(0)
    p = rng.dirichlet([0.3, 0.3, 0.3], size=2000)
    got = decide_many(p[:, 0], p[:, 1], p[:, 2], T)
    for (left, rope, right), d in zip(p, got, strict=True):
        passed = [
            name
            for name, v in (("b", right), ("a", left), ("equivalent", rope))
            if v > T
        ]
        assert d == (passed[0] if passed else "undecided")


def test_words_never_say_keep_and_undecided_is_not_a_better():
    for d in DECISIONS:
        for rope in (True, False):
            text = describe(d, "nbc", "aode", rope=rope)
            assert not re.search(r"\bkeep", text)
    # names both, neither reaching the threshold: not "a is better"
    assert describe("undecided", "nbc", "aode", rope=False) == (
        "undecided: neither aode nor nbc reaches the threshold"
    )
    with pytest.raises(ValueError, match="unknown decision"):
        describe("keep a", "x", "y")


def test_signrank_bounds_follow_the_idp_posteriors():
    # P(a better) lies between P(θ_upper < ½) and 1 − P(θ_lower > ½)
    low, high = signrank_bounds(np.array([0.9, 0.97, 0.02]), None, idp=True)
    assert low == (0.02, None, 0.9) and high == (0.1, None, 0.97)
    # with θ_lower < ½ counted: P(a better) between P(θ_upper < ½) and it
    low, high = signrank_bounds(np.array([0.9, 0.97, 0.02, 0.08]), None, idp=True)
    assert low == (0.02, None, 0.9) and high == (0.08, None, 0.97)
    # a rope: each region's share for every prior, then for some prior
    regions = np.array([0.05, 0.4, 0.3, 0.1, 0.5, 0.45])
    low, high = signrank_bounds(np.array([0, 0, 0]), regions, idp=True)
    assert low == (0.05, 0.4, 0.3) and high == (0.1, 0.5, 0.45)
    single = signrank_bounds(np.array([0, 0, 0]), regions, idp=False)
    assert single[0] == single[1] == (0.05, 0.4, 0.3)


@pytest.fixture(scope="module")
def equivalent_pair():
    """Two algorithms within 0.001 of each other on 20 cases: rope 0.01 is
    certain, every posterior draw puts all its mass in the rope."""
    rng = np.random.default_rng(3)
    a = pd.Series(rng.uniform(0.7, 0.9, 20), name="a1")
    b = (a + rng.uniform(-0.001, 0.001, 20)).rename("b1")
    c = (a + 0.1).rename("c1")
    return pd.concat([a, b, c], axis=1)


@pytest.mark.parametrize("prior", ["idp", "bb", "point"])
def test_rope_certain_equivalence_everywhere(equivalent_pair, prior):
    t = equivalent_pair
    one = nbstats.bayes_signrank(
        t["a1"], t["b1"], rope=0.01, prior=prior, random_state=0
    )
    # (under IDP the prior's pseudo-observation at −∞ keeps a trace outside)
    assert one.prob_rope == pytest.approx(1.0, abs=1e-3)
    assert one.decision == "equivalent"
    assert "practically equivalent" in one.summary()
    sign = nbstats.bayes_sign_test(t["a1"], t["b1"], rope=0.01, random_state=0)
    assert sign.decision == "equivalent"
    pairs = nbstats.bayes_signrank_pairs(t, rope=0.01, prior=prior, random_state=0)
    row = pairs.pairs.set_index(["a", "b"]).loc[("a1", "b1")]
    assert row["decision"] == "equivalent"


def test_rope_certain_equivalence_in_the_dashboard(equivalent_pair):
    board = nbstats.dashboard(
        equivalent_pair, kind="bayes", n_samples=2000, random_state=0
    )
    board.controls["rope"].value = 0.01
    frame = board.result["pairs"].set_index(["a", "b"])
    assert frame.loc[("a1", "b1"), "decision"] == "equivalent"
    assert 'data-decision="equivalent"' in board.matrix_view.value
    assert not re.search(r"\bkeep\b", board.matrix_view.value)


@pytest.mark.parametrize("rope", [0.0, 0.02])
def test_pair_table_decisions_are_bayes_signrank_decisions(rope):
    rng = np.random.default_rng(int(rope * 100) + 1)
    table = pd.DataFrame(
        rng.normal(0.8, 0.03, (15, 4)) + [0, 0.005, 0.02, 0.04], columns=list("wxyz")
    )
    pairs = nbstats.bayes_signrank_pairs(table, rope=rope, random_state=5)
    decided = 0
    for row in pairs.pairs.itertuples(index=False):
        one = nbstats.bayes_signrank(
            table[row.a], table[row.b], rope=rope, random_state=5
        )
        assert row.decision == one.decision, (row.a, row.b)
        decided += row.decision != "undecided"
    assert decided  # the table decides something: not a vacuous check


def test_summaries_of_every_result_use_the_vocabulary():
    uci = nbstats.datasets.load("uci_accuracy")
    results = [
        nbstats.bayes_signrank(uci["nbc"], uci["aode"], random_state=0),
        nbstats.bayes_signrank(uci["nbc"], uci["aode"], rope=0.01, random_state=0),
        nbstats.bayes_sign_test(uci["nbc"], uci["aode"], random_state=0),
        nbstats.bayes_signrank_pairs(uci, random_state=0),
    ]
    for res in results:
        text = res.summary() + res._repr_html_()
        assert not re.search(r"\bkeep\b", text), type(res).__name__
    for a, b in itertools.combinations(["nbc", "aode", "hnb"], 2):
        res = nbstats.bayes_signrank(uci[a], uci[b], random_state=0)
        assert res.decision in DECISIONS
