"""Monte Carlo to a stated precision (nbstats.stats.bayes.precision): the
pairs' draws stop when every reported probability's standard error is below
the target; the same seed gives the same numbers; a pooled pair equals its
batches computed one by one by the single-pair test."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.stats.bayes.precision import (
    MC_TARGET,
    PROBABILITIES,
    batch_seed,
    draws_for,
    schedule,
)
from nbstats.util.random import seed_sequence
from tests.real_tables import TABZILLA


def tabzilla(columns: int = 10, rows: int = 60) -> pd.DataFrame:
    """A real table with holes (TabZilla accuracies)."""
    table = pd.read_csv(TABZILLA, index_col=0)
    return table.iloc[:rows, :columns]


def stated_errors(pairs: pd.DataFrame) -> np.ndarray:
    """Every reported probability's standard error, from its own draws."""
    shares = pairs[list(PROBABILITIES)].to_numpy(dtype=float)
    draws = pairs["draws"].to_numpy(dtype=float)[:, None]
    errors = np.sqrt(shares * (1 - shares) / draws)
    return errors[~np.isnan(errors)]


@pytest.mark.parametrize(
    ("prior", "rope", "target"),
    [("idp", 0.0, MC_TARGET), ("idp", 0.005, MC_TARGET), ("bb", 0.01, 0.004),
     ("point", 0.002, 0.003)],
)  # fmt: skip
def test_every_reported_probability_is_below_the_target(prior, rope, target):
    table = tabzilla()
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, rope=rope, nan_policy="pairwise", interval=False,
        n_samples=2_000, mc_error=target, random_state=3,
    )  # fmt: skip
    errors = stated_errors(res.pairs)
    assert errors.size >= 4 * len(res.pairs)
    assert errors.max() < target
    assert res.mc_error < target
    assert res.mc_error == pytest.approx(errors.max())
    # the rule saved draws: not every pair went to the last batch
    assert res.pairs["draws"].min() == 2_000
    assert res.pairs["draws"].max() <= draws_for(target)
    assert res.n_samples == res.pairs["draws"].max()


@pytest.mark.parametrize("rope", [0.0, 0.003])
def test_same_seed_same_numbers_and_pairs_independent_of_the_table(rope):
    table = tabzilla(8)
    kw = {"nan_policy": "pairwise", "n_samples": 1_000, "mc_error": 0.004}
    kw["rope"] = rope
    one = nbstats.bayes_signrank_pairs(table, random_state=11, **kw)
    two = nbstats.bayes_signrank_pairs(table, random_state=11, **kw)
    pd.testing.assert_frame_equal(one.pairs, two.pairs)
    # on a complete table a pair's draws are its own: the same numbers in a
    # smaller table (with "pairwise" every pair takes its cases' weights
    # from one stream over all the table's cases: shared_draws.py, tested in
    # test_shared_draws.py)
    table = table.dropna()
    kw.pop("nan_policy")
    one = nbstats.bayes_signrank_pairs(table, random_state=11, **kw)
    small = nbstats.bayes_signrank_pairs(
        table.iloc[:, [1, 4, 6]], random_state=11, **kw
    )
    full = one.pairs.set_index(["a", "b"])
    for _, row in small.pairs.iterrows():
        other = full.loc[(row["a"], row["b"])]
        for key in PROBABILITIES:
            assert np.array_equal(row[key], other[key], equal_nan=True)
        assert (row["draws"], row["decision"]) == (other["draws"], other["decision"])


@pytest.mark.parametrize(("prior", "rope"), [("bb", 0.003), ("idp", 0.0)])
def test_pooled_pair_equals_its_batches_one_by_one(prior, rope):
    """Where every bound is a count at a fixed posterior (a single prior, or
    the near-ignorance prior without a rope: z0 = ±∞), the pooled
    probabilities are the single-pair test (bayes_signrank's own Monte Carlo
    path) on each batch's stream, weighted by the batches' draws."""
    table = tabzilla(6).dropna()
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, rope=rope, n_samples=1_000, mc_error=0.003,
        random_state=5, interval=False,
    )  # fmt: skip
    pairs = res.pairs
    row = pairs.loc[pairs["draws"].idxmax()]
    assert row["draws"] > 1_000  # a pair that needed more than one batch
    seed = seed_sequence(5)
    pooled = dict.fromkeys(PROBABILITIES, 0.0)
    done = 0
    for batch, size in enumerate(schedule(1_000, 0.003)):
        if done >= row["draws"]:
            break
        one = nbstats.bayes_signrank(
            table[row["a"]], table[row["b"]], prior=prior, rope=rope,
            n_samples=size, random_state=batch_seed(seed, batch),
        )  # fmt: skip
        for key, bounds in one.bounds().items():
            low, high = (np.nan, np.nan) if bounds is None else bounds
            pooled[f"prob_{key}_lower"] += low * size
            pooled[f"prob_{key}_upper"] += high * size
        done += size
    assert done == row["draws"]
    for key in PROBABILITIES:
        assert row[key] == pytest.approx(pooled[key] / done, abs=1e-12, nan_ok=True)
    # a pair that stopped after the first batch is the fixed-draws posterior
    fixed = nbstats.bayes_signrank_pairs(
        table,
        prior=prior,
        rope=rope,
        n_samples=1_000,
        random_state=5,
        interval=False,
    ).pairs
    first = pairs["draws"] == 1_000
    assert first.any()
    for key in (*PROBABILITIES, "decision"):
        np.testing.assert_array_equal(pairs.loc[first, key], fixed.loc[first, key])


