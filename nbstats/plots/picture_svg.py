"""A :class:`~nbstats.plots.figure_model.Picture` written as SVG, for the dashboards.

The SVG renderer of the figure model: every item where the picture's
geometry put it, as SVG text (no matplotlib drawing; the geometry was
measured with matplotlib's font metrics when it was made). One user unit is
one point. Every element carries its item's ``gid`` as ``data-role`` (what a
reader or a test looks for), every text is escaped, a tooltip becomes the
element's ``<title>``, and the SVG uses no ``id`` (several pictures can share
a page).

Examples
--------
>>> from nbstats.plots.figure_model import Picture, Rect, Text
>>> pic = Picture(60.0, 20.0, (Rect(2, 2, 16, 16, "cell", tooltip="a < b"),
...                            Text(24, 10, ("a & b",), 8.0, "label")), "two")
>>> svg = picture_svg(pic)
>>> "<title>a &lt; b</title>" in svg and "a &amp; b" in svg
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from html import escape

from nbstats.plots.figure_model import (
    LEADING,
    Area,
    Dot,
    Item,
    Picture,
    Rect,
    Stroke,
    Text,
)
from nbstats.plots.style import INK

__all__ = ["item_svg", "picture_svg", "svg_text", "text_svg"]

#: The font the dashboards' pictures are measured in and ask for.
FONT_FAMILY = "DejaVu Sans, Arial, sans-serif"
#: Characters XML 1.0 forbids (C0 controls but tab and newline, surrogates, …).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
#: Where a line's baseline sits, in font sizes: below the middle of one line
#: (as matplotlib's "center_baseline"), below the top, above the bottom.
_MIDDLE, _ASCENT, _DESCENT = 0.33, 0.78, 0.22
_CAPS = {"butt": "butt", "projecting": "square", "round": "round"}


def svg_text(text: str) -> str:
    """``text`` (escaped for matplotlib's mathtext) as SVG character data.

    Examples
    --------
    >>> svg_text(r"a <b> \\$1")
    'a &lt;b&gt; $1'
    """
    return escape(_NOT_XML.sub("\ufffd", text.replace(r"\$", "$")), quote=True)


def _data(role: str, extra: Mapping[str, str] | None = None) -> str:
    """The ``data-role`` attribute (and ``data-<key>`` ones), escaped: a gid
    may carry a user's algorithm name."""
    out = f'data-role="{escape(role, quote=True)}"'
    for key, value in (extra or {}).items():
        out += f' data-{escape(key, quote=True)}="{escape(value, quote=True)}"'
    return out


def _title(tooltip: str | None) -> str:
    return f"<title>{svg_text(tooltip)}</title>" if tooltip else ""


def text_svg(
    text: Text,
    role: str | None = None,
    tooltip: str | None = None,
    data: Mapping[str, str] | None = None,
) -> str:
    """One :class:`Text` as an SVG ``<text>`` (its lines as ``<tspan>``);
    ``data`` adds ``data-<key>`` attributes."""
    n = len(text.lines)
    step = LEADING * text.size
    if text.valign == "top":
        first = text.y + _ASCENT * text.size
    elif text.valign == "bottom":
        first = text.y - _DESCENT * text.size - (n - 1) * step
    else:
        first = text.y + _MIDDLE * text.size - (n - 1) * step / 2
    weight = ' font-weight="bold"' if text.bold else ""
    fill = "" if text.color == INK else f' fill="{text.color}"'
    turn = ""
    if text.rotation:
        turn = f' transform="rotate({-text.rotation:g} {text.x:.2f} {text.y:.2f})"'
    if n == 1:
        body = svg_text(text.lines[0])
    else:
        body = "".join(
            f'<tspan x="{text.x:.2f}" y="{first + k * step:.2f}">'
            f"{svg_text(line)}</tspan>"
            for k, line in enumerate(text.lines)
        )
    title = _title(tooltip or text.tooltip)
    return (
        f'<text x="{text.x:.2f}" y="{first:.2f}" font-size="{text.size:g}" '
        f'text-anchor="{text.anchor}"{weight}{fill}{turn} '
        f"{_data(role or text.gid, data)}>{body}{title}</text>"
    )


def _stroke(stroke: Stroke, attributes: str) -> str:
    points = stroke.points
    if stroke.clip is not None:  # a horizontal band: cut to its x range
        lo, hi = stroke.clip
        points = tuple((min(max(x, lo), hi), y) for x, y in points)
    path = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
    dash = ""
    if stroke.dash:
        dash = f' stroke-dasharray="{",".join(f"{d:g}" for d in stroke.dash)}"'
    return (
        f'<polyline points="{path}" fill="none" stroke="{stroke.color}" '
        f'stroke-width="{stroke.width:g}" stroke-linecap="{_CAPS[stroke.cap]}"'
        f"{dash} {attributes}/>"
    )


def _rect(rect: Rect, attributes: str) -> str:
    edge = ""
    if rect.edge is not None and rect.edge_width > 0:
        edge = f' stroke="{rect.edge}" stroke-width="{rect.edge_width:g}"'
    body = (
        f'x="{rect.x:.2f}" y="{rect.y:.2f}" width="{rect.width:.2f}" '
        f'height="{rect.height:.2f}" fill="{rect.fill}"{edge} {attributes}'
    )
    if rect.tooltip:
        return f"<rect {body}>{_title(rect.tooltip)}</rect>"
    return f"<rect {body}/>"


def item_svg(
    item: Item, role: str | None = None, data: Mapping[str, str] | None = None
) -> str:
    """One item of a picture as an SVG element; ``role`` its ``data-role``
    (default: the item's ``gid``), ``data`` more ``data-<key>`` attributes
    (all escaped here)."""
    if not isinstance(item, (Text, Stroke, Rect, Dot, Area)):
        raise TypeError(f"a picture cannot hold {type(item).__name__} items.")
    role = role or item.gid
    if isinstance(item, Text):
        return text_svg(item, role, data=data)
    attributes = _data(role, data)
    if isinstance(item, Stroke):
        return _stroke(item, attributes)
    if isinstance(item, Rect):
        return _rect(item, attributes)
    if isinstance(item, Dot):
        return (
            f'<circle cx="{item.x:.2f}" cy="{item.y:.2f}" r="{item.size / 2:g}" '
            f'fill="{item.color}" {attributes}/>'
        )
    path = " ".join(f"{x:.2f},{y:.2f}" for x, y in item.points)  # an Area
    opacity = "" if item.opacity >= 1 else f' fill-opacity="{item.opacity:g}"'
    return f'<polygon points="{path}" fill="{item.fill}"{opacity} {attributes}/>'


def picture_svg(
    picture: Picture,
    *,
    font_family: str = FONT_FAMILY,
    role: Callable[[str], str] | None = None,
    data: Callable[[str], Mapping[str, str] | None] | None = None,
) -> str:
    """The SVG of ``picture``: a white page of its size, its items in order.

    ``font_family`` names the font the picture was measured in; ``role``
    maps an item's ``gid`` to its ``data-role`` (default: the gid itself),
    ``data`` to more ``data-<key>`` attributes (values escaped here: gids and
    data may hold users' algorithm names).
    Invisible strokes are left out.

    Examples
    --------
    >>> from nbstats.plots.figure_model import Picture, Stroke
    >>> line = Stroke(((0.0, 5.0), (30.0, 5.0)), 1.0, "axis", dash=(3.0, 1.5))
    >>> svg = picture_svg(Picture(30.0, 10.0, (line,), "an axis"))
    >>> 'stroke-dasharray="3,1.5"' in svg and 'data-role="axis"' in svg
    True
    """
    body = [
        item_svg(
            item, role(item.gid) if role else None, data(item.gid) if data else None
        )
        for item in picture.items
        if not (isinstance(item, Stroke) and not item.visible)
    ]
    width, height = picture.width, picture.height
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}pt" '
        f'height="{height:.0f}pt" viewBox="0 0 {width:.2f} {height:.2f}" '
        f'font-family="{escape(font_family)}" fill="{INK}" role="img">'
        f"<title>{svg_text(picture.alt)}</title>"
        f'<rect width="{width:.2f}" height="{height:.2f}" fill="#ffffff"/>'
    )
    return head + "".join(body) + "</svg>"
