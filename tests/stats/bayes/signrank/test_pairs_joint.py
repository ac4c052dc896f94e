"""bayes_signrank_pairs(..., joint=True): the joint statements read from the
pairs table's own draws (nbstats.stats.bayes.signrank.pairs_joint)."""

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.bayes.canonical import layout
from nbstats.stats.bayes.precision import batch_seed, schedule
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile
from nbstats.util.random import seed_sequence


def _table(seed: int = 3, m: int = 5, n: int = 20, holes: float = 0.15):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n, m)) * 0.02 + np.linspace(0.7, 0.72, m)
    values[rng.random(size=values.shape) < holes] = np.nan
    return pd.DataFrame(values, columns=list("abcdefgh")[:m])


def _pair_row(pairs: pd.DataFrame, better: str, worse: str) -> tuple[pd.Series, str]:
    """The pairs-table row of a statement and the column of its probability."""
    table = pairs.set_index(["a", "b"])
    if (worse, better) in table.index:
        return table.loc[(worse, better)], "prob_right_lower"
    return table.loc[(better, worse)], "prob_left_lower"


@pytest.mark.parametrize(
    ("prior", "rope"), [("idp", 0.0), ("bb", 0.0), ("point", 0.01), ("idp", 0.01)]
)
def test_a_statement_prints_its_pairs_probability(prior, rope):
    # with holes, each pair on its own cases: the joint table's probability of
    # a statement is the pairs table's, the same number
    table = _table()
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, rope=rope, n_samples=2000, random_state=1,
        nan_policy="pairwise", mc_error=0.005, joint=True, interval=False,
    )  # fmt: skip
    joint = res.joint
    assert len(joint.statements) == len(res.pairs)
    for row in joint.statements.itertuples():
        if row.relation == "equivalent":
            pair = res.pairs.set_index(["a", "b"])
            key = (row.better, row.worse)
            found = pair.loc[key] if key in pair.index else pair.loc[key[::-1]]
            assert row.prob == found["prob_rope_lower"]
            continue
        found, column = _pair_row(res.pairs, row.better, row.worse)
        assert row.prob == found[column]
    # the heatmap's matrix is the table's (column better than row)
    for pair in res.pairs.itertuples():
        assert joint.probabilities.loc[pair.a, pair.b] == pair.prob_right_lower
        assert joint.probabilities.loc[pair.b, pair.a] == pair.prob_left_lower


def _theta_codes(w0, w, d, prior):
    """Region codes per draw by brute force (no rope): RIGHT 2 if θ > ½ (for
    every prior of the IDP set), LEFT 0 if θ < ½, else 3 (or ROPE 1 at ½)."""
    h = np.heaviside(d[:, None] + d[None, :], 0.5)
    quad = np.einsum("ri,ij,rj->r", w, h, w)
    if prior == "idp":
        low, high = quad, quad + w0 * (2 - w0)
    else:
        theta = quad + 2 * w0 * (w @ np.heaviside(d, 0.5)) + 0.5 * w0**2
        low = high = theta
    codes = np.full(low.shape, 3 if prior == "idp" else 1)
    codes[low > 0.5] = 2
    codes[high < 0.5] = 0
    return codes


@pytest.mark.parametrize("prior", ["bb", "point", "idp"])
def test_joint_probabilities_are_the_brute_force_on_the_stream(prior):
    table = _table(seed=8, m=4, n=14)
    n_samples, seed = 3000, 5
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, n_samples=n_samples, random_state=seed,
        nan_policy="pairwise", joint=True, interval=False, threshold=0.9,
    )  # fmt: skip
    values = table.to_numpy()
    position = np.argsort(layout(values, list(table.columns))[0])
    (full,) = DirichletWeights(len(table), n_samples, seed_sequence(seed)).blocks()
    g0 = gamma_quantile(res.s, full.uniforms)
    holds = np.ones(n_samples, dtype=bool)
    joint = res.joint
    assert joint.n_samples == n_samples
    for row in joint.statements.itertuples():
        a, b = sorted(
            (row.better, row.worse), key=lambda name: table.columns.get_loc(name)
        )
        i, j = table.columns.get_loc(a), table.columns.get_loc(b)
        cases = np.flatnonzero(~np.isnan(values[:, i]) & ~np.isnan(values[:, j]))
        e = full.exponentials[:, position[cases]]
        total = g0 + e.sum(axis=1)
        codes = _theta_codes(
            g0 / total, e / total[:, None], values[cases, j] - values[cases, i], prior
        )
        want = 2 if row.better == b else 0
        holds &= codes == want
        assert abs(row.joint - min(holds.mean(), row.prob)) <= 1 / n_samples


@pytest.mark.parametrize("rope", [0.0, 0.005])
def test_every_joint_probability_is_below_the_target(rope):
    table = _table(seed=2, m=6, n=25)
    target = 0.004
    res = nbstats.bayes_signrank_pairs(
        table, n_samples=1000, random_state=3, rope=rope, nan_policy="pairwise",
        mc_error=target, joint=True, interval=False,
    )  # fmt: skip
    joint = res.joint
    totals = np.cumsum(schedule(1000, target))
    assert joint.n_samples in totals
    shares = joint.statements["joint"].to_numpy()
    assert np.all(np.sqrt(shares * (1 - shares) / joint.n_samples) < target)
    # and every statement's probability is its pair's, drawn to the target
    assert res.mc_error < target
    # the same seed, the same statements
    again = nbstats.bayes_signrank_pairs(
        table, n_samples=1000, random_state=3, rope=rope, nan_policy="pairwise",
        mc_error=target, joint=True, interval=False,
    )  # fmt: skip
    pd.testing.assert_frame_equal(again.joint.statements, joint.statements)


