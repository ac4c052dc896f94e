"""The compiled passes of the joint signed-rank statements against their
numpy definitions (nbstats.stats.bayes.joint_kernel)."""

from __future__ import annotations

import numpy as np
import pytest

from nbstats.stats.bayes.joint_kernel import joint_prefix_counts, signed_rank_codes


def _numpy_codes(quad, cross, total, g0, rope):
    # pairs × regions × draws → regions × draws × pairs
    quad, cross = quad.transpose(1, 2, 0), cross.transpose(1, 2, 0)
    g = g0[:, None]
    whole = ((g0 + total) ** 2)[:, None]
    if not rope:
        theta = (quad[0] + 2 * g * cross[0] + 0.5 * g * g) / whole
        codes = np.ones(theta.shape, dtype=np.int8)
        codes[theta > 0.5 + 1e-12] = 2
        codes[theta < 0.5 - 1e-12] = 0
        return codes
    high = quad[0] + 2 * g * cross[0]
    low = quad[1] + 2 * g * cross[1]
    middle = whole - high - low
    left = (low >= middle) & (low >= high)
    in_rope = ~left & (middle >= high)
    return np.where(left, 0, np.where(in_rope, 1, 2)).astype(np.int8)


@pytest.mark.parametrize("rope", [False, True])
def test_codes_equal_the_numpy_definition(rope):
    rng = np.random.default_rng(5)
    # more draws than one block of the kernel, not a multiple of it
    draws, pairs, regions = 700, 30, 2 if rope else 1
    total = rng.gamma(20, size=draws)
    g0 = rng.gamma(0.5, size=draws)
    # sums of products of weights: at most T² each, cross at most T
    quad = rng.uniform(0, 0.5, (pairs, regions, draws)) * total**2
    cross = rng.uniform(0, 0.5, (pairs, regions, draws)) * total
    quad[:3, 0] = 0.5 * total**2  # θ exactly ½ without g0
    cross[:3, 0] = 0.5 * total
    codes = np.empty((draws, pairs), dtype=np.int8)
    counts = np.zeros((pairs, 3), dtype=np.int64)
    signed_rank_codes(quad, cross, total, g0, rope, 1e-12, codes, counts)
    expected = _numpy_codes(quad, cross, total, g0, rope)
    np.testing.assert_array_equal(codes, expected)
    for code in range(3):
        np.testing.assert_array_equal(counts[:, code], (expected == code).sum(axis=0))


def test_prefix_counts_equal_the_numpy_definition():
    rng = np.random.default_rng(6)
    codes = rng.choice(
        np.array([0, 1, 2], dtype=np.int8), size=(500, 20), p=[0.1, 0.1, 0.8]
    )
    chosen = rng.choice(np.array([0, 2], dtype=np.int8), size=20, p=[0.1, 0.9])
    order = rng.permutation(20)
    holds = codes[:, order] == chosen[order]
    expected = np.logical_and.accumulate(holds, axis=1).sum(axis=0)
    np.testing.assert_array_equal(joint_prefix_counts(codes, order, chosen), expected)
