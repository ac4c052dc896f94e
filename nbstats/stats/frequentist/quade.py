"""Quade test: Friedman's idea with cases weighted by how much they spread."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from nbstats.results.quade import QuadeResult
from nbstats.scores.ranks import rank_rows
from nbstats.scores.table import NanPolicy, score_table
from nbstats.util import scipy_stats as sps

__all__ = ["quade", "quade_scores", "weighted_rank_standard_error"]


def quade(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> QuadeResult:
    """Quade test of whether the algorithms differ (Quade 1979; Conover 1999).

    Like Friedman's test it ranks the algorithms within each case, but it
    weights each case by the rank Q_i of its range (best minus worst score)
    among the cases: a case on which the algorithms differ a lot counts more
    than one on which they nearly tie. With within-case ranks r_ij,
    ``S_ij = Q_i (r_ij − (k + 1)/2)``, ``A = Σ S_ij²``, ``B = Σ_j S_j² / n``
    (S_j the column sums),

    .. math::

        F = \\frac{(n - 1) B}{A - B} \\sim F(k - 1, (n - 1)(k - 1)).

    The ranges must be commensurable across cases (e.g. accuracies); for
    scores on different scales per case, Friedman's test is the safer choice.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    higher_is_better : bool
        Orients the reported weighted mean ranks (1 = best); F does not depend
        on it.
    nan_policy : {"raise", "omit"}

    Returns
    -------
    QuadeResult
        ``statistic, pvalue = result``; ``weighted_mean_ranks``.

    Notes
    -----
    When A = B (every case ranks the algorithms alike) F is infinite; the
    p-value is then Conover's ``(k!)^(1 − n)``, the chance that n cases agree
    by accident (R's ``quade.test`` does the same, with a NaN statistic).
    When every case is a complete tie (A = 0) there is no evidence of a
    difference: F = 0 and p = 1 (R returns ``(k!)^(1 − n)`` there too).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.quade(nbstats.datasets.load("demsar2006"))
    >>> res.f_df
    (3, 39)

    Compare with R: ``quade.test(as.matrix(table))`` gives the same F and p.
    """
    table = score_table(scores, nan_policy=nan_policy)
    n, k = table.shape
    q, r, s = quade_scores(table.to_numpy(), higher_is_better=higher_is_better)
    a = float(np.sum(s**2))
    column = s.sum(axis=0)
    b = float(np.sum(column**2) / n)
    f_df = (k - 1, (n - 1) * (k - 1))
    if a == 0:
        statistic, pvalue = 0.0, 1.0
    elif math.isclose(a, b, rel_tol=1e-12):
        statistic = math.inf
        pvalue = math.exp((1 - n) * math.lgamma(k + 1))
    else:
        statistic = (n - 1) * b / (a - b)
        pvalue = float(sps.f.sf(statistic, *f_df))
    # Σ_i Q_i r_ij / Σ_i Q_i: each algorithm's rank, cases weighted by Q_i
    weighted = (q[:, None] * r).sum(axis=0) / q.sum()
    return QuadeResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        f_df=f_df,
        weighted_mean_ranks=pd.Series(weighted, index=table.columns, name="rank"),
        n_cases=n,
        n_algorithms=k,
    )


def quade_scores(
    values: np.ndarray, *, higher_is_better: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Quade's case weights Q_i (ranks of the cases' ranges), within-case
    ranks r_ij (1 = best) and weighted scores ``S_ij = Q_i (r_ij − (k+1)/2)``.

    Examples
    --------
    >>> q, r, s = quade_scores(np.array([[0.9, 0.5], [0.6, 0.55]]))
    >>> q.tolist(), s.tolist()
    ([2.0, 1.0], [[-1.0, 1.0], [-0.5, 0.5]])
    """
    k = values.shape[1]
    # halves first: the range of ±1e308 scores does not overflow, and the
    # ranking of the ranges is the same
    spread = values.max(axis=1) / 2 - values.min(axis=1) / 2
    q = sps.rankdata(spread, method="average")
    r = rank_rows(values, higher_is_better=higher_is_better)
    return q, r, q[:, None] * (r - (k + 1) / 2)


def weighted_rank_standard_error(q: np.ndarray, s: np.ndarray) -> float:
    """Standard error of a difference of two of Quade's weighted mean ranks
    ``T_j = Σ_i Q_i r_ij / Σ_i Q_i``, under the null hypothesis that the
    algorithms are exchangeable within each case.

    Under that null the within-case ranks of case i are assigned to the
    algorithms in random order, independently across cases; the weights Q_i
    (ranks of the cases' ranges) do not depend on that order. Two distinct
    cells of case i then have ``Var(r_ia − r_ib) = 2k v_i / (k − 1)`` with
    ``v_i = Σ_j (r_ij − (k+1)/2)² / k`` (sampling without replacement), so

    .. math::

        \\operatorname{Var}(T_a - T_b)
        = \\frac{2k}{k-1} \\frac{\\sum_i Q_i^2 v_i}{(\\sum_i Q_i)^2}
        = \\frac{2A}{(k-1)(\\sum_i Q_i)^2},

    with Quade's ``A = Σ S_ij²`` (``S_ij = Q_i (r_ij − (k+1)/2)``): exact
    with ties in the ranks or the ranges. Without ties, ``v_i = (k²−1)/12``,
    ``Σ Q_i² = n(n+1)(2n+1)/6`` and ``Σ Q_i = n(n+1)/2`` give

    .. math::

        \\operatorname{Var}(T_a - T_b) = \\frac{k(k+1)(2n+1)}{9n(n+1)}.

    García et al. (2010) and scmamp's ``quadePost`` use
    ``k(k+1)(2n+1)(k−1)/(18n(n+1))``, this times ``(k − 1)/2``: right at
    k = 3 only, too large above (at k = 5 their z-tests reject with
    probability 0.003–0.007 at the 0.05 level under the null; see the
    migration notes on scmamp).

    Parameters
    ----------
    q : ndarray
        Case weights Q_i, as :func:`quade_scores` returns them.
    s : ndarray
        Weighted scores S_ij, as :func:`quade_scores` returns them.

    Examples
    --------
    Without ties it is the closed form: n = 4 cases, k = 3 algorithms.

    >>> values = np.array([[3.0, 2, 1], [1, 3.5, 2.5], [2, 1.2, 3], [5, 1, 3]])
    >>> q, r, s = quade_scores(values)
    >>> se = weighted_rank_standard_error(q, s)
    >>> bool(np.isclose(se**2, 3 * 4 * 9 / (9 * 4 * 5)))
    True
    """
    k = s.shape[1]
    a = float(np.sum(np.asarray(s, dtype=float) ** 2))
    return float(np.sqrt(2 * a / (k - 1)) / np.sum(q))
