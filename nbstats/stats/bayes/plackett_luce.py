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
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.results.plackett_luce import PlackettLuceResult
from nbstats.scores.names import name_index
from nbstats.scores.ranks import rank_rows
from nbstats.scores.table import incomplete_table, score_table
from nbstats.stats.bayes.plackett_luce_sampler import (
    RankingData,
    sample_worths,
    working_bytes,
)
from nbstats.stats.bayes.plackett_luce_summary import (
    PER_CELL_BYTES,
    PER_DRAW_BYTES,
    Summary,
    summarise,
)
from nbstats.util.checks import (
    check_choice,
    check_count,
    check_flag,
    check_fraction,
    check_positive,
    check_random_state,
)
from nbstats.util.memory import budget, check_fits, get_memory_ceiling
from nbstats.util.progress import progress_bar
from nbstats.util.random import seed_sequence

__all__ = ["bayes_plackett_luce", "comparison_groups"]

PlackettLuceNanPolicy = Literal["raise", "omit", "partial"]

#: Chains run side by side (one array operation does an iteration of all).
N_CHAINS = 4
#: Iterations discarded at the start of every chain.
N_WARMUP = 500
#: Fewest posterior draws (100 per chain).
MIN_SAMPLES = 400
#: The prior strengths (Dirichlet concentrations) the sampler is numerically
#: safe over (its logs stay within about 1e302 of 0); beyond them the posterior
#: is the limit's to the last bit.
S_RANGE = (1e-300, 1e300)


