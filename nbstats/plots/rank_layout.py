"""The rank-interval forest plot's geometry, computed once for every renderer.

:func:`rank_layout` turns confidence intervals for ranks
(:func:`nbstats.rank_ci`) into a :class:`RankLayout`: a
:class:`~nbstats.plots.figure_model.Picture` of every line, marker and text
of the forest plot, in points (x to the right, y down from the top left
corner), its texts measured once with
:func:`~nbstats.plots.labels.text_width` in the font the figure is set in.
matplotlib draws it for papers (:func:`nbstats.plots.rank_intervals`), SVG
for the rank dashboard (:func:`nbstats.widgets.rank_svg.intervals_svg`).

The pieces every rank figure shares -- the axis of ranks 1 … m and one
interval of ranks with its marker -- are :mod:`nbstats.plots.rank_axis`'s;
the Plackett–Luce figure is built of them too.

The picture, top to bottom: a title (one result) or a legend of the results
(several), the rows -- one per algorithm, its name on the left, each
result's interval from its lower to its upper rank with a hollow marker at
the algorithm's place in the order of mean ranks -- then the rank axis (1 =
best, on the left) with its labels and its caption. Rows taller than
``max_height`` go side by side in panels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from nbstats.plots.figure_model import Item, Picture, Stroke, Text
from nbstats.plots.labels import fit_names, text_width, wrap_text
from nbstats.plots.protocols import is_kind
from nbstats.plots.rank_axis import (
    FOOT,
    LINE,
    MARKERS,
    NAME_GAP,
    PAD,
    SMALL,
    marker,
    rank_axis,
    rank_interval,
)
from nbstats.plots.style import PALETTE, literal
from nbstats.scores.aliases import AliasOption

__all__ = [
    "METHOD_LABELS",
    "RankLayout",
    "RankPanel",
    "fit_rows",
    "key_height",
    "key_items",
    "labelled_results",
    "rank_layout",
]

#: Readable names of nbstats.rank_ci's methods, for titles and legends.
METHOD_LABELS = {
    "bootstrap": "bootstrap",
    "id-nemenyi": "Iman–Davenport + Nemenyi",
    "id-wilcoxon-2s": "Iman–Davenport + two-sided Wilcoxon, Holm",
    "id-wilcoxon-1s": "Iman–Davenport + one-sided Wilcoxon, Holm",
    "anova-tukey": "rank ANOVA + Tukey HSD",
}

#: Height of one row (points) up to 30 algorithms, and what each extra
#: result adds; beyond 30, rows shrink to what their names need.
ROW_PT = 10.8
METHOD_PT = 3.6
#: Share of the width the names may take (one panel; several panels).
LABEL_SHARE = 0.35
PANEL_LABEL_SHARE = 0.45
#: a raster at a screen's resolution hints glyphs wider than their outlines
_HINTING = 1.03


@dataclass(frozen=True)
class RankPanel:
    """One panel of rows: ``rows`` top to bottom at heights ``row_y``, the
    rank axis ``x = rank_x[0] + rank_x[1] * rank`` at height ``axis_y``."""

    rows: tuple[str, ...]
    row_y: tuple[float, ...]
    rank_x: tuple[float, float]
    axis_y: float
    top: float

    def x_of(self, rank: float) -> float:
        """The x (points) of a rank."""
        return self.rank_x[0] + self.rank_x[1] * rank

    def rank_of(self, x: float) -> float:
        """The rank at x (points)."""
        return (x - self.rank_x[0]) / self.rank_x[1]


@dataclass(frozen=True)
class RankLayout:
    """The forest plot: its ``picture`` and what renderers and tests read.

    ``panels`` place the rows; ``labels`` maps each name to its label (as
    drawn, escaped for matplotlib), ``fontsize`` their size, ``aliases``
    ``{name: alias}`` of the names shown by an alias; ``key`` lists the
    ``"A: full name"`` entries a renderer draws under the figure (the
    paper's legend; empty when the picture holds them);
    ``markers`` maps a marker's gid to its centre; ``intervals`` an
    interval's gid to its ``(lower, upper)`` ranks.
    """

    picture: Picture
    panels: tuple[RankPanel, ...]
    methods: tuple[str, ...]
    labels: dict[str, str]
    fontsize: float
    aliases: dict[str, str] | None
    key: tuple[str, ...] = ()
    markers: dict[str, tuple[float, float]] = field(default_factory=dict)
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)


def labelled_results(results: object) -> dict[str, Any]:
    """``{label: RankCIResult}``: a dict as given, a list labelled by each
    result's method (with its confidence level where two share one).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.rank_ci(nbstats.datasets.load("demsar2006"))
    >>> list(labelled_results([res]))
    ['id-wilcoxon-2s']
    """
    accepted = (
        "rank_intervals expects a RankCIResult (from nbstats.rank_ci), or a "
        "list or dict of RankCIResult objects"
    )
    if is_kind(results, "rank_ci"):
        return {results.method: results}  # type: ignore[attr-defined]
    if isinstance(results, Mapping):
        items = [(str(key), value) for key, value in results.items()]
    elif isinstance(results, Sequence) and not isinstance(results, (str, bytes)):
        items = [(getattr(value, "method", ""), value) for value in results]
    else:
        raise TypeError(f"{accepted}; got {type(results).__name__}.")
    for _, value in items:
        if not is_kind(value, "rank_ci"):
            raise TypeError(f"{accepted}; got an item of type {type(value).__name__}.")
    if not items:
        raise ValueError(f"{accepted}; got an empty {type(results).__name__}.")
    if isinstance(results, Mapping):
        return dict(items)
    labels = [label for label, _ in items]
    if len(set(labels)) < len(labels):  # same method twice: add the level
        labels = [f"{label}, {value.level:.0%}" for label, value in items]
    if len(set(labels)) < len(labels):
        raise ValueError(
            "Two results share a method and a confidence level; pass a dict "
            "{label: result} to tell them apart."
        )
    return dict(zip(labels, (value for _, value in items), strict=True))


def _row_order(result: Any, names: list[str], order: Sequence[str] | None) -> list[str]:
    """Algorithms from top to bottom: by mean rank (stable on ties), or ``order``."""
    if order is None:
        means = {str(n): float(v) for n, v in result.mean_ranks.items()}
        return sorted(names, key=lambda name: means[name])
    rows = [str(name) for name in order]
    if sorted(rows) != sorted(names):
        raise ValueError(
            f"order must list every algorithm exactly once: expected a "
            f"permutation of {names}, got {rows}."
        )
    return rows


# -- the forest plot --------------------------------------------------------------


class _Content:
    """What the plot shows (no positions)."""

    def __init__(self, results: object, order: Sequence[str] | None) -> None:
        self.labelled = labelled_results(results)
        first = next(iter(self.labelled.values()))
        self.names = [str(name) for name in first.lower.index]
        for label, result in self.labelled.items():
            if sorted(map(str, result.lower.index)) != sorted(self.names):
                raise ValueError(
                    f"The results cover different algorithms: {label!r} has "
                    f"{sorted(map(str, result.lower.index))}, the first has "
                    f"{sorted(self.names)}. Compare rank intervals of the same "
                    "score table."
                )
        self.rows = _row_order(first, self.names, order)
        self.m, self.k = len(self.rows), len(self.labelled)
        levels = {f"{r.level:.0%}" for r in self.labelled.values()}
        self.level = levels.pop() if len(levels) == 1 else None

    def title(self) -> str:
        label = next(iter(self.labelled))
        readable = METHOD_LABELS.get(label, label)
        return f"{self.level} confidence intervals for ranks: {literal(readable)}"

    def legend_title(self) -> str:
        if self.level:
            return f"{self.level} confidence intervals for ranks"
        return "Confidence intervals for ranks"


def fit_rows(names: list[str], width: float, m: int, k: int, aliases: AliasOption):
    """Labels no wider than ``width`` and the least height of a row (points)
    holding ``k`` intervals."""
    fitted = fit_names(
        names,  # the score table's order: the letters' order
        width,
        fontsize=SMALL,
        # many rows: one line each (a long name gets a letter), since one
        # wrapped name would double the height of every row
        max_lines=2 if m <= 20 else 1,
        aliases=aliases,
    )
    need = (1.2 * fitted.lines + (0.35 if fitted.lines > 1 else 0.1)) * fitted.fontsize
    return fitted, max(need, ROW_PT if m <= 30 else 0.0) + METHOD_PT * (k - 1)


def key_items(
    entries: Sequence[str], width: float, top: float
) -> tuple[list[Item], float]:
    """The key of letters as texts from ``top`` down: as many columns as
    fit in ``width``, filled one after the other, each entry wrapped to its
    column; and the bottom of the lowest."""
    gap = 1.2 * SMALL
    room = width - 2 * PAD
    widest = max(text_width(entry, SMALL) for entry in entries)
    ncol = max(1, min(len(entries), int((room + gap) // (widest + gap))))
    column = (room + gap) / ncol - gap
    per = math.ceil(len(entries) / ncol)
    items: list[Item] = []
    bottom = top
    for k in range(ncol):
        y = top
        for entry in entries[k * per : (k + 1) * per]:
            lines = tuple(str(wrap_text(entry, column, SMALL, force=True)).split("\n"))
            x = PAD + k * (column + gap)
            items.append(Text(x, y, lines, SMALL, "key", valign="top"))
            y += 1.2 * SMALL * len(lines) + 0.25 * SMALL
        bottom = max(bottom, y)
    return items, bottom


def key_height(entries: Sequence[str], width: float) -> float:
    """Points the key of letters takes under a figure ``width`` points wide
    (as :func:`~nbstats.plots.labels.add_key` sets it)."""
    if not entries:
        return 0.0
    widest = max(text_width(entry, SMALL) for entry in entries)
    columns = max(1, int((width + 1.2 * SMALL) // (widest + 1.2 * SMALL)))
    return math.ceil(len(entries) / columns) * 1.45 * SMALL + 8.0


@dataclass
class _Frame:
    """Where the parts go across: per panel its x range, the names' right
    edge and the axis' map."""

    fitted: Any
    row: float
    panels: int
    per: int
    name_right: list[float]
    rank_x: list[tuple[float, float]]
    span: tuple[float, float]  # the plots' x range, for the head


def _frame(c: _Content, width: float, panels: int, aliases: AliasOption) -> _Frame:
    share = LABEL_SHARE if panels == 1 else PANEL_LABEL_SHARE / panels
    fitted, row = fit_rows(c.names, share * width, c.m, c.k, aliases)
    label_w = _HINTING * max(
        (text_width(fitted.label(n), fitted.fontsize) for n in c.rows), default=0.0
    )
    half_last = text_width(str(c.m), SMALL) / 2
    names, maps = [], []
    for p in range(panels):
        x0, x1 = p * width / panels, (p + 1) * width / panels
        right = x0 + PAD + label_w
        spine = right + NAME_GAP
        room = x1 - PAD - spine
        # the last tick label (at rank m) may stand out of the axis by half
        length = min(room, (room - half_last) / (1 - 1 / (2 * c.m)))
        length = max(length, 0.2 * (x1 - x0))
        scale = length / c.m
        names.append(right)
        maps.append((spine - 0.5 * scale, scale))
    span = (names[0] + NAME_GAP, width - PAD)
    return _Frame(fitted, row, panels, math.ceil(c.m / panels), names, maps, span)


def _legend_columns(labels: list[str], k: int, length: float) -> tuple[int, float]:
    """Columns of the results' legend (up to 3, as many as fit) and the
    width of an entry's handle."""
    handle = 1.8 * SMALL
    entry = max(text_width(label, SMALL) for label in labels) + handle + 0.8 * SMALL
    fits = max(1, int((length + 1.2 * SMALL) // (entry + 1.2 * SMALL)))
    return min(k if k <= 3 else (2 if k == 4 else 3), fits), handle


def _head(c: _Content, frame: _Frame, title: bool) -> tuple[list[Item], float]:
    """The title (one result, when shown) or the legend (several); the top
    of the rows."""
    lo, hi = frame.span
    centre, length = (lo + hi) / 2, hi - lo
    items: list[Item] = []
    y = PAD
    if c.k == 1:
        if title:
            text = str(wrap_text(c.title(), length, SMALL, force=True))
            lines = tuple(text.split("\n"))
            items.append(
                Text(centre, y, lines, SMALL, "title", anchor="middle", valign="top")
            )
            y += 1.2 * SMALL * len(lines) + 4.0
        return items, y + 2.0
    if title:
        items.append(
            Text(
                centre,
                y,
                (c.legend_title(),),
                SMALL,
                "legend-title",
                anchor="middle",
                valign="top",
            )
        )
        y += 1.2 * SMALL + 2.0
    labels = [literal(label) for label in c.labelled]
    ncol, handle = _legend_columns(labels, c.k, length)
    per_col = math.ceil(c.k / ncol)  # matplotlib fills a column, then the next
    columns = [labels[i * per_col : (i + 1) * per_col] for i in range(ncol)]
    widths = [
        handle + 0.8 * SMALL + max(text_width(t, SMALL) for t in col)
        for col in columns
        if col
    ]
    total = sum(widths) + 1.2 * SMALL * (len(widths) - 1)
    x = centre - total / 2
    pitch = 1.5 * SMALL
    for col, col_width in zip(columns, widths, strict=False):
        for r, label in enumerate(col):
            j = labels.index(label)
            row_y = y + (r + 0.5) * pitch
            colour = PALETTE[j % len(PALETTE)]
            items.append(
                Stroke(
                    ((x, row_y), (x + handle, row_y)), LINE, f"legend-line-{j}", colour
                )
            )
            items += marker(
                MARKERS[j % len(MARKERS)],
                x + handle / 2,
                row_y,
                colour,
                f"legend-mark-{j}",
            )
            items.append(
                Text(x + handle + 0.8 * SMALL, row_y, (label,), SMALL, f"legend-{j}")
            )
        x += col_width + 1.2 * SMALL
    return items, y + per_col * pitch + 4.0


def rank_layout(
    results: object,
    width: float,
    *,
    order: Sequence[str] | None = None,
    aliases: AliasOption = "auto",
    title: bool = True,
    height: float | None = None,
    min_height: float = 0.0,
    max_height: float | None = None,
    tooltips: Mapping[str, str] | None = None,
    key: bool = False,
) -> RankLayout:
    """The forest plot of ``results`` laid out ``width`` points wide.

    Widths are measured in the font matplotlib sets text in now: call it
    inside :func:`~nbstats.plots.style.paper_style` (the renderers do).

    Parameters
    ----------
    results : RankCIResult, list or dict of them
        As :func:`nbstats.plots.rank_intervals` takes them.
    width : float
        Points.
    order, aliases
        As in :func:`nbstats.plots.rank_intervals`.
    title : bool
        A title naming the method (one result) or the legend's title
        (several); the legend itself is always drawn for several.
    height : float, optional
        Exactly this tall: the rows spread over what the rest leaves.
    min_height : float
        At least this tall (rows grow).
    max_height : float, optional
        Rows (with the key of letters under the figure) taller than this go
        side by side in up to 5 panels.
    tooltips : mapping, optional
        ``{name: text}`` shown on hover over a name (SVG).
    key : bool
        The key of letters (when names are replaced) drawn in the picture,
        under the axis (the dashboard's SVG); False: listed in
        :attr:`RankLayout.key` for the renderer (the paper's legend).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.style import paper_style
    >>> res = nbstats.rank_ci(nbstats.datasets.load("demsar2006"))
    >>> with paper_style():
    ...     layout = rank_layout(res, 238.0)
    >>> layout.intervals["interval-id-wilcoxon-2s-C4.5"]
    (3.0, 4.0)
    >>> (line,) = [item for item in layout.picture.items
    ...            if item.gid == "interval-id-wilcoxon-2s-C4.5"]
    >>> [round(layout.panels[0].rank_of(x), 6) for x, _ in line.points]
    [3.0, 4.0]
    """
    c = _Content(results, order)
    panels = 1
    frame = _frame(c, width, 1, aliases)
    head, top = _head(c, frame, title)

    def natural(frame: _Frame, top: float) -> float:
        entries = frame.fitted.key() if frame.fitted.aliases else []
        return top + frame.per * frame.row + FOOT + key_height(entries, width)

    if height is None and max_height is not None and natural(frame, top) > max_height:
        for panels in range(2, 6):
            frame = _frame(c, width, panels, aliases)
            head, top = _head(c, frame, title)
            if natural(frame, top) <= max_height:
                break
    row = frame.row
    target = (
        height if height is not None else max(min_height, top + frame.per * row + FOOT)
    )
    row = max((target - top - FOOT) / frame.per, 1.0)
    layout = _assemble(c, frame, head, top, row, width, tooltips or {})
    if not (key and layout.key):
        return layout
    texts, bottom = key_items(layout.key, width, layout.picture.height + 2.0)
    picture = Picture(
        width, bottom + PAD, (*layout.picture.items, *texts), layout.picture.alt
    )
    return replace(layout, picture=picture, key=())


def _assemble(
    c: _Content,
    frame: _Frame,
    head: list[Item],
    top: float,
    row: float,
    width: float,
    tooltips: Mapping[str, str],
) -> RankLayout:
    """Place the rows, intervals and axes of every panel under the head."""
    items: list[Item] = list(head)
    axes: list[Item] = []
    fitted = frame.fitted
    step = min(0.25, 0.7 / c.k) * row if c.k > 1 else 0.0
    offsets = [(j - (c.k - 1) / 2) * step for j in range(c.k)]
    bounds = {
        label: (
            {str(n): float(v) for n, v in result.lower.items()},
            {str(n): float(v) for n, v in result.upper.items()},
            {
                str(n): float(v)
                for n, v in result.mean_ranks.rank(method="average").items()
            },
        )
        for label, result in c.labelled.items()
    }
    placed, markers, intervals, bottom = [], {}, {}, top
    axis_y = top + frame.per * row
    for p in range(frame.panels):
        rows = c.rows[p * frame.per : (p + 1) * frame.per]
        a, b = frame.rank_x[p]

        def x_of(rank: float, a: float = a, b: float = b) -> float:
            return a + b * rank

        ys = [top + (i + 0.5) * row for i in range(len(rows))]
        pieces, bottom = rank_axis(x_of, c.m, top, axis_y)
        axes += pieces
        for name, y in zip(rows, ys, strict=True):
            items.append(
                Text(
                    frame.name_right[p],
                    y,
                    tuple(fitted.label(name).split("\n")),
                    fitted.fontsize,
                    f"name-{name}",
                    anchor="end",
                    tooltip=tooltips.get(name, ""),
                )
            )
            for j, label in enumerate(c.labelled):
                low, high, place = bounds[label]
                gids = (f"interval-{label}-{name}", f"rank-{label}-{name}")
                items += rank_interval(
                    x_of,
                    y + offsets[j],
                    (low[name], high[name]),
                    place[name],
                    colour=PALETTE[j % len(PALETTE)],
                    kind=MARKERS[j % len(MARKERS)],
                    gids=gids,
                )
                intervals[gids[0]] = (low[name], high[name])
                markers[gids[1]] = (x_of(place[name]), y + offsets[j])
        placed.append(RankPanel(tuple(rows), tuple(ys), (a, b), axis_y, top))
    picture = Picture(
        float(width),
        bottom + PAD,
        (*axes, *items),  # grid and axes under the intervals
        f"confidence intervals for the ranks of {c.m} algorithms",
    )
    return RankLayout(
        picture=picture,
        panels=tuple(placed),
        methods=tuple(c.labelled),
        labels={n: fitted.label(n) for n in c.names},
        fontsize=fitted.fontsize,
        aliases=fitted.aliases,
        key=tuple(fitted.key()) if fitted.aliases else (),
        markers=markers,
        intervals=intervals,
    )
