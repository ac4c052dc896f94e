"""Exact near-ignorance bounds: every placement of the pseudo-observation (issue 38).

The oracle is a brute force from the definition, on the package's own
draws (so the comparison is exact, not within Monte Carlo error): each
draw's weights ``(g0, e_1, …, e_n) / (g0 + Σ e)`` go to the pseudo-observation
and to the sorted differences of the pair's drawn orientation, and at every
placement z0 of a grid (plus ±∞) each region's share of the pairs is
``Σ_ij w_i w_j H(±(x_i + x_j) − 2 rope)`` over ``x = (z0, z_1, …, z_n)``.
The region that wins a draw is the most probable (ties to the first of left,
rope, right); the bounds are the smallest and largest share of draws won
over the placements.

The pseudo-observation's pairs are evaluated in exact rational arithmetic
(``H(±(z0 + z_j) − 2 rope)`` with z0 and z_j as fractions), so a placement
is where it says it is, and :func:`exact_placements` puts z0 at every event
time ``±2 rope − z_j``, ``±rope`` (exact fractions), between each two
consecutive ones (their exact midpoint, which floats may not hold: two event
times can be one ulp apart) and at ±∞: every state there is. With dyadic
data (multiples of 1/16, rope a multiple of 1/16) every event time is also
a point of the float grid, and the grid holds every state: the package's
bounds must then equal the grid's minimum and maximum exactly.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.stats.bayes.canonical import flipped
from nbstats.stats.bayes.priors import IDP_DEFAULT_S
from nbstats.stats.bayes.signrank.placements import (
    placement_bounds,
    placement_counts,
    placement_states,
)
from nbstats.stats.bayes.weights import DirichletWeights, gamma_quantile

TOL = 1e-12


def _weights(n, n_samples, seed, s):
    """The package's draws, as a (draws × (n + 1)) matrix, prior first."""
    chunks = list(DirichletWeights(n, n_samples, seed))
    e = np.concatenate([c.exponentials for c in chunks])
    g0 = gamma_quantile(s, np.concatenate([c.uniforms for c in chunks]))
    w = np.column_stack([g0, e])
    return w / w.sum(axis=1)[:, None]


def _exact(x):
    """A float as the exact fraction it holds; ±∞ stays a float."""
    return x if isinstance(x, Fraction) or np.isinf(x) else Fraction(float(x))


def _steps(sign, z0, zs, c):
    """``H(sign (z0 + z_j) − c)`` for every j and ``H(sign 2 z0 − c)``, H(0)
    = ½, in exact arithmetic: z0 a fraction or ±∞, zs floats."""

    def step(x):
        return 1.0 if x > 0 else 0.5 if x == 0 else 0.0

    z0, c = _exact(z0), Fraction(float(c))
    if not isinstance(z0, Fraction):  # ±∞: every pair on the side of its sign
        return np.full(zs.size, step(sign * z0)), step(sign * z0)
    cross = np.array([step(sign * (z0 + Fraction(float(v))) - c) for v in zs])
    return cross, step(sign * 2 * z0 - c)


def exact_placements(z, rope):
    """A placement in every state, in the caller's orientation: ±∞, every
    event time ``±2 rope − z_j`` and ``±rope``, and the exact midpoint of
    every two consecutive ones (fractions; floats need not hold it)."""
    r = Fraction(float(rope))
    zf = [Fraction(float(v)) for v in z]
    edges = sorted({*(2 * r - v for v in zf), *(-2 * r - v for v in zf), r, -r})
    middles = [(a + b) / 2 for a, b in pairwise(edges)]
    return [-np.inf, np.inf, *edges, *middles]


