"""All-pairs Bayesian signed-rank test: equal to one call per pair, faster."""

from __future__ import annotations

from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.bayes.signrank import blocks as pairs_module
from nbstats.util.memory import budget, memory_ceiling


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    rng = np.random.default_rng(5)
    base = rng.uniform(0.6, 0.9, (25, 1))
    values = base + np.linspace(0, 0.02, 4) + rng.normal(0, 0.015, (25, 4))
    return pd.DataFrame(np.round(values, 3), columns=["w", "x", "y", "z"])


@pytest.mark.parametrize("group_share", [None, 1e-12])
@pytest.mark.parametrize(
    ("prior", "rope"), [("idp", 0.0), ("idp", 0.005), ("point", 0.01), ("bb", 0.0)]
)
def test_every_pair_equals_bayes_signrank_with_the_same_seed(
    table, prior, rope, group_share, monkeypatch
):
    if group_share is not None:  # one pair per group: the same draws again
        monkeypatch.setattr(pairs_module, "GROUP_SHARE", group_share)
    res = nbstats.bayes_signrank_pairs(
        table, prior=prior, rope=rope, n_samples=5_000, random_state=3
    )
    rows = res.pairs.set_index(["a", "b"])
    assert list(rows.index) == list(combinations(table.columns, 2))
    for a, b in combinations(table.columns, 2):
        one = nbstats.bayes_signrank(
            table[a], table[b], prior=prior, rope=rope, n_samples=5_000, random_state=3
        )
        row = rows.loc[(a, b)]
        for name in ("prob_left", "prob_right", "prob_lower", "prob_upper"):
            assert row[name] == getattr(one, name), (a, b, name)
        if rope:
            assert row["prob_rope"] == one.prob_rope
        else:
            assert np.isnan(row["prob_rope"])
        assert (row["ci_low"], row["ci_high"]) == one.credible_interval
        assert row["mean_lower"] == one.posterior_mean_lower
        assert row["mean_upper"] == one.posterior_mean_upper
        assert row["decision"] == one.decision
        assert row["differs"] == one.differs
        # the matrix: column better than row, the lower probability (under
        # IDP with a rope not prob_left: that is the lower posterior's share,
        # the one most favourable to a)
        back = nbstats.bayes_signrank(
            table[b], table[a], prior=prior, rope=rope, n_samples=5_000, random_state=3
        )
        assert res.probabilities.loc[a, b] == one.prob_lower
        assert res.probabilities.loc[b, a] == back.prob_lower


def test_lower_is_better_mirrors_every_pair(table):
    up = nbstats.bayes_signrank_pairs(table, n_samples=2_000, random_state=1)
    down = nbstats.bayes_signrank_pairs(
        -table, n_samples=2_000, random_state=1, higher_is_better=False
    )
    pd.testing.assert_frame_equal(up.pairs, down.pairs)
    assert list(up.mean_ranks) == list(down.mean_ranks)


def test_accessor_and_display(table):
    res = table.compare.bayes_signrank_pairs(n_samples=2_000, random_state=0)
    again = nbstats.bayes_signrank_pairs(table, n_samples=2_000, random_state=0)
    pd.testing.assert_frame_equal(res.pairs, again.pairs)
    text = res.summary()
    assert "all pairs" in text and "w" in text and "z" in text
    assert "<table" in res._repr_html_()
    assert "\\begin{table}" in res.to_latex()
    assert res.mean_ranks.idxmin() == "z"  # highest scores, rank 1


def test_heatmap_frames_the_cells_above_the_threshold(table):
    res = nbstats.bayes_signrank_pairs(
        table, prior="point", n_samples=5_000, random_state=0
    )
    ax = res.plot()
    framed = {
        a.get_gid() for a in ax.patches if (a.get_gid() or "").startswith("significant")
    }
    expected = {
        f"significant-{row}-{column}"
        for row in table.columns
        for column in table.columns
        if row != column and res.probabilities.loc[row, column] > res.threshold
    }
    assert framed == expected and framed
    plt.close(ax.figure)


def test_bad_input(table):
    with pytest.raises(ValueError, match="prior"):
        nbstats.bayes_signrank_pairs(table, prior="flat")
    with pytest.raises(ValueError, match="prior_at"):
        nbstats.bayes_signrank_pairs(table, prior_at=0.1)
    with pytest.raises(ValueError, match="rope"):
        nbstats.bayes_signrank_pairs(table, rope=-0.1)
    with pytest.raises(ValueError, match="bb"):
        nbstats.bayes_signrank_pairs(table, prior="bb", s=1.0)
    broken = table.copy()
    broken.iloc[2, 1] = np.nan
    with pytest.raises(ValueError, match="missing scores"):
        nbstats.bayes_signrank_pairs(broken)
    with pytest.warns(UserWarning, match="n_samples"):
        nbstats.bayes_signrank_pairs(table, n_samples=100, random_state=0)


