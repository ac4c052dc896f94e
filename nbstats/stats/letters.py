"""Compact letter display: algorithms that share a letter are not different."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.letters import LettersResult, group_labels
from nbstats.stats.groups import nonsignificant_groups

__all__ = ["letters"]


def letters(result: Any, mean_ranks: pd.Series | None = None) -> LettersResult:
    """Compact letter display of a post-hoc result (Piepho 2004).

    Two algorithms share a letter exactly when the post-hoc procedure did
    not find them different. Each letter is a maximal group of algorithms
    with no significant difference inside (the cliques of
    :attr:`PosthocResult.groups`); groups whose every pair (and member) is
    already covered by the other groups are dropped, so no letter is
    redundant. Letter "a" goes to the group of the best-ranked algorithm,
    then in order of each group's best rank; after "z" come "A" … "Z", then
    "aa", "ab", ….

    Parameters
    ----------
    result : PosthocResult or DataFrame
        A post-hoc result comparing all pairs (anything with a square
        ``reject`` DataFrame and ``mean_ranks``), or the square boolean
        matrix of rejected pairs itself (then give ``mean_ranks``).
    mean_ranks : Series, optional
        Orders the algorithms and letters (1 = best); default: the result's.

    Returns
    -------
    LettersResult
        ``.letters``: the letters of each algorithm (a Series), best-ranked
        first; ``.groups``: the algorithms of each letter. Displays as a
        table (text, HTML, and ``to_latex()`` with every name escaped).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"),
    ...                       method="nemenyi", alpha=0.10)
    >>> shown = nbstats.letters(res)
    >>> shown.letters.to_dict()
    {'C4.5+m+cf': 'a', 'C4.5+m': 'a', 'C4.5+cf': 'ab', 'C4.5': 'b'}
    >>> shown.groups
    (('C4.5+m+cf', 'C4.5+m', 'C4.5+cf'), ('C4.5+cf', 'C4.5'))
    """
    reject = _reject_matrix(result)
    if mean_ranks is None:
        mean_ranks = getattr(result, "mean_ranks", None)
        if mean_ranks is None:
            raise ValueError("give mean_ranks to order the algorithms and letters.")
    else:
        mean_ranks = _checked_mean_ranks(mean_ranks, list(reject.index))
    reject = reject.fillna(False).astype(bool)
    try:
        groups = nonsignificant_groups(reject, mean_ranks, fallback=False)
    except ValueError as error:
        raise ValueError(
            f"{error} A letter display would need a letter for each; show the "
            "significant pairs as a matrix instead (e.g. nbstats.plots."
            "pairwise_heatmap)."
        ) from None
    kept = _without_redundant(groups, list(reject.index))
    labels = group_labels(len(kept))
    order = sorted(reject.index, key=lambda a: mean_ranks[a])
    shown: dict[Any, list[str]] = {name: [] for name in order}
    for label, group in zip(labels, kept, strict=True):
        for name in group:
            shown[name].append(label)
    return LettersResult(
        letters=pd.Series(
            {name: "".join(parts) for name, parts in shown.items()},
            name="letters",
            dtype=object,
        ),
        mean_ranks=pd.Series(mean_ranks, dtype=float).reindex(order),
        groups=tuple(tuple(group) for group in kept),
        method=getattr(result, "method", None),
        alpha=getattr(result, "alpha", None),
    )


def _without_redundant(
    groups: list[tuple[str, ...]], names: list[str]
) -> list[tuple[str, ...]]:
    """Drop groups whose pairs and members the other groups already cover,
    the largest last to go (smaller groups first).

    ``count[a, b]`` is the number of kept groups holding both a and b (and
    ``count[a, a]`` those holding a): a group is covered by the others when
    every one of its cells is counted at least twice (itself and another).
    """
    position = {name: i for i, name in enumerate(names)}
    members = [np.array([position[a] for a in g], dtype=np.intp) for g in groups]
    count = np.zeros((len(names), len(names)), dtype=np.int32)
    for index in members:
        count[np.ix_(index, index)] += 1
    dropped = set()
    for g in sorted(range(len(groups)), key=lambda g: len(groups[g])):
        block = np.ix_(members[g], members[g])
        if count[block].min() >= 2:
            count[block] -= 1
            dropped.add(g)
    return [group for g, group in enumerate(groups) if g not in dropped]


def _reject_matrix(result: Any) -> pd.DataFrame:
    """The square matrix of rejected pairs, refused by name when ``result``
    holds none."""
    if isinstance(result, pd.DataFrame):
        reject = result
    else:
        reject = getattr(result, "reject", None)
        if reject is None:
            raise TypeError(
                "result must be a post-hoc result comparing every pair (e.g. "
                "nbstats.posthoc(scores)) or the square DataFrame of rejected "
                f"pairs, got {type(result).__name__}."
            )
        if not isinstance(reject, pd.DataFrame):
            raise ValueError(
                "letters need every pair compared; this post-hoc result (result=) "
                "compares against a control only. Run nbstats.posthoc without "
                "control=."
            )
    if list(reject.index) != list(reject.columns):
        raise ValueError(
            "result: the reject matrix must be square, with the same names."
        )
    return reject


def _checked_mean_ranks(mean_ranks: object, names: list[Any]) -> pd.Series:
    """``mean_ranks`` as a float Series with a rank for every algorithm."""
    if not isinstance(mean_ranks, pd.Series):
        raise TypeError(
            "mean_ranks must be a Series of mean ranks indexed by the algorithms, "
            f"got {type(mean_ranks).__name__}."
        )
    missing = [name for name in names if name not in mean_ranks.index]
    if missing:
        raise ValueError(
            f"mean_ranks has no rank for {missing}; it must give one for every "
            f"algorithm of the result ({names})."
        )
    try:
        return mean_ranks.astype(float)
    except (TypeError, ValueError):
        raise TypeError(
            f"mean_ranks must hold numbers, got dtype {mean_ranks.dtype}."
        ) from None
