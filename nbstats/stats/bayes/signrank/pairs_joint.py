"""The joint statements of a pairs table, on the pairs table's own draws.

:func:`nbstats.bayes_signrank_pairs` with ``joint=True`` evaluates every pair
on one stream of weights by case (:mod:`~nbstats.stats.bayes.signrank.shared_draws`):
the same weight on the same case in every pair and draw. Each pair's region
in each draw (its code, :mod:`~nbstats.stats.bayes.joint_events`) is kept
(:class:`CodeStore`), and the joint statements of Benavoli et al. (2015,
§5.3) -- the sorted statements, and the share of draws in which every
statement of each prefix holds -- are read from those codes
(:func:`joint_statements`). Nothing is summed twice, and a statement's
probability *is* its pair's probability in the table.

Monte Carlo precision: a statement's probability is its pair's, as precise
as the table's stopping rule made it. The joint probabilities are shares of
the first N draws of the stream, N a total of the precision
:func:`~nbstats.stats.bayes.precision.schedule` (every pair has the first
batch): N grows batch by batch until every joint probability's standard
error is below the target (at :func:`~nbstats.stats.bayes.precision.draws_for`
it is, whatever the share). A pair that stopped drawing for the table before
N gets the missing batches evaluated -- only while some draw still holds
every statement before it: beyond that prefix the joint probability is 0 on
those draws, whatever the later pairs' codes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from nbstats.stats.bayes.signrank.blocks import PairBlocks

if TYPE_CHECKING:
    from typing import Any

    from nbstats.results.bayes_posthoc import BayesPosthocResult
    from nbstats.stats.bayes.signrank.shared_draws import BatchStream

__all__ = [
    "CodeStore",
    "joint_statements",
    "more_codes",
    "posthoc_result",
    "resolve_joint",
]


def resolve_joint(
    joint: bool | str,
    *,
    method: str,
    montecarlo: bool,
    z0: float,
    n_pairs: int,
    max_draws: int,
    holes: bool,
) -> bool:
    """Whether :func:`nbstats.bayes_signrank_pairs` makes the joint statements
    from its draws: ``joint=True`` where it can (else a ValueError naming
    what is in the way and the fix), ``"auto"`` where it can and the pairs
    share their cases (else False).

    Examples
    --------
    >>> kw = dict(method="auto", montecarlo=True, z0=0.0, n_pairs=10)
    >>> kw["max_draws"] = 62_501
    >>> resolve_joint("auto", holes=False, **kw)
    True
    >>> resolve_joint("auto", holes=True, **kw)
    False
    """
    from nbstats.util.memory import budget

    if not joint:
        return False
    need, have = n_pairs * max_draws, budget()
    problem = None
    if not montecarlo or z0 != 0:
        problem = (
            "joint=True reads the joint statements from the Monte Carlo draws "
            f"of the pairs: use method='montecarlo' (got {method!r}) and prior_at=0 "
            f"(got {z0!r}), or nbstats.bayes_posthoc."
        )
    elif need > have:
        problem = (
            f"joint=True keeps each pair's region in every draw: {n_pairs:,} "
            f"pairs x {max_draws:,} draws need {-(-need // 2**20):,} MB, over "
            f"the {have // 2**20:,} MB budget (an eighth of the memory "
            "ceiling). Use nbstats.bayes_posthoc (it passes over the draws "
            "twice instead), fewer draws or a larger mc_error, or raise the "
            "ceiling (nbstats.set_memory_ceiling / NBSTATS_MAX_MEMORY)."
        )
    if joint == "auto":
        return problem is None and not holes
    if problem is not None:
        raise ValueError(problem)
    return True


class CodeStore:
    """Region codes of pairs by batch of draws: ``codes[pair][batch]``.

    Examples
    --------
    >>> store = CodeStore()
    >>> store.add(0, np.array([7, 9]), np.array([[2, 0], [2, 1]], np.int8))
    >>> store.codes(9, 1).tolist(), store.has(7, 1), store.has(7, 0)
    ([0, 1], False, True)
    """

    def __init__(self) -> None:
        self._codes: dict[int, dict[int, np.ndarray]] = {}

    def add(self, batch: int, pairs: np.ndarray, codes: np.ndarray) -> None:
        """A batch's codes (draws × len(pairs)) of the pairs numbered ``pairs``."""
        by_pair = np.ascontiguousarray(np.asarray(codes, dtype=np.int8).T)
        for column, pair in enumerate(np.asarray(pairs).tolist()):
            self._codes.setdefault(int(pair), {})[batch] = by_pair[column]

    def has(self, pair: int, batch: int) -> bool:
        """Whether ``pair`` has the codes of batch ``batch``."""
        return batch in self._codes.get(int(pair), {})

    def batch(self, pair: int, batch: int) -> np.ndarray:
        """The codes of ``pair`` on batch ``batch``."""
        return self._codes[int(pair)][batch]

    def codes(self, pair: int, batches: int) -> np.ndarray:
        """The codes of ``pair`` on the first ``batches`` batches, in order."""
        held = self._codes[int(pair)]
        return np.concatenate([held[b] for b in range(batches)])