def test_a_generator_seeds_every_group_alike(table, monkeypatch):
    monkeypatch.setattr(pairs_module, "GROUP_SHARE", 1e-12)
    grouped = nbstats.bayes_signrank_pairs(
        table, n_samples=2_000, random_state=np.random.default_rng(11)
    )
    monkeypatch.undo()
    whole = nbstats.bayes_signrank_pairs(
        table, n_samples=2_000, random_state=np.random.default_rng(11)
    )
    pd.testing.assert_frame_equal(grouped.pairs, whole.pairs)


def test_memory_does_not_grow_with_the_number_of_pairs():
    import tracemalloc

    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.normal(size=(20, 30)))  # 435 pairs
    n_samples = 20_000
    tracemalloc.start()
    nbstats.bayes_signrank_pairs(wide, rope=0.1, n_samples=n_samples, random_state=0)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # all pairs' θ and rope sums at once would be 435 × 3 × 20,000 × 8 B = 209 MB
    all_at_once = 435 * 3 * n_samples * 8
    group_bytes = budget(pairs_module.GROUP_SHARE)
    assert peak < group_bytes + 40 * 2**20 < all_at_once
    with memory_ceiling("32M"):  # a lower ceiling: smaller groups, same numbers
        tracemalloc.start()
        low = nbstats.bayes_signrank_pairs(
            wide, rope=0.1, n_samples=n_samples, random_state=0
        )
        _, low_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert low_peak < 32 * 2**20
    again = nbstats.bayes_signrank_pairs(
        wide, rope=0.1, n_samples=n_samples, random_state=0
    )
    pd.testing.assert_frame_equal(low.pairs, again.pairs)


def test_many_cases_use_the_normal_form_per_pair(table):
    rng = np.random.default_rng(5)
    big = pd.DataFrame(rng.normal(size=(1500, 3)), columns=["p", "q", "r"])
    res = nbstats.bayes_signrank_pairs(big, rope=0.05, random_state=1)
    assert res.method == "normal"
    rows = res.pairs.set_index(["a", "b"])
    for a, b in combinations(big.columns, 2):
        one = nbstats.bayes_signrank(big[a], big[b], rope=0.05, random_state=1)
        assert one.method == "normal"
        for name in ("prob_left", "prob_rope", "prob_right", "prob_upper"):
            assert rows.loc[(a, b), name] == getattr(one, name)
    assert res.mc_error == pytest.approx(
        max(
            nbstats.bayes_signrank(big[a], big[b], rope=0.05, random_state=1).mc_error
            for a, b in combinations(big.columns, 2)
        )
    )
    assert "Monte Carlo error" in res._repr_html_()


def test_without_intervals_the_probabilities_are_the_same(table):
    full = nbstats.bayes_signrank_pairs(
        table, rope=0.01, n_samples=3_000, random_state=2
    )
    fast = nbstats.bayes_signrank_pairs(
        table, rope=0.01, n_samples=3_000, random_state=2, interval=False
    )
    columns = ["prob_left", "prob_rope", "prob_right", "prob_lower", "prob_upper"]
    pd.testing.assert_frame_equal(full.pairs[columns], fast.pairs[columns])
    assert (fast.pairs["decision"] == full.pairs["decision"]).all()
    assert fast.pairs[["ci_low", "ci_high"]].isna().all().all()


def _rank_biserial(d: np.ndarray) -> float:
    """(R⁺ − R⁻)/(R⁺ + R⁻) over the ranks of |d|, a zero's rank split
    half to each side (Kerby 2014; the zsplit convention)."""
    from scipy.stats import rankdata

    ranks = rankdata(np.abs(d))
    plus = ranks[d > 0].sum() + ranks[d == 0].sum() / 2
    minus = ranks[d < 0].sum() + ranks[d == 0].sum() / 2
    return float((plus - minus) / (plus + minus))


@pytest.mark.parametrize("nan_policy", ["raise", "pairwise"])
def test_each_pair_carries_its_rank_biserial_effect(table, nan_policy):
    scores = table.copy()
    if nan_policy == "pairwise":
        scores.iloc[[1, 4], 0] = np.nan
        scores.iloc[7, 2] = np.nan
    res = nbstats.bayes_signrank_pairs(
        scores, prior="point", n_samples=2_000, random_state=0, nan_policy=nan_policy
    )
    for row in res.pairs.itertuples():
        both = scores[[row.a, row.b]].dropna()
        d = (both[row.b] - both[row.a]).to_numpy()
        assert row.effect == pytest.approx(_rank_biserial(d), abs=1e-12)
    # lower is better: every effect changes sign
    lower = nbstats.bayes_signrank_pairs(
        scores, prior="point", n_samples=2_000, random_state=0,
        nan_policy=nan_policy, higher_is_better=False,
    )  # fmt: skip
    np.testing.assert_allclose(lower.pairs["effect"], -res.pairs["effect"])
    assert "effect" in res._table().columns
