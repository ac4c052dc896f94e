"""The fold dashboard's pictures, written as SVG without matplotlib.

:func:`student_svg` draws the posterior of the Bayesian correlated t-test
(:func:`nbstats.bayes_correlated_ttest`): Student's t with the result's
degrees of freedom, location and scale, the rope shaded, the areas beyond it
in the colours of "a better" and "b better" and the three probabilities in
the legend — the picture :func:`nbstats.plots.correlated_posterior` draws
with matplotlib, in about a millisecond instead of tens. :func:`regions_svg`
draws every data set's three probabilities as one stacked bar (the "all data
sets" view). The geometry, fonts and text helpers are those of
:mod:`nbstats.widgets.posterior_svg`; every text is escaped and no ``id`` is
used, so several pictures can share a page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from nbstats import _scipy_stats as sps
from nbstats.plots.style import ACCENT, INK, MUTED, SECOND, SHADE
from nbstats.results.number_policy import format_number, format_relation
from nbstats.widgets.posterior_svg import (
    ASCENT,
    BOTTOM,
    FONT,
    LABEL_SIZE,
    LEFT,
    LEGEND_SIZE,
    MAX_POINTS_PER_PT,
    RIGHT,
    TICK_LENGTH,
    TICK_PAD,
    TICK_SIZE,
    TITLE_PAD,
    TITLE_SIZE,
    TOP,
    WIDTH,
    _dash,
    _fitted,
    _line,
    _points,
    _text,
    axes_svg,
    text_width,
)

__all__ = ["format_probability", "regions_svg", "student_svg"]

#: Points of the density curve (thinned to the axes' resolution).
GRID = 801
#: Opacity of the shaded areas (as :func:`nbstats.plots.correlated_posterior`).
LEFT_ALPHA, RIGHT_ALPHA, ROPE_ALPHA = 0.45, 0.3, 0.35


def format_probability(p: float | None) -> str:
    """As the report prints a probability (the number policy: three decimals,
    never a false 0 or 1); "–" for a missing probability.

    Examples
    --------
    >>> format_probability(0.8154), format_probability(0.99991)
    ('0.815', '> 0.999')
    >>> format_probability(1.0), format_probability(None)
    ('> 0.999', '–')
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return format_number(float(p), "probability")


def probability_relation(p: float) -> str:
    """``= 0.815``, or the bound alone (``> 0.999``): "P(a better) > 0.999",
    never "= 1" (the number policy's
    :func:`~nbstats.results.number_policy.format_relation`)."""
    return format_relation(float(p), "probability")


def _svg_head(width: float, height: float, alt: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{width:g}pt" height="{height:g}pt" '
        f'viewBox="0 0 {width:g} {height:g}" role="img">',
        f"<title>{_text(alt)}</title>",
        f"<desc>{_text(desc)}</desc>",
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>',
    ]


def _area(xs: np.ndarray, ys: np.ndarray, px: Any, py: Any, color: str, alpha: float):
    """A filled area under (xs, ys) down to the x axis."""
    if xs.size < 2:
        return ""
    base = f"{BOTTOM:.2f}"
    x0, x1 = float(px(xs[0])), float(px(xs[-1]))
    return (
        f'<path d="M{x0:.2f},{base} {_points(px(xs), py(ys))} {x1:.2f},{base}Z" '
        f'fill="{color}" fill-opacity="{alpha:g}" stroke="none"/>'
    )


def _cut(x: np.ndarray, y: np.ndarray, low: float, high: float):
    """The curve on [low, high], with exact end points."""
    keep = (x > low) & (x < high)
    xs = np.r_[low, x[keep], high]
    ys = np.r_[np.interp(low, x, y), y[keep], np.interp(high, x, y)]
    return xs, ys


def _entries(
    result: Any, labels: tuple[str, str]
) -> list[tuple[str, tuple[str, str, float]]]:
    """The legend of :func:`student_svg`: the curve, then each region's
    probability with its colour."""
    name_a, name_b = labels
    rope, mean = float(result.rope), float(result.mean)
    scale, df = float(result.scale), int(result.df)
    curve = (
        f"Student t({df}), mean {mean:.3g}, scale {scale:.3g}"
        if scale > 0
        else f"every difference equals {mean:.3g}: all mass there"
    )
    entries = [
        (curve, ("line", ACCENT, 1.0)),
        (
            f"P({name_a} better) {probability_relation(result.prob_left)}",
            ("patch", SECOND, LEFT_ALPHA),
        ),
        (
            f"P({name_b} better) {probability_relation(result.prob_right)}",
            ("patch", ACCENT, RIGHT_ALPHA),
        ),
    ]
    if rope > 0:
        entries.append(
            (
                f"P(rope ±{rope:g}) {probability_relation(result.prob_rope)}",
                ("patch", SHADE, 1.0),
            )
        )
    return entries


