"""Repeated-measures ANOVA over cases (Demšar 2006, §3.2.1)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from nbstats.results.frequentist import AnovaResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.table import NanPolicy, score_table
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_flag

__all__ = ["CaseDeviations", "rm_anova", "within_case_deviations"]

#: Powers of two (exponents below this in magnitude) whose squares, times a
#: sum of squares of scaled data (at most ~1e12), stay normal float64 numbers.
_SQUARES_SAFE = 450


class CaseDeviations(NamedTuple):
    """Scores minus their case's mean, in units of ``2**exponent``."""

    values: np.ndarray
    exponent: int
    #: every case has the same deviations (no error at all)
    identical_cases: bool
    #: every score equals the others of its case (no within-case variation)
    no_variation: bool


def within_case_deviations(x: np.ndarray) -> CaseDeviations:
    """Each score minus its case's mean, computed so the case effect cancels.

    ``x[i, j] - mean_j x[i, j]`` equals ``values[i, j] * 2**exponent``. The
    deviations are taken from the differences to the case's first score,
    ``x[i, j] - x[i, 0]``: each is correctly rounded (the error is relative to
    the difference, however large the case's level), and the mean is then
    taken of these differences. Subtracting a computed case mean instead
    would leave a round-off of the case's magnitude (a task of 1000 s, an ulp
    of 1e-13) beside differences that may be smaller than that. The scores
    and the differences are divided by powers of two (exact) so that nothing
    overflows and tiny differences are not lost to underflow when squared.

    Parameters
    ----------
    x : ndarray
        Score table, rows = cases, finite values.

    Returns
    -------
    CaseDeviations
        ``values`` (rows sum to about 0), ``exponent`` and two exact flags.

    Examples
    --------
    >>> x = np.array([[1000.0, 1000.0002], [3.0, 3.0002]])
    >>> dev = within_case_deviations(x)
    >>> dev.values * 2.0**dev.exponent
    array([[-1.e-04,  1.e-04],
           [-1.e-04,  1.e-04]])
    """
    scale = power_of_two_scale(x)
    z = x / scale
    differences = z - z[:, :1]
    scale_differences = power_of_two_scale(differences)
    w = differences / scale_differences
    return CaseDeviations(
        values=w - w.mean(axis=1, keepdims=True),
        exponent=_exponent(scale) + _exponent(scale_differences),
        identical_cases=bool(np.all(w == w[:1])),
        no_variation=not bool(np.any(w)),
    )


def _exponent(power_of_two: float) -> int:
    return int(np.frexp(power_of_two)[1]) - 1


