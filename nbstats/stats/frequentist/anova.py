"""Repeated-measures ANOVA over cases (Demšar 2006, §3.2.1)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats import _scipy_stats as sps
from nbstats.results.frequentist import AnovaResult
from nbstats.scores import NanPolicy, power_of_two_scale, score_table

__all__ = ["rm_anova"]

#: Scales whose squares (times a sum of squares of scaled data, at most
#: ~1e12) stay normal float64 numbers.
_SQUARES_SAFE = (2.0**-450, 2.0**450)


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
        If there is no variability left, F = 0 and p = 1; if the error is zero
        but the algorithms differ, F = ∞ and p = 0 (sums of squares below
        1e-12 of the total are taken as rounding dust).

    Notes
    -----
    The scores are divided by a power of two near their largest magnitude and
    centred before the sums of squares are taken, so F, p and ε do not depend
    on the units (scores times 1e-300 or 1e300 give the same F and p) and no
    sum overflows. The table's ``sum_sq`` and ``mean_sq`` are in squared score
    units, except when those leave the float64 range (scores beyond about
    1e±135): then they are in units of ``table.attrs["unit"]`` squared (a
    power of two; ``attrs["unit"]`` is 1.0 otherwise).

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
    table = score_table(scores, nan_policy=nan_policy)
    x = table.to_numpy()
    if rank_transform:
        x = sps.rankdata(x, method="average").reshape(x.shape)
    n, k = x.shape
    # Scaled (by a power of two: exact) and centred, so that F and p do not
    # depend on the units and no sum of squares overflows or underflows.
    scale = power_of_two_scale(x)
    z = x / scale
    z = z - z.mean()
    column_means = z.mean(axis=0)
    row_means = z.mean(axis=1)
    ss_algorithms = n * float(np.sum(column_means**2))
    ss_cases = k * float(np.sum(row_means**2))
    ss_total = float(np.sum(z**2))
    residual = z - column_means[None, :] - row_means[:, None]
    ss_error = float(np.sum(residual**2))
    df_algorithms, df_cases, df_error = k - 1, n - 1, (k - 1) * (n - 1)
    ms_algorithms = ss_algorithms / df_algorithms
    ms_error = ss_error / df_error
    # Sums of squares below this are rounding dust (e.g. constant scores that
    # are not binary fractions): relative to the variability, or to the scale
    # of the data when there is no variability at all.
    raw = x / scale
    tiny = 1e-12 * max(ss_total, np.finfo(float).eps * float(np.sum(raw * raw)))
    if ss_algorithms <= tiny:
        statistic, pvalue = 0.0, 1.0
    elif ss_error <= tiny:
        statistic, pvalue = np.inf, 0.0
    else:
        statistic = ms_algorithms / ms_error
        pvalue = float(sps.f.sf(statistic, df_algorithms, df_error))
    epsilon = greenhouse_geisser_epsilon(z)
    if np.isfinite(statistic) and statistic > 0:
        pvalue_gg = float(
            sps.f.sf(statistic, epsilon * df_algorithms, epsilon * df_error)
        )
    else:
        pvalue_gg = pvalue
    # the table in squared score units, unless they leave the float64 range
    unit = 1.0 if _SQUARES_SAFE[0] < scale < _SQUARES_SAFE[1] else scale
    factor = (scale / unit) ** 2
    anova_table = pd.DataFrame(
        {
            "sum_sq": [factor * v for v in (ss_algorithms, ss_cases, ss_error)],
            "df": [df_algorithms, df_cases, df_error],
            "mean_sq": [
                factor * v for v in (ms_algorithms, ss_cases / df_cases, ms_error)
            ],
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
