"""Exact near-ignorance bounds of the rope's regions: every placement of the prior.

Under the near-ignorance prior (IDP) of :func:`nbstats.bayes_signrank` the
prior set is the Dirichlet processes of strength s with any base measure;
its extreme points, where Benavoli et al. (2014, Theorem 4) find the lower
and upper posteriors, put the prior's pseudo-observation at one place z0
(±∞ included). A posterior draw then gives weights ``(w0, w1, …, wn) ~
Dir(s, 1, …, 1)`` and, with a rope, each region's share of the pairs:
left ``Σ_ij w_i w_j H(−(z_i + z_j) − 2 rope)`` over i, j = 0 … n (z_0 =
z0), right ``H(z_i + z_j − 2 rope)`` likewise, the rope the rest. The
posterior probability of a region at z0 is the share of draws in which it
is the most probable of the three (ties to the first of left, rope, right,
as baycomp), and its lower and upper probability are the minimum and the
maximum of that share over z0, on the same draws.

Only the pseudo-observation's pairs depend on z0, and each is in a region
or not (or half in it, H(0) = ½) by where z0 lies among finitely many event
times: ``−2 rope − z_j`` (its pair with case j leaves the left region),
``2 rope − z_j`` (it enters the right one), ``∓rope`` (its pair with
itself). So the share of every region is constant on each open interval
between consecutive event times and at each event time: those ``2G + 1``
states (G distinct times, at most ``2n + 2``; the ends are z0 = ±∞) are
every placement there is, and the bounds are the minimum and maximum of
each region's count over them
(:func:`~nbstats.stats.bayes.signrank.placement_kernel.placement_states`).

Counting every state in every draw costs O(n) per draw on top of the sums.
Most draws need one look: with ``e`` the pseudo-observation's share of the
pairs, every placement's (left, rope, right) lies in the triangle
``(lo + x, 1 − lo − hi − x − y, hi + y)``, ``x, y ≥ 0``, ``x + y ≤ e``
(``lo``, ``hi``: the cases' own shares), and the set where a region wins is
convex; so when one region wins at the triangle's three corners (by more
than a rounding margin) it wins at every placement, and that draw counts
once for all states. Only the others — a few per cent of the draws where a
pair is near a decision — are evaluated at every state, 64 at a time
(:func:`~nbstats.stats.bayes.signrank.placement_kernel.placement_counts`). The
result is the count at every state, exactly; nothing is approximated.

These counts are a sum over draws: for batches of draws add ``base`` and
``placed`` of each batch (:func:`placement_counts`) and take the minimum
and maximum (:func:`placement_bounds`) once, at the end — the minimum of a
sum is not the sum of the minima.

Without a rope no search is needed: θ(w) grows with z0 in every draw (a
pair moves only from "below" to "above" as z0 grows), so P(θ > ½) and
P(θ < ½) are monotone in z0 and their bounds are the placements at −∞ and
+∞, the lower and upper posteriors of Theorem 4.
"""

from __future__ import annotations

import numpy as np

from nbstats.stats.bayes.weights import DirichletWeights

__all__ = [
    "MARGIN",
    "count_block",
    "placement_bounds",
    "placement_counts",
    "placement_states",
]

#: A draw whose winning region beats the others by more than this at the
#: triangle's corners is counted once for every placement: far above the
#: rounding of shares in [0, 1], far below any share a draw can move by.
MARGIN = 1e-12


def placement_states(sorted_z: np.ndarray, rope: float) -> np.ndarray:
    """Every placement state of the pseudo-observation for K pairs.

    ``sorted_z`` is K × n (each row ascending); returns K × (4n + 5) × 6
    integers (:data:`~nbstats.stats.bayes.signrank.placement_kernel.STATE_FIELDS`),
    the first state z0 = −∞, the last +∞ (repeated to pad the row).

    Examples
    --------
    >>> states = placement_states(np.array([[0.0]]), 0.25)
    >>> states.shape, states[0, 0].tolist(), states[0, -1].tolist()
    ((1, 9, 6), [1, 1, 1, 1, 2, 0], [0, 0, 0, 0, 0, 2])
    """
    from nbstats.stats.bayes.signrank.placement_kernel import (
        placement_states as compiled,
    )

    if rope <= 0:
        raise ValueError(f"placement states need a rope > 0, got {rope}.")
    z = np.ascontiguousarray(np.atleast_2d(sorted_z), dtype=float)
    return compiled(z, float(rope))


