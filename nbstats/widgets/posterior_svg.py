"""The Bayesian dashboard's posterior plot, written as SVG without matplotlib.

:func:`signrank_svg` draws what :func:`nbstats.plots.posterior.signrank_picture`
computed (the picture :func:`nbstats.plots.signrank_posterior` draws with
matplotlib): the density curve(s) of θ, the shaded area beyond ½, the ½ line,
the credible interval, a legend with the probabilities, axis labels, ticks and
a title, in the paper style's fonts and colours (:mod:`nbstats.plots.style`).
Here the layout is fixed: the axes never move between redraws, and the
legend sits below the x label in two columns (it hides no curve and does not
jump while a slider moves). Text widths are DejaVu Sans's advances read from
the font file (:func:`text_width`), used only to lay out the legend and the
y label, and to shrink a line too long for the figure.

Every text is escaped (algorithm names may hold ``<&>"'``), the SVG carries a
``<title>`` and a ``<desc>`` for screen readers, and it uses no ``id``, so
several plots can share a page.
"""

from __future__ import annotations

import math
import re
from html import escape
from typing import Any

import numpy as np

from nbstats.plots.figure_model import nice_ticks
from nbstats.plots.labels import advance_width
from nbstats.plots.style import INK, MUTED, PAPER_RC, SHADE

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

    ``alt`` becomes the SVG's ``<title>`` (its accessible name); the
    ``<desc>`` repeats the title and legend texts.
    """
    x_low, x_high = picture.xlim
    densities = [c.xy for c in picture.curves if c.xy is not None]
    top = max((float(np.max(xy[1])) for xy in densities), default=0.0)
    y_top = 1.05 * top if top > 0 else 1.0
    sx = (RIGHT - LEFT) / (x_high - x_low)
    sy = (BOTTOM - TOP) / y_top

    def px(x):
        return LEFT + (np.asarray(x, dtype=float) - x_low) * sx

    def py(y):
        return BOTTOM - np.asarray(y, dtype=float) * sy

    limit = int(MAX_POINTS_PER_PT * (RIGHT - LEFT))
    out = [f'<g font-family="{FONT}" fill="{INK}" stroke-linejoin="round">']

    # shaded area beyond ½ (under the first curve), then the ½ line
    if picture.shade[0].size > 1:
        xs, ys = _thin(*_inside(*picture.shade, x_low, x_high), limit)
        if xs.size > 1:
            shade_px = (px(xs), py(ys))
            base = f"{BOTTOM:.2f}"
            out.append(
                f'<path d="M{shade_px[0][0]:.2f},{base} '
                f'{_points(*shade_px)} {shade_px[0][-1]:.2f},{base}Z" '
                f'fill="{SHADE}" stroke="none"/>'
            )
    if x_low <= 0.5 <= x_high:
        half = float(px(0.5))
        out.append(_line(half, TOP, half, BOTTOM, MUTED, 0.8, _dash(":", 0.8)))

    # the curves, or a stem with an arrow head for all mass at one θ
    for curve in picture.curves:
        dash = _dash(curve.linestyle)
        if curve.xy is not None:
            xs, ys = _thin(*_inside(*curve.xy, x_low, x_high), limit)
            out.append(
                f'<path d="M{_points(px(xs), py(ys))}" fill="none" '
                f'stroke="{curve.color}" stroke-width="1"{dash}/>'
            )
        else:
            at = float(px(curve.point))
            tip = BOTTOM - 0.88 * (BOTTOM - TOP)
            out.append(_line(at, BOTTOM, at, tip, curve.color, 1.4, dash))
            out.append(
                f'<path d="M{at - 2.9:.2f},{tip + 2.5:.2f} {at:.2f},{tip - 2.5:.2f} '
                f'{at + 2.9:.2f},{tip + 2.5:.2f}Z" fill="{curve.color}"/>'
            )

    # axes: left and bottom spines, ticks and their labels
    axes, label_y, y_labels_left = axes_svg(
        x_low, x_high, y_top if densities else None, px, x_ticks=picture.xticks
    )
    out.extend(axes)

    # the credible interval: a thick bar on the baseline, over the spine
    low, high = (float(v) for v in px(np.clip(picture.interval, x_low, x_high)))
    out.append(_line(low, BOTTOM, high, BOTTOM, INK, 3, ' stroke-linecap="butt"'))

    # axis labels and title
    xlabel_y = label_y + 0.24 * TICK_SIZE + 3.5 + ASCENT * LABEL_SIZE
    centre = (LEFT + RIGHT) / 2
    room = 2 * (WIDTH - 4 - centre)  # a line centred on the axes, in the figure
    out.append(
        f'<text x="{centre:.2f}" y="{xlabel_y:.2f}" text-anchor="middle" '
        f"{_fitted(picture.xlabel, LABEL_SIZE, room)}>"
        f"{_text(picture.xlabel)}</text>"
    )
    ylabel = "posterior density" if densities else "point mass (no density)"
    ylabel_x = y_labels_left - 4
    out.append(
        f'<text transform="translate({ylabel_x:.2f},{(TOP + BOTTOM) / 2:.2f}) '
        f'rotate(-90)" text-anchor="middle" font-size="{LABEL_SIZE:g}">'
        f"{ylabel}</text>"
    )
    title = picture.title.split("\n")
    for k, line in enumerate(title):
        y = TOP - TITLE_PAD - (len(title) - 1 - k) * LINE_STEP * TITLE_SIZE
        out.append(
            f'<text x="{centre:.2f}" y="{y:.2f}" text-anchor="middle" '
            f"{_fitted(line, TITLE_SIZE, room)}>{_text(line)}</text>"
        )

    legend, bottom = _legend(picture, xlabel_y + 0.24 * LABEL_SIZE + 8.0)
    out.extend(legend)
    out.append("</g></svg>")
    height = math.ceil(bottom + 0.3 * LEGEND_SIZE + 4.0)
    desc = "; ".join([*picture.title.split("\n"), *_legend_entries(picture, False)])
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{WIDTH:g}pt" height="{height:g}pt" '
        f'viewBox="0 0 {WIDTH:g} {height:g}" role="img">',
        f"<title>{_text(alt)}</title>",
        f"<desc>{_text(desc)}</desc>",
        f'<rect width="{WIDTH:g}" height="{height:g}" fill="#ffffff"/>',
    ]
    return "\n".join(head + out)


def _legend_entries(picture: Any, handles: bool):
    """Legend texts (and, with ``handles``, what their keys look like)."""
    entries = []
    for curve in picture.curves:
        label = curve.label
        if curve.xy is None:
            label = f"{label}: every draw at {curve.point:.3g}"
        entries.append((label, ("line", curve.color, curve.linestyle, 1.0)))
    entries.append((picture.shade_label, ("patch", SHADE, "-", 0.0)))
    entries.append((picture.interval_label, ("line", INK, "-", 3.0)))
    return entries if handles else [text for text, _ in entries]


def _legend(picture: Any, top: float) -> tuple[list[str], float]:
    """The legend below the axes, its first row at ``top``; and its bottom.

    Two entries a row (the curves' keys, then the probability and the
    interval) when they fit across the figure, else one.
    """
    entries = _legend_entries(picture, True)
    size = LEGEND_SIZE
    key = (HANDLE_LENGTH + HANDLE_PAD) * size
    widths = [key + text_width(text.replace(r"\$", "$"), size) for text, _ in entries]
    gap = 2.0 * size
    columns = 2
    column_widths = [max(widths[0::2]), max(widths[1::2])]
    total = sum(column_widths) + gap
    if total > WIDTH - 8:
        columns, column_widths, total = 1, [max(widths)], max(widths)
    # centred under the axes, but never past the figure's right edge
    x0 = max(4.0, min((LEFT + RIGHT - total) / 2, WIDTH - 4.0 - total))
    lefts = [x0, x0 + column_widths[0] + gap]
    out = [f'<g font-size="{size:g}">']
    for k, (text, (kind, color, linestyle, linewidth)) in enumerate(entries):
        row, column = divmod(k, columns)
        middle = top + row * ROW * size
        key_x = lefts[column]
        if kind == "patch":
            out.append(
                f'<rect x="{key_x:.2f}" y="{middle - 0.35 * size:.2f}" '
                f'width="{HANDLE_LENGTH * size:.2f}" height="{0.7 * size:.2f}" '
                f'fill="{color}"/>'
            )
        else:
            end = key_x + HANDLE_LENGTH * size
            dash = _dash(linestyle) + ' stroke-linecap="butt"'
            out.append(_line(key_x, middle, end, middle, color, linewidth, dash))
        # room to the next column or the figure's edge: squeeze what the
        # width table underestimates rather than cut it off
        right = lefts[column + 1] - gap if column + 1 < columns else WIDTH - 4.0
        fit = _fitted(text.replace(r"\$", "$"), size, right - key_x - key)
        fit = "" if fit == f'font-size="{size:g}"' else f" {fit}"
        out.append(
            f'<text x="{key_x + key:.2f}" y="{middle + 0.36 * size:.2f}"{fit}>'
            f"{_text(text)}</text>"
        )
    out.append("</g>")
    rows = -(-len(entries) // columns)
    return out, top + (rows - 1) * ROW * size + 0.6 * size
