"""Per-pair values as m × m matrices, without a vector of every pair more
than needed: at 4000 algorithms a matrix is 128 MB and a vector of the 8
million pairs 64 MB (the memory rule of ``posthoc``: 1 GB at any size)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import pandas as pd

from nbstats.results.frequentist import frame_of_pairs
from nbstats.stats.effect_size import rank_biserial_columns
from nbstats.util.memory import budget

__all__ = [
    "EFFECT_BLOCK",
    "all_pairs",
    "effect_block_cells",
    "effect_blocks",
    "effect_square",
    "pair_square",
]

#: Cells (cases × pairs) of one block of the effect sizes: the differences,
#: their ranks and masks stay at a few MB whatever the number of pairs.
EFFECT_BLOCK = 2**18
#: Bytes a cell of such a block takes while it is ranked (measured: 64).
EFFECT_CELL_BYTES = 64


def effect_block_cells() -> int:
    """Cells of one block of the effect sizes: :data:`EFFECT_BLOCK`, or fewer
    under a low memory ceiling (at most an eighth of it).

    Examples
    --------
    >>> effect_block_cells() <= EFFECT_BLOCK
    True
    """
    return max(1, min(EFFECT_BLOCK, budget() // EFFECT_CELL_BYTES))


def all_pairs(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j), i < j, in row-major order, as two int32 vectors.

    The order of ``itertools.combinations(range(k), 2)``, without its tuples.

    Examples
    --------
    >>> first, second = all_pairs(4)
    >>> list(zip(first.tolist(), second.tolist()))
    [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    """
    sizes = np.arange(k - 1, 0, -1)  # pairs of each first algorithm
    first = np.repeat(np.arange(k - 1, dtype=np.int32), sizes)
    # the second runs i + 1, ..., k - 1 within each first i
    starts = np.cumsum(sizes) - sizes  # where each first's run starts
    second = np.arange(first.size, dtype=np.int32)
    second -= np.repeat((starts - np.arange(1, k)).astype(np.int32), sizes)
    return first, second


def pair_square(
    names: list[str],
    values: np.ndarray,
    *,
    mirrored: np.ndarray | str | None = None,
    fill: float | bool = np.nan,
) -> pd.DataFrame:
    """Square matrix of all pairs (in the order of :func:`all_pairs`):
    ``values`` at (a, b), ``mirrored`` (or ``values``, or ``-values`` for
    ``"negated"``) at (b, a), ``fill`` on the diagonal.

    Examples
    --------
    >>> pair_square(["a", "b", "c"], np.array([1.0, 2.0, 3.0]), mirrored="negated")
    algorithm    a    b    c
    algorithm
    a          NaN  1.0  2.0
    b         -1.0  NaN  3.0
    c         -2.0 -3.0  NaN
    """
    k = len(names)
    # a boolean mask, not index vectors: numpy converts int32 indices to
    # intp, two transient vectors of every pair
    upper = np.triu(np.ones((k, k), dtype=bool), 1)
    square = np.full((k, k), fill, dtype=np.asarray(values).dtype)
    square[upper] = values
    below = square.T  # (b, a) in the same order as (a, b) above
    if isinstance(mirrored, str):
        below[upper] = values
        np.negative(below, out=below, where=upper)
    else:
        below[upper] = values if mirrored is None else mirrored
    return frame_of_pairs(names, square)


def effect_blocks(
    values: np.ndarray, present: np.ndarray, first: np.ndarray, second: np.ndarray
) -> Iterator[tuple[slice, np.ndarray]]:
    """The rank-biserial r of ``values[:, second] − values[:, first]`` for
    every pair, on the cases both have: ``(pairs, r)`` a block at a time.

    ``present`` marks the scores a case has (cases × algorithms).

    Examples
    --------
    >>> values = np.array([[1.0, 2.0], [3.0, 5.0], [2.0, 1.5]])
    >>> first, second = all_pairs(2)
    >>> [r.tolist() for _, r in effect_blocks(values, values == values, first, second)]
    [[0.6666666666666666]]
    """
    n = values.shape[0]
    step = max(1, effect_block_cells() // max(n, 1))
    for start in range(0, first.size, step):
        block = slice(start, start + step)
        i, j = first[block], second[block]
        both = present[:, i] & present[:, j]
        yield (
            block,
            rank_biserial_columns(np.where(both, values[:, j] - values[:, i], np.nan)),
        )


def effect_square(
    names: list[str],
    first: np.ndarray,
    second: np.ndarray,
    blocks: Iterable[tuple[slice, np.ndarray]],
) -> pd.DataFrame:
    """The antisymmetric matrix of per-pair values that come in blocks (no
    vector of all pairs: 64 MB at 4000 algorithms).

    Examples
    --------
    >>> first, second = all_pairs(3)
    >>> blocks = [(slice(0, 2), np.array([0.5, 1.0])), (slice(2, 3), np.array([-1.0]))]
    >>> effect_square(["a", "b", "c"], first, second, blocks).loc["c"].tolist()
    [-1.0, 1.0, nan]
    """
    k = len(names)
    square = np.full((k, k), np.nan)
    for block, values in blocks:
        square[first[block], second[block]] = values
        square[second[block], first[block]] = -values
    return frame_of_pairs(names, square)
