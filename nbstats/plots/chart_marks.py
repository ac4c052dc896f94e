"""Marks of the value-axes pictures, in points: curves cut to a plot box,
the area under them, a point mass, and a paper figure's width.

The plot box is :class:`nbstats.plots.chart_layout.Frame`; the items are the
figure model's (:mod:`nbstats.plots.figure_model`).
"""

from __future__ import annotations

import math

import numpy as np

from nbstats.plots.chart_layout import POINTS_PER_PT, Frame
from nbstats.plots.figure_model import Area, Item, Stroke

__all__ = ["curve_points", "paper_points", "point_mass", "under"]


def paper_points(inches: float) -> float:
    """A paper figure's width in points, rounded down to 0.01 pt: a PDF's
    page size, rounded up when it is printed, then never exceeds the column
    the width came from.

    Examples
    --------
    >>> paper_points(3.3), paper_points(252 / 72.27)
    (237.6, 251.05)
    """
    return math.floor(round(inches * 72, 6) * 100) / 100


def curve_points(
    x: np.ndarray, y: np.ndarray, frame: Frame
) -> tuple[tuple[float, float], ...]:
    """A curve's points inside the box's x range (cut exactly at its edges),
    thinned to :data:`POINTS_PER_PT` a point of width (the ends and the peak
    kept), in points."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    low, high = frame.xlim
    i = int(np.searchsorted(x, low, side="left"))
    j = int(np.searchsorted(x, high, side="right"))
    xs, ys = x[i:j], y[i:j]
    if i > 0 and (xs.size == 0 or xs[0] > low):
        xs, ys = np.r_[low, xs], np.r_[np.interp(low, x, y), ys]
    if j < x.size and (xs.size == 0 or xs[-1] < high):
        xs, ys = np.r_[xs, high], np.r_[ys, np.interp(high, x, y)]
    limit = int(POINTS_PER_PT * (frame.right - frame.left))
    if xs.size > limit:
        keep = np.zeros(xs.size, dtype=bool)
        keep[:: math.ceil(xs.size / limit)] = True
        keep[[0, -1, int(np.argmax(ys))]] = True
        xs, ys = xs[keep], ys[keep]
    return tuple(zip(frame.x(xs).tolist(), frame.y(ys).tolist(), strict=True))


def under(
    points: tuple[tuple[float, float], ...], frame: Frame
) -> tuple[tuple[float, float], ...]:
    """A curve's points closed down to the box's bottom (an area under it)."""
    if not points:
        return ()
    return ((points[0][0], frame.bottom), *points, (points[-1][0], frame.bottom))


def point_mass(
    at: float, frame: Frame, gid: str, color: str, dash: tuple[float, ...] = ()
) -> tuple[Item, Item]:
    """All the mass at one x: a stem (``gid-point-mass``) with an arrow head
    (``gid-arrow``), 0.88 of the box high."""
    x = float(frame.x(at))
    tip = frame.bottom - 0.88 * (frame.bottom - frame.top)
    stem = Stroke(
        ((x, frame.bottom), (x, tip)), 1.4, f"{gid}-point-mass", color=color, dash=dash
    )
    head = Area(
        ((x - 2.9, tip + 2.5), (x, tip - 2.5), (x + 2.9, tip + 2.5)),
        f"{gid}-arrow",
        fill=color,
    )
    return stem, head
