"""The assumptions of the parametric tests: normality, equal variances, sphericity.

The paired t-test and the repeated-measures ANOVA with Tukey's post-hoc
assume normal errors, and the ANOVA also sphericity (equal variances of all
pairwise differences; Demšar 2006, §3.2.1). :func:`nbstats.analyze` checks
them with the tests of this module before it chooses a parametric or a
rank-based analysis.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from nbstats.results.analysis import SphericityResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.frequentist.anova import greenhouse_geisser_epsilon
from nbstats.util import scipy_stats as sps

__all__ = ["equal_variances", "mauchly", "normality"]

#: Shapiro–Wilk needs at least this many values.
MIN_SHAPIRO = 3


def normality(values: pd.DataFrame, *, alpha: float = 0.05) -> pd.DataFrame:
    """Shapiro–Wilk per column, at ``alpha`` Bonferroni-corrected over columns.

    Parameters
    ----------
    values : DataFrame
        One column per sample (an algorithm's scores, or paired differences).
    alpha : float
        Family-wise level: each column is tested at ``alpha / columns``.

    Returns
    -------
    DataFrame
        Index = columns; ``W``, ``pvalue`` and ``normal`` (``pvalue >``
        the corrected level). A constant column has W = 1, p = 1 (no evidence
        against normality; its variance is zero, which the other checks see).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.stats.frequentist.assumptions import normality
    >>> table = nbstats.datasets.load("demsar2006")
    >>> normality(table)["normal"].tolist()  # each p > 0.05 / 4
    [True, True, True, True]
    """
    level = alpha / values.shape[1]
    rows = []
    for name in values.columns:
        column = values[name].to_numpy(dtype=float)
        column = column / power_of_two_scale(column)
        if len(column) < MIN_SHAPIRO:
            raise ValueError(
                f"the Shapiro-Wilk test needs at least {MIN_SHAPIRO} cases, got "
                f"{len(column)}."
            )
        if np.ptp(column) == 0:
            w, p = 1.0, 1.0
        else:
            w, p = (float(v) for v in sps.shapiro(column - column.mean()))
        rows.append({"W": w, "pvalue": p, "normal": p > level})
    return pd.DataFrame(rows, index=values.columns.copy())


def equal_variances(values: pd.DataFrame, *, normal: bool) -> tuple[str, float, float]:
    """Bartlett's test when every column is normal, else Levene's (median).

    Bartlett's test is exact under normality and misleads without it;
    Levene's with medians (Brown–Forsythe) is robust. Returns ``(name,
    statistic, pvalue)``; columns with no spread give ``p = 1`` when all are
    constant.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.stats.frequentist.assumptions import equal_variances
    >>> table = nbstats.datasets.load("demsar2006")
    >>> name, stat, p = equal_variances(table, normal=False)
    >>> name, round(p, 3)
    ('Levene', 0.979)
    """
    data = values.to_numpy(dtype=float)
    data = data / power_of_two_scale(data)
    columns = [data[:, j] - data[:, j].mean() for j in range(data.shape[1])]
    if all(np.ptp(c) == 0 for c in columns):
        return ("Bartlett" if normal else "Levene"), 0.0, 1.0
    if normal:
        stat, p = sps.bartlett(*columns)
        return "Bartlett", float(stat), float(p)
    stat, p = sps.levene(*columns, center="median")
    return "Levene", float(stat), float(p)


def mauchly(
    scores: pd.DataFrame | np.ndarray,
    *,
    nan_policy: NanPolicy = "raise",
) -> SphericityResult:
    """Mauchly's test of sphericity for a repeated-measures design.

    With ``C`` an orthonormal basis of the contrasts (k × (k − 1)) and ``S``
    the covariance of the cases' scores, ``W = det(C'SC) / (tr(C'SC)/p)^p``
    with ``p = k − 1``; ``-(N − 1) ρ ln W`` is compared with χ² on
    ``p(p + 1)/2 − 1`` degrees of freedom, ρ and a second-order term as in
    Anderson (2003, §10.7). Also returns the Greenhouse–Geisser ε.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms (at least 3).
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.

    Returns
    -------
    SphericityResult
        ``statistic`` (W), ``pvalue``, ``chi2``, ``df``, ``epsilon``. With
        fewer cases than algorithms the covariance is singular: W = 0 and
        ``pvalue`` NaN (the test cannot be made; ``testable`` False).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.stats.frequentist.assumptions import mauchly
    >>> res = mauchly(nbstats.datasets.load("demsar2006"))
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (0.4643, 0.1104)
    """
    table = score_table(
        scores,
        nan_policy=nan_policy,
    )
    n, k = table.shape
    if k < 3:
        raise ValueError(
            f"sphericity concerns three or more algorithms (with two there is one "
            f"difference and nothing to test), got {k}."
        )
    values = table.to_numpy()
    values = values / power_of_two_scale(values)
    p = k - 1
    # an orthonormal basis of the contrasts: QR of [1, e_1..e_{k-1}]
    basis, _ = np.linalg.qr(np.column_stack([np.ones(k), np.eye(k)[:, :p]]))
    contrasts = values @ basis[:, 1:]
    covariance = np.atleast_2d(np.cov(contrasts, rowvar=False))
    epsilon = greenhouse_geisser_epsilon(values)
    df_cases = n - 1
    f = p * (p + 1) // 2 - 1
    trace = float(np.trace(covariance))
    sign, logdet = np.linalg.slogdet(covariance / (trace / p))
    testable = df_cases >= p and sign > 0 and trace > 0
    if not testable:
        return SphericityResult(
            statistic=0.0,
            pvalue=math.nan,
            chi2=math.nan,
            df=f,
            epsilon=epsilon,
            testable=False,
            n_cases=n,
            n_algorithms=k,
        )
    log_w = float(logdet)  # det(S / (tr S / p)) = W
    rho = 1 - (2 * p**2 + p + 2) / (6 * p * df_cases)
    chi2 = -df_cases * rho * log_w
    omega = (
        (p + 2)
        * (p - 1)
        * (p - 2)
        * (2 * p**3 + 6 * p**2 + 3 * p + 2)
        / (288 * (df_cases * p * rho) ** 2)
    )
    tail = float(sps.chi2.sf(chi2, f))
    tail4 = float(sps.chi2.sf(chi2, f + 4))
    pvalue = min(1.0, max(0.0, tail + omega * (tail4 - tail)))
    return SphericityResult(
        statistic=math.exp(log_w),
        pvalue=pvalue,
        chi2=chi2,
        df=f,
        epsilon=epsilon,
        testable=True,
        n_cases=n,
        n_algorithms=k,
    )
