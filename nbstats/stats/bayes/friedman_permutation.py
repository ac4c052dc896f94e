"""The Bayesian Friedman test's distance for many rank tables at once, and an
optional permutation calibration of its radius (issue 38, item 4).

*Why the ellipsoid is liberal.* With ``d = r̄ − R0`` (the Friedman mean ranks
minus the point of no difference), ``S`` the sample covariance of the n cases'
rank vectors and ``T² = n dᵀ S⁻¹ d`` Hotelling's statistic on them, Theorem 1's
moments give ``α(α + 1) Σ = (n − 1) S + (n s / α) d dᵀ`` and
``μ − R0 = (n / α) d`` (``α = n + s``), so by Sherman–Morrison the squared
distance of μ0 is a function of ``T²`` alone,

.. math::

    D = g(T^2) = \\frac{n (α + 1)}{α (n − 1)}
        \\frac{T^2}{1 + s T^2 / (α (n − 1))},

increasing and bounded by ``n (α + 1) / s``. The ellipsoid compares D with
Hotelling's critical value ρ_F, made for ``T²`` itself: for moderate ``T²``,
``g(T²) > T²`` (its slope at 0 is ``n (n + s + 1) / ((n + s)(n − 1)) > 1``),
so the test rejects more often than Hotelling's test on the rank vectors
would; for ``s = 0`` nbstats' factor ``(n + 1)/(n − 1)`` on ρ makes it exactly
Hotelling's test. Hotelling's F law is itself only an approximation for rank
vectors (they are discrete and bounded).

*A calibration with exact size.* Under the null hypothesis of the frequentist
Friedman test, the algorithms are exchangeable within each case: each case's
ranks are dealt to the algorithms in a random order, independently of the
other cases. D is a function of the rank table, so its null distribution is
the distribution of D over such within-case permutations of the observed
ranks (ties included), whatever the scores' distribution. Rejecting when the
Monte Carlo permutation p-value ``(1 + #{D_b ≥ D}) / (B + 1)`` is at most γ
has size at most γ (Monte Carlo permutation tests are exact for any B). This
keeps the posterior's distance as the statistic and replaces only the
radius; it is a frequentist calibration of Benavoli et al.'s rule, offered as
``bayes_friedman(..., calibration="permutation")``, never applied silently.
"""

from __future__ import annotations

import math

import numpy as np

from nbstats.util.random import seed_sequence

__all__ = [
    "EIGEN_RTOL",
    "OFFSET_ATOL",
    "SD_ATOL",
    "batch_distances",
    "permutation_calibration",
    "plane_basis",
]

#: Eigenvalues of the (m-1)-dimensional covariance at or below this fraction of
#: the largest one count as "no variance" (theory-zero ones come out ~1e-16).
EIGEN_RTOL = 1e-10
#: ... and so do standard deviations at or below this (in rank units, per unit
#: of m), e.g. Monte Carlo draws that differ only by round-off.
SD_ATOL = 1e-10
#: A component of μ0 - μ (in rank units, per unit of m) above this along a
#: direction without variance puts μ0 off the posterior's support.
OFFSET_ATOL = 1e-8
#: Rank tables per block of :func:`batch_distances` (bounded memory) ...
BLOCK = 512
#: ... and at most this many rank cells per block of permuted tables (32 MB).
CELLS_PER_BLOCK = 2**22


def plane_basis(m: int) -> np.ndarray:
    """m × (m - 1) orthonormal (Helmert) basis of the plane ``Σ x = 0``.

    Examples
    --------
    >>> b = plane_basis(3)
    >>> bool(np.allclose(b.T @ b, np.eye(2))), bool(np.allclose(b.sum(axis=0), 0))
    (True, True)
    """
    basis = np.zeros((m, m - 1))
    for k in range(1, m):
        basis[:k, k - 1] = 1.0
        basis[k, k - 1] = -k
        basis[:, k - 1] /= math.sqrt(k * (k + 1))
    return basis


