"""Calibration of the Bayesian Friedman test's region (issue 14).

Benavoli et al. (2015, §5.2) offer two regions for the mean-rank vector: the
ellipsoid of eq. 19, whose radius ρ is Hotelling's T² critical value, and, "for
small n", the posterior's own ``1 - γ`` credible region found by Monte Carlo.
Read as frequentist tests on tables where all algorithms are exchangeable, the
ellipsoid rejects about ``γ`` of them; the posterior's own region rejects far
more (83% of 3-algorithm tables with 2 cases at ``γ = 0.05``, 17% with 10, 36%
of 10-algorithm tables with 25 cases). Two things cause it:

* **The radius.** For more than a few cases the posterior is close to normal
  and its ``1 - γ`` region has squared Mahalanobis radius close to the
  ``χ²(m - 1)`` quantile, while the spread of the mean ranks is estimated from
  the same n cases: the Dirichlet posterior, like the Bayesian bootstrap,
  makes no allowance for that (a z-interval where a t-interval is due).
  Hotelling's ρ, which the paper's ellipsoid uses, does. On the same null
  tables the exact-moment distance compared with the χ² quantile rejects as
  often as Monte Carlo does (within a standard error in every cell); the
  number of draws (2,000 or 20,000), the centre (sample or exact mean), the
  prior strength (``s`` = 0.25, 1 or 4) and the shape of the region
  (Mahalanobis or half-space depth) change little or make it worse.
* **Fewer cases than algorithms.** With ``s > 0`` the prior point
  ``R0 = μ0`` is a vertex of the posterior's support (the draws are convex
  combinations of ``R0`` and the cases' rank vectors). For ``n < m`` the
  ``n + 1`` points are affinely independent in general, so the posterior is
  an affine image of ``Dir(s, 1, …, 1)`` and any affine-invariant region gives
  the same verdict whatever the ranks: at ``γ = 0.05`` the posterior region
  rejected 97% of null tables with 3 cases × 5 algorithms and all of them
  with 5 × 10. No region built from this posterior can tell data with and
  without a difference apart there.

The fix: the Monte Carlo region keeps the posterior's shape (its draws'
Mahalanobis distances) and scales its ``1 - γ`` radius by the small-sample
factor the paper's ellipsoid carries over the normal posterior's region,

.. math::

    \\rho_{MC} = q_{1-γ}(\\text{draws' distances}) \\,
                 \\frac{ρ_F(1 - γ)}{χ^2_{m-1}(1 - γ)},

which tends to 1 as n grows (so both methods agree for many cases), and both
methods need ``n >= m`` cases (below, ρ_F does not exist and the posterior
carries no information on the question).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import fdtri, gammaincinv

__all__ = [
    "calibrated_credibility",
    "calibrated_rho",
    "check_enough_cases",
    "count_above",
    "hotelling_rho",
    "inflation",
]


def check_enough_cases(n: int, m: int, method: str) -> None:
    """Raise unless there are at least as many cases as algorithms.

    Examples
    --------
    >>> check_enough_cases(5, 4, "montecarlo")
    >>> check_enough_cases(3, 4, "montecarlo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the Bayesian Friedman test needs at least n >= m = 4 cases ...
    """
    if n >= m:
        return
    why = (
        "its F distribution has n - m + 1 denominator degrees of freedom"
        if method == "ellipsoid"
        else "with fewer cases than algorithms the posterior's verdict does "
        "not depend on the ranks (the point of no difference is a vertex of "
        "its support) and it rejects up to every table without a difference"
    )
    raise ValueError(
        f"the Bayesian Friedman test needs at least n >= m = {m} cases "
        f"({method} method: {why}), got n = {n} cases for m = {m} algorithms; "
        f"both methods need n >= m. Collect results on at least {m} cases, "
        f"compare fewer algorithms, or use the frequentist nbstats.friedman, "
        f"which works for any n >= 2."
    )


def hotelling_rho(level: float, n: int, m: int) -> float:
    """Eq. 19's radius: ``F⁻¹(level; m - 1, n - m + 1) (n - 1)(m - 1)/(n - m + 1)``.

    Examples
    --------
    >>> round(hotelling_rho(0.95, 14, 4), 2)  # Demšar's Table 6
    12.72
    """
    d1, d2 = m - 1, n - m + 1
    return float(fdtri(d1, d2, level)) * (n - 1) * d1 / d2


def inflation(level: float, n: int, m: int) -> float:
    """Hotelling's radius over the χ²(m - 1) quantile at ``level`` (> 1).

    The allowance the ellipsoid makes, at ``level``, for estimating the
    spread of the mean ranks from n cases; it is increasing in ``level``
    and tends to 1 as ``n`` grows.

    Examples
    --------
    >>> round(inflation(0.95, 10, 3), 2), round(inflation(0.95, 1000, 3), 3)
    (1.67, 1.004)
    """
    return hotelling_rho(level, n, m) / (2 * float(gammaincinv((m - 1) / 2, level)))


def count_above(level: float, n_samples: int) -> int:
    """The least count ``k`` with ``k / n_samples > level`` (at most S).

    Examples
    --------
    >>> count_above(0.95, 100), count_above(0.949, 1000)
    (96, 950)
    """
    k = min(math.floor(n_samples * level) + 1, n_samples)
    while k > 1 and (k - 1) / n_samples > level:
        k -= 1
    while k < n_samples and k / n_samples <= level:
        k += 1
    return k


def calibrated_rho(ordered: np.ndarray, level: float, n: int, m: int) -> float:
    """Radius of the calibrated Monte Carlo region at ``level``.

    ``ordered`` are the draws' squared distances, sorted.
    """
    k = count_above(level, len(ordered))
    return float(ordered[k - 1]) * inflation(level, n, m)


def calibrated_credibility(
    statistic: float, ordered: np.ndarray, n: int, m: int
) -> float:
    """The level of the smallest calibrated region that still contains μ0.

    The calibrated radius is nondecreasing in the level, so μ0 lies outside
    the region for every level below this one and inside for every level
    above: ``reject`` at ``gamma`` is ``credibility > 1 - gamma``. Found by
    bisection (to double precision).

    Examples
    --------
    >>> ordered = np.sort(np.random.default_rng(0).chisquare(2, 4000))
    >>> c = calibrated_credibility(10.0, ordered, 40, 3)
    >>> bool(10.0 > calibrated_rho(ordered, c - 1e-6, 40, 3)), round(c, 2)
    (True, 0.99)
    """
    if math.isinf(statistic):
        return 1.0
    if not statistic > 0:
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(64):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if statistic > calibrated_rho(ordered, mid, n, m):
            lo = mid
        else:
            hi = mid
    return lo
