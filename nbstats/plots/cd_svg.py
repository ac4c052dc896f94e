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

from collections.abc import Mapping
from html import escape

from nbstats.plots.cd_layout import SMALL, TICK_LENGTH, TICK_PAD, CDLayout
from nbstats.plots.picture_svg import item_svg, svg_text, text_svg
from nbstats.plots.style import INK

__all__ = ["layout_svg"]


def _role(gid: str) -> str:
    return "cd" if gid == "cd-text" else gid


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
    base = y - TICK_LENGTH - TICK_PAD - 0.22 * SMALL  # the ticks' baseline
    out.append(f'<g font-size="{SMALL:g}" text-anchor="middle" data-role="ticks">')
    out += [
        f'<text x="{layout.x_of(rank):.2f}" y="{base:.2f}">{rank}</text>'
        for rank in layout.ticks
    ]
    out.append("</g>")
    out += [item_svg(s, _role(s.gid)) for s in layout.strokes if s.visible]
    out += [item_svg(dot) for dot in layout.dots]
    for text in (*layout.texts, *layout.key_texts):
        index = None
        if text.gid.startswith("label-"):
            index = int(text.gid.split("-")[1])
        tip = tooltips.get(index) if index is not None else None
        out.append(text_svg(text, _role(text.gid), tip))
    width, height = layout.width, layout.height
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}pt" '
        f'height="{height:.0f}pt" viewBox="0 0 {width:.2f} {height:.2f}" '
        f'font-family="{escape(font_family)}" fill="{INK}" role="img">'
        f"<title>{svg_text(alt)}</title>"
        f'<rect width="{width:.2f}" height="{height:.2f}" fill="#ffffff"/>'
    )
    return head + "".join(out) + "</svg>"
