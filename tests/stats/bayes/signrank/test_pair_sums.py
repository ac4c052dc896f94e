"""PairSums: every pair's Walsh sums, set up in one pass and summed in two
threads, equal the per-pair computation (shared_components of one
SignedRankPosterior per pair) bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from nbstats.stats.bayes.signrank.one_pair import SignedRankPosterior, shared_components
from nbstats.stats.bayes.signrank.pair_sums import PairSums, in_halves, rope_regions
from nbstats.stats.bayes.weights import DirichletWeights


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("prior", ["idp", "point"])
def test_sums_equal_one_posterior_per_pair(threads, prior):
    rng = np.random.default_rng(3)
    n, pairs, draws_n, rope = 12, 90, 3000, 0.05  # 270,000 pair-draws: threaded
    # rounded, so that many sums fall exactly on 0 and on ±2 rope (ties)
    diffs = np.round(rng.normal(0, 0.1, size=(n, pairs)), 2)
    diffs[:, 0] = 0.0  # every pair a tie: θ's region has only half-weights
    diffs[:, 1] = 1.0  # every pair in θ's region ("full")
    draws = DirichletWeights(n, draws_n, random_state=4)
    posteriors = [
        SignedRankPosterior(diffs[:, k], prior, 0.0, rope) for k in range(pairs)
    ]
    expected = shared_components(posteriors, draws)
    sums = PairSums(diffs, draws, threads=threads)
    regions = [(+1, 0.0), *rope_regions(rope)]
    quad = np.empty((pairs, 3, draws_n))
    total, uniforms = sums.quads(regions, quad)
    np.testing.assert_array_equal(total, expected[0]["total"])
    np.testing.assert_array_equal(uniforms, expected[0]["uniforms"])
    keys = ("theta", "right", "left")
    for k in range(pairs):
        for q, key in enumerate(keys):
            np.testing.assert_array_equal(quad[k, q], expected[k][f"quad_{key}"])
    if prior == "point":
        cross = np.empty_like(quad)
        sums.crosses(regions, cross)
        for k in range(pairs):
            for q, key in enumerate(keys):
                np.testing.assert_array_equal(cross[k, q], expected[k][f"cross_{key}"])


def test_in_halves_covers_every_item_once():
    seen = np.zeros(7, dtype=int)

    def mark(a, b):
        seen[a:b] += 1

    in_halves(mark, 7, 10**9, threads=2)
    in_halves(mark, 7, 10, threads=2)  # small work: one call
    assert seen.tolist() == [2] * 7


def test_with_prior_equals_a_fresh_posterior():
    z = np.array([0.3, -0.1, 0.2, 0.0, -0.2])
    base = SignedRankPosterior(z, "bb", 0.0, 0.1)
    draws = DirichletWeights(z.size, 2000, random_state=1)
    for prior, z0 in (("idp", 0.0), ("point", 0.0), ("point", 0.15), ("bb", 0.0)):
        derived = base.with_prior(prior, z0)
        fresh = SignedRankPosterior(z, prior, z0, 0.1)
        assert derived._points == fresh._points
        s = 0.0 if prior == "bb" else 0.7
        got = derived.result(draws, s=s, threshold=0.95, names=("a", "b"))
        ref = fresh.result(draws, s=s, threshold=0.95, names=("a", "b"))
        assert (got.prob_left, got.prob_rope, got.prob_right) == (
            ref.prob_left, ref.prob_rope, ref.prob_right,
        )  # fmt: skip
        np.testing.assert_array_equal(got.samples_upper, ref.samples_upper)
    with pytest.raises(ValueError, match="prior_at"):
        base.with_prior("idp", 0.2)
    with pytest.raises(ValueError, match="prior"):
        base.with_prior("flat")


@pytest.mark.parametrize("threads", [1, 2])
def test_permuted_sums_with_cross_terms_equal_brute_force(threads):
    """``evaluate(permute=True)`` (the joint statements' sums: the same
    weight on the same case in every pair) against the double sums written
    out, with ties at the rope's boundaries; in two threads the pairs are
    split between them (300 pairs × 700 draws is above THREAD_WORK)."""
    from nbstats.stats.bayes.signrank.walsh import WalshBatch, WalshPlan

    rng = np.random.default_rng(11)
    n, k, rows, rope = 9, 300, 700, 0.1
    diffs = np.round(rng.normal(0, 0.2, size=(n, k)), 1)  # many exact ties
    e = rng.standard_exponential((rows, n))
    regions = rope_regions(rope)
    sums = PairSums(diffs, None, threads=threads)
    out = (np.empty(rows), np.empty((k, 2, rows)), np.empty((k, 2, rows)))
    sums.evaluate(e, regions, out, permute=True)
    total, quad, cross = out
    np.testing.assert_allclose(total, e.sum(axis=1), rtol=1e-12)

    def heaviside(x):
        return np.where(x > 0, 1.0, np.where(x < 0, 0.0, 0.5))

    for j in range(0, k, 37):
        z = diffs[:, j]
        for q, (sign, c) in enumerate(regions):
            inside = heaviside(sign * (z[:, None] + z[None, :]) - c)
            slow = np.einsum("si,sj,ij->s", e, e, inside)
            np.testing.assert_allclose(quad[j, q], slow, rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(
                cross[j, q], e @ heaviside(sign * z - c), rtol=1e-12, atol=1e-12
            )
    # and bit for bit the per-pair packing of WalshBatch
    plans = [WalshPlan.build(diffs[:, j]) for j in range(k)]
    plan_regions = [[p.region(s, c) for s, c in regions] for p in plans]
    points = [
        [p.point_index(0.0, r) for r in rs]
        for p, rs in zip(plans, plan_regions, strict=True)
    ]
    batch = WalshBatch.build(plans, plan_regions, points, permute=True)
    _, quad_batch, cross_batch = batch.evaluate(e)
    np.testing.assert_array_equal(quad, quad_batch)
    np.testing.assert_array_equal(cross, cross_batch)
