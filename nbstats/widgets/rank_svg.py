"""The frequentist and rank dashboards' pictures, as SVG at every number of algorithms.

Drawn by the dashboards' one renderer (:mod:`nbstats.widgets.svg`, which says
why SVG), from 2 algorithms to 100 and more. Both pictures have one row per
algorithm, best mean rank at the top, on a common axis of ranks 1 … m
(1 = best, on the left), so they read the same at 2 names and at 100:

- :func:`cd_svg` — the critical-difference diagram of a post-hoc result:
  the paper's (:func:`nbstats.plots.cd_diagram`), its geometry computed once
  by :func:`nbstats.plots.cd_layout.cd_layout` and written as SVG by
  :func:`nbstats.plots.cd_svg.layout_svg`.
- :func:`intervals_svg` — the forest plot of confidence intervals for ranks:
  one line per method and algorithm from its lower to its upper rank.

A name too long for its column is cut in the middle (``HistGradi…lr=0.05)``:
the start and the end, where names of variants differ) and given in full in
the row's tooltip. The elements a reader (or a test) looks for carry a
``data-role``: ``cd`` (the critical difference), ``group-<k>`` (a group's
bar), ``control-band``, ``significant-<j>`` (an algorithm significantly
different from the control, j its column), ``interval-<method>-<name>`` (with
``data-ranks="lower upper"``). Every text is escaped; the SVG has a
``<title>`` and uses no ``id``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import Any

from nbstats.plots.style import INK, PALETTE
from nbstats.widgets.base import number_html
from nbstats.widgets.svg import clip, svg_document, width_of

__all__ = ["cd_svg", "intervals_svg"]

_ROW = 15.0  # px per algorithm from 22 algorithms on (up to 22 px below)
_FONT = 11.0  # px, names from 21 algorithms on (12 px below)
_PAD = 6.0  # px left of the longest name
_SMALL = 10.0  # px, ticks and captions
_AXIS_WIDTH = 360.0
_NAME_MAX = 280.0


def _axis(m: int, x0: float, y: float) -> tuple[Any, list[str]]:
    """The rank axis (ticks 1 … m, at most about 12 labels) at height y."""

    def x(rank: float) -> float:
        return x0 + (rank - 1) / max(m - 1, 1) * _AXIS_WIDTH

    step = max(1, math.ceil(m / 12))
    for nice in (1, 2, 5, 10, 20, 25, 50):
        if nice >= step:
            step = nice
            break
    parts = [
        f'<line x1="{x(1):.1f}" y1="{y:.1f}" x2="{x(m):.1f}" y2="{y:.1f}" '
        f'stroke="{INK}" stroke-width="1"/>'
    ]
    for rank in range(1, m + 1):
        major = rank == 1 or rank % step == 0
        size = 5 if major else 2.5
        parts.append(
            f'<line x1="{x(rank):.1f}" y1="{y:.1f}" x2="{x(rank):.1f}" '
            f'y2="{y - size:.1f}" stroke="{INK}" stroke-width="0.8"/>'
        )
        if major:
            parts.append(
                f'<text x="{x(rank):.1f}" y="{y - 7:.1f}" font-size="{_SMALL}" '
                f'text-anchor="middle">{rank}</text>'
            )
    return x, parts


def _rank(value: float) -> str:
    return number_html(float(value), "rank")


def _sizes(m: int) -> tuple[float, float]:
    """(row height, name font size) in px: roomier for a few algorithms."""
    return max(_ROW, min(22.0, 330.0 / m)), (12.0 if m <= 20 else _FONT)


def _name_width(labels: list[str], font: float) -> float:
    """x of the names' right edge: the widest name (at most _NAME_MAX) + pad."""
    widest = max((width_of(label, font) for label in labels), default=0)
    return _PAD + min(_NAME_MAX, widest) + 8


#: Width of the dashboards' CD diagram (points): a paper's two columns.
CD_WIDTH = 6.9 * 72


