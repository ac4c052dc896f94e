"""Groups of algorithms with no significant difference inside."""

from __future__ import annotations

import pandas as pd

__all__ = ["nonsignificant_groups"]


def nonsignificant_groups(
    reject: pd.DataFrame, mean_ranks: pd.Series
) -> list[tuple[str, ...]]:
    """Maximal sets of algorithms with no significant difference inside.

    These are the maximal cliques of the graph joining every pair that is *not*
    rejected (Bron–Kerbosch with pivoting; k is small, so plain sets are fine).
    Each group is ordered by mean rank (best first), groups by their best rank.

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
            return
        pivot = max(
            candidates | excluded, key=lambda v: len(neighbours[v] & candidates)
        )
        for v in list(candidates - neighbours[pivot]):
            expand(clique | {v}, candidates & neighbours[v], excluded & neighbours[v])
            candidates = candidates - {v}
            excluded = excluded | {v}

    expand(set(), set(names), set())
    order = {name: (mean_ranks[name], j) for j, name in enumerate(names)}
    groups = [tuple(sorted(c, key=order.__getitem__)) for c in cliques]
    return sorted(groups, key=lambda g: [order[a] for a in g])
