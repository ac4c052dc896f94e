"""Durbin test for balanced incomplete block designs (Durbin 1951)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from nbstats.results.incomplete import DurbinResult
from nbstats.stats.frequentist.skillings_mack import observed_ranks
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_flag

__all__ = ["durbin"]

_SHOWN = 4
_HINT = (
    " Durbin's test needs a balanced incomplete block design: every case "
    "scores the same number k of algorithms, every algorithm is scored on the "
    "same number r of cases and every pair of algorithms on the same number λ "
    "of cases. For any other pattern of missing scores use "
    "nbstats.skillings_mack."
)


def durbin(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    tie_correction: bool = False,
) -> DurbinResult:
    """Durbin test of whether the algorithms differ in a balanced incomplete design.

    In a balanced incomplete block design (BIBD) each of the b cases scores k
    of the t algorithms, each algorithm is scored on r cases and each pair of
    algorithms on λ common cases (NaN marks the cells not run). Each case
    ranks its k scores (1 = best, average ranks for ties); with R_j the rank
    sums,

    .. math::

        T_1 = \\frac{12 (t - 1)}{r t (k^2 - 1)}
              \\sum_j \\Big(R_j - \\frac{r (k + 1)}{2}\\Big)^2
              \\;\\dot\\sim\\; \\chi^2(t - 1),
        \\qquad
        T_2 = \\frac{T_1 / (t - 1)}{(b (k - 1) - T_1) / (b k - b - t + 1)}
              \\;\\dot\\sim\\; F(t - 1, bk - b - t + 1)

    (Durbin 1951; Conover 1999, §5.9, who prefers T₂). A complete table is
    the case k = t, where T₁ is Friedman's χ²_F and T₂ the Iman–Davenport
    F_F (:func:`nbstats.friedman`). On a BIBD without ties T₁ equals the
    Skillings–Mack statistic, which also handles unbalanced patterns.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms, NaN where an
        algorithm was not run on a case.
    higher_is_better : bool
        Orients the reported ranks (1 = best); T₁ and T₂ do not depend on it.
    tie_correction : bool
        ``False`` (Durbin's formula above): ties get average ranks and the
        variance is that of untied ranks. ``True``: Conover's T₁ =
        ``(t − 1) Σ_j (R_j − r(k + 1)/2)² / (A − C)`` with ``A = Σ r_ij²`` and
        ``C = b k (k + 1)²/4``, the variance of the actual ranks, as
        ``scikit_posthocs.test_durbin``, R's ``PMCMRplus::durbinTest`` and
        ``agricolae::durbin.test`` compute it; on a complete table it is
        ``friedman(tie_correction=True)``. Without ties both agree.

    Returns
    -------
    DurbinResult
        ``statistic, pvalue = result`` (T₁ and its χ² p-value);
        ``f_statistic`` and ``f_pvalue`` (T₂); ``rank_sums``; the design's
        ``block_size`` (k), ``replications`` (r) and ``pair_count`` (λ).

    Raises
    ------
    ValueError
        The design is not balanced (the message names the cases with another
        number of scores, the algorithms scored on another number of cases or
        the pairs sharing another number of cases), a case has fewer than two
        scores, or anything :func:`nbstats.score_table` refuses other than
        missing scores.

    Notes
    -----
    If every case ranks the algorithms alike T₂ is infinite (p = 0); if every
    case is a complete tie T₁ = T₂ = 0 and p = 1.

    Examples
    --------
    Conover's (1999, p. 391) ice cream tasting: seven judges each rank three
    of seven varieties (rank 1 = preferred), a BIBD with r = 3 and λ = 1:

    >>> import numpy as np, pandas as pd
    >>> from nbstats.stats.frequentist.durbin import durbin
    >>> nan = np.nan
    >>> ranks = pd.DataFrame(
    ...     [[2, 3, nan, 1, nan, nan, nan], [nan, 3, 1, nan, 2, nan, nan],
    ...      [nan, nan, 2, 1, nan, 3, nan], [nan, nan, nan, 1, 2, nan, 3],
    ...      [3, nan, nan, nan, 1, 2, nan], [nan, 3, nan, nan, nan, 1, 2],
    ...      [3, nan, 1, nan, nan, nan, 2]], columns=list("ABCDEFG"))
    >>> res = durbin(ranks, higher_is_better=False)
    >>> res.statistic, res.f_statistic, res.f_df
    (12.0, 8.0, (6, 8))
    >>> round(res.f_pvalue, 4)
    0.0049
    """
    check_flag("tie_correction", tie_correction)
    table, present, ranks = observed_ranks(scores, higher_is_better=higher_is_better)
    names = list(table.columns)
    k, r, lam = balanced_design(table, present, names)
    b, t = present.shape
    rank_sums = np.nansum(ranks, axis=0)
    deviations = float(np.sum((rank_sums - r * (k + 1) / 2) ** 2))
    if tie_correction:
        # Σ (r_ij − (k+1)/2)² = A − C, summed from centred ranks (exact)
        spread = float(np.nansum((ranks - (k + 1) / 2) ** 2))
    else:
        spread = b * k * (k * k - 1) / 12
    statistic = (t - 1) * deviations / spread if spread > 0 else 0.0
    df = t - 1
    pvalue = float(sps.chi2.sf(statistic, df)) if statistic > 0 else 1.0
    f_df = (t - 1, b * k - b - t + 1)
    most = b * (k - 1)  # T₁ when every case ranks the algorithms alike
    if statistic == 0:
        f_statistic, f_pvalue = 0.0, 1.0
    elif statistic >= most or math.isclose(statistic, most, rel_tol=1e-12):
        f_statistic, f_pvalue = math.inf, 0.0
    else:
        f_statistic = (statistic / f_df[0]) / ((most - statistic) / f_df[1])
        f_pvalue = float(sps.f.sf(f_statistic, *f_df))
    index = table.columns.copy()
    return DurbinResult(
        statistic=float(statistic),
        pvalue=pvalue,
        df=df,
        f_statistic=float(f_statistic),
        f_pvalue=f_pvalue,
        f_df=f_df,
        rank_sums=pd.Series(rank_sums, index=index, name="rank sum"),
        mean_ranks=pd.Series(rank_sums / r, index=index.copy(), name="mean rank"),
        n_cases=b,
        n_algorithms=t,
        block_size=k,
        replications=r,
        pair_count=lam,
        tie_correction=bool(tie_correction),
    )


def balanced_design(
    table: pd.DataFrame, present: np.ndarray, names: list[str]
) -> tuple[int, int, int]:
    """(k, r, λ) of a balanced incomplete block design, or a ValueError."""
    per_case = present.sum(axis=1)
    k = int(np.bincount(per_case).argmax())  # the most common block size
    if np.any(per_case != k):
        odd = np.flatnonzero(per_case != k)
        shown = ", ".join(f"{table.index[i]!r} has {per_case[i]}" for i in odd[:_SHOWN])
        more = f" and {len(odd) - _SHOWN} more" if len(odd) > _SHOWN else ""
        raise ValueError(
            f"unbalanced design: most cases have {k} scores but {shown}{more}." + _HINT
        )
    if k < 2:
        raise ValueError(
            f"every case has {k} score(s); a case needs at least 2 scores to rank."
        )
    per_algorithm = present.sum(axis=0)
    if np.any(per_algorithm != per_algorithm[0]):
        counts = ", ".join(
            f"{name!r}: {c}" for name, c in zip(names, per_algorithm, strict=True)
        )
        raise ValueError(
            "unbalanced design: the algorithms are scored on different numbers "
            f"of cases ({counts})." + _HINT
        )
    together = present.T.astype(np.int64) @ present.astype(np.int64)
    rows, cols = np.triu_indices(len(names), k=1)
    pairs = together[rows, cols]
    if np.any(pairs != pairs[0]):
        low, high = int(np.argmin(pairs)), int(np.argmax(pairs))
        raise ValueError(
            "unbalanced design: pairs of algorithms share different numbers of "
            f"cases, e.g. ({names[rows[low]]!r}, {names[cols[low]]!r}) share "
            f"{pairs[low]} and ({names[rows[high]]!r}, {names[cols[high]]!r}) "
            f"share {pairs[high]}." + _HINT
        )
    return k, int(per_algorithm[0]), int(pairs[0])
