"""Summaries of the Plackett–Luce posterior draws, within the memory ceiling.

The draws of the log worths (chains × draws × m) are the one array of their
size: the ranks of the worths are kept as small integers beside them, and
everything else (P(best), the ranks' and worths' means, intervals and Monte
Carlo errors, R̂, P(i above j)) is computed one algorithm, or one block of
draws, at a time. At the end the log worths become the worths, in place.

Ties: when two worths of a draw are exactly equal (at a very large prior
every worth is ``1/m`` to the last bit), their order is drawn at random for
that draw — never by column order —, so P(best) and the ranks are those of
the exchangeable posterior the prior describes.
"""

from __future__ import annotations

import numpy as np

from nbstats.stats.mcmc import effective_sample_size, split_rhat
from nbstats.util.memory import budget

__all__ = ["PER_CELL_BYTES", "PER_DRAW_BYTES", "Summary", "summarise"]

#: Bytes each draw keeps per algorithm: its worth (float64) and rank (int16).
PER_CELL_BYTES = 8 + 2
#: Bytes per draw of one algorithm's summaries at once (its log worths, ranks
#: and worths as floats, the autocovariances' transforms of R̂ and ESS).
PER_DRAW_BYTES = 160


class Summary:
    """Everything the result reports, per algorithm (arrays of length m)."""

    #: The ranking table's columns, in its order.
    RANKING = (
        "prob_best",
        "prob_best_mc_error",
        "expected_rank",
        "median_rank",
        "rank_lower",
        "rank_upper",
        "expected_rank_mc_error",
        "worth",
        "worth_lower",
        "worth_upper",
    )
    #: The chains' diagnostics of each algorithm.
    DIAGNOSTICS = ("rhat", "ess")

    def __init__(self, m: int) -> None:
        self.columns = {name: np.zeros(m) for name in self.RANKING + self.DIAGNOSTICS}
        self.prob_above = np.zeros((m, m))


def summarise(
    log_worths: np.ndarray,
    *,
    level: float,
    rng: np.random.Generator,
    columns: np.ndarray,
) -> Summary:
    """Summaries of the draws; ``log_worths`` is overwritten by the worths.

    Parameters
    ----------
    log_worths : ndarray, shape (chains, draws, m)
        Logs of the normalised worths, C-contiguous; on return, the worths.
    level : float
        Level of the credible intervals.
    rng : numpy.random.Generator
        Breaks exact ties between worths.
    columns : int array, shape (m,)
        Where each algorithm of the canonical order is: the random tie-breaking
        keys are drawn in that order, so the answer does not depend on the
        order of the columns.

    Returns
    -------
    Summary
    """
    chains, per_chain, m = log_worths.shape
    n = chains * per_chain
    flat = log_worths.reshape(n, m)
    ranks = _rank_draws(flat, rng, columns)
    out = Summary(m)
    out.prob_above = _prob_above(ranks)
    tail = (1.0 - level) / 2.0
    cols = out.columns
    for j in range(m):
        logs = np.ascontiguousarray(log_worths[:, :, j])
        rhat, ess = _log_worth_diagnostics(logs)
        cols["rhat"][j], cols["ess"][j] = rhat, ess
        rank = ranks[:, j].reshape(chains, per_chain).astype(float)
        best = (rank == 1.0).astype(float)
        p_best = best.mean()
        cols["prob_best"][j] = p_best
        cols["prob_best_mc_error"][j] = _mc_error(p_best * (1.0 - p_best), best)
        cols["expected_rank"][j] = rank.mean()
        cols["expected_rank_mc_error"][j] = _mc_error(rank.var(), rank)
        low, median, high = _rank_quantiles(ranks[:, j], m, (tail, 0.5, 1.0 - tail))
        cols["rank_lower"][j], cols["median_rank"][j], cols["rank_upper"][j] = (
            low,
            median,
            high,
        )
        worths = np.exp(logs, out=logs)
        cols["worth"][j] = worths.mean()
        cols["worth_lower"][j], cols["worth_upper"][j] = np.quantile(
            worths, [tail, 1.0 - tail]
        )
        log_worths[:, :, j] = worths
    return out


def _rank_draws(
    flat: np.ndarray, rng: np.random.Generator, columns: np.ndarray
) -> np.ndarray:
    """Rank of each worth in each draw (1 = largest), exact ties in random order."""
    n, m = flat.shape
    ranks = np.empty((n, m), dtype=np.int16 if m < 2**15 else np.int32)
    places = np.arange(1, m + 1, dtype=ranks.dtype)[None, :]
    block = max(1, budget() // (48 * m))
    for start in range(0, n, block):
        values = flat[start : start + block]
        order = np.argsort(-values, axis=1)
        ordered = np.take_along_axis(values, order, axis=1)
        tied = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if tied.size:
            keys = np.empty((tied.size, m))
            keys[:, columns] = rng.random((tied.size, m))
            order[tied] = np.lexsort((keys, -values[tied]), axis=-1)
        np.put_along_axis(ranks[start : start + block], order, places, axis=1)
    return ranks


def _prob_above(ranks: np.ndarray) -> np.ndarray:
    """P(rank_i < rank_j) for every pair, in blocks of draws within the budget."""
    n, m = ranks.shape
    count = np.zeros((m, m), dtype=np.int64)
    block = max(1, budget() // (2 * m * m))
    for start in range(0, n, block):
        part = ranks[start : start + block]
        count += (part[:, :, None] < part[:, None, :]).sum(axis=0)
    return count / n


def _rank_quantiles(ranks: np.ndarray, m: int, levels: tuple[float, ...]) -> list[int]:
    """Quantiles of integer ranks from their counts (numpy's "inverted_cdf")."""
    cumulative = np.cumsum(np.bincount(ranks, minlength=m + 1)[1:])
    n = cumulative[-1]
    return [int(np.searchsorted(cumulative, q * n, side="left")) + 1 for q in levels]


def _mc_error(variance: float, draws: np.ndarray) -> float:
    """Monte Carlo standard error of a mean: sqrt(variance / ESS); 0 if constant."""
    ess = float(effective_sample_size(draws[..., None])[0])
    if not np.isfinite(ess) or ess <= 0:
        return 0.0
    return float(np.sqrt(max(variance, 0.0) / ess))


def _log_worth_diagnostics(logs: np.ndarray) -> tuple[float, float]:
    """Split R̂ and ESS of one log worth (chains × draws).

    Both are unchanged by an affine map, so the draws are divided by their
    largest magnitude first: at a tiny prior a log worth can be near
    ``-1e300``, whose square would overflow.
    """
    scale = float(np.max(np.abs(logs)))
    scaled = logs / scale if np.isfinite(scale) and scale > 0 else logs
    with np.errstate(invalid="ignore", divide="ignore"):
        rhat = float(split_rhat(scaled[..., None])[0])
    ess = float(effective_sample_size(scaled[..., None])[0])
    return rhat, ess
