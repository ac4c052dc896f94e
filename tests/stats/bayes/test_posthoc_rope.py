"""Joint statements with a rope (issue 14, item 2).

The joint procedure of :func:`nbstats.bayes_posthoc` chooses, per pair, the
most probable of three regions (either algorithm better by more than the
rope, or practically equivalent). Its marginal probabilities are checked
against baycomp's SignTest and SignedRankTest on the same pair (an
independent implementation: baycomp samples the Dirichlet directly), and its
decisions against the pairwise tests that the report and the dashboards show
beside it: the two can never say different things about a pair.
"""

from __future__ import annotations

import baycomp
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.results.decisions import DECISIONS

#: Monte Carlo tolerance on probabilities from 20,000-50,000 draws (about
#: four standard errors of a share near ½).
MC_TOL = 0.015


def _table(seed: int, n: int = 25, m: int = 5, spread: float = 0.02) -> pd.DataFrame:
    """Scores whose algorithms differ by multiples of ``spread`` (some pairs
    far apart, some inside a rope of ``spread``)."""
    rng = np.random.default_rng(seed)
    shifts = spread * rng.integers(0, 4, size=m)
    values = 0.8 + shifts + 0.01 * rng.standard_normal((n, m))
    return pd.DataFrame(values, columns=[f"alg{k}" for k in range(m)])


@pytest.mark.parametrize("rope", [0.005, 0.02])
def test_sign_marginals_match_baycomp(rope):
    table = _table(1)
    res = nbstats.bayes_posthoc(
        table, test="sign", rope=rope, s=1.0, n_samples=50_000, random_state=0
    )
    rope_p = res.rope_probabilities
    for a, b in [("alg0", "alg1"), ("alg1", "alg3"), ("alg2", "alg4")]:
        left, in_rope, right = baycomp.SignTest.probs(
            table[a].to_numpy(), table[b].to_numpy(), rope=rope, prior=1.0,
            nsamples=50_000,
        )  # fmt: skip
        # baycomp's (left, rope, right) for x=a, y=b: left is "a better"
        # (its differences are x - y); nbstats' matrix: row a, column b is
        # "b better than a"
        assert res.probabilities.loc[a, b] == pytest.approx(right, abs=MC_TOL)
        assert res.probabilities.loc[b, a] == pytest.approx(left, abs=MC_TOL)
        assert rope_p.loc[a, b] == pytest.approx(in_rope, abs=MC_TOL)


def test_signrank_marginals_match_baycomp():
    table = _table(2, n=20)
    rope = 0.01
    res = nbstats.bayes_posthoc(
        table,
        test="signrank",
        prior="point",
        rope=rope,
        s=0.5,
        n_samples=20_000,
        random_state=0,
    )
    for a, b in [("alg0", "alg2"), ("alg3", "alg4")]:
        left, in_rope, right = baycomp.SignedRankTest.probs(
            table[a].to_numpy(), table[b].to_numpy(), rope=rope, prior=0.5,
            nsamples=20_000,
        )  # fmt: skip
        assert res.probabilities.loc[a, b] == pytest.approx(right, abs=MC_TOL)
        assert res.probabilities.loc[b, a] == pytest.approx(left, abs=MC_TOL)
        assert res.rope_probabilities.loc[a, b] == pytest.approx(in_rope, abs=MC_TOL)


def test_probabilities_of_each_pair_sum_to_one():
    res = nbstats.bayes_posthoc(_table(3), rope=0.01, n_samples=5000, random_state=1)
    p = res.probabilities.to_numpy()
    total = p + p.T + res.rope_probabilities.to_numpy()
    off = ~np.eye(len(p), dtype=bool)
    np.testing.assert_allclose(total[off], 1.0, atol=1e-12)


@pytest.mark.parametrize("test", ["sign", "signrank"])
def test_rope_certain_equivalence_is_equivalent_everywhere(test):
    # every difference is a thousandth of the rope: certain equivalence
    rng = np.random.default_rng(4)
    table = pd.DataFrame(
        0.9 + 1e-5 * rng.standard_normal((15, 4)), columns=list("ABCD")
    )
    joint = nbstats.bayes_posthoc(
        table, test=test, rope=0.01, n_samples=5000, random_state=0
    )
    assert (joint.statements["relation"] == "equivalent").all()
    assert joint.statements["accepted"].all()
    assert (joint.decisions()["decision"] == "equivalent").all()
    assert joint.groups == [tuple(joint.mean_ranks.sort_values().index)]
    pairs = nbstats.bayes_signrank_pairs(
        table, prior="point", rope=0.01, n_samples=5000, random_state=0
    )
    assert (pairs.pairs["decision"] == "equivalent").all()
    text = joint._repr_html_()
    assert "≈" in text and " &gt; " not in text.split("statement")[-1]


def test_without_rope_nothing_is_equivalent():
    res = nbstats.bayes_posthoc(_table(5), n_samples=5000, random_state=0)
    assert set(res.statements["relation"]) == {"better"}
    assert res.rope_probabilities is None and res.rope == 0.0