def cd_svg(result: Any, shown: Mapping[str, str] | None = None) -> str:
    """The critical-difference diagram of a post-hoc result, as SVG: the
    paper's diagram (:func:`nbstats.plots.cd_layout.cd_layout`, drawn by
    :func:`nbstats.plots.cd_svg.layout_svg`), two columns wide.

    ``shown`` maps names to display names (aliases), listed in a key.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    >>> svg = cd_svg(res)
    >>> svg.startswith("<svg") and "C4.5+m+cf" in svg
    True
    """
    from nbstats.plots.cd_layout import cd_layout
    from nbstats.plots.cd_svg import layout_svg
    from nbstats.plots.style import paper_style

    aliases: Any = dict(shown) if shown else "auto"
    with paper_style():
        layout = cd_layout(result, CD_WIDTH, aliases=aliases)
    tooltips = {
        j: f"{name}: mean rank {_rank(rank)}"
        for j, (name, rank) in enumerate(result.mean_ranks.items())
    }
    m = len(tooltips)
    return layout_svg(
        layout, f"critical-difference diagram of {m} algorithms", tooltips=tooltips
    )


def intervals_svg(
    results: Mapping[str, Any], shown: Mapping[str, str] | None = None
) -> str:
    """The forest plot of :class:`RankCIResult` (one per method), as SVG.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.rank_ci(nbstats.datasets.load("demsar2006"))
    >>> "<line" in intervals_svg({"id-wilcoxon-2s": res})
    True
    """
    shown = shown or {}
    first = next(iter(results.values()))
    ranks = first.mean_ranks.sort_values(kind="stable")
    names = [str(n) for n in ranks.index]
    labels = [shown.get(n, n) for n in names]
    m = len(names)
    methods = list(results)
    row_h, font = _sizes(m)
    name_w = _name_width(labels, font)
    legend_rows = 1 + (len(methods) - 1) // 2
    top = 30 + 14 * legend_rows
    x, parts = _axis(m, name_w + 10, top)
    colours = [PALETTE[1 + k % (len(PALETTE) - 1)] for k in range(len(methods))]
    for k, method in enumerate(methods):
        lx = name_w + 10 + (k % 2) * 200
        ly = 12 + 14 * (k // 2)
        parts.append(
            f'<line x1="{lx:.1f}" y1="{ly:.1f}" x2="{lx + 18:.1f}" y2="{ly:.1f}" '
            f'stroke="{colours[k]}" stroke-width="2.5"/>'
            f'<text x="{lx + 22:.1f}" y="{ly + 3.5:.1f}" font-size="{_SMALL}">'
            f"{escape(method)}</text>"
        )
    spread = min(3.0, 10.0 / max(len(methods), 1))
    for row, (name, label) in enumerate(zip(names, labels, strict=True)):
        cy = top + 12 + row * row_h
        parts.append(
            f'<text x="{name_w:.1f}" y="{cy + 4:.1f}" font-size="{font}" '
            f'text-anchor="end">{escape(clip(label, name_w - 8 - _PAD, font))}'
            f"<title>{escape(name)}: mean rank {_rank(ranks[name])}</title></text>"
        )
        for k, (method, res) in enumerate(results.items()):
            dy = (k - (len(methods) - 1) / 2) * spread
            low, high = float(res.lower[name]), float(res.upper[name])
            parts.append(
                f'<line x1="{x(low):.1f}" y1="{cy + dy:.1f}" x2="{x(high):.1f}" '
                f'y2="{cy + dy:.1f}" stroke="{colours[k]}" stroke-width="2" '
                f'stroke-linecap="round" data-role="interval-{escape(method)}-'
                f'{escape(name)}" data-ranks="{low:g} {high:g}"/>'
            )
            if low == high:  # one rank: a tick, not an invisible line
                parts.append(
                    f'<line x1="{x(low):.1f}" y1="{cy + dy - 4:.1f}" '
                    f'x2="{x(low):.1f}" y2="{cy + dy + 4:.1f}" '
                    f'stroke="{colours[k]}" stroke-width="2" data-role="tick"/>'
                )
        parts.append(
            f'<circle cx="{x(float(ranks[name])):.1f}" cy="{cy:.1f}" r="2.6" '
            f'fill="{INK}"/>'
        )
    bottom = top + 12 + (m - 1) * row_h + 10
    level = f"{first.confidence_level:.1%}".replace(".0%", "%")
    parts.append(
        f'<text x="{name_w + 10:.1f}" y="{bottom + 14:.1f}" font-size="{_SMALL}" '
        f'fill="#555">{level} intervals for ranks (1 = best); dots: mean rank'
        "</text>"
    )
    width = max(name_w + 10 + _AXIS_WIDTH + 16, name_w + 10 + 400)
    return svg_document(width, bottom + 22, f"rank intervals of {m} algorithms", parts)
