"""The (left, rope, right) simplex's geometry, computed once for every renderer.

A posterior draw's probabilities (left, rope, right) are a point of the
triangle whose corners are the three regions: a better bottom left, b better
bottom right, the rope at the top (baycomp's ``plot_simplex``). The point is
coloured by its most probable region, and dashed lines from the centre
separate the regions. :func:`simplex_geometry` computes the points (in
triangle units: the base from (0, 0) to (1, 0), the top at (½, √3/2)), their
regions, the triangle, the boundaries and the corner labels; matplotlib
(:func:`nbstats.plots.rope_probabilities`,
:func:`nbstats.plots.hierarchical_simplex`) and the fold dashboard's SVG
(:func:`nbstats.widgets.simplex_svg.simplex_svg`) map them to their canvas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from nbstats.plots.style import ACCENT, MUTED, SECOND

__all__ = [
    "MAX_POINTS",
    "REGIONS",
    "SimplexGeometry",
    "SimplexLayout",
    "draw_simplex",
    "simplex_geometry",
    "simplex_layout",
]

#: Draws shown at most (the draws are i.i.d.: an even subset will do).
MAX_POINTS = 4000
#: The regions, in the order of a draw's columns.
REGIONS = ("left", "rope", "right")
COLOURS = {"left": SECOND, "rope": MUTED, "right": ACCENT}
HEIGHT = math.sqrt(3) / 2


@dataclass(frozen=True)
class SimplexGeometry:
    """What the simplex draws, in triangle units.

    ``x``, ``y``: the shown draws; ``winner``: the index in :data:`REGIONS`
    of each one's most probable region; ``corners``: bottom left, bottom
    right, top; ``boundaries``: ``(gid, start, end)`` of the dashed lines
    between regions; ``corner_labels``: the text at each region's corner.
    """

    x: np.ndarray
    y: np.ndarray
    winner: np.ndarray
    corners: tuple[tuple[float, float], ...]
    boundaries: tuple[tuple[str, tuple[float, float], tuple[float, float]], ...]
    corner_labels: dict[str, str]
    colours: dict[str, str]


def simplex_geometry(
    regions: np.ndarray, name_a: str, name_b: str, rope_label: str
) -> SimplexGeometry:
    """The simplex of draws ``regions`` (n × 3: left, rope, right).

    Examples
    --------
    >>> g = simplex_geometry(np.array([[1.0, 0, 0], [0, 0, 1.0], [0, 1.0, 0]]),
    ...                      "a", "b", "rope ±0.01")
    >>> [(float(x), round(float(y), 3)) for x, y in zip(g.x, g.y)]
    [(0.0, 0.0), (1.0, 0.0), (0.5, 0.866)]
    >>> g.winner.tolist(), g.corner_labels["left"]
    ([0, 2, 1], 'a better')
    """
    regions = np.asarray(regions, dtype=float)
    if regions.shape[0] > MAX_POINTS:
        keep = np.linspace(0, regions.shape[0] - 1, MAX_POINTS).astype(np.intp)
        regions = regions[keep]
    centre = (0.5, HEIGHT / 3)
    return SimplexGeometry(
        x=regions[:, 2] + 0.5 * regions[:, 1],
        y=HEIGHT * regions[:, 1],
        winner=np.argmax(regions, axis=1),
        corners=((0.0, 0.0), (1.0, 0.0), (0.5, HEIGHT)),
        boundaries=(
            ("boundary-left-right", centre, (0.5, 0.0)),
            ("boundary-rope-right", centre, (0.75, HEIGHT / 2)),
            ("boundary-left-rope", centre, (0.25, HEIGHT / 2)),
        ),
        corner_labels={
            "left": f"{name_a} better",
            "right": f"{name_b} better",
            "rope": rope_label,
        },
        colours=dict(COLOURS),
    )


#: Opacity of the draws' dots (drawn opaque, as their colour over white).
DOT_ALPHA = 0.45
#: Diameter of a draw's dot (points).
DOT_SIZE = 2.0
#: The triangle's largest side (points): across a page (``figure*``) it
#: stays the size a reader takes in at once, its legend beneath it.
MAX_SIDE = 300.0


@dataclass(frozen=True)
class SimplexLayout:
    """A laid-out simplex: the :class:`~nbstats.plots.figure_model.Picture`
    both renderers draw, the triangle's corners in points (bottom left,
    bottom right, top) and the legend's texts."""

    picture: Any
    corners: tuple[tuple[float, float], ...]
    legend: tuple[str, ...]


