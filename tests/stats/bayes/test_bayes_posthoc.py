"""Joint Bayesian multiple comparisons (Benavoli et al. 2015, §5.3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats


@pytest.fixture
def four():
    """Four algorithms on 30 cases, shaped like the paper's Example 1."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(30, 4)) + [1.5, 0.5, 0.2, 0.0]
    return pd.DataFrame(x, columns=["X1", "X2", "X3", "X4"])


def test_marginals_are_theorem_2(four):
    res = nbstats.bayes_posthoc(four, random_state=0)
    for row in res.statements.itertuples(index=False):
        d = four[row.better] - four[row.worse]
        expected = stats.beta.sf(0.5, (d > 0).sum(), (d < 0).sum())
        assert row.prob == pytest.approx(expected, abs=1e-12)


def test_joint_probabilities_equal_an_independent_monte_carlo(four):
    res = nbstats.bayes_posthoc(four, s=1.0, random_state=0)
    # the same statements, evaluated on numpy's own Dirichlet draws
    n_draws = 200_000
    weights = np.random.default_rng(5).dirichlet([1.0] + [1.0] * 30, n_draws)
    holds = []
    for row in res.statements.itertuples(index=False):
        h = np.heaviside(four[row.better] - four[row.worse], 0.5).to_numpy()
        holds.append(weights[:, 1:] @ h + 0.5 * weights[:, 0] > 0.5)
    joint = np.logical_and.accumulate(np.column_stack(holds), axis=1).mean(axis=0)
    se = np.sqrt(joint * (1 - joint) * (1 / 50_000 + 1 / n_draws))
    assert np.all(np.abs(res.statements["joint"].to_numpy() - joint) < 4 * se + 1e-12)


def test_statements_sorted_and_accepted_prefix(four):
    res = nbstats.bayes_posthoc(four, threshold=0.95, random_state=0)
    st = res.statements
    assert st["prob"].is_monotonic_decreasing
    assert st["joint"].is_monotonic_decreasing
    accepted = st["accepted"].to_numpy()
    assert np.all(accepted == (st["joint"] > 0.95).to_numpy())
    assert not np.any(accepted[np.argmin(accepted) :]) or accepted.all()
    assert accepted[0]  # X1 is far better than X4


def test_identical_columns_are_accepted_together():
    # 2015 §5.3: with X1 = X2, accepting "X1 > X3" implies accepting "X2 > X3",
    # which Holm's procedure does not guarantee
    rng = np.random.default_rng(1)
    x1 = rng.normal(size=25) + 0.8
    x3 = rng.normal(size=25)
    table = pd.DataFrame({"X1": x1, "X2": x1.copy(), "X3": x3})
    res = nbstats.bayes_posthoc(table, random_state=0)
    st = res.statements.set_index(["better", "worse"])
    assert st.loc[("X1", "X3"), "accepted"]
    assert st.loc[("X2", "X3"), "accepted"]
    assert st.loc[("X1", "X3"), "joint"] == pytest.approx(st.loc[("X2", "X3"), "joint"])


def test_two_algorithms_reduce_to_the_sign_test():
    a, b = np.random.default_rng(2).normal(size=(2, 20))
    b = b + 0.5
    res = nbstats.bayes_posthoc(np.column_stack([a, b]), random_state=0)
    single = nbstats.bayes_sign_test(a, b)
    assert res.statements["prob"].iloc[0] == pytest.approx(
        max(single.prob_right, single.prob_left)
    )


def test_probability_matrix_and_groups(four):
    res = nbstats.bayes_posthoc(four, random_state=0)
    p = res.probabilities
    assert np.isnan(np.diag(p)).all()
    # entry (i, j): P(column j better than row i); the two directions of a pair
    # add up to at most 1
    assert np.all((p + p.T).fillna(0).to_numpy() <= 1 + 1e-12)
    accepted = res.statements[res.statements["accepted"]]
    for group in res.groups:
        for row in accepted.itertuples(index=False):
            assert not (row.better in group and row.worse in group)


def test_signrank_statements_use_the_signrank_probabilities(four):
    res = nbstats.bayes_posthoc(four, test="signrank", random_state=0)
    top = res.statements.iloc[0]
    single = nbstats.bayes_signrank(
        four[top.worse], four[top.better], prior="point", s=1.0, random_state=3
    )
    assert top["prob"] == pytest.approx(single.prob_right, abs=0.01)


def test_speed_sized_problem_runs(four):
    rng = np.random.default_rng(3)
    big = pd.DataFrame(rng.normal(size=(100, 20)) + np.linspace(0, 1, 20))
    res = nbstats.bayes_posthoc(big, random_state=0)
    assert len(res.statements) == 190


def test_accessor_and_rendering(four):
    res = four.compare.bayes_posthoc(random_state=0)
    assert res == nbstats.bayes_posthoc(four, random_state=0)
    assert "X1 &gt; X4" in res._repr_html_()
    assert "X1 $>$ X4" in res.to_latex()  # < and > are math in LaTeX
    assert "accepted statements" in res.summary()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"threshold": 0}, "threshold"),
        ({"test": "ttest"}, "unknown test='ttest'"),
        ({"s": -0.5}, "s must be a number >= 0"),
    ],
)
def test_bad_arguments(four, kwargs, match):
    with pytest.raises(ValueError, match=match):
        nbstats.bayes_posthoc(four, **kwargs)


def test_joint_never_exceeds_the_marginals(four):
    # Monte Carlo joint vs exact marginals: the joint is capped by the running
    # minimum of the marginals, since P(S1 and ... and Sk) <= min P(Si)
    for seed in range(5):
        st = nbstats.bayes_posthoc(four, random_state=seed, n_samples=2_000).statements
        assert np.all(
            st["joint"].to_numpy() <= np.minimum.accumulate(st["prob"].to_numpy())
        )


