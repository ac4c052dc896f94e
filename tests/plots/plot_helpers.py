"""Helpers of the plot tests: find artists by gid; names that break mathtext;
a figure-model picture read back from both renderers."""

from __future__ import annotations

#: Names with characters mathtext and LaTeX would eat: they must show as written.
NASTY = ("a_b & $x$", "50% Ωmega")


def by_gid(ax, gid, kind=None):
    found = [a for a in ax.get_children() if a.get_gid() == gid]
    if kind is not None:
        found = [a for a in found if isinstance(a, kind)]
    assert len(found) == 1, (gid, found)
    return found[0]


def gids(ax) -> set[str]:
    return {a.get_gid() for a in ax.get_children() if a.get_gid()}


def has_region_samples(result) -> bool:
    return getattr(result, "region_samples", None) is not None


def _fit(pairs):
    """(value, position) pairs → (offset, scale) of position = offset + scale·value."""
    import numpy as np

    values, positions = np.array(pairs, dtype=float).T
    scale, offset = np.polyfit(values, positions, 1)
    assert np.allclose(offset + scale * values, positions, atol=0.01), pairs
    return offset, scale


def _number(text: str) -> float:
    return float(text.replace("\u2212", "-"))


def picture_axes(ax):
    """A picture's data axes read from what it draws: each tick mark's
    position paired with its label's number. Returns functions mapping
    points (x right, y down) back to data x and y."""
    lines = {a.get_gid(): a for a in ax.lines if a.get_gid()}
    texts = {t.get_gid(): t.get_text() for t in ax.texts if t.get_gid()}
    fits = []
    for axis, coord in (("x", 0), ("y", 1)):
        pairs = []
        k = 0
        while f"{axis}tick-{k}" in lines:
            mark = lines[f"{axis}tick-{k}"].get_xydata()[0][coord]
            pairs.append((_number(texts[f"{axis}tick-label-{k}"]), mark))
            k += 1
        fits.append(_fit(pairs) if len(pairs) >= 2 else None)
    (x0, xs), y_fit = fits[0], fits[1]

    def to_x(p):
        import numpy as np

        return (np.asarray(p, dtype=float) - x0) / xs

    def to_y(p):
        import numpy as np

        y0, ys = y_fit
        return (np.asarray(p, dtype=float) - y0) / ys

    return to_x, to_y


def text_of(ax, gid: str) -> str:
    """The text (lines joined by spaces) of the picture text ``gid`` (drawn
    as one artist, or one a line)."""
    lines = [t.get_text() for t in ax.texts if t.get_gid() == gid]
    assert lines, gid
    return " ".join("\n".join(lines).split("\n"))


# -- the figure model's two renderers ---------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def drawn_items(ax):
    """gid → (kind, coordinates) of what draw_picture drew."""
    import numpy as np
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon, Rectangle
    from matplotlib.text import Text as MplText

    found = {}
    for artist in ax.get_children():
        gid = artist.get_gid()
        if not gid:
            continue
        if isinstance(artist, Line2D):
            found[gid] = np.asarray(artist.get_xydata(), dtype=float)
        elif isinstance(artist, Polygon):
            found[gid] = np.asarray(artist.get_xy(), dtype=float)[:-1]  # closed
        elif isinstance(artist, Rectangle):
            found[gid] = np.array([[artist.get_x(), artist.get_y()]])
        elif isinstance(artist, MplText):  # one artist a line: the lines joined
            lines = found[gid][1].split("\n") if gid in found else []
            text = "\n".join([*lines, artist.get_text()])
            found[gid] = (np.array([artist.get_position()]), text)
    return found


def written_items(svg):
    import xml.etree.ElementTree as ET

    import numpy as np

    root = ET.fromstring(svg)
    found = {}
    for element in root.iter():
        gid = element.get("data-role")
        if not gid:
            continue
        tag = element.tag.removeprefix(SVG)
        if tag in ("polyline", "polygon"):
            numbers = element.get("points").replace(",", " ").split()
            found[gid] = np.array(numbers, dtype=float).reshape(-1, 2)
        elif tag == "rect":
            found[gid] = np.array([[float(element.get("x")), float(element.get("y"))]])
        elif tag == "circle":
            found[gid] = np.array(
                [[float(element.get("cx")), float(element.get("cy"))]]
            )
        elif tag == "text":
            spans = element.findall(f"{SVG}tspan")
            lines = [s.text for s in spans] if spans else [element.text]
            found[gid] = (np.array([[float(element.get("x"))]]), "\n".join(lines))
    return found


def assert_renderers_agree(pic) -> None:
    """Every item of ``pic``, at its coordinates, in both renderers."""
    import numpy as np
    import pytest

    from nbstats.plots.figure_model import Area, Dot, Rect, Stroke, Text
    from nbstats.plots.picture_mpl import draw_picture
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.style import paper_style

    with paper_style():
        drawn = drawn_items(draw_picture(pic))
    written = written_items(picture_svg(pic))
    for item in pic.items:
        if isinstance(item, Stroke) and not item.visible:
            continue
        if isinstance(item, Text):
            (xy, text) = drawn[item.gid]
            np.testing.assert_allclose(xy, [[item.x, item.y]], atol=1e-9)
            assert text == "\n".join(item.lines)
            (x, svg_text) = written[item.gid]
            assert x[0, 0] == pytest.approx(item.x, abs=0.006)
            assert svg_text == "\n".join(item.lines).replace("\\$", "$")
            continue
        if isinstance(item, (Stroke, Area)):
            expected = np.array(item.points, dtype=float)
        elif isinstance(item, (Rect, Dot)):
            expected = np.array([[item.x, item.y]])
        np.testing.assert_allclose(drawn[item.gid], expected, atol=1e-9)
        np.testing.assert_allclose(written[item.gid], expected, atol=0.006)