def test_complete_table_joint_agrees_with_bayes_posthoc_in_law():
    table = _table(seed=4, m=4, n=30, holes=0.0)
    n_samples = 20_000
    res = nbstats.bayes_signrank_pairs(
        table, prior="idp", n_samples=n_samples, random_state=0, joint=True,
        interval=False,
    )  # fmt: skip
    other = nbstats.bayes_posthoc(
        table, test="signrank", prior="idp", s=res.s, n_samples=n_samples,
        random_state=1,
    )  # fmt: skip
    mine = res.joint.statements.set_index(["better", "worse"])
    theirs = other.statements.set_index(["better", "worse"])
    common = mine.index.intersection(theirs.index)
    assert len(common) >= len(mine) - 1  # a near-½ pair may flip its statement
    for key in common:
        for column in ("prob", "joint"):
            x, y = mine.loc[key, column], theirs.loc[key, column]
            p = max(0.5 * (x + y) * (1 - 0.5 * (x + y)), 1e-4)
            assert abs(x - y) <= 5 * np.sqrt(2 * p / n_samples), (key, column)


def test_joint_needs_monte_carlo_draws_and_z0_zero():
    table = _table(holes=0.0)
    with pytest.raises(ValueError, match="joint=True reads the joint statements"):
        nbstats.bayes_signrank_pairs(table, joint=True, method="normal")
    with pytest.raises(ValueError, match="prior_at=0"):
        nbstats.bayes_signrank_pairs(table, joint=True, prior="point", prior_at=0.01)


def test_later_batches_of_the_joint_come_from_the_same_stream():
    # under a target the joint may count more draws than a pair took for the
    # table: its later batches come from the stream of each batch's seed
    table = _table(seed=6, m=4, n=16)
    first, target, seed = 1000, 0.01, 2
    res = nbstats.bayes_signrank_pairs(
        table, prior="bb", n_samples=first, random_state=seed,
        nan_policy="pairwise", mc_error=target, joint=True, interval=False,
    )  # fmt: skip
    sizes = schedule(first, target)
    n_joint = res.joint.n_samples
    used = int(np.searchsorted(np.cumsum(sizes), n_joint)) + 1
    assert used >= 2 and res.pairs["draws"].min() < n_joint  # the case at hand
    values = table.to_numpy()
    position = np.argsort(layout(values, list(table.columns))[0])
    batches = [
        next(
            iter(
                DirichletWeights(
                    len(table), size, batch_seed(seed_sequence(seed), b)
                ).blocks()
            )
        )
        for b, size in enumerate(sizes[:used])
    ]
    e_all = np.concatenate([chunk.exponentials for chunk in batches])
    holds = np.ones(n_joint, dtype=bool)
    for row in res.joint.statements.itertuples():
        a, b = sorted(
            (row.better, row.worse), key=lambda name: table.columns.get_loc(name)
        )
        i, j = table.columns.get_loc(a), table.columns.get_loc(b)
        cases = np.flatnonzero(~np.isnan(values[:, i]) & ~np.isnan(values[:, j]))
        e = e_all[:, position[cases]]
        w = e / e.sum(axis=1)[:, None]
        codes = _theta_codes(
            0.0 * w[:, 0], w, values[cases, j] - values[cases, i], "bb"
        )
        holds &= codes == (2 if row.better == b else 0)
        assert abs(row.joint - min(holds.mean(), row.prob)) <= 1 / n_joint


def test_auto_joint_only_on_shared_cases_and_within_the_memory(monkeypatch):
    from nbstats.util import memory

    complete, holes = _table(holes=0.0), _table()
    kw = {"n_samples": 1000, "random_state": 0, "interval": False}
    kw["nan_policy"] = "pairwise"
    assert nbstats.bayes_signrank_pairs(complete, joint="auto", **kw).joint is not None
    # each pair on its own cases: no joint statements from "auto"
    assert nbstats.bayes_signrank_pairs(holes, joint="auto", **kw).joint is None
    assert nbstats.bayes_signrank_pairs(holes, joint=True, **kw).joint is not None
    # the codes (one byte per pair and draw) over the budget: refused by
    # joint=True with the numbers and the fix, skipped by "auto"
    monkeypatch.setattr(memory, "budget", lambda share=0.125: 5_000)
    with pytest.raises(ValueError, match=r"10 pairs x 1,000 draws .*bayes_posthoc"):
        nbstats.bayes_signrank_pairs(complete, joint=True, **kw)
    assert nbstats.bayes_signrank_pairs(complete, joint="auto", **kw).joint is None
    with pytest.raises(ValueError, match="joint"):
        nbstats.bayes_signrank_pairs(complete, joint="yes", **kw)
