"""Groups of algorithms with no significant difference inside."""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

__all__ = ["MAX_GROUPS", "nonsignificant_groups"]

#: At most this many maximal groups are listed. Their number can grow
#: exponentially with the number of algorithms (a graph with n vertices has
#: up to 3^(n/3) maximal cliques: 200 algorithms once took 22 GB); beyond the
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
    rejected (Bron–Kerbosch with pivoting; k is small, so plain sets are fine).
    Each group is ordered by mean rank (best first), groups by their best rank.

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
    rejected = reject.to_numpy(dtype=bool)
    neighbours = {
        a: {b for j, b in enumerate(names) if j != i and not rejected[i, j]}
        for i, a in enumerate(names)
    }
    cliques: list[frozenset[str]] = []

    def expand(clique: set[str], candidates: set[str], excluded: set[str]) -> None:
        if not candidates and not excluded:
            cliques.append(frozenset(clique))
            if len(cliques) > limit:
                raise _TooMany
            return
        pivot = max(
            candidates | excluded, key=lambda v: len(neighbours[v] & candidates)
        )
        for v in list(candidates - neighbours[pivot]):
            expand(clique | {v}, candidates & neighbours[v], excluded & neighbours[v])
            candidates = candidates - {v}
            excluded = excluded | {v}

    order = {name: (mean_ranks[name], j) for j, name in enumerate(names)}
    try:
        expand(set(), set(names), set())
    except _TooMany:
        if not fallback:
            raise ValueError(
                f"the {len(names)} algorithms have more than {limit:,} maximal "
                "groups without a significant difference inside: too many to "
                "list."
            ) from None
        warnings.warn(
            f"the {len(names)} algorithms have more than {limit:,} maximal groups "
            "without a significant difference inside; groups lists the runs of "
            "algorithms consecutive in mean rank instead (as a critical-"
            "difference diagram draws them).",
            UserWarning,
            stacklevel=3,
        )
        return _rank_runs(names, rejected, order)
    groups = [tuple(sorted(c, key=order.__getitem__)) for c in cliques]
    return sorted(groups, key=lambda g: [order[a] for a in g])


def _rank_runs(
    names: list[str], rejected: Any, order: dict[str, Any]
) -> list[tuple[str, ...]]:
    """Maximal runs of algorithms consecutive in mean rank, none rejected inside."""
    ranked = sorted(range(len(names)), key=lambda j: order[names[j]])
    runs: list[tuple[str, ...]] = []
    last_end = -1
    for start in range(len(ranked)):
        end = start
        while end + 1 < len(ranked) and not any(
            rejected[ranked[end + 1], ranked[i]] for i in range(start, end + 1)
        ):
            end += 1
        if end > last_end:  # not inside the previous run
            runs.append(tuple(names[j] for j in ranked[start : end + 1]))
            last_end = end
    return runs