def student_svg(result: Any, *, labels: tuple[str, str], title: str) -> str:
    """The Student posterior of a Bayesian correlated t-test, as SVG.

    Parameters
    ----------
    result : BayesCorrelatedTTestResult or alike
        Needs ``mean``, ``scale``, ``df``, ``rope``, ``prob_left``,
        ``prob_rope``, ``prob_right``.
    labels : (str, str)
        Display names of a and b.
    title : str
        The title line (e.g. "nbc vs aode on anneal").

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.bayes_correlated_ttest(
    ...     [0.80, 0.82, 0.79, 0.81, 0.80], [0.82, 0.83, 0.80, 0.84, 0.80],
    ...     rope=0.005, folds=5)
    >>> svg = student_svg(res, labels=("a", "b"), title="a vs b")
    >>> svg.startswith("<svg") and "P(rope ±0.005) = " in svg
    True
    """
    name_a, name_b = labels
    rope, mean = float(result.rope), float(result.mean)
    scale, df = float(result.scale), int(result.df)
    if scale > 0:
        low, high = sps.t.ppf([0.0005, 0.9995], df, loc=mean, scale=scale)
        low, high = min(float(low), -1.3 * rope), max(float(high), 1.3 * rope)
    else:
        span = max(abs(mean), rope, 1e-12) * 1.5
        low, high = -span, span
    sx = (RIGHT - LEFT) / (high - low)

    def px(x: Any) -> Any:
        return LEFT + (np.asarray(x, dtype=float) - low) * sx

    out = [f'<g font-family="{FONT}" fill="{INK}" stroke-linejoin="round">']
    if rope > 0:
        x0, x1 = float(px(-rope)), float(px(rope))
        out.append(
            f'<rect x="{x0:.2f}" y="{TOP:.2f}" width="{x1 - x0:.2f}" '
            f'height="{BOTTOM - TOP:.2f}" fill="{SHADE}" '
            f'fill-opacity="{ROPE_ALPHA:g}"/>'
        )
    y_top = 1.0
    if scale > 0:
        x = np.linspace(low, high, GRID)
        y = sps.t.pdf(x, df, loc=mean, scale=scale)
        y_top = 1.05 * float(np.max(y))
        sy = (BOTTOM - TOP) / y_top

        def py(v: Any) -> Any:
            return BOTTOM - np.asarray(v, dtype=float) * sy

        limit = int(MAX_POINTS_PER_PT * (RIGHT - LEFT))
        step = max(1, math.ceil(GRID / limit))
        xs, ys = x[::step], y[::step]
        if -rope > low:
            out.append(_area(*_cut(x, y, low, -rope), px, py, SECOND, LEFT_ALPHA))
        if rope < high:
            out.append(_area(*_cut(x, y, rope, high), px, py, ACCENT, RIGHT_ALPHA))
        out.append(
            f'<path d="M{_points(px(xs), py(ys))}" fill="none" '
            f'stroke="{ACCENT}" stroke-width="1"/>'
        )
    else:  # every difference equal: all the mass at one point
        at = float(px(mean))
        tip = BOTTOM - 0.88 * (BOTTOM - TOP)
        out.append(_line(at, BOTTOM, at, tip, ACCENT, 1.4))
        out.append(
            f'<path d="M{at - 2.9:.2f},{tip + 2.5:.2f} {at:.2f},{tip - 2.5:.2f} '
            f'{at + 2.9:.2f},{tip + 2.5:.2f}Z" fill="{ACCENT}"/>'
        )
    for edge in (-rope, rope) if rope > 0 else (0.0,):
        if low <= edge <= high:
            e = float(px(edge))
            out.append(_line(e, TOP, e, BOTTOM, MUTED, 0.8, _dash(":", 0.8)))

    axes, label_y, y_labels_left = axes_svg(
        low, high, y_top if scale > 0 else None, px, x_bins=7, y_bins=5
    )
    out.extend(axes)

    centre = (LEFT + RIGHT) / 2
    room = 2 * (WIDTH - 4 - centre)
    xlabel = f"μ: mean difference {name_b} − {name_a} (score units)"
    xlabel_y = label_y + 0.24 * TICK_SIZE + 3.5 + ASCENT * LABEL_SIZE
    out.append(
        f'<text x="{centre:.2f}" y="{xlabel_y:.2f}" text-anchor="middle" '
        f"{_fitted(xlabel, LABEL_SIZE, room)}>{_text(xlabel)}</text>"
    )
    ylabel = "posterior density" if scale > 0 else "point mass (no density)"
    out.append(
        f'<text transform="translate({y_labels_left - 4:.2f},'
        f'{(TOP + BOTTOM) / 2:.2f}) rotate(-90)" text-anchor="middle" '
        f'font-size="{LABEL_SIZE:g}">{ylabel}</text>'
    )
    out.append(
        f'<text x="{centre:.2f}" y="{TOP - TITLE_PAD:.2f}" text-anchor="middle" '
        f"{_fitted(title, TITLE_SIZE, room)}>{_text(title)}</text>"
    )
    entries = _entries(result, labels)
    legend, bottom = _legend(entries, xlabel_y + 0.24 * LABEL_SIZE + 8.0)
    out.extend(legend)
    out.append("</g></svg>")
    height = math.ceil(bottom + 0.3 * LEGEND_SIZE + 4.0)
    desc = "; ".join([title, *(text for text, _ in entries)])
    alt = f"posterior of the mean difference {name_b} − {name_a}"
    return "\n".join(_svg_head(WIDTH, height, alt, desc) + out)


