"""Groups of algorithms with no significant difference inside."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

__all__ = ["MAX_GROUPS", "nonsignificant_groups"]

#: At most this many maximal groups are listed. Their number can grow
#: exponentially with the number of algorithms (a graph with n vertices has
#: up to 3^(n/3) maximal cliques, past any memory at 200 algorithms); beyond the
#: limit the groups are the runs in mean-rank order (see below).
MAX_GROUPS = 2_000


class _TooMany(Exception):
    pass


def nonsignificant_groups(
    reject: pd.DataFrame,
    mean_ranks: pd.Series,
    *,
    limit: int = MAX_GROUPS,
    fallback: bool = True,
) -> list[tuple[str, ...]]:
    """Maximal sets of algorithms with no significant difference inside.

    These are the maximal cliques of the graph joining every pair that is *not*
    rejected (a pair rejected in either orientation counts as rejected).
    Each group is ordered by mean rank (best first), groups by their
    best rank.

    When the graph follows the mean ranks — every algorithm is not rejected
    against a run of algorithms consecutive in mean rank, as with Nemenyi's
    test, which compares mean ranks with one critical difference — the
    maximal cliques are exactly the maximal such runs, found in one pass.
    Otherwise they are enumerated by Bron–Kerbosch with Tomita's pivot,
    iteratively (no recursion limit) and on bit sets (memory linear in the
    number of pairs), so any number of algorithms works.

    Their number can explode with many algorithms: past ``limit`` maximal
    groups the enumeration stops and, with a warning, the groups are instead
    the maximal runs of algorithms consecutive in mean rank with no
    significant difference inside (the lines of a critical-difference
    diagram): still groups without a difference inside, but not every one.
    ``fallback=False`` raises a ``ValueError`` instead.

    Examples
    --------
    >>> names = ["A", "B", "C"]
    >>> rej = pd.DataFrame(False, index=names, columns=names)
    >>> rej.loc["A", "C"] = rej.loc["C", "A"] = True
    >>> nonsignificant_groups(rej, pd.Series([1.0, 2.0, 3.0], index=names))
    [('A', 'B'), ('B', 'C')]
    """
    names = list(reject.index)
    m = len(names)
    rejected = reject.to_numpy(dtype=bool)
    joined = ~(rejected | rejected.T)  # a pair rejected either way differs
    np.fill_diagonal(joined, True)
    order = {name: (mean_ranks[name], j) for j, name in enumerate(names)}
    ranked = np.array(sorted(range(m), key=lambda j: order[names[j]]), dtype=np.intp)
    if _runs_are_the_cliques(joined[np.ix_(ranked, ranked)]):
        return _rank_runs(names, ~joined, ranked)
    try:
        cliques = _maximal_cliques(joined, limit)
    except _TooMany:
        if not fallback:
            raise ValueError(
                f"the {m} algorithms have more than {limit:,} maximal "
                "groups without a significant difference inside: too many to "
                "list."
            ) from None
        warnings.warn(
            f"the {m} algorithms have more than {limit:,} maximal groups "
            "without a significant difference inside; groups lists the runs of "
            "algorithms consecutive in mean rank instead (as a critical-"
            "difference diagram draws them).",
            UserWarning,
            stacklevel=3,
        )
        return _rank_runs(names, ~joined, ranked)
    groups = [
        tuple(sorted((names[j] for j in clique), key=order.__getitem__))
        for clique in cliques
    ]
    return sorted(groups, key=lambda g: [order[a] for a in g])


def _runs_are_the_cliques(joined: np.ndarray) -> bool:
    """Whether every row of the (rank-ordered, reflexive) graph is one run.

    Then ``i < j < k`` with i, k joined implies i, j and j, k joined, so a
    clique holds everything between its first and last member: the maximal
    cliques are the maximal runs.
    """
    if joined.size == 0:
        return True
    # a row is one run when it switches between joined and not at most twice
    # and the first switch goes into the run (False→True or starts True)
    step = np.diff(joined.astype(np.int8), axis=1)
    starts = (step == 1).sum(axis=1) + joined[:, 0]
    return bool(np.all(starts == 1))


def _maximal_cliques(joined: np.ndarray, limit: int) -> list[list[int]]:
    """Maximal cliques by Bron–Kerbosch with Tomita's pivot, on Python ints as
    bit sets, with an explicit stack (depth at most the number of vertices).

    Raises ``_TooMany`` past ``limit`` cliques.
    """
    m = joined.shape[0]
    neighbours = [_bits(row) & ~(1 << i) for i, row in enumerate(joined)]
    cliques: list[list[int]] = []
    # each frame: (clique, candidates, excluded, vertices still to branch on)
    stack = [_frame(0, (1 << m) - 1, 0, neighbours)]
    while stack:
        clique, candidates, excluded, todo = stack[-1]
        if not todo:
            stack.pop()
            continue
        v = todo.bit_length() - 1
        bit = 1 << v
        stack[-1] = (clique, candidates & ~bit, excluded | bit, todo & ~bit)
        inner, outer = candidates & neighbours[v], excluded & neighbours[v]
        if not inner and not outer:
            cliques.append(_members(clique | bit))
            if len(cliques) > limit:
                raise _TooMany
        elif inner:  # no candidate left but some excluded: not maximal
            stack.append(_frame(clique | bit, inner, outer, neighbours))
    return cliques


def _frame(
    clique: int, candidates: int, excluded: int, neighbours: list[int]
) -> tuple[int, int, int, int]:
    """A search frame: branch only on the candidates the pivot is not joined
    to (the pivot: the vertex joined to the most candidates)."""
    best, pivot_neighbours = -1, 0
    everyone = candidates | excluded
    wanted = candidates.bit_count()
    while everyone:
        low = everyone & -everyone
        everyone ^= low
        u = low.bit_length() - 1
        count = (candidates & neighbours[u]).bit_count()
        if count > best:
            best, pivot_neighbours = count, neighbours[u]
            if count >= wanted - bool(candidates & low):
                break  # joined to every other candidate: no better pivot
    return clique, candidates, excluded, candidates & ~pivot_neighbours


def _bits(row: np.ndarray) -> int:
    return int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")


def _members(bits: int) -> list[int]:
    row = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8, "little"), np.uint8)
    return np.flatnonzero(np.unpackbits(row, bitorder="little")).tolist()


def _rank_runs(
    names: list[str], rejected: np.ndarray, ranked: np.ndarray
) -> list[tuple[str, ...]]:
    """Maximal runs of algorithms consecutive in mean rank, none rejected inside.

    The run from each start reaches at least as far as the previous start's
    (a run without a rejected pair stays so without its first member), so one
    pass with two pointers finds them all.
    """
    in_order = rejected[np.ix_(ranked, ranked)]
    runs: list[tuple[str, ...]] = []
    end = -1
    last_end = -1
    for start in range(len(ranked)):
        end = max(end, start)
        while end + 1 < len(ranked) and not in_order[end + 1, start : end + 1].any():
            end += 1
        if end > last_end:  # not inside the previous run
            runs.append(tuple(names[j] for j in ranked[start : end + 1]))
            last_end = end
    return runs
