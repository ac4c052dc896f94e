"""The pairwise heat map's geometry, computed once for every renderer.

:func:`heatmap_layout` turns a post-hoc result (or a joint Bayesian one) into
a :class:`HeatLayout`: a :class:`~nbstats.plots.figure_model.Picture` of
coloured cells, their numbers, the marks of significant (or accepted) pairs,
the names of the rows and columns and a colour bar, in points (x to the
right, y down from the top left corner), every text measured once with
:func:`nbstats.plots.labels.text_width` in the font the figure is set in.
matplotlib draws it for papers (:func:`nbstats.plots.pairwise_heatmap`, via
:func:`~nbstats.plots.picture_mpl.draw_picture`); an SVG renderer may draw the
same picture.

The design, from the least room to the most:

- the picture is never wider than ``width`` nor (given ``max_height``, e.g. a
  venue's :func:`~nbstats.plots.figure_model.float_room`) taller than
  ``max_height``; no text is under 8 pt, or 7 pt when a height limit would
  otherwise thin out the rows in a figure set for a venue (7 pt is the
  least a venue's figure prints);
- row names take at most 30 % of the width: as written, wrapped onto two
  lines, or — the names that fit neither way — as letters ``A``, ``B``, …
  listed in a key (``key``) under the figure;
- cells at least a line of text wide are square and the columns are named
  under the map (flat when the names fit a cell, else upright, read bottom
  to top);
- narrower cells are as tall as a line: each row's name ends in its rank
  ``(k)`` and the columns are numbered by rank under the map, every k-th
  number (1, 2, 5, 10, … apart: as an axis is labelled) when two would
  touch; the blank diagonal joins each column to its row;
- rows too many for ``max_height`` even at 7 pt are shorter than a line and
  named every k-th row in the same way;
- a cell's number is printed by the number policy
  (:func:`nbstats.results.number_policy.format_column`: three decimals,
  ``< 0.001``; a posterior probability never as 0 or 1, ``> 0.999``) when the
  widest number fits every cell, else left out (the colour and the cell's
  tooltip keep the value);
- against a control, the map is one column (the control) and a row for each
  other algorithm, so that every name is written once, flat.

Item ``gid`` s: ``fill-<row>-<column>`` (the cells, tooltip: the pair and
its value), ``cell-<row>-<column>`` (their numbers),
``significant-<row>-<column>`` and ``equivalent-<row>-<column>`` (the
marks), ``row-<k>`` and ``column-<k>`` (names or rank numbers),
``control`` (the control's name), ``colorbar-<i>`` (the bar's slices),
``colorbar-tick-<i>`` and ``colorbar-text-<i>``, ``colorbar-label``,
``alpha-line``, ``title``. Rows and columns are named as in the result
(``cell-<row>-<column>`` of a control result has the control as its row).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from nbstats.plots.figure_model import Item, Picture, Rect, Stroke, Text
from nbstats.plots.labels import MIN_FONT, Fitted, fit_names, text_width, wrap_text
from nbstats.plots.matrix_layout import BOX, LEADING, text_box, text_lines
from nbstats.plots.pairwise_data import HeatContent, check_kind, heatmap_matrix
from nbstats.plots.style import INK, literal
from nbstats.scores.aliases import AliasOption

__all__ = [
    "LEAST_FONT",
    "HeatLayout",
    "heatmap_layout",
    "text_box",
]  # text_box: re-export

#: The least font size of a figure set for a venue (points).
LEAST_FONT = 7.0
PAD = 2.0  # around the picture
GAP = 4.0  # between names and the map, the map and the bar
CELL_MAX = 48.0  # two algorithms need no full page
BAR = 7.0  # the colour bar's width
TICK = 2.5
SLICES = 64  # the colour bar's slices
SEPARATION = 0.15  # between two lines' boxes, in ems
STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
_LABEL_SHARE = 0.3


@dataclass(frozen=True)
class HeatLayout:
    """The heat map's picture and what callers and tests need of it.

    ``rows`` and ``columns`` are the result's names in the map's order (a
    control result: ``rows`` is the control alone, drawn as the one column,
    ``transposed`` True); ``origin`` the map's top left corner and ``cell``
    a cell's width and height (points); ``fontsize`` the size of every name;
    ``numbers`` whether the cells print their values; ``key`` the entries
    ``"A: name"`` of the letters shown (drawn under the figure by the
    renderer); ``labels`` the label shown for each name.
    """

    picture: Picture
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    origin: tuple[float, float]
    cell: tuple[float, float]
    fontsize: float
    numbers: bool
    transposed: bool
    key: tuple[str, ...]
    labels: dict[str, str]
    kind: str

    def cell_box(self, i: int, j: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the cell of result row ``i``, column ``j``."""
        if self.transposed:
            i, j = j, i
        x0, y0 = self.origin
        w, h = self.cell
        return x0 + j * w, y0 + i * h, w, h


