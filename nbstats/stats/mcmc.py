"""Convergence diagnostics of Markov chains: split R̂ and the effective sample size.

The estimators of Gelman et al. (2013, *Bayesian Data Analysis*, 3rd ed.,
§11.4–11.5), as Stan computes them: R̂ on chains split in halves, and the
effective sample size from the chains' combined autocorrelations, truncated by
Geyer's initial monotone sequence. Written here rather than imported because
the libraries that have them (ArviZ, NumPyro) are heavy optional dependencies,
and the core samplers (the Plackett–Luce model) need them without extras; the
tests check both against NumPyro's implementation.
"""

from __future__ import annotations

import numpy as np

__all__ = ["effective_sample_size", "split_rhat"]


def _as_chains(draws: np.ndarray) -> np.ndarray:
    x = np.asarray(draws, dtype=float)
    if x.ndim < 2:
        raise ValueError(
            "draws must have a chain axis first and a draw axis second, "
            f"got shape {x.shape}; pass draws[np.newaxis] for one chain."
        )
    if x.shape[1] < 4:
        raise ValueError(f"at least 4 draws per chain are needed, got {x.shape[1]}.")
    return x


def split_rhat(draws: np.ndarray) -> np.ndarray:
    """Split R̂ of every quantity: 1 when the chains agree, above 1.01 when not.

    Parameters
    ----------
    draws : array-like, shape (chains, draws, ...)
        Draws of one or more quantities (trailing axes).

    Returns
    -------
    ndarray
        One R̂ per quantity (shape of the trailing axes). NaN where every draw
        is the same number.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> round(float(split_rhat(rng.normal(size=(4, 1000)))), 2)
    1.0
    >>> shifted = rng.normal(size=(4, 1000)) + np.arange(4)[:, None]
    >>> bool(split_rhat(shifted) > 1.5)
    True
    """
    x = _as_chains(draws)
    half = x.shape[1] // 2
    chains = np.concatenate([x[:, :half], x[:, -half:]], axis=0)
    n = chains.shape[1]
    chain_means = chains.mean(axis=1)
    within = chains.var(axis=1, ddof=1).mean(axis=0)
    between = n * chain_means.var(axis=0, ddof=1)
    pooled = (n - 1) / n * within + between / n
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(pooled / within)


def _autocovariance(chains: np.ndarray) -> np.ndarray:
    """Autocovariance of each chain along axis 1 (biased, by FFT)."""
    n = chains.shape[1]
    centred = chains - chains.mean(axis=1, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :n]
    return acov / n


def effective_sample_size(draws: np.ndarray) -> np.ndarray:
    """Effective sample size of every quantity, over all chains together.

    Parameters
    ----------
    draws : array-like, shape (chains, draws, ...)
        Draws of one or more quantities (trailing axes).

    Returns
    -------
    ndarray
        One ESS per quantity (shape of the trailing axes), at most
        ``chains × draws × log10(chains × draws)`` (antithetic chains can
        exceed the number of draws). NaN where every draw is the same number.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> ess = effective_sample_size(rng.normal(size=(4, 1000)))
    >>> 3000 < float(ess) < 5000
    True
    >>> walk = np.cumsum(rng.normal(size=(4, 1000)), axis=1)  # strongly correlated
    >>> float(effective_sample_size(walk)) < 100
    True
    """
    x = _as_chains(draws)
    trailing = x.shape[2:]
    x = x.reshape(x.shape[0], x.shape[1], -1)
    m, n = x.shape[0], x.shape[1]
    acov = _autocovariance(x)  # (chains, lags, quantities)
    chain_var = acov[:, 0] * n / (n - 1)
    mean_var = chain_var.mean(axis=0)
    var_plus = mean_var * (n - 1) / n
    if m > 1:
        var_plus = var_plus + x.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 1.0 - (mean_var - acov.mean(axis=0)) / var_plus  # (lags, q)
    rho[0] = 1.0
    ess = np.full(x.shape[2], np.nan)
    for q in range(x.shape[2]):
        if not np.isfinite(var_plus[q]) or var_plus[q] == 0:
            continue
        ess[q] = _geyer_ess(rho[:, q], m * n)
    return ess.reshape(trailing)


def _geyer_ess(rho: np.ndarray, total: int) -> float:
    """ESS from autocorrelations, with Geyer's initial positive and monotone sums."""
    n = len(rho)
    pairs = rho[: n - n % 2].reshape(-1, 2).sum(axis=1)  # rho_2t + rho_2t+1
    # initial positive sequence: the sums after the first one stop at the first
    # that is not positive; initial monotone sequence: they never increase
    later = np.minimum.accumulate(np.clip(pairs[1:], 0.0, None))
    tau = -1.0 + 2.0 * (pairs[0] + later.sum())
    # Stan's cap: an antithetic chain can beat independent draws, but not by more
    tau = max(tau, 1.0 / np.log10(total))
    return total / tau
