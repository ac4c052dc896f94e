"""The frame of a plot with value axes, laid out in points for the figure model.

A density or bar chart (the posterior pictures) is a box with a left and a
bottom axis, their ticks and tick labels, an x and a y label, a title above
and a legend below. :func:`chart` lays these out once, measuring every text
with :func:`nbstats.plots.labels.text_width` (the font the figure is set in,
so call it inside :func:`~nbstats.plots.style.paper_style`) and wrapping what
is too long for the width (:func:`~nbstats.plots.labels.wrap_text`); no text
is shrunk. It returns a :class:`Chart`: the box (:class:`Frame`, which maps
data values to points) and the items of its axes and texts, which a picture
puts around its own data items; :mod:`nbstats.plots.chart_marks` places a
picture's curves inside the box.

Two styles: :data:`PAPER` (8 pt text, the box as tall as the width asks) and
:data:`DASHBOARD` (7 pt ticks and legend, the box's top left corner kept
where it is between redraws unless a text needs more room: the axes do not
jump while a slider moves).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nbstats.plots.figure_model import LEADING as FIGURE_LEADING
from nbstats.plots.figure_model import (
    Area,
    Dot,
    Item,
    Picture,
    Rect,
    Stroke,
    Text,
    nice_ticks,
)
from nbstats.plots.labels import text_width, wrap_text

__all__ = [
    "DASHBOARD",
    "PAPER",
    "Chart",
    "ChartStyle",
    "Frame",
    "Key",
    "Layout",
    "chart",
    "legend_items",
    "ring",
    "spaced",
    "wrap_lines",
    "x_axis_ticks",
    "y_axis_ticks",
]

#: Room left free around the picture, and between its parts (points).
MARGIN, GAP = 4.0, 4.0
TICK_LENGTH, TICK_PAD, TITLE_PAD, LABEL_PAD = 3.5, 3.5, 6.0, 3.0
#: Distance between the lines of a text, in font sizes: the renderers' own
#: (:data:`nbstats.plots.figure_model.LEADING`).
LEADING = FIGURE_LEADING
#: Legend geometry in font sizes (matplotlib's legend defaults).
HANDLE_LENGTH, HANDLE_PAD, COLUMN_GAP, ROW_GAP = 1.6, 0.8, 2.0, 0.3
#: Curve points kept per point of box width (a finer grid is thinned).
POINTS_PER_PT = 2
#: matplotlib's dotted line at width 1, in points.
DOTTED = (1.0, 1.65)
#: matplotlib's dashed line at width 1, in points.
DASHED = (3.7, 1.6)


@dataclass(frozen=True)
class ChartStyle:
    """Font sizes (points) and the least room left and above the box."""

    title: float = 8.0
    label: float = 8.0
    tick: float = 8.0
    legend: float = 8.0
    #: The box's left edge and top at least this far in (points), so that
    #: the box stays in place while the texts around it change.
    left: float = 0.0
    top: float = 0.0
    #: The box's right edge at least this far from the picture's (points).
    right: float = 0.0
    #: The box's height (points) when none is asked for; 0: 0.6 of its width.
    box: float = 0.0


#: Papers: every text 8 pt (the paper style's size).
PAPER = ChartStyle()
#: Dashboards: ticks and legend 7 pt, the box kept in place (room for three
#: title lines above it).
DASHBOARD = ChartStyle(tick=7.0, legend=7.0, left=41.2, top=41.5, right=11.2, box=168.9)


@dataclass(frozen=True)
class Key:
    """What a legend entry's key looks like: a ``line`` (``width``, ``dash``),
    a ``patch`` (a filled box of ``opacity``), a ``dot`` or a ``ring``."""

    kind: str
    color: str
    width: float = 1.0
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


@dataclass(frozen=True)
class Frame:
    """The plot box in points and the data range it shows.

    Examples
    --------
    >>> frame = Frame(10.0, 5.0, 110.0, 55.0, (0.0, 1.0), (0.0, 2.0))
    >>> float(frame.x(0.5)), float(frame.y(2.0))
    (60.0, 5.0)
    """

    left: float
    top: float
    right: float
    bottom: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]

    def x(self, value: object) -> np.ndarray:
        """Points across of data x."""
        low, high = self.xlim
        scale = (self.right - self.left) / (high - low)
        return self.left + (np.asarray(value, dtype=float) - low) * scale

    def y(self, value: object) -> np.ndarray:
        """Points down of data y."""
        low, high = self.ylim
        scale = (self.bottom - self.top) / (high - low)
        return self.bottom - (np.asarray(value, dtype=float) - low) * scale


@dataclass(frozen=True)
class Chart:
    """A laid-out frame: ``axes`` (spines and ticks) go over the data's
    areas, ``texts`` (tick labels, labels, title, legend) last."""

    frame: Frame
    axes: tuple[Item, ...]
    texts: tuple[Item, ...]
    height: float
    #: The legend's texts, top to bottom and left to right (as shown).
    legend: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A laid-out picture: the :class:`~nbstats.plots.figure_model.Picture`
    both renderers draw, its plot box (None for a picture without one) and
    its legend's texts as shown."""

    picture: Picture
    frame: Frame | None
    legend: tuple[str, ...]


