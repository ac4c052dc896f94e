"""The hierarchical test's simplex, written as SVG without matplotlib.

The picture :func:`nbstats.plots.hierarchical_simplex` draws (as baycomp's
``plot_simplex``): each posterior draw's probabilities (left, rope, right)
for the next data set as a point of the triangle whose corners are the three
regions — a better bottom left, b better bottom right, the rope at the top —
coloured by its most probable region, with the boundaries between the
regions dashed and a legend of each region's share of the draws. Its
geometry is :func:`nbstats.plots.simplex.simplex_geometry`'s, the one the
matplotlib simplex draws; its texts are measured by the one measure
(:mod:`nbstats.widgets.svg`). Every text is escaped; no ``id``.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

import numpy as np

from nbstats.plots.simplex import MAX_POINTS, REGIONS, simplex_geometry
from nbstats.plots.style import INK, MUTED
from nbstats.widgets.folds_svg import format_probability
from nbstats.widgets.svg import clip, svg_document

__all__ = ["MAX_POINTS", "simplex_svg"]

_SIDE = 260.0  # px, the triangle's side
_PAD = 24.0
_FONT, _SMALL = 12.0, 11.0
_H = math.sqrt(3) / 2


def simplex_svg(result: Any, labels: tuple[str, str] | None = None) -> str:
    """The simplex of a :class:`BayesHierarchicalResult` with a rope, as SVG.

    ``labels`` (a, b) are the display names (default: the result's names).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> draws = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    >>> res = SimpleNamespace(region_samples=draws, prob_left=1 / 3,
    ...     prob_rope=1 / 3, prob_right=1 / 3, rope=0.01, name_a="nbc",
    ...     name_b="aode", datasets=[1, 2, 3])
    >>> svg = simplex_svg(res)
    >>> svg.count('r="1.3"'), "nbc better" in svg  # one dot a draw
    (3, True)
    """
    if result.prob_rope is None:
        raise ValueError("the simplex needs a rope (rope > 0): rerun with one.")
    name_a, name_b = labels or (str(result.name_a), str(result.name_b))
    rope_label = f"rope ±{result.rope:g}"
    g = simplex_geometry(result.region_samples, name_a, name_b, rope_label)
    top = _PAD + 2 * _FONT * 1.3 + _FONT  # the title's two lines, the rope label
    x0, y0 = _PAD, top + _SIDE * _H  # the bottom left corner

    def at(x: Any, y: Any) -> tuple[Any, Any]:
        return x0 + np.asarray(x) * _SIDE, y0 - np.asarray(y) * _SIDE

    xs, ys = at(g.x, g.y)
    parts = []
    for k, key in enumerate(REGIONS):
        dots = "".join(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.3"/>'
            for x, y in zip(xs[g.winner == k], ys[g.winner == k], strict=True)
        )
        parts.append(
            f'<g fill="{g.colours[key]}" fill-opacity="0.45" '
            f'data-role="simplex-{key}">{dots}</g>'
        )
    (ax, bx, cx), (ay, by, cy) = at(*zip(*g.corners, strict=True))
    parts.append(
        f'<path d="M{ax:.1f},{ay:.1f} L{bx:.1f},{by:.1f} L{cx:.1f},{cy:.1f}Z" '
        f'fill="none" stroke="{INK}" stroke-width="0.8"/>'
    )
    for _, start, end in g.boundaries:
        (mx, my), (px, py) = at(*start), at(*end)
        parts.append(
            f'<line x1="{mx:.1f}" y1="{my:.1f}" x2="{px:.1f}" y2="{py:.1f}" '
            f'stroke="{MUTED}" stroke-width="0.8" stroke-dasharray="3,2"/>'
        )
    half = _SIDE / 2 - 4
    corner = g.corner_labels
    parts += [
        _text(ax, ay + _FONT + 2, clip(corner["left"], half, _FONT), "start"),
        _text(bx, by + _FONT + 2, clip(corner["right"], half, _FONT), "end"),
        _text(cx, cy - 5, corner["rope"], "middle"),
        _text(x0 + _SIDE / 2, _PAD, clip(f"{name_a} vs {name_b}: next data set",
                                          _SIDE + 2 * _PAD - 8, _FONT), "middle"),
        _text(x0 + _SIDE / 2, _PAD + _FONT * 1.3,
              f"(hierarchical model, {len(result.datasets)} data sets)", "middle"),
    ]  # fmt: skip
    legend_top = y0 + 2 * _FONT + 6
    entries = [
        ("left", f"{corner['left']}: {format_probability(result.prob_left)}"),
        ("rope", f"{rope_label}: {format_probability(result.prob_rope)}"),
        ("right", f"{corner['right']}: {format_probability(result.prob_right)}"),
    ]
    room = _SIDE + 2 * _PAD - x0 - 14
    for k, (key, text) in enumerate(entries):
        y = legend_top + k * _SMALL * 1.5
        parts.append(
            f'<circle cx="{x0 + 4:.1f}" cy="{y - _SMALL * 0.35:.1f}" r="3.5" '
            f'fill="{g.colours[key]}" fill-opacity="0.7"/>'
        )
        parts.append(_text(x0 + 12, y, clip(text, room, _SMALL), "start", _SMALL))
    height = legend_top + 3 * _SMALL * 1.5
    title = f"simplex of the next data set: {name_a} vs {name_b}"
    return svg_document(_SIDE + 2 * _PAD, height, title, parts)


def _text(x: float, y: float, text: str, anchor: str, size: float = _FONT) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" '
        f'text-anchor="{anchor}" fill="{INK}">{escape(text)}</text>'
    )
