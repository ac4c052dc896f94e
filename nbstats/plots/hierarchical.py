"""Pictures of the Bayesian hierarchical test: the simplex and the shrunk δ_i."""

from __future__ import annotations

from typing import Any

import numpy as np

from nbstats.plots._common import format_probability, quiet
from nbstats.plots.chart_marks import paper_points
from nbstats.plots.figure_model import Area
from nbstats.plots.simplex import draw_simplex, simplex_geometry, simplex_layout
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SHADE,
    figure_width,
    literal,
    paper_style,
    titles_shown,
)

__all__ = [
    "datasets_entries",
    "datasets_layout",
    "hierarchical_datasets",
    "hierarchical_simplex",
    "simplex_picture",
]


def _check(result: Any, needs: tuple[str, ...], plot: str) -> None:
    missing = [name for name in needs if not hasattr(result, name)]
    if missing:
        raise TypeError(
            f"{plot} draws a Bayesian hierarchical test (from "
            f"nbstats.bayes_hierarchical); {type(result).__name__} has no "
            f"{', '.join(missing)}."
        )


def hierarchical_simplex(result: Any, *, ax: Any = None, width: str = "single") -> Any:
    """The posterior draws of (left, rope, right) for the next data set.

    Each draw of (δ0, σ0, ν) gives the probabilities that the next data
    set's difference δ_new ~ Student-t(ν, δ0, σ0) lies left of −rope (a
    better), in the rope, or right of it (b better): a point of the triangle
    whose corners are the three regions, coloured by its most probable
    region, as baycomp's ``plot_simplex``. The legend gives the share of
    draws in each region (the result's ``prob_*``).

    Parameters
    ----------
    result : BayesHierarchicalResult
        With a rope (without one there is no middle corner).
    ax : matplotlib Axes, optional
    width : {"single", "double"}

    Returns
    -------
    matplotlib.axes.Axes
        The picture of :func:`simplex_picture` (the fold dashboard's
        geometry too): data coordinates are points, every artist carries its
        item's gid (each region's draws one scatter, ``simplex-<region>``).
        On a given ``ax`` the picture is laid out at that axes' size.
    """
    _check(
        result,
        (
            "region_samples",
            "prob_left",
            "prob_rope",
            "prob_right",
            "rope",
            "name_a",
            "name_b",
        ),
        "hierarchical_simplex",
    )
    if result.prob_rope is None:
        raise ValueError(
            "this hierarchical test has no rope (rope = 0): the draws have no "
            "middle region to place on a simplex. Rerun with rope > 0, or draw "
            "the data sets (kind='datasets')."
        )
    with paper_style():
        if ax is None:
            layout = simplex_picture(
                result, paper_points(figure_width(width)), titles=titles_shown()
            )
            ax = draw_simplex(layout)
        else:  # laid out at the size of the given axes
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            layout = simplex_picture(
                result,
                box.width * size[0],
                height=box.height * size[1],
                titles=titles_shown(),
            )
            draw_simplex(layout, ax)
            ax.set_aspect("equal", adjustable="box")  # points stay square
    return quiet(ax)


def simplex_picture(
    result: Any,
    width: float,
    *,
    labels: tuple[str, str] | None = None,
    style: Any = None,
    height: float | None = None,
    titles: bool = True,
    alt: str = "",
) -> Any:
    """The geometry of :func:`hierarchical_simplex` (the fold dashboard's
    simplex too), ``width`` points wide: a
    :class:`~nbstats.plots.simplex.SimplexLayout` whose legend gives each
    region's share of the draws as the number policy prints a probability.
    ``labels`` (a, b): display names (default: the result's).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> draws = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    >>> res = SimpleNamespace(region_samples=draws, prob_left=1 / 3,
    ...     prob_rope=1 / 3, prob_right=1.0, rope=0.01, name_a="nbc",
    ...     name_b="aode", datasets=[1, 2, 3])
    >>> with paper_style():
    ...     layout = simplex_picture(res, 238.0)
    >>> layout.legend
    ('nbc better: 0.333', 'rope ±0.01: 0.333', 'aode better: > 0.999')
    """
    name_a, name_b = labels or (str(result.name_a), str(result.name_b))
    rope_label = f"rope ±{result.rope:g}"
    a, b = literal(name_a), literal(name_b)
    legend = [
        f"{a} better: {format_probability(result.prob_left)}",
        f"{rope_label}: {format_probability(result.prob_rope)}",
        f"{b} better: {format_probability(result.prob_right)}",
    ]
    title = [
        f"{a} vs {b}: next data set",
        f"(hierarchical model, {len(result.datasets)} data sets)",
    ]
    geometry = simplex_geometry(result.region_samples, a, b, rope_label)
    return simplex_layout(
        geometry,
        legend,
        width,
        title=title if titles else (),
        style=style,
        height=height,
        alt=alt,
    )


