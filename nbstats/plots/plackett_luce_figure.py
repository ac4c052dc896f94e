"""The Bayesian Plackett–Luce ranking: rank intervals beside P(best) bars.

The figure's geometry is :func:`plackett_luce_layout`'s, a
:class:`~nbstats.plots.figure_model.Picture` measured once and built of the
pieces every rank figure shares (:mod:`nbstats.plots.rank_axis`: the rank
axis, an interval of ranks with its marker); matplotlib draws it
(:func:`nbstats.plots.picture_mpl.draw_picture`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nbstats.plots._common import quiet
from nbstats.plots.figure_model import Item, Picture, Rect, Stroke, Text
from nbstats.plots.labels import text_width
from nbstats.plots.rank_axis import (
    AXIS_WIDTH,
    FOOT,
    NAME_GAP,
    PAD,
    SMALL,
    TICK,
    TICK_PAD,
    rank_axis,
    rank_interval,
)
from nbstats.plots.rank_layout import RankPanel, fit_rows, key_height
from nbstats.plots.style import PALETTE, page_height, paper_style
from nbstats.results.number_policy import format_number
from nbstats.scores.aliases import AliasOption

__all__ = ["PlackettLuceLayout", "plackett_luce", "plackett_luce_layout"]

#: Shares of the width: the names (one panel; several), and the P(best) bars.
_LABEL_SHARE = 0.32
_PANEL_LABEL_SHARE = 0.4
_BARS_SHARE = 0.36
#: From the rank axis' end to the bars' axis (points).
_GAP = 16.0
#: A new figure is at least this share of its width tall.
_ASPECT = 0.45
_HINTING = 1.03


def plackett_luce(
    result: Any,
    *,
    ax: Any = None,
    width: str = "single",
    aliases: AliasOption = "auto",
    order: Sequence[Any] | None = None,
) -> Any:
    """Each algorithm's rank interval, and beside it its probability of being best.

    One row per algorithm, best expected rank at the top (or in ``order``).
    Left: the credible interval of the algorithm's rank among the worths
    (1 = best) with a marker at the posterior median rank, which always lies
    inside it. Right, sharing the rows: a bar of P(best), the posterior
    probability that its worth is the largest, with its value.

    Parameters
    ----------
    result : PlackettLuceResult
        From :func:`nbstats.bayes_plackett_luce`; anything with its
        ``ranking`` table (``prob_best``, ``expected_rank``, ``median_rank``,
        ``rank_lower``, ``rank_upper``) and ``level`` will do.
    ax : matplotlib Axes, optional
        Where to draw the intervals; the bars go in a panel appended on its
        right. By default a new figure, as tall as the rows need.
    width : {"single", "double"}, venue name or Venue
        Width of a new figure: one or two columns of a paper, or a venue's
        column (as in :func:`nbstats.plots.rank_intervals`).
    aliases : "auto", bool or mapping
        As in :func:`nbstats.plots.rank_intervals`.
    order : sequence of algorithm names, optional
        The rows, top to bottom: every algorithm of ``result.ranking`` once
        (e.g. the order of a report's other tables, by mean rank). By default
        by expected rank, ties by P(best).

    Returns
    -------
    matplotlib.axes.Axes
        The picture's axes (:func:`nbstats.plots.picture_mpl.draw_picture`:
        data coordinates are points); ``ax.layout`` is the
        :class:`PlackettLuceLayout` drawn. Every interval is a ``Line2D``
        with gid ``f"interval-{name}"``, every median marker one with gid
        ``f"median-{name}"``, every bar a ``Rectangle`` with gid
        ``f"best-{name}"``, every name a text with gid ``f"name-{name}"``.
        Rows taller than the page of
        :func:`nbstats.plots.style.set_typography` (a report's) are set side
        by side in panels (``ax.layout.panels``). ``ax.bars_axes`` and
        ``ax.panels == [ax]`` are kept for code written for the axes of
        earlier versions.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.plackett_luce_figure import plackett_luce
    >>> res = nbstats.bayes_plackett_luce(
    ...     nbstats.datasets.load("demsar2006"), random_state=0
    ... )
    >>> ax = plackett_luce(res)
    >>> sorted(ax.layout.panels[0].rows[:2])  # two contenders, best expected rank first
    ['C4.5+m', 'C4.5+m+cf']
    >>> ax2 = plackett_luce(res, order=["C4.5", "C4.5+m", "C4.5+m+cf", "C4.5+cf"])
    >>> ax2.layout.panels[0].rows[0]
    'C4.5'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure); plt.close(ax2.figure)
    """
    from nbstats.plots.cd import diagram_width
    from nbstats.plots.ranks import draw_layout

    ranking = result.ranking
    names = [str(name) for name in ranking.index]
    rows = _rows(ranking, names, order)
    total, venue = diagram_width(width) if ax is None else (0.0, None)
    with paper_style(venue):
        if ax is None:
            limit = page_height()
            layout = plackett_luce_layout(
                result,
                total,
                rows=rows,
                aliases=aliases,
                min_height=_ASPECT * total,
                max_height=None if limit is None else 72 * limit,
            )
        else:
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            layout = plackett_luce_layout(
                result,
                box.width * size[0],
                rows=rows,
                aliases=aliases,
                height=box.height * size[1],
            )
        ax = draw_layout(layout, ax)
    ax.bars_axes = ax
    return quiet(ax)


@dataclass(frozen=True)
class PlackettLuceLayout:
    """The figure: its ``picture``, its ``panels`` of rows (each with its
    rank axis), the bars' axis ``x = bars_x[p][0] + bars_x[p][1] * P`` of
    panel p, the names' ``labels`` and the ``key`` of letters
    (``"A: full name"``, drawn under the figure by the paper)."""

    picture: Picture
    panels: tuple[RankPanel, ...]
    bars_x: tuple[tuple[float, float], ...]
    labels: dict[str, str]
    fontsize: float
    aliases: dict[str, str] | None
    key: tuple[str, ...] = ()
    markers: dict[str, tuple[float, float]] = field(default_factory=dict)


def _rows(ranking: Any, names: list[str], order: Sequence[Any] | None) -> list[str]:
    """The rows top to bottom: ``order``, or by expected rank then P(best)."""
    if order is None:
        by_rank = np.lexsort(
            (-ranking["prob_best"].to_numpy(), ranking["expected_rank"].to_numpy())
        )
        return [names[i] for i in by_rank]
    if isinstance(order, str):
        raise TypeError("order must be a sequence of algorithm names, not one name.")
    rows = [str(name) for name in order]
    if sorted(rows) != sorted(names):
        missing = sorted(set(names) - set(rows))
        extra = sorted(set(rows) - set(names))
        raise ValueError(
            "order must name every algorithm of the result exactly once; "
            f"missing {missing}, unknown {extra}"
            + (", repeated names" if len(rows) != len(set(rows)) else "")
            + "."
        )
    return rows


def plackett_luce_layout(
    result: Any,
    width: float,
    *,
    rows: Sequence[str] | None = None,
    aliases: AliasOption = "auto",
    height: float | None = None,
    min_height: float = 0.0,
    max_height: float | None = None,
) -> PlackettLuceLayout:
    """The figure of a Plackett–Luce ``result`` laid out ``width`` points wide.

    ``rows``: the names top to bottom (default: by expected rank, then
    P(best)); ``height``, ``min_height`` and ``max_height`` as in
    :func:`nbstats.plots.rank_layout.rank_layout` (rows taller than
    ``max_height`` go side by side in up to 5 panels). Call it inside
    :func:`~nbstats.plots.style.paper_style`: texts are measured in the
    font matplotlib sets them in.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.style import paper_style
    >>> res = nbstats.bayes_plackett_luce(
    ...     nbstats.datasets.load("demsar2006"), random_state=0
    ... )
    >>> with paper_style():
    ...     layout = plackett_luce_layout(res, 238.0)
    >>> (bar,) = [i for i in layout.picture.items if i.gid == "best-C4.5+m"]
    >>> a, b = layout.bars_x[0]
    >>> round((bar.x - a) / b, 6), round(bar.width / b, 6) == round(
    ...     float(res.ranking.loc["C4.5+m", "prob_best"]), 6)
    (0.0, True)
    """
    ranking = result.ranking
    names = [str(name) for name in ranking.index]
    rows = list(rows) if rows is not None else _rows(ranking, names, None)
    m = len(names)
    values = max(text_width(format_number(float(p), "probability"), SMALL)
                 for p in ranking["prob_best"])  # fmt: skip
    frame = _frame(names, rows, width, 1, aliases, values)
    if height is None and max_height is not None and frame.natural(width) > max_height:
        for panels in range(2, 6):
            frame = _frame(names, rows, width, panels, aliases, values)
            if frame.natural(width) <= max_height:
                break
    top = PAD + 2.0
    target = height if height is not None else max(min_height, frame.natural(0.0))
    row = max((target - top - FOOT) / frame.per, 1.0)
    return _assemble(result, frame, top, row, width, m)


@dataclass
class _Frame:
    fitted: Any
    row: float
    panels: int
    per: int
    rows: list[str]
    name_right: list[float]
    rank_x: list[tuple[float, float]]
    bars_x: list[tuple[float, float]]

    def natural(self, width: float) -> float:
        """The height the rows need, with the key of letters under a
        figure ``width`` points wide (0: without the key)."""
        entries = self.fitted.key() if self.fitted.aliases and width else []
        return PAD + 2.0 + self.per * self.row + FOOT + key_height(entries, width)


def _frame(
    names: list[str],
    rows: list[str],
    width: float,
    panels: int,
    aliases: AliasOption,
    values: float,
) -> _Frame:
    """Where the parts go across: per panel the names' right edge, the rank
    axis' map and the bars' map (P(best) 0 … 1)."""
    m = len(names)
    share = _LABEL_SHARE if panels == 1 else _PANEL_LABEL_SHARE / panels
    fitted, row = fit_rows(names, share * width, m, 1, aliases)
    label_w = _HINTING * max(
        text_width(label, fitted.fontsize) for label in fitted.labels
    )
    half_last = text_width(str(m), SMALL) / 2
    name_right, rank_x, bars_x = [], [], []
    for p in range(panels):
        x0, x1 = p * width / panels, (p + 1) * width / panels
        right = x0 + PAD + label_w
        spine = right + NAME_GAP
        bars_left = x1 - _BARS_SHARE * (x1 - x0)
        # the last tick label (at rank m) may stand out of the axis by half
        room = bars_left - _GAP - spine
        length = max(min(room, (room - half_last) / (1 - 1 / (2 * m))), 0.2 * (x1 - x0))
        # a bar of P = 1 leaves room for its value, "> 0.999", on its right
        scale = max(x1 - PAD - bars_left - values - 3.0, 0.3 * (x1 - bars_left))
        name_right.append(right)
        rank_x.append((spine - 0.5 * length / m, length / m))
        bars_x.append((bars_left, scale))
    return _Frame(
        fitted, row, panels, math.ceil(m / panels), rows, name_right, rank_x, bars_x
    )


def _bars_axis(x_of: Any, top: float, axis_y: float) -> list[Item]:
    """The P(best) axis: its left and bottom lines, ticks 0, 0.5, 1 and
    their labels, "P(best)" under them."""
    left, right = x_of(0.0), x_of(1.0)
    items: list[Item] = [
        Stroke(
            ((left, top), (left, axis_y), (right + TICK, axis_y)),
            AXIS_WIDTH,
            "bars-axis",
        )
    ]
    below = axis_y + TICK + TICK_PAD
    for value, text in ((0.0, "0"), (0.5, "0.5"), (1.0, "1")):
        x = x_of(value)
        items.append(Stroke(((x, axis_y), (x, axis_y + TICK)), AXIS_WIDTH, "bars-tick"))
        items.append(
            Text(
                x,
                below,
                (text,),
                SMALL,
                "bars-tick-label",
                anchor="middle",
                valign="top",
            )
        )
    items.append(
        Text((left + right) / 2, below + 1.2 * SMALL + 2.0, ("P(best)",), SMALL,
             "bars-xlabel", anchor="middle", valign="top")
    )  # fmt: skip
    return items


def _assemble(
    result: Any, frame: _Frame, top: float, row: float, width: float, m: int
) -> PlackettLuceLayout:
    ranking = result.ranking
    index = {str(n): i for i, n in enumerate(ranking.index)}
    lower, upper = ranking["rank_lower"].to_numpy(), ranking["rank_upper"].to_numpy()
    medians, best = ranking["median_rank"].to_numpy(), ranking["prob_best"].to_numpy()
    fitted = frame.fitted
    axes: list[Item] = []
    items: list[Item] = []
    markers: dict[str, tuple[float, float]] = {}
    placed = []
    axis_y = top + frame.per * row
    bottom = axis_y
    label = f"rank, {result.level:.0%} credible interval"
    for p in range(frame.panels):
        names = frame.rows[p * frame.per : (p + 1) * frame.per]
        a, b = frame.rank_x[p]
        ba, bb = frame.bars_x[p]

        def x_of(rank: float, a: float = a, b: float = b) -> float:
            return a + b * rank

        def bar_x(value: float, ba: float = ba, bb: float = bb) -> float:
            return ba + bb * value

        # a narrow panel (many algorithms) would run it into "P(best)"
        room = x_of(m + 0.5) - x_of(0.5)
        caption = label if text_width(label, SMALL) <= room else "rank"
        pieces, bottom = rank_axis(x_of, m, top, axis_y, caption)
        axes += pieces + _bars_axis(bar_x, top, axis_y)
        ys = [top + (k + 0.5) * row for k in range(len(names))]
        for name, y in zip(names, ys, strict=True):
            i = index[name]
            items.append(
                Text(frame.name_right[p], y, tuple(fitted.label(name).split("\n")),
                     fitted.fontsize, f"name-{name}", anchor="end")
            )  # fmt: skip
            items += rank_interval(
                x_of,
                y,
                (lower[i], upper[i]),
                medians[i],
                colour=PALETTE[0],
                kind="o",
                gids=(f"interval-{name}", f"median-{name}"),
            )
            markers[f"median-{name}"] = (x_of(float(medians[i])), y)
            value = float(best[i])
            height = min(0.6 * row, 12.0)
            items.append(
                Rect(bar_x(0.0), y - height / 2, bar_x(value) - bar_x(0.0), height,
                     f"best-{name}", fill=PALETTE[1])
            )  # fmt: skip
            items.append(
                Text(bar_x(min(value, 1.0)) + 3.0, y,
                     (format_number(value, "probability"),), fitted.fontsize,
                     f"value-{name}")
            )  # fmt: skip
        placed.append(RankPanel(tuple(names), tuple(ys), (a, b), axis_y, top))
    picture = Picture(
        float(width),
        bottom + PAD,
        (*axes, *items),
        f"Plackett–Luce ranks and probabilities of being best of {m} algorithms",
    )
    return PlackettLuceLayout(
        picture=picture,
        panels=tuple(placed),
        bars_x=tuple(frame.bars_x),
        labels={n: fitted.label(n) for n in frame.rows},
        fontsize=fitted.fontsize,
        aliases=fitted.aliases,
        key=tuple(fitted.key()) if fitted.aliases else (),
        markers=markers,
    )