#: Dyadic scores (multiples of 1/16) and rope: every event time of a
#: placement is exact in floating point and a point of the brute force's grid.
DYADIC = pd.DataFrame(
    {
        "x": np.array([0, 1, 2, 3, 4, 5, 6, 7]) / 16,
        "y": np.array([1, 0, 3, 2, 6, 4, 5, 9]) / 16,
        "z": np.array([-1, 2, 1, 5, 3, 6, 8, 6]) / 16,
    }
)


def brute_force_pooled(z, rope, draws, random_state, first, target):
    """Exact and per-batch-averaged IDP bounds of one pair from the brute
    force over every placement (a grid holding every event time, ±∞), on the
    batches' own streams (batch_seed, DirichletWeights as the package draws
    them) up to ``draws``: the exact bounds are the extremes of the pooled
    counts per placement; the old pooling averaged each batch's extremes.
    Returns (exact, averaged), each [left, rope, right] lower then upper."""
    from nbstats.stats.bayes.priors import IDP_DEFAULT_S
    from tests.stats.bayes.signrank.test_placements import _grid, brute_force

    seed = seed_sequence(random_state)
    counts, averaged, done = 0.0, 0.0, 0
    for batch, size in enumerate(schedule(first, target)):
        if done >= draws:
            break
        shares = brute_force(
            z, rope, IDP_DEFAULT_S, size, batch_seed(seed, batch), _grid(1 / 64, 3.0)
        )
        counts = counts + np.round(shares * size)
        averaged = averaged + np.concatenate([shares.min(0), shares.max(0)]) * size
        done += size
    assert done == draws
    pooled = counts / done
    return np.concatenate([pooled.min(0), pooled.max(0)]), averaged / done


@pytest.mark.parametrize("random_state", [0, 3])
def test_idp_rope_bounds_are_exact_over_the_pooled_draws(random_state):
    """Under IDP with a rope, a pair drawn in batches has the exact bounds over
    all its draws -- the brute force's extremes of the pooled counts at every
    placement -- not the average of each batch's extremes, which is looser
    (checked: it differs here, and always encloses the exact bounds)."""
    rope, first, target = 1 / 16, 1_000, 0.005
    res = nbstats.bayes_signrank_pairs(
        DYADIC, rope=rope, n_samples=first, mc_error=target,
        random_state=random_state, interval=False,
    )  # fmt: skip
    assert res.pairs["draws"].max() > 2 * first  # more than two batches
    keys = [
        f"prob_{r}_{e}" for e in ("lower", "upper") for r in ("left", "rope", "right")
    ]
    looser = 0.0
    for _, row in res.pairs.iterrows():
        z = (DYADIC[row["b"]] - DYADIC[row["a"]]).to_numpy()
        exact, averaged = brute_force_pooled(
            z, rope, row["draws"], random_state, first, target
        )
        got = row[keys].to_numpy(dtype=float)
        np.testing.assert_allclose(got, exact, rtol=0, atol=1e-12)
        # the old pooling: an outer bound, never inside the exact one
        assert (averaged[:3] <= exact[:3] + 1e-12).all()
        assert (averaged[3:] >= exact[3:] - 1e-12).all()
        looser = max(looser, float(np.abs(averaged - exact).max()))
        errors = np.sqrt(got * (1 - got) / row["draws"])
        assert row["draws"] == draws_for(target) or errors.max() < target
    assert looser > 1e-3  # a pair where per-batch averaging was wrong


def test_stopping_rule_uses_the_pooled_bounds():
    """After each batch, a pair stops when the errors of its exact pooled
    bounds are below the target; one more batch's stream is never drawn for
    it. Its bounds equal one run of the engine on all its batches' draws
    when those are one batch."""
    table = tabzilla(6).dropna()
    kw = {"rope": 0.003, "n_samples": 1_000, "interval": False, "random_state": 5}
    res = nbstats.bayes_signrank_pairs(table, mc_error=0.003, **kw).pairs
    sizes = np.cumsum(schedule(1_000, 0.003))
    for _, row in res.iterrows():
        assert row["draws"] in sizes
        got = row[list(PROBABILITIES)].to_numpy(dtype=float)
        errors = np.sqrt(got * (1 - got) / row["draws"])
        assert errors.max() < 0.003 or row["draws"] == sizes[-1]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=200_000),
    st.floats(min_value=1e-3, max_value=0.2),
)
def test_schedule_ends_where_any_probability_is_precise(first, target):
    sizes = schedule(first, target)
    last = draws_for(target)
    assert sizes[0] == first
    assert sum(sizes) == max(first, last)
    assert 0.5 / math.sqrt(last) < target <= 0.5 / math.sqrt(last - 1)
    # each batch at most doubles the draws so far
    totals = np.cumsum(sizes)
    assert all(b <= t for b, t in zip(sizes[1:], totals[:-1], strict=True))


