"""Posterior of the Bayesian correlated t-test: a Student density with its rope.

One geometry, two renderers: :func:`student_layout` lays the picture out
(:mod:`nbstats.plots.chart_layout`), :func:`correlated_posterior` draws it
with matplotlib for papers and the fold dashboard writes it as SVG
(:func:`nbstats.widgets.folds_svg.student_svg`). :func:`regions_layout`
is the dashboard's other picture: every data set's three probabilities as
one stacked bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from nbstats.plots._common import format_probability, probability_relation, quiet
from nbstats.plots.chart_layout import (
    DOTTED,
    MARGIN,
    PAPER,
    ChartStyle,
    Key,
    Layout,
    chart,
    legend_items,
    wrap_lines,
)
from nbstats.plots.chart_marks import curve_points, paper_points, point_mass, under
from nbstats.plots.figure_model import Area, Item, Picture, Rect, Stroke, Text
from nbstats.plots.labels import text_width
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SECOND,
    SHADE,
    figure_width,
    literal,
    paper_style,
)
from nbstats.util import scipy_stats as sps

__all__ = [
    "StudentLayout",
    "correlated_posterior",
    "regions_layout",
    "student_layout",
]

_NEEDS = ("mean", "scale", "df", "rope", "prob_left", "prob_right", "name_a", "name_b")
#: Points of the density curve (thinned to the box's resolution).
GRID = 801
#: Opacity of the shaded areas: "a better", "b better", the rope.
LEFT_ALPHA, RIGHT_ALPHA, ROPE_ALPHA = 0.45, 0.3, 0.35


#: A laid-out picture (:class:`~nbstats.plots.chart_layout.Layout`).
StudentLayout = Layout


def correlated_posterior(result: Any, *, ax: Any = None, width: str = "single") -> Any:
    """Posterior density of the mean difference μ = b − a (Corani & Benavoli 2015).

    Draws Student's t with ``result.df`` degrees of freedom, location
    ``result.mean`` and scale ``result.scale``; the areas left of −rope and
    right of +rope are shaded in the colours of "a better" and "b better",
    with their probabilities in the legend (and the rope's, when there is
    one). Takes any object with those attributes (e.g. the result of
    :func:`nbstats.bayes_correlated_ttest`).

    Parameters
    ----------
    result : BayesCorrelatedTTestResult or alike
    ax : matplotlib Axes, optional
        Where to draw (the picture is laid out at its size); a new figure of
        width ``width`` otherwise.
    width : {"single", "double"}

    Returns
    -------
    matplotlib.axes.Axes
        The picture of :func:`student_layout` (the fold dashboard's
        geometry too), drawn by
        :func:`~nbstats.plots.picture_mpl.draw_picture`: data coordinates
        are points, every artist carries its item's gid.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots import legend_texts
    >>> res = nbstats.bayes_correlated_ttest(
    ...     [0.80, 0.82, 0.79, 0.81, 0.80], [0.82, 0.83, 0.80, 0.84, 0.80],
    ...     rope=0.005, folds=5)
    >>> ax = correlated_posterior(res)
    >>> legend_texts(ax)[0]
    'Student t(4), mean 0.014, scale 0.00765'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    from nbstats.plots.picture_mpl import draw_picture

    missing = [name for name in _NEEDS if not hasattr(result, name)]
    if missing:
        raise TypeError(
            f"correlated_posterior draws a Bayesian correlated t-test (from "
            f"nbstats.bayes_correlated_ttest); {type(result).__name__} has no "
            f"{', '.join(missing)}."
        )
    labels = (str(result.name_a), str(result.name_b))
    title = f"{labels[0]} vs {labels[1]}: Bayesian correlated t-test"
    with paper_style():
        if ax is None:
            geometry = student_layout(
                result, labels, title, paper_points(figure_width(width))
            )
            ax = draw_picture(geometry.picture)
        else:
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            geometry = student_layout(
                result,
                labels,
                title,
                box.width * size[0],
                height=box.height * size[1],
            )
            draw_picture(geometry.picture, ax)
            ax.set_aspect("equal", adjustable="box")  # points stay square
    return quiet(ax)


def _cut(x: np.ndarray, y: np.ndarray, low: float, high: float):
    """The curve on [low, high], with exact end points."""
    keep = (x > low) & (x < high)
    xs = np.r_[low, x[keep], high]
    ys = np.r_[np.interp(low, x, y), y[keep], np.interp(high, x, y)]
    return xs, ys


def _view(result: Any) -> tuple[float, float]:
    """The x range: the density's central 99.9 % and the rope, with room."""
    rope, mean, scale = float(result.rope), float(result.mean), float(result.scale)
    if scale > 0:
        low, high = sps.t.ppf([0.0005, 0.9995], int(result.df), loc=mean, scale=scale)
        return min(float(low), -1.3 * rope), max(float(high), 1.3 * rope)
    span = max(abs(mean), rope, 1e-12) * 1.5
    return -span, span


