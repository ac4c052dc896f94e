"""The Bayesian dashboard's posterior plot as SVG.

:func:`signrank_svg` writes the picture of
:func:`nbstats.plots.posterior.signrank_layout` -- the geometry
:func:`nbstats.plots.signrank_posterior` draws with matplotlib -- through
the figure model's SVG renderer (:func:`nbstats.plots.picture_svg.picture_svg`),
laid out at the dashboard's width in its style
(:data:`nbstats.plots.chart_layout.DASHBOARD`: the axes stay in place
between redraws, the legend below them). The hand-written helpers below it
(:func:`axes_svg`, the geometry constants) serve the fold dashboard's
pictures (:mod:`nbstats.widgets.folds_svg`); :func:`text_width` is DejaVu
Sans's advances read from the font file.
"""

from __future__ import annotations

import math
import re
from html import escape
from typing import Any

import numpy as np

from nbstats.plots.figure_model import nice_ticks
from nbstats.plots.labels import advance_width
from nbstats.plots.style import INK, PAPER_RC

__all__ = ["axes_svg", "nice_ticks", "signrank_svg", "text_width"]

#: Figure size and axes box in points (1 user unit = 1 pt), as the matplotlib
#: figure of 5.2 × 3.4 in with subplots_adjust(0.11, 0.15, 0.97, 0.84).
#: The legend goes below (the SVG is as tall as it needs).
WIDTH, HEIGHT = 374.4, 244.8
LEFT, RIGHT = 0.11 * WIDTH, 0.97 * WIDTH
TOP, BOTTOM = (1 - 0.84) * HEIGHT, (1 - 0.15) * HEIGHT
#: Font sizes of the paper style (pt).
TITLE_SIZE, LABEL_SIZE, TICK_SIZE, LEGEND_SIZE = 8.0, 8.0, 7.0, 7.0
FONT = ", ".join(PAPER_RC["font.sans-serif"])
TICK_LENGTH, TICK_PAD, TITLE_PAD = 3.5, 3.5, 6.0
LINE_STEP = 1.22  # line spacing of multi-line titles, in font sizes
ASCENT = 0.76  # DejaVu Sans digits and capitals, in font sizes
#: Legend geometry in font sizes (matplotlib's legend defaults).
HANDLE_LENGTH, HANDLE_PAD, ROW, BORDER = 1.6, 0.8, 1.5, 0.4
#: Curve points kept per point of axes width (a finer grid is thinned).
MAX_POINTS_PER_PT = 4
#: matplotlib's dash patterns at a line width of 1.
DASHES = {"-": None, "--": "3.7,1.6", ":": "1,1.65", "-.": "6.4,1.6,1,1.6"}

#: The font the pictures name first, the one their texts are measured in.
_FAMILY = tuple(PAPER_RC["font.sans-serif"])
#: Characters XML 1.0 forbids (C0 controls but tab and newline, surrogates, …).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def text_width(text: str, size: float) -> float:
    """Width of ``text`` at ``size`` pt in DejaVu Sans: its characters'
    advances read from the font with FreeType
    (:func:`nbstats.plots.labels.advance_width`, the figures' one measure).

    Examples
    --------
    >>> round(text_width("1", 10), 2)
    6.36
    """
    return advance_width(text, size, family=_FAMILY)


def _text(text: str) -> str:
    """A picture's text (written for matplotlib) as SVG character data."""
    # the picture escapes "$" for matplotlib (nbstats.plots.style.literal)
    return escape(_NOT_XML.sub("\ufffd", text.replace(r"\$", "$")), quote=True)


def _inside(x: np.ndarray, y: np.ndarray, low: float, high: float):
    """The part of a curve with low ≤ x ≤ high, cut exactly at the limits."""
    i = int(np.searchsorted(x, low, side="left"))
    j = int(np.searchsorted(x, high, side="right"))
    xs, ys = x[i:j], y[i:j]
    if i > 0 and (xs.size == 0 or xs[0] > low):
        xs = np.r_[low, xs]
        ys = np.r_[np.interp(low, x, y), ys]
    if j < x.size and (xs.size == 0 or xs[-1] < high):
        xs = np.r_[xs, high]
        ys = np.r_[ys, np.interp(high, x, y)]
    return xs, ys


def _thin(x: np.ndarray, y: np.ndarray, limit: int):
    """At most about ``limit`` points: every k-th, the ends and the peak kept."""
    if x.size <= limit:
        return x, y
    keep = np.zeros(x.size, dtype=bool)
    keep[:: math.ceil(x.size / limit)] = True
    keep[[0, -1, int(np.argmax(y))]] = True
    return x[keep], y[keep]


def _points(px: np.ndarray, py: np.ndarray) -> str:
    """SVG path coordinates ``x,y x,y …`` with two decimals."""
    pairs = np.empty(2 * px.size)
    pairs[0::2], pairs[1::2] = px, py
    return ("%.2f,%.2f " * px.size % tuple(pairs.tolist())).rstrip()