def spaced(
    ticks: Sequence[float],
    labels: Sequence[str],
    lim: tuple[float, float],
    span: float,
    size: float,
) -> tuple[list[float], list[str]]:
    """Every other tick dropped until their labels (``size`` pt) stand
    apart on an axis ``span`` points long showing ``lim``.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> ticks = [-0.04, -0.02, 0.0, 0.02, 0.04, 0.06]
    >>> with paper_style():
    ...     spaced(ticks, [f"{t:.2f}" for t in ticks], (-0.045, 0.065), 90.0, 8.0)[1]
    ['-0.04', '0.00', '0.04']
    """
    ticks, labels = list(ticks), list(labels)
    while len(ticks) > 2:
        step = span * (ticks[1] - ticks[0]) / (lim[1] - lim[0])
        if step >= max(text_width(t, size) for t in labels) + 3.0:
            break
        ticks, labels = ticks[::2], labels[::2]
    return ticks, labels


def wrap_lines(text: str, width: float, size: float) -> tuple[str, ...]:
    """``text`` as lines no wider than ``width`` points at ``size``
    (:func:`~nbstats.plots.labels.wrap_text`, cut inside a word only if it
    must); no lines for an empty text."""
    if not text:
        return ()
    wrapped = wrap_text(text, max(width, 4 * size), size, force=True)
    return tuple((wrapped or text).split("\n"))


def _label(value: float, decimals: int) -> str:
    text = f"{value:.{decimals}f}"
    return text.replace("-", "\u2212") if value < 0 else text


def chart(
    width: float,
    *,
    xlim: tuple[float, float],
    ylim: tuple[float, float] | None,
    xlabel: str,
    ylabel: str,
    title: Sequence[str] = (),
    legend: Sequence[tuple[str, Key]] = (),
    style: ChartStyle = PAPER,
    box_height: float | None = None,
    height: float | None = None,
    x_ticks: tuple[np.ndarray, int] | None = None,
    x_bins: int = 9,
    y_bins: int = 9,
) -> Chart:
    """Lay out a plot's frame ``width`` points wide.

    The box is ``box_height`` points tall, or as tall as leaves the whole
    picture ``height`` points (a given axes' size), or 0.6 times its width.
    ``ylim`` None: no y ticks (a point mass has no density). ``x_ticks``: the
    x ticks and their decimals (:func:`nice_ticks` of ``xlim`` otherwise).
    Every title line, the x label and each legend text is wrapped to the
    room it has.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> with paper_style():
    ...     c = chart(238.0, xlim=(0.0, 1.0), ylim=(0.0, 3.0), xlabel="θ",
    ...               ylabel="density", title=["a vs b"])
    >>> c.frame.left < c.frame.right < 238.0 and c.height > c.frame.bottom
    True
    """
    if not xlim[1] > xlim[0]:
        raise ValueError(f"xlim must rise, got {xlim!r}.")
    with warnings.catch_warnings():
        # a character no font has (a control character in a name) is
        # measured as the font's empty box, silently
        warnings.filterwarnings("ignore", "Glyph .* missing", UserWarning)
        return _chart(
            width,
            xlim,
            ylim,
            xlabel,
            ylabel,
            title,
            legend,
            style,
            box_height,
            height,
            x_ticks,
            x_bins,
            y_bins,
        )