@pytest.mark.parametrize("test", ["sign", "signrank"])
def test_a_low_memory_ceiling_gives_the_same_statements(test):
    """Under a 16 MB ceiling the events are not kept between the passes and
    θ is made for blocks of pairs; the numbers stay the same."""
    from nbstats.util.memory import memory_ceiling

    rng = np.random.default_rng(8)
    wide = pd.DataFrame(rng.normal(size=(20, 10)) + np.linspace(0, 1, 10))
    kw = dict(test=test, n_samples=30_000, random_state=4)  # 2.7 MB of events
    whole = nbstats.bayes_posthoc(wide, **kw)
    with memory_ceiling("16M"):
        low = nbstats.bayes_posthoc(wide, **kw)
    pd.testing.assert_frame_equal(low.statements, whole.statements)
    pd.testing.assert_frame_equal(low.probabilities, whole.probabilities)


@pytest.mark.parametrize(
    ("test", "rope", "prior"),
    [
        ("signrank", 0.0, None),
        ("signrank", 0.01, None),
        ("signrank", 0.01, "point"),
        ("sign", 0.0, None),
    ],
)
def test_too_many_algorithms_are_refused_up_front(test, rope, prior, monkeypatch):
    """1000 algorithms x 20 cases need over 1 GB (issue 30 item 9): a clear
    error before any per-pair array is made, naming the size and the fixes;
    the ceiling it names is the one the call's prior needs."""
    from nbstats.stats.bayes import posthoc as posthoc_module

    def no_pairs(*args, **kwargs):
        raise AssertionError("per-pair set-up reached before the refusal")

    # the signed-rank pairs are set up by the joint engine, the sign test's here
    monkeypatch.setattr(posthoc_module, "JointDraws", no_pairs)
    monkeypatch.setattr(posthoc_module, "SignEvents", no_pairs)
    table = np.random.default_rng(0).normal(size=(20, 1000))
    with pytest.raises(ValueError, match="working memory") as caught:
        nbstats.bayes_posthoc(table, test=test, rope=rope, prior=prior)
    message = str(caught.value)
    for words in (
        "1,000 algorithms x 20 cases",
        "MB of working memory",
        "499,500 pairs",
        "n_samples=50,000",
        "NBSTATS_MAX_MEMORY",
        "set_memory_ceiling",
        "bayes_signrank_pairs",
    ):
        assert words in message, (words, message)
    # the ceiling the message names is enough, one MB less is not
    from nbstats.util.memory import memory_ceiling

    enough = int(message.split("to at least ")[1].split(" MB")[0].replace(",", ""))
    assert enough > 512
    with memory_ceiling(f"{enough}M"), pytest.raises(AssertionError, match="per-"):
        nbstats.bayes_posthoc(table, test=test, rope=rope, prior=prior)
    with (
        memory_ceiling(f"{enough - 1}M"),
        pytest.raises(ValueError, match="1,000 algorithms"),
    ):
        nbstats.bayes_posthoc(table, test=test, rope=rope, prior=prior)


@pytest.mark.parametrize("n", [3, 20, 50])
def test_posthoc_memory_counts_the_near_ignorance_placement_tally(n):
    """With a rope, the near-ignorance prior tallies each pair's regions at
    every placement of its pseudo-observation: posthoc_memory's bound for
    it exceeds the point prior's by at least those arrays, as allocated by
    the engine itself; without a rope (no tally) the two are the same."""
    from nbstats.stats.bayes.joint_events import SignedRankEvents
    from nbstats.stats.bayes.posthoc import posthoc_memory

    m, rope = 7, 0.01
    pairs = m * (m - 1) // 2
    diffs = np.random.default_rng(n).normal(0, 0.02, (n, pairs))
    events = SignedRankEvents(diffs, rope, "idp")
    events.start_tally()
    tally = sum(array.nbytes for array in events.tally)

    def need(prior, rope):
        return posthoc_memory(m, n, 1000, "signrank", rope, 2**29, prior)

    assert need("idp", rope) - need("point", rope) >= tally
    assert need(None, rope) == need("idp", rope)
    assert need("bb", rope) == need("point", rope)
    assert need("idp", 0.0) == need("point", 0.0)
    sign = posthoc_memory(m, n, 1000, "sign", rope, 2**29, "idp")
    assert sign == posthoc_memory(m, n, 1000, "sign", rope, 2**29, "point")


@pytest.mark.parametrize("prior", ["point", "idp"])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_posthoc_allocates_under_its_memory_bound(prior, rope):
    """What bayes_posthoc(test="signrank") allocates (tracemalloc's peak,
    numpy and the compiled kernels' arrays) stays under posthoc_memory for
    either prior; the near-ignorance prior with a rope went over the bound
    of the point prior at this size."""
    import tracemalloc

    from nbstats.stats.bayes.posthoc import posthoc_memory
    from nbstats.util.memory import memory_ceiling

    m, n = 60, 50
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.normal(0.8, 0.05, (n, m)) + np.linspace(0, 0.02, m))
    kw = dict(test="signrank", rope=rope, n_samples=1000, random_state=0)
    with memory_ceiling("512M"):
        nbstats.bayes_posthoc(table.iloc[:, :4], prior=prior, groups=False, **kw)
        tracemalloc.start()
        try:
            nbstats.bayes_posthoc(table, prior=prior, groups=False, **kw)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        bound = posthoc_memory(m, n, 1000, "signrank", rope, prior=prior)
    assert peak <= bound, (peak / 2**20, bound / 2**20)
    if prior == "idp" and rope > 0:
        point = posthoc_memory(m, n, 1000, "signrank", rope, 2**29, "point")
        assert peak > point  # the case the point prior's bound missed
