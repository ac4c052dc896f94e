"""Densities of posterior draws that live in [0, 1], and their drawing helpers.

:func:`reflected_kde` estimates the density of θ (used by
:func:`nbstats.plots.posterior.signrank_posterior` and the Bayesian
dashboard); the private helpers draw a point mass, a histogram outline, the
area beyond ½ and choose the x limits, for the signed-rank and sign-test
posteriors.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["reflected_kde"]

#: Finest grid of the density estimate (intervals on [0, 1]).
_MAX_GRID = 20_000


def reflected_kde(
    samples: np.ndarray, *, bandwidth: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Density of draws that live in [0, 1]: ``(grid, density)``.

    A Gaussian kernel density estimate reflected at 0 and 1, so no mass leaks
    outside [0, 1] and the density does not dip at a bound the posterior
    piles against (θ near 1). The bandwidth defaults to Scott's rule,
    ``sd · S^(-1/5)``, as :class:`scipy.stats.gaussian_kde`. It is computed
    on a grid (linear binning, then a convolution), which takes milliseconds
    for 50,000 draws. The grid has an even number of intervals, so ½ is a grid
    point, and is fine enough for the bandwidth (spacing ≤ h/3 down to
    1/20,000). The density integrates to 1 over [0, 1] up to the trapezoid
    rule's error.

    Examples
    --------
    >>> import numpy as np
    >>> draws = np.random.default_rng(0).beta(8, 3, size=20_000)
    >>> grid, density = reflected_kde(draws)
    >>> round(float(np.trapezoid(density, grid)), 3)
    1.0
    """
    x = np.clip(np.asarray(samples, dtype=float).ravel(), 0.0, 1.0)
    n = x.size
    if n < 2 or np.ptp(x) == 0:
        raise ValueError("a density needs at least two distinct draws.")
    h = float(bandwidth) if bandwidth is not None else float(np.std(x, ddof=1))
    if bandwidth is None:
        h *= n ** (-1 / 5)
    intervals = int(min(_MAX_GRID, max(1000, 2 * math.ceil(1.5 / h))))
    dx = 1.0 / intervals
    h = max(h, dx)
    grid = np.linspace(0.0, 1.0, intervals + 1)
    # linear binning onto the grid
    position = x * intervals
    low = np.minimum(np.floor(position).astype(np.intp), intervals - 1)
    frac = position - low
    size = intervals + 1
    counts = np.bincount(low, 1 - frac, minlength=size) + np.bincount(
        low + 1, frac, minlength=size
    )
    # mirror at both ends (each end point is its own mirror image)
    k = min(math.ceil(4 * h / dx), intervals)
    padded = np.zeros(size + 2 * k)
    padded[k : k + size] = counts
    padded[k::-1] += counts[: k + 1]
    padded[k + size - 1 :] += counts[size - 1 - k :][::-1]
    offsets = np.arange(-k, k + 1) * dx
    kernel = np.exp(-0.5 * (offsets / h) ** 2) / (h * math.sqrt(2 * math.pi))
    density = np.convolve(padded, kernel, mode="valid") / n
    return grid, density


def _histogram_density(samples: np.ndarray, bins: int) -> tuple[np.ndarray, ...]:
    """A density histogram on [0, 1] as the vertices of its step outline."""
    x = np.clip(np.asarray(samples, dtype=float).ravel(), 0.0, 1.0)
    density, edges = np.histogram(x, bins=bins, range=(0.0, 1.0), density=True)
    return np.repeat(edges, 2)[1:-1], np.repeat(density, 2)


def _right_of_half(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The part of a curve at x ≥ ½, starting exactly at ½ (right-hand value)."""
    i = int(np.searchsorted(x, 0.5, side="right"))
    if i == 0:
        return x, y
    if i == x.size:
        return np.array([0.5]), y[-1:]
    if x[i - 1] == 0.5:
        start = y[i - 1]
    else:
        start = np.interp(0.5, x[i - 1 : i + 1], y[i - 1 : i + 1])
    return np.r_[0.5, x[i:]], np.r_[start, y[i:]]


def _check_bins(bins: object) -> int | None:
    if bins is None:
        return None
    if isinstance(bins, (bool, np.bool_)) or not isinstance(bins, (int, np.integer)):
        raise TypeError(
            f"bins must be None (a density estimate) or an int, got {bins!r}."
        )
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins!r}.")
    return int(bins)


def _draw_point_mass(
    ax: Any, value: float, *, gid: str, color: str, linestyle: str, label: str
) -> None:
    """All posterior mass at one θ: a stem with an arrow head (no density)."""
    transform = ax.get_xaxis_transform()  # x in data, y in axes units
    ax.plot(
        [value, value],
        [0.0, 0.88],
        transform=transform,
        color=color,
        linestyle=linestyle,
        linewidth=1.4,
        clip_on=False,
        gid=f"{gid}-point-mass",
        label=label,
    )
    ax.plot(
        [value],
        [0.88],
        transform=transform,
        marker="^",
        markersize=5,
        color=color,
        clip_on=False,
        gid=f"{gid}-arrow",
    )


def _view_limits(
    curves: list[tuple[np.ndarray, np.ndarray] | None], extra: list[float]
):
    """x-limits holding the visible part of every curve, ½ and ``extra``."""
    lows, highs = [0.5, *extra], [0.5, *extra]
    for curve in curves:
        if curve is None:
            continue
        x, y = curve
        visible = x[y > 1e-3 * y.max()]
        lows.append(float(visible.min()))
        highs.append(float(visible.max()))
    low, high = min(lows), max(highs)
    pad = 0.06 * max(high - low, 0.05)
    return max(0.0, low - pad), min(1.0, high + pad)