def heatmap_layout(
    result: Any,
    width: float,
    *,
    kind: str | None = None,
    max_height: float | None = None,
    annotate: bool = True,
    aliases: AliasOption = "auto",
    title: bool = False,
    least_font: float | None = None,
) -> HeatLayout:
    """The heat map of ``result`` in ``width`` points (see the module notes).

    Parameters
    ----------
    result : PosthocResult, BayesPosthocResult or BayesSignedRankPairsResult
        As for :func:`nbstats.plots.pairwise_heatmap`.
    width : float
        The widest the picture may be (points).
    kind : {"pvalues", "unadjusted", "probabilities"}, optional
        What the cells hold (the result's default when None).
    max_height : float, optional
        The tallest the picture may be (points), e.g. a venue's
        :func:`~nbstats.plots.figure_model.float_room`; None: as tall as
        one line a row needs. The key is not part of the picture.
    annotate : bool
        Print each cell's value when it fits.
    aliases : "auto", bool or mapping
        As for :func:`~nbstats.plots.labels.fit_names`.
    title : bool
        Write the test and what a frame means over the map.
    least_font : float, optional
        A font size under 8 pt (e.g. :data:`LEAST_FONT`, for a venue) the
        names may take when the rows would not otherwise fit
        ``max_height`` one line each.

    Returns
    -------
    HeatLayout

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.style import paper_style
    >>> res = nbstats.comparison_matrix(nbstats.datasets.load("demsar2006"))
    >>> with paper_style():
    ...     lay = heatmap_layout(res, 238.0)
    >>> lay.rows
    ('C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5')
    >>> [t.lines for t in lay.picture.items if t.gid == "cell-C4.5-C4.5+m"]
    [('0.047',)]
    >>> lay.picture.width <= 238.0, lay.fontsize
    (True, 8.0)
    """
    kind = check_kind(result, kind)
    values, marked, control = heatmap_matrix(result, kind)
    content = HeatContent(result, kind, values, marked, control, title)
    sizes = (MIN_FONT,)
    if max_height is not None and least_font is not None and least_font < MIN_FONT:
        sizes = (MIN_FONT, float(least_font))
    for size in sizes:
        grid = _Grid(content, float(width), max_height, size, aliases, annotate)
        if grid.row_step == 1 or size == sizes[-1]:
            break
    return grid.layout()