def x_axis_ticks(
    frame: Frame, ticks: Sequence[float], labels: Sequence[str], size: float
) -> tuple[list[Item], list[Item]]:
    """The tick marks (``xtick-<k>``) under ``frame``'s box at ``ticks`` and
    their labels (``xtick-label-<k>``), ``size`` points."""
    marks: list[Item] = []
    texts: list[Item] = []
    bottom = frame.bottom
    for k, (tick, label) in enumerate(zip(ticks, labels, strict=True)):
        tx = float(frame.x(tick))
        marks.append(
            Stroke(((tx, bottom), (tx, bottom + TICK_LENGTH)), 0.6, f"xtick-{k}")
        )
        texts.append(
            Text(
                tx,
                bottom + TICK_LENGTH + TICK_PAD,
                (label,),
                size,
                f"xtick-label-{k}",
                anchor="middle",
                valign="top",
            )
        )
    return marks, texts


def y_axis_ticks(
    frame: Frame, ticks: Sequence[float], labels: Sequence[str], size: float
) -> tuple[list[Item], list[Item]]:
    """The tick marks (``ytick-<k>``) left of ``frame``'s box and their labels
    (``ytick-label-<k>``), ``size`` points."""
    marks: list[Item] = []
    texts: list[Item] = []
    left = frame.left
    for k, (tick, label) in enumerate(zip(ticks, labels, strict=True)):
        ty = float(frame.y(tick))
        marks.append(Stroke(((left, ty), (left - TICK_LENGTH, ty)), 0.6, f"ytick-{k}"))
        texts.append(
            Text(
                left - TICK_LENGTH - TICK_PAD,
                ty,
                (label,),
                size,
                f"ytick-label-{k}",
                anchor="end",
                valign="center",
            )
        )
    return marks, texts


