"""Effect sizes of two algorithms' paired scores, with magnitude words.

A p-value says whether a difference is there; an effect size says how large
it is. Papers now ask for both. Every effect here is oriented like the tests:
positive when b is better than a.

- ``"cliff"``: Cliff's δ = P(B > A) − P(B < A) over all pairs of one score
  of a and one of b (the scores as two samples: how often b's score beats
  a's). Magnitudes of Romano et al. (2006): |δ| < 0.147 negligible, < 0.33
  small, < 0.474 medium, else large.
- ``"vargha-delaney"``: A = P(B > A) + ½ P(B = A) = (δ + 1)/2, the
  probability of superiority. Vargha & Delaney (2000): |A − ½| < 0.06
  negligible, < 0.14 small, < 0.21 medium, else large.
- ``"cohen-d"``: the paired standardised mean difference d_z = mean(d) / sd(d)
  of the differences d = b − a; ``"hedges-g"`` the same times Hedges'
  small-sample correction J = 1 − 3 / (4(n − 1) − 1). Cohen (1988): |d| < 0.2
  negligible, < 0.5 small, < 0.8 medium, else large.
- ``"rank-biserial"``: the matched-pairs rank-biserial correlation
  r = (R⁺ − R⁻)/(R⁺ + R⁻) of the Wilcoxon signed-ranks test (zeros split);
  Cohen's words for a correlation: < 0.1, < 0.3, < 0.5.
- ``"hodges-lehmann"``: the Hodges–Lehmann estimate of the shift, the median
  of the Walsh averages (d_i + d_j)/2, i ≤ j, in score units, with the
  confidence interval that inverts the Wilcoxon signed-rank test (as R's
  ``wilcox.test(conf.int = TRUE)``); no magnitude word (it has units).
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np

from nbstats import _scipy_stats as sps
from nbstats.results.effect_size import EffectSizeResult, magnitude
from nbstats.scores import NanPolicy, check_choice, paired_differences
from nbstats.stats.frequentist.wilcoxon import signed_rank_null_pmf

__all__ = ["EFFECT_KINDS", "effect_size", "magnitude", "paired_effect"]

EffectKind = Literal[
    "cliff", "vargha-delaney", "cohen-d", "hedges-g", "rank-biserial", "hodges-lehmann"
]

#: Every kind :func:`effect_size` computes.
EFFECT_KINDS = (
    "cliff",
    "vargha-delaney",
    "cohen-d",
    "hedges-g",
    "rank-biserial",
    "hodges-lehmann",
)

#: Upper bounds of |effect| (of |A − ½| for Vargha–Delaney) for the words
#: negligible, small and medium; above the last, large.

#: The Hodges–Lehmann interval is exact (the signed-rank distribution) up to
#: this many differences without ties or zeros, as R's ``wilcox.test``; above,
#: or with ties, the normal approximation.
HL_EXACT_MAX_N = 50


def effect_size(
    a: object,
    b: object,
    *,
    kind: EffectKind = "cliff",
    confidence_level: float = 0.95,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> EffectSizeResult:
    """How much better b is than a, as an effect size with its magnitude.

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms, one per case.
    kind : {"cliff", "vargha-delaney", "cohen-d", "hedges-g", "rank-biserial", \
"hodges-lehmann"}
        Which effect (see the module's description); positive when b is better.
    confidence_level : float
        Level of the Hodges–Lehmann confidence interval (other kinds have none).
    higher_is_better : bool
        When False, lower scores are better: the differences are ``a − b``.
    nan_policy : {"raise", "omit", "pairwise"}
        See :func:`nbstats.score_table`; with one pair, ``"pairwise"`` is
        ``"omit"`` (the cases where both have a score).

    Returns
    -------
    EffectSizeResult
        ``value``, ``magnitude`` (a word, or None for Hodges–Lehmann),
        ``confidence_interval`` (Hodges–Lehmann only).

    Examples
    --------
    >>> import nbstats
    >>> t2 = nbstats.datasets.load("demsar2006_table2")
    >>> res = nbstats.effect_size(t2["C4.5"], t2["C4.5+m"], kind="rank-biserial")
    >>> round(res.value, 4), res.magnitude  # (93 - 12) / 105
    (0.7714, 'large')
    >>> hl = nbstats.effect_size(t2["C4.5"], t2["C4.5+m"], kind="hodges-lehmann")
    >>> round(hl.value, 4)
    0.013
    """
    check_choice("kind", kind, EFFECT_KINDS)
    if isinstance(confidence_level, bool) or not 0 < confidence_level < 1:
        raise ValueError(
            f"confidence_level must lie strictly between 0 and 1, got "
            f"{confidence_level!r}."
        )
    d, name_a, name_b = paired_differences(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    n = int(d.size)
    interval = None
    method = None
    if kind in ("cliff", "vargha-delaney"):
        va, vb = _oriented(a, b, d, higher_is_better, nan_policy)
        value = paired_effect(kind, va, vb)
    elif kind == "hodges-lehmann":
        value, interval, method = hodges_lehmann(d, confidence_level)
    else:
        value = paired_effect(kind, None, None, d)
    return EffectSizeResult(
        kind=kind,
        value=float(value),
        magnitude=magnitude(kind, value),
        confidence_interval=interval,
        confidence_level=confidence_level if interval is not None else None,
        interval_method=method,
        n=n,
        name_a=name_a,
        name_b=name_b,
    )


def paired_effect(
    kind: str,
    a: np.ndarray | None,
    b: np.ndarray | None,
    d: np.ndarray | None = None,
) -> float:
    """The value of :func:`effect_size` from checked arrays, without a result.

    ``a`` and ``b`` are the two algorithms' scores on their common cases,
    oriented so that higher is better; ``d`` is ``b − a`` (computed when not
    given). For many pairs at once (:func:`nbstats.comparison_matrix`): no
    validation, no names, no interval.

    Examples
    --------
    >>> paired_effect("vargha-delaney", np.array([1.0, 2, 3]), np.array([2.0, 3, 4]))
    0.7777777777777778
    """
    if d is None:
        d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    n = int(d.size)
    if kind in ("cliff", "vargha-delaney"):
        delta = cliffs_delta(a, b)  # type: ignore[arg-type]
        return delta if kind == "cliff" else (delta + 1) / 2
    if kind in ("cohen-d", "hedges-g"):
        value = _cohen_dz(d)
        if kind == "hedges-g":
            if n < 3:
                raise ValueError(
                    "Hedges' g needs at least 3 cases (its correction divides "
                    f"by 4(n - 1) - 1); got {n}."
                )
            value *= 1 - 3 / (4 * (n - 1) - 1)
        return value
    if kind == "rank-biserial":
        return _rank_biserial(d)
    return hodges_lehmann(d)[0]


def cliffs_delta(a: np.ndarray, b: np.ndarray) -> float:
    """Cliff's δ = P(B > A) − P(B < A) over all (a_i, b_j), by sorting.

    O((n + m) log m) instead of the n·m comparisons of the definition.

    Examples
    --------
    >>> cliffs_delta(np.array([1.0, 2.0]), np.array([2.0, 3.0]))
    0.75
    """
    a = np.asarray(a, dtype=float)
    b = np.sort(np.asarray(b, dtype=float))
    below = np.searchsorted(b, a, side="left")  # b_j < a_i
    above = b.size - np.searchsorted(b, a, side="right")  # b_j > a_i
    return float((above.sum() - below.sum()) / (a.size * b.size))


def hodges_lehmann(
    d: np.ndarray, confidence_level: float = 0.95
) -> tuple[float, tuple[float, float], str]:
    """Median of the Walsh averages of ``d`` and its signed-rank interval.

    The interval is ``[W_(k), W_(N − k + 1)]`` of the N = n(n+1)/2 sorted
    Walsh averages, k the smallest count with ``P(T⁺ ≤ k) ≥ (1 − level)/2``
    under the null signed-rank distribution (``k`` at least 1): exact for at
    most :data:`HL_EXACT_MAX_N` differences with no ties or zeros, as R's
    ``wilcox.test(conf.int = TRUE)``; otherwise from the normal
    approximation ``k = ⌊N/2 − z sqrt(n(n+1)(2n+1)/24)⌋`` (Hollander & Wolfe).

    Returns
    -------
    (estimate, (low, high), "exact" or "normal")
    """
    d = np.asarray(d, dtype=float)
    n = d.size
    if n < 1:
        raise ValueError("the Hodges-Lehmann estimate needs at least one case.")
    # Walsh averages without overflow: halves first
    half = d / 2
    i, j = np.triu_indices(n)
    walsh = np.sort(half[i] + half[j])
    estimate = float(np.median(walsh))
    total = walsh.size
    alpha = 1 - confidence_level
    magnitudes = np.abs(d)
    tied = np.unique(magnitudes).size < n or np.any(d == 0)
    if n <= HL_EXACT_MAX_N and not tied:
        cdf = np.cumsum(signed_rank_null_pmf(np.arange(1, n + 1, dtype=float)))
        # the pmf is over 2T⁺; T⁺'s cdf at x is cdf[2x]
        t_cdf = cdf[::2]
        k = int(np.searchsorted(t_cdf, alpha / 2 - 1e-12))  # first x, P(T<=x) >= a/2
        method = "exact"
    else:
        z = sps.norm.ppf(1 - alpha / 2)
        k = math.floor(total / 2 - z * math.sqrt(n * (n + 1) * (2 * n + 1) / 24))
        method = "normal"
    k = min(max(k, 1), total)
    low, high = walsh[k - 1], walsh[total - k]
    return estimate, (float(low), float(high)), method


def _oriented(
    a: object, b: object, d: np.ndarray, higher_is_better: bool, nan_policy: str
) -> tuple[np.ndarray, np.ndarray]:
    """The two score vectors (after nan_policy), b's made "larger is better"."""
    from nbstats.scores import _as_vector

    va, vb = _as_vector(a, "a"), _as_vector(b, "b")
    keep = ~(np.isnan(va) | np.isnan(vb))
    va, vb = va[keep], vb[keep]
    if not higher_is_better:
        va, vb = -va, -vb
    return va, vb


def _cohen_dz(d: np.ndarray) -> float:
    if d.size < 2:
        raise ValueError(f"Cohen's d needs at least 2 cases, got {d.size}.")
    unit = float(np.max(np.abs(d)))
    if unit == 0:
        return 0.0
    u = d / unit  # scale-free: the same d for any unit of the scores
    sd = float(u.std(ddof=1))
    if sd == 0:
        return math.copysign(math.inf, float(u.mean()))
    return float(u.mean()) / sd


def rank_biserial_columns(d: np.ndarray) -> np.ndarray:
    """The matched-pairs rank-biserial r of every column of ``d`` at once.

    ``d`` is cases × pairs of differences; NaN marks a case a pair lacks
    (each column is ranked on its own cases). Equal to
    ``paired_effect("rank-biserial", None, None, column)`` for each column
    (ranks are multiples of ½, so their sums are exact in any order), and
    one ranking of the whole matrix instead of one per pair: a post-hoc
    table of 1225 pairs took 180 ms the one way, a few the other.

    Examples
    --------
    >>> d = np.array([[1.0, -2.0], [2.0, np.nan], [-0.5, 1.0], [0.0, -1.0]])
    >>> rank_biserial_columns(d).tolist()
    [0.5, -0.5]
    """
    d = np.asarray(d, dtype=float)
    if d.ndim != 2:
        raise ValueError(f"d must be cases × pairs (2-D), got shape {d.shape}.")
    if d.shape[0] == 0:
        return np.zeros(d.shape[1])
    ranks = sps.rankdata(np.abs(d), axis=0, nan_policy="omit")
    ranks = np.where(np.isnan(d), 0.0, ranks)
    zeros = (ranks * (d == 0)).sum(axis=0) / 2
    plus = (ranks * (d > 0)).sum(axis=0) + zeros
    minus = (ranks * (d < 0)).sum(axis=0) + zeros
    total = plus + minus
    out = np.zeros(d.shape[1])
    np.divide(plus - minus, total, out=out, where=total > 0)
    return out


def _rank_biserial(d: np.ndarray) -> float:
    ranks = sps.rankdata(np.abs(d))
    plus = ranks[d > 0].sum() + ranks[d == 0].sum() / 2
    minus = ranks[d < 0].sum() + ranks[d == 0].sum() / 2
    total = plus + minus
    return float((plus - minus) / total) if total > 0 else 0.0
