"""Which candidates a race drops after a step, by each of its methods.

``"bayes"``: the Bayesian Friedman test, then the joint statements of the
Bayesian post-hoc procedure (Benavoli et al. 2015, §5.3) drop the dominated
candidates, and a candidate ε-indistinguishable from a better-ranked one is
dropped too (§7.1); ``"frace-sign"`` and ``"frace-mr"``: the Friedman test,
then each candidate against the best by the sign test or a z-test on mean
ranks (F-race, Birattari et al. 2002).
"""

from __future__ import annotations

import math

import numpy as np

from nbstats.scores.ranks import oriented, rank_rows
from nbstats.stats.bayes.friedman import bayes_friedman
from nbstats.stats.bayes.friedman_calibration import minimum_cases
from nbstats.stats.bayes.posthoc import SignEvents, bayes_posthoc
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.sign import sign_test_from_differences
from nbstats.stats.racing_state import RaceState
from nbstats.util import scipy_stats as sps

__all__ = ["drop_indistinguishable", "eliminate"]


def eliminate(
    state: RaceState,
    method: str,
    threshold: float,
    epsilon: float,
    alpha: float,
    s: float,
    higher_is_better: bool,
    n_samples: int,
    seed: np.random.SeedSequence,
) -> None:
    """Drop the candidates the evidence rules out after a step (``method``:
    ``"bayes"``, ``"frace-sign"`` or ``"frace-mr"``; see the module)."""
    table = state.table()
    hib = {"higher_is_better": higher_is_better}
    if method == "bayes":
        n, m = table.shape
        # the Bayesian Friedman test needs as many instances as candidates
        # alive, twice as many with s = 0 (below, its posterior cannot tell
        # ranks apart and it is not calibrated): until then only the
        # ε-indistinguishability step runs
        omnibus = (
            bayes_friedman(
                table,
                s=s,
                threshold=threshold,
                method="ellipsoid",
                n_samples=max(n_samples, 1000),
                random_state=seed.spawn(1)[0],
                **hib,
            )
            if n >= minimum_cases(m, s)
            else None
        )
        if omnibus is not None and omnibus.reject:
            comparisons = bayes_posthoc(
                table,
                s=s,
                threshold=threshold,
                n_samples=n_samples,
                random_state=seed.spawn(1)[0],
                groups=False,  # only the statements decide; groups can explode
                **hib,
            )
            accepted = comparisons.statements[comparisons.statements["accepted"]]
            for row in accepted.itertuples(index=False):
                if row.worse in state.alive:
                    state.eliminate(row.worse, "dominated", row.better)
        drop_indistinguishable(
            state, threshold, epsilon, s, higher_is_better, n_samples, seed
        )
        return
    result = friedman(table, **hib)
    if result.pvalue >= alpha:
        return
    ranks = result.mean_ranks
    best = str(ranks.idxmin())
    values = oriented(table.to_numpy(), higher_is_better)
    position = {name: j for j, name in enumerate(table.columns)}
    n, m = table.shape
    se = math.sqrt(m * (m + 1) / (6 * n))
    for name in list(table.columns):
        if name == best:
            continue
        if method == "frace-sign":
            d = values[:, position[best]] - values[:, position[name]]
            test = sign_test_from_differences(d, alternative="greater")
            p = test.pvalue
            reason = "worse than the best (sign test)"
        else:
            z = (ranks[name] - ranks[best]) / se
            p = float(sps.norm.sf(z))
            reason = "worse than the best (mean-rank z test)"
        if p < alpha:
            state.eliminate(name, reason, best)


def drop_indistinguishable(
    state: RaceState,
    threshold: float,
    epsilon: float,
    s: float,
    higher_is_better: bool,
    n_samples: int,
    seed: np.random.SeedSequence,
) -> None:
    """Drop a survivor when P(|θ_ij − ½| < ε) > threshold for a better-ranked one."""
    table = state.table()
    if table.shape[1] < 2:
        return
    values = oriented(table.to_numpy(), higher_is_better)
    n, m = values.shape
    mean_ranks = rank_rows(values).mean(axis=0)
    order = np.argsort(mean_ranks, kind="stable")  # best first
    pairs = [(order[a], order[b]) for a in range(m) for b in range(a + 1, m)]
    events = SignEvents(
        np.column_stack([values[:, j] - values[:, i] for i, j in pairs])
    )
    close = np.zeros(len(pairs))
    for chunk in DirichletWeights(n, n_samples, seed.spawn(1)[0]):
        # θ in blocks of pairs within the memory ceiling: 200 candidates make
        # 19,900 pairs, which one chunk of draws would hold as ~2 GB
        for cols, theta in events.blocks(chunk, s):
            close[cols] += (np.abs(theta - 0.5) < epsilon).sum(axis=0)
    prob = close / n_samples
    names = list(table.columns)
    for (i, j), p in zip(pairs, prob, strict=True):
        better, worse = names[i], names[j]
        if p > threshold and better in state.alive and worse in state.alive:
            state.eliminate(worse, "indistinguishable", better)
