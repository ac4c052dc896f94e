"""Critical-difference diagrams as SVG, for the dashboards.

The third renderer of :func:`nbstats.plots.cd_layout.cd_layout`'s geometry
(after matplotlib and TikZ): every line, dot and text where the paper's
figure puts them, written as SVG text without matplotlib's drawing (only its
font metrics, through the layout). One user unit is one point. Every element
a reader or a test looks for carries a ``data-role``: ``cd`` (the critical
difference's value), ``cd-bar``, ``group-<i>`` (i indexes ``result.groups``),
``control-band``, ``significant-<j>``, ``stem-<j>`` and ``label-<j>`` (j
indexes ``result.mean_ranks``), ``caption``, ``key``. Every text is escaped,
every name's full text and mean rank is its label's tooltip, and the SVG uses
no ``id`` (several pictures can share a page).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from html import escape

from nbstats.plots.cd_layout import SMALL, TICK_LENGTH, TICK_PAD, CDLayout, Text
from nbstats.plots.style import INK

__all__ = ["layout_svg"]

#: Characters XML 1.0 forbids (C0 controls but tab and newline, surrogates, …).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ANCHOR = {"start": "start", "middle": "middle", "end": "end"}
#: Where a line's baseline sits, in font sizes: below the middle of one line
#: (as matplotlib's "center_baseline"), below the top, above the bottom.
_MIDDLE, _ASCENT, _DESCENT = 0.33, 0.78, 0.22
_LEADING = 1.2


def _clean(text: str) -> str:
    """A layout's text (escaped for matplotlib) as SVG character data."""
    return escape(_NOT_XML.sub("\ufffd", text.replace(r"\$", "$")), quote=True)


def _role(gid: str) -> str:
    return "cd" if gid == "cd-text" else gid


def _text(text: Text, tooltip: str | None) -> str:
    n = len(text.lines)
    step = _LEADING * text.size
    if text.valign == "top":
        first = text.y + _ASCENT * text.size
    elif text.valign == "bottom":
        first = text.y - _DESCENT * text.size - (n - 1) * step
    else:
        first = text.y + _MIDDLE * text.size - (n - 1) * step / 2
    weight = ' font-weight="bold"' if text.bold else ""
    fill = "" if text.color == INK else f' fill="{text.color}"'
    if n == 1:
        body = _clean(text.lines[0])
    else:
        body = "".join(
            f'<tspan x="{text.x:.2f}" y="{first + k * step:.2f}">{_clean(line)}</tspan>'
            for k, line in enumerate(text.lines)
        )
    title = f"<title>{_clean(tooltip)}</title>" if tooltip else ""
    return (
        f'<text x="{text.x:.2f}" y="{first:.2f}" font-size="{text.size:g}" '
        f'text-anchor="{_ANCHOR[text.anchor]}"{weight}{fill} '
        f'data-role="{_role(text.gid)}">{body}{title}</text>'
    )


def layout_svg(
    layout: CDLayout,
    alt: str,
    *,
    font_family: str = "DejaVu Sans, Arial, sans-serif",
    tooltips: Mapping[int, str] | None = None,
) -> str:
    """SVG of a :class:`~nbstats.plots.cd_layout.CDLayout`.

    ``alt`` is the SVG's ``<title>`` (its accessible name); ``font_family``
    names the font the layout was measured in; ``tooltips`` maps a name's
    index to its label's tooltip.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.cd_layout import cd_layout
    >>> from nbstats.plots.style import paper_style
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"), alpha=0.1)
    >>> with paper_style():
    ...     svg = layout_svg(cd_layout(res, 238.0), "CD diagram")
    >>> svg.startswith("<svg") and 'data-role="cd"' in svg and "C4.5+m+cf" in svg
    True
    """
    tooltips = tooltips or {}
    out: list[str] = []
    y = layout.axis_y
    x0, x1 = layout.x_of(layout.first), layout.x_of(layout.last)
    marks = [f"M{x0:.2f},{y:.2f}H{x1:.2f}"]
    for rank in layout.ticks:
        marks.append(f"M{layout.x_of(rank):.2f},{y:.2f}v{-TICK_LENGTH:g}")
    for rank in layout.minor_ticks:
        marks.append(f"M{layout.x_of(rank):.2f},{y:.2f}v{-TICK_LENGTH / 2:g}")
    out.append(
        f'<path d="{"".join(marks)}" stroke="{INK}" stroke-width="0.6" '
        'fill="none" data-role="axis"/>'
    )
    base = y - TICK_LENGTH - TICK_PAD - _DESCENT * SMALL
    out.append(f'<g font-size="{SMALL:g}" text-anchor="middle" data-role="ticks">')
    out += [
        f'<text x="{layout.x_of(rank):.2f}" y="{base:.2f}">{rank}</text>'
        for rank in layout.ticks
    ]
    out.append("</g>")
    for stroke in layout.strokes:
        if not stroke.visible:
            continue
        points = stroke.points
        if stroke.clip is not None:  # a horizontal band: cut to the axis
            lo, hi = stroke.clip
            (ax, ay), (bx, by) = points[0], points[-1]
            points = ((min(max(ax, lo), hi), ay), (min(max(bx, lo), hi), by))
        path = " ".join(f"{x:.2f},{py:.2f}" for x, py in points)
        cap = "square" if stroke.cap == "projecting" else "butt"
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{stroke.color}" '
            f'stroke-width="{stroke.width:g}" stroke-linecap="{cap}" '
            f'data-role="{_role(stroke.gid)}"/>'
        )
    for dot in layout.dots:
        out.append(
            f'<circle cx="{dot.x:.2f}" cy="{dot.y:.2f}" r="{dot.size / 2:g}" '
            f'fill="{dot.color}" data-role="{dot.gid}"/>'
        )
    for text in (*layout.texts, *layout.key_texts):
        index = None
        if text.gid.startswith("label-"):
            index = int(text.gid.split("-")[1])
        out.append(_text(text, tooltips.get(index) if index is not None else None))
    width, height = layout.width, layout.height
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}pt" '
        f'height="{height:.0f}pt" viewBox="0 0 {width:.2f} {height:.2f}" '
        f'font-family="{escape(font_family)}" fill="{INK}" role="img">'
        f"<title>{_clean(alt)}</title>"
        f'<rect width="{width:.2f}" height="{height:.2f}" fill="#ffffff"/>'
    )
    return head + "".join(out) + "</svg>"