def brute_force(z, rope, s, n_samples, seed, placements):
    """Shares of draws won per placement: (placements × 3) with a rope
    (left, rope, right), else (placements × 2) (θ < ½, θ > ½); in the
    caller's orientation of ``z`` (the package draws the canonical one).
    A placement is a float or a :class:`~fractions.Fraction` (exact); the
    pseudo-observation's pairs are placed in exact arithmetic (:func:`_steps`),
    the cases' own pairs as the package defines them, ``H(fl(z_i + z_j) − c)``."""
    z = np.asarray(z, dtype=float)
    flip = flipped(z, "a", "b")
    zs = np.sort(-z if flip else z)
    w = _weights(zs.size, n_samples, seed, s)
    w0, wc = w[:, 0], w[:, 1:]
    pair = zs[:, None] + zs[None, :]
    # right and left, or θ
    cuts = [(+1, 2 * rope), (-1, 2 * rope)] if rope > 0 else [(+1, 0.0)]
    # the cases' own pairs once; the pseudo-observation's per placement
    quad = [np.einsum("di,ij,dj->d", wc, np.heaviside(sg * pair - c, 0.5), wc)
            for sg, c in cuts]  # fmt: skip
    out = []
    for z0 in placements:
        z0 = -_exact(z0) if flip else _exact(z0)
        shares = []
        for (sg, c), q in zip(cuts, quad, strict=True):
            steps, own = _steps(sg, z0, zs, c)
            shares.append(q + 2 * w0 * (wc @ steps) + w0 * w0 * own)
        if rope > 0:
            right, left = shares
            middle = 1 - left - right
            lw = (left >= middle) & (left >= right)
            mw = ~lw & (middle >= right)
            won = [lw.mean(), mw.mean(), (~lw & ~mw).mean()]
            out.append(won[::-1] if flip else won)
        else:
            theta = shares[0]
            won = [np.mean(theta < 0.5 - TOL), np.mean(theta > 0.5 + TOL)]
            out.append(won[::-1] if flip else won)
    return np.array(out)


def _grid(step, reach):
    return np.concatenate([[-np.inf], np.arange(-reach, reach + step, step), [np.inf]])


def _result(z, rope, n_samples, seed, s=IDP_DEFAULT_S):
    return nbstats.bayes_signrank(
        pd.Series(np.zeros(len(z)), name="a"),
        pd.Series(z, name="b"),
        prior="idp",
        s=s,
        rope=rope,
        n_samples=n_samples,
        random_state=seed,
    )


DYADIC = [
    # ties, differences 4 rope apart (a left and a right event at one time),
    # a difference at ±rope (an event at the self pair's time)
    (np.array([-3, -1, 0, 1, 2, 2, 5, 7]) / 16, 1 / 16),
    (np.array([1, 2, 3, 3, 4, 6, 9]) / 16, 2 / 16),
    (np.array([-5, -4, -2, 0, 0, 1, 3, 4, 8]) / 16, 1 / 16),
    (np.array([-1, 0, 1, 1, 2]) / 16, 4 / 16),
]


@pytest.mark.parametrize(("z", "rope"), DYADIC)
@pytest.mark.parametrize("s", [IDP_DEFAULT_S, 2.0])
def test_rope_bounds_equal_the_brute_force_over_every_placement(z, rope, s):
    draws, seed = 4000, 3
    res = _result(z, rope, draws, seed, s)
    shares = brute_force(z, rope, s, draws, seed, _grid(1 / 64, 3.0))
    for q, region in enumerate(("left", "rope", "right")):
        low, high = res.bounds()[region]
        assert low == pytest.approx(shares[:, q].min(), abs=TOL), region
        assert high == pytest.approx(shares[:, q].max(), abs=TOL), region


@pytest.mark.parametrize(("z", "rope"), DYADIC)
def test_without_a_rope_the_bounds_are_the_extreme_placements(z, rope):
    draws, seed = 4000, 5
    res = nbstats.bayes_signrank(
        np.zeros(len(z)), z, prior="idp", n_samples=draws, random_state=seed
    )
    shares = brute_force(z, 0.0, IDP_DEFAULT_S, draws, seed, _grid(1 / 64, 3.0))
    assert res.prob_left_lower == pytest.approx(shares[:, 0].min(), abs=TOL)
    assert res.prob_left_upper == pytest.approx(shares[:, 0].max(), abs=TOL)
    assert res.prob_right_lower == pytest.approx(shares[:, 1].min(), abs=TOL)
    assert res.prob_right_upper == pytest.approx(shares[:, 1].max(), abs=TOL)
    # θ grows with z0 in every draw: the extremes are at ∓∞
    assert shares[0, 1] == shares[:, 1].min() and shares[-1, 1] == shares[:, 1].max()


