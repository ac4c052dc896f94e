"""Under the near-ignorance prior every probability is an interval (issue 26, item 3).

P(rope) used to be one number taken at one end of the prior set (the
pseudo-observation at −∞ or +∞, whichever the pair's drawn orientation made
"lower"), so ``bayes_signrank(a, b, rope=1)`` and ``bayes_signrank(b, a,
rope=1)`` printed different P(rope) — 0.2853 and 0.2191 on Demšar's C4.5 vs
C4.5+m in percent. Now each region's probability is an interval over the
placements of the prior's pseudo-observation (``nbstats.stats.bayes.signrank.bounds``):
since issue 38 the exact one, the smallest and largest share of draws the
region wins at one placement (``nbstats.stats.bayes.signrank.placements``), no longer
the per-draw enclosure (all of the pseudo-observation's share in one region
per draw), which was up to ten times wider.

The oracle is a brute force written here from the definition, independent of
the package's kernels: Dirichlet draws from numpy, the n × n matrices of
pair sums as baycomp builds them, the pseudo-observation placed at every
point where a pair's region changes (and at ±∞). The package's bounds must
equal the smallest and largest share over those placements (up to Monte
Carlo error: independent draws) and lie inside the per-draw enclosure.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.bayes.priors import IDP_DEFAULT_S

DRAWS = 20_000
# both sides estimate from independent draws: 4 standard errors of each
TOLERANCE = 4 * 2 * np.sqrt(0.25 / DRAWS)


def _h(x: np.ndarray) -> np.ndarray:
    return np.heaviside(x, 0.5)


def _regions(z, w0, w, z0, rope):
    """Per-draw (left, rope, right) probabilities of (Z + Z')/2 below −rope,
    within, above +rope, with the prior's atom at z0 (±inf allowed)."""
    x = np.concatenate([[z0], z])
    weights = np.column_stack([w0, w])
    with np.errstate(invalid="ignore"):
        sums = x[:, None] + x[None, :]
    if np.isinf(z0):
        sums[0, :] = z0
        sums[:, 0] = z0
    right = np.einsum("di,ij,dj->d", weights, _h(sums - 2 * rope), weights)
    left = np.einsum("di,ij,dj->d", weights, _h(-sums - 2 * rope), weights)
    return left, 1 - left - right, right


def _winners(left, middle, right):
    """0, 1, 2: the most probable region, ties to the first (as baycomp)."""
    left_wins = (left >= middle) & (left >= right)
    middle_wins = ~left_wins & (middle >= right)
    return np.where(left_wins, 0, np.where(middle_wins, 1, 2))


def _placements(z, rope):
    """Every interval of z0 on which each pair's region is constant: the
    boundaries, the midpoints between them, beyond them, and ±∞."""
    edges = np.unique(np.concatenate([2 * rope - z, -2 * rope - z, [rope, -rope]]))
    middles = (edges[:-1] + edges[1:]) / 2
    beyond = [edges[0] - 1, edges[-1] + 1]
    return np.concatenate([[-np.inf, np.inf], edges, middles, beyond])


def brute_force(z, rope, s, seed):
    """(shares per placement: placements × 3, enclosure lower 3, upper 3)."""
    rng = np.random.default_rng(seed)
    draws = rng.dirichlet(np.concatenate([[s], np.ones(z.size)]), DRAWS)
    w0, w = draws[:, 0], draws[:, 1:]
    shares = []
    for z0 in _placements(z, rope):
        codes = _winners(*_regions(z, w0, w, z0, rope))
        shares.append(np.bincount(codes, minlength=3) / DRAWS)
    # the cases' own pairs (the pseudo-observation's weight 0 in the sums:
    # w sums to 1 − w0) and the share e of the pairs with the atom
    left, _, right = _regions(z, np.zeros_like(w0), w, 0.0, rope)
    e = 1 - (1 - w0) ** 2
    at_left = _winners(left + e, 1 - left - right - e, right)
    in_rope = _winners(left, 1 - left - right, right)
    at_right = _winners(left, 1 - left - right - e, right + e)
    upper = np.array(
        [np.mean(at_left == 0), np.mean(in_rope == 1), np.mean(at_right == 2)]
    )
    lower = np.array(
        [
            np.mean((in_rope == 0) & (at_right == 0)),
            np.mean((at_left == 1) & (at_right == 1)),
            np.mean((at_left == 2) & (in_rope == 2)),
        ]
    )
    return np.array(shares), lower, upper


def _bounds(res):
    found = res.bounds()
    return (
        np.array([found[k][0] for k in ("left", "rope", "right")]),
        np.array([found[k][1] for k in ("left", "rope", "right")]),
    )


@pytest.fixture(scope="module")
def c45_percent():
    """Demšar's C4.5 vs C4.5+m (Table 2) in percentage points."""
    table = nbstats.datasets.load("demsar2006_table2") * 100
    return table["C4.5"], table["C4.5+m"]


def test_swapping_a_and_b_keeps_p_rope(c45_percent):
    a, b = c45_percent
    ab = nbstats.bayes_signrank(a, b, rope=1, random_state=0)
    ba = nbstats.bayes_signrank(b, a, rope=1, random_state=0)
    # before: 0.2853 and 0.21914
    assert ab.prob_rope == ba.prob_rope
    assert (ab.prob_rope_lower, ab.prob_rope_upper) == (
        ba.prob_rope_lower,
        ba.prob_rope_upper,
    )
    assert (ab.prob_left_lower, ab.prob_left_upper) == (
        ba.prob_right_lower,
        ba.prob_right_upper,
    )
    assert (ab.prob_right_lower, ab.prob_right_upper) == (
        ba.prob_left_lower,
        ba.prob_left_upper,
    )


@pytest.mark.parametrize(
    ("seed", "n", "shift", "rope"),
    [(0, 7, 0.3, 0.25), (1, 9, 0.0, 0.5), (2, 6, 1.0, 0.3), (3, 8, -0.4, 0.2)],
)
def test_bounds_enclose_every_placement_of_the_prior(seed, n, shift, rope):
    rng = np.random.default_rng(seed)
    z = np.round(rng.normal(shift, 1.0, n), 1)
    shares, lower, upper = brute_force(z, rope, IDP_DEFAULT_S, seed)
    a = pd.Series(np.zeros(n), name="a")
    b = pd.Series(z, name="b")
    res = nbstats.bayes_signrank(
        a, b, rope=rope, n_samples=DRAWS, random_state=seed + 10
    )
    low, high = _bounds(res)
    # the package's bounds are the extreme placements' shares
    np.testing.assert_allclose(low, shares.min(axis=0), atol=TOLERANCE)
    np.testing.assert_allclose(high, shares.max(axis=0), atol=TOLERANCE)
    # inside the per-draw enclosure, which every placement respects
    assert np.all(low >= lower - TOLERANCE)
    assert np.all(high <= upper + TOLERANCE)
    # the upper P(a better) and P(b better) are attained at −∞ and +∞
    assert high[0] == pytest.approx(shares[0, 0], abs=TOLERANCE)
    assert high[2] == pytest.approx(shares[1, 2], abs=TOLERANCE)


def test_bounds_are_attained_when_the_data_lie_within_half_the_rope():
    """With every |z| ≤ rope / 2 (…≤ rope would do), a pseudo-observation at 0
    puts all its pairs in the rope: the upper P(rope) is that prior's share,
    and the lower one the brute force's smallest share over the placements
    (independent draws: within Monte Carlo error)."""
    rng = np.random.default_rng(5)
    rope = 1.0
    z = np.round(rng.uniform(-0.5, 0.5, 6), 2)
    draws = np.random.default_rng(6).dirichlet(
        np.concatenate([[IDP_DEFAULT_S], np.ones(6)]), DRAWS
    )
    at_zero = _winners(*_regions(z, draws[:, 0], draws[:, 1:], 0.0, rope))
    shares, _, _ = brute_force(z, rope, IDP_DEFAULT_S, 7)
    res = nbstats.bayes_signrank(
        pd.Series(np.zeros(6), name="a"),
        pd.Series(z, name="b"),
        rope=rope,
        n_samples=DRAWS,
        random_state=8,
    )
    assert res.prob_rope_upper == pytest.approx(np.mean(at_zero == 1), abs=TOLERANCE)
    assert res.prob_rope_lower == pytest.approx(shares[:, 1].min(), abs=TOLERANCE)


def test_without_a_rope_the_bounds_are_the_extreme_posteriors(c45_percent):
    """Benavoli et al. (2014), Theorem 4: P(θ > ½) under the atom at −∞ and
    +∞; P(a better) likewise, P(θ < ½), from the same draws."""
    a, b = c45_percent
    res = nbstats.bayes_signrank(a, b, random_state=1, n_samples=DRAWS)
    tol = 1e-12
    assert res.prob_right_lower == np.mean(res.samples_lower > 0.5 + tol)
    assert res.prob_right_upper == np.mean(res.samples_upper > 0.5 + tol)
    assert res.prob_left_lower == np.mean(res.samples_upper < 0.5 - tol)
    assert res.prob_left_upper == np.mean(res.samples_lower < 0.5 - tol)
    assert res.prob_rope_lower is None and res.prob_rope_upper is None


def test_single_priors_have_equal_bounds(c45_percent):
    a, b = c45_percent
    for prior in ("bb", "point"):
        res = nbstats.bayes_signrank(a, b, prior=prior, rope=1, random_state=0)
        for low, high in (v for v in res.bounds().values() if v is not None):
            assert low == high


def test_the_decision_rule_on_the_bounds(c45_percent):
    """b better iff lower P(b better) > threshold; undecided iff every upper
    ≤ threshold; indeterminate otherwise (for a grid of thresholds)."""
    a, b = c45_percent
    for threshold in (0.2, 0.35, 0.5, 0.65, 0.75, 0.9):
        res = nbstats.bayes_signrank(a, b, rope=1, threshold=threshold, random_state=0)
        low, high = _bounds(res)
        passes = np.flatnonzero(low > threshold)
        if threshold >= 0.5 and passes.size:
            assert res.decision == {0: "a", 1: "equivalent", 2: "b"}[passes[0]]
        elif threshold >= 0.5 and np.all(high <= threshold):
            assert res.decision == "undecided"
        elif threshold >= 0.5:
            assert res.decision == "indeterminate"


def test_pairs_table_shows_the_same_intervals(c45_percent):
    a, b = c45_percent
    table = pd.DataFrame({"C4.5": a, "C4.5+m": b})
    pairs = nbstats.bayes_signrank_pairs(table, rope=1, random_state=0)
    one = nbstats.bayes_signrank(a, b, rope=1, random_state=0)
    row = pairs.pairs.iloc[0]
    for key in ("left", "rope", "right"):
        for end in ("lower", "upper"):
            name = f"prob_{key}_{end}"
            assert row[name] == getattr(one, name)
    shown = pairs._table()

    # both ends by the number policy's probability rule: 3 decimals,
    # "< 0.001" below 0.001 and "> 0.999" above 0.999
    def policy(p):
        return "< 0.001" if p < 0.001 else "> 0.999" if p > 0.999 else f"{p:.3f}"

    assert shown["P(rope)" if "P(rope)" in shown else "prob_rope"].iloc[0] == (
        f"{policy(one.prob_rope_lower)} to {policy(one.prob_rope_upper)}"
    )
    assert "to" in one.summary() and "lower to upper" in one.summary()
