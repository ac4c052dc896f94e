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

from nbstats.stats.compiled import announce

__all__ = ["LINEAR_FLOOR", "latent_rates", "shuffle_ties"]


#: Below this log-worth (relative to a chain's largest) the linear-domain pass
#: could underflow a case's remaining worth to 0: the chain takes the log pass.
LINEAR_FLOOR = -600.0


@numba.njit(nogil=True, cache=True, inline="always")
def _logaddexp(a: float, b: float) -> float:
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    top = max(a, b)
    return top + np.log1p(np.exp(-abs(a - b)))


@numba.njit(nogil=True, cache=True)
def latent_rates(
    order: np.ndarray,
    log_worths: np.ndarray,
    exponentials: np.ndarray,
    n_ranked: np.ndarray,
    log_sums: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Add every case's latent exposure and choice counts, in the log domain.

    For chain ``c`` and case ``i`` ranking ``k`` algorithms in ``order[c, i]``
    (best first), stage ``r < k - 1`` has the latent ``Z = E / Σ_{s≥r} w_{o_s}``
    with ``E = exponentials[c, i, r]``. The algorithm in slot ``r`` takes part
    in stages ``0 … min(r, k − 2)``: its exposure gains the running sum of
    ``Z`` up to that stage, and ``log_sums[c, o_r]`` becomes the log of its
    total exposure; ``counts[c, o_r]`` gains 1 when it was chosen at stage
    ``r`` (it is not last).

    The worths come as logs (``log_worths``; any common shift), so no worth
    can underflow: a chain whose worths span less than ``exp(LINEAR_FLOOR)``
    takes a linear pass with worths relative to its largest (fast), any other
    the same sums with log-sum-exp (slower, never 0 or infinite).

    Parameters
    ----------
    order : int array, shape (chains, cases, width)
    log_worths : float array, shape (chains, m)
    exponentials : float array, shape (chains, cases, width)
    n_ranked : int array, shape (cases,)
    log_sums, counts : float arrays, shape (chains, m)
        Updated in place (``log_sums`` starts at ``-inf``, ``counts`` at 0).

    Examples
    --------
    >>> order = np.array([[[0, 1]]])
    >>> log_worths = np.log(np.array([[1.0, 3.0]]))
    >>> log_sums, counts = np.full((1, 2), -np.inf), np.zeros((1, 2))
    >>> latent_rates(order, log_worths, np.array([[[2.0, 5.0]]]), np.array([2]),
    ...              log_sums, counts)
    >>> np.exp(log_sums).round(12).tolist(), counts.tolist()  # Z = 2 / (1 + 3)
    ([[0.5, 0.5]], [[1.0, 0.0]])
    """
    chains, cases, width = order.shape
    m = log_worths.shape[1]
    remaining = np.empty(width)
    linear = np.empty(m)
    sums = np.empty(m)
    for c in range(chains):
        top = log_worths[c, 0]
        low = log_worths[c, 0]
        for j in range(1, m):
            top = max(top, log_worths[c, j])
            low = min(low, log_worths[c, j])
        if low - top >= LINEAR_FLOOR:
            for j in range(m):
                linear[j] = np.exp(log_worths[c, j] - top)
                sums[j] = 0.0
            for i in range(cases):
                k = n_ranked[i]
                tail = 0.0
                for r in range(k - 1, -1, -1):
                    tail += linear[order[c, i, r]]
                    remaining[r] = tail
                running = 0.0
                for r in range(k):
                    j = order[c, i, r]
                    if r < k - 1:
                        running += exponentials[c, i, r] / remaining[r]
                        counts[c, j] += 1.0
                    sums[j] += running
            for j in range(m):
                if sums[j] > 0.0:
                    log_sums[c, j] = _logaddexp(log_sums[c, j], np.log(sums[j]) - top)
            continue
        for i in range(cases):
            k = n_ranked[i]
            tail = -np.inf
            for r in range(k - 1, -1, -1):
                tail = _logaddexp(tail, log_worths[c, order[c, i, r]])
                remaining[r] = tail
            running = -np.inf
            for r in range(k):
                j = order[c, i, r]
                if r < k - 1:
                    step = exponentials[c, i, r]
                    if step > 0.0:
                        running = _logaddexp(running, np.log(step) - remaining[r])
                    counts[c, j] += 1.0
                log_sums[c, j] = _logaddexp(log_sums[c, j], running)


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
    chains, cases_, width = order.shape
    for c in range(chains):
        # element by element: a whole-row assignment would compile numba's
        # broadcasting checks and their messages (seconds on a first run)
        for i in range(cases_):
            for k in range(width):
                order[c, i, k] = fixed_order[i, k]
        used = 0
        for g in range(cases.shape[0]):
            i, start, size = cases[g], starts[g], sizes[g]
            for t in range(size - 1, 0, -1):
                pick = int(uniforms[c, used] * (t + 1))
                used += 1
                a, b = start + t, start + pick
                order[c, i, a], order[c, i, b] = order[c, i, b], order[c, i, a]


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(latent_rates, shuffle_ties)