class _Grid:
    """Positions for one font size (see the module notes)."""

    def __init__(
        self,
        c: HeatContent,
        width: float,
        max_height: float | None,
        size: float,
        aliases: AliasOption,
        annotate: bool,
    ) -> None:
        self.c, self.width, self.size = c, width, size
        self.transposed = c.control is not None
        # the map's rows and columns, as drawn
        self.shown_rows = c.columns if self.transposed else c.rows
        self.n_rows = len(self.shown_rows)
        self.n_cols = 1 if self.transposed else len(c.columns)
        self.title_lines: list[str] = []
        if c.title:
            wrapped = wrap_text(literal(c.title), width - 2 * PAD, MIN_FONT, force=True)
            self.title_lines = str(wrapped).split("\n")
        top = PAD + (
            LEADING * len(self.title_lines) * MIN_FONT + 4.0
            if self.title_lines
            else 0.0
        )
        self.fitted = self._fit(aliases, width)
        self.header_lines: list[str] = []
        if self.transposed:  # the control's name over its column
            label = self.fitted.label(c.control)
            one = f"control: {label}"
            self.header_lines = (
                [one] if "\n" not in label else ["control:", *label.split("\n")]
            )
            n = len(self.header_lines)
            top += (LEADING * (n - 1) + BOX + SEPARATION) * size
        # the colour bar's end labels stand half a line over the map
        self.top = max(top, PAD) + (BOX / 2 + SEPARATION) * size
        self._bar_room()
        self.numbered = False
        self.row_step = 1
        self.column_step = 1
        self.row_first = self.column_first = True
        self.bar_lines = 2  # the bar's label on two lines, or one if it fits
        self._place(max_height, aliases)
        if text_width(c.bar_label, size) <= self.n_rows * self.cell_h:
            self.bar_lines = 1  # the map only grows: the label still fits
            self.fitted = self._fit(aliases, width)
            self.row_step, self.column_step = 1, 1
            self.row_first = self.column_first = True
            self.numbered = False
            self._place(max_height, aliases)
        self.numbers = annotate and self._numbers_fit()

    # -- sizes ---------------------------------------------------------------

    def pitch(self, lines: int) -> float:
        """The height ``lines`` lines of a name need, with their separation."""
        return (LEADING * (lines - 1) + BOX + SEPARATION) * self.size

    def _fit(
        self, aliases: AliasOption, width: float, suffix: str = "", max_lines: int = 2
    ) -> Fitted:
        room = _LABEL_SHARE * width - text_width(suffix, self.size)
        return fit_names(
            self.c.order,
            room,
            fontsize=self.size,
            min_fontsize=self.size,
            max_lines=1 if suffix else max_lines,
            aliases=aliases,
        )

    def _bar_room(self) -> None:
        """The colour bar's tick labels and its label's width."""
        s = self.size
        self.tick_texts = {t: f"{t:g}" for t in self.c.ticks}
        self.tick_width = max(text_width(x, s) for x in self.tick_texts.values())
        self.bar_room = BAR + TICK + 1.5 + self.tick_width + GAP

    def bar_width(self) -> float:
        """The colour bar's width, its label on ``bar_lines`` lines."""
        return self.bar_room + LEADING * self.bar_lines * self.size + PAD

    def _place(self, max_height: float | None, aliases: AliasOption) -> None:
        c, s = self.c, self.size
        if self.transposed:
            self.row_labels = [self.fitted.label(n) for n in self.shown_rows]
            self.label_width = max(text_width(x, s) for x in self.row_labels)
            lines = self.fitted.lines
            room = self.width - PAD - self.label_width - GAP - GAP - self.bar_width()
            cell = min(CELL_MAX, max(room, 1.0))
            self.cell_w = cell
            self.cell_h = max(self.pitch(lines), min(cell, 2.0 * self.pitch(1)))
            self.below = PAD
            self._limit_rows(max_height, self.pitch(lines))
            self.column_labels: list[str] = []
            self.rotated = False
            return
        # square cells with names on two lines, else on one (letters for some)
        if self._square(max_height):
            return
        if self.fitted.lines > 1:
            self.fitted = self._fit(aliases, self.width, max_lines=1)
            if self._square(max_height):
                return
        # numbered: one line a name and its rank after it
        n = len(c.columns)
        self.numbered = True
        self.fitted = self._fit(aliases, self.width, f" ({n})")
        self.row_labels = [
            f"{self.fitted.label(name)} ({k})" for k, name in enumerate(c.rows, 1)
        ]
        self.label_width = max(text_width(x, s) for x in self.row_labels)
        room = self.width - PAD - self.label_width - GAP - GAP - self.bar_width()
        self.cell_w = min(CELL_MAX, max(room, 1.0) / n)
        self.cell_h = self.pitch(1)
        self.column_labels = [str(k) for k in range(1, n + 1)]
        self.rotated = False
        number = text_width(str(n), s) + 0.3 * s
        self.column_step = _step(number, self.cell_w)
        self.column_first = (self.column_step - 1) * self.cell_w >= number
        self.below = GAP + self.pitch(1) + PAD
        self._limit_rows(max_height, self.pitch(1))

    def _square(self, max_height: float | None) -> bool:
        """Square cells at least as tall as a name, the columns named under
        the map (flat when every name fits a cell, else upright); False
        when the cells would be smaller."""
        c, s = self.c, self.size
        self.row_labels = [self.fitted.label(n) for n in c.rows]
        self.label_width = max(text_width(x, s) for x in self.row_labels)
        lines = self.fitted.lines
        room = self.width - PAD - self.label_width - GAP - GAP - self.bar_width()
        cell = min(CELL_MAX, max(room, 1.0) / self.n_cols)
        flat_width = max(text_width(self.fitted.label(n), s) for n in c.columns)
        if max_height is not None:  # the names under it at their longest
            longest = GAP + max(flat_width, self.pitch(1)) + PAD
            cell = min(cell, (max_height - self.top - longest) / self.n_rows)
        if cell < self.pitch(lines):
            return False
        flat = lines == 1 and flat_width + 0.3 * s <= cell
        self.cell_w = self.cell_h = cell
        self.column_labels = [self.fitted.label(n) for n in c.columns]
        self.rotated = not flat
        self.below = GAP + (self.pitch(1) if flat else flat_width) + PAD
        return True

    def _limit_rows(self, max_height: float | None, pitch: float) -> None:
        """Rows shorter than a line when ``max_height`` asks: named every
        k-th row."""
        if max_height is None:
            return
        room = (max_height - self.top - self.below) / self.n_rows
        if room < self.cell_h:
            self.cell_h = room
            self.row_step = _step(pitch, room)
            self.row_first = (self.row_step - 1) * room >= pitch

    def _numbers_fit(self) -> bool:
        texts = [t for t in self.c.texts.ravel() if t]
        if not texts:
            return False
        widest = max(text_width(t, self.size, weight="bold") for t in set(texts))
        return (
            widest + 0.25 * self.size <= 0.84 * self.cell_w  # inside a frame
            and (BOX + 2 * SEPARATION) * self.size <= 0.84 * self.cell_h
        )

    # -- the picture -----------------------------------------------------------

    def layout(self) -> HeatLayout:
        c, s = self.c, self.size
        x0 = PAD + self.label_width + GAP
        y0 = self.top
        w, h = self.cell_w, self.cell_h
        map_w, map_h = w * self.n_cols, h * self.n_rows
        items: list[Item] = []
        items += self._cells(x0, y0)
        items += self._names(x0, y0, map_w, map_h)
        right = self._bar(items, x0 + map_w + GAP, y0, map_h)
        if right <= self.width + 1e-6:  # a cell is the room's share: rounding
            right = min(right, self.width)
        bottom = y0 + map_h + self.below
        bottom = max(
            bottom,
            *(
                text_box(t)[3] + PAD
                for t in items
                if t.gid.startswith("colorbar-") and isinstance(t, Text)
            ),
        )
        if self.title_lines:  # centred on the picture
            widest = max(text_width(line, MIN_FONT) for line in self.title_lines)
            right = min(self.width, max(right, widest + 2 * PAD))
            title = "\n".join(self.title_lines)
            y = PAD + BOX / 2 * MIN_FONT
            items += text_lines(
                right / 2, y, title, MIN_FONT, "title", anchor="middle", top=True
            )
        picture = Picture(
            right,
            bottom,
            tuple(items),
            f"Heat map of {c.bar_label} for {len(set(c.rows) | set(c.columns))} "
            "algorithms, ordered by mean rank",
        )
        labels = {name: self.fitted.label(name) for name in c.order}
        return HeatLayout(
            picture,
            c.rows,
            c.columns,
            (x0, y0),
            (w, h),
            s,
            self.numbers,
            self.transposed,
            tuple(self.fitted.key()),
            labels,
            c.kind,
        )

    def _cells(self, x0: float, y0: float) -> list[Item]:
        c, w, h = self.c, self.cell_w, self.cell_h
        cells: list[Item] = []
        texts: list[Item] = []
        marks: list[Item] = []
        inset = 0.25 if min(w, h) >= 8 else 0.0  # white grid lines
        frame = min(w, h) >= 5  # smaller cells: a frame would hide the colour
        for i, j in np.ndindex(*c.data.shape):
            value = c.data[i, j]
            if math.isnan(value):
                continue
            x, y = (
                (x0 + i * w, y0 + j * h)
                if self.transposed
                else (x0 + j * w, y0 + i * h)
            )
            pair = f"{c.rows[i]}-{c.columns[j]}"
            fill = c.fills[i, j]
            light = _luminance(fill) > 0.408
            cells.append(
                Rect(
                    x + inset,
                    y + inset,
                    w - 2 * inset,
                    h - 2 * inset,
                    f"fill-{pair}",
                    fill=fill,
                    tooltip=c.tooltip(i, j),
                )
            )
            if self.numbers:
                texts.append(
                    Text(
                        x + w / 2,
                        y + h / 2,
                        (c.texts[i, j],),
                        self.size,
                        f"cell-{pair}",
                        anchor="middle",
                        bold=bool(c.marked[i, j]),
                        color=INK if light else "#ffffff",
                    )
                )
            if not frame:
                continue
            a, b, fw, fh = x + 0.08 * w, y + 0.08 * h, 0.84 * w, 0.84 * h
            line = min(1.0, min(w, h) / 8)
            if c.marked[i, j]:
                marks.append(
                    Rect(
                        a,
                        b,
                        fw,
                        fh,
                        f"significant-{pair}",
                        fill="none",
                        edge=INK if light else "#ffffff",
                        edge_width=line,
                    )
                )
            if c.equivalent[i, j]:
                corners = ((a, b), (a + fw, b), (a + fw, b + fh), (a, b + fh), (a, b))
                marks.append(
                    Stroke(
                        corners, line, f"equivalent-{pair}", color=INK, dash=(2.0, 1.5)
                    )
                )
        return cells + marks + texts

    def _names(self, x0: float, y0: float, map_w: float, map_h: float) -> list[Item]:
        s, h, w = self.size, self.cell_h, self.cell_w
        items: list[Item] = []
        for k, label in enumerate(self.row_labels):
            if _labelled(k + 1, self.row_step, self.row_first):
                y = y0 + (k + 0.5) * h
                items += text_lines(x0 - GAP, y, label, s, f"row-{k}", anchor="end")
        if self.transposed:  # the control's name over its column
            lines = self.header_lines
            last = y0 - (BOX / 2 + 2 * SEPARATION) * s - BOX / 2 * s
            y = last - LEADING * (len(lines) - 1) * s / 2
            items += text_lines(x0, y, "\n".join(lines), s, "control", anchor="start")
            return items
        top = y0 + map_h + GAP
        for k, label in enumerate(self.column_labels):
            if not _labelled(k + 1, self.column_step, self.column_first):
                continue
            x = x0 + (k + 0.5) * w
            if self.rotated:  # read bottom to top, ending at the map
                items += text_lines(
                    x, top, label, s, f"column-{k}", anchor="end", rotation=90.0
                )
            else:
                y = top + BOX / 2 * s
                items += text_lines(
                    x, y, label, s, f"column-{k}", anchor="middle", top=True
                )
        return items

    def _bar(self, items: list[Item], x: float, y0: float, map_h: float) -> float:
        """The colour bar beside the map (as tall as the map, or as its label
        on two lines needs); returns the picture's right edge."""
        c, s = self.c, self.size
        lines = [c.bar_label]
        long = text_width(c.bar_label, s)
        if long > map_h:
            wrapped = wrap_text(c.bar_label, 0.6 * long, s, max_lines=2, force=True)
            lines = str(wrapped).split("\n")
        height = max(map_h, max(text_width(line, s) for line in lines))
        step = height / SLICES
        for k in range(SLICES):  # from the top (value 1) down
            fraction = 1.0 - (k + 0.5) / SLICES
            items.append(
                Rect(
                    x,
                    y0 + k * step,
                    BAR,
                    step + 0.05,
                    f"colorbar-{k}",
                    fill=_hex(c.cmap(fraction)),
                )
            )

        def y_of(value: float) -> float:
            return y0 + height * (1.0 - float(c.norm(value)))

        kept: list[float] = []
        for t in c.ticks:  # thinned: two labels at least a line apart
            if all(abs(y_of(t) - y_of(u)) >= self.pitch(1) for u in kept):
                kept.append(t)
        for k, t in enumerate(sorted(kept)):
            y = y_of(t)
            items.append(
                Stroke(((x + BAR, y), (x + BAR + TICK, y)), 0.6, f"colorbar-tick-{k}")
            )
            items.append(
                Text(
                    x + BAR + TICK + 1.5,
                    y,
                    (self.tick_texts[t],),
                    s,
                    f"colorbar-text-{k}",
                )
            )
        if c.alpha is not None:
            y = y_of(c.alpha)
            items.append(Stroke(((x, y), (x + BAR, y)), 1.0, "alpha-line"))
        centre = x + self.bar_room + LEADING * len(lines) * s / 2
        items += text_lines(
            centre,
            y0 + height / 2,
            "\n".join(lines),
            s,
            "colorbar-label",
            anchor="middle",
            rotation=90.0,
        )
        return centre + LEADING * len(lines) * s / 2 + PAD


def _labelled(k: int, step: int, first: bool) -> bool:
    """Whether number ``k`` (1-based) is written at ``step``: its multiples,
    and 1 when ``first`` (its label clears the first multiple's)."""
    return k % step == 0 or (k == 1 and first)


def _step(need: float, per: float) -> int:
    """The least of 1, 2, 5, 10, … items apart at which texts ``need`` points
    long do not touch, items being ``per`` points apart."""
    for step in STEPS:
        if step * per >= need - 1e-9:
            return step
    return STEPS[-1]


def _hex(rgba: Any) -> str:
    from matplotlib.colors import to_hex

    return to_hex(rgba)


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG 2.0) of a ``#rrggbb`` colour."""
    channels = [int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5)]
    linear = [
        v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in channels
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