@settings(max_examples=25, deadline=None)
@given(
    z=st.lists(
        st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False),
        min_size=2,
        max_size=7,
    ),
    rope=st.floats(0.01, 0.4),
    seed=st.integers(0, 2**16),
)
# two event times one ulp apart (test_an_interval_no_float_holds_is_a_state)
@example(z=[0.0, float(np.nextafter(1.0, 0.0))], rope=1 / 3, seed=0)
def test_any_data_the_bounds_hold_every_placement_and_are_reached(z, rope, seed):
    """Any differences: every placement of a fine grid lies within the bounds,
    and the bounds are reached at the event times and between them (the
    brute force placed there exactly, on the same draws)."""
    z = np.array(z)
    draws = 1000
    res = _result(z, rope, draws, seed)
    found = res.bounds()
    low = np.array([found[r][0] for r in ("left", "rope", "right")])
    high = np.array([found[r][1] for r in ("left", "rope", "right")])
    grid = brute_force(z, rope, IDP_DEFAULT_S, draws, seed, _grid(0.01, 2.5))
    assert np.all(grid.min(axis=0) >= low - TOL)
    assert np.all(grid.max(axis=0) <= high + TOL)
    exact = brute_force(z, rope, IDP_DEFAULT_S, draws, seed, exact_placements(z, rope))
    np.testing.assert_allclose(exact.min(axis=0), low, rtol=0, atol=TOL)
    np.testing.assert_allclose(exact.max(axis=0), high, rtol=0, atol=TOL)


def test_an_interval_no_float_holds_is_a_state():
    """z = (0, 1 − ulp), rope ⅓ (Hypothesis' example): drawn as a − b, the
    pseudo-observation's pair with the case −(1 − 2⁻⁵³) leaves the left
    region at z0 = 1 − 2⁻⁵³ − 2r = r − 2⁻⁵⁴ (r = fl(⅓); one ulp below r) and
    its pair with itself enters the right at z0 = r. In between, a real
    interval of width 2⁻⁵⁴ that holds no float, every pair of z0 is in the
    rope: the rope wins most, and "right" (the caller's) least, 433 of 1000
    draws. A brute force that places z0 by floats cannot go there (the
    float midpoint rounds to an end; its least is 438, at r) and reported the
    package's lower bound as wrong; placed exactly it reaches 433 too, the
    package's bound (as with every weight a fraction, too: the same counts
    at every state)."""
    z, rope, draws, seed = np.array([0.0, np.nextafter(1.0, 0.0)]), 1 / 3, 1000, 0
    r = Fraction(rope)
    leave, enter = Fraction(z[1]) - 2 * r, r  # drawn orientation: −z
    assert enter - leave == Fraction(1, 2**54)
    middle = float((leave + enter) / 2)
    assert middle in (float(leave), float(enter))  # no float strictly inside
    res = _result(z, rope, draws, seed)
    assert res.bounds()["right"] == (0.433, 0.874)
    assert res.bounds()["rope"] == (0.126, 0.567)
    # in the caller's orientation the interval is (−r, −r + 2⁻⁵⁴)
    inside = brute_force(z, rope, IDP_DEFAULT_S, draws, seed, [-(leave + enter) / 2])
    assert inside[0].tolist() == [0.0, 0.567, 0.433]
    # z0 at floats only: the event times, float midpoints (as the old test)
    edges = np.unique(np.concatenate([2 * rope - z, -2 * rope - z, [rope, -rope]]))
    floats = [-np.inf, np.inf, *edges, *((edges[1:] + edges[:-1]) / 2)]
    by_float = brute_force(z, rope, IDP_DEFAULT_S, draws, seed, floats)
    assert by_float[:, 2].min() == 0.438 and by_float[:, 1].max() == 0.562
    exact = brute_force(z, rope, IDP_DEFAULT_S, draws, seed, exact_placements(z, rope))
    for q, region in enumerate(("left", "rope", "right")):
        assert res.bounds()[region] == (exact[:, q].min(), exact[:, q].max())


