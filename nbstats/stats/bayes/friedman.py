"""Bayesian Friedman test (Benavoli, Mangili, Corani & Zaffalon 2015, §5.2).

With a Dirichlet process prior ``Dp(s, δ)`` centred on "all algorithms equal",
the posterior of the vector of the algorithms' expected ranks is the law of

    w0 R0 + R w,        (w0, w) ~ Dir(s, 1, …, 1)

(Theorem 1), where column j of R holds the ranks of case j and R0 is the prior
rank vector ``((m + 1)/2, …)``. The test asks whether the point of no
difference μ0 = R0 lies in the ``1 - γ`` credible region of that vector.

Rank direction: the paper's ``R(X_i) = 1 + Σ_k H(X_i - X_k)`` counts wins
(higher = better). nbstats ranks 1 = best, i.e. ``m + 1 - R``; since the
weights sum to one this maps the posterior affinely, the covariance and every
Mahalanobis distance are unchanged, and R0 = (m + 1)/2 maps to itself.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.results.bayes_friedman import BayesFriedmanResult
from nbstats.scores.ranks import oriented, rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.bayes.canonical import layout
from nbstats.stats.bayes.draws import check_n_samples
from nbstats.stats.bayes.friedman_calibration import (
    bootstrap_factor,
    calibrated_credibility,
    calibrated_rho,
    check_enough_cases,
    hotelling_rho,
)
from nbstats.stats.bayes.friedman_permutation import (
    EIGEN_RTOL,
    OFFSET_ATOL,
    SD_ATOL,
    permutation_calibration,
    plane_basis,
)
from nbstats.stats.bayes.priors import FRIEDMAN_DEFAULT_S, check_s
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import (
    check_choice,
    check_count,
    check_flag,
    check_fraction,
    check_random_state,
)
from nbstats.util.memory import budget
from nbstats.util.random import seed_sequence

__all__ = ["bayes_friedman", "posterior_moments", "posterior_samples"]

Method = Literal["ellipsoid", "montecarlo"]
Calibration = Literal["benavoli", "permutation"]

#: Share of the memory ceiling (:mod:`nbstats.util.memory`) the Monte
#: Carlo draws may take to be kept on the result (40 MB for 50,000 draws of 100
#: algorithms, within the default 128 MiB); beyond, they are made in chunks
#: twice and not kept (``samples`` None).
SAMPLES_SHARE = 0.25


def bayes_friedman(
    scores: pd.DataFrame | np.ndarray,
    *,
    s: float = FRIEDMAN_DEFAULT_S,
    threshold: float = 0.95,
    method: Method = "ellipsoid",
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    calibration: Calibration = "benavoli",
    n_permutations: int = 1999,
) -> BayesFriedmanResult:
    """Bayesian Friedman test: do the algorithms' mean ranks differ?

    Benavoli et al. (2015, §5.2). The posterior of the mean-rank vector under a
    Dirichlet process with strength ``s`` and base measure on "all algorithms
    equal" (§7, so the prior rank vector is ``R0 = (m + 1)/2``) has the exact
    moments of Theorem 1, with ``α = s + n``:

    .. math::

        \\mu = \\frac{s R_0 + R\\mathbf{1}}{\\alpha}, \\qquad
        \\Sigma = \\frac{c c^T + s R_0 R_0^T + R R^T}{\\alpha(\\alpha+1)}
                  - \\mu\\mu^T, \\quad c = s R_0 + R\\mathbf{1}.

    The test rejects "no difference" when ``μ0 = R0`` lies outside the
    ``threshold`` credible region of that posterior (γ = 1 − threshold in
    the paper).

    Ranks are **1 = best** (ties get average ranks). The paper counts wins,
    ``R(X_i) = 1 + Σ_k H(X_i - X_k)`` (higher = better); nbstats reports
    ``m + 1 - R``. The covariance and the test are unaffected.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    s : float
        Prior strength, ``s >= 0``; default 1
        (:data:`~nbstats.stats.bayes.priors.FRIEDMAN_DEFAULT_S`, the value
        the paper suggests, §7). ``s = 0`` is the Bayesian bootstrap, whose
        posterior mean ranks are exactly Friedman's; ``s > 0`` shrinks them
        towards ``(m + 1)/2`` and regularises the covariance (§7).
    threshold : float
        The credible level of the region, in (0, 1); default 0.95. The test
        rejects when the posterior probability of a difference exceeds it
        (γ = 1 − threshold in Benavoli et al. 2015).
    method : {"ellipsoid", "montecarlo"}
        ``"ellipsoid"`` (eq. 19): the region is the ellipsoid
        ``(μ - μ0)ᵀ Σ⁻¹ (μ - μ0) <= ρ`` over m - 1 coordinates with
        ``ρ = F⁻¹(1 - γ; m - 1, n - m + 1) (n - 1)(m - 1)/(n - m + 1)``, a
        large-n approximation that needs ``n >= m`` cases (``n >= 2m``
        with ``s = 0``).
        ``"montecarlo"``: draw ``n_samples`` mean-rank vectors from the
        posterior; the region is a Mahalanobis ball (w.r.t. the draws' sample
        mean and covariance) whose radius is the ``1 - γ`` quantile of the
        draws' distances times ``ρ / χ²⁻¹(1 - γ; m - 1)``, the small-sample
        allowance of the ellipsoid (see Notes, *Calibration*). Also needs
        ``n >= m`` cases (``n >= 2m`` with ``s = 0``).
    n_samples : int
        Monte Carlo draws (``"montecarlo"`` only); fewer than 1000 warn.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or numpy Generator
        Seed of the Monte Carlo draws (common random numbers: the same seed
        gives the same draws for every ``s``). ``None`` takes fresh entropy
        from the operating system: two calls then give slightly different
        credibilities (within the Monte Carlo error the summary states);
        give an int to reproduce them. Also seeds the permutations of
        ``calibration="permutation"``.
    calibration : {"benavoli", "permutation"}
        How the region's radius is set. ``"benavoli"`` (default): the
        method of Benavoli et al. (2015) as described above. ``"permutation"``
        (ellipsoid only): an explicit frequentist calibration, not in the
        paper. The statistic is the same posterior distance of μ0; the test
        rejects when fewer than a share γ of ``n_permutations`` tables with
        each case's ranks shuffled (the null of exchangeable algorithms) lie
        as far: ``credibility`` is ``1 - p`` with the permutation p-value
        ``p = (1 + #{D_b ≥ D}) / (B + 1)``, ``reject`` is
        ``p <= 1 - threshold``, and
        ``rho`` the permuted distance the statistic must exceed. Its size is
        at most γ for any n and m, where the ellipsoid's exceeds γ (see
        :mod:`nbstats.stats.bayes.friedman_permutation` for why, and the
        size table in the Bayesian guide).
    n_permutations : int
        Permutations of ``calibration="permutation"`` (``B``); at least
        ``1/(1 - threshold) - 1`` for the test to be able to reject.

    Returns
    -------
    BayesFriedmanResult
        ``mean_ranks`` and ``covariance`` (exact, for both methods),
        ``statistic`` (squared distance of μ0), ``rho``, ``credibility``,
        ``reject`` (``credibility > threshold``), ``samples`` (Monte Carlo).

    Raises
    ------
    ValueError
        ``s < 0``, ``threshold`` outside (0, 1), an unknown ``method`` or
        ``calibration``, ``calibration="permutation"`` with Monte Carlo,
        ``n_permutations < 1``,
        ``n_samples < 1``, fewer than ``m`` cases (``2m`` with ``s = 0``;
        both methods; the message names the minimum), and bad score tables (see
        :func:`nbstats.score_table`).

    Notes
    -----
    *Coordinates.* The ranks of a case sum to m(m + 1)/2, so the posterior
    lives in an (m - 1)-dimensional plane. The paper keeps m - 1 of the m
    coordinates; nbstats uses an orthonormal basis of the plane instead. The
    quadratic form is the same for any basis of the plane, and the orthonormal
    one keeps the eigenvalues of Σ comparable across directions.

    *Singular covariance.* When the posterior has no variance in some
    direction of the plane (every case ranks the algorithms the same way, all
    scores tied, ``s = 0`` with few distinct rankings, …), Σ⁻¹ does not
    exist. nbstats works in the eigenbasis of the (m - 1) × (m - 1)
    covariance; eigenvalues at or below ``1e-10`` times the largest (or below
    ``(1e-10 m)²``) have no variance. If μ - μ0 has a component along such a
    direction (more than ``1e-8 m`` rank units), the posterior puts no mass on
    μ0's side: the statistic is ``inf`` and the test rejects. Otherwise those
    directions are dropped (the pseudo-inverse of Σ). So with all scores tied
    μ = μ0 and the test does not reject, while with ``s = 0`` and every case
    ranking the algorithms the same way the posterior is a single point away
    from μ0 and it does. Both methods apply the same rule (Monte Carlo to its
    sample covariance); ``degenerate_directions`` counts such directions.

    *Monte Carlo.* The weights come from
    :class:`~nbstats.stats.bayes.weights.DirichletWeights` (chunked, common
    random numbers). Memory: the ``n_samples × m`` draws are kept (as
    ``samples``) when they fit a quarter of the ceiling of
    :mod:`nbstats.util.memory` (512 MiB by default;
    ``NBSTATS_MAX_MEMORY`` or
    :func:`~nbstats.util.memory.set_memory_ceiling`); beyond, the
    chunks are made again for each of three passes (mean, covariance,
    distances) and ``samples`` is None.

    *Calibration (issue 14).* The ellipsoid's ρ is Hotelling's T² critical
    value, the paper's large-n stand-in for the posterior region. The
    posterior's own ``1 - γ`` region, which Monte Carlo measures, is narrower
    (for many cases its radius approaches the χ²(m - 1) quantile): the
    Dirichlet posterior makes no allowance for the spread of the ranks being
    estimated from n cases. Read as a frequentist test, that region rejected
    83% of tables without a difference (2 cases × 3 algorithms, γ = 0.05), 17%
    with 10 cases and 36% with 25 cases × 10 algorithms. So the Monte Carlo
    radius is the draws' ``1 - γ`` quantile ``q`` times the ellipsoid's
    allowance, ``ρ_MC = q ρ_F / χ²⁻¹(1 - γ; m - 1)`` (a factor that tends to 1
    as n grows), and ``credibility`` is the level at which this radius
    reaches μ0 (``reject`` is ``credibility > 1 - γ``); ``posterior_mass``
    keeps the uncalibrated share of draws closer than μ0. The Bayesian
    bootstrap (``s = 0``) needs one more allowance: its posterior covariance
    is ``(n - 1)/(n + 1)`` of the ``S/n`` Hotelling's T² uses (S the ranks'
    sample covariance), so both radii are multiplied by ``(n + 1)/(n - 1)``
    (the ellipsoid is then Hotelling's T² test on the rank vectors); with
    ``s > 0`` the prior's point caps the distance of μ0 instead. **Rule:**
    both methods need at least as many cases as algorithms (``n >= m``), and
    with ``s = 0`` twice as many (``n >= 2m``), and raise a ``ValueError``
    naming that minimum otherwise. With fewer cases than algorithms, ρ_F
    does not exist, and the posterior (an affine image of
    ``Dir(s, 1, …, 1)`` with the point of no difference at a vertex) gives
    the same verdict whatever the ranks; with ``s = 0`` and fewer than 2m
    cases, the cases' rank vectors often leave the posterior without
    variance in some direction, with μ0 off its support, and it rejects
    whatever the ranks (39% of 3 × 3 null tables, 24% of 4 × 4).

    *Size.* Read as a frequentist test of "no difference", the ellipsoid is
    liberal: its rate of declaring a difference on tables without one
    exceeds γ for most ``n`` and ``m`` with more cases than algorithms
    (and is 0 where ρ_F is huge, at ``n`` close to ``m``). The reason is
    exact: the distance of μ0 is an increasing function ``g(T²)`` of
    Hotelling's T² on the cases' rank vectors with ``g(t) > t`` for moderate
    t, compared with Hotelling's critical value for T² itself (see
    :mod:`nbstats.stats.bayes.friedman_permutation`). The Bayesian guide
    tabulates the size at γ = 0.05 and 0.10 over n and m
    (``benchmarks/bench_bayes_friedman_size.py``). ``calibration=
    "permutation"`` keeps the distance and takes the radius from
    within-case permutations of the ranks instead, which bounds the size by
    γ; it is an option, not the paper's method.

    References
    ----------
    A. Benavoli, F. Mangili, G. Corani, M. Zaffalon (2015). A Bayesian
    nonparametric procedure for comparing algorithms. ICML, §5.2 and §7.

    Examples
    --------
    Demšar's Table 6 (4 algorithms, 14 data sets):

    >>> import nbstats
    >>> from nbstats import bayes_friedman
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = bayes_friedman(table, s=1.0)
    >>> res.mean_ranks.round(3).tolist()
    [3.1, 2.033, 2.867, 2.0]
    >>> round(res.statistic, 2), round(res.rho, 2), bool(res.reject)
    (18.42, 12.72, True)

    With ``s = 0`` the posterior mean ranks are Friedman's:

    >>> bayes_friedman(table, s=0).mean_ranks.round(3).tolist()
    [3.143, 2.0, 2.893, 1.964]

    Monte Carlo, calibrated to the ellipsoid's small-sample allowance:

    >>> mc = bayes_friedman(table, method="montecarlo", n_samples=20_000,
    ...                     random_state=1)
    >>> mc.samples.shape, bool(mc.reject), bool(mc.rho > 7.8)
    ((20000, 4), True, True)

    Neither method answers with fewer cases than algorithms:

    >>> bayes_friedman(table.iloc[:3], method="montecarlo")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the Bayesian Friedman test needs at least n >= m = 4 cases ...
    """
    s = check_s(s, allow_zero=True)
    threshold = check_fraction("threshold", threshold, example=0.95)
    check_choice("method", method, ("ellipsoid", "montecarlo"))
    check_choice("calibration", calibration, ("benavoli", "permutation"))
    n_permutations = check_count("n_permutations", n_permutations)
    if calibration == "permutation" and method != "ellipsoid":
        raise ValueError(
            "calibration='permutation' calibrates the ellipsoid's exact-moment "
            f"distance; got method={method!r}. Use method='ellipsoid' with it, "
            "or calibration='benavoli' with Monte Carlo."
        )
    n_samples = check_n_samples(n_samples, warn=method == "montecarlo")
    check_flag("higher_is_better", higher_is_better)
    check_random_state(random_state)
    table = score_table(scores, nan_policy=nan_policy)
    n, m = table.shape
    check_enough_cases(n, m, method, s)
    # s = 0: the Bayesian bootstrap's distances are (n + 1)/(n - 1) times
    # Hotelling's (friedman_calibration); both radii allow for it
    bootstrap = bootstrap_factor(n, s)
    ranks = rank_rows(table.to_numpy(), higher_is_better=higher_is_better)
    # one canonical layout of cases and algorithms (canonical.py): the same
    # numbers, bit for bit, whatever the order of the rows and columns; the
    # results are mapped back to the given order below
    rows, columns = layout(
        oriented(table.to_numpy(), higher_is_better), list(table.columns)
    )
    ranks = ranks[np.ix_(rows, columns)]
    back = np.argsort(columns)
    prior = np.full(m, (m + 1) / 2)
    mu, cov = posterior_moments(ranks, s)
    basis = plane_basis(m)
    scale = float(m)

    samples = None
    posterior_mass = None
    if method == "ellipsoid":
        lam, vec, keep = _eigen(basis.T @ cov @ basis, scale)
        statistic = _distance(basis.T @ (prior - mu), lam, vec, keep, scale)
        d1, d2 = m - 1, n - m + 1
        factor = (n - 1) * (m - 1) / d2 * bootstrap
        rho = hotelling_rho(threshold, n, m) * bootstrap
        credibility = float(sps.f.cdf(statistic / factor, d1, d2))
        reject = bool(statistic > rho)
        if calibration == "permutation":
            rho, pvalue = permutation_calibration(
                ranks, s, statistic, 1 - threshold, n_permutations, random_state
            )
            credibility = 1.0 - pvalue
            reject = bool(pvalue <= 1 - threshold)
    else:
        if 8 * n_samples * m <= budget(SAMPLES_SHARE):
            samples = posterior_samples(ranks, s, n_samples, random_state=random_state)
            center = samples.mean(axis=0)
            projected = (samples - center) @ basis
            sample_cov = projected.T @ projected / max(n_samples - 1, 1)
            lam, vec, keep = _eigen(sample_cov, scale)
            # the draws span the directions with variance; ignore their
            # round-off along the others
            z = projected @ vec[:, keep]
            distances = np.sum(z**2 / lam[keep], axis=1)
        else:  # too many to keep: two passes over the same chunks of draws
            center, lam, vec, keep, distances = _chunked_distances(
                ranks, s, n_samples, random_state, basis, scale
            )
        statistic = _distance(basis.T @ (prior - center), lam, vec, keep, scale)
        ordered = np.sort(distances)
        # the posterior's own 1 - γ radius, scaled by Hotelling's small-sample
        # factor (friedman_calibration): the raw posterior region rejects far
        # more than γ of tables without a difference
        rho = calibrated_rho(ordered, threshold, n, m, bootstrap)
        credibility = calibrated_credibility(statistic, ordered, n, m, bootstrap)
        posterior_mass = float(np.count_nonzero(distances < statistic) / n_samples)
        reject = bool(statistic > rho)
        if samples is not None:
            samples = np.ascontiguousarray(samples[:, back])
            samples.flags.writeable = False

    names = table.columns
    return BayesFriedmanResult(
        mean_ranks=pd.Series(mu[back], index=names, name="mean rank"),
        covariance=pd.DataFrame(
            cov[np.ix_(back, back)], index=names.copy(), columns=names.copy()
        ),
        statistic=statistic,
        rho=rho,
        credibility=credibility,
        reject=reject,
        threshold=threshold,
        s=s,
        method=method,
        n_cases=n,
        n_algorithms=m,
        n_samples=n_samples if method == "montecarlo" else None,
        samples=samples,
        degenerate_directions=int(np.count_nonzero(~keep)),
        higher_is_better=bool(higher_is_better),
        posterior_mass=posterior_mass,
        calibration=calibration,
        n_permutations=n_permutations if calibration == "permutation" else None,
        cases=table.index.copy(),
    )


def posterior_moments(ranks: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact posterior mean and covariance of ``w0 R0 + R w`` (Theorem 1).

    Parameters
    ----------
    ranks : ndarray
        n × m ranks (one row per case), any direction.
    s : float
        Prior strength ``>= 0``; ``R0 = (m + 1)/2`` for every algorithm.

    Returns
    -------
    mu : ndarray (m,)
        ``(s R0 + Σ_j r_j) / α`` with ``α = s + n``.
    cov : ndarray (m, m)
        ``[s (R0 - μ)(R0 - μ)ᵀ + Σ_j (r_j - μ)(r_j - μ)ᵀ] / (α (α + 1))``,
        the centred (and so positive semi-definite) form of
        ``[c cᵀ + s R0 R0ᵀ + R Rᵀ] / (α (α + 1)) - μ μᵀ``.

    Examples
    --------
    >>> mu, cov = posterior_moments(np.array([[1.0, 2.0], [1.0, 2.0]]), s=0)
    >>> mu.tolist(), cov.tolist()
    ([1.0, 2.0], [[0.0, 0.0], [0.0, 0.0]])
    """
    ranks = np.asarray(ranks, dtype=float)
    n, m = ranks.shape
    alpha = s + n
    prior = np.full(m, (m + 1) / 2)
    mu = (s * prior + ranks.sum(axis=0)) / alpha
    centred = ranks - mu
    offset = prior - mu
    cov = (centred.T @ centred + s * np.outer(offset, offset)) / (alpha * (alpha + 1))
    return mu, (cov + cov.T) / 2