def _chart(
    width: float,
    xlim: tuple[float, float],
    ylim: tuple[float, float] | None,
    xlabel: str,
    ylabel: str,
    title: Sequence[str],
    legend: Sequence[tuple[str, Key]],
    style: ChartStyle,
    box_height: float | None,
    height: float | None,
    x_ticks: tuple[np.ndarray, int] | None,
    x_bins: int,
    y_bins: int,
) -> Chart:
    s = style
    title_lines = [
        line for text in title for line in wrap_lines(text, width - 2 * MARGIN, s.title)
    ]
    xticks, xdec = x_ticks if x_ticks is not None and len(x_ticks[0]) else (None, 0)
    if xticks is None:
        xticks, xdec = nice_ticks(*xlim, nbins=x_bins)
    xticks = [float(t) for t in xticks if xlim[0] - 1e-12 <= t <= xlim[1] + 1e-12]
    x_labels = [_label(t, xdec) for t in xticks]
    y_top = 1.0 if ylim is None else float(ylim[1])
    yticks: list[float] = []
    y_labels: list[str] = []
    if ylim is not None:
        found, ydec = nice_ticks(0.0, y_top, nbins=y_bins)
        yticks = [float(t) for t in found if 0.0 <= t <= y_top + 1e-12]
        y_labels = [_label(t, ydec) for t in yticks]
    widest_y = max((text_width(t, s.tick) for t in y_labels), default=0.0)
    half_x = max((text_width(t, s.tick) / 2 for t in x_labels), default=0.0)
    ylabel_right = MARGIN + LEADING * s.label
    left = ylabel_right + LABEL_PAD + widest_y + TICK_PAD + TICK_LENGTH
    left = max(left, s.left, MARGIN + half_x)
    right = width - max(MARGIN + max(half_x, 2.0), s.right)
    xticks, x_labels = spaced(xticks, x_labels, xlim, right - left, s.tick)
    top = (
        MARGIN
        + len(title_lines) * LEADING * s.title
        + (TITLE_PAD if title_lines else 2.0)
    )
    top = max(top, s.top)
    xlabel_lines = wrap_lines(xlabel, width - 2 * MARGIN, s.label)
    tick_text = TICK_LENGTH + TICK_PAD + LEADING * s.tick
    below = tick_text + LABEL_PAD + len(xlabel_lines) * LEADING * s.label
    rows, legend_height = _legend_rows(legend, width, s.legend)
    if box_height is None:
        if height is not None:
            box_height = height - top - below - legend_height - MARGIN
        else:
            box_height = s.box or 0.6 * (right - left)
    box_height = max(float(box_height), 4.0 * s.tick)
    bottom = top + box_height
    frame = Frame(
        left, top, right, bottom, (float(xlim[0]), float(xlim[1])), (0.0, y_top)
    )

    axes: list[Item] = [
        Stroke(
            ((left, top), (left, bottom), (right, bottom)),
            0.6,
            "spines",
            cap="projecting",
        ),
    ]
    texts: list[Item] = []
    for marks, labels in (
        x_axis_ticks(frame, xticks, x_labels, s.tick),
        y_axis_ticks(frame, yticks, y_labels, s.tick),
    ):
        axes += marks
        texts += labels
    y_room = left - TICK_LENGTH - TICK_PAD - widest_y - LABEL_PAD
    texts.append(
        Text(
            y_room - LEADING * s.label,
            (top + bottom) / 2,
            (ylabel,),
            s.label,
            "ylabel",
            anchor="middle",
            valign="top",
            rotation=90.0,
        )
    )
    y = bottom + tick_text + LABEL_PAD
    if xlabel_lines:
        texts.append(
            Text(
                width / 2,
                y,
                xlabel_lines,
                s.label,
                "xlabel",
                anchor="middle",
                valign="top",
            )
        )
    y += len(xlabel_lines) * LEADING * s.label
    if title_lines:
        title_top = top - TITLE_PAD - len(title_lines) * LEADING * s.title
        texts.append(
            Text(
                width / 2,
                title_top,
                tuple(title_lines),
                s.title,
                "title",
                anchor="middle",
                valign="top",
            )
        )
    shown: list[str] = []
    if rows:
        y = _place_legend(rows, y + GAP + 2.0, s.legend, texts, shown)
    total = max(y + MARGIN, bottom + tick_text + MARGIN)
    return Chart(frame, tuple(axes), tuple(texts), math.ceil(total), tuple(shown))


def _legend_rows(
    legend: Sequence[tuple[str, Key]],
    width: float,
    size: float,
    max_columns: int = 2,
) -> tuple[list[list[tuple[float, tuple[str, ...], Key, int]]], float]:
    """The legend's rows (x of each key, its text's lines): as many entries a
    row as fit across the picture (at most ``max_columns``), centred; and its
    height (with the gap above it)."""
    if not legend:
        return [], 0.0
    key = (HANDLE_LENGTH + HANDLE_PAD) * size
    room = width - 2 * MARGIN
    widths = [key + text_width(text, size) for text, _ in legend]
    gap = COLUMN_GAP * size
    for columns in range(min(max_columns, len(legend)), 0, -1):
        column_widths = [max(widths[c::columns]) for c in range(columns)]
        if sum(column_widths) + gap * (columns - 1) <= room:
            break
    else:
        columns, column_widths = 1, [room]
    total = sum(column_widths) + gap * (columns - 1)
    x0 = max(MARGIN, (width - total) / 2)
    lefts = [x0 + sum(column_widths[:c]) + gap * c for c in range(columns)]
    rows: list[list[tuple[float, tuple[str, ...], Key, int]]] = []
    height = 0.0
    for start in range(0, len(legend), columns):
        row = []
        for c, (text, shape) in enumerate(legend[start : start + columns]):
            lines = wrap_lines(text, column_widths[c] - key, size)
            row.append((lefts[c], lines, shape, start + c))
        rows.append(row)
        height += max(len(r[1]) for r in row) * LEADING * size + ROW_GAP * size
    return rows, height + GAP + 2.0