#: Issue 38's example (b − a; the package draws it as a − b and mirrors)
ISSUE = np.array([0.157, 0.034, 0.044, -0.073, 0.058, 0.297, 0.043, 0.01, 0.089, 0.149])


def test_issue_38_example_every_placement():
    """The issue's reproducer. Its brute force over a grid of placements
    found an upper P(rope) of 0.0033; the grid stepped past the interval
    0.018 < −z0 < 0.02 (in the drawn orientation), where the
    pseudo-observation sits inside the rope with the most of its pairs
    there: the share of draws the rope wins there is 0.00546, the maximum
    over every placement (the brute force at every event time, between
    them and at ±∞ agrees exactly on the same draws); a grid
    that steps over it (0.01 apart, none at its ends) gives the issue's 0.0033.
    The former per-draw enclosure was 0.0349."""
    draws, seed = 200_000, 1
    res = nbstats.bayes_signrank(
        np.zeros(10), ISSUE, prior="idp", rope=0.02, n_samples=draws, random_state=seed
    )
    rope = 0.02
    states = exact_placements(ISSUE, rope)
    exact = brute_force(ISSUE, rope, IDP_DEFAULT_S, draws, seed, states)
    # a grid that steps over that interval and its two ends
    grid = np.concatenate(
        [[-np.inf, np.inf], np.round(np.arange(-0.405, 0.41, 0.01), 6)]
    )
    coarse = brute_force(ISSUE, rope, IDP_DEFAULT_S, draws, seed, grid)
    assert res.prob_rope_upper == pytest.approx(exact[:, 1].max(), abs=TOL)
    assert res.prob_rope_upper == pytest.approx(0.00546, abs=1e-5)
    assert coarse[:, 1].max() == pytest.approx(0.0033, abs=2e-4)
    for q, region in enumerate(("left", "rope", "right")):
        low, high = res.bounds()[region]
        assert low == pytest.approx(exact[:, q].min(), abs=TOL)
        assert high == pytest.approx(exact[:, q].max(), abs=TOL)
    assert res.decision == "b"


def test_counts_of_batches_of_draws_add_up():
    """The counts per placement are sums over draws: two batches' counts
    added give the whole's, and so the same bounds."""
    z = np.sort(np.array([-0.3, -0.1, 0.05, 0.1, 0.2, 0.45, 0.6]))
    rope, s, n_draws = 0.1, IDP_DEFAULT_S, 3000
    draws = DirichletWeights(z.size, n_draws, 4)
    w = _weights(z.size, n_draws, 4, s)
    e = np.concatenate([c.exponentials for c in draws])
    g0 = gamma_quantile(s, np.concatenate([c.uniforms for c in draws]))
    total = e.sum(axis=1)
    pair = z[:, None] + z[None, :]
    right = np.einsum("di,ij,dj->d", e, np.heaviside(pair - 2 * rope, 0.5), e)
    left = np.einsum("di,ij,dj->d", e, np.heaviside(-pair - 2 * rope, 0.5), e)
    inverse = 1 / (g0 + total) ** 2
    extra = 1 - (1 - w[:, 0]) ** 2
    states = placement_states(z[None, :], rope)
    args = (states, right[None], left[None], g0, inverse, extra)
    whole = placement_counts(draws, *args)
    first = placement_counts(draws, *args, rows=slice(0, 1234))
    second = placement_counts(draws, *args, rows=slice(1234, n_draws))
    np.testing.assert_array_equal(whole[0], first[0] + second[0])
    np.testing.assert_array_equal(whole[1], first[1] + second[1])
    bounds = placement_bounds(*whole)[0]
    assert bounds[:3].sum() <= n_draws <= bounds[3:].sum()


def test_states_follow_the_event_times():
    """One case at 0, rope ¼: events at −½ (its pair leaves the left
    region), −¼ (the self pair does), ¼ (the self pair enters the right),
    ½ (the case's pair does): 4 times, 9 states, in order."""
    states = placement_states(np.array([[0.0]]), 0.25)[0]
    assert states.tolist() == [
        [1, 1, 1, 1, 2, 0],  # z0 < -1/2: all left
        [0, 1, 1, 1, 2, 0],  # z0 = -1/2: the case's pair half left
        [0, 0, 1, 1, 2, 0],
        [0, 0, 1, 1, 1, 0],  # z0 = -1/4: the self pair half left
        [0, 0, 1, 1, 0, 0],  # in the rope
        [0, 0, 1, 1, 0, 1],  # z0 = 1/4
        [0, 0, 1, 1, 0, 2],
        [0, 0, 0, 1, 0, 2],  # z0 = 1/2: the case's pair half right
        [0, 0, 0, 0, 0, 2],  # beyond: all right
    ]