def student_layout(
    result: Any,
    labels: tuple[str, str],
    title: str,
    width: float,
    *,
    style: ChartStyle = PAPER,
    height: float | None = None,
    alt: str = "",
) -> StudentLayout:
    """Lay out the Student posterior of a Bayesian correlated t-test,
    ``width`` points wide, in the font of the current
    :func:`~nbstats.plots.style.paper_style`.

    ``labels``: the display names of a and b; ``title``: the title line
    (empty: none); ``height``: the whole picture's (a given axes'). Items by
    gid: ``rope`` (the band), ``left`` and ``right`` (the areas beyond the
    rope), ``rope-edge-0``/``rope-edge-1`` (or ``zero`` without a rope),
    ``posterior`` (or ``posterior-point-mass`` and ``posterior-arrow``),
    then the frame's (:func:`~nbstats.plots.chart_layout.chart`).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.bayes_correlated_ttest(
    ...     [0.80, 0.82, 0.79, 0.81, 0.80], [0.82, 0.83, 0.80, 0.84, 0.80],
    ...     rope=0.005, folds=5)
    >>> with paper_style():
    ...     geometry = student_layout(res, ("a", "b"), "a vs b", 238.0)
    >>> geometry.legend[-1]
    'P(rope ±0.005) = 0.118'
    """
    name_a, name_b = (literal(name) for name in labels)
    rope, mean = float(result.rope), float(result.mean)
    scale, df = float(result.scale), int(result.df)
    low, high = _view(result)
    legend = [
        (
            f"Student t({df}), mean {mean:.3g}, scale {scale:.3g}"
            if scale > 0
            else f"every difference equals {mean:.3g}: all mass there",
            Key("line", ACCENT),
        ),
        (
            f"P({name_a} better) {probability_relation(result.prob_left)}",
            Key("patch", SECOND, opacity=LEFT_ALPHA),
        ),
        (
            f"P({name_b} better) {probability_relation(result.prob_right)}",
            Key("patch", ACCENT, opacity=RIGHT_ALPHA),
        ),
    ]
    if rope > 0:
        legend.append(
            (
                f"P(rope ±{rope:g}) {probability_relation(result.prob_rope)}",
                Key("patch", SHADE, opacity=ROPE_ALPHA),
            )
        )
    x = y = None
    if scale > 0:
        x = np.linspace(low, high, GRID)
        y = sps.t.pdf(x, df, loc=mean, scale=scale)
    frame_chart = chart(
        width,
        xlim=(low, high),
        ylim=(0.0, 1.05 * float(np.max(y))) if y is not None else None,
        xlabel=f"μ: mean difference {name_b} − {name_a} (score units)",
        ylabel="posterior density" if y is not None else "point mass (no density)",
        title=[title] if title else (),
        legend=legend,
        style=style,
        height=height,
        x_bins=7,
        y_bins=5,
    )
    frame = frame_chart.frame
    items: list[Item] = []
    if rope > 0:
        x0, x1 = (float(v) for v in frame.x([-rope, rope]))
        band = (
            (x0, frame.top),
            (x1, frame.top),
            (x1, frame.bottom),
            (x0, frame.bottom),
        )
        items.append(Area(band, "rope", fill=SHADE, opacity=ROPE_ALPHA))
    if x is not None and y is not None:
        if -rope > low:
            side = curve_points(*_cut(x, y, low, -rope), frame)
            items.append(Area(under(side, frame), "left", SECOND, LEFT_ALPHA))
        if rope < high:
            side = curve_points(*_cut(x, y, rope, high), frame)
            items.append(Area(under(side, frame), "right", ACCENT, RIGHT_ALPHA))
        items.append(Stroke(curve_points(x, y, frame), 1.0, "posterior", ACCENT))
    else:  # every difference equal: all the mass at one point
        items += point_mass(mean, frame, "posterior", ACCENT)
    edges = {"rope-edge-0": -rope, "rope-edge-1": rope} if rope > 0 else {"zero": 0.0}
    for gid, edge in edges.items():
        if low <= edge <= high:
            e = float(frame.x(edge))
            dash = tuple(0.8 * d for d in DOTTED)
            line = ((e, frame.top), (e, frame.bottom))
            items.append(Stroke(line, 0.8, gid, color=MUTED, dash=dash))
    items += frame_chart.axes
    items += frame_chart.texts
    picture = Picture(width, frame_chart.height, tuple(items), alt)
    return StudentLayout(picture, frame, frame_chart.legend)


def _over_white(color: str, alpha: float) -> str:
    """``color`` at opacity ``alpha`` over white, as an opaque colour."""
    rgb = [int(color[k : k + 2], 16) for k in (1, 3, 5)]
    mixed = [round(alpha * c + (1 - alpha) * 255) for c in rgb]
    return "#" + "".join(f"{c:02X}" for c in mixed)


#: Geometry of the stacked bars (points).
BAR_ROW, BAR_HEIGHT = 9.0, 7.0


