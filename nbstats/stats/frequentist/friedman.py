"""Friedman test and the Iman–Davenport correction (Demšar 2006, §3.2.2)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.results.frequentist import FriedmanResult
from nbstats.scores.ranks import rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_flag

__all__ = ["friedman"]


def friedman(
    scores: pd.DataFrame | np.ndarray,
    *,
    tie_correction: bool = False,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> FriedmanResult:
    """Friedman test of whether the algorithms' mean ranks differ.

    .. math::

        \\chi^2_F = \\frac{12N}{k(k+1)}\\Big[\\sum_j R_j^2 - \\frac{k(k+1)^2}{4}\\Big],
        \\qquad F_F = \\frac{(N-1)\\chi^2_F}{N(k-1) - \\chi^2_F}

    with N cases, k algorithms and mean ranks R_j (1 = best).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    tie_correction : bool
        Divide χ²_F by ``1 - Σ(t³ - t) / (N k (k² - 1))`` over the tie groups
        within cases, as scipy's ``friedmanchisquare`` and R's
        ``friedman.test`` do. Demšar's formula (the default) has no correction.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.

    Returns
    -------
    FriedmanResult
        ``statistic, pvalue = result`` (χ²_F and its p-value); the
        Iman–Davenport ``f_statistic`` and ``f_pvalue``; ``mean_ranks``.
        If every case is a complete tie the statistic is 0 and p = 1.

    Examples
    --------
    Demšar's Table 6:

    >>> import nbstats
    >>> res = nbstats.friedman(nbstats.datasets.load("demsar2006"))
    >>> round(res.statistic, 2), round(res.f_statistic, 2)
    (9.28, 3.69)

    Compare with SciPy (which always applies the tie correction):

    >>> from scipy.stats import friedmanchisquare
    >>> table = nbstats.datasets.load("demsar2006")
    >>> scipy_res = friedmanchisquare(*table.to_numpy().T)
    >>> corrected = nbstats.friedman(table, tie_correction=True)
    >>> bool(np.isclose(corrected.statistic, scipy_res.statistic))
    True
    """
    check_flag("tie_correction", tie_correction)
    check_flag("higher_is_better", higher_is_better)
    table = score_table(scores, nan_policy=nan_policy)
    n, k = table.shape
    r = rank_rows(table.to_numpy(), higher_is_better=higher_is_better)
    mean_ranks = r.mean(axis=0)
    statistic = 12 * n / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4)
    statistic = max(float(statistic), 0.0)  # rounding can give -1e-15
    if tie_correction:
        divisor = 1 - _tie_sum(r) / (n * k * (k**2 - 1))
        statistic = statistic / divisor if divisor > 0 else 0.0
    df = k - 1
    pvalue = float(sps.chi2.sf(statistic, df)) if statistic > 0 else 1.0
    f_df = (k - 1, (k - 1) * (n - 1))
    denominator = n * (k - 1) - statistic
    if statistic == 0:
        f_statistic, f_pvalue = 0.0, 1.0
    elif denominator <= 0:  # every case ranks the algorithms identically
        f_statistic, f_pvalue = np.inf, 0.0
    else:
        f_statistic = (n - 1) * statistic / denominator
        f_pvalue = float(sps.f.sf(f_statistic, *f_df))
    return FriedmanResult(
        statistic=statistic,
        pvalue=pvalue,
        df=df,
        f_statistic=float(f_statistic),
        f_pvalue=f_pvalue,
        f_df=f_df,
        mean_ranks=pd.Series(mean_ranks, index=table.columns, name="mean rank"),
        n_cases=n,
        n_algorithms=k,
        tie_correction=tie_correction,
        cases=table.index.copy(),
    )


def _tie_sum(ranks: np.ndarray) -> float:
    """Σ (t³ - t) over all groups of tied ranks within each row.

    Ranks are multiples of ½ below k + 1, so ``row · 2(k + 1) + 2 rank`` is an
    integer key unique to (row, rank): one ``np.unique`` counts every group.
    """
    n, k = ranks.shape
    keys = np.arange(n)[:, None] * (2 * (k + 1)) + np.rint(2 * ranks).astype(np.int64)
    _, counts = np.unique(keys, return_counts=True)
    counts = counts.astype(float)
    return float(np.sum(counts**3 - counts))
