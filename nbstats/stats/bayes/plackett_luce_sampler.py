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

Each chain runs in one compiled call (:mod:`.plackett_luce_kernel`) on a
random stream of its own, seeded from the caller's seed, so the chains run
in two threads and the same seed gives the same draws on any machine.

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

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from nbstats.util.pools import default_threads, in_two_threads

__all__ = ["RankingData", "chain_states", "sample_worths", "working_bytes"]

#: Most iterations a chain runs in one compiled call (between two
#: progress-bar updates, and two chances for Ctrl-C to stop it).
STRETCH = 250
#: Case slots a chain's call goes through at most (iterations × cases ×
#: width): a call on a large table takes fewer iterations, so that Ctrl-C
#: and the bar still answer within a fraction of a second.
STRETCH_SLOTS = 5_000_000


class RankingData:
    """The rankings of the cases, ready for the sampler.

    Parameters
    ----------
    ranks : ndarray, shape (cases, m)
        Ranks within each case, 1 = best, ties averaged; NaN where the case
        has no score for the algorithm. Every case ranks at least two.

    Attributes
    ----------
    fixed_order : int array, shape (cases, width)
        Each case's algorithms best first (ties in column order), padded with
        the dummy ``m``.
    n_ranked : int array, shape (cases,)
    group_start, tie_starts, tie_sizes : int arrays
        The runs of tied ranks: case ``i``'s are runs ``group_start[i] …
        group_start[i + 1] − 1``, run ``g`` the slots ``tie_starts[g] …
        tie_starts[g] + tie_sizes[g] − 1`` of its row.
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
        key = np.where(observed, ranks, np.inf)
        slot = np.arange(self.width)[None, :] < self.n_ranked[:, None]
        order = np.argsort(key, axis=-1, kind="stable")[:, : self.width]
        self.fixed_order = np.ascontiguousarray(
            np.where(slot, order, self.m), dtype=np.int64
        )
        cases, self.tie_starts, self.tie_sizes = _tie_groups(
            np.take_along_axis(key, order, axis=1), slot
        )
        self.group_start = np.zeros(self.n_cases + 1, dtype=np.int64)
        np.cumsum(np.bincount(cases, minlength=self.n_cases), out=self.group_start[1:])


def _tie_groups(
    sorted_key: np.ndarray, slot: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of equal ranks in each case: (case, first slot, size) of every run,
    by case."""
    same = (sorted_key[:, 1:] == sorted_key[:, :-1]) & slot[:, 1:]
    padded = np.zeros((same.shape[0], same.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = same
    edges = np.diff(padded, axis=1)
    start_cases, starts = np.nonzero(edges == 1)
    _, ends = np.nonzero(edges == -1)
    return (
        start_cases.astype(np.int64),
        starts.astype(np.int64),
        (ends - starts + 1).astype(np.int64),
    )


def working_bytes(data: RankingData, cases: int | None = None) -> int:
    """Bytes of one chain's working arrays (orders and exponentials) for
    ``cases`` cases at a time (default: all).

    Examples
    --------
    >>> working_bytes(RankingData(np.array([[1.0, 2.0]])))
    32
    """
    cases = data.n_cases if cases is None else min(cases, data.n_cases)
    return 8 * cases * data.width * 2


def chain_states(rng: np.random.Generator, chains: int) -> list[np.ndarray]:
    """The SFC64 words of each chain's stream, seeded from ``rng`` (advanced).

    Examples
    --------
    >>> a = chain_states(np.random.default_rng(0), 2)
    >>> b = chain_states(np.random.default_rng(0), 2)
    >>> [x.tolist() == y.tolist() for x, y in zip(a, b)], a[0].tolist() == a[1].tolist()
    ([True, True], False)
    """
    # compiled kernel: numba loads on first use, not with ``import nbstats``
    from nbstats.stats.bayes.exponentials import sfc64_state

    entropy = rng.integers(2**63, size=chains)
    return [sfc64_state(np.random.SeedSequence(int(e))) for e in entropy]


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
    threads: int | None = None,
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
        Chains; draws kept per chain after ``warmup`` iterations.
    rng : numpy.random.Generator
        Seeds each chain's stream (:func:`chain_states`) and its start, a
        draw from the prior.
    columns : int array, shape (m,), optional
        Where each of ``data``'s algorithms goes in the output (default: the
        same place).
    max_bytes : int, optional
        Bound of a chain's working arrays: the cases are taken in blocks that
        fit it (other random numbers, the same posterior; default: no bound).
    bar : tqdm progress bar, optional
        Advanced by the iterations of one chain (``warmup + draws`` in all).
    threads : int, optional
        Threads the chains run in (default: 2 on a machine with two
        processors or more). The draws do not depend on it.

    Returns
    -------
    ndarray, shape (chains, draws, m)
        Logs of the normalised worths (each draw's worths sum to 1).

    Examples
    --------
    >>> data = RankingData(np.array([[1.0, 2.0, 3.0], [2.0, 1.0, 3.0]]))
    >>> draws = sample_worths(data, prior=1.0, chains=2, draws=50, warmup=10,
    ...                       rng=np.random.default_rng(0))
    >>> draws.shape, bool(np.allclose(np.exp(draws).sum(axis=-1), 1.0))
    ((2, 50, 3), True)
    """
    # compiled kernel: numba loads on first use, not with ``import nbstats``
    from nbstats.stats.bayes.plackett_luce_kernel import ChainWork, run_chain

    m = data.m
    columns = np.arange(m) if columns is None else np.asarray(columns, dtype=np.int64)
    threads = default_threads() if threads is None else threads
    two = threads >= 2 and chains >= 2
    block = None
    if max_bytes is not None:
        block = max(1, max_bytes // working_bytes(data, 1))
    # one set of working arrays per thread, for all its calls: the even
    # chains run here (in_two_threads), the odd ones in the pool
    works = [ChainWork(data, block) for _ in range(2 if two else 1)]
    chain_works = [(c, works[c % len(works)]) for c in range(chains)]
    states = chain_states(rng, chains)
    log_worths = [np.empty(m) for _ in range(chains)]  # drawn from the prior
    out = np.empty((chains, draws, m))

    def advance(part: Sequence[tuple[int, ChainWork]], done: int, stretch: int) -> None:
        for c, work in part:
            skip = max(0, warmup - done)
            row = max(0, done - warmup)
            run_chain(
                states[c], log_worths[c], data, prior=prior, iterations=stretch,
                skip=skip, out=out[c, row : row + stretch - min(skip, stretch)],
                columns=columns, start=done == 0, work=work,
            )  # fmt: skip

    most = max(1, min(STRETCH, STRETCH_SLOTS // (data.n_cases * data.width)))
    done = 0
    while done < warmup + draws:
        stretch = min(most, warmup + draws - done)
        if two:
            in_two_threads(
                "nbstats-chains", partial(advance, done=done, stretch=stretch),
                chain_works,
            )  # fmt: skip
        else:
            advance(chain_works, done, stretch)
        done += stretch
        if bar is not None:
            bar.update(stretch)
    return out
