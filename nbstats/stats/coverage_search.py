"""Which algorithms to leave out so that the most cases are complete.

Leaving out a set D of algorithms makes a case complete when every algorithm
it misses is in D. For each size d the best D is the most cases whose
missing sets lie inside a set of d algorithms: a maximum-coverage (or
maximum-biclique) problem, NP-hard in general. Two exact methods are used
where they are cheap, and a stated greedy search otherwise:

- *subset sums* (``h`` ≤ :data:`SUBSET_SUM_MAX` algorithms with holes): the
  number of complete cases for **every** subset of those ``h`` algorithms,
  by the sum-over-subsets transform (``h · 2^h`` additions), then the best
  subset of each size;
- *integer programme* (more algorithms with holes): for each d, maximise
  ``Σ_p w_p y_p`` subject to ``y_p ≤ x_j`` (j in pattern p's missing set),
  ``Σ_j x_j ≤ d``, x and y binary, where a pattern p is one distinct missing
  set and ``w_p`` its number of cases. The best of the greedy set and the
  previous size's set grown by one algorithm is proven optimal when the
  linear relaxation's bound (rounded down) equals its count; otherwise
  HiGHS's branch and bound (:func:`scipy.optimize.milp`) solves the
  programme with a node limit, so a row is either proven optimal or keeps
  the best set found and is marked not proven;
- *greedy*: leave out, one at a time, the algorithm that completes the most
  further cases (ties: the one with the most missing cells among the cases
  still incomplete, then the first column).
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np

__all__ = ["SUBSET_SUM_MAX", "Frontier", "best_left_out", "complete_count"]

#: Up to this many algorithms with holes, every subset is counted (2^h sums).
SUBSET_SUM_MAX = 20

#: Branch-and-bound nodes per size before the best set found is kept instead.
NODE_LIMIT = 20_000
#: Branch-and-bound runs (the smallest sizes first) before the remaining sizes
#: rely on the linear relaxation's bound alone ("auto": a bounded effort).
MAX_PROGRAMMES = 30
#: Seconds of proof in all (linear bounds and branch and bound), over every
#: size ("auto"). Nodes alone do not bound the time: a node's linear
#: programme grows with the table (benchmarks/bench_coverage.py). A row the
#: budget cuts short keeps the best set found and is marked not proven, as
#: past the node limit; which rows get proven may then differ between
#: machines, never a stated count.
TIME_BUDGET = 5.0


@dataclasses.dataclass(frozen=True)
class Frontier:
    """The trade-off found: one entry per number of algorithms left out.

    ``left_out[i]`` is a tuple of column indices, ``n_cases[i]`` the complete
    cases it leaves, ``exact[i]`` whether no set of that size or smaller keeps
    more; ``search`` names the method.
    """

    left_out: list[tuple[int, ...]]
    n_cases: list[int]
    exact: list[bool]
    search: str


def complete_count(missing: np.ndarray, left_out: tuple[int, ...] | list[int]) -> int:
    """How many rows of the boolean ``missing`` matrix have no hole outside
    the columns ``left_out``."""
    keep = np.ones(missing.shape[1], dtype=bool)
    keep[list(left_out)] = False
    return int((~missing[:, keep].any(axis=1)).sum())


def best_left_out(missing: np.ndarray, *, method: str = "auto") -> Frontier:
    """The most complete cases for each number of algorithms left out.

    Parameters
    ----------
    missing : ndarray of bool, shape (n_cases, n_algorithms)
        True where a score is missing.
    method : {"auto", "exact", "greedy"}
        ``"auto"``: subset sums when at most :data:`SUBSET_SUM_MAX` algorithms
        have holes, else the integer programme with a node limit and at most
        :data:`MAX_PROGRAMMES` branch-and-bound runs (a size it cannot prove
        keeps the best set found, marked). ``"exact"``: no limit.
        ``"greedy"``: the greedy search only.

    Returns
    -------
    Frontier
        For ``d = 0, 1, …`` up to ``n_algorithms − 2`` or until every case
        that can be complete is: the best set of ``d`` algorithms found, on
        the frontier only (a size that keeps no more cases than a smaller one
        is left out).

    Examples
    --------
    >>> m = np.array([[0, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 1]], dtype=bool)
    >>> f = best_left_out(m)
    >>> f.left_out, f.n_cases
    ([(), (0,)], [1, 3])
    """
    m = missing.shape[1]
    holed = np.flatnonzero(missing.any(axis=0))
    max_drop = min(len(holed), m - 2)
    patterns = Counter(
        tuple(np.flatnonzero(row)) for row in missing if row.sum() <= max_drop
    )
    greedy = _greedy(missing, max_drop)
    if method == "greedy":
        rows = [(d, n_, False) for d, n_ in greedy]
        search = "greedy (one algorithm at a time; not proven optimal)"
    elif len(holed) <= SUBSET_SUM_MAX:
        rows = [(d, n_, True) for d, n_ in _subset_sums(patterns, holed, max_drop)]
        search = (
            f"exact: every subset of the {len(holed)} algorithm"
            f"{'s' if len(holed) != 1 else ''} with holes (sum over subsets)"
        )
    else:
        limits = (
            (None, None, None)
            if method == "exact"
            else (NODE_LIMIT, MAX_PROGRAMMES, TIME_BUDGET)
        )
        rows = _integer_programme(patterns, m, max_drop, greedy, *limits)
        search = (
            "exact: integer programme (linear-relaxation bounds, HiGHS branch "
            "and bound)"
            if all(r[2] for r in rows)
            else "integer programme (HiGHS) where proven (within "
            f"{NODE_LIMIT:,} nodes, for the first {MAX_PROGRAMMES} sizes the "
            f"linear bound does not settle, {TIME_BUDGET:g} s in all); elsewhere "
            "the best set found (greedy, or the row above grown by one), marked "
            "not proven"
        )
    rows = [(_needed(missing, drop), count, proven) for drop, count, proven in rows]
    return _frontier(rows, search)


def _needed(missing: np.ndarray, drop: tuple[int, ...]) -> tuple[int, ...]:
    """The algorithms of ``drop`` that some case it completes misses (the
    others are left out for nothing)."""
    keep = np.ones(missing.shape[1], dtype=bool)
    keep[list(drop)] = False
    complete = ~missing[:, keep].any(axis=1)
    return tuple(int(j) for j in drop if missing[complete, j].any())


def _frontier(rows: list[tuple[tuple[int, ...], int, bool]], search: str) -> Frontier:
    """Keep the sizes that keep more cases than every smaller size."""
    left_out, counts, exact = [], [], []
    best = -1
    for drop, count, proven in rows:
        if count > best:
            left_out.append(tuple(sorted(int(j) for j in drop)))
            counts.append(int(count))
            exact.append(bool(proven))
            best = count
    return Frontier(left_out, counts, exact, search)


def _greedy(missing: np.ndarray, max_drop: int) -> list[tuple[tuple[int, ...], int]]:
    keep = np.ones(missing.shape[1], dtype=bool)
    drop: list[int] = []
    rows = [((), complete_count(missing, ()))]
    for _ in range(max_drop):
        candidates = np.flatnonzero(keep)
        held = missing[:, keep]
        open_rows = held.any(axis=1)
        complete = int((~open_rows).sum())
        # leaving out j completes the cases that miss j alone among those kept
        alone = held.sum(axis=1) == 1
        gained = np.zeros(missing.shape[1], dtype=np.int64)
        np.add.at(gained, candidates[held[alone].argmax(axis=1)], 1)
        holes = missing[open_rows].sum(axis=0)
        # most cases completed, then most holes among the open cases, then
        # the first column (lexsort: last key first)
        order = np.lexsort((candidates, -holes[candidates], -gained[candidates]))
        j = int(candidates[order[0]])
        keep[j] = False
        drop.append(j)
        rows.append((tuple(drop), complete + int(gained[j])))
    return rows


def _subset_sums(
    patterns: Counter, holed: np.ndarray, max_drop: int
) -> list[tuple[tuple[int, ...], int]]:
    h = len(holed)
    bit = {int(j): i for i, j in enumerate(holed)}
    sums = np.zeros(1 << h, dtype=np.int64)
    for pattern, weight in patterns.items():
        sums[sum(1 << bit[j] for j in pattern)] += weight
    # sum over subsets: sums[S] = Σ_{T ⊆ S} weight(T)
    for i in range(h):
        view = sums.reshape(-1, 2, 1 << i)
        view[:, 1, :] += view[:, 0, :]
    sizes = np.zeros(1 << h, dtype=np.int64)
    for i in range(h):
        sizes += (np.arange(1 << h) >> i) & 1
    rows = []
    for d in range(max_drop + 1):
        masks = np.flatnonzero(sizes == d)
        best = int(masks[np.argmax(sums[masks])])
        drop = tuple(int(holed[i]) for i in range(h) if best >> i & 1)
        rows.append((drop, int(sums[best])))
    return rows


def _integer_programme(
    patterns: Counter,
    m: int,
    max_drop: int,
    greedy: list[tuple[tuple[int, ...], int]],
    node_limit: int | None,
    max_programmes: int | None = None,
    time_budget: float | None = None,
) -> list[tuple[tuple[int, ...], int, bool]]:
    """For each d: the best of the greedy set and the previous row's set
    grown by one algorithm; proven by the LP relaxation's bound when it
    matches, else by branch and bound (which starts from that count), for
    ``time_budget`` seconds in all."""
    import time

    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    deadline = None if time_budget is None else time.monotonic() + time_budget

    empty = patterns.get((), 0)
    rows: list[tuple[tuple[int, ...], int, bool]] = [((), empty, True)]
    reachable = sum(patterns.values())

    def count_of(drop: tuple[int, ...]) -> int:
        inside = set(drop)
        return sum(w for p, w in patterns.items() if inside.issuperset(p))

    runs = 0
    for d in range(1, max_drop + 1):
        if rows[-1][1] == reachable:
            break
        used = [(p, w) for p, w in patterns.items() if 0 < len(p) <= d]
        previous = rows[-1][0]
        grown = _grown(patterns, previous, m)
        incumbent = max([grown, greedy[min(d, len(greedy) - 1)][0]], key=count_of)
        best = count_of(incumbent)
        if best == empty + sum(w for _, w in used):  # every case within reach
            rows.append((incumbent, best, True))
            continue
        if deadline is not None and time.monotonic() > deadline:
            rows.append((incumbent, best, False))  # the budget also bounds the LPs
            continue
        a, upper, weights = _programme(used, m, d)
        cost = np.concatenate([np.zeros(m), -weights])
        relaxed = linprog(cost, A_ub=a, b_ub=upper, bounds=(0, 1), method="highs")
        if relaxed.status == 0 and empty + np.floor(-relaxed.fun + 1e-7) <= best:
            rows.append((incumbent, best, True))  # no set can beat the bound
            continue
        left = None if deadline is None else deadline - time.monotonic()
        spent = max_programmes is not None and runs >= max_programmes
        if spent or (left is not None and left <= 0):
            rows.append((incumbent, best, False))
            continue
        runs += 1
        # the programme, told that the incumbent's count is reachable
        floor = np.zeros((1, a.shape[1]))
        floor[0, m:] = weights
        options: dict[str, float] = {}
        if node_limit is not None:
            options["node_limit"] = node_limit
        if left is not None:
            options["time_limit"] = left
        res = milp(
            cost,
            constraints=[
                LinearConstraint(a, -np.inf, upper),
                LinearConstraint(floor, best - empty - 0.5, np.inf),
            ],
            integrality=np.ones(a.shape[1]),
            bounds=Bounds(0, 1),
            options=options,
        )
        proven = res.status == 0
        if res.x is not None:
            drop = tuple(int(j) for j in np.flatnonzero(res.x[:m] > 0.5))
            if count_of(drop) > best:
                incumbent, best = drop, count_of(drop)
        rows.append((incumbent, best, proven))
    return rows


def _grown(patterns: Counter, previous: tuple[int, ...], m: int) -> tuple[int, ...]:
    """``previous`` and the one algorithm more that completes the most cases
    (ties: the first column): a pattern is completed by ``j`` when ``j`` is
    the only one of its algorithms outside ``previous``."""
    inside = set(previous)
    gained = np.zeros(m, dtype=np.int64)
    for pattern, weight in patterns.items():
        outside = [j for j in pattern if j not in inside]
        if len(outside) == 1:
            gained[outside[0]] += weight
    gained[list(previous)] = -1
    return tuple(sorted((*previous, int(np.argmax(gained)))))


def _programme(
    used: list[tuple[tuple[int, ...], int]], m: int, d: int
) -> tuple[object, np.ndarray, np.ndarray]:
    """``A x <= b`` of the programme: ``y_p - x_j <= 0`` for each algorithm j
    of pattern p, and ``Σ x_j <= d``; variables x_0..x_{m-1}, then y."""
    from scipy.sparse import coo_matrix

    links = [(i, j) for i, (pattern, _) in enumerate(used) for j in pattern]
    r = np.arange(len(links))
    pattern_of = np.array([i for i, _ in links], dtype=np.int64)
    algorithm = np.array([j for _, j in links], dtype=np.int64)
    rows = np.concatenate([r, r, np.full(m, len(links))])
    cols = np.concatenate([m + pattern_of, algorithm, np.arange(m)])
    values = np.concatenate([np.ones(len(links)), -np.ones(len(links)), np.ones(m)])
    a = coo_matrix((values, (rows, cols)), shape=(len(links) + 1, m + len(used)))
    upper = np.zeros(len(links) + 1)
    upper[-1] = d
    weights = np.array([w for _, w in used], dtype=float)
    return a.tocsr(), upper, weights
