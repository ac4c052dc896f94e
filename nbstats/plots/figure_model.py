"""The figure model: the drawing primitives a picture's geometry is made of.

A picture's geometry is computed once, in points (x to the right, y down
from the top left corner), as :class:`Stroke` (polylines), :class:`Dot`
(filled circles), :class:`Text` (lines of text with an anchor),
:class:`Rect` (filled boxes) and :class:`Area` (filled polygons), gathered in
a :class:`Picture`; the renderers -- matplotlib for papers
(:func:`nbstats.plots.picture_mpl.draw_picture`), SVG for the dashboards
(:func:`nbstats.plots.picture_svg.picture_svg`), TikZ for the CD diagram --
only translate them. :func:`float_room` is the tallest a venue's figure may be;
:func:`nice_ticks` the ticks of a value axis, for every renderer.
The critical-difference diagram is built of them
(:mod:`nbstats.plots.cd_layout`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from nbstats.plots.style import INK, SHADE

__all__ = [
    "FLOAT_SHARE",
    "LEADING",
    "TEXT_HEIGHTS",
    "Area",
    "Dot",
    "Item",
    "Picture",
    "Rect",
    "Stroke",
    "Text",
    "float_room",
    "nice_ticks",
]

#: Text heights (``\the\textheight``, TeX Live 2024) of the venues nbstats
#: knows, in points; a float may take :data:`FLOAT_SHARE` of it.
TEXT_HEIGHTS = {"article": 550.0, "twocolumn": 550.0, "ieee": 672.0, "acm": 626.0}
FLOAT_SHARE = 0.8
#: Distance between the baselines of a :class:`Text`'s lines, in font sizes
#: (every renderer sets lines so).
LEADING = 1.2


def float_room(venue: Any) -> float | None:
    """The tallest a venue's figure may be (points): :data:`FLOAT_SHARE` of
    its text height, the rest left to the caption (None for a venue whose
    text height is not known).

    Examples
    --------
    >>> float_room("ieee")
    537.6
    """
    from nbstats.results.venues import get_venue

    height = TEXT_HEIGHTS.get(get_venue(venue).name)
    return None if height is None else round(FLOAT_SHARE * height, 6)


@dataclass(frozen=True)
class Stroke:
    """A polyline: ``points`` (x, y) in points; ``clip`` an x range the line
    is drawn within (its points keep their true extent). ``ranks``: the mean
    rank each point stands at (None for a point placed otherwise), exactly,
    for a renderer whose x axis is in ranks."""

    points: tuple[tuple[float, float], ...]
    width: float
    gid: str
    color: str = INK
    cap: str = "butt"
    clip: tuple[float, float] | None = None
    visible: bool = True
    ranks: tuple[float | None, ...] = ()
    #: On and off lengths of a dashed line, in points (empty: solid).
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Dot:
    """A filled circle of ``size`` points across."""

    x: float
    y: float
    size: float
    gid: str
    color: str = INK


@dataclass(frozen=True)
class Text:
    """A text; ``lines`` top to bottom. ``anchor``: which end of its lines is
    at x (``start``, ``middle``, ``end``); ``valign``: which part of the block
    is at y (``top``, ``center``, ``bottom``: the first line's top, the
    block's middle, the last line's baseline). ``rotation``: degrees
    counter-clockwise about (x, y) (90 reads upwards); ``tooltip``: shown on
    hover by the renderers that can (SVG)."""

    x: float
    y: float
    lines: tuple[str, ...]
    size: float
    gid: str
    anchor: str = "start"
    valign: str = "center"
    bold: bool = False
    color: str = INK
    rotation: float = 0.0
    tooltip: str = ""


@dataclass(frozen=True)
class Rect:
    """A box with its top left corner at (x, y); ``edge`` the colour of its
    outline (None: no outline), ``tooltip`` as for :class:`Text`."""

    x: float
    y: float
    width: float
    height: float
    gid: str
    fill: str = INK
    edge: str | None = None
    edge_width: float = 0.0
    tooltip: str = ""


@dataclass(frozen=True)
class Area:
    """A filled polygon through ``points`` (closed by the renderer), with
    ``opacity`` from 0 (invisible) to 1."""

    points: tuple[tuple[float, float], ...]
    gid: str
    fill: str = SHADE
    opacity: float = 1.0


#: One drawing primitive.
Item = Stroke | Dot | Text | Rect | Area


@dataclass(frozen=True)
class Picture:
    """A whole picture: ``items`` in drawing order (later ones on top) on a
    canvas of ``width`` × ``height`` points; ``alt`` says in words what it
    shows (the SVG's title, for screen readers).

    Examples
    --------
    >>> pic = Picture(40.0, 20.0, (Rect(0, 0, 10, 10, "cell"),), "one cell")
    >>> [item.gid for item in pic.items_of("cell")]
    ['cell']
    """

    width: float
    height: float
    items: tuple[Item, ...]
    alt: str = ""

    def items_of(self, prefix: str) -> list[Item]:
        """The items whose ``gid`` starts with ``prefix``."""
        return [item for item in self.items if item.gid.startswith(prefix)]


def nice_ticks(low: float, high: float, nbins: int = 9) -> tuple[np.ndarray, int]:
    """Ticks in [low, high] as matplotlib's default locator puts them.

    matplotlib's ``MaxNLocator(nbins, steps=[1, 2, 2.5, 5, 10])`` (its
    ``AutoLocator``; for these axes it asks for 9 bins) without the offset
    of large numbers. Returns the ticks and the decimals that tell them apart.
    """
    span = high - low
    if not span > 0:
        return np.array([low]), 0
    scale = 10.0 ** math.floor(math.log10(span / nbins))
    raw = span / nbins
    steps = [s * scale for s in (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20)]
    first = next((i for i, s in enumerate(steps) if s >= raw), len(steps) - 1)
    eps = 1e-10 * max(span, abs(low), abs(high))
    for step in steps[first::-1]:
        start = math.ceil((low - eps) / step)
        stop = math.floor((high + eps) / step)
        if stop - start + 1 >= 2:
            break
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    if round(step / 10.0**-decimals, 6) % 1:  # 0.25, 2.5, …: one digit more
        decimals += 1
    ticks = np.round(np.arange(start, stop + 1) * step, decimals + 2) + 0.0
    return ticks, decimals