def hierarchical_datasets(
    result: Any,
    *,
    ax: Any = None,
    width: str = "single",
    sort: bool = True,
    key: bool = True,
) -> Any:
    """Each data set's shrunk difference δ_i with its credible interval.

    Filled dots and bars: the posterior mean and interval of δ_i (b − a,
    score units) under the hierarchical model; open circles: the observed
    mean difference of the folds. The shaded band is the rope, the dashed
    line the posterior mean of δ0. Shrinkage pulls the data sets whose folds
    say little towards δ0.

    Parameters
    ----------
    result : BayesHierarchicalResult
    ax : matplotlib Axes, optional
        Where to draw (laid out at its size); a new figure otherwise.
    width : {"single", "double"}
    sort : bool
        Order the data sets by their posterior mean (else as given).
    key : bool
        Draw the key under the plot (a figure of several panels may show
        one key for all).

    Returns
    -------
    matplotlib.axes.Axes
        The picture of :func:`datasets_layout`, drawn by
        :func:`~nbstats.plots.picture_mpl.draw_picture` (data coordinates
        are points, every artist carries its item's gid).
    """
    from nbstats.plots.picture_mpl import draw_picture

    _check(
        result,
        ("datasets", "rope", "delta0", "level", "name_a", "name_b"),
        "hierarchical_datasets",
    )
    with paper_style():
        if ax is None:
            layout = datasets_layout(
                result,
                paper_points(figure_width(width)),
                sort=sort,
                titles=titles_shown(),
                key=key,
            )
            ax = draw_picture(layout.picture)
        else:
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            layout = datasets_layout(
                result,
                box.width * size[0],
                sort=sort,
                titles=titles_shown(),
                key=key,
            )
            draw_picture(layout.picture, ax)
            ax.set_aspect("equal", adjustable="box")  # points stay square
    return quiet(ax)


def datasets_entries(result: Any) -> list[tuple[str, Any]]:
    """The key of :func:`datasets_layout`: (text, how its key looks)."""
    from nbstats.plots.chart_layout import DASHED, Key

    entries = []
    rope = float(result.rope)
    if rope > 0:
        entries.append((f"rope ±{rope:g}", Key("patch", SHADE, opacity=0.5)))
    entries += [
        # δ0, δi as the report's table heads them: a subscript would print at
        # 70 % of 8 pt, below the 7 pt a venue's figure may print
        (
            f"δ0 = {result.delta0:.3g}",
            Key("line", INK, 0.8, tuple(0.8 * d for d in DASHED)),
        ),
        (f"δi: {result.level:.0%} interval", Key("line", ACCENT)),
        ("δi: posterior mean", Key("dot", ACCENT)),
        ("observed mean difference", Key("ring", MUTED, 0.7)),
    ]
    return entries