def joint_statements(
    store: CodeStore,
    pair_ids: np.ndarray,
    sizes: Sequence[int],
    target: float | None,
    evaluate: Callable[[int, np.ndarray], None],
) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, int]]:
    """``joint_of(chosen, order)``: the joint probability of every prefix of
    the statements (``chosen[k]`` the region of pair k, ``order`` the
    statements' order) and the number of draws it was counted on.

    ``pair_ids[k]``: pair k's number in ``store``; ``sizes``: the batches;
    ``evaluate(batch, pairs)``: puts the codes of those pairs (numbers of the
    store) at that batch into ``store``. With ``target`` None, the first
    batch only; else batch after batch until every joint probability's
    standard error ``sqrt(J (1 - J) / N)`` is below ``target``.
    """

    def joint_of(chosen: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, int]:
        batches = len(sizes) if target is not None else 1
        counts = np.zeros(order.size)
        for batch in range(batches):
            # a batch's draws are counted once: the prefix shares over the
            # first batches are the sums of each batch's counts
            counts += _prefix_counts(store, pair_ids, chosen, order, batch, evaluate)
            n_draws = int(sum(sizes[: batch + 1]))
            joint = counts / n_draws
            errors = np.sqrt(joint * (1 - joint) / n_draws)
            if target is None or not np.any(errors >= target):
                break
        return joint, n_draws

    return joint_of


def _prefix_counts(
    store: CodeStore,
    pair_ids: np.ndarray,
    chosen: np.ndarray,
    order: np.ndarray,
    batch: int,
    evaluate: Callable[[int, np.ndarray], None],
) -> np.ndarray:
    """The number of draws of batch ``batch`` in which the statements
    ``order[:k + 1]`` all hold, for every k; the pairs' missing codes are
    evaluated block by block of statements (64, then doubling), and not at
    all past the prefix that no draw of the batch satisfies."""
    counts = np.zeros(order.size)
    alive: np.ndarray | None = None
    start, width = 0, 64
    while start < order.size:
        block = order[start : start + width]
        missing = np.array(
            [p for p in pair_ids[block].tolist() if not store.has(p, batch)],
            dtype=np.int64,
        )
        if missing.size:
            evaluate(batch, missing)
        for offset, k in enumerate(block.tolist()):
            holds = store.batch(int(pair_ids[k]), batch) == chosen[k]
            alive = holds if alive is None else alive & holds
            counts[start + offset] = np.count_nonzero(alive)
            if not alive.any():
                return counts  # every longer prefix fails on every draw
        start, width = start + width, 2 * width
    return counts


