"""Split R̂ and the effective sample size against NumPyro's implementation."""

from __future__ import annotations

import numpy as np
import pytest

from nbstats.stats.mcmc import effective_sample_size, split_rhat

diagnostics = pytest.importorskip("numpyro.diagnostics")


def chains_of_every_kind(seed: int) -> np.ndarray:
    """Independent, autocorrelated, strongly drifting and antithetic chains."""
    rng = np.random.default_rng(seed)
    noise = rng.normal(size=(4, 801, 4))
    out = np.empty((4, 800, 4))
    out[..., 0] = noise[:, :800, 0]
    out[..., 1] = np.cumsum(noise[:, :800, 1], axis=1)
    for chain in range(4):  # moving average: positive autocorrelation
        out[chain, :, 2] = np.convolve(noise[chain, :, 2], [0.5, 0.5], "valid")
    out[..., 3] = noise[:, :800, 3] * np.where(np.arange(800) % 2, 1, -1)[None, :]
    out[..., 3] = out[..., 3] - 0.8 * np.roll(out[..., 3], 1, axis=1)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_effective_sample_size_equals_numpyro(seed):
    draws = chains_of_every_kind(seed)
    ours = effective_sample_size(draws)
    theirs = np.asarray(diagnostics.effective_sample_size(draws))
    # NumPyro has no cap; ours caps at S·log10(S), as Stan does
    capped = np.minimum(theirs, draws.shape[0] * draws.shape[1] * np.log10(3200))
    np.testing.assert_allclose(ours, capped, rtol=1e-10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_split_rhat_equals_numpyro(seed):
    draws = chains_of_every_kind(seed) + np.arange(4)[:, None, None] * 0.1 * seed
    np.testing.assert_allclose(
        split_rhat(draws), diagnostics.split_gelman_rubin(draws), rtol=1e-12
    )


def test_constant_draws_give_nan_not_an_error():
    draws = np.ones((2, 100))
    assert np.isnan(effective_sample_size(draws))
    assert np.isnan(split_rhat(draws))


@pytest.mark.parametrize("shape", [(100,), (2, 3)])
def test_too_few_axes_or_draws_are_refused(shape):
    with pytest.raises(ValueError, match="draws"):
        effective_sample_size(np.zeros(shape))
