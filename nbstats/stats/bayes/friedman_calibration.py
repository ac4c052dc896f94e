"""Calibration of the Bayesian Friedman test's region (issue 14).

Benavoli et al. (2015, §5.2) offer two regions for the mean-rank vector: the
ellipsoid of eq. 19, whose radius ρ is Hotelling's T² critical value, and, "for
small n", the posterior's own ``1 - γ`` credible region found by Monte Carlo.
Read as frequentist tests on tables where all algorithms are exchangeable, the
ellipsoid rejects somewhat more than ``γ`` of them (why, and the optional
permutation calibration: :mod:`nbstats.stats.bayes.friedman_permutation`); the
posterior's own region rejects far more, worst with few cases
(``benchmarks/bench_bayes_friedman_size.py`` measures both). Two things cause it:

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

* **The Bayesian bootstrap (s = 0).** Without the prior's point the
  posterior covariance of the mean ranks is exactly ``(n - 1)/(n + 1)`` times
  the ``S/n`` (S the ranks' sample covariance) that Hotelling's T² uses, so
  every squared distance is ``(n + 1)/(n - 1)`` times Hotelling's (22% at
  10 cases): the ellipsoid and the calibrated Monte Carlo region rejected
  8.7% and up of null tables with 10 cases. With ``s > 0`` the prior's
  point adds variance exactly along μ0 - μ, which caps the distance; with
  s = 0 nothing does. Worse, with few cases the n rank vectors often fail to
  span the plane (two cases ranking the algorithms alike suffice at m = 3),
  the covariance is singular with μ0 off the posterior's support, and the
  test rejects whatever the ranks: 39% of 3 × 3 null tables, 24% of 4 × 4,
  13% of 3 × 4.

The fix: the Monte Carlo region keeps the posterior's shape (its draws'
Mahalanobis distances) and scales its ``1 - γ`` radius by the small-sample
factor the paper's ellipsoid carries over the normal posterior's region,

.. math::

    \\rho_{MC} = q_{1-γ}(\\text{draws' distances}) \\,
                 \\frac{ρ_F(1 - γ)}{χ^2_{m-1}(1 - γ)},

which tends to 1 as n grows (so both methods agree for many cases), and both
methods need ``n >= m`` cases (below, ρ_F does not exist and the posterior
carries no information on the question). For ``s = 0`` both radii are
multiplied by ``(n + 1)/(n - 1)`` (:func:`bootstrap_factor`; the ellipsoid
then is Hotelling's T² test on the rank vectors) and both methods need
``n >= 2m`` cases (:func:`minimum_cases`), from where degenerate
posteriors are rare: on 1000 null tables per cell (m = 3, 4, 5, 10) the
rate is at most 7.3% at n = 2m and 2γ or less for every larger n measured.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "bootstrap_factor",
    "calibrated_credibility",
    "calibrated_rho",
    "check_enough_cases",
    "count_above",
    "hotelling_rho",
    "inflation",
    "minimum_cases",
]


def minimum_cases(m: int, s: float) -> int:
    """Fewest cases the Bayesian Friedman test accepts for m algorithms.

    ``m`` with a prior (``s > 0``); ``2m`` for the Bayesian bootstrap
    (``s = 0``), whose posterior is singular, and rejects whatever the ranks,
    too often below that (see the module's notes).

    Examples
    --------
    >>> minimum_cases(4, 1.0), minimum_cases(4, 0.0)
    (4, 8)
    """
    return 2 * m if s == 0 else m


def bootstrap_factor(n: int, s: float) -> float:
    """``(n + 1)/(n - 1)`` for ``s = 0``, else 1: the Bayesian bootstrap's
    squared distances over Hotelling's (its covariance is ``(n - 1)/(n + 1)``
    of ``S/n``).

    Examples
    --------
    >>> bootstrap_factor(10, 0.0), bootstrap_factor(10, 1.0)
    (1.2222222222222223, 1.0)
    """
    return (n + 1) / (n - 1) if s == 0 else 1.0


def check_enough_cases(n: int, m: int, method: str, s: float = 1.0) -> None:
    """Raise unless there are at least :func:`minimum_cases` cases.

    Examples
    --------
    >>> check_enough_cases(5, 4, "montecarlo")
    >>> check_enough_cases(3, 4, "montecarlo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the Bayesian Friedman test needs at least n >= m = 4 cases ...
    >>> check_enough_cases(6, 4, "ellipsoid", s=0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the Bayesian Friedman test with s = 0 (the Bayesian bootstrap) needs ...
    """
    if s == 0 and m <= n < 2 * m:
        raise ValueError(
            f"the Bayesian Friedman test with s = 0 (the Bayesian bootstrap) "
            f"needs at least n >= 2m = {2 * m} cases, got n = {n} cases for m = "
            f"{m} algorithms: with fewer, the cases' rank vectors often leave "
            f"the posterior without variance in some direction, and the test "
            f"then rejects whatever the ranks (24% of 4 x 4 tables without any "
            f"difference). Use a prior, s > 0 (s = 1 needs n >= m = {m}), "
            f"collect results on at least {2 * m} cases, or use the frequentist "
            f"nbstats.friedman."
        )
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
    # scipy.special (~70 modules) loads on first use, not with ``import nbstats``
    from scipy.special import fdtri

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
    # scipy.special (~70 modules) loads on first use, not with ``import nbstats``
    from scipy.special import gammaincinv

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


def calibrated_rho(
    ordered: np.ndarray, level: float, n: int, m: int, scale: float = 1.0
) -> float:
    """Radius of the calibrated Monte Carlo region at ``level``.

    ``ordered`` are the draws' squared distances, sorted; ``scale`` is
    :func:`bootstrap_factor`.
    """
    k = count_above(level, len(ordered))
    return float(ordered[k - 1]) * inflation(level, n, m) * scale


def calibrated_credibility(
    statistic: float, ordered: np.ndarray, n: int, m: int, scale: float = 1.0
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
        if statistic > calibrated_rho(ordered, mid, n, m, scale):
            lo = mid
        else:
            hi = mid
    return lo