def rm_anova(
    scores: pd.DataFrame | np.ndarray,
    *,
    rank_transform: bool = False,
    nan_policy: NanPolicy = "raise",
) -> AnovaResult:
    """One-way repeated-measures ANOVA: algorithms within cases.

    The total variability is split into algorithms (k - 1 df), cases (N - 1
    df) and error ((k - 1)(N - 1) df); ``F = MS_algorithms / MS_error``.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases (subjects), columns = algorithms.
    rank_transform : bool
        Replace every score by its rank among all N·k scores (average ranks for
        ties) before the ANOVA — Conover and Iman's rank transform, used by
        Foucart et al. (2025) for their ANOVA–Tukey rank intervals.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.

    Returns
    -------
    AnovaResult
        ``statistic, pvalue = result``; also the Greenhouse–Geisser ``epsilon``
        and ``pvalue_gg`` (Demšar's concern is sphericity) and the ANOVA table.
        If no algorithm differs from another within any case, F = 0 and
        p = 1 (also when there is no error either, as :func:`nbstats.ttest`'s
        t = 0 for all-zero differences); if every case has exactly the same
        differences between the algorithms (no error) but they are not all
        zero, F = ∞ and p = 0. With two algorithms F is the paired t-test's
        t², and p its two-sided p-value.

    Notes
    -----
    F, p and ε depend only on the differences within each case: they are
    computed from each score's deviation from its case's mean, and these from
    the differences to the case's first score
    (:func:`within_case_deviations`), so a large case effect (tasks of 0 to
    1000 s) cannot drown a consistent small difference (0.2 ms) in round-off.
    Powers of two (exact) rescale the scores and the differences, so F, p and
    ε do not depend on the units (scores times 1e-300 or 1e300 give the same F
    and p) and no sum overflows. The table's ``sum_sq`` and ``mean_sq`` are
    in squared score units, except when those leave the float64 range (scores
    beyond about 1e±135): then they are in units of ``table.attrs["unit"]``
    squared (a power of two; ``attrs["unit"]`` is 1.0 otherwise).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.rm_anova(nbstats.datasets.load("demsar2006"))
    >>> res.df
    (3, 39)

    Compare with statsmodels' ``AnovaRM`` on the long form of the same table:

    >>> from statsmodels.stats.anova import AnovaRM
    >>> table = nbstats.datasets.load("demsar2006")
    >>> long = table.rename_axis("case").reset_index().melt(
    ...     id_vars="case", var_name="algorithm", value_name="auc")
    >>> sm = AnovaRM(long, "auc", "case", within=["algorithm"]).fit()
    >>> bool(np.isclose(sm.anova_table["F Value"].iloc[0], res.statistic))
    True
    """
    check_flag("rank_transform", rank_transform)
    table = score_table(scores, nan_policy=nan_policy)
    x = table.to_numpy()
    if rank_transform:
        x = sps.rankdata(x, method="average").reshape(x.shape)
    n, k = x.shape
    deviations = within_case_deviations(x)
    r = deviations.values
    column_means = r.mean(axis=0)
    ss_algorithms = n * float(np.sum(column_means**2))
    ss_error = float(np.sum((r - column_means) ** 2))
    if deviations.identical_cases:
        # every case has the same deviations: no error, only round-off in the
        # column means (the paired t-test's "all differences equal")
        ss_error = 0.0
    if deviations.no_variation:
        ss_algorithms = 0.0
    # the case effect, from the scores themselves (it does not enter F)
    scale = power_of_two_scale(x)
    z = x / scale
    row_means = z.mean(axis=1) - z.mean()
    ss_cases = k * float(np.sum(row_means**2))
    df_algorithms, df_cases, df_error = k - 1, n - 1, (k - 1) * (n - 1)
    ms_algorithms = ss_algorithms / df_algorithms
    ms_error = ss_error / df_error
    if ss_algorithms == 0.0:
        statistic, pvalue = 0.0, 1.0  # also 0/0: the t-test's t = 0, p = 1
    elif ss_error == 0.0:
        statistic, pvalue = np.inf, 0.0
    else:
        statistic = ms_algorithms / ms_error
        pvalue = float(sps.f.sf(statistic, df_algorithms, df_error))
    epsilon = greenhouse_geisser_epsilon(r)
    if np.isfinite(statistic) and statistic > 0:
        pvalue_gg = float(
            sps.f.sf(statistic, epsilon * df_algorithms, epsilon * df_error)
        )
    else:
        pvalue_gg = pvalue
    # the table in squared score units, unless they leave the float64 range;
    # exponents of two, so that no intermediate product overflows
    within = deviations.exponent
    unit_exponent = (
        0
        if all(abs(e) < _SQUARES_SAFE for e in (_exponent(scale), within))
        else _exponent(scale)
    )
    unit = float(np.ldexp(1.0, unit_exponent))
    factor = float(np.ldexp(1.0, 2 * (within - unit_exponent)))
    factor_cases = float(np.ldexp(1.0, 2 * (_exponent(scale) - unit_exponent)))
    sums = (factor * ss_algorithms, factor_cases * ss_cases, factor * ss_error)
    means = (
        factor * ms_algorithms,
        factor_cases * ss_cases / df_cases,
        factor * ms_error,
    )
    anova_table = pd.DataFrame(
        {
            "sum_sq": list(sums),
            "df": [df_algorithms, df_cases, df_error],
            "mean_sq": list(means),
            "F": [statistic, np.nan, np.nan],
            "pvalue": [pvalue, np.nan, np.nan],
        },
        index=pd.Index(["algorithms", "cases", "error"], name="source"),
    )
    anova_table.attrs["unit"] = unit
    return AnovaResult(
        statistic=float(statistic),
        pvalue=pvalue,
        df=(df_algorithms, df_error),
        epsilon=epsilon,
        pvalue_gg=pvalue_gg,
        table=anova_table,
        rank_transform=rank_transform,
        n_cases=n,
        n_algorithms=k,
    )


def greenhouse_geisser_epsilon(x: np.ndarray) -> float:
    """Greenhouse–Geisser ε from the double-centred covariance of the columns.

    ``ε = tr(S_c)² / ((k - 1) tr(S_c²))``, between ``1/(k-1)`` and 1.
    """
    k = x.shape[1]
    if k == 2:
        return 1.0
    covariance = np.cov(x, rowvar=False)
    centring = np.eye(k) - np.full((k, k), 1 / k)
    centred = centring @ covariance @ centring
    trace = np.trace(centred)
    trace_sq = float(np.sum(centred * centred))  # tr(S_c S_c), S_c symmetric
    scale = float(np.sum(covariance * covariance))
    if trace_sq <= 1e-24 * scale or trace_sq == 0:
        return 1.0  # no variability between algorithms: nothing to correct
    return float(np.clip(trace**2 / ((k - 1) * trace_sq), 1 / (k - 1), 1.0))
