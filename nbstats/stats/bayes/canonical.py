"""One canonical orientation and order for the Monte Carlo of the Bayesian tests.

A posterior draw puts Dirichlet weights on cases; which weight lands on which
case depends on how the cases and the algorithms are laid out. Without a
rule, the same data in another column order, another row order or with a and
b swapped gave other draws, hence other Monte Carlo estimates — enough to turn
a decision over (issue 30: the report ordered the pairs by rank, the
dashboard by column). The rules here make every draw depend on the data
alone:

- a *pair* is drawn in one orientation, chosen from its differences z
  (:func:`flipped`): z if ``sort(z)`` is lexicographically smaller than
  ``sort(-z)``, else -z (ties: by name). Asking for (b, a) then mirrors the
  canonical result (left and right swap; θ becomes 1 − θ), exactly;
- a *table* (joint statements, the Bayesian Friedman test) is put in one
  column order (:func:`column_order`: by the sorted contents of each column,
  then by name) and one row order (:func:`row_order`: cases sorted by their
  scores in that column order), computed there and mapped back.

When the data leave a tie — two unnamed columns whose values are a
permutation of each other, a pair whose differences are symmetric — names
decide; equal names keep the given order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = [
    "canonical_table",
    "column_order",
    "flipped",
    "flipped_many",
    "layout",
    "row_order",
]


def _first_difference(u: np.ndarray, v: np.ndarray) -> int:
    """-1 if u < v lexicographically, 1 if u > v, 0 if equal (NaN last, NaN
    equal to NaN)."""
    u_nan, v_nan = np.isnan(u), np.isnan(v)
    differ = (u != v) & ~(u_nan & v_nan)
    where = np.flatnonzero(differ)
    if where.size == 0:
        return 0
    k = where[0]
    if u_nan[k]:
        return 1
    if v_nan[k]:
        return -1
    return -1 if u[k] < v[k] else 1


def flipped(z: np.ndarray, name_a: str = "", name_b: str = "") -> bool:
    """Whether the pair with differences ``z = b - a`` is drawn as (b, a).

    The canonical orientation is the one whose sorted differences are the
    lexicographically smaller of ``sort(z)`` and ``sort(-z)``; a tie (a
    symmetric set of differences) goes to the orientation that names the
    smaller name first.

    Examples
    --------
    >>> flipped(np.array([0.3, -0.1, 0.2]))  # sort(-z) starts at -0.3 < -0.1
    True
    >>> flipped(np.array([-0.3, 0.1, 0.2]))
    False
    >>> symmetric = np.array([1.0, -1.0])  # a tie: the names decide
    >>> flipped(symmetric, "b", "a"), flipped(-symmetric, "a", "b")
    (True, False)
    """
    z = np.asarray(z, dtype=float)
    u = np.sort(z)
    order = _first_difference(u, -u[::-1])
    if order == 0:
        return str(name_a) > str(name_b)
    return order > 0


def flipped_many(diffs: np.ndarray, names: Sequence[tuple[str, str]]) -> np.ndarray:
    """:func:`flipped` of every column of ``diffs`` (n cases × K pairs), with
    ``names[k] = (name_a, name_b)`` for the ties.

    Examples
    --------
    >>> flipped_many(np.array([[0.3, -0.3], [-0.1, 0.1]]), [("a", "b")] * 2).tolist()
    [True, False]
    """
    diffs = np.asarray(diffs, dtype=float)
    u = np.sort(diffs, axis=0)
    v = -u[::-1]
    differ = u != v
    first = np.argmax(differ, axis=0)
    columns = np.arange(diffs.shape[1])
    any_difference = differ[first, columns]
    greater = u[first, columns] > v[first, columns]
    out = np.where(any_difference, greater, False)
    for k in np.flatnonzero(~any_difference):
        out[k] = str(names[k][0]) > str(names[k][1])
    return out


def column_order(values: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """The canonical order of the columns of ``values`` (n × m): by their
    sorted contents, lexicographically (NaN last), then by name, then as
    given.

    Examples
    --------
    >>> values = np.array([[3.0, 1.0, 1.0], [0.0, 2.0, 2.0]])
    >>> column_order(values, ["x", "z", "y"]).tolist()
    [0, 2, 1]
    """
    values = np.asarray(values, dtype=float)
    contents = np.sort(values, axis=0)  # NaN sort last
    name_rank = np.unique(np.asarray([str(n) for n in names]), return_inverse=True)[1]
    # np.lexsort: the last key is the primary one
    keys = [np.arange(values.shape[1]), name_rank]
    keys += [contents[k] for k in range(contents.shape[0] - 1, -1, -1)]
    return np.lexsort(keys)


def row_order(values: np.ndarray) -> np.ndarray:
    """The canonical order of the rows of ``values`` (n × m, columns already
    in their canonical order): lexicographic by the scores, first column
    first. Equal rows keep their order (they are interchangeable).

    Examples
    --------
    >>> row_order(np.array([[2.0, 0.0], [1.0, 5.0], [2.0, -1.0]])).tolist()
    [1, 2, 0]
    """
    values = np.asarray(values, dtype=float)
    if values.shape[1] == 0:
        return np.arange(values.shape[0])
    keys = [values[:, k] for k in range(values.shape[1] - 1, -1, -1)]
    return np.lexsort(keys)


def canonical_table(
    values: np.ndarray, names: Sequence[str]
) -> tuple[np.ndarray, list[str], np.ndarray]:
    """``(values, names, columns)`` in the canonical layout: columns by
    :func:`column_order` (``columns[k]`` is the given position of canonical
    column k), then rows by :func:`row_order`.

    Examples
    --------
    >>> values = np.array([[3.0, 1.0], [0.0, 2.0]])
    >>> table, names, columns = canonical_table(values, ["x", "y"])
    >>> table.tolist(), names, columns.tolist()
    ([[0.0, 2.0], [3.0, 1.0]], ['x', 'y'], [0, 1])
    """
    rows, columns = layout(values, names)
    values = np.asarray(values, dtype=float)[np.ix_(rows, columns)]
    return values, [names[c] for c in columns], columns


def layout(values: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, columns)``: the permutations that put ``values`` in its
    canonical layout, ``values[np.ix_(rows, columns)]`` (see
    :func:`canonical_table`).

    Examples
    --------
    >>> rows, columns = layout(np.array([[3.0, 1.0], [0.0, 2.0]]), ["y", "x"])
    >>> rows.tolist(), columns.tolist()
    ([1, 0], [0, 1])
    """
    values = np.asarray(values, dtype=float)
    columns = column_order(values, names)
    return row_order(values[:, columns]), columns
