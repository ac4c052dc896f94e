"""The joint statements under the near-ignorance prior hold for every prior
(issue 26, item 4).

The Bayesian dashboard's joint panel accepted "C4.5+m > C4.5" (P = 0.999) at
s = 2 on Demšar's table while the pair matrix beside it called the pair
indeterminate: the joint statements used one prior (the pseudo-observation
at a zero difference), the matrix the whole near-ignorance set. Now, under
``prior="idp"``, a statement holds in a draw only if it holds for every prior
of the set: each statement's probability is the pair's lower probability
(the matrix's, up to Monte Carlo error: the joint procedure puts the same
weight on the same case in every pair) and the joint probability a lower
joint probability, so a pair the matrix calls indeterminate is never
accepted.

Oracles: the pair table (``bayes_signrank_pairs``, its own kernels and
draws) for the marginals, and a numpy transcription of the definition for
the compiled codes.
"""

from __future__ import annotations

import numpy as np
import pytest

import nbstats
from nbstats.stats.bayes.canonical import canonical_table
from nbstats.stats.bayes.joint_events import LEFT, RIGHT, ROPE, SignedRankEvents
from nbstats.stats.bayes.joint_kernel import UNSETTLED
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile
from nbstats.util.random import seed_sequence
from nbstats.widgets.bayes_joint import SignedRankJoint
from nbstats.widgets.late_work import LateRunner

DRAWS = 20_000
MC = 4 * np.sqrt(0.25 / DRAWS) * 2  # two independent estimates


@pytest.fixture(scope="module")
def demsar():
    return nbstats.datasets.load("demsar2006")


def _joint(table, seed=0):
    """The dashboard's SignedRankJoint of a table (as widgets.bayes_setup)."""
    from itertools import combinations

    values = table.to_numpy(dtype=float)
    names = [str(c) for c in table.columns]
    canonical, canonical_names, columns = canonical_table(values, names)
    pairs = list(combinations(range(len(names)), 2))
    first, second = [i for i, _ in pairs], [j for _, j in pairs]
    mean_rank = nbstats.mean_ranks(table).to_numpy()[columns]
    diffs = canonical[:, second] - canonical[:, first]
    return SignedRankJoint(
        diffs, pairs, canonical_names, mean_rank, DRAWS, seed_sequence(seed)
    )


def _pair_decisions(table, s, rope):
    pairs = nbstats.bayes_signrank_pairs(
        table, s=s, rope=rope, n_samples=DRAWS, random_state=1
    ).pairs
    return {frozenset((r.a, r.b)): r for r in pairs.itertuples(index=False)}


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_joint_panel_agrees_with_the_pair_matrix_at_s_2(demsar, rope):
    joint = _joint(demsar)
    table = joint.table(2.0, 0.95, rope, "idp")
    by_pair = _pair_decisions(demsar, 2.0, rope)
    for row in table.itertuples(index=False):
        pair = by_pair[frozenset((row.better, row.worse))]
        if row.relation == "equivalent":
            lower = pair.prob_rope_lower
        elif row.better == pair.b:
            lower = pair.prob_right_lower
        else:
            lower = pair.prob_left_lower
        # the statement's probability is the pair's lower probability
        assert row.prob == pytest.approx(lower, abs=MC)
        assert row.joint <= row.prob + 1e-12
        if row.accepted:  # at threshold 0.95 (γ = 0.05): decided in the matrix
            assert pair.decision in ("a", "b", "equivalent")
        if pair.decision == "indeterminate":
            assert not row.accepted
    if rope == 0:
        # the case: one prior accepts it, the prior set does not
        point = joint.table(2.0, 0.95, 0.0)
        first = point.iloc[0]
        assert (first.better, first.worse, bool(first.accepted)) == (
            "C4.5+m",
            "C4.5",
            True,
        )
        assert by_pair[frozenset(("C4.5", "C4.5+m"))].decision == "indeterminate"
        robust = table.set_index(["better", "worse"]).loc[("C4.5+m", "C4.5")]
        assert not robust.accepted


def test_joint_panel_is_bayes_posthoc_under_idp(demsar):
    joint = _joint(demsar, seed=3)
    panel = joint.table(2.0, 0.95, 0.01, "idp")
    posthoc = nbstats.bayes_posthoc(
        demsar, test="signrank", prior="idp", s=2.0, rope=0.01, n_samples=DRAWS,
        random_state=3,
    )  # fmt: skip
    assert panel.equals(posthoc.statements)
    assert posthoc.prior == "idp" and "lower joint probability" in posthoc.summary()


def test_runner_passes_the_prior(demsar):
    got = []
    runner = LateRunner(_joint(demsar), lambda *a: got.append(a), background=False)
    idp = runner.request(2.0, 0.95, 0.0, "idp")
    point = runner.request(2.0, 0.95, 0.0)
    assert idp["prob"].iloc[0] < point["prob"].iloc[0]


@pytest.mark.parametrize("rope", [0.0, 0.3])
def test_idp_codes_follow_the_definition(rope):
    rng = np.random.default_rng(0)
    diffs = np.round(rng.normal(0.2, 1.0, (12, 4)), 1)
    events = SignedRankEvents(diffs, rope, prior="idp")
    draws = DirichletWeights(12, 3000, 0, columns_per_case=4)
    chunk = next(iter(draws.batches(3000)))
    parts = events.evaluate(chunk.exponentials)
    g0 = gamma_quantile(0.8, chunk.uniforms)
    codes, counts = events.codes_and_counts(parts, g0)
    total, quad, _ = parts
    whole = (g0 + total) ** 2
    e = (2 * total * g0 + g0 * g0) / whole

    def winner(left, right):
        middle = 1 - left - right
        return np.where(
            (left >= middle) & (left >= right),
            LEFT,
            np.where(middle >= right, ROPE, RIGHT),
        )

    for k in range(4):
        if rope == 0:
            theta = quad[k, 0] / whole
            expected = np.where(
                theta > 0.5 + 1e-12,
                RIGHT,
                np.where(theta + e < 0.5 - 1e-12, LEFT, UNSETTLED),
            )
        else:
            high, low = quad[k, 0] / whole, quad[k, 1] / whole
            at_left, in_rope, at_right = (
                winner(low + e, high), winner(low, high), winner(low, high + e)
            )  # fmt: skip
            expected = np.full(high.shape, UNSETTLED)
            expected[(in_rope == LEFT) & (at_right == LEFT)] = LEFT
            expected[(at_left == ROPE) & (at_right == ROPE)] = ROPE
            expected[(at_left == RIGHT) & (in_rope == RIGHT)] = RIGHT
        np.testing.assert_array_equal(codes[:, k], expected)
        assert counts[k].tolist() == [
            int(np.sum(expected == c)) for c in (LEFT, ROPE, RIGHT)
        ]