def _legend(
    entries: list[tuple[str, tuple[str, str, float]]], top: float
) -> tuple[list[str], float]:
    """One entry a row, left-aligned under the axes; and the legend's bottom."""
    size = LEGEND_SIZE
    key = 2.4 * size
    x0 = LEFT
    room = WIDTH - 4.0 - x0 - key
    out = [f'<g font-size="{size:g}">']
    for k, (text, (kind, color, alpha)) in enumerate(entries):
        middle = top + k * 1.5 * size
        if kind == "patch":
            out.append(
                f'<rect x="{x0:.2f}" y="{middle - 0.35 * size:.2f}" '
                f'width="{1.6 * size:.2f}" height="{0.7 * size:.2f}" '
                f'fill="{color}" fill-opacity="{alpha:g}"/>'
            )
        else:
            out.append(_line(x0, middle, x0 + 1.6 * size, middle, color, alpha))
        fit = _fitted(text, size, room)
        fit = "" if fit == f'font-size="{size:g}"' else f" {fit}"
        out.append(
            f'<text x="{x0 + key:.2f}" y="{middle + 0.36 * size:.2f}"{fit}>'
            f"{_text(text)}</text>"
        )
    out.append("</g>")
    return out, top + (len(entries) - 1) * 1.5 * size + 0.6 * size


#: Geometry of the stacked bars (points).
BAR_ROW, BAR_HEIGHT, NAME_ROOM = 9.0, 7.0, 110.0


