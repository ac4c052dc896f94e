"""Which pairs a long pairwise table shows, and how it states their effects.

- :func:`adjacent_pairs`, :func:`ranking_order`: the pairs that matter in a
  long pairwise table (neighbours in the ranking);
- :func:`effect_text`, :data:`EFFECT_TEXT`, :func:`effect_caption`: the
  pairwise tables' effect-size column, explained once and then referred to.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nbstats.reporting.display import (
    defined_at,
    pointer,
    ref,
)
from nbstats.results.effect_size import MAGNITUDE_BOUNDS

__all__ = [
    "EFFECT_TEXT",
    "adjacent_pairs",
    "effect_caption",
    "effect_text",
    "ranking_order",
]


def adjacent_pairs(
    a: Sequence[str], b: Sequence[str], order: Sequence[str]
) -> np.ndarray:
    """Mask of the pairs (a[i], b[i]) whose members are neighbours in ``order``."""
    position = {name: i for i, name in enumerate(order)}
    return np.array(
        [abs(position[x] - position[y]) == 1 for x, y in zip(a, b, strict=True)],
        dtype=bool,
    )


def ranking_order(
    a: Sequence[str], b: Sequence[str], order: Sequence[str]
) -> np.ndarray:
    """The indices that list the pairs (a[i], b[i]) best first.

    A pair's place is that of its better-ranked member in ``order`` (best
    first), then that of the other member.

    Examples
    --------
    >>> ranking_order(["C", "A", "B"], ["B", "B", "A"], ["A", "B", "C"]).tolist()
    [1, 2, 0]
    """
    position = {name: i for i, name in enumerate(order)}
    places = [sorted((position[x], position[y])) for x, y in zip(a, b, strict=True)]
    first = np.array([p[0] for p in places], dtype=int)
    second = np.array([p[1] for p in places], dtype=int)
    return np.lexsort((second, first))


def effect_text(minuend: str = "second", subtrahend: str = "first") -> str:
    """What a pairwise table's effect column r is (ends a caption): the
    rank-biserial correlation of the ``minuend`` algorithm of a row minus the
    ``subtrahend``, and the bounds of its magnitude words.

    Examples
    --------
    >>> effect_text("first", "second").split("; ")[-1]
    '|r| < 0.1 negligible, < 0.3 small, < 0.5 medium, else large).'
    """
    bounds = MAGNITUDE_BOUNDS["rank-biserial"]
    words = ", < ".join(
        f"{bound:g} {word}"
        for bound, word in zip(bounds, ("negligible", "small", "medium"), strict=True)
    )
    return (
        "; r: the effect size, the matched-pairs rank-biserial correlation of the "
        f"{minuend} minus the {subtrahend} (> 0 when the {minuend} is better; "
        f"|r| < {words}, else large)."
    )


#: The pairwise tables' effect column: rows "a vs b", r of b − a.
EFFECT_TEXT = effect_text()


def effect_caption(label: str) -> str:
    """The end of the caption of the pairwise table ``label`` about its
    effect column r: the definition (:data:`EFFECT_TEXT`) at the report's
    first table with r, a pointer to that table at every later one, so that
    a report states its one sign convention once, where the reader meets it.

    Examples
    --------
    >>> from nbstats.reporting.display import kept_state, start
    >>> with kept_state():
    ...     start(tables=["tab:nemenyi", "tab:holm"], figure_formats=())
    ...     print(effect_caption("tab:nemenyi") == EFFECT_TEXT)
    ...     print(effect_caption("tab:holm"))
    True
    ; r (effect size) as in Table 1.
    """
    first = defined_at("r", label)
    if first is None:
        return EFFECT_TEXT
    return pointer(f"; r (effect size) as in {ref(first).text}.", EFFECT_TEXT)
