"""The compiled Exp(1) generator against numpy's SFC64 and the exponential law."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from nbstats.stats.bayes.exponentials import _sfc64, fill_weights_raw, sfc64_state


def test_bit_stream_equals_numpys_sfc64():
    seed = np.random.SeedSequence(12345)
    a, b, c, counter = (np.uint64(x) for x in sfc64_state(seed))
    ours = []
    for _ in range(1000):
        # from Python the words come back as ints: keep them unsigned 64-bit
        out, a, b, c, counter = (
            np.uint64(int(x) % 2**64) for x in _sfc64(a, b, c, counter)
        )
        ours.append(int(out))
    expected = np.random.SFC64(np.random.SeedSequence(12345)).random_raw(1000)
    assert ours == expected.tolist()


@pytest.mark.parametrize("entropy", [0, 7, 2**40 + 3])
def test_variates_follow_numpys_ziggurat_on_the_same_bits(entropy):
    # numpy's tables were computed at a higher precision than ours, so the
    # variates agree to rounding; a different accept/reject path would give
    # an unrelated number and a different bit consumption (then the uniforms,
    # drawn after the exponentials, would not be equal)
    rows, n = 400, 500
    e, u = np.empty((rows, n)), np.empty(rows)
    fill_weights_raw(sfc64_state(np.random.SeedSequence(entropy)), e, u)
    numpy_gen = np.random.Generator(np.random.SFC64(np.random.SeedSequence(entropy)))
    np.testing.assert_allclose(e, numpy_gen.standard_exponential((rows, n)), rtol=1e-11)
    np.testing.assert_array_equal(u, numpy_gen.random(rows))


def test_variates_are_exponential():
    e, u = np.empty((1000, 1000)), np.empty(1000)
    fill_weights_raw(sfc64_state(np.random.SeedSequence(2)), e, u)
    x = e.ravel()
    assert stats.kstest(x, "expon").pvalue > 1e-3
    # mean and variance 1 within 5 standard errors (Var of X² is 20 for Exp(1))
    assert abs(x.mean() - 1) < 5 * np.sqrt(1 / x.size)
    assert abs(x.var() - 1) < 5 * np.sqrt(8 / x.size)
    # the tail beyond the ziggurat's last layer (r ≈ 7.697) comes from its own
    # branch: P(X > 8) = e^-8
    tail = int((x > 8).sum())
    assert stats.binomtest(tail, x.size, np.exp(-8)).pvalue > 1e-3
    assert ((u >= 0) & (u < 1)).all() and stats.kstest(u, "uniform").pvalue > 1e-3


def test_same_state_same_numbers_and_state_advances():
    state = sfc64_state(np.random.SeedSequence(5))
    first, second = np.empty((3, 4)), np.empty((3, 4))
    fill_weights_raw(state.copy(), first, np.empty(0))
    again = np.empty((3, 4))
    fill_weights_raw(state.copy(), again, np.empty(0))
    np.testing.assert_array_equal(first, again)
    fill_weights_raw(state, second, np.empty(0))
    fill_weights_raw(state, second, np.empty(0))  # state moved on: new numbers
    assert not np.array_equal(first, second)