def test_pairs_table_and_one_pair_agree_bit_for_bit():
    rng = np.random.default_rng(8)
    table = pd.DataFrame(
        np.round(rng.normal(0.0, 1.0, (12, 4)) + [0, 0.3, 0.5, 1.0], 2),
        columns=list("wxyz"),
    )
    res = nbstats.bayes_signrank_pairs(table, rope=0.2, n_samples=5000, random_state=2)
    for row in res.pairs.itertuples(index=False):
        one = nbstats.bayes_signrank(
            table[row.a], table[row.b], rope=0.2, n_samples=5000, random_state=2
        )
        for region in ("left", "rope", "right"):
            assert getattr(row, f"prob_{region}") == getattr(one, f"prob_{region}")
            assert getattr(row, f"prob_{region}_upper") == getattr(
                one, f"prob_{region}_upper"
            )
        assert row.decision == one.decision


def test_joint_statements_take_the_exact_marginals_and_a_valid_joint():
    """bayes_posthoc under IDP with a rope: each statement's probability is
    its pair's exact lower bound (the pair table's, up to Monte Carlo error:
    the joint procedure puts the same weight on the same case in every
    pair), and the joint probability of the first k statements is at least
    the Fréchet bound Σ prob − (k − 1) and at most the smallest marginal."""
    rng = np.random.default_rng(11)
    table = pd.DataFrame(
        rng.normal(0.0, 1.0, (20, 4)) + [0.0, 0.2, 0.5, 1.2], columns=list("abcd")
    )
    draws, rope = 20_000, 0.3
    post = nbstats.bayes_posthoc(
        table, test="signrank", prior="idp", s=IDP_DEFAULT_S, rope=rope,
        n_samples=draws, random_state=3, progress=False,
    )  # fmt: skip
    pairs = nbstats.bayes_signrank_pairs(
        table, rope=rope, n_samples=draws, random_state=4
    ).pairs.set_index(["a", "b"])
    mc = 2 * 4 * np.sqrt(0.25 / draws)
    statements = post.statements
    for row in statements.itertuples(index=False):
        key = (row.better, row.worse) if (row.better, row.worse) in pairs.index else (
            row.worse, row.better)  # fmt: skip
        pair = pairs.loc[key]
        if row.relation == "equivalent":
            lower = pair["prob_rope"]
        elif row.better == key[1]:
            lower = pair["prob_right"]
        else:
            lower = pair["prob_left"]
        assert row.prob == pytest.approx(lower, abs=mc)
    prob = statements["prob"].to_numpy()
    frechet = np.cumsum(prob) - np.arange(prob.size)
    assert np.all(statements["joint"].to_numpy() >= frechet - 1e-12)
    assert np.all(statements["joint"].to_numpy() <= np.minimum.accumulate(prob) + 1e-12)


def test_joint_marginals_equal_whether_the_sums_are_kept_or_streamed():
    """The dashboard keeps the joint sums, bayes_posthoc streams the draws:
    the exact marginals are the same counts either way."""
    from nbstats.stats.bayes.joint import JointDraws

    rng = np.random.default_rng(12)
    diffs = rng.normal(0.1, 0.5, (15, 6))
    shares = []
    for keep in (0.5, 0.0):
        draws = DirichletWeights(15, 3000, 7, columns_per_case=6)
        engine = JointDraws(diffs, draws, keep_share=keep)
        found, joint_of = engine.probabilities(0.8, 0.2, "idp")
        shares.append(found)
        order = np.argsort(-found.max(axis=1))
        assert joint_of(found.argmax(axis=1), order).shape == (6,)
    np.testing.assert_array_equal(shares[0], shares[1])
