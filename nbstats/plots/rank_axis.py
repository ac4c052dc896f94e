"""The pieces every rank figure is built of, as figure-model items.

The axis of ranks 1 … m under a plot of rows (:func:`rank_axis`), one
interval of ranks with its marker (:func:`rank_interval`) and the markers
themselves (:func:`marker`), in points (x to the right, y down), for the
rank-interval forest plot (:mod:`nbstats.plots.rank_layout`) and the
Plackett–Luce figure (:mod:`nbstats.plots.plackett_luce_figure`): one way to
place a rank interval.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from nbstats.plots.cd_layout import rank_ticks
from nbstats.plots.figure_model import Area, Dot, Item, Stroke, Text
from nbstats.plots.labels import MIN_FONT

__all__ = ["MARKERS", "marker", "rank_axis", "rank_interval"]

#: One marker shape per result, so that results stay apart in greyscale.
MARKERS = ("o", "s", "D", "^", "v", "P", "X")

SMALL = MIN_FONT  # every text: names, ticks, captions, legend
PAD = 2.0  # around the picture
AXIS_WIDTH = 0.6
TICK = 3.5  # major tick length; minor ticks are half as long
TICK_PAD = 2.5  # from a tick's end to its label
NAME_GAP = 4.0  # from a name's right end to the left spine
LINE = 1.2  # an interval's line width
CAP = 4.0  # height of an interval's end marks
MARK = 3.5  # a marker's size, its outline EDGE wide
EDGE = 1.0
GRID = "#C6C6C6"  # MUTED at half opacity on white


def _shape(kind: str, radius: float) -> list[tuple[float, float]]:
    """Corners of a marker shape about (0, 0), y down."""
    r = radius
    if kind == "s":
        s = 0.85 * r
        return [(-s, -s), (s, -s), (s, s), (-s, s)]
    if kind == "D":
        return [(0, -r), (0.75 * r, 0), (0, r), (-0.75 * r, 0)]
    if kind in ("^", "v"):
        sign = -1.0 if kind == "^" else 1.0
        return [(0, sign * r), (0.87 * r, -sign * r / 2), (-0.87 * r, -sign * r / 2)]
    w = r / 3  # a plus (P) or a cross (X)
    plus = [(-w, -r), (w, -r), (w, -w), (r, -w), (r, w), (w, w), (w, r), (-w, r)]
    plus += [(-w, w), (-r, w), (-r, -w), (-w, -w)]
    if kind == "P":
        return plus
    c = math.sqrt(0.5)
    return [(c * (x - y), c * (x + y)) for x, y in plus]


def marker(
    kind: str, x: float, y: float, colour: str, gid: str, size: float = MARK
) -> list[Item]:
    """A hollow marker (``kind`` one of :data:`MARKERS`) centred at (x, y):
    a shape in ``colour`` with a white one inside, ``EDGE`` points in."""
    outer, inner = (size + EDGE) / 2, (size - EDGE) / 2
    if kind == "o":
        return [
            Dot(x, y, 2 * outer, gid, colour),
            Dot(x, y, 2 * inner, f"{gid}-inside", "#ffffff"),
        ]
    return [
        Area(tuple((x + a, y + b) for a, b in _shape(kind, outer)), gid, colour),
        Area(
            tuple((x + a, y + b) for a, b in _shape(kind, inner)),
            f"{gid}-inside",
            "#ffffff",
        ),
    ]


def rank_interval(
    x_of: Callable[[float], float],
    y: float,
    bounds: tuple[float, float],
    centre: float,
    *,
    colour: str,
    kind: str,
    gids: tuple[str, str],
) -> list[Item]:
    """An interval of ranks at height ``y``: a line from ``bounds[0]`` to
    ``bounds[1]`` with short end marks (one mark, gid ``tick``, for an
    interval of one rank), and a hollow marker at rank ``centre``.

    ``gids`` name the line (its :class:`Stroke` carries the ranks) and the
    marker.

    Examples
    --------
    >>> items = rank_interval(lambda r: 10 * r, 5.0, (1, 3), 2.0, colour="#000",
    ...                       kind="o", gids=("interval-a", "rank-a"))
    >>> items[0].points, items[0].ranks
    (((10.0, 5.0), (30.0, 5.0)), (1.0, 3.0))
    """
    low, high = float(bounds[0]), float(bounds[1])
    x0, x1 = x_of(low), x_of(high)
    items: list[Item] = [
        Stroke(((x0, y), (x1, y)), LINE, gids[0], color=colour, ranks=(low, high))
    ]
    # one rank: a tick standing out of the marker, not a line of no length
    ends = (
        [(x0, "tick", 2 * CAP)] if low == high else [(x0, "end", CAP), (x1, "end", CAP)]
    )
    for x, gid, tall in ends:
        items.append(Stroke(((x, y - tall / 2), (x, y + tall / 2)), EDGE, gid, colour))
    items += marker(kind, x_of(float(centre)), y, colour, gids[1])
    return items


def rank_axis(
    x_of: Callable[[float], float],
    m: int,
    top: float,
    axis_y: float,
    label: str | None = "rank (1 = best)",
) -> tuple[list[Item], float]:
    """The axis of ranks 1 … m under a plot from ``top`` to ``axis_y``: the
    left and bottom lines over ranks 0.5 … m + 0.5, a tick at every rank,
    labels at the ranks :func:`~nbstats.plots.cd_layout.rank_ticks` picks
    (no two closer than an em, both ends), grid lines (at every rank while
    they are 3 pt apart, else at the labelled ones), and ``label`` under it.
    Returns the items and the bottom of the lowest text.
    """
    left, right = x_of(0.5), x_of(m + 0.5)
    majors, _ = rank_ticks(1, m, x_of, SMALL)
    every = abs(x_of(2) - x_of(1)) >= 3.0
    items: list[Item] = []
    for rank in range(1, m + 1) if every else majors:
        x = x_of(rank)
        items.append(Stroke(((x, top), (x, axis_y)), 0.3, "grid", color=GRID))
    items.append(
        Stroke(((left, top), (left, axis_y), (right, axis_y)), AXIS_WIDTH, "axis")
    )
    labelled = set(majors)
    for rank in range(1, m + 1):
        length = TICK if rank in labelled else TICK / 2
        x = x_of(rank)
        items.append(
            Stroke(((x, axis_y), (x, axis_y + length)), AXIS_WIDTH, "tick-mark")
        )
    below = axis_y + TICK + TICK_PAD
    items += [
        Text(
            x_of(r),
            below,
            (str(r),),
            SMALL,
            "tick-label",
            anchor="middle",
            valign="top",
        )
        for r in majors
    ]
    bottom = below + 1.2 * SMALL
    if label:
        centre = (left + right) / 2
        items.append(
            Text(
                centre,
                bottom + 2.0,
                (label,),
                SMALL,
                "xlabel",
                anchor="middle",
                valign="top",
            )
        )
        bottom += 2.0 + 1.2 * SMALL
    return items, bottom


#: Height of the rank axis under the rows: ticks, their labels, the caption.
FOOT = TICK + TICK_PAD + 2 * 1.2 * SMALL + 2.0 + PAD
