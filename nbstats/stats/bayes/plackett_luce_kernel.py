"""Compiled latent-variable step of the Plackett–Luce Gibbs sampler.

Why numba and not numpy: one iteration needs, per chain and case, the worths
in ranking order, their sums from the end, the latent exponentials and their
running sums scattered back to the algorithms. numpy makes a pass and a
temporary array for each (a gather, two cumulative sums, a scatter); this
kernel makes one pass over ``chains × cases × m`` values, with the same
arithmetic in the same order, and leaves the Gamma draws to numpy.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["latent_rates", "shuffle_ties"]


@numba.njit(nogil=True, cache=True)
def latent_rates(
    order: np.ndarray,
    worths: np.ndarray,
    exponentials: np.ndarray,
    n_ranked: np.ndarray,
    rates: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Add every case's latent exposure and choice counts to ``rates`` and ``counts``.

    For chain ``c`` and case ``i`` ranking ``k`` algorithms in ``order[c, i]``
    (best first), stage ``r < k - 1`` draws ``Z = E / Σ_{s≥r} w_{o_s}`` from
    the exponential ``E = exponentials[c, i, r]``. The algorithm in slot ``r``
    takes part in stages ``0 … min(r, k − 2)``, so ``rates[c, o_r]`` gains the
    running sum of ``Z`` up to that stage; ``counts[c, o_r]`` gains 1 when it
    was chosen at stage ``r`` (it is not last).

    Parameters
    ----------
    order : int array, shape (chains, cases, width)
    worths : float array, shape (chains, m + 1)
    exponentials : float array, shape (chains, cases, width)
    n_ranked : int array, shape (cases,)
    rates, counts : float arrays, shape (chains, m + 1)
        Updated in place.

    Examples
    --------
    >>> order = np.array([[[0, 1]]])
    >>> worths = np.array([[1.0, 3.0, 0.0]])
    >>> rates, counts = np.zeros((1, 3)), np.zeros((1, 3))
    >>> latent_rates(order, worths, np.array([[[2.0, 5.0]]]), np.array([2]),
    ...              rates, counts)
    >>> rates.tolist(), counts.tolist()  # Z = 2 / (1 + 3)
    ([[0.5, 0.5, 0.0]], [[1.0, 0.0, 0.0]])
    """
    chains, cases, width = order.shape
    remaining = np.empty(width)
    for c in range(chains):
        for i in range(cases):
            k = n_ranked[i]
            tail = 0.0
            for r in range(k - 1, -1, -1):
                tail += worths[c, order[c, i, r]]
                remaining[r] = tail
            running = 0.0
            for r in range(k):
                j = order[c, i, r]
                if r < k - 1:
                    running += exponentials[c, i, r] / remaining[r]
                    counts[c, j] += 1.0
                rates[c, j] += running


@numba.njit(nogil=True, cache=True)
def shuffle_ties(
    fixed_order: np.ndarray,
    cases: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    uniforms: np.ndarray,
    order: np.ndarray,
) -> None:
    """Copy ``fixed_order`` into every chain of ``order``, each tie group shuffled.

    Group ``g`` is the run ``fixed_order[cases[g], starts[g] : starts[g] +
    sizes[g]]``; it is put in a uniformly random order by a Fisher–Yates
    shuffle that takes its uniforms, in turn, from ``uniforms[c]``.

    Parameters
    ----------
    fixed_order : int array, shape (cases, width)
    cases, starts, sizes : int arrays, shape (groups,)
    uniforms : float array, shape (chains, Σ (sizes − 1))
    order : int array, shape (chains, cases, width)
        Written.

    Examples
    --------
    >>> fixed = np.array([[0, 1, 2]])
    >>> out = np.empty((1, 1, 3), dtype=np.int64)
    >>> shuffle_ties(fixed, np.array([0]), np.array([1]), np.array([2]),
    ...              np.array([[0.1]]), out)
    >>> out.tolist()  # slots 1 and 2 are tied; a uniform below 1/2 swaps them
    [[[0, 2, 1]]]
    """
    chains = order.shape[0]
    for c in range(chains):
        order[c] = fixed_order
        used = 0
        for g in range(cases.shape[0]):
            i, start, size = cases[g], starts[g], sizes[g]
            for t in range(size - 1, 0, -1):
                pick = int(uniforms[c, used] * (t + 1))
                used += 1
                a, b = start + t, start + pick
                order[c, i, a], order[c, i, b] = order[c, i, b], order[c, i, a]