def posthoc_result(
    pairs: pd.DataFrame,
    names: list[str],
    mean_ranks: pd.Series,
    joint_of: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, int]],
    *,
    threshold: float,
    s: float,
    rope: float,
    prior: str,
    cases: pd.Index | None,
) -> BayesPosthocResult:
    """The :class:`~nbstats.results.bayes_posthoc.BayesPosthocResult` of a
    pairs table (``pairs``, one row per pair a before b in ``names``' order)
    whose statements' probabilities are the table's lower probabilities and
    whose joint probabilities come from ``joint_of`` (:func:`joint_statements`).
    """
    from nbstats.results.bayes_posthoc import BayesPosthocResult
    from nbstats.scores.names import name_index
    from nbstats.stats.bayes.joint import statement_table, with_frechet
    from nbstats.stats.bayes.joint_events import LEFT, RIGHT, ROPE
    from nbstats.stats.groups import nonsignificant_groups

    m = len(names)
    at = {name: k for k, name in enumerate(names)}
    first = np.array([at[a] for a in pairs["a"]], dtype=np.int64)
    second = np.array([at[b] for b in pairs["b"]], dtype=np.int64)
    shares = np.zeros((len(pairs), 3))
    shares[:, LEFT] = pairs["prob_left_lower"].to_numpy(dtype=float)
    shares[:, RIGHT] = pairs["prob_right_lower"].to_numpy(dtype=float)
    if rope > 0:
        shares[:, ROPE] = pairs["prob_rope_lower"].to_numpy(dtype=float)
    used: list[int] = []

    def joint_only(chosen: np.ndarray, order: np.ndarray) -> np.ndarray:
        joint, n_draws = joint_of(chosen, order)
        used.append(n_draws)
        return joint

    # under IDP with a rope the per-draw joint is raised to the Fréchet bound
    # of the exact lower marginals, as bayes_posthoc does
    joint_fn = (
        with_frechet(joint_only, shares) if prior == "idp" and rope > 0 else joint_only
    )
    mean_rank = mean_ranks.to_numpy(dtype=float)
    statements = statement_table(
        shares, joint_fn, list(zip(first.tolist(), second.tolist(), strict=True)),
        names, mean_rank, threshold=threshold, rope=rope,
    )  # fmt: skip
    matrix = np.full((m, m), np.nan)
    matrix[first, second] = shares[:, RIGHT]  # column better than row
    matrix[second, first] = shares[:, LEFT]
    rope_matrix = None
    if rope > 0:
        rope_matrix = np.full((m, m), np.nan)
        rope_matrix[first, second] = rope_matrix[second, first] = shares[:, ROPE]
    accepted = np.zeros((m, m), dtype=bool)
    for row in statements.itertuples(index=False):
        if row.accepted and row.relation == "better":
            a, b = at[row.better], at[row.worse]
            accepted[a, b] = accepted[b, a] = True
    index = name_index(names, name="algorithm")
    ranks = pd.Series(mean_rank, index=index, name="mean rank")

    def square(values: np.ndarray) -> pd.DataFrame:
        shown = name_index(names, name="algorithm")
        return pd.DataFrame(values, index=shown, columns=shown.copy())

    return BayesPosthocResult(
        statements=statements,
        probabilities=square(matrix),
        groups=nonsignificant_groups(square(accepted), ranks),
        mean_ranks=ranks,
        threshold=threshold,
        s=s,
        test="signrank",
        n_samples=used[-1] if used else 0,
        rope=rope,
        rope_probabilities=None if rope_matrix is None else square(rope_matrix),
        prior="idp" if prior == "idp" else "point",
        cases=cases,
    )


def more_codes(
    values: np.ndarray,
    names: list[str],
    options: dict[str, Any],
    stream: BatchStream,
    sizes: list[int],
    batch: int,
    ids: np.ndarray,
) -> None:
    """The region codes of the pairs numbered ``ids`` (``first * m +
    second``) on batch ``batch`` of the stream, into ``options["codes"]``:
    for joint statements that need draws a pair did not take for the table."""
    m = len(names)
    present = ~np.isnan(values)
    by_cases: dict[bytes, list[int]] = {}
    for pair in np.asarray(ids).tolist():
        i, j = divmod(pair, m)
        key = np.packbits(present[:, i] & present[:, j]).tobytes()
        by_cases.setdefault(key, []).append(pair)
    store = options["codes"]
    for group in by_cases.values():
        found = np.array(group, dtype=np.int64)
        first, second = found // m, found % m
        cases = present[:, first[0]] & present[:, second[0]]
        draws = stream.restrict(batch, sizes[batch], cases=cases)
        engine = PairBlocks(
            draws, options["prior"], options["z0"], options["rope"], options["s"]
        )
        engine.table(
            values[cases][:, second] - values[cases][:, first],
            [(names[i], names[j]) for i, j in zip(first, second, strict=True)],
            threshold=options["threshold"], interval=False,
            codes=partial(_store_codes, store, batch, found),
        )  # fmt: skip


def _store_codes(
    store: CodeStore, batch: int, found: np.ndarray, block: slice, codes: np.ndarray
) -> None:
    store.add(batch, found[block], codes)