def posterior_samples(
    ranks: np.ndarray, s: float, n_samples: int, *, random_state: object = None
) -> np.ndarray:
    """Posterior draws of the mean-rank vector ``w0 R0 + R w``.

    Parameters
    ----------
    ranks : ndarray
        n × m ranks (one row per case).
    s : float
        Prior strength ``>= 0``.
    n_samples : int
        Number of draws.
    random_state : None, int or Generator
        Seed of :class:`~nbstats.stats.bayes.weights.DirichletWeights`.

    Returns
    -------
    ndarray
        ``n_samples × m`` float64.

    Examples
    --------
    >>> draws = posterior_samples(np.array([[1.0, 2.0], [2.0, 1.0]]), 1.0, 5,
    ...                           random_state=0)
    >>> draws.shape, bool(np.allclose(draws.sum(axis=1), 3.0))
    ((5, 2), True)
    """
    ranks = np.asarray(ranks, dtype=float)
    n, m = ranks.shape
    prior = np.full(m, (m + 1) / 2)
    out = np.empty((n_samples, m))
    crn = DirichletWeights(n, n_samples, random_state, columns_per_case=3)
    for chunk in crn:
        w0, w = chunk.weights(s)
        out[chunk.rows] = w0[:, None] * prior + w @ ranks
    return out


