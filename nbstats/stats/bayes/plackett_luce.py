"""Bayesian Plackett–Luce ranking of all algorithms (Calvo et al. 2018, 2019).

Which algorithm is best, and how sure can we be? The Plackett–Luce model gives
each algorithm a *worth*; on a case, the best algorithm is drawn with
probability proportional to the worths, then the best of the rest, and so on.
The posterior of the normalised worths answers the question directly: the
probability that each algorithm has the largest worth, each algorithm's
expected rank with a credible interval, and the probability that one ranks
above another. The sampler is in
:mod:`nbstats.stats.bayes.plackett_luce_sampler`.
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.names import name_index
from nbstats.results.plackett_luce import PlackettLuceResult
from nbstats.scores import (
    check_choice,
    check_flag,
    incomplete_table,
    rank_rows,
    score_table,
)
from nbstats.stats.bayes.plackett_luce_sampler import RankingData, sample_worths
from nbstats.stats.bayes.weights import seed_sequence
from nbstats.stats.mcmc import effective_sample_size, split_rhat

__all__ = ["bayes_plackett_luce"]

PlackettLuceNanPolicy = Literal["raise", "omit", "partial"]

#: Chains run side by side (one array operation does an iteration of all).
N_CHAINS = 4
#: Iterations discarded at the start of every chain.
N_WARMUP = 500


def bayes_plackett_luce(
    scores: pd.DataFrame | np.ndarray,
    *,
    prior: float = 1.0,
    n_samples: int = 8_000,
    level: float = 0.95,
    higher_is_better: bool = True,
    nan_policy: PlackettLuceNanPolicy = "raise",
    random_state: object = None,
) -> PlackettLuceResult:
    """Bayesian Plackett–Luce model of the rankings: P(best) and expected ranks.

    Each case (row) ranks the algorithms (columns) by their scores. Under the
    Plackett–Luce model with worths ``w`` (normalised to sum to 1), a case's
    ranking ``o₁ ≻ o₂ ≻ … ≻ o_k`` has probability
    ``∏_{r<k} w_{o_r} / (w_{o_r} + … + w_{o_k})``: ``w_j`` is the probability
    that algorithm ``j`` ranks first on a new case. The prior of the worths is
    a symmetric Dirichlet distribution with concentration ``prior`` (1 =
    uniform on the simplex, as in scmamp's ``bPlackettLuceModel``); the
    posterior is sampled by Caron & Doucet's (2012) Gibbs sampler in four
    chains. From the draws:

    - ``prob_best``: the posterior probability that each algorithm has the
      largest worth;
    - ``expected_rank``: the posterior mean of each algorithm's rank among
      the worths (1 = largest), with an equal-tailed credible interval;
    - ``prob_above[i, j]``: the posterior probability that ``i``'s worth
      exceeds ``j``'s;
    - the worths' posterior means (the probability of ranking first on a new
      case, scmamp's "expected win probability") and credible intervals.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Rows = cases, columns = algorithms.
    prior : float
        Concentration of the symmetric Dirichlet prior of the worths (> 0).
        Below 1 favours one dominant algorithm, above 1 equal worths; its
        weight is that of about ``prior × m`` rankings.
    n_samples : int
        Posterior draws kept, over the four chains (at least 400). The Monte
        Carlo error of a probability ``p`` is about
        ``sqrt(p (1 − p) / ESS)``, with the effective sample size ``ESS``
        reported in ``diagnostics``.
    level : float
        Level of the credible intervals, in (0, 1).
    higher_is_better : bool
        Whether larger scores rank first.
    nan_policy : {"raise", "omit", "partial"}
        Missing scores: refused (``"raise"``), their cases dropped
        (``"omit"``), or each case ranks only the algorithms it has scores for
        (``"partial"``; a partial ranking is the model's own marginal, so
        nothing is imputed). A case with fewer than two scores carries no
        ranking and is left out.
    random_state : None, int or numpy.random.Generator
        Seed of the draws. ``None`` draws fresh entropy from the operating
        system: two calls then differ within their Monte Carlo error.

    Returns
    -------
    PlackettLuceResult

    Notes
    -----
    Ties: algorithms tied on a case are put in a uniformly random order, drawn
    anew at every iteration of the sampler, so the posterior is averaged over
    the ways of breaking the ties (scmamp breaks them at random once). With
    every score tied, every algorithm has the same posterior.

    The answer does not depend on the order of the rows or the columns: the
    draws are made with rows and columns in a canonical order (columns by
    name, rows by their ranking) and mapped back, so permuting either gives
    the same numbers for the same ``random_state``.

    References
    ----------
    Plackett, R. L. (1975). The analysis of permutations. *Applied
    Statistics*, 24(2), 193–202.
    Caron, F., & Doucet, A. (2012). Efficient Bayesian inference for
    generalized Bradley–Terry models. *Journal of Computational and Graphical
    Statistics*, 21(1), 174–196.
    Calvo, B., Ceberio, J., & Lozano, J. A. (2018). Bayesian inference for
    algorithm ranking analysis. *GECCO '18 Companion*, 324–325.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = nbstats.bayes_plackett_luce(table, random_state=0)
    >>> res.prob_best.round(1).to_dict()  # two of four are contenders
    {'C4.5': 0.0, 'C4.5+m': 0.5, 'C4.5+cf': 0.0, 'C4.5+m+cf': 0.5}
    >>> res.ranking.loc["C4.5+m", ["rank_lower", "rank_upper"]].tolist()
    [1, 3]
    """
    prior = _check_positive("prior", prior)
    level = _check_level(level)
    n_samples = _check_n_samples(n_samples)
    check_flag("higher_is_better", higher_is_better)
    check_choice("nan_policy", nan_policy, ("raise", "omit", "partial"))
    table = _table(scores, nan_policy)
    names = list(table.columns)
    values = table.to_numpy(dtype=float)
    ranks = _ranks_with_gaps(values, higher_is_better)
    informative = np.sum(~np.isnan(ranks), axis=1) >= 2
    ranks = ranks[informative]
    if len(ranks) == 0:
        raise ValueError(
            "no case ranks two or more algorithms: every case has at most one "
            "score. Plackett–Luce needs cases that compare algorithms."
        )
    columns, rows = _canonical_order(names, ranks)
    draws_per_chain = math.ceil(n_samples / N_CHAINS)
    rng = np.random.default_rng(seed_sequence(random_state))
    canonical = sample_worths(
        RankingData(ranks[np.ix_(rows, columns)]),
        prior=prior,
        chains=N_CHAINS,
        draws=draws_per_chain,
        warmup=N_WARMUP,
        rng=rng,
    )
    worths = np.empty_like(canonical)
    worths[..., columns] = canonical
    return _result(
        worths,
        names=names,
        axis_name=table.columns.name,
        prior=prior,
        level=level,
        n_cases=int(informative.sum()),
        n_left_out=int((~informative).sum()),
        n_partial=int(np.sum(np.isnan(ranks).any(axis=1))),
        higher_is_better=higher_is_better,
    )


def _table(scores: object, nan_policy: str) -> pd.DataFrame:
    if nan_policy == "partial":
        return incomplete_table(scores)
    return score_table(scores, nan_policy=nan_policy)


def _ranks_with_gaps(values: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Ranks within each row (1 = best, ties averaged); NaN stays NaN."""
    out = np.full(values.shape, np.nan)
    observed = ~np.isnan(values)
    complete = observed.all(axis=1)
    if complete.any():
        out[complete] = rank_rows(values[complete], higher_is_better=higher_is_better)
    for i in np.flatnonzero(~complete):
        keep = observed[i]
        if keep.sum() >= 1:
            out[i, keep] = rank_rows(
                values[i, keep][None, :], higher_is_better=higher_is_better
            )[0]
    return out


def _canonical_order(
    names: list[object], ranks: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Columns sorted by name, rows by their ranking: the order draws are made in."""
    columns = np.array(sorted(range(len(names)), key=lambda j: (str(names[j]), j)))
    keyed = np.nan_to_num(ranks[:, columns], nan=0.0)
    rows = np.lexsort(keyed.T[::-1])
    return columns, rows


def _result(
    worths: np.ndarray,
    *,
    names: list[object],
    axis_name: object,
    prior: float,
    level: float,
    n_cases: int,
    n_left_out: int,
    n_partial: int,
    higher_is_better: bool,
) -> PlackettLuceResult:
    chains, per_chain, m = worths.shape
    flat = worths.reshape(-1, m)
    index = name_index(names, name=axis_name)
    tail = (1.0 - level) / 2.0
    # rank of each algorithm's worth in each draw, 1 = largest
    rank_draws = np.empty(flat.shape, dtype=np.int32)
    np.put_along_axis(
        rank_draws,
        np.argsort(-flat, axis=1, kind="stable"),
        np.arange(1, m + 1, dtype=np.int32)[None, :],
        axis=1,
    )
    best = rank_draws == 1
    prob_best = best.mean(axis=0)
    ess_best = effective_sample_size(best.reshape(chains, per_chain, m).astype(float))
    log_worths = np.log(worths)
    ess = effective_sample_size(log_worths)
    rhat = split_rhat(log_worths)
    with np.errstate(invalid="ignore", divide="ignore"):
        mc_best = np.sqrt(prob_best * (1.0 - prob_best) / ess_best)
    mc_best = np.where(np.isfinite(mc_best), mc_best, 0.0)
    worth_mean = flat.mean(axis=0)
    worth_low, worth_high = np.quantile(flat, [tail, 1.0 - tail], axis=0)
    rank_mean = rank_draws.mean(axis=0)
    rank_low, rank_median, rank_high = np.quantile(
        rank_draws, [tail, 0.5, 1.0 - tail], axis=0, method="inverted_cdf"
    )
    ess_rank = effective_sample_size(
        rank_draws.reshape(chains, per_chain, m).astype(float)
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        mc_rank = rank_draws.std(axis=0) / np.sqrt(ess_rank)
    mc_rank = np.where(np.isfinite(mc_rank), mc_rank, 0.0)
    prob_above = _prob_above(rank_draws)
    summary = pd.DataFrame(
        {
            "prob_best": prob_best,
            "prob_best_mc_error": mc_best,
            "expected_rank": rank_mean,
            "median_rank": rank_median.astype(int),
            "rank_lower": rank_low.astype(int),
            "rank_upper": rank_high.astype(int),
            "expected_rank_mc_error": mc_rank,
            "worth": worth_mean,
            "worth_lower": worth_low,
            "worth_upper": worth_high,
        },
        index=index,
    )
    diagnostics = pd.DataFrame({"rhat": rhat, "ess": ess}, index=index)
    return PlackettLuceResult(
        ranking=summary,
        prob_above=pd.DataFrame(prob_above, index=index, columns=index.copy()),
        diagnostics=diagnostics,
        worths=flat,
        n_chains=chains,
        prior=prior,
        level=level,
        n_cases=n_cases,
        n_left_out=n_left_out,
        n_partial=n_partial,
        higher_is_better=higher_is_better,
    )


def _prob_above(rank_draws: np.ndarray) -> np.ndarray:
    """P(rank_i < rank_j) for every pair, in blocks of rows to bound memory."""
    n, m = rank_draws.shape
    out = np.zeros((m, m))
    block = max(1, int(2**24 // max(n * m, 1)))
    for start in range(0, m, block):
        stop = min(start + block, m)
        above = rank_draws[:, start:stop, None] < rank_draws[:, None, :]
        out[start:stop] = above.mean(axis=0)
    return out


def _check_positive(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a positive number, got {value!r}.")
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}.")
    return number


def _check_level(level: object) -> float:
    if isinstance(level, bool) or not isinstance(level, Real):
        raise TypeError(f"level must be a number in (0, 1), got {level!r}.")
    number = float(level)
    if not 0.0 < number < 1.0:
        raise ValueError(
            f"level must lie in (0, 1), got {level!r}; e.g. 0.95 for 95 % intervals."
        )
    return number


def _check_n_samples(n_samples: object) -> int:
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)):
        raise TypeError(f"n_samples must be an integer, got {n_samples!r}.")
    if n_samples < 400:
        raise ValueError(
            f"n_samples must be at least 400 (100 per chain), got {n_samples}."
        )
    return int(n_samples)