@pytest.mark.parametrize(
    ("value", "error"),
    [(0, ValueError), (0.5, ValueError), (-0.1, ValueError), (float("nan"), ValueError),
     ("0.01", TypeError), (True, TypeError)],
)  # fmt: skip
def test_bad_targets_are_refused(value, error):
    table = tabzilla(4).dropna()
    with pytest.raises(error, match="mc_error"):
        nbstats.bayes_signrank_pairs(table, mc_error=value)


def test_analyze_states_probabilities_to_the_target():
    table = tabzilla(9).dropna()
    res = nbstats.analyze(table, random_state=0)
    assert res.bayes.mc_error < MC_TARGET
    assert stated_errors(res.bayes.pairs).max() < MC_TARGET
    two = nbstats.analyze(table.iloc[:, :2], random_state=0)
    assert two.bayes.mc_error < MC_TARGET


@pytest.mark.parametrize("rope", [0.0, 0.005])
def test_joint_statements_to_the_target(rope):
    """bayes_posthoc(mc_error=): every statement's share below the target,
    and exactly the procedure on the draws it took (it runs again on more
    draws rather than pooling batches: with a rope, the exact IDP marginals
    of all its draws)."""
    table = tabzilla(7).dropna()
    kw = {"test": "signrank", "prior": "idp", "s": 0.5, "random_state": 2}
    kw["rope"] = rope
    res = nbstats.bayes_posthoc(table, n_samples=1_000, mc_error=0.004, **kw)
    shares = res.statements[["prob", "joint"]].to_numpy(dtype=float)
    assert np.sqrt(shares * (1 - shares) / res.n_samples).max() < 0.004
    assert res.n_samples in (1_000, draws_for(0.004))
    direct = nbstats.bayes_posthoc(table, n_samples=res.n_samples, **kw)
    pd.testing.assert_frame_equal(res.statements, direct.statements)
    # the first draws above what the target needs: one run on them
    sure = nbstats.bayes_posthoc(table, n_samples=1_000, mc_error=0.1, **kw)
    assert sure.n_samples == 1_000
    # first draws above half of what the target needs: straight there
    once = nbstats.bayes_posthoc(table, n_samples=10_000, mc_error=0.004, **kw)
    assert once.n_samples == draws_for(0.004)


@pytest.mark.parametrize(
    ("share", "first", "runs"),
    [(0.5, 5_000, [5_000, 62_501]), (0.999, 5_000, [5_000]),
     (0.5, 40_000, [62_501]), (0.5, 100_000, [100_000])],
)  # fmt: skip
def test_joint_schedule(share, first, runs):
    """Which draws precise_joint runs the procedure on."""
    from types import SimpleNamespace

    from nbstats.stats.bayes.precision import precise_joint

    called = []

    def run(draws):
        called.append(draws)
        shares = pd.Series([share])
        statements = pd.DataFrame({"prob": shares, "joint": shares})
        return SimpleNamespace(statements=statements, n_samples=draws)

    assert precise_joint(run, first, 0.002).n_samples == runs[-1]
    assert called == runs


def test_groups_of_pairs_within_the_memory_give_the_same_numbers(monkeypatch):
    """The pooled counts of a group of pairs fit a share of the memory
    ceiling: with room for two pairs at a time (seven groups), every number
    is that of one group."""
    from nbstats.stats.bayes import precision
    from nbstats.stats.bayes.signrank.pooled import pooled_bytes

    table = tabzilla(6).dropna()
    kw = {"rope": 0.003, "n_samples": 1_000, "mc_error": 0.003, "random_state": 5}
    whole = nbstats.bayes_signrank_pairs(table, **kw)
    each = pooled_bytes(1, len(table), sum(schedule(1_000, 0.003)))
    groups = []
    monkeypatch.setattr(precision, "budget", lambda share: 2 * each)
    real = precision._precise_group

    def counted(*args, **kwargs):
        groups.append(len(args[3]))
        return real(*args, **kwargs)

    monkeypatch.setattr(precision, "_precise_group", counted)
    split = nbstats.bayes_signrank_pairs(table, **kw)
    assert groups == [2] * 7 + [1]
    assert split.pairs["draws"].nunique() > 1
    pd.testing.assert_frame_equal(whole.pairs, split.pairs)
