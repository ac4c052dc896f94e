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

Ties: tied algorithms are put in a uniformly random order, drawn anew at
every iteration of every chain. The draws then come from the posterior
averaged over the ways of breaking the ties (with all scores tied, every
algorithm has the same posterior).
"""

from __future__ import annotations

import numpy as np

__all__ = ["RankingData", "sample_worths"]

_TINY = np.finfo(float).tiny


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


def sample_worths(
    data: RankingData,
    *,
    prior: float,
    chains: int,
    draws: int,
    warmup: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Posterior draws of the normalised worths.

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

    Returns
    -------
    ndarray, shape (chains, draws, m)
        Normalised worths (each draw sums to 1).
    """
    # compiled kernel: numba loads on first use, not with ``import nbstats``
    from nbstats.stats.bayes.plackett_luce_kernel import latent_rates

    m = data.m
    total_prior = m * prior
    # start every chain at a draw from the prior
    worths = np.zeros((chains, m + 1))
    worths[:, :m] = np.maximum(rng.standard_gamma(prior, size=(chains, m)), _TINY)
    out = np.empty((chains, draws, m))
    rates = np.empty((chains, m + 1))
    counts = np.empty((chains, m + 1))
    for iteration in range(warmup + draws):
        order = np.ascontiguousarray(data.orders(rng, chains))
        exponentials = rng.standard_exponential(order.shape)
        rates.fill(1.0)  # the Gamma(α, 1) prior's rate
        counts.fill(0.0)
        latent_rates(order, worths, exponentials, data.n_ranked, rates, counts)
        # a Gamma draw with a small shape can underflow to 0, which the next
        # iteration's exponential rates cannot take
        raw = np.maximum(
            rng.standard_gamma(prior + counts[:, :m]) / rates[:, :m], _TINY
        )
        normalised = raw / raw.sum(axis=1, keepdims=True)
        scale = rng.standard_gamma(total_prior, size=(chains, 1))
        worths[:, :m] = normalised * scale
        if iteration >= warmup:
            out[:, iteration - warmup] = normalised
    return out