def test_decisions_use_the_vocabulary_and_column_order():
    table = _table(6, m=4)
    res = nbstats.bayes_posthoc(table, rope=0.02, n_samples=5000, random_state=0)
    frame = res.decisions()
    assert set(frame["decision"]) <= set(DECISIONS)
    expected = [(a, b) for k, a in enumerate(table) for b in list(table)[k + 1 :]]
    assert list(zip(frame["a"], frame["b"], strict=True)) == expected
    for row in frame.itertuples(index=False):
        statement = res.statements[
            res.statements[["better", "worse"]].isin([row.a, row.b]).all(axis=1)
        ].iloc[0]
        if row.decision == "undecided":
            assert not statement["accepted"]
        elif row.decision == "equivalent":
            assert statement["relation"] == "equivalent"
        else:
            assert statement["better"] == (row.b if row.decision == "b" else row.a)


def _contradicts(pair: str, joint: str) -> bool:
    """Two decisions on one pair disagree when both decide, differently."""
    decided = {"a", "b", "equivalent"}
    return pair in decided and joint in decided and pair != joint


@pytest.mark.parametrize("rope", [0.0, 0.01])
@pytest.mark.parametrize("prior", ["idp", "point", "bb"])
def test_pairs_and_joint_never_disagree(rope, prior):
    # random tables with near, far and equal algorithms; the report's
    # recipe: joint on the signed-rank test with the pairs' s and rope
    contradictions, decided = [], 0
    for seed in range(12):
        table = _table(100 + seed, n=int(8 + 4 * (seed % 5)), m=4 + seed % 3)
        pairs = nbstats.bayes_signrank_pairs(
            table, prior=prior, rope=rope, n_samples=4000, random_state=seed
        )
        joint = nbstats.bayes_posthoc(
            table, test="signrank", prior=prior, s=pairs.s, rope=rope,
            n_samples=4000, random_state=seed,
        )  # fmt: skip
        merged = pairs.pairs.merge(joint.decisions(), on=["a", "b"])
        assert len(merged) == len(pairs.pairs)
        for row in merged.itertuples(index=False):
            decided += row.decision_y != "undecided"
            if _contradicts(row.decision_x, row.decision_y):
                contradictions.append((seed, row.a, row.b, row.decision_x))
    assert contradictions == []
    assert decided > 0  # the check was not vacuous


def test_groups_ignore_equivalence_statements():
    # equivalence is not a difference: it never splits a group
    table = _table(7, m=5)
    res = nbstats.bayes_posthoc(table, rope=0.03, n_samples=5000, random_state=0)
    better = res.statements[
        res.statements["accepted"] & (res.statements["relation"] == "better")
    ]
    for group in res.groups:
        for b, w in zip(better["better"], better["worse"], strict=True):
            assert not (b in group and w in group)


def test_bad_rope_is_refused():
    with pytest.raises(ValueError, match="rope must be a number >= 0"):
        nbstats.bayes_posthoc(_table(8), rope=-0.1)
    with pytest.raises(TypeError, match="rope must be a number"):
        nbstats.bayes_posthoc(_table(8), rope="wide")


def test_report_states_equivalence_the_same_way_in_every_table():
    # A and B are certainly equivalent at rope 0.01, C and D clearly better
    from nbstats.reporting import report_text

    rng = np.random.default_rng(4)
    base = 0.8 + 0.05 * rng.standard_normal(20)
    table = pd.DataFrame(
        {
            "A": base + 1e-5 * rng.standard_normal(20),
            "B": base + 1e-5 * rng.standard_normal(20),
            "C": base + 0.05 + 0.002 * rng.standard_normal(20),
            "D": base + 0.1 + 0.002 * rng.standard_normal(20),
        }
    )
    text = report_text(table, rope=0.01, analyses=("bayesian",))
    start = text.index("Bayesian comparisons\n---")
    section = text[start : text.index("Methods\n---", start)]
    assert "1 pair is decided equivalent (rope ±0.01)" in section
    assert "B ≈ A" in section  # the joint statement, in the text and Table 4
    assert section.count("B ≈ A") == 2
    for wrong in ("B > A", "A > B", "B over A", "A over B"):
        assert wrong not in section, wrong
    assert "Bayesian signed-rank test, s = " in section  # joint: same test
    assert "dashed frames accepted statements of practical equivalence" in section


def test_heatmap_marks_equivalences_with_dashed_frames():
    import matplotlib.pyplot as plt

    uci = nbstats.datasets.load("uci_accuracy")
    joint = nbstats.bayes_posthoc(uci, test="signrank", rope=0.01, random_state=0)
    ax = joint.plot(kind="heatmap")
    # frames: solid boxes (patches) and dashed outlines (lines)
    gids = {
        artist.get_gid(): artist
        for artist in [*ax.patches, *ax.lines]
        if (artist.get_gid() or "").startswith(("significant-", "equivalent-"))
    }
    chosen = joint.statements[joint.statements["accepted"]]
    for row in chosen.itertuples(index=False):
        if row.relation == "equivalent":  # both cells, dashed
            for key in (f"{row.better}-{row.worse}", f"{row.worse}-{row.better}"):
                assert gids[f"equivalent-{key}"].get_linestyle() != "solid"
        else:  # row: worse, column: better
            assert f"significant-{row.worse}-{row.better}" in gids
    assert len(gids) == len(chosen) + int((chosen["relation"] == "equivalent").sum())
    title = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "title")
    assert "dashed: accepted as practically equivalent" in " ".join(title.split())
    plt.close(ax.figure)