def regions_layout(
    cases: Sequence[str],
    left: np.ndarray,
    rope: np.ndarray | None,
    right: np.ndarray,
    *,
    labels: tuple[str, str],
    threshold: float,
    title: str,
    width: float,
    size: float = 7.0,
    alt: str = "",
) -> StudentLayout:
    """Every data set's P(a better), P(rope), P(b better) as one stacked bar.

    The bars are sorted from "a better" to "b better"; dotted lines mark the
    threshold from either end. A name wider than a third of the picture is
    shortened (its row's tooltip holds it whole, with the three
    probabilities as the number policy prints them). Items by gid:
    ``title``, ``name-<row>``, ``bar-<row>-<left|rope|right>``,
    ``threshold-0``/``threshold-1``, ``axis``, ``xtick-<k>``,
    ``xtick-label-<k>`` and the legend's.

    Examples
    --------
    >>> import numpy as np
    >>> with paper_style():
    ...     geometry = regions_layout(
    ...         ["x", "y"], np.array([0.9, 0.1]), None, np.array([0.1, 0.9]),
    ...         labels=("a", "b"), threshold=0.95, title="a vs b", width=374.4)
    >>> [item.gid for item in geometry.picture.items_of("name-")]
    ['name-0', 'name-1']
    """
    name_a, name_b = (literal(name) for name in labels)
    q = len(cases)
    middle = np.zeros(q) if rope is None else np.nan_to_num(np.asarray(rope))
    order = np.lexsort((np.arange(q), np.asarray(right) - np.asarray(left)))
    shown = {}
    name_room = width / 3
    for k, case in enumerate(cases):
        short = literal(case)
        while text_width(short, size) > name_room and len(short) > 2:
            short = short[:-2] + "…"
        shown[k] = short
    widest = max((text_width(s, size) for s in shown.values()), default=0.0)
    x0, x1 = MARGIN + widest + 4.0, width - 12.0
    items: list[Item] = []
    title_size = 8.0
    title_lines = ()
    top = MARGIN + 3.0
    if title:
        title_lines = wrap_lines(literal(title), width - 2 * MARGIN, title_size)
        items.append(
            Text(width / 2, MARGIN, title_lines, title_size, "title", "middle", "top")
        )
        top = MARGIN + 1.2 * title_size * len(title_lines) + 8.0
    fills = {
        "left": _over_white(SECOND, LEFT_ALPHA + 0.2),
        "rope": SHADE,
        "right": _over_white(ACCENT, RIGHT_ALPHA + 0.2),
    }
    for row, k in enumerate(order):
        y = top + row * BAR_ROW
        shares = {"left": float(left[k]), "rope": float(middle[k])}
        shares["right"] = float(right[k])
        p = {part: format_probability(share) for part, share in shares.items()}
        if rope is None:
            p["rope"] = "–"
        tip = (
            f"{cases[k]}: P({labels[0]} better) {p['left']}, P(rope) {p['rope']}, "
            f"P({labels[1]} better) {p['right']}"
        )
        items.append(
            Text(
                x0 - 4.0,
                y + BAR_HEIGHT / 2,
                (shown[int(k)],),
                size,
                f"name-{row}",
                anchor="end",
                tooltip=tip,
            )
        )
        start = x0
        for part in ("left", "rope", "right"):
            extent = max(0.0, shares[part]) * (x1 - x0)
            if extent > 0:
                items.append(
                    Rect(
                        start,
                        y,
                        extent,
                        BAR_HEIGHT,
                        f"bar-{row}-{part}",
                        fill=fills[part],
                        tooltip=tip,
                    )
                )
            start += extent
    bottom = top + q * BAR_ROW
    dash = tuple(0.8 * d for d in DOTTED)
    for j, edge in enumerate((1 - threshold, threshold)):
        e = x0 + edge * (x1 - x0)
        line = ((e, top - 3.0), (e, bottom))
        items.append(Stroke(line, 0.8, f"threshold-{j}", color=INK, dash=dash))
    axis_y = bottom + 1.0
    items.append(Stroke(((x0, axis_y), (x1, axis_y)), 0.6, "axis"))
    for j, tick in enumerate((0.0, 0.25, 0.5, 0.75, 1.0)):
        tx = x0 + tick * (x1 - x0)
        items.append(Stroke(((tx, axis_y), (tx, axis_y + 3.5)), 0.6, f"xtick-{j}"))
        items.append(
            Text(
                tx,
                axis_y + 7.0,
                (f"{tick:g}",),
                size,
                f"xtick-label-{j}",
                anchor="middle",
                valign="top",
            )
        )
    entries = [
        (f"P({name_a} better)", Key("patch", fills["left"])),
        ("P(rope)", Key("patch", fills["rope"])),
        (f"P({name_b} better)", Key("patch", fills["right"])),
        (f"threshold {threshold:.3g} (dotted)", Key("line", INK, 0.8, dash)),
    ]
    if rope is None:
        entries.pop(1)
    legend, legend_bottom, texts = legend_items(
        entries, width, axis_y + 7.0 + 1.2 * size + 6.0, size, max_columns=4
    )
    items += legend
    picture = Picture(width, float(np.ceil(legend_bottom + MARGIN)), tuple(items), alt)
    return StudentLayout(picture, None, tuple(texts))
