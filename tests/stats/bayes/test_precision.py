"""Monte Carlo to a stated precision (nbstats.stats.bayes.precision): the
pairs' draws stop when every reported probability's standard error is below
the target; the same seed gives the same numbers; a pooled pair equals its
batches computed one by one by the single-pair test."""

from __future__ import annotations

import math
from pathlib import Path

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
from nbstats.stats.bayes.weights import seed_sequence

TABZILLA = (
    Path(__file__).parents[2] / "data" / "tabzilla" / "tabzilla_accuracy_wide.csv"
)


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


def test_same_seed_same_numbers_and_pairs_independent_of_the_table():
    table = tabzilla(8)
    kw = {"nan_policy": "pairwise", "n_samples": 1_000, "mc_error": 0.004}
    one = nbstats.bayes_signrank_pairs(table, random_state=11, **kw)
    two = nbstats.bayes_signrank_pairs(table, random_state=11, **kw)
    pd.testing.assert_frame_equal(one.pairs, two.pairs)
    # a pair's draws are its own: the same numbers in a smaller table
    small = nbstats.bayes_signrank_pairs(
        table.iloc[:, [1, 4, 6]], random_state=11, **kw
    )
    full = one.pairs.set_index(["a", "b"])
    for _, row in small.pairs.iterrows():
        other = full.loc[(row["a"], row["b"])]
        for key in PROBABILITIES:
            assert np.array_equal(row[key], other[key], equal_nan=True)
        assert (row["draws"], row["decision"]) == (other["draws"], other["decision"])


def test_pooled_pair_equals_its_batches_one_by_one():
    """The single-pair test (bayes_signrank's own Monte Carlo path) on each
    batch's stream, weighted by the batches' draws."""
    table = tabzilla(6).dropna()
    res = nbstats.bayes_signrank_pairs(
        table, rope=0.003, n_samples=1_000, mc_error=0.003, random_state=5,
        interval=False,
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
            table[row["a"]], table[row["b"]], rope=0.003, n_samples=size,
            random_state=batch_seed(seed, batch),
        )  # fmt: skip
        for key, (low, high) in one.bounds().items():
            pooled[f"prob_{key}_lower"] += low * size
            pooled[f"prob_{key}_upper"] += high * size
        done += size
    assert done == row["draws"]
    for key in PROBABILITIES:
        assert row[key] == pytest.approx(pooled[key] / done, abs=1e-12)
    # a pair that stopped after the first batch is the fixed-draws posterior
    fixed = nbstats.bayes_signrank_pairs(
        table, rope=0.003, n_samples=1_000, random_state=5, interval=False
    ).pairs
    first = pairs["draws"] == 1_000
    assert first.any()
    for key in (*PROBABILITIES, "decision"):
        assert list(pairs.loc[first, key]) == list(fixed.loc[first, key])


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


def test_joint_statements_to_the_target():
    """bayes_posthoc(mc_error=): every statement's share below the target,
    and exactly the procedure on the draws it took."""
    table = tabzilla(7).dropna()
    kw = {"test": "signrank", "prior": "idp", "s": 0.5, "random_state": 2}
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
