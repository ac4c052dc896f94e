"""The Bayesian tests give the same answer whatever the layout (issue 30, item 4).

The report and the dashboard disagreed on the same CSV and seed: the Monte
Carlo draws depended on which algorithm was a and which b (the report ordered
the pairs by rank, the dashboard by column), and permuting the columns or the
rows changed ``bayes_posthoc``'s joint column and ``bayes_signrank_pairs``.
Now every pair is drawn in one canonical orientation and mirrored for (b, a),
and the joint statements and the Friedman test work on one canonical layout
of the table. Properties, for random tables (with ties):

- swapping a and b mirrors the result exactly (left ↔ right, "a" ↔ "b"; the
  IDP's lower and upper posteriors swap), for ``bayes_signrank`` and
  ``bayes_sign_test``, with and without a rope;
- permuting the rows gives bit-identical results (every Bayesian function);
- permuting the columns gives bit-identical results, each pair mirrored when
  it is now named the other way round (``bayes_signrank_pairs``,
  ``bayes_posthoc`` — joint column included —, ``bayes_friedman``);
- the dashboard, the functions and the report's calls (columns worst to
  best) agree, and the Friedman test has one default s, 1 (Benavoli et al.
  2015, §7).

Every check compares two runs of the code under test with each other; the
numbers themselves are checked against baycomp and the papers elsewhere
(``tests/stats/bayes``).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.stats.bayes.priors import FRIEDMAN_DEFAULT_S, IDP_DEFAULT_S

DRAWS = 2000
SWAP = {"a": "b", "b": "a"}
FAST = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)


@st.composite
def tables(draw, min_m: int = 2, max_m: int = 5, min_n: int = 5, max_n: int = 12):
    """Score tables with ties: small integers (many ties) or rounded floats."""
    m = draw(st.integers(min_m, max_m))
    n = draw(st.integers(max(min_n, m), max_n))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    if draw(st.booleans()):
        values = rng.integers(0, 4, (n, m)).astype(float)
    else:
        values = np.round(rng.normal(0, 1, (n, m)) + np.linspace(0, 1, m), 1)
    names = [f"alg{k}" for k in range(m)]
    return pd.DataFrame(values, columns=names)


def _mirrored_decision(decision: str) -> str:
    return SWAP.get(decision, decision)


def _check_signrank_mirror(ab, ba, prior: str, rope: float) -> None:
    """``ba`` is ``ab`` with a and b swapped."""
    assert ba.decision == _mirrored_decision(ab.decision)
    if prior == "idp":
        # the lower posterior of (b, a) is the upper one of (a, b)
        if rope > 0:
            assert ba.prob_left == ab.prob_lower
            assert ba.prob_upper == ab.prob_left_upper
            assert ba.prob_rope == ab.prob_rope
            assert ba.prob_rope_upper == ab.prob_rope_upper
        else:
            assert ba.prob_lower == ab.prob_left
            assert ba.prob_left == ab.prob_lower
        assert ba.posterior_mean_lower == pytest.approx(1 - ab.posterior_mean_upper)
    else:
        assert (ba.prob_left, ba.prob_right) == (ab.prob_right, ab.prob_left)
        assert ba.prob_rope == ab.prob_rope
        assert ba.posterior_mean == pytest.approx(1 - ab.posterior_mean)
    # the draws are the same ones, mirrored: θ' = 1 − θ (IDP: of the other
    # posterior)
    theta = ab.samples_upper if prior == "idp" else ab.samples
    np.testing.assert_allclose(ba.samples, 1 - theta, rtol=0, atol=1e-12)
    low, high = ab.credible_interval
    assert ba.credible_interval == pytest.approx((1 - high, 1 - low), abs=1e-12)


@FAST
@given(
    table=tables(min_m=2, max_m=2),
    prior=st.sampled_from(["idp", "bb", "point"]),
    rope=st.sampled_from([0.0, 0.15]),
)
def test_bayes_signrank_swapping_a_and_b_mirrors_the_result(table, prior, rope):
    a, b = table["alg0"], table["alg1"]
    kw = {"prior": prior, "rope": rope, "n_samples": DRAWS, "random_state": 7}
    ab = nbstats.bayes_signrank(a, b, **kw)
    ba = nbstats.bayes_signrank(b, a, **kw)
    _check_signrank_mirror(ab, ba, prior, rope)


def test_bayes_signrank_swap_the_attack_case():
    """A pair whose decision flipped with the orientation of the draws."""
    rng = np.random.default_rng(3)
    a = pd.Series(rng.normal(0, 1, 20), name="A")
    b = pd.Series(a + rng.normal(0.35, 1, 20), name="B")
    for prior in ("idp", "bb"):
        ab = nbstats.bayes_signrank(a, b, prior=prior, random_state=0, n_samples=5000)
        ba = nbstats.bayes_signrank(b, a, prior=prior, random_state=0, n_samples=5000)
        _check_signrank_mirror(ab, ba, prior, 0.0)


@FAST
@given(
    table=tables(min_m=2, max_m=2),
    rope=st.sampled_from([0.0, 0.5]),
    prior_at=st.sampled_from(["rope", "left", "right"]),
)
def test_bayes_sign_test_swapping_a_and_b_mirrors_the_result(table, rope, prior_at):
    a, b = table["alg0"], table["alg1"]
    kw = {"rope": rope, "n_samples": DRAWS, "random_state": 5}
    place = {"rope": "rope", "left": "right", "right": "left"}
    ab = nbstats.bayes_sign_test(a, b, prior_at=prior_at, **kw)
    ba = nbstats.bayes_sign_test(b, a, prior_at=place[prior_at], **kw)
    assert (ba.prob_left, ba.prob_right) == (ab.prob_right, ab.prob_left)
    assert ba.prob_rope == ab.prob_rope
    assert (ba.wins, ba.losses, ba.n_ties) == (ab.losses, ab.wins, ab.n_ties)
    assert ba.decision == _mirrored_decision(ab.decision)
    np.testing.assert_allclose(ba.samples, 1 - ab.samples, rtol=0, atol=1e-12)
    if rope > 0:
        np.testing.assert_array_equal(ba.region_samples, ab.region_samples[:, ::-1])


@FAST
@given(table=tables(min_m=2, max_m=2), data=st.data())
def test_two_sample_tests_ignore_the_row_order(table, data):
    rows = data.draw(st.permutations(range(len(table))))
    shuffled = table.iloc[list(rows)].reset_index(drop=True)
    for test, kw in (
        (nbstats.bayes_signrank, {"rope": 0.15}),
        (nbstats.bayes_signrank, {"prior": "point"}),
        (nbstats.bayes_sign_test, {"rope": 0.5}),
    ):
        one = test(table["alg0"], table["alg1"], n_samples=DRAWS, random_state=2, **kw)
        two = test(
            shuffled["alg0"], shuffled["alg1"], n_samples=DRAWS, random_state=2, **kw
        )
        assert one.prob_left == two.prob_left and one.prob_right == two.prob_right
        assert one.credible_interval == two.credible_interval
        np.testing.assert_array_equal(one.samples, two.samples)


def _pairs_by_set(res) -> dict[frozenset, pd.Series]:
    return {frozenset((row.a, row.b)): row for _, row in res.pairs.iterrows()}


@FAST
@given(
    table=tables(min_m=3, max_m=5),
    prior=st.sampled_from(["idp", "bb", "point"]),
    rope=st.sampled_from([0.0, 0.15]),
    data=st.data(),
)
def test_bayes_signrank_pairs_ignores_the_column_and_row_order(
    table, prior, rope, data
):
    columns = data.draw(st.permutations(list(table.columns)))
    rows = data.draw(st.permutations(range(len(table))))
    kw = {"prior": prior, "rope": rope, "n_samples": DRAWS, "random_state": 4}
    one = nbstats.bayes_signrank_pairs(table, **kw)
    two = nbstats.bayes_signrank_pairs(table[list(columns)].iloc[list(rows)], **kw)
    first, second = _pairs_by_set(one), _pairs_by_set(two)
    for key, row in first.items():
        other = second[key]
        if (other.a, other.b) == (row.a, row.b):
            pd.testing.assert_series_equal(row, other, check_names=False)
            continue
        # named the other way round: the mirror, from the same draws
        assert other.decision == _mirrored_decision(row.decision)
        if prior == "idp" and rope > 0:
            assert (other.prob_left, other.prob_upper, other.prob_rope) == (
                row.prob_lower,
                row.prob_left_upper,
                row.prob_rope,
            )
        elif prior == "idp":
            assert (other.prob_lower, other.prob_left) == (
                row.prob_left,
                row.prob_lower,
            )
        else:
            assert (other.prob_left, other.prob_right) == (
                row.prob_right,
                row.prob_left,
            )
        assert other.effect == pytest.approx(-row.effect, abs=1e-12)
    # the matrix is the same matrix, whatever the order
    names = list(table.columns)
    pd.testing.assert_frame_equal(
        one.probabilities.loc[names, names], two.probabilities.loc[names, names]
    )


@FAST
@given(
    table=tables(min_m=3, max_m=5),
    test=st.sampled_from(["sign", "signrank"]),
    rope=st.sampled_from([0.0, 0.15]),
    data=st.data(),
)
def test_bayes_posthoc_ignores_the_column_and_row_order(table, test, rope, data):
    columns = data.draw(st.permutations(list(table.columns)))
    rows = data.draw(st.permutations(range(len(table))))
    kw = {"test": test, "rope": rope, "n_samples": DRAWS, "random_state": 9}
    one = nbstats.bayes_posthoc(table, **kw)
    two = nbstats.bayes_posthoc(table[list(columns)].iloc[list(rows)], **kw)
    # statements, marginal and joint probabilities, acceptance: bit for bit
    pd.testing.assert_frame_equal(one.statements, two.statements)
    names = list(table.columns)
    pd.testing.assert_frame_equal(
        one.probabilities.loc[names, names], two.probabilities.loc[names, names]
    )
    assert one.groups == two.groups


def test_bayes_posthoc_prior_at_keeps_naming_the_given_sides():
    """``prior_at`` names a side of each pair as given (a before b): after a
    column permutation the same side keeps the prior."""
    table = pd.DataFrame(
        {
            "x": [1, 2, 3, 4, 5, 6.0],
            "y": [2, 1, 4, 3, 6, 5.0],
            "z": [0, 3, 3, 5, 4, 7.0],
        }
    )
    kw = {"rope": 0.5, "n_samples": DRAWS, "random_state": 1, "s": 3.0}
    one = nbstats.bayes_posthoc(table, prior_at="left", **kw)
    two = nbstats.bayes_posthoc(table[["z", "y", "x"]], prior_at="right", **kw)
    pd.testing.assert_frame_equal(one.statements, two.statements)


@FAST
@given(
    table=tables(min_m=3, max_m=5, min_n=6),
    method=st.sampled_from(["ellipsoid", "montecarlo"]),
    data=st.data(),
)
def test_bayes_friedman_ignores_the_column_and_row_order(table, method, data):
    columns = data.draw(st.permutations(list(table.columns)))
    rows = data.draw(st.permutations(range(len(table))))
    kw = {"method": method, "n_samples": DRAWS, "random_state": 3}
    one = nbstats.bayes_friedman(table, **kw)
    two = nbstats.bayes_friedman(table[list(columns)].iloc[list(rows)], **kw)
    assert (one.statistic, one.rho, one.credibility, one.reject) == (
        two.statistic,
        two.rho,
        two.credibility,
        two.reject,
    )
    names = list(table.columns)
    pd.testing.assert_series_equal(one.mean_ranks, two.mean_ranks[names])
    pd.testing.assert_frame_equal(one.covariance, two.covariance.loc[names, names])
    if method == "montecarlo":
        order = [list(columns).index(name) for name in names]
        np.testing.assert_array_equal(one.samples, two.samples[:, order])


@pytest.fixture(scope="module")
def uci() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy")


def test_dashboard_report_and_functions_agree(uci):
    """The dashboard (column order) and the report's calls (columns worst to
    best, as nbstats.reporting.notebook writes them) give the same pairs,
    mirrored where they name a pair the other way round, the same joint
    statements, and the Friedman test with the same default s."""
    from nbstats.widgets.bayes import BayesDashboard

    dash = BayesDashboard(uci, n_samples=5000, random_state=0)
    order = list(nbstats.mean_ranks(uci).sort_values(kind="stable").index)
    report_pairs = nbstats.bayes_signrank_pairs(
        uci[order[::-1]], n_samples=5000, random_state=0, interval=False
    )
    shown = dash.result["pairs"].set_index(["a", "b"])
    for row in report_pairs.pairs.itertuples(index=False):
        if (row.a, row.b) in shown.index:
            mine = shown.loc[(row.a, row.b)]
            assert (mine.prob_lower, mine.prob_left) == (row.prob_lower, row.prob_left)
            assert mine.decision == row.decision
        else:
            mine = shown.loc[(row.b, row.a)]
            assert (mine.prob_lower, mine.prob_left) == (row.prob_left, row.prob_lower)
            assert mine.decision == _mirrored_decision(row.decision)
    # the report and the dashboard ask for the pairs' prior (IDP by default)
    joint = nbstats.bayes_posthoc(
        uci, test="signrank", s=report_pairs.s, prior="idp", n_samples=5000,
        random_state=0,
    )  # fmt: skip
    pd.testing.assert_frame_equal(
        dash.result["joint"].reset_index(drop=True), joint.statements
    )
    # one default s for the Bayesian Friedman test: the function's, the
    # report's (it calls the function without s unless one is given) and the
    # dashboard's while its slider keeps the IDP default
    assert dash.controls["s"].value == IDP_DEFAULT_S
    assert dash.result["friedman"].s == FRIEDMAN_DEFAULT_S == 1.0
    assert nbstats.bayes_friedman(uci).s == FRIEDMAN_DEFAULT_S
    assert "s" not in dash.report_settings()
    dash.controls["s"].value = 2.0
    assert dash.result["friedman"].s == 2.0 and dash.report_settings()["s"] == 2.0


def test_dashboard_ignores_the_column_and_row_order(uci):
    from nbstats.widgets.bayes import BayesDashboard

    one = BayesDashboard(uci, n_samples=3000, random_state=0)
    rng = np.random.default_rng(0)
    shuffled = uci.iloc[rng.permutation(len(uci)), ::-1]
    two = BayesDashboard(shuffled, n_samples=3000, random_state=0)
    pd.testing.assert_frame_equal(
        one.result["joint"].reset_index(drop=True),
        two.result["joint"].reset_index(drop=True),
    )
    first = one.result["pairs"].set_index(["a", "b"])
    second = two.result["pairs"].set_index(["b", "a"])  # every pair reversed
    for (a, b), row in first.iterrows():
        other = second.loc[(a, b)]
        assert (other.prob_lower, other.prob_left) == (row.prob_left, row.prob_lower)
    pairs = list(combinations(uci.columns, 2))
    assert len(first) == len(second) == len(pairs)