def _chunked_distances(
    ranks: np.ndarray,
    s: float,
    n_samples: int,
    random_state: object,
    basis: np.ndarray,
    scale: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(center, lam, vec, keep, distances)`` of the Monte Carlo test without
    holding the draws: the mean and covariance accumulate over chunks, then
    the same chunks (same seed) give each draw's distance."""
    n, m = ranks.shape
    prior = np.full(m, (m + 1) / 2)
    seed = seed_sequence(random_state)

    def chunks():
        crn = DirichletWeights(n, n_samples, seed, columns_per_case=3)
        for chunk in crn:
            w0, w = chunk.weights(s)
            yield w0[:, None] * prior + w @ ranks

    total, shift = np.zeros(m), None
    for draws in chunks():
        shift = draws[0] if shift is None else shift  # against cancellation
        total += (draws - shift).sum(axis=0)
    center = shift + total / n_samples
    gram = np.zeros((m - 1, m - 1))
    for draws in chunks():
        projected = (draws - center) @ basis
        gram += projected.T @ projected
    lam, vec, keep = _eigen(gram / max(n_samples - 1, 1), scale)
    distances = np.empty(n_samples)
    start = 0
    for draws in chunks():
        z = ((draws - center) @ basis) @ vec[:, keep]
        distances[start : start + len(z)] = np.sum(z**2 / lam[keep], axis=1)
        start += len(z)
    return center, lam, vec, keep, distances


def _eigen(cov: np.ndarray, scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eigenvalues, eigenvectors and the mask of directions with variance."""
    lam, vec = np.linalg.eigh((cov + cov.T) / 2)
    largest = max(float(lam[-1]), 0.0) if lam.size else 0.0
    keep = lam > max(largest * EIGEN_RTOL, (SD_ATOL * scale) ** 2)
    return lam, vec, keep


def _distance(
    diff: np.ndarray, lam: np.ndarray, vec: np.ndarray, keep: np.ndarray, scale: float
) -> float:
    """Squared Mahalanobis length of ``diff``; inf off the posterior's support."""
    z = vec.T @ diff
    if np.any(np.abs(z[~keep]) > OFFSET_ATOL * scale):
        return math.inf
    return float(np.sum(z[keep] ** 2 / lam[keep]))