def _over_white(color: str, alpha: float) -> str:
    rgb = [int(color[k : k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(alpha * c + (1 - alpha) * 255):02X}" for c in rgb)


def simplex_layout(
    geometry: SimplexGeometry,
    legend: Sequence[str],
    width: float,
    *,
    title: Sequence[str] = (),
    style: Any = None,
    height: float | None = None,
    alt: str = "",
) -> SimplexLayout:
    """Lay out a :func:`simplex_geometry` ``width`` points wide, in the font
    of the current :func:`~nbstats.plots.style.paper_style`.

    ``legend``: the entry of each region (in :data:`REGIONS` order);
    ``title``: its lines (wrapped to the width); ``style``: font sizes
    (:data:`~nbstats.plots.chart_layout.PAPER` by default); ``height``: the
    whole picture's at most (a given axes'), the triangle shrinks to fit.
    Items by gid: ``simplex-<region>`` (one dot a draw, in its most probable
    region's colour), ``simplex-edges``, the ``boundary-*`` lines, the
    corner labels ``corner-<region>``, ``title`` and the legend's
    ``legend-key-<i>`` (dots) and ``legend-text-<i>``.

    Examples
    --------
    >>> import numpy as np
    >>> from nbstats.plots.style import paper_style
    >>> g = simplex_geometry(np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6]]),
    ...                      "a", "b", "rope ±0.01")
    >>> with paper_style():
    ...     layout = simplex_layout(g, ["a: 0.5", "rope: 0", "b: 0.5"], 238.0)
    >>> [item.gid for item in layout.picture.items[:2]]
    ['simplex-left', 'simplex-right']
    """
    from nbstats.plots.chart_layout import (
        LEADING,
        MARGIN,
        PAPER,
        Key,
        legend_items,
        wrap_lines,
    )
    from nbstats.plots.figure_model import Dot, Picture, Stroke, Text

    style = style or PAPER
    label, small = style.label, style.legend
    title_lines = [
        line
        for text in title
        for line in wrap_lines(text, width - 2 * MARGIN, style.title)
    ]
    rope_lines = wrap_lines(geometry.corner_labels["rope"], width - 2 * MARGIN, label)
    top = MARGIN + len(title_lines) * LEADING * style.title
    top += (4.0 if title_lines else 0.0) + len(rope_lines) * LEADING * label + 3.0
    entries = [
        (text, Key("dot", _over_white(geometry.colours[key], 0.7)))
        for key, text in zip(REGIONS, legend, strict=True)
    ]
    side = min(width - 2 * MARGIN - 8.0, MAX_SIDE)

    def below(side: float) -> tuple[tuple[str, ...], tuple[str, ...], float]:
        half = side / 2 - 4.0
        left = wrap_lines(geometry.corner_labels["left"], half, label)
        right = wrap_lines(geometry.corner_labels["right"], half, label)
        return left, right, 3.0 + max(len(left), len(right)) * LEADING * label

    left_lines, right_lines, under = below(side)
    if height is not None:  # the triangle as large as the height leaves
        _, legend_bottom, _ = legend_items(entries, width, 0.0, small, max_columns=1)
        room = (height - top - under - 6.0 - legend_bottom - MARGIN) / HEIGHT
        if room < side:
            side = max(room, 4.0 * label)
            left_lines, right_lines, under = below(side)
    x0 = (width - side) / 2
    bottom = top + side * HEIGHT

    def at(x: float, y: float) -> tuple[float, float]:
        return (x0 + x * side, bottom - y * side)

    items: list[Any] = []
    xs = x0 + np.asarray(geometry.x) * side
    ys = bottom - np.asarray(geometry.y) * side
    for k, key in enumerate(REGIONS):
        colour = _over_white(geometry.colours[key], DOT_ALPHA)
        chosen = geometry.winner == k
        items += [
            Dot(x, y, DOT_SIZE, f"simplex-{key}", colour)
            for x, y in zip(xs[chosen].tolist(), ys[chosen].tolist(), strict=True)
        ]
    corners = tuple(at(*c) for c in geometry.corners)
    items.append(Stroke((*corners, corners[0]), 0.6, "simplex-edges", cap="round"))
    for gid, start, end in geometry.boundaries:
        items.append(
            Stroke((at(*start), at(*end)), 0.6, gid, color=MUTED, dash=(2.2, 1.0))
        )
    (lx, ly), (rx, ry), (tx, ty) = corners
    items += [
        Text(lx, ly + 3.0, left_lines, label, "corner-left", valign="top"),
        Text(rx, ry + 3.0, right_lines, label, "corner-right", "end", "top"),
        Text(tx, ty - 3.0, rope_lines, label, "corner-rope", "middle", "bottom"),
    ]
    if title_lines:
        items.append(
            Text(
                width / 2,
                MARGIN,
                tuple(title_lines),
                style.title,
                "title",
                "middle",
                "top",
            )
        )
    keys, legend_bottom, shown = legend_items(
        entries, width, bottom + under + 6.0, small, max_columns=1
    )
    items += keys
    total = float(np.ceil(legend_bottom + MARGIN))
    return SimplexLayout(
        Picture(width, total, tuple(items), alt), corners, tuple(shown)
    )


def draw_simplex(layout: SimplexLayout, ax: Any = None) -> Any:
    """Draw ``layout`` with matplotlib: the picture by
    :func:`~nbstats.plots.picture_mpl.draw_picture`, each region's dots as
    one scatter (gid ``simplex-<region>``, rasterised: thousands of draws
    stay a small PDF) instead of one artist a dot."""
    from nbstats.plots.figure_model import Dot, Picture
    from nbstats.plots.picture_mpl import draw_picture

    pic = layout.picture
    dots = [item for item in pic.items if isinstance(item, Dot)]
    keys = [d for d in dots if d.gid.startswith("legend-key-")]
    rest = tuple(i for i in pic.items if not isinstance(i, Dot) or i in keys)
    ax = draw_picture(Picture(pic.width, pic.height, rest, pic.alt), ax)
    for key in REGIONS:
        chosen = [d for d in dots if d.gid == f"simplex-{key}"]
        ax.scatter(  # one a region, empty too (no draw there)
            [d.x for d in chosen],
            [d.y for d in chosen],
            s=DOT_SIZE**2,
            color=_over_white(COLOURS[key], DOT_ALPHA),
            linewidths=0,
            rasterized=True,
            clip_on=False,
            zorder=0.5,
            gid=f"simplex-{key}",
        )
    return ax