def datasets_layout(
    result: Any,
    width: float,
    *,
    sort: bool = True,
    style: Any = None,
    titles: bool = True,
    key: bool = True,
    alt: str = "",
) -> Any:
    """The geometry of :func:`hierarchical_datasets`, ``width`` points wide,
    in the font of the current :func:`~nbstats.plots.style.paper_style`:
    one row a data set (its name wrapped to two fifths of the width), the
    value axis below. Items by gid: ``rope``, ``zero``, ``delta0``, per row
    ``name-<k>``, ``row-tick-<k>``, ``interval-<k>``, ``mean-<k>``,
    ``observed-<k>``; ``spines``, ``xtick-<k>``, ``xtick-label-<k>``,
    ``xlabel``, ``title`` and the key's ``legend-key-<i>``,
    ``legend-text-<i>``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import pandas as pd
    >>> table = pd.DataFrame({"case": ["x", "y"], "mean": [0.01, 0.02],
    ...     "low": [0.0, 0.01], "high": [0.02, 0.03], "observed": [0.012, 0.018]})
    >>> res = SimpleNamespace(datasets=table, rope=0.01, delta0=0.015,
    ...     level=0.95, name_a="a", name_b="b")
    >>> with paper_style():
    ...     layout = datasets_layout(res, 238.0)
    >>> [item.lines for item in layout.picture.items_of("name-")]  # top down
    [('y',), ('x',)]
    """
    from nbstats.plots.chart_layout import (
        DASHED,
        LABEL_PAD,
        LEADING,
        MARGIN,
        PAPER,
        TICK_LENGTH,
        TICK_PAD,
        TITLE_PAD,
        Frame,
        Layout,
        legend_items,
        spaced,
        wrap_lines,
        x_axis_ticks,
    )
    from nbstats.plots.figure_model import Picture, Stroke, Text, nice_ticks
    from nbstats.plots.labels import text_width

    style = style or PAPER
    size = style.tick
    table = result.datasets
    if sort:
        table = table.sort_values("mean", kind="stable")
    table = table.iloc[::-1]  # the first data set at the bottom, by the axis
    rows = [
        wrap_lines(literal(c), 0.4 * (width - 2 * MARGIN), size) for c in table["case"]
    ]
    # one line: 10.5 pt at 8 pt; each more line LEADING (the renderers' spacing)
    heights = [(len(r) - 1) * LEADING * size + 1.2 * size + 0.9 for r in rows]
    widest = max((text_width(line, size) for r in rows for line in r), default=0.0)
    name_a, name_b = literal(result.name_a), literal(result.name_b)
    title = (
        wrap_lines(
            f"{name_a} vs {name_b}: per data set (shrunk)",
            width - 2 * MARGIN,
            style.title,
        )
        if titles
        else ()
    )
    rope, delta0 = float(result.rope), float(result.delta0)
    values = np.r_[
        table["low"],
        table["high"],
        table["observed"],
        table["mean"],
        -rope,
        rope,
        delta0,
        0.0,
    ].astype(float)
    low, high = float(np.nanmin(values)), float(np.nanmax(values))
    pad = 0.05 * max(high - low, 1e-12)
    low, high = low - pad, high + pad
    ticks, decimals = nice_ticks(low, high, nbins=7)
    labels = [f"{t:.{decimals}f}".replace("-", "−") for t in ticks]
    half = max((text_width(t, size) / 2 for t in labels), default=0.0)
    left = MARGIN + widest + TICK_PAD + TICK_LENGTH
    right = width - MARGIN - max(half, 2.0)
    top = MARGIN + (len(title) * LEADING * style.title + TITLE_PAD if title else 2.0)
    bottom = top + sum(heights) + 4.0
    frame = Frame(left, top, right, bottom, (low, high), (0.0, 1.0))
    ticks, labels = spaced(ticks.tolist(), labels, (low, high), right - left, size)
    items: list[Any] = []
    if rope > 0:
        x0, x1 = (float(v) for v in frame.x([-rope, rope]))
        band = ((x0, top), (x1, top), (x1, bottom), (x0, bottom))
        items.append(Area(band, "rope", fill=SHADE, opacity=0.5))
    zero = float(frame.x(0.0))
    items.append(Stroke(((zero, top), (zero, bottom)), 0.6, "zero", color=MUTED))
    d0 = float(frame.x(delta0))
    dash = tuple(0.8 * d for d in DASHED)
    items.append(Stroke(((d0, top), (d0, bottom)), 0.8, "delta0", dash=dash))
    y = top + 2.0
    for k, (lines, row) in enumerate(zip(rows, table.itertuples(), strict=True)):
        items += _dataset_row(k, lines, row, frame, y + heights[k] / 2, size)
        y += heights[k]
    items.append(
        Stroke(
            ((left, top), (left, bottom), (right, bottom)),
            0.6,
            "spines",
            cap="projecting",
        )
    )
    marks, texts = x_axis_ticks(frame, ticks, labels, size)
    items += marks + texts
    y = bottom + TICK_LENGTH + TICK_PAD + LEADING * size + LABEL_PAD
    xlabel = wrap_lines(
        f"δ: {name_b} − {name_a} (score units)", width - 2 * MARGIN, style.label
    )
    items.append(Text(width / 2, y, xlabel, style.label, "xlabel", "middle", "top"))
    y += len(xlabel) * LEADING * style.label
    if title:
        items.append(
            Text(width / 2, MARGIN, title, style.title, "title", "middle", "top")
        )
    shown: list[str] = []
    if key:
        keys, y, shown = legend_items(
            datasets_entries(result), width, y + 6.0, style.legend
        )
        items += keys
    picture = Picture(width, float(np.ceil(y + MARGIN)), tuple(items), alt)
    return Layout(picture, frame, tuple(shown))


def _dataset_row(
    k: int, lines: tuple[str, ...], row: Any, frame: Any, middle: float, size: float
) -> list[Any]:
    """One data set's row of :func:`datasets_layout`: its interval, posterior
    mean, observed mean (a ring), the tick and its name at height ``middle``."""
    from nbstats.plots.chart_layout import TICK_LENGTH, TICK_PAD, Key, ring
    from nbstats.plots.figure_model import Dot, Stroke, Text

    left = frame.left
    xs = frame.x([row.low, row.high, row.mean, row.observed]).tolist()
    return [
        Stroke(((xs[0], middle), (xs[1], middle)), 1.0, f"interval-{k}", ACCENT),
        Dot(xs[2], middle, 2.5, f"mean-{k}", ACCENT),
        ring(xs[3], middle, 1.5, f"observed-{k}", Key("ring", MUTED, 0.7)),
        Stroke(((left, middle), (left - TICK_LENGTH, middle)), 0.6, f"row-tick-{k}"),
        Text(
            left - TICK_LENGTH - TICK_PAD,
            middle,
            lines,
            size,
            f"name-{k}",
            anchor="end",
        ),
    ]