def batch_distances(ranks: np.ndarray, s: float) -> np.ndarray:
    """The ellipsoid's squared distance of μ0 for each of many rank tables.

    The exact posterior moments of Theorem 1 and the same rule for
    directions without variance as :func:`nbstats.bayes_friedman` (``inf``
    when μ0 lies off the posterior's support, else the pseudo-inverse).

    Parameters
    ----------
    ranks : ndarray
        ``B × n × m`` ranks (one n × m table per entry), any direction.
    s : float
        Prior strength ``>= 0``.

    Returns
    -------
    ndarray
        ``B`` squared Mahalanobis distances.

    Examples
    --------
    >>> r = np.array([[[1.0, 2.0, 3.0], [1.0, 3.0, 2.0], [2.0, 1.0, 3.0]]])
    >>> d = batch_distances(r, 1.0)
    >>> import nbstats
    >>> bool(np.isclose(d[0], nbstats.bayes_friedman(-r[0], s=1.0).statistic))
    True
    """
    ranks = np.asarray(ranks, dtype=float)
    b_total, _, m = ranks.shape
    basis = plane_basis(m)
    out = np.empty(b_total)
    for start in range(0, b_total, BLOCK):
        out[start : start + BLOCK] = _block(ranks[start : start + BLOCK], s, basis)
    return out


def _block(ranks: np.ndarray, s: float, basis: np.ndarray) -> np.ndarray:
    _, n, m = ranks.shape
    alpha = s + n
    prior = (m + 1) / 2
    mu = (s * prior + ranks.sum(axis=1)) / alpha  # B × m
    centred = (ranks - mu[:, None, :]) @ basis  # B × n × (m - 1)
    offset = (prior - mu) @ basis  # B × (m - 1)
    cov = np.einsum("bni,bnj->bij", centred, centred) + s * (
        offset[:, :, None] * offset[:, None, :]
    )
    cov /= alpha * (alpha + 1)
    lam, vec = np.linalg.eigh((cov + np.swapaxes(cov, 1, 2)) / 2)
    largest = np.maximum(lam[:, -1:], 0.0)
    keep = lam > np.maximum(largest * EIGEN_RTOL, (SD_ATOL * m) ** 2)
    z = np.einsum("bji,bj->bi", vec, offset)
    off_support = np.any((np.abs(z) > OFFSET_ATOL * m) & ~keep, axis=1)
    safe = np.where(keep, lam, 1.0)
    distance = np.sum(np.where(keep, z**2 / safe, 0.0), axis=1)
    return np.where(off_support, np.inf, distance)


def permutation_calibration(
    ranks: np.ndarray,
    s: float,
    statistic: float,
    gamma: float,
    n_permutations: int,
    random_state: object = None,
) -> tuple[float, float]:
    """``(rho, pvalue)`` of the permutation-calibrated ellipsoid.

    Each case's ranks are shuffled independently ``n_permutations`` times
    (the null of exchangeable algorithms); ``pvalue = (1 + #{D_b ≥ D}) /
    (B + 1)`` and ``rho`` is the smallest radius with ``statistic > rho``
    exactly when ``pvalue <= gamma`` (``inf`` when B is too small for any
    p-value to reach ``gamma``).

    Examples
    --------
    A table where the third algorithm always wins and the second always loses:

    >>> r = np.tile([2.0, 3.0, 1.0], (8, 1))
    >>> D = batch_distances(r[None], 1.0)[0]
    >>> rho, p = permutation_calibration(r, 1.0, D, 0.05, 999, random_state=0)
    >>> bool(p <= 0.05), bool(D > rho)
    (True, True)
    """
    ranks = np.asarray(ranks, dtype=float)
    n, m = ranks.shape
    rng = np.random.default_rng(seed_sequence(random_state))
    null = np.empty(n_permutations)
    block = max(1, min(BLOCK, CELLS_PER_BLOCK // (n * m)))
    for start in range(0, n_permutations, block):
        size = min(block, n_permutations - start)
        # an independent random order of each case's ranks in each permutation
        order = np.argsort(rng.random((size, n, m)), axis=2)
        shuffled = np.take_along_axis(
            np.broadcast_to(ranks, (size, n, m)), order, axis=2
        )
        null[start : start + size] = batch_distances(shuffled, s)
    # the same comparison whatever the round-off of the batched distances:
    # values within 1e-9 (relative) of the statistic count as reaching it
    reach = statistic * (1 - 1e-9) if math.isfinite(statistic) else statistic
    pvalue = (1 + int(np.count_nonzero(null >= reach))) / (n_permutations + 1)
    allowed = math.floor(gamma * (n_permutations + 1) + 1e-9) - 1
    if allowed < 0:
        return math.inf, pvalue
    descending = np.sort(null)[::-1]
    return float(descending[allowed]), pvalue
