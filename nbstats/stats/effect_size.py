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
  confidence interval that inverts the Wilcoxon signed-rank test (exact or
  normal approximation; when it equals R's ``wilcox.test(conf.int = TRUE)``:
  :func:`effect_size`'s Notes); no magnitude word (it has units). O(n)
  memory: no n(n + 1)/2 array of averages is formed.
"""

from __future__ import annotations

import math
import warnings
from typing import Literal, NamedTuple

import numpy as np

from nbstats.results.effect_size import EffectSizeResult, magnitude
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.stats.frequentist.walsh_order import walsh_order_statistics
from nbstats.stats.frequentist.wilcoxon import EXACT_LIMIT_N, signed_rank_cdf
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_flag, check_fraction
from nbstats.util.stacklevel import outside_stacklevel

__all__ = [
    "EFFECT_KINDS",
    "HodgesLehmann",
    "effect_size",
    "hodges_lehmann",
    "magnitude",
    "paired_effect",
]

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

#: With ``interval_method="auto"`` the Hodges–Lehmann interval is exact (the
#: signed-rank distribution) up to this many differences when none is zero
#: and no two |d| are equal: R's ``wilcox.test`` rule (exact when n < 50).
HL_EXACT_MAX_N = 49


def effect_size(
    a: object,
    b: object,
    *,
    effect: EffectKind = "cliff",
    level: float = 0.95,
    zero_method: Literal["zsplit", "pratt", "wilcox"] = "zsplit",
    interval_method: Literal["auto", "exact", "approx"] = "auto",
    correction: bool = False,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> EffectSizeResult:
    """How much better b is than a, as an effect size with its magnitude.

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms, one per case.
    effect : {"cliff", "vargha-delaney", "cohen-d", "hedges-g", "rank-biserial", \
"hodges-lehmann"}
        Which effect (see the module's description); positive when b is better.
    level : float
        Level of the Hodges–Lehmann confidence interval (other effects have
        none), in (0, 1).
    zero_method : {"zsplit", "pratt", "wilcox"}
        Hodges–Lehmann only, named as in :func:`nbstats.wilcoxon`:
        ``"wilcox"`` drops zero differences before everything (as R);
        ``"zsplit"`` and ``"pratt"`` keep them among the Walsh averages.
    interval_method : {"auto", "exact", "approx"}
        Hodges–Lehmann only: the interval from the exact signed-rank
        distribution or its normal approximation (the names of
        :func:`nbstats.wilcoxon`'s ``method``); ``"auto"`` is R's rule, exact
        when fewer than 50 differences, none zero and no two ``|d|`` equal.
    correction : bool
        Hodges–Lehmann only: continuity correction of the approximate
        interval (R's default is ``correct = TRUE``).
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

    Notes
    -----
    The Hodges–Lehmann estimate is the median of the Walsh averages
    ``(d_i + d_j)/2``, i ≤ j, of the differences; its interval is the pair of
    order statistics ``W_(k), W_(N − k + 1)`` that inverts the signed-rank
    test (see :func:`hodges_lehmann` for k). They equal R's
    ``wilcox.test(b - a, conf.int = TRUE)`` (R's defaults: ``exact = NULL``,
    ``correct = TRUE``) when called with ``zero_method="wilcox",
    correction=True`` (or with no zero differences and n < 50, no two ``|d|``
    equal, at any ``correction``): the interval to R's root-finding tolerance
    ``tol.root`` (1e-4 by default, in the scores' units) in the approximate
    case, exactly in the exact case. The estimate is exact in the exact case;
    in the approximate case R returns a root of the statistic found by
    ``uniroot``, which is the median within ``tol.root`` when N is odd and
    any point between the two middle averages when N is even (nbstats:
    their mean). Where they differ: with zero differences, nbstats keeps them
    by default (the estimate then moves with the data: shifting every score
    of b by c shifts it by c); when every difference is the same value c,
    R's interval is NaN (nbstats: (c, c)); R's ``exact = TRUE`` falls back to the
    approximation with ties or zeros, nbstats' ``"exact"`` is exact with
    zeros kept and refuses tied differences.

    Examples
    --------
    >>> import nbstats
    >>> t2 = nbstats.datasets.load("demsar2006_table2")
    >>> res = nbstats.effect_size(t2["C4.5"], t2["C4.5+m"], effect="rank-biserial")
    >>> round(res.value, 4), res.magnitude  # (93 - 12) / 105
    (0.7714, 'large')
    >>> hl = nbstats.effect_size(t2["C4.5"], t2["C4.5+m"], effect="hodges-lehmann")
    >>> round(hl.value, 4), hl.interval_method  # two of the 14 differences are 0
    (0.013, 'approx')
    """
    check_choice("effect", effect, EFFECT_KINDS)
    check_fraction("level", level, example=0.95)
    check_choice("zero_method", zero_method, ("zsplit", "pratt", "wilcox"))
    check_choice("interval_method", interval_method, ("auto", "exact", "approx"))
    check_flag("correction", correction)
    options = {
        "zero_method": zero_method,
        "interval_method": interval_method,
        "correction": correction,
    }
    if effect != "hodges-lehmann":
        given = [f"{k}={v!r}" for k, v in options.items() if v != _HL_DEFAULTS[k]]
        if given:
            raise ValueError(
                f"{', '.join(given)} only applies to effect='hodges-lehmann' "
                f"(effect={effect!r} has no interval and splits zero differences)."
            )
    d, name_a, name_b, _ = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    n = int(d.size)
    if effect == "hodges-lehmann":
        hl = hodges_lehmann(d, level, **options)  # type: ignore[arg-type]
        return EffectSizeResult(
            effect=effect,
            value=hl.estimate,
            magnitude=None,
            confidence_interval=hl.interval,
            level=hl.level,
            interval_method=hl.method,
            n_cases=n,
            name_a=name_a,
            name_b=name_b,
            zero_method=zero_method,
            correction=correction,
            n_zero=hl.n_zero,
            order_statistics=hl.order,
        )
    if effect in ("cliff", "vargha-delaney"):
        va, vb = _oriented(a, b, d, higher_is_better, nan_policy)
        value = paired_effect(effect, va, vb)
    else:
        value = paired_effect(effect, None, None, d)
    return EffectSizeResult(
        effect=effect,
        value=float(value),
        magnitude=magnitude(effect, value),
        confidence_interval=None,
        level=None,
        interval_method=None,
        n_cases=n,
        name_a=name_a,
        name_b=name_b,
    )


_HL_DEFAULTS = {"zero_method": "zsplit", "interval_method": "auto", "correction": False}


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
    return hodges_lehmann(d, interval=False).estimate


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


class HodgesLehmann(NamedTuple):
    """What :func:`hodges_lehmann` computed.

    ``order`` holds the ranks (k, N − k + 1) of the Walsh averages that bound
    the interval ((0, 0) when R's rule falls back to the median of the
    differences); ``level`` is the level the interval has, lower
    than the one asked for when that one cannot be reached.
    """

    estimate: float
    interval: tuple[float, float]
    method: str
    level: float
    order: tuple[int, int]
    n_cases: int
    n_zero: int


def hodges_lehmann(
    d: np.ndarray,
    level: float = 0.95,
    *,
    zero_method: str = "zsplit",
    interval_method: str = "auto",
    correction: bool = False,
    interval: bool = True,
) -> HodgesLehmann:
    """The Hodges–Lehmann shift of the differences ``d`` and its interval.

    - The differences used: every one (``zero_method="zsplit"`` or
      ``"pratt"``), or the non-zero ones (``"wilcox"``, as R). n of them.
    - The estimate: the median of their N = n(n + 1)/2 Walsh averages
      ``(d_i + d_j)/2``, i ≤ j (computed ``d_i/2 + d_j/2``; for even N the
      mean of the middle two).
    - The interval: ``[W_(k), W_(N − k + 1)]``, order statistics of the Walsh
      averages: the shifts θ the two-sided signed-rank test of ``d − θ`` does
      not reject. ``"exact"``: k = the smallest t with ``P(T⁺ ≤ t) ≥ α/2``
      under the signed-rank distribution of n untied ranks (R's
      ``qsignrank(α/2, n)``, at least 1); valid when no two used differences
      are equal. ``"approx"``: ``k = N + 1 − ⌈N/2 + c + z σ⌉``, z the normal
      quantile 1 − α/2, σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over groups of t
      equal differences, c = ½ with ``correction`` (else 0): where R's
      root-finding on the standardised statistic jumps across ±z. If even
      the data's extremes do not reach ±z, α is doubled until they do (R's
      rule; the level is lowered and a warning says so). ``"auto"``: exact
      when n < 50 and no difference is zero and no two ``|d|`` are equal (R's
      ``exact = NULL`` rule), else the approximation.

    Computed in O(n) memory and O(n log n) time per order statistic
    (:func:`~nbstats.stats.frequentist.walsh_order.walsh_order_statistics`).

    Parameters
    ----------
    d : ndarray
        Finite paired differences.
    level : float
        The interval's two-sided level, in (0, 1).
    zero_method : {"zsplit", "pratt", "wilcox"}
        ``"wilcox"`` drops zero differences first. ``"zsplit"`` and
        ``"pratt"`` keep them (the two rank zeros differently only at a
        shift of exactly 0, which neither the estimate nor the interval's
        end points depend on).
    interval_method : {"auto", "exact", "approx"}
        See above. ``"exact"`` refuses tied differences (the exact
        distribution would change with θ) and more than
        :data:`~nbstats.stats.frequentist.wilcoxon.EXACT_LIMIT_N` of them.
    correction : bool
        Continuity correction in the approximation (R's default ``correct =
        TRUE``).
    interval : bool
        False skips the interval (``interval`` is then (nan, nan)).

    Returns
    -------
    HodgesLehmann

    Examples
    --------
    >>> res = hodges_lehmann(np.array([1.0, 2.0, 4.0, -0.5, 3.0, 2.5]), 0.9)
    >>> res.estimate, res.interval, res.order  # the 3rd and 19th of 21
    (2.0, (0.75, 3.25), (3, 19))
    """
    check_choice("zero_method", zero_method, ("zsplit", "pratt", "wilcox"))
    check_choice("interval_method", interval_method, ("auto", "exact", "approx"))
    check_flag("correction", correction)
    check_fraction("level", level, example=0.95)
    d = np.asarray(d, dtype=float)
    zero = d == 0
    n_zero = int(zero.sum())
    used = np.sort(d[~zero] if zero_method == "wilcox" else d)
    n = int(used.size)
    if n == 0:
        raise ValueError(
            "the Hodges-Lehmann estimate needs at least one difference"
            + (
                "; every difference is zero and zero_method='wilcox' drops "
                "them all (zero_method='zsplit' keeps them: the shift is 0)."
                if d.size
                else "."
            )
        )
    total = n * (n + 1) // 2
    middle = [(total + 1) // 2, total // 2 + 1]
    if not interval:
        mid = walsh_order_statistics(used, middle)
        return HodgesLehmann(
            _mean2(mid), (math.nan, math.nan), "", math.nan, (0, 0), n, n_zero
        )
    distinct = bool(np.all(np.diff(used) > 0))
    method = interval_method
    if method == "auto":
        small = n <= HL_EXACT_MAX_N and n_zero == 0
        untied = small and np.unique(np.abs(used)).size == n
        method = "exact" if untied else "approx"
    if method == "exact":
        k, reached = _exact_order(used, level, distinct)
    else:
        k, reached = _approx_order(used, level, correction)
    if reached < level:
        warnings.warn(
            f"a {level:.4g} Hodges-Lehmann interval cannot be reached "
            f"with {n} differences ({method}); the interval given has level "
            f"{reached:.4g}.",
            UserWarning,
            stacklevel=outside_stacklevel(),
        )
    if k == 0:  # R's fallback when no level > 0 is reached: the median of d
        values = walsh_order_statistics(used, middle)
        low = high = float(np.median(used))
        order = (0, 0)
    else:
        values = walsh_order_statistics(used, [*middle, k, total - k + 1])
        low, high = float(values[2]), float(values[3])
        order = (k, total - k + 1)
    return HodgesLehmann(
        _mean2(values[:2]), (low, high), method, reached, order, n, n_zero
    )


def _mean2(pair: np.ndarray) -> float:
    """The median of the Walsh averages from the middle pair, as np.median."""
    if pair[0] == pair[1]:
        return float(pair[0])
    mean = float(np.mean(pair))
    return mean if math.isfinite(mean) else float(pair[0] / 2 + pair[1] / 2)


def _exact_order(used: np.ndarray, level: float, distinct: bool) -> tuple[int, float]:
    """k = R's qsignrank(α/2, n) (at least 1) and the interval's level."""
    n = used.size
    if not distinct:
        values, counts = np.unique(used, return_counts=True)
        raise ValueError(
            "interval_method='exact' needs distinct differences (the exact "
            "signed-rank distribution of d − θ changes with θ when some are "
            f"equal); {int((counts > 1).sum())} values occur more than once, "
            f"e.g. {values[counts > 1][0]!r}. Use interval_method='approx' "
            "(tie-corrected) or 'auto'."
        )
    if n > EXACT_LIMIT_N:
        raise ValueError(
            f"interval_method='exact' is refused above {EXACT_LIMIT_N} "
            f"differences (got {n}): the signed-rank distribution costs O(n²) "
            "memory and O(n³) time. Use interval_method='approx' or 'auto'."
        )
    cdf = signed_rank_cdf(n)
    alpha = 1 - level
    # R's qsignrank subtracts 10 DBL_EPSILON from the probability
    k = int(np.searchsorted(cdf, alpha / 2 - 10 * np.finfo(float).eps))
    if k == 0:
        return 1, 1 - 2 * float(cdf[0])
    return k, level


def _approx_order(
    used: np.ndarray, level: float, correction: bool
) -> tuple[int, float]:
    """k from the normal approximation (R's root), after R's α doubling."""
    n = used.size
    total = n * (n + 1) // 2
    if used[0] == used[-1]:
        return 1, level  # every average is the same value
    c = 0.5 if correction else 0.0
    sigma = math.sqrt(_tie_variance(used))
    w_min, w_max = _statistic_at_extremes(used, c)
    alpha = 1 - level
    while alpha < 1:
        z = float(sps.norm.isf(alpha / 2))
        if w_min >= z and w_max <= -z:
            break
        alpha *= 2
    if alpha >= 1:
        return 0, 0.0
    k = total + 1 - math.ceil(total / 2 + c + z * sigma)
    return max(k, 1), min(level, 1 - alpha)


def _tie_variance(x: np.ndarray) -> float:
    """n(n+1)(2n+1)/24 − Σ(t³ − t)/48 over groups of t equal sorted ``x``."""
    n = x.size
    if n == 0:
        return 0.0
    counts = np.diff(np.flatnonzero(np.r_[True, x[1:] != x[:-1], True])).astype(float)
    return n * (n + 1) * (2 * n + 1) / 24 - float(np.sum(counts**3 - counts)) / 48


def _statistic_at_extremes(x: np.ndarray, c: float) -> tuple[float, float]:
    """R's standardised statistic W(θ) at θ = min(x) and θ = max(x).

    At θ = min(x) the differences equal to it are zero and dropped; the
    others are all positive, so T⁺ = m(m + 1)/2 for the m left.
    """
    low = x[x > x[0]]
    high = x[x < x[-1]]
    out = []
    for rest, sign in ((low, 1.0), (high, -1.0)):
        m = rest.size
        sigma = math.sqrt(_tie_variance(rest))
        centred = sign * m * (m + 1) / 4
        out.append((centred - sign * c) / sigma if sigma > 0 else math.nan)
    return out[0], out[1]


def _oriented(
    a: object, b: object, d: np.ndarray, higher_is_better: bool, nan_policy: str
) -> tuple[np.ndarray, np.ndarray]:
    """The two score vectors (after nan_policy), b's made "larger is better"."""
    from nbstats.scores.frames import as_vector

    va, vb = as_vector(a, "a"), as_vector(b, "b")
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
    one ranking of the whole matrix instead of one per pair, much faster
    for a post-hoc table (``benchmarks/bench_frequentist.py``).

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