def bayes_plackett_luce(
    scores: pd.DataFrame | np.ndarray,
    *,
    s: float = 1.0,
    n_samples: int = 8_000,
    level: float = 0.95,
    higher_is_better: bool = True,
    nan_policy: PlackettLuceNanPolicy = "raise",
    random_state: object = None,
    progress: bool | None = None,
) -> PlackettLuceResult:
    """Bayesian Plackett–Luce model of the rankings: P(best) and expected ranks.

    Each case (row) ranks the algorithms (columns) by their scores. Under the
    Plackett–Luce model with worths ``w`` (normalised to sum to 1), a case's
    ranking ``o₁ ≻ o₂ ≻ … ≻ o_k`` has probability
    ``∏_{r<k} w_{o_r} / (w_{o_r} + … + w_{o_k})``: ``w_j`` is the probability
    that algorithm ``j`` ranks first on a new case. The prior of the worths is
    a symmetric Dirichlet distribution with concentration ``s`` (1 =
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
    s : float
        Prior strength: the concentration of the symmetric Dirichlet prior of
        the worths, in
        ``[1e-300, 1e300]`` (the sampler works with log worths, so none
        underflows). Below 1 favours one dominant algorithm, above 1 equal
        worths; its weight is that of about ``s × m`` rankings. At a
        tiny s the chains can stay where they started: check R̂.
    n_samples : int
        Posterior draws kept, over the four chains (at least 400). The Monte
        Carlo error of a probability ``p`` is about
        ``sqrt(p (1 − p) / ESS)``, with the effective sample size ``ESS``
        reported in ``diagnostics``. The draws are kept in the result
        (``n_samples × m`` worths): a number of draws whose arrays would not
        fit the memory ceiling (:mod:`nbstats.util.memory`) is refused
        up front, with the largest that fits.
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
    progress : bool, optional
        A progress bar over the sampler's iterations (``tqdm.auto``):
        ``None`` shows one in a terminal or a notebook when the call lasts
        more than a second, not in scripts whose output is redirected nor
        under pytest; True/False force it. The time grows with ``n_samples``
        and the number of scores; Ctrl-C stops the call between two
        iterations.

    Returns
    -------
    PlackettLuceResult

    Raises
    ------
    ValueError
        When an algorithm has no case that ranks it against another (e.g. a
        column of missing scores with ``nan_policy="partial"``), or when the
        algorithms fall into groups that no case ranks together: the data
        would say nothing about their worths relative to the rest, and the
        answer would be the prior's. The message names them; drop them, or
        analyse each group on its own.

    Notes
    -----
    Ties: algorithms tied on a case are put in a uniformly random order, drawn
    anew at every iteration of the sampler, so the posterior is averaged over
    the ways of breaking the ties (scmamp breaks them at random once). With
    every score tied, every algorithm has the same posterior. Worths exactly
    equal in a draw (at a very large prior) are ordered at random for that
    draw, for P(best), the ranks and P(above): never by column order.

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
    s = _check_s(s)
    level = check_fraction("level", level, example=0.95)
    n_samples = check_count("n_samples", n_samples, minimum=MIN_SAMPLES)
    check_flag("higher_is_better", higher_is_better)
    check_choice("nan_policy", nan_policy, ("raise", "omit", "partial"))
    check_random_state(random_state)
    if progress is not None:
        check_flag("progress", progress)
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
    _check_connected(names, ranks)
    columns, rows = _canonical_order(names, ranks)
    data = RankingData(ranks[np.ix_(rows, columns)])
    draws_per_chain = _check_memory(data, math.ceil(n_samples / N_CHAINS))
    # one stream: the sampler's draws, then the tie-breaking keys (spawning
    # children would change a SeedSequence the caller passes again)
    rng = np.random.default_rng(seed_sequence(random_state))
    bar = progress_bar(
        progress, N_WARMUP + draws_per_chain, "bayes_plackett_luce", "iteration",
        delay=1.0 if progress is None else 0.0,
    )  # fmt: skip
    try:
        log_worths = sample_worths(
            data,
            prior=s,
            chains=N_CHAINS,
            draws=draws_per_chain,
            warmup=N_WARMUP,
            rng=rng,
            columns=columns,
            max_bytes=budget(),
            bar=bar,
        )
    finally:
        if bar is not None:
            bar.close()
    summary = summarise(log_worths, level=level, rng=rng, columns=columns)
    return _result(
        log_worths,  # the worths now
        summary,
        names=names,
        axis_name=table.columns.name,
        s=s,
        level=level,
        n_cases=int(informative.sum()),
        n_left_out=int((~informative).sum()),
        n_partial=int(np.sum(np.isnan(ranks).any(axis=1))),
        higher_is_better=higher_is_better,
        cases=table.index[informative].copy(),
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
    summary: Summary,
    *,
    names: list[object],
    axis_name: object,
    s: float,
    level: float,
    n_cases: int,
    n_left_out: int,
    n_partial: int,
    higher_is_better: bool,
    cases: pd.Index,
) -> PlackettLuceResult:
    chains, _, m = worths.shape
    index = name_index(names, name=axis_name)
    cols = summary.columns
    ranking = pd.DataFrame(
        {
            name: cols[name].astype(int) if name in _INTEGER_COLUMNS else cols[name]
            for name in Summary.RANKING
        },
        index=index,
    )
    diagnostics = pd.DataFrame(
        {name: cols[name] for name in Summary.DIAGNOSTICS}, index=index
    )
    return PlackettLuceResult(
        ranking=ranking,
        prob_above=pd.DataFrame(summary.prob_above, index=index, columns=index.copy()),
        diagnostics=diagnostics,
        worths=worths.reshape(-1, m),
        n_chains=chains,
        s=s,
        level=level,
        n_cases=n_cases,
        n_left_out=n_left_out,
        n_partial=n_partial,
        higher_is_better=higher_is_better,
        cases=cases,
    )


_INTEGER_COLUMNS = ("median_rank", "rank_lower", "rank_upper")


def _check_connected(names: list[object], ranks: np.ndarray) -> None:
    """Refuse algorithms, or groups of them, that no case ranks against the rest.

    The likelihood says nothing about such an algorithm's worth relative to
    the others': its P(best), ranks and P(above) would come from the prior
    alone, and would be reported as if the data had said them.
    """
    observed = ~np.isnan(ranks)
    unscored = ~observed.any(axis=0)
    if unscored.any():
        which = [names[j] for j in np.flatnonzero(unscored)]
        it, has = ("it", "has") if len(which) == 1 else ("them", "have")
        raise ValueError(
            f"{_name_list(which)} {has} no case that ranks {it} against another "
            "algorithm (every score missing, or alone on its case): "
            f"Plackett–Luce would rank {it} by the prior alone, as if it were "
            f"known. Drop {it}: scores.drop(columns={which!r})."
        )
    labels = comparison_groups(observed)
    if labels.max() > 0:
        groups = [
            [names[j] for j in np.flatnonzero(labels == g)]
            for g in range(int(labels.max()) + 1)
        ]
        shown = " | ".join(_name_list(group) for group in groups[:5])
        more = f" | … ({len(groups) - 5} more)" if len(groups) > 5 else ""
        raise ValueError(
            f"the algorithms fall into {len(groups)} groups that no case ranks "
            f"together: {shown}{more}. The worths of two groups are never "
            f"compared (e.g. P({groups[0][0]} above {groups[1][0]}) would come from "
            "the prior alone), so neither P(best) nor the ranks over all of them "
            "are known. Analyse each group on its own, e.g. "
            f"bayes_plackett_luce(scores[{groups[0]!r}]), or add cases that "
            "score algorithms of different groups."
        )


def comparison_groups(observed: np.ndarray) -> np.ndarray:
    """Connected groups of algorithms, linked when a case ranks both.

    Parameters
    ----------
    observed : bool array, shape (cases, m)
        Which algorithms each case ranks.

    Returns
    -------
    int array, shape (m,)
        Group of each algorithm, numbered from 0 in order of first column.

    Examples
    --------
    >>> comparison_groups(np.array([[1, 1, 0, 0], [0, 0, 1, 1]], dtype=bool))
    array([0, 0, 1, 1])
    """
    from scipy.sparse import coo_matrix  # lazy: scipy loads on first use
    from scipy.sparse.csgraph import connected_components

    cases, m = observed.shape
    case, algorithm = np.nonzero(observed)
    # a bipartite graph: cases 0 … cases − 1, algorithms after them
    graph = coo_matrix(
        (np.ones(case.size), (case, cases + algorithm)),
        shape=(cases + m, cases + m),
    )
    _, labels = connected_components(graph, directed=False)
    found = labels[cases:]
    _, first = np.unique(found, return_index=True)
    renumber = {int(found[j]): g for g, j in enumerate(np.sort(first))}
    return np.array([renumber[int(label)] for label in found])


def _name_list(names: list[object], limit: int = 6) -> str:
    shown = ", ".join(repr(name) for name in names[:limit])
    extra = f", … ({len(names) - limit} more)" if len(names) > limit else ""
    return "{" + shown + extra + "}"


#: Bytes per cell of the score table while the sampler runs (the ranks, their
#: canonical copy, the sampler's keys, orders and tie groups, and their blocks).
PER_INPUT_CELL_BYTES = 120


def _check_memory(data: RankingData, draws_per_chain: int) -> int:
    """Refuse, with the draws that would fit, what needs more than the ceiling.

    The result keeps ``n_samples × m`` worths; the summaries keep their ranks
    beside them and work on one algorithm at a time; the summaries' blocks
    take at most :func:`~nbstats.util.memory.budget` each, and so do the
    working arrays of each of the two chains that run at once.
    """
    m = data.m
    n_samples = N_CHAINS * draws_per_chain
    per_sample = PER_CELL_BYTES * m + PER_DRAW_BYTES
    fixed = (
        PER_INPUT_CELL_BYTES * data.n_cases * m
        + 2 * budget()
        + 2 * min(working_bytes(data), budget())
    )
    needed = fixed + n_samples * per_sample
    ceiling = get_memory_ceiling()
    if needed <= ceiling:
        return draws_per_chain
    most = max(0, (ceiling - fixed) // per_sample) // N_CHAINS * N_CHAINS
    fix = (
        f"at most n_samples={most:,} fit (or raise the ceiling)"
        if most >= MIN_SAMPLES
        else f"{data.n_cases:,} cases of {m} algorithms leave no room for "
        f"{MIN_SAMPLES} draws; raise the ceiling or rank fewer cases"
    )
    check_fits(
        needed,
        f"n_samples={n_samples:,} posterior draws of {m} worths (kept in the "
        "result, with their ranks and the sampler's arrays)",
        fix,
    )
    return draws_per_chain


def _check_s(s: object) -> float:
    number = check_positive("s", s)
    low, high = S_RANGE
    if not low <= number <= high:
        raise ValueError(
            f"s must lie in [{low:g}, {high:g}], got {s!r}: beyond it the "
            "sampler's logs could overflow, and the posterior would be the "
            f"limit's to the last bit anyway; use s={low:g} or {high:g}."
        )
    return number