def regions_svg(
    cases: Sequence[str],
    left: np.ndarray,
    rope: np.ndarray | None,
    right: np.ndarray,
    *,
    labels: tuple[str, str],
    threshold: float,
    title: str,
) -> str:
    """Every data set's P(a better), P(rope), P(b better) as one stacked bar.

    The bars are sorted from "a better" to "b better"; dotted lines mark the
    threshold from either end. Long data set names are shortened (the full
    name is each bar's tooltip).

    Examples
    --------
    >>> import numpy as np
    >>> svg = regions_svg(["x", "y"], np.array([0.9, 0.1]), None,
    ...                   np.array([0.1, 0.9]), labels=("a", "b"),
    ...                   threshold=0.95, title="a vs b")
    >>> svg.count("<rect") > 4
    True
    """
    name_a, name_b = labels
    q = len(cases)
    middle = np.zeros(q) if rope is None else np.nan_to_num(np.asarray(rope))
    order = np.lexsort((np.arange(q), np.asarray(right) - np.asarray(left)))
    x0, x1 = NAME_ROOM + 8.0, WIDTH - 12.0
    top = 30.0
    out = [f'<g font-family="{FONT}" fill="{INK}">']
    out.append(
        f'<text x="{(x0 + x1) / 2:.2f}" y="{top - 18:.2f}" text-anchor="middle" '
        f"{_fitted(title, TITLE_SIZE, x1 - x0)}>{_text(title)}</text>"
    )
    out.append(f'<g font-size="{TICK_SIZE:g}">')
    for row, k in enumerate(order):
        y = top + row * BAR_ROW
        a, r, b = float(left[k]), float(middle[k]), float(right[k])
        name = str(cases[k])
        short = name
        while text_width(short, TICK_SIZE) > NAME_ROOM and len(short) > 2:
            short = short[:-2] + "…"
        tip = (
            f"{name}: P({name_a} better) {format_probability(a)}, "
            f"P(rope) {format_probability(r) if rope is not None else '–'}, "
            f"P({name_b} better) {format_probability(b)}"
        )
        out.append(f"<g><title>{_text(tip)}</title>")
        out.append(
            f'<text x="{x0 - 4:.2f}" y="{y + BAR_HEIGHT - 1:.2f}" '
            f'text-anchor="end">{_text(short)}</text>'
        )
        start = x0
        for share, color, alpha in (
            (a, SECOND, LEFT_ALPHA + 0.2),
            (r, SHADE, 1.0),
            (b, ACCENT, RIGHT_ALPHA + 0.2),
        ):
            width = max(0.0, share) * (x1 - x0)
            if width > 0:
                out.append(
                    f'<rect x="{start:.2f}" y="{y:.2f}" width="{width:.2f}" '
                    f'height="{BAR_HEIGHT:g}" fill="{color}" '
                    f'fill-opacity="{alpha:g}"/>'
                )
            start += width
        out.append("</g>")
    out.append("</g>")
    bottom = top + q * BAR_ROW
    for edge in (1 - threshold, threshold):
        e = x0 + edge * (x1 - x0)
        out.append(_line(e, top - 3, e, bottom, INK, 0.8, _dash(":", 0.8)))
    out.append(
        f'<path d="M{x0:.2f},{bottom + 1:.2f} {x1:.2f},{bottom + 1:.2f}" '
        f'stroke="{INK}" stroke-width="0.6"/>'
    )
    ticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    label_y = bottom + 1 + TICK_LENGTH + TICK_PAD + ASCENT * TICK_SIZE
    out.append(f'<g font-size="{TICK_SIZE:g}" text-anchor="middle">')
    for tick in ticks:
        tx = x0 + tick * (x1 - x0)
        out.append(_line(tx, bottom + 1, tx, bottom + 1 + TICK_LENGTH, INK, 0.6))
        out.append(f'<text x="{tx:.2f}" y="{label_y:.2f}">{tick:g}</text>')
    out.append("</g>")
    entries = [
        (f"P({name_a} better)", SECOND, LEFT_ALPHA + 0.2),
        ("P(rope)", SHADE, 1.0),
        (f"P({name_b} better)", ACCENT, RIGHT_ALPHA + 0.2),
        (f"threshold {threshold:.3g} (dotted)", None, 0.0),
    ]
    if rope is None:
        entries.pop(1)
    legend_y = label_y + 12.0
    size = LEGEND_SIZE
    room = (x1 - x0) / len(entries)
    out.append(f'<g font-size="{size:g}">')
    for k, (text, color, alpha) in enumerate(entries):
        kx = x0 + k * room
        if color is not None:
            out.append(
                f'<rect x="{kx:.2f}" y="{legend_y - 0.35 * size:.2f}" '
                f'width="{1.6 * size:.2f}" height="{0.7 * size:.2f}" '
                f'fill="{color}" fill-opacity="{alpha:g}"/>'
            )
            tx = kx + 2.2 * size
        else:
            tx = kx
        fit = _fitted(text, size, room - (tx - kx) - 4)
        out.append(
            f'<text x="{tx:.2f}" y="{legend_y + 0.36 * size:.2f}" {fit}>'
            f"{_text(text)}</text>"
        )
    out.append("</g></g></svg>")
    height = math.ceil(legend_y + size + 6)
    alt = f"posterior probabilities of {name_a} vs {name_b} on each data set"
    return "\n".join(_svg_head(WIDTH, height, alt, title) + out)
