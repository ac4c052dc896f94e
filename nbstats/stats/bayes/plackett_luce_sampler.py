"""Gibbs sampler of the Bayesian Plackett–Luce model (Caron & Doucet 2012).

Each case ranks the algorithms it has scores for. Under the Plackett–Luce
model with worths ``w``, a ranking ``o_1 ≻ o_2 ≻ … ≻ o_k`` has probability
``∏_{r<k} w_{o_r} / Σ_{s≥r} w_{o_s}``: the best is chosen first with
probability proportional to its worth, then the best of the rest, and so on.
A ranking of a subset (a case with missing cells) has the same form over the
subset: that is the model's marginal, so partial rankings need nothing else.

With independent ``Gamma(α, 1)`` priors on the worths (so the normalised
worths ``w / Σw`` are ``Dirichlet(α, …, α)``, the prior of scmamp's Stan
model), Caron & Doucet's latent variables make every step conjugate:

- for each case ``i`` and stage ``r < k_i``,
  ``Z_ir ~ Exp(Σ_{s≥r} w_{o_is})``;
- ``w_j ~ Gamma(α + c_j, 1 + Σ_{i,r: j in stage r of case i} Z_ir)``, where
  ``c_j`` counts the stages at which ``j`` was chosen (the cases where it is
  not last);
- the total ``Σw`` is redrawn from its prior ``Gamma(mα, 1)``: the likelihood
  does not depend on it, so this exact step removes the slow drift of the
  scale that otherwise dominates the chain's autocorrelation.

Everything is vectorised over chains, cases and stages: an iteration is a few
array operations on ``chains × cases × m`` values.

Logs: the worths, the scale and every Gamma draw are kept as logs (a Gamma
draw of a small shape ``a`` is about ``U^(1/a)``, which underflows to 0 for
``a`` below about 0.002), and normalised with log-sum-exp, so the sampler is
safe at every prior in ``S_RANGE`` of
:mod:`nbstats.stats.bayes.plackett_luce`. At a tiny prior the posterior puts
most algorithms' worths near ``exp(-1/prior)`` and the chains can stay in one
region: R̂ then says so.

Ties: tied algorithms are put in a uniformly random order, drawn anew at
every iteration of every chain. The draws then come from the posterior
averaged over the ways of breaking the ties (with all scores tied, every
algorithm has the same posterior).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "RankingData",
    "log_gamma",
    "log_normalise",
    "sample_worths",
    "working_bytes",
]


class RankingData:
    """The rankings of the cases, ready for the sampler.

    Parameters
    ----------
    ranks : ndarray, shape (cases, m)
        Ranks within each case, 1 = best, ties averaged; NaN where the case
        has no score for the algorithm. Every case ranks at least two.
    """

    def __init__(self, ranks: np.ndarray) -> None:
        ranks = np.asarray(ranks, dtype=float)
        self.n_cases, self.m = ranks.shape
        observed = ~np.isnan(ranks)
        self.n_ranked = observed.sum(axis=1).astype(np.int64)
        if np.any(self.n_ranked < 2):
            raise ValueError("every case must rank at least two algorithms.")
        self.width = int(self.n_ranked.max())
        # sort key: the rank, missing cells last
        self.key = np.where(observed, ranks, np.inf)
        self.slot = np.arange(self.width)[None, :] < self.n_ranked[:, None]
        self.fixed_order = self._order(self.key).astype(np.int64)
        self.tie_groups = _tie_groups(
            np.take_along_axis(self.key, self.fixed_order % self.m, axis=1), self.slot
        )
        self.has_ties = bool(len(self.tie_groups[0]))

    def block(self, start: int, size: int) -> RankingData:
        """The cases ``start … start + size − 1`` alone."""
        key = self.key[start : start + size]
        return RankingData(np.where(np.isinf(key), np.nan, key))

    def _order(self, key: np.ndarray) -> np.ndarray:
        """Algorithms best first (ties in column order), padded with the dummy ``m``."""
        order = np.argsort(key, axis=-1, kind="stable")[..., : self.width]
        return np.where(self.slot, order, self.m)

    def orders(self, rng: np.random.Generator, chains: int) -> np.ndarray:
        """One order per chain and case, each group of ties in a random order."""
        # compiled kernel: numba loads on first use, not with ``import nbstats``
        from nbstats.stats.bayes.plackett_luce_kernel import shuffle_ties

        if not self.has_ties:
            return np.broadcast_to(self.fixed_order, (chains, *self.fixed_order.shape))
        cases, starts, sizes = self.tie_groups
        uniforms = rng.random((chains, int(np.sum(sizes - 1))))
        order = np.empty((chains, *self.fixed_order.shape), dtype=np.int64)
        shuffle_ties(self.fixed_order, cases, starts, sizes, uniforms, order)
        return order


def _tie_groups(
    sorted_key: np.ndarray, slot: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of equal ranks in each case: (case, first slot, size) of every run."""
    same = (sorted_key[:, 1:] == sorted_key[:, :-1]) & slot[:, 1:]
    padded = np.zeros((same.shape[0], same.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = same
    edges = np.diff(padded, axis=1)
    start_cases, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    return start_cases, starts, ends - starts + 1


def log_gamma(shape: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Logs of ``Gamma(shape, 1)`` draws, finite for every positive finite shape.

    A Gamma draw with a small shape underflows to 0 (its typical size is
    ``U^(1/shape)``); its log does not: ``log G(a) = log G(a + 1) + log(U) / a``
    with ``U`` uniform on (0, 1] (Marsaglia & Tsang 2000, §6). Shapes of 1 or
    more are drawn directly.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> bool(np.all(np.isfinite(log_gamma(np.full(5, 1e-200), rng))))
    True
    """
    shape = np.asarray(shape, dtype=float)
    small = shape < 1.0
    out = np.log(rng.standard_gamma(np.where(small, shape + 1.0, shape)))
    if small.any():
        uniforms = 1.0 - rng.random(int(small.sum()))  # in (0, 1]: log is finite
        out[small] += np.log(uniforms) / shape[small]
    return out


def log_normalise(log_values: np.ndarray) -> np.ndarray:
    """``log(x / Σx)`` along the last axis from ``log x`` (log-sum-exp).

    Examples
    --------
    >>> np.exp(log_normalise(np.array([[-1000.0, -1000.0]]))).tolist()
    [[0.5, 0.5]]
    """
    top = log_values.max(axis=-1, keepdims=True)
    total = np.log(np.exp(log_values - top).sum(axis=-1, keepdims=True))
    return log_values - (top + total)


def working_bytes(data: RankingData, chains: int, case_block: int | None = None) -> int:
    """Bytes of one iteration's arrays: orders, exponentials, tie uniforms.

    Examples
    --------
    >>> working_bytes(RankingData(np.array([[1.0, 2.0]])), chains=4)
    128
    """
    cases = data.n_cases if case_block is None else min(case_block, data.n_cases)
    return 8 * chains * cases * data.width * 2


def sample_worths(
    data: RankingData,
    *,
    prior: float,
    chains: int,
    draws: int,
    warmup: int,
    rng: np.random.Generator,
    columns: np.ndarray | None = None,
    max_bytes: int | None = None,
    bar: Any = None,
) -> np.ndarray:
    """Posterior draws of the normalised worths, as logs.

    Everything is done with the logs of the worths, so no worth, sum or scale
    underflows at any positive prior (a small prior puts worths near
    ``exp(-1/prior)``).

    Parameters
    ----------
    data : RankingData
    prior : float
        Concentration α of the symmetric Dirichlet prior of the normalised
        worths (> 0).
    chains, draws, warmup : int
        Chains run side by side; draws kept per chain after ``warmup``
        iterations.
    rng : numpy.random.Generator
    columns : int array, shape (m,), optional
        Where each of ``data``'s algorithms goes in the output (default: the
        same place).
    max_bytes : int, optional
        Bound of one iteration's working arrays: the cases are taken in
        blocks that fit it (the same draws whatever the bound, when it holds
        every case at once; default: no bound).
    bar : tqdm progress bar, optional
        Advanced by one at each iteration (``warmup + draws`` in all).

    Returns
    -------
    ndarray, shape (chains, draws, m)
        Logs of the normalised worths (each draw's worths sum to 1).
    """
    # compiled kernel: numba loads on first use, not with ``import nbstats``
    from nbstats.stats.bayes.plackett_luce_kernel import latent_rates

    m = data.m
    columns = np.arange(m) if columns is None else np.asarray(columns)
    per_case = working_bytes(data, chains, 1)
    block = data.n_cases
    if max_bytes is not None:
        block = int(min(block, max(1, max_bytes // per_case)))
    # start every chain at a draw from the prior
    log_worths = log_normalise(log_gamma(np.full((chains, m), prior), rng))
    out = np.empty((chains, draws, m))
    log_sums = np.empty((chains, m))
    counts = np.empty((chains, m))
    total_prior = np.full((chains, 1), m * prior)
    parts = (
        [data]
        if block == data.n_cases
        else [data.block(start, block) for start in range(0, data.n_cases, block)]
    )
    for iteration in range(warmup + draws):
        log_sums.fill(-np.inf)
        counts.fill(0.0)
        for part in parts:
            order = np.ascontiguousarray(part.orders(rng, chains))
            exponentials = rng.standard_exponential(order.shape)
            latent_rates(
                order, log_worths, exponentials, part.n_ranked, log_sums, counts
            )
        # the total s = Σw is redrawn from its prior Gamma(mα, 1): the
        # likelihood does not depend on it. The rate of w_j is 1 + S_j / s
        # (S_j: its exposure); its log less the common log(1/s), which the
        # normalisation takes out anyway, is logaddexp(log s, log S_j): no
        # huge log s is added to the small differences between the S_j
        log_scale = log_gamma(total_prior, rng)
        log_rates = np.logaddexp(log_scale, log_sums)
        log_worths = log_normalise(log_gamma(prior + counts, rng) - log_rates)
        if iteration >= warmup:
            out[:, iteration - warmup, columns] = log_worths
        if bar is not None:
            bar.update(1)
    return out
