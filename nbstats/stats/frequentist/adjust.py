"""Adjusted p-values for families of hypotheses (Demšar 2006, §3.2.2).

Each procedure returns *adjusted p-values*: the smallest family-wise level at
which the hypothesis would be rejected, so ``adjusted <= alpha`` gives the
procedure's decisions at every ``alpha`` at once.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

import numpy as np
import pandas as pd

from nbstats.stats.frequentist.shaffer import (
    shaffer_hypothesis_counts,
    shaffer_multipliers,
    step_down,
)
from nbstats.util.checks import check_choice, check_count

__all__ = [
    "ADJUSTMENTS",
    "ROM_MAX",
    "adjust_pvalues",
    "rom_critical_values",
    "shaffer_hypothesis_counts",
]

Adjustment = Literal[
    "holm",
    "hochberg",
    "hommel",
    "bonferroni",
    "finner",
    "li",
    "rom",
    "shaffer",
    "bergmann-hommel",
    "none",
]
#: The ``method`` names of :func:`adjust_pvalues`, in that order.
ADJUSTMENTS: tuple[str, ...] = get_args(Adjustment)


def adjust_pvalues(
    pvalues: object,
    method: Adjustment = "holm",
    *,
    n_algorithms: int | None = None,
) -> np.ndarray | pd.Series:
    """Adjust p-values for multiple comparisons.

    Parameters
    ----------
    pvalues : array-like or Series
        One p-value per hypothesis (1-D). A Series keeps its index.
    method : {"holm", "hochberg", "hommel", "bonferroni", "finner", "li", \
"rom", "shaffer", "bergmann-hommel", "none"}
        - ``"bonferroni"``: ``min(1, m p)``.
        - ``"holm"``: step-down, ``max_{j<=i} (m - j + 1) p_(j)``.
        - ``"hochberg"``: step-up, ``min_{j>=i} (m - j + 1) p_(j)``.
        - ``"hommel"``: Hommel's (1988) closed procedure with Simes tests.
        - ``"finner"``: Finner's (1993) step-down procedure, critical values
          ``1 - (1 - α)^(i/m)`` for the i-th smallest p-value: adjusted
          ``max_{j<=i} 1 - (1 - p_(j))^(m/j)`` (as García et al. 2010
          give it). More powerful than Holm's; controls the family-wise
          error under independence.
        - ``"li"``: Li's (2008) two-step procedure: all hypotheses are
          rejected if the largest p-value ``p_(m) <= α``, else those with
          ``p_i <= α (1 - p_(m)) / (1 - α)``; adjusted
          ``p_i / (p_i + 1 - p_(m))``, ``p_(m)`` itself, and 0 for
          ``p_i = 0`` (rejected at every α, even when ``p_(m) = 1``). On
          the correlated z-tests of all pairs of three algorithms its
          family-wise error reaches 6.5 % at α = 5 % in
          ``benchmarks/bench_calibration.py`` (Holm's stays below 5 %).
        - ``"rom"``: Rom's (1990) step-up procedure, Hochberg's with exact
          critical values ``c_1 = α``, ``c_2 = α/2``, ``c_i = (Σ_{j<i} α^j −
          Σ_{j=1}^{i-2} C(i, j) c_{j+1}^{i-j}) / i`` for the i-th largest
          p-value (0.0169, 0.0127, 0.0102 … at α = 0.05, against Hochberg's
          α/i). Adjusted: the smallest α at which the procedure rejects, found
          by bisection (García et al. 2010 and scmamp multiply each p-value
          by ``α / c_i`` at α = 0.05 instead, which is larger). At most
          :data:`ROM_MAX` hypotheses.
        - ``"shaffer"``: Shaffer's (1986) static procedure for *all pairwise*
          comparisons of k algorithms: Holm's multiplier ``m - i + 1`` is
          replaced by the largest number of hypotheses that can still be true
          given that ``i - 1`` are false (logically related hypotheses).
          The p-values must be all ``k(k-1)/2`` pairs of ``n_algorithms``.
        - ``"bergmann-hommel"``: Bergmann and Hommel's (1988) procedure for all
          pairwise comparisons: closed testing over every set of hypotheses
          that can be true together (see
          :mod:`nbstats.stats.frequentist.bergmann`); at least as powerful as
          Shaffer's. The p-values must be the ``k(k-1)/2`` pairs in the order
          (0, 1), (0, 2), …, (k − 2, k − 1). Exact up to 12 algorithms,
          Shaffer's above (with a warning).
        - ``"none"``: unchanged.

        ``"bonferroni-dunn"`` is accepted as an alias of ``"bonferroni"``.
    n_algorithms : int, optional
        Only for ``"shaffer"`` and ``"bergmann-hommel"``; inferred from the
        number of p-values.

    Returns
    -------
    ndarray or Series
        Adjusted p-values in the input order, capped at 1.

    References
    ----------
    J. Li (2008). A two-step rejection procedure for testing multiple
    hypotheses. Journal of Statistical Planning and Inference 138(6),
    1521-1527. S. García, A. Fernández, J. Luengo, F. Herrera (2010).
    Advanced nonparametric tests for multiple comparisons in the design of
    experiments in computational intelligence and data mining. Information
    Sciences 180, 2044-2064 (the adjusted p-values of Finner's, Li's and
    Rom's procedures).

    Examples
    --------
    Demšar's §3.2.2, three comparisons against C4.5:

    >>> import nbstats
    >>> p = [0.016, 0.019, 0.607]
    >>> nbstats.adjust_pvalues(p, "holm").round(3)
    array([0.048, 0.048, 0.607])

    Compare with statsmodels:

    >>> from statsmodels.stats.multitest import multipletests
    >>> multipletests(p, method="holm")[1].round(3)
    array([0.048, 0.048, 0.607])
    """
    if isinstance(method, str) and method == "bonferroni-dunn":
        method = "bonferroni"
    check_choice("method", method, ADJUSTMENTS)
    if n_algorithms is not None:
        check_count("n_algorithms", n_algorithms, minimum=2)
    index = pvalues.index if isinstance(pvalues, pd.Series) else None
    p = _pvalue_array(pvalues)
    if p.ndim != 1:
        raise ValueError(f"pvalues must be 1-D, got shape {p.shape}.")
    if np.isnan(p).any():
        raise ValueError(
            f"pvalues contain NaN at positions {np.flatnonzero(np.isnan(p)).tolist()}; "
            "remove those hypotheses first."
        )
    if ((p < 0) | (p > 1)).any():
        raise ValueError("pvalues must lie in [0, 1].")
    if p.size == 0 or method == "none":
        adjusted = p.copy()
    elif method == "bonferroni":
        adjusted = np.minimum(1.0, p.size * p)
    elif method == "holm":
        adjusted = step_down(p, np.arange(p.size, 0, -1))
    elif method == "hochberg":
        adjusted = _hochberg(p)
    elif method == "hommel":
        adjusted = _hommel(p)
    elif method == "finner":
        adjusted = _finner(p)
    elif method == "li":
        adjusted = _li(p)
    elif method == "rom":
        adjusted = _rom(p)
    else:
        k = _pairs_to_algorithms(p.size) if n_algorithms is None else n_algorithms
        if k * (k - 1) // 2 != p.size:
            raise ValueError(
                f"{method}'s procedure needs all {k * (k - 1) // 2} pairwise "
                f"p-values of {k} algorithms, got {p.size}."
            )
        if method == "shaffer":
            adjusted = step_down(p, shaffer_multipliers(k))
        else:
            # imported here: bergmann compiles with numba, which `import
            # nbstats` should not load (bergmann does not import this module)
            from nbstats.stats.frequentist.bergmann import bergmann_hommel

            adjusted = bergmann_hommel(p, k)
    return (
        pd.Series(adjusted, index=index, name="adjusted")
        if index is not None
        else adjusted
    )


def _pvalue_array(pvalues: object) -> np.ndarray:
    """The p-values as floats; a string or an object that holds no numbers is
    refused by name (not parsed, not left to numpy's message)."""
    if isinstance(pvalues, str | bytes):
        raise TypeError(
            f"pvalues must be an array-like of numbers in [0, 1], got {pvalues!r} "
            "(str)."
        )
    try:
        return np.asarray(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(
            "pvalues must be an array-like of numbers in [0, 1], got "
            f"{type(pvalues).__name__}."
        ) from None


def _finner(p: np.ndarray) -> np.ndarray:
    """Finner's step-down: running maximum of ``1 - (1 - p_(j))^(m/j)``."""
    m = p.size
    order = np.argsort(p, kind="stable")
    # -expm1(log1p(-p) m/j): exact for tiny p, where 1 - (1 - p)^x cancels
    exponents = m / np.arange(1, m + 1)
    with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, raw 1
        raw = -np.expm1(exponents * np.log1p(-p[order]))
    stepped = np.maximum.accumulate(np.minimum(1.0, raw))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def _li(p: np.ndarray) -> np.ndarray:
    """Li's two-step rule as adjusted p-values.

    At level α it rejects every hypothesis if ``p_(m) <= α``, else those with
    ``p_i <= α (1 - p_(m)) / (1 - α)``, i.e. ``α >= p_i / (p_i + 1 - p_(m))``:
    that ratio is the adjusted p-value (at most ``p_(m)``, which keeps its
    own). ``p_i = 0`` is rejected at every α, also when ``p_(m) = 1`` (where
    the ratio is 0/0): its adjusted p-value is 0.
    """
    largest = float(p.max())
    positive = p > 0
    adjusted = np.zeros_like(p)
    # p > 0 keeps the denominator p + 1 - p_(m) positive
    adjusted[positive] = p[positive] / (p[positive] + (1.0 - largest))
    adjusted[p == largest] = largest
    return np.minimum(1.0, adjusted)


#: Rom's critical values take O(m²) work per α: the procedure is for the
#: comparisons of a few dozen algorithms (against a control, or all pairs of
#: up to 15), not for thousands of hypotheses (use "hochberg" there).
ROM_MAX = 120


def rom_critical_values(alpha: np.ndarray | float, m: int) -> np.ndarray:
    """Rom's (1990) critical values ``c_1 … c_m`` (``c_i`` for the i-th
    largest p-value), for each α of ``alpha`` (rows).

    Examples
    --------
    >>> rom_critical_values(0.05, 5).round(5).tolist()
    [[0.05, 0.025, 0.01687, 0.01271, 0.01019]]
    """
    alphas = np.atleast_1d(np.asarray(alpha, dtype=float))[:, None]
    c = np.zeros((alphas.shape[0], m))
    powers = alphas ** np.arange(1, m + 1)  # α^1 … α^m
    for i in range(1, m + 1):
        if i <= 2:
            c[:, i - 1] = alphas[:, 0] / i
            continue
        j = np.arange(1, i - 1)
        binomials = np.array([math.comb(i, int(x)) for x in j], dtype=float)
        # c_{j+1}^{i-j} for j = 1 … i − 2 (c[:, j] is c_{j+1})
        terms = binomials * c[:, j] ** (i - j)
        c[:, i - 1] = (powers[:, : i - 1].sum(axis=1) - terms.sum(axis=1)) / i
    return c


def _rom(p: np.ndarray) -> np.ndarray:
    """Rom's step-up: adjusted p-value = the smallest α that rejects.

    H with the j-th largest p-value is rejected at α when some i <= j has
    ``p_(i) <= c_i(α)``; with ``a_i`` the smallest α where ``c_i(α)``
    reaches ``p_(i)`` (bisection: c_i grows with α), the adjusted value is
    ``min_{i<=j} a_i``.
    """
    m = p.size
    if m > ROM_MAX:
        raise ValueError(
            f"Rom's procedure is computed for at most {ROM_MAX} p-values, got {m}; "
            "for more, use 'hochberg' (Rom's critical values tend to its α/i)."
        )
    order = np.argsort(-p, kind="stable")  # largest first
    target = p[order]
    index = np.arange(m)

    def reaches(alpha: np.ndarray) -> np.ndarray:
        return rom_critical_values(alpha, m)[index, index] >= target

    # c_i(α) lies between Hochberg's α/i and α, so a_i lies in [p_(i), i p_(i)]:
    # bisecting there is exact relative to p, however small (a zero p-value
    # is rejected at every α: c_i(0) = 0)
    low = target.copy()
    high = np.minimum(1.0, (index + 1) * target)
    high = np.where(reaches(high), high, 1.0)  # a safeguard: never taken
    for _ in range(64):  # to double precision
        middle = (low + high) / 2
        reached = reaches(middle)
        high = np.where(reached, middle, high)
        low = np.where(reached, low, middle)
    smallest = np.minimum.accumulate(np.minimum(high, 1.0))
    smallest = np.maximum(smallest, target)  # never below the p-value
    adjusted = np.empty_like(p)
    adjusted[order] = smallest
    return adjusted


def _hochberg(p: np.ndarray) -> np.ndarray:
    m = p.size
    order = np.argsort(p, kind="stable")[::-1]  # largest first
    multipliers = np.arange(1, m + 1)  # 1 for the largest p, m for the smallest
    stepped = np.minimum.accumulate(np.minimum(1.0, multipliers * p[order]))
    adjusted = np.empty_like(p)
    adjusted[order] = stepped
    return adjusted


def _hommel(p: np.ndarray) -> np.ndarray:
    """Hommel's adjusted p-values (Wright 1992's algorithm), O(m²)."""
    m = p.size
    order = np.argsort(p, kind="stable")
    ps = p[order]
    ranks = np.arange(1, m + 1)
    # j = m: the Simes test of the global hypothesis
    adjusted = np.full(m, np.min(m * ps / ranks))
    q = adjusted.copy()
    for j in range(m - 1, 1, -1):
        # hypotheses with the m - j + 1 smallest p-values, and the others
        head = slice(0, m - j + 1)
        tail = ps[m - j + 1 :]
        simes_tail = np.min(j * tail / np.arange(2, j + 1))
        q[head] = np.minimum(j * ps[head], simes_tail)
        q[m - j + 1 :] = q[m - j]
        adjusted = np.maximum(adjusted, q)
    adjusted = np.maximum(adjusted, ps)
    result = np.empty_like(p)
    result[order] = np.minimum(1.0, adjusted)
    return result


def _pairs_to_algorithms(n_pairs: int) -> int:
    k = round((1 + np.sqrt(1 + 8 * n_pairs)) / 2)
    if k * (k - 1) // 2 != n_pairs:
        raise ValueError(
            f"Shaffer's procedure applies to all pairwise comparisons of k "
            f"algorithms (k(k-1)/2 p-values); {n_pairs} is not such a number. "
            "For comparisons against a control use 'holm'."
        )
    return k
