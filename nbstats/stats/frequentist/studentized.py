"""Tail of the studentized range for many values at once.

``scipy.stats.studentized_range.sf`` integrates numerically per value (tens of
milliseconds each, and an IntegrationWarning for some), which makes Tukey's
test of 50 algorithms (1225 pairs) take a minute. Here the range's tail is
tabulated once per k and the integral over the variance estimate uses fixed
Gauss–Legendre nodes, for all values in one numpy pass; the tests check it
against scipy to 1e-9.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from nbstats.util import scipy_stats as sps
from nbstats.util.memory import budget

if TYPE_CHECKING:
    from scipy.interpolate import CubicSpline

__all__ = ["studentized_range_sf"]

#: Nodes of the inner integral over z (standard normal), on [-Z_SPAN, Z_SPAN]:
#: at k = 4000 the integrand is a peak of width ~0.3 near the maximum of k
#: normals, which 160 nodes integrated to only 1e-7.
Z_NODES, Z_SPAN = 320, 9.0
#: Nodes of the outer integral over s = sqrt(χ²_ν/ν), between its 1e-14 and
#: 1 - 1e-14 quantiles: the range's tail at q·s is a step in s as sharp as k
#: is large, and 96 nodes missed it by 3e-6 at k = 4000, ν = 5 (2.6e-4 at
#: ν = 2), by 2e-7 already at k = 50, ν = 2.
S_NODES, S_TAIL = 384, 1e-14
#: Values of q per pass: their q·s products stay at a few MB.
Q_BLOCK = 2**12
#: The range's tail is tabulated on [0, W_MAX] (beyond, it is below 1e-20
#: for any k up to 10⁴) at W_GRID points.
W_MAX, W_GRID = 24.0, 4097


def studentized_range_sf(q: np.ndarray, k: int, df: float) -> np.ndarray:
    """``P(Q > q)`` for the range of k standard normal means over an
    independent ``sqrt(χ²_df / df)``.

    Parameters
    ----------
    q : array-like
        Values of the studentized range (negative values give 1).
    k : int
        Number of means, at least 2.
    df : float
        Degrees of freedom of the variance estimate; ``numpy.inf`` for a
        known variance.

    Returns
    -------
    ndarray
        Same shape as ``q``, absolute error below 1e-9 (checked against
        scipy's adaptive integration and an independent quadrature for k from
        2 to 10⁴ and ν from 1 to ∞; about 1e-11 at k = 10⁴).

    Examples
    --------
    >>> from nbstats.stats.frequentist.studentized import studentized_range_sf
    >>> round(float(studentized_range_sf(3.5, 3, 10)), 6)
    0.077103
    """
    q = np.asarray(q, dtype=float)
    if k < 2:
        raise ValueError(f"the studentized range needs k >= 2 means, got {k}.")
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, got {df!r}.")
    flat = np.maximum(q.ravel(), 0.0)
    if np.isinf(df):
        s, s_weight = np.ones(1), np.ones(1)
    else:
        s, s_weight = _s_nodes(float(df))
    range_sf = _range_sf(int(k))
    out = np.empty(flat.size)
    # each block holds about three arrays of its values x the s nodes: at
    # most a sixteenth of the memory ceiling (384 nodes: 36 MB at Q_BLOCK)
    step = max(1, min(Q_BLOCK, budget(1 / 16) // (24 * s.size)))
    for start in range(0, flat.size, step):
        block = slice(start, start + step)
        w = np.minimum(flat[block, None] * s[None, :], W_MAX)
        out[block] = range_sf(w) @ s_weight
    # the ends exactly (the spline's are 1 - 1e-16 and 1e-15)
    out[flat == 0] = 1.0
    out[np.isposinf(flat)] = 0.0
    return np.clip(out, 0.0, 1.0).reshape(q.shape)


@cache
def _range_sf(k: int) -> CubicSpline:
    """``P(range of k standard normals > w)`` as a spline on [0, W_MAX].

    The range's tail is smooth in w; a cubic spline through 4097 exact
    values (``1 − k ∫ φ(z) [Φ(z) − Φ(z − w)]^(k−1) dz`` by Gauss–Legendre)
    is exact to 1e-12, and the outer integral then needs no more normal
    integrals, however many values are asked.
    """
    # imported here: scipy.interpolate loads scipy.optimize, ~350 modules that
    # ``import nbstats`` should not pay for
    from scipy import special
    from scipy.interpolate import CubicSpline

    z, z_weight = _z_nodes()
    density = np.exp(-(z**2) / 2) / np.sqrt(2 * np.pi) * z_weight
    grid = np.linspace(0.0, W_MAX, W_GRID)
    below = np.empty(W_GRID)
    # in blocks of the grid (about three arrays of its rows x the z nodes,
    # 20 MB at once) within a sixteenth of the memory ceiling
    step = max(1, min(W_GRID, budget(1 / 16) // (24 * z.size)))
    for start in range(0, W_GRID, step):
        rows = slice(start, start + step)
        inside = special.ndtr(z) - special.ndtr(z - grid[rows, None])
        np.clip(inside, 0.0, 1.0, out=inside)
        below[rows] = k * (inside ** (k - 1) @ density)
    return CubicSpline(grid, np.clip(1.0 - below, 0.0, 1.0))


@cache
def _z_nodes() -> tuple[np.ndarray, np.ndarray]:
    x, w = np.polynomial.legendre.leggauss(Z_NODES)
    return x * Z_SPAN, w * Z_SPAN


@cache
def _s_nodes(df: float) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre nodes for s = sqrt(χ²_df/df), weights times its density."""
    # χ² quantiles by the inverse incomplete gamma (fast at any df)
    low, high = (np.sqrt(sps.chi2.ppf(p, df) / df) for p in (S_TAIL, 1 - S_TAIL))
    x, w = np.polynomial.legendre.leggauss(S_NODES)
    half = (high - low) / 2
    s = low + half * (x + 1)
    weight = w * half * sps.chi.pdf(s * np.sqrt(df), df) * np.sqrt(df)
    return s, weight / weight.sum()  # the nodes' mass is 1 - 2e-14