def _line(x1, y1, x2, y2, color: str, width: float, extra: str = "") -> str:
    return (
        f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" '
        f'stroke="{color}" stroke-width="{width:g}"{extra}/>'
    )


def _dash(linestyle: str, width: float = 1.0) -> str:
    pattern = DASHES.get(linestyle)
    if pattern is None:
        return ""
    scaled = ",".join(f"{width * float(v):g}" for v in pattern.split(","))
    return f' stroke-dasharray="{scaled}"'


def _fitted(text: str, size: float, room: float) -> str:
    """Font size (and squeeze, if still too long) for one line in ``room`` pt."""
    width = text_width(text, size)
    if width <= room:
        return f'font-size="{size:g}"'
    smaller = max(0.75 * size, size * room / width)
    attrs = f'font-size="{smaller:.2f}"'
    if text_width(text, smaller) > room:
        attrs += f' textLength="{room:.1f}" lengthAdjust="spacingAndGlyphs"'
    return attrs


def axes_svg(
    low: float,
    high: float,
    y_top: float | None,
    px: Any,
    *,
    x_bins: int = 9,
    y_bins: int = 9,
    x_ticks: tuple[np.ndarray, int] | None = None,
) -> tuple[list[str], float, float]:
    """The axes' frame, ticks and tick labels of a picture: x over
    [``low``, ``high``] placed by ``px``, y over [0, ``y_top``] (none when
    ``y_top`` is None); with the baseline of the x tick labels and the left
    edge of the y tick labels."""
    out: list[str] = []
    out.append(
        f'<path d="M{LEFT:.2f},{TOP:.2f} {LEFT:.2f},{BOTTOM:.2f} '
        f'{RIGHT:.2f},{BOTTOM:.2f}" fill="none" stroke="{INK}" '
        'stroke-width="0.6" stroke-linecap="square"/>'
    )
    marks, texts = [], []
    label_y = BOTTOM + TICK_LENGTH + TICK_PAD + ASCENT * TICK_SIZE
    given = x_ticks is not None and len(x_ticks[0]) > 0
    ticks, digits = x_ticks if given else nice_ticks(low, high, nbins=x_bins)
    for tick in ticks:
        tx = float(px(tick))
        marks.append(f"M{tx:.2f},{BOTTOM:.2f}v{TICK_LENGTH:g}")
        texts.append(f'<text x="{tx:.2f}" y="{label_y:.2f}">{tick:.{digits}f}</text>')
    y_labels_left = LEFT - TICK_LENGTH - TICK_PAD
    if y_top is not None:
        ticks, digits = nice_ticks(0.0, y_top, nbins=y_bins)
        right = LEFT - TICK_LENGTH - TICK_PAD
        for tick in ticks:
            ty = float(BOTTOM - tick * (BOTTOM - TOP) / y_top)
            text = f"{tick:.{digits}f}"
            y_labels_left = min(y_labels_left, right - text_width(text, TICK_SIZE))
            marks.append(f"M{LEFT:.2f},{ty:.2f}h{-TICK_LENGTH:g}")
            texts.append(
                f'<text x="{right:.2f}" y="{ty + ASCENT * TICK_SIZE / 2:.2f}" '
                f'text-anchor="end">{text}</text>'
            )
    out.append(
        f'<path d="{"".join(marks)}" stroke="{INK}" stroke-width="0.6" fill="none"/>'
    )
    out.append(f'<g font-size="{TICK_SIZE:g}" text-anchor="middle">')
    out.extend(texts)
    out.append("</g>")
    return out, label_y, y_labels_left


def signrank_svg(picture: Any, alt: str) -> str:
    """SVG of a :func:`~nbstats.plots.posterior.signrank_picture`.

    The geometry is the paper figure's
    (:func:`~nbstats.plots.posterior.signrank_layout`), laid out in DejaVu
    Sans at the dashboard's width and style
    (:data:`~nbstats.plots.chart_layout.DASHBOARD`: the axes stay in place
    between redraws, the legend below them), written by
    :func:`~nbstats.plots.picture_svg.picture_svg`. ``alt`` becomes the
    SVG's ``<title>`` (its accessible name).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.posterior import signrank_picture
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    >>> svg = signrank_svg(signrank_picture(res, None, True), "nbc vs j48")
    >>> 'data-role="posterior-lower"' in svg and "upper 0.814" in svg
    True
    """
    from nbstats.plots.chart_layout import DASHBOARD
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.posterior import signrank_layout
    from nbstats.plots.style import paper_style

    with paper_style():
        geometry = signrank_layout(picture, WIDTH, style=DASHBOARD, alt=alt)
    return picture_svg(geometry.picture)