def placement_counts(
    draws: DirichletWeights,
    states: np.ndarray,
    right: np.ndarray,
    left: np.ndarray,
    g0: np.ndarray,
    inverse: np.ndarray,
    extra: np.ndarray,
    *,
    orders: np.ndarray | None = None,
    rows: slice | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Each region's count of draws won at every placement state.

    ``right``, ``left`` (K × draws): the cases' Walsh sums of the rope's
    regions; ``g0``, ``inverse``, ``extra`` (draws): the prior's Gamma weight,
    ``1 / (g0 + T)²`` and the pseudo-observation's share of the pairs
    (:func:`~nbstats.stats.bayes.signrank.summary_kernel.prior_terms`). ``orders``:
    the case of each sorted position per pair when the same weight goes to
    the same case in every pair (joint statements), else None (each pair
    takes the weights in its sorted order, as the sums do). ``rows``: only
    the draws in this range (a batch), default all.

    Returns ``base`` (K × 3: draws won by one region at every placement) and
    ``placed`` (K × states × 3: the other draws' winners at each state); a
    region's count at state c is ``base + placed[:, c]``. The work is
    :func:`count_block` on each block of the draws.
    """
    k, width = states.shape[0], states.shape[1]
    base = np.zeros((k, 3), dtype=np.int64)
    placed = np.zeros((k, width, 3), dtype=np.int64)
    lo, hi = (0, draws.n_samples) if rows is None else (rows.start, rows.stop)
    for chunk in draws.blocks():
        start, stop = max(lo, chunk.rows.start), min(hi, chunk.rows.stop)
        if start >= stop:
            continue
        e = chunk.exponentials[start - chunk.rows.start : stop - chunk.rows.start]
        at = slice(start, stop)
        count_block(
            e, states, right[:, at], left[:, at], g0[at], inverse[at], extra[at],
            base, placed, orders=orders,
        )  # fmt: skip
    return base, placed


def count_block(
    exponentials: np.ndarray,
    states: np.ndarray,
    right: np.ndarray,
    left: np.ndarray,
    g0: np.ndarray,
    inverse: np.ndarray,
    extra: np.ndarray,
    base: np.ndarray,
    placed: np.ndarray,
    *,
    orders: np.ndarray | None = None,
) -> None:
    """:func:`placement_counts` of one block of draws, added to ``base`` and
    ``placed``: a pure function of the block (its exponentials, rows × n,
    and the same rows of the per-draw arrays), so blocks may come in any
    order and any size, in two threads over the pairs.

    Examples
    --------
    >>> z = np.array([[-0.2, 0.1, 0.3]])
    >>> states = placement_states(z, 0.05)
    >>> e = np.ones((1, 3))
    >>> right, left = np.array([[6.0]]), np.array([[1.0]])  # of 9
    >>> g0, inverse = np.array([0.5]), np.array([1 / 3.5**2])
    >>> extra = np.array([1 - (3 / 3.5) ** 2])
    >>> base = np.zeros((1, 3), np.int64)
    >>> placed = np.zeros((1, states.shape[1], 3), np.int64)
    >>> count_block(e, states, right, left, g0, inverse, extra, base, placed)
    >>> base.tolist()  # right wins at every placement
    [[0, 0, 1]]
    """
    from nbstats.stats.bayes.signrank.pair_sums import in_halves
    from nbstats.stats.bayes.signrank.placement_kernel import (
        placement_counts as compiled,
    )

    k = states.shape[0]
    permute = orders is not None
    order = np.ascontiguousarray(orders) if permute else np.zeros((k, 0), np.int64)
    e = np.ascontiguousarray(exponentials, dtype=float)

    def run(a: int, b: int) -> None:
        compiled(
            e, 0, order[a:b], permute, states[a:b], right[a:b], left[a:b], g0,
            inverse, extra, MARGIN, base[a:b], placed[a:b],
        )  # fmt: skip

    in_halves(run, k, k * e.shape[0])


def placement_bounds(base: np.ndarray, placed: np.ndarray) -> np.ndarray:
    """K × 6 counts: each region's (left, rope, right) minimum over the
    placement states, then maximum — the lower and upper counts of
    :mod:`nbstats.stats.bayes.signrank.bounds` (its columns 3–8).

    Examples
    --------
    >>> base = np.array([[5, 0, 1]])
    >>> placed = np.array([[[2, 2, 0], [0, 1, 3]]])
    >>> placement_bounds(base, placed).tolist()
    [[5, 1, 1, 7, 2, 4]]
    """
    # base is the same at every state: add it after the extremes
    return np.concatenate(
        [base + placed.min(axis=1), base + placed.max(axis=1)], axis=1
    )
