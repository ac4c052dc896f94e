"""Compiled per-draw arithmetic of the signed-rank posterior (see :mod:`.signrank`).

Why numba and not numpy: turning a pair's cached sums into θ draws for a new
s, and the θ draws into probabilities, is a dozen element-wise operations on
50,000 draws. numpy makes one pass (and one temporary) per operation; a
dashboard repeats this for every pair on every change of s, the loss ratio
or the rope, and that alone took a large share of the time a change may
take (``benchmarks/bench_dashboard.py``). One compiled pass per pair does the
same arithmetic, in the same order per draw, in a fraction of the time.
"""

from __future__ import annotations

import numba
import numpy as np

from nbstats.stats.compiled import announce

__all__ = [
    "combine_region",
    "near_half_share",
    "prior_terms",
    "region_code",
    "rope_counts",
    "theta_counts",
]


def prior_terms(
    g0: np.ndarray, total: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per draw ``(g0 + T)²``, its reciprocal and ``(2 T + g0) g0 / (g0 + T)²``.

    The last is the share of the pairs that include a pseudo-observation at
    ±∞ (Theorem 4 of Benavoli et al. 2014). All depend on the draws and s
    only, so posteriors on the same draws can share them.

    Examples
    --------
    >>> scale, inverse, extra = prior_terms(np.array([1.0]), np.array([3.0]))
    >>> float(scale[0]), float(inverse[0]), float(extra[0])
    (16.0, 0.0625, 0.4375)
    """
    scale = g0 + total
    scale *= scale
    extra = 2.0 * total
    extra += g0
    extra *= g0
    extra /= scale
    return scale, 1.0 / scale, extra


@numba.njit(nogil=True, cache=True)
def combine_region(
    quad: np.ndarray,
    cross: np.ndarray,
    g0: np.ndarray,
    norm: np.ndarray,
    divide: bool,
    extra: np.ndarray,
    step: float,
    add_lower: bool,
    add_upper: bool,
    point_prior: bool,
    lower: np.ndarray,
    upper: np.ndarray,
) -> None:  # pragma: no cover - compiled; tested through SignedRankPosterior
    """One region's normalised draws for prior weight g0.

    ``norm`` is ``scale`` (``divide``) or ``inverse`` from :func:`prior_terms`.
    Point prior: ``(Q + 2 g0 L + g0² step)`` normalised into ``lower``;
    otherwise ``Q`` normalised, plus ``extra`` in ``lower`` / ``upper`` if
    ``add_lower`` / ``add_upper``. ``upper`` may be ``lower`` itself when
    ``add_upper`` is False. θ divides: T² / T² = 1 exactly when every pair is
    in the region. The rope's regions multiply by the reciprocal (a division
    costs five multiplications here), as :func:`rope_counts` does.
    """
    for r in range(quad.size):
        g = g0[r]
        value = (
            quad[r] + (2.0 * g * cross[r] + step * g * g) if point_prior else quad[r]
        )
        value = value / norm[r] if divide else value * norm[r]
        lower[r] = value + extra[r] if add_lower else value
        upper[r] = value + extra[r] if add_upper else value


@numba.njit(nogil=True, cache=True)
def theta_counts(
    theta_lower: np.ndarray, theta_upper: np.ndarray, tolerance: float
) -> np.ndarray:  # pragma: no cover - compiled; tested against numpy
    """Draws with ``θ_lower > ½``, ``θ_upper > ½``, ``θ_upper < ½`` and
    ``θ_lower < ½``, where "> ½" means above ½ + tolerance (the last is the
    upper probability of the mirrored pair, see
    :func:`~nbstats.stats.bayes.signrank.one_pair.mirror_counts`). Sums of
    comparisons, not branches: the outcomes are close to random, and
    mispredicted branches cost more than the arithmetic."""
    above_lower = above_upper = below_upper = below_lower = 0
    for r in range(theta_lower.size):
        above_lower += theta_lower[r] > 0.5 + tolerance
        above_upper += theta_upper[r] > 0.5 + tolerance
        below_upper += theta_upper[r] < 0.5 - tolerance
        below_lower += theta_lower[r] < 0.5 - tolerance
    out = np.empty(4, dtype=np.int64)
    out[0], out[1], out[2], out[3] = above_lower, above_upper, below_upper, below_lower
    return out


@numba.njit(nogil=True, cache=True)
def rope_counts(
    right: np.ndarray,
    left: np.ndarray,
    cross_right: np.ndarray,
    cross_left: np.ndarray,
    g0: np.ndarray,
    inverse: np.ndarray,
    extra: np.ndarray,
    step_right: float,
    step_left: float,
    point_prior: bool,
    idp: bool,
) -> np.ndarray:  # pragma: no cover - compiled; tested against brute force
    """Each region's lower and upper count of draws won, without storing draws.

    Per draw, the cases' shares of the left and right regions (``lo``, ``hi``,
    the same values as :func:`combine_region`) and, under the near-ignorance
    prior (IDP), the share ``e`` of the pairs that involve the prior's
    pseudo-observation. A region wins a draw when it is the most probable of
    (left, 1 - left - right, right), ties to the first, as
    :func:`~nbstats.stats.bayes.decision.region_shares`.

    Under IDP (``idp`` True) this is the per-draw enclosure that the normal
    approximation reports (the Monte Carlo paths take the exact bounds over
    every placement of :mod:`~nbstats.stats.bayes.signrank.placements`, which start
    from the same three corners): a base measure at -∞ puts ``e`` all left,
    one at +∞ all right, one inside the rope (partly) in the rope. For every
    placement the draw's (left, rope, right) is
    ``(lo + e_l, 1 - lo - hi - e_l - e_r, hi + e_r)`` with ``e_l, e_r ≥ 0``,
    ``e_l + e_r ≤ e``, so per draw:

    - a region wins for *some* placement iff it wins with all of ``e`` in it
      (upper count);
    - it wins for *every* placement iff it wins with all of ``e`` in either
      other region (lower count).

    The shares of such draws enclose every placement's probability, but no
    single placement need reach them: an outer bound.

    Returns ``[left, rope, right]`` lower counts, then ``[left, rope,
    right]`` upper counts; for a single prior (``idp`` False) lower = upper,
    the winners of the one posterior.
    """
    low_left = low_rope = low_right = up_left = up_rope = up_right = 0
    point = 1.0 if point_prior else 0.0
    shift = 1.0 if idp else 0.0
    for r in range(right.size):
        g = g0[r]
        hi = right[r] + point * (2.0 * g * cross_right[r] + step_right * g * g)
        lo = left[r] + point * (2.0 * g * cross_left[r] + step_left * g * g)
        hi *= inverse[r]
        lo *= inverse[r]
        e = shift * extra[r]
        # the winner with the pseudo-observation's pairs left, in the rope
        # (1 - lo - hi holds them), right
        at_left = region_code(lo + e, hi)
        at_rope = region_code(lo, hi)
        at_right = region_code(lo, hi + e)
        up_left += at_left == 0
        up_rope += at_rope == 1
        up_right += at_right == 2
        low_left += (at_rope == 0) & (at_right == 0)
        low_rope += (at_left == 1) & (at_right == 1)
        low_right += (at_left == 2) & (at_rope == 2)
    out = np.empty(6, dtype=np.int64)
    out[0], out[1], out[2] = low_left, low_rope, low_right
    out[3], out[4], out[5] = up_left, up_rope, up_right
    return out


@numba.njit(inline="always")
def region_code(left: float, right: float) -> np.int64:  # pragma: no cover
    """0 (left), 1 (rope = 1 - left - right) or 2 (right): the most probable
    region, ties to the first; no branches (the outcomes look random)."""
    first, second = _winner(left, right)
    return 2 - 2 * first - second


@numba.njit(inline="always")
def _winner(left: float, right: float) -> tuple[int, int]:  # pragma: no cover
    """(1, 0): left, (0, 1): rope = 1 - left - right, (0, 0): right is the most
    probable; ties to the first; no branches (the outcomes look random)."""
    middle = 1.0 - left - right
    first = np.int64(left >= middle) * np.int64(left >= right)
    return first, (1 - first) * np.int64(middle >= right)


@numba.njit(nogil=True, cache=True)
def near_half_share(samples: np.ndarray, epsilon: float) -> float:  # pragma: no cover
    """Share of draws with ``|θ - ½| < ε``."""
    count = 0
    for value in samples:
        count += abs(value - 0.5) < epsilon  # no branch: outcomes look random
    return count / samples.size


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(combine_region, theta_counts, rope_counts, near_half_share)