def _place_legend(
    rows: list[list[tuple[float, tuple[str, ...], Key, int]]],
    y: float,
    size: float,
    out: list[Item],
    shown: list[str],
) -> float:
    """The legend's items, its first row's top at ``y``; returns its bottom."""
    for row in rows:
        for x, lines, key, index in row:
            _legend_entry(out, x, y, lines, key, index, size)
            shown.append(" ".join(lines))
        y += max(len(entry[1]) for entry in row) * LEADING * size
        y += ROW_GAP * size
    return y


def legend_items(
    legend: Sequence[tuple[str, Key]],
    width: float,
    top: float,
    size: float,
    *,
    max_columns: int = 2,
) -> tuple[list[Item], float, list[str]]:
    """A legend across a picture ``width`` wide, its first row's top at
    ``top``: its items (``legend-key-<i>``, ``legend-text-<i>``), its
    bottom and its texts as shown.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> entries = [("P(a better)", Key("patch", "#D55E00")),
    ...            ("P(rope)", Key("patch", "#BFD7EA"))]
    >>> with paper_style():
    ...     items, bottom, shown = legend_items(entries, 300.0, 10.0, 7.0)
    >>> shown, [item.gid for item in items][:2]
    (['P(a better)', 'P(rope)'], ['legend-key-0', 'legend-text-0'])
    """
    rows, _ = _legend_rows(legend, width, size, max_columns)
    out: list[Item] = []
    shown: list[str] = []
    bottom = _place_legend(rows, top, size, out, shown)
    return out, bottom, shown


def _legend_entry(
    out: list[Item],
    x: float,
    y: float,
    lines: tuple[str, ...],
    key: Key,
    index: int,
    size: float,
) -> None:
    middle = y + 0.45 * size  # the first line's middle
    end = x + HANDLE_LENGTH * size
    if key.kind == "dot":
        centre = x + HANDLE_LENGTH * size / 2
        out.append(Dot(centre, middle, 0.8 * size, f"legend-key-{index}", key.color))
    elif key.kind == "ring":
        centre = x + HANDLE_LENGTH * size / 2
        out.append(ring(centre, middle, 0.4 * size, f"legend-key-{index}", key))
    elif key.kind == "patch":
        out.append(
            Rect(
                x,
                middle - 0.35 * size,
                HANDLE_LENGTH * size,
                0.7 * size,
                f"legend-key-{index}",
                fill=key.color,
            )
        )
        if key.opacity < 1:  # a translucent patch: as its colour over white
            out[-1] = Area(
                (
                    (x, middle - 0.35 * size),
                    (end, middle - 0.35 * size),
                    (end, middle + 0.35 * size),
                    (x, middle + 0.35 * size),
                ),
                f"legend-key-{index}",
                fill=key.color,
                opacity=key.opacity,
            )
    else:
        out.append(
            Stroke(
                ((x, middle), (end, middle)),
                key.width,
                f"legend-key-{index}",
                color=key.color,
                dash=key.dash,
            )
        )
    out.append(
        Text(
            x + (HANDLE_LENGTH + HANDLE_PAD) * size,
            y,
            lines,
            size,
            f"legend-text-{index}",
            valign="top",
        )
    )


def ring(x: float, y: float, radius: float, gid: str, key: Key) -> Stroke:
    """An open circle (a closed polyline of 16 sides) of ``key``'s colour
    and line width."""
    turns = np.linspace(0.0, 2 * math.pi, 17)
    points = zip(
        (x + radius * np.cos(turns)).tolist(),
        (y + radius * np.sin(turns)).tolist(),
        strict=True,
    )
    return Stroke(tuple(points), key.width, gid, color=key.color, cap="round")
