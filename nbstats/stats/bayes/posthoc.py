"""Joint Bayesian multiple comparisons (Benavoli et al. 2015, §5.3)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesPosthocResult
from nbstats.scores import NanPolicy, check_choice, oriented, rank_rows, score_table
from nbstats.stats.bayes.decision import check_gamma, check_n_samples, check_s
from nbstats.stats.bayes.memory import budget
from nbstats.stats.bayes.sign import prob_b_better_sign
from nbstats.stats.bayes.walsh import WalshBatch, WalshPlan
from nbstats.stats.bayes.weights import DirichletWeights, WeightChunk
from nbstats.stats.groups import nonsignificant_groups

__all__ = ["SignEvents", "bayes_posthoc", "cap_joint"]

# θ within this distance of ½ counts as exactly ½ (a pair that always ties)
_HALF_TOLERANCE = 1e-12
# per-draw statement samples are kept between the two passes when they fit in
# memory.budget(); θ of a chunk's draws is made for blocks of pairs that fit


def bayes_posthoc(
    scores: pd.DataFrame | np.ndarray,
    *,
    s: float = 1.0,
    gamma: float = 0.05,
    test: Literal["sign", "signrank"] = "sign",
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    groups: bool = True,
) -> BayesPosthocResult:
    """Which algorithms are better than which, with a *joint* posterior guarantee.

    For every pair the direction with the larger posterior probability is
    chosen ("j is better than i"); the statements are sorted by that
    probability, and the longest prefix whose **joint** posterior probability
    (all of them true at once) exceeds ``1 - gamma`` is accepted. The joint
    probability is the share of posterior draws in which every statement of
    the prefix holds, all statements evaluated on the *same* draw of the
    Dirichlet weights, so dependent statements are not penalised as if
    independent (Benavoli et al. 2015, §5.3, following Gelman & Tuerlinckx).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    s : float
        Prior strength (>= 0), placed on "all algorithms equal" (2015, §7).
    gamma : float
        Accepted statements hold jointly with posterior probability > 1 - γ.
    test : {"sign", "signrank"}
        ``"sign"``: θ = P(j > i) + ½ P(j = i) per pair (marginal probabilities
        exact, Theorem 2). ``"signrank"``: the signed-rank θ of
        :func:`nbstats.bayes_signrank` with the prior's pseudo-observation at
        a zero difference.
    n_samples : int
        Posterior draws for the joint probabilities.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or Generator
        Seed of the posterior draws.
    groups : bool
        Work out ``groups`` (the maximal sets of algorithms with no accepted
        statement inside, for a CD diagram). False leaves them empty: a race,
        which needs only the statements, skips a step that grows fast with
        the number of algorithms.

    Returns
    -------
    BayesPosthocResult
        ``statements`` (sorted, with marginal ``prob``, ``joint`` and
        ``accepted``), the m × m ``probabilities`` and the ``groups``.

    Notes
    -----
    Memory: the draws are processed in chunks, and each chunk's θ for blocks
    of pairs, within the ceiling of :mod:`nbstats.stats.bayes.memory` (512
    MiB by default; ``NBSTATS_MAX_MEMORY`` or
    :func:`~nbstats.stats.bayes.memory.set_memory_ceiling`), so any number of
    algorithms fits; the draws' events are kept between the two passes only
    when they fit too.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_posthoc(table, random_state=0)
    >>> res.statements[["better", "worse"]].iloc[0].tolist()
    ['aode', 'nbc']
    """
    check_choice("test", test, ("sign", "signrank"))
    s = check_s(s, allow_zero=True)
    gamma = check_gamma(gamma)
    n_samples = check_n_samples(n_samples)
    table = score_table(scores, nan_policy=nan_policy)
    names = [str(c) for c in table.columns]
    values = oriented(table.to_numpy(), higher_is_better)
    n, m = values.shape
    pairs = list(combinations(range(m), 2))
    # differences d > 0 where the second algorithm of the pair is better
    diffs = np.column_stack([values[:, j] - values[:, i] for i, j in pairs])

    per_case = len(pairs) if test == "signrank" else 2
    draws = DirichletWeights(n, n_samples, random_state, columns_per_case=per_case)
    evaluate = SignEvents(diffs) if test == "sign" else _SignedRankEvents(diffs)

    if test == "sign":
        wins, losses = (diffs > 0).sum(axis=0), (diffs < 0).sum(axis=0)
        prob_second = np.array(
            [prob_b_better_sign(w, lo) for w, lo in zip(wins, losses, strict=True)]
        )
        prob_first = np.array(
            [prob_b_better_sign(lo, w) for w, lo in zip(wins, losses, strict=True)]
        )
        stored = None
    else:
        prob_second, prob_first, stored = _marginals(draws, evaluate, s, len(pairs))

    second_better = prob_second >= prob_first
    prob = np.where(second_better, prob_second, prob_first)
    order = np.argsort(-prob, kind="stable")
    joint = cap_joint(
        _joint(draws, evaluate, s, second_better, order, stored), prob[order]
    )

    rows = []
    for rank, k in enumerate(order):
        i, j = pairs[k]
        better, worse = (j, i) if second_better[k] else (i, j)
        rows.append(
            {
                "better": names[better],
                "worse": names[worse],
                "prob": float(prob[k]),
                "joint": float(joint[rank]),
                "accepted": bool(joint[rank] > 1 - gamma),
            }
        )
    statements = pd.DataFrame(
        rows, columns=["better", "worse", "prob", "joint", "accepted"]
    )

    matrix = np.full((m, m), np.nan)
    accepted_pairs = np.zeros((m, m), dtype=bool)
    for k, (i, j) in enumerate(pairs):
        matrix[i, j] = prob_second[k]  # column j better than row i
        matrix[j, i] = prob_first[k]
    for row in statements.itertuples(index=False):
        if row.accepted:
            a, b = names.index(row.better), names.index(row.worse)
            accepted_pairs[a, b] = accepted_pairs[b, a] = True
    index = pd.Index(names, name="algorithm")
    mean_ranks = pd.Series(
        rank_rows(table.to_numpy(), higher_is_better=higher_is_better).mean(axis=0),
        index=index,
        name="mean rank",
    )
    found = (
        nonsignificant_groups(
            pd.DataFrame(accepted_pairs, index=index, columns=index), mean_ranks
        )
        if groups
        else []
    )
    return BayesPosthocResult(
        statements=statements,
        probabilities=pd.DataFrame(matrix, index=index, columns=index.copy()),
        groups=found,
        mean_ranks=mean_ranks,
        gamma=gamma,
        s=s,
        test=test,
        n_samples=n_samples,
    )


class SignEvents:
    """Sign-test θ of many pairs on a chunk of draws: one matrix product.

    ``diffs`` holds one column per pair (> 0 where its second member is
    better); calling with a chunk and s gives θ per draw and pair.
    """

    def __init__(self, diffs: np.ndarray) -> None:
        self.indicators = np.heaviside(diffs, 0.5)  # n × K

    def __call__(self, chunk: WeightChunk, s: float) -> np.ndarray:
        e = chunk.exponentials
        g0 = chunk.prior_gamma(s)
        total = g0 + e.sum(axis=1)
        # the prior's mass sits on "equal": it contributes H(0) = ½. In place:
        # the same operations as (e @ I + ½ g0) / total, one array instead of
        # three (a chunk of 50 algorithms' 1225 pairs is 40 MB)
        theta = e @ self.indicators
        theta += 0.5 * g0[:, None]
        theta /= total[:, None]
        return theta

    def blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """θ of the pairs ``columns`` (default all) in blocks that fit the
        memory budget: ``(positions in columns, draws × block)``. One block,
        the same numbers as ``self(chunk, s)``, when everything fits."""
        e = chunk.exponentials
        indicators = self.indicators
        if columns is not None:
            indicators = indicators[:, columns]
        g0 = chunk.prior_gamma(s)
        total = g0 + e.sum(axis=1)
        k = indicators.shape[1]
        for cols in _column_blocks(k, e.shape[0]):
            theta = e @ indicators[:, cols]
            theta += 0.5 * g0[:, None]
            theta /= total[:, None]
            yield cols, theta


def _column_blocks(k: int, rows: int) -> list[slice]:
    """Blocks of k columns: θ and three temporaries of that size per block
    within :func:`~nbstats.stats.bayes.memory.budget`."""
    width = max(1, budget() // (4 * 8 * max(rows, 1)))
    return [slice(a, min(k, a + width)) for a in range(0, k, width)]


class _SignedRankEvents:
    """Signed-rank θ for every pair on a chunk, the same weight on each case."""

    def __init__(self, diffs: np.ndarray) -> None:
        plans = [WalshPlan.build(diffs[:, k]) for k in range(diffs.shape[1])]
        regions = [[plan.region(+1, 0.0)] for plan in plans]
        points = [
            [plan.point_index(0.0, plan_regions[0])]
            for plan, plan_regions in zip(plans, regions, strict=True)
        ]
        self.batch = WalshBatch.build(plans, regions, points, permute=True)

    def __call__(self, chunk: WeightChunk, s: float) -> np.ndarray:
        g0 = chunk.prior_gamma(s)
        total, quad, cross = self.batch.evaluate(chunk.exponentials)
        value, cross = quad[:, 0, :].T, cross[:, 0, :].T  # draws × pairs
        scale = ((g0 + total) ** 2)[:, None]
        # pseudo-observation at a zero difference: 2 w0 Σ_j w_j H(z_j) + ½ w0²
        g0 = g0[:, None]
        return (value + 2 * g0 * cross + 0.5 * g0 * g0) / scale

    def blocks(
        self, chunk: WeightChunk, s: float, columns: np.ndarray | None = None
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """As :meth:`SignEvents.blocks` (a chunk here has few draws)."""
        theta = self(chunk, s)
        if columns is not None:
            theta = theta[:, columns]
        for cols in _column_blocks(theta.shape[1], theta.shape[0]):
            yield cols, theta[:, cols]


def _marginals(
    draws: DirichletWeights, evaluate: object, s: float, n_pairs: int
) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]] | None]:
    """Monte Carlo marginals; keeps the events if they fit in memory."""
    keep = 2 * draws.n_samples * n_pairs <= budget()
    stored: list[tuple[np.ndarray, np.ndarray]] = []
    second = np.zeros(n_pairs)
    first = np.zeros(n_pairs)
    for chunk in draws:
        if keep:
            rows = chunk.exponentials.shape[0]
            above_all = np.empty((rows, n_pairs), dtype=bool)
            below_all = np.empty((rows, n_pairs), dtype=bool)
        for cols, theta in evaluate.blocks(chunk, s):
            above = theta > 0.5 + _HALF_TOLERANCE
            below = theta < 0.5 - _HALF_TOLERANCE
            second[cols] += above.sum(axis=0)
            first[cols] += below.sum(axis=0)
            if keep:
                above_all[:, cols], below_all[:, cols] = above, below
        if keep:
            stored.append((above_all, below_all))
    return second / draws.n_samples, first / draws.n_samples, stored if keep else None


def cap_joint(joint: np.ndarray, sorted_marginals: np.ndarray) -> np.ndarray:
    """Monte Carlo joint probabilities, never above any statement's marginal.

    With the sign test the marginals are exact (Theorem 2) while the joint
    probabilities are estimated from draws; P(S_1 ∧ … ∧ S_k) ≤ min_i P(S_i)
    is a fact, so the estimate is capped by it (this only moves it towards
    the truth).
    """
    return np.minimum(joint, np.minimum.accumulate(sorted_marginals))


def _joint(
    draws: DirichletWeights,
    evaluate: object,
    s: float,
    second_better: np.ndarray,
    order: np.ndarray,
    stored: list[tuple[np.ndarray, np.ndarray]] | None,
) -> np.ndarray:
    """Share of draws in which every statement of each prefix holds."""
    counts = np.zeros(order.size)
    if stored is not None:
        for above, below in stored:
            holds = np.where(second_better, above, below)[:, order]
            counts += np.logical_and.accumulate(holds, axis=1).sum(axis=0)
        return counts / draws.n_samples
    ordered_better = second_better[order]
    for chunk in draws:
        carry = None  # every earlier statement holds, per draw
        for cols, theta in evaluate.blocks(chunk, s, order):
            above = theta > 0.5 + _HALF_TOLERANCE
            below = theta < 0.5 - _HALF_TOLERANCE
            holds = np.where(ordered_better[cols], above, below)
            if carry is not None:
                holds[:, 0] &= carry
            held = np.logical_and.accumulate(holds, axis=1)
            counts[cols] += held.sum(axis=0)
            carry = held[:, -1]
    return counts / draws.n_samples
