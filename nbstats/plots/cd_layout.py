"""The critical-difference diagram's geometry, computed once for every renderer.

:func:`cd_layout` turns a post-hoc result into a :class:`CDLayout`: every
line, dot and text of the diagram (Demšar 2006, Figure 1) with its position in
points, measured with the font metrics of the font it will be set in
(:func:`nbstats.plots.labels.text_width`, FreeType through matplotlib). Three
renderers draw it and compute nothing of their own: matplotlib
(:func:`nbstats.plots.cd_diagram`), TikZ (:func:`nbstats.plots.cd_tikz`) and
SVG (:func:`nbstats.plots.cd_svg.layout_svg`).

Coordinates are points (1/72.27 in for TeX, 1/72 in for matplotlib: the
difference, 0.4 %, is below any text's measuring error), x to the right and y
downwards from the top left corner of the picture. Nothing is drawn outside
``[0, width] × [0, height]``.

The picture's parts, in order from the top: the critical difference as a bar
with its value above it, the rank axis with its tick labels above it, the
rows of group lines (or the control's band), the names — the better half on
the best side, one row each, joined to their mean rank by a stem — then the
caption (the test and α) and the key of the letters (when names are replaced
by letters).

Names that fit neither as written nor wrapped
(:func:`~nbstats.plots.labels.fit_names`) become letters A, B, …, listed in
the key; tick labels are thinned
to a step (1, 2, 5, 10, …) at which no two of them, measured, come closer than
one em, and an end of the axis is labelled only when its label keeps that
distance from its neighbour.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from nbstats.plots._cd_caption import cd_caption
from nbstats.plots.figure_model import Dot, Stroke, Text, float_room
from nbstats.plots.labels import MIN_FONT, fit_names, text_width, wrap_text
from nbstats.plots.protocols import is_kind
from nbstats.plots.style import MUTED, literal
from nbstats.scores.aliases import AliasOption

__all__ = [
    "CDLayout",
    "Dot",
    "Stroke",
    "Text",
    "cd_layout",
    "float_room",
    "rank_ticks",
]


PAD = 2.0  # around the picture
TICK_LENGTH = 3.0
TICK_PAD = 1.5
GROUP_WIDTH = 2.2  # line width of group lines
ROW_STEP = 4.6  # between rows of group lines
MARK = 4.5  # diameter of dots (points)
NAME_GAP = 3.0  # from a stem's end to its name
STEM_RUN = 8.0  # the stems' horizontal run beyond the axis' ends
SMALL = MIN_FONT  # ticks, the CD's value, the caption, the key


@dataclass(frozen=True)
class CDLayout:
    """Everything the diagram draws, in points (see the module's notes).

    ``body_height`` is the height without the key; ``key_outside`` says the
    key was left out of the picture (it would have made it taller than
    ``max_height``): its entries are in ``key`` for a table of their own.
    ``rank_x`` gives the x of a mean rank: ``x = rank_x[0] + rank_x[1] *
    rank``. ``ticks`` are the labelled ranks, ``minor_ticks`` the others;
    ``axis_y`` the height of the rank axis. ``key`` lists ``"A: name"``
    entries of the letters used, ``key_columns`` how many columns they take
    in ``width`` (their rows start at ``key_y``).
    """

    width: float
    height: float
    rank_x: tuple[float, float]
    first: int
    last: int
    axis_y: float
    ticks: tuple[int, ...]
    minor_ticks: tuple[float, ...]
    strokes: tuple[Stroke, ...]
    dots: tuple[Dot, ...]
    texts: tuple[Text, ...]
    labels: tuple[str, ...]
    aliases: dict[str, str] | None
    fontsize: float
    key: tuple[str, ...] = ()
    key_texts: tuple[Text, ...] = ()
    key_y: float = 0.0
    caption: str = ""
    names: tuple[str, ...] = field(default=())
    body_height: float = 0.0
    key_outside: bool = False

    def x_of(self, rank: float) -> float:
        """The x (points) of a mean rank."""
        return self.rank_x[0] + self.rank_x[1] * rank

    def rank_of(self, x: float) -> float:
        """The mean rank at x (points), beyond the axis too."""
        return (x - self.rank_x[0]) / self.rank_x[1]


class _Content:
    """What the diagram shows, from the result (no positions)."""

    def __init__(self, result: Any, *, reverse: bool, show_cd: bool) -> None:
        self.result = result
        self.reverse = reverse
        ranks = result.mean_ranks
        self.names = [str(a) for a in ranks.index]
        self.ranks = np.asarray(ranks, dtype=float)
        self.m = len(self.names)
        if self.m < 2:
            raise ValueError("a CD diagram needs at least two algorithms.")
        self.index = {name: j for j, name in enumerate(self.names)}
        is_posthoc = is_kind(result, "posthoc")
        self.control = result.control if is_posthoc else None
        cd = result.critical_difference if is_posthoc else None
        self.cd = None if cd is None or not math.isfinite(cd) else float(cd)
        self.show_cd = show_cd and self.cd is not None
        self.band = self.control is not None and self.cd is not None
        self.marks = self.control is not None and self.cd is None
        self.groups = [] if self.control is not None else list(result.groups)
        self.first, self.last = self._axis_range()
        self.group_rows = self._group_rows()

    def _axis_range(self) -> tuple[int, int]:
        """Whole ranks around the observed mean ranks, holding the CD bar."""
        first = max(1, math.floor(float(self.ranks.min()) + 1e-9))
        last = min(self.m, math.ceil(float(self.ranks.max()) - 1e-9))
        need = max(1, math.ceil(self.cd - 1e-9)) if self.show_cd else 1
        while last - first < need and (last < self.m or first > 1):
            if last < self.m:
                last += 1
            if last - first < need and first > 1:
                first -= 1
        return first, last

    def span(self, group: Any) -> tuple[float, float]:
        values = [self.ranks[self.index[str(a)]] for a in group]
        return min(values), max(values)

    def _group_rows(self) -> list[int | None]:
        """Row of each group line: greedy interval colouring with a margin."""
        margin = 0.025 * (self.last - self.first)
        order = sorted(
            (i for i, g in enumerate(self.groups) if len(g) > 1),
            key=lambda i: (self.span(self.groups[i]), i),
        )
        rows: list[list[tuple[float, float]]] = []
        assigned: list[int | None] = [None] * len(self.groups)
        for i in order:
            lo, hi = self.span(self.groups[i])
            for r, taken in enumerate(rows):
                if all(lo > b + margin or hi < a - margin for a, b in taken):
                    taken.append((lo, hi))
                    assigned[i] = r
                    break
            else:
                rows.append([(lo, hi)])
                assigned[i] = len(rows) - 1
        return assigned

    def caption(self, control_label: str | None = None) -> str:
        return cd_caption(self.result, self.control, self.marks, control_label)


def rank_ticks(
    first: int, last: int, x_of: Any, fontsize: float
) -> tuple[list[int], list[float]]:
    """Labelled and unlabelled ticks of the rank axis ``first``..``last``.

    The step is the smallest of 1, 2, 5, 10, 20, 25, 50, … at which the
    labels (multiples of the step), measured at ``fontsize``, keep one em
    between them; the axis' ends are labelled too when their labels keep that
    distance: the ends are always labelled, and a multiple of the step too
    close to one of them is not (the ticks "36" and "37" never collide).

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> with paper_style():
    ...     rank_ticks(1, 4, lambda r: 40.0 * r, 8)[0]
    ...     rank_ticks(13, 37, lambda r: 4.0 * r, 8)[0]
    [1, 2, 3, 4]
    [13, 20, 25, 30, 37]
    >>> with paper_style():
    ...     rank_ticks(1, 37, lambda r: 6.0 * r, 8)[0]
    [1, 5, 10, 15, 20, 25, 30, 37]
    """
    gap = fontsize

    def half(r: int) -> float:
        return text_width(str(r), fontsize) / 2

    def apart(a: int, b: int) -> bool:
        return abs(x_of(a) - x_of(b)) >= half(a) + half(b) + gap

    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10**9):
        majors = [r for r in range(first, last + 1) if r % step == 0]
        if all(apart(a, b) for a, b in itertools.pairwise(majors)):
            break
    # both ends labelled: a multiple of the step too close to one gives way
    inner = [r for r in majors if r not in (first, last)]
    inner = [r for r in inner if apart(first, r) and apart(r, last)]
    majors = [first, *inner, last] if apart(first, last) else [last]
    if step == 1:
        minors = [k + 0.5 for k in range(first, last)]
    else:
        minors = [float(k) for k in range(first, last + 1) if k not in majors]
    return majors, minors


def cd_layout(
    result: Any,
    width: float,
    *,
    reverse: bool = False,
    show_cd: bool = True,
    fontsize: float = 8.0,
    min_fontsize: float = MIN_FONT,
    aliases: AliasOption = "auto",
    caption: bool = True,
    key: bool = True,
    max_height: float | None = None,
) -> CDLayout:
    """The diagram of ``result`` laid out ``width`` points wide.

    Widths are measured in the font matplotlib sets text in now: call it
    inside :func:`~nbstats.plots.style.paper_style` (the renderers do). Names
    get at most 30 % of the width on each side, as written, wrapped onto two
    lines (up to 20 algorithms, one line beyond) or as letters with a key;
    ``caption`` adds the test and α under the names, ``key`` the letters'
    key under it -- unless the picture would then be taller than
    ``max_height`` points (a float's room on a page): the key is then left
    out and listed in :attr:`CDLayout.key`, for the paper's caption or a
    table of its own (:func:`nbstats.plots.tikz.cd_key_latex`).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.style import paper_style
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"), alpha=0.10)
    >>> with paper_style():
    ...     layout = cd_layout(res, 238.0)
    >>> layout.ticks, [t.lines[0] for t in layout.texts if t.gid == "cd-text"]
    ((1, 2, 3, 4), ['CD = 1.12'])
    >>> 0 < min(s.points[0][0] for s in layout.strokes) < layout.width
    True
    """
    c = _Content(result, reverse=bool(reverse), show_cd=bool(show_cd))
    weight = "bold" if c.control is not None else "normal"
    fitted = fit_names(
        c.names,
        0.3 * width - NAME_GAP - STEM_RUN,
        fontsize=fontsize,
        min_fontsize=min(min_fontsize, fontsize),
        # many names: one line each (a long one gets a letter), since one
        # wrapped name would double the height of every row
        max_lines=2 if c.m <= 20 else 1,
        weight=weight,
        aliases=aliases,
    )
    order = sorted(range(c.m), key=lambda j: (c.ranks[j], j))
    n_best = math.ceil(c.m / 2)
    best, worst = order[:n_best], order[n_best:][::-1]
    sides = (worst, best) if reverse else (best, worst)  # (right, left)
    edges, rank_x = _axis_x(c, fitted, weight, sides, width)
    parts = _Parts()

    def x_of(rank: float) -> float:
        return rank_x[0] + rank_x[1] * rank

    axis_y = parts.top(c, x_of)
    ticks, minors = rank_ticks(c.first, c.last, x_of, SMALL)
    rows_y = parts.groups(c, x_of, axis_y)
    below = rows_y[-1] + 5.5 if rows_y else axis_y + 7.0
    bottom = parts.names(c, fitted, sides, edges, x_of, axis_y, below)
    caption_text = ""
    if caption:
        control = None
        if c.control is not None:
            control = literal(c.control)
            if fitted.aliases and c.control in fitted.aliases:
                control = fitted.label(c.control).replace("\n", " ")
        caption_text = str(wrap_text(c.caption(control), width - 8, SMALL, force=True))
        bottom += 4.0
        lines = tuple(caption_text.split("\n"))
        parts.texts.append(
            Text(
                width / 2,
                bottom,
                lines,
                SMALL,
                "caption",
                anchor="middle",
                valign="top",
                color="#4D4D4D",
            )
        )
        bottom += 1.2 * SMALL * len(lines)
    entries = tuple(fitted.key()) if fitted.aliases else ()
    key_texts: tuple[Text, ...] = ()
    body, key_y, outside = bottom, bottom + 3.0, False
    if entries and key:
        key_texts = _key(entries, width, key_y)
        bottom = max(t.y + 1.2 * SMALL * len(t.lines) for t in key_texts)
        if max_height is not None and bottom + PAD > max_height:
            key_texts, bottom, outside = (), body, True
    return CDLayout(
        body_height=body + PAD,
        key_outside=outside,
        width=float(width),
        height=bottom + PAD,
        rank_x=rank_x,
        first=c.first,
        last=c.last,
        axis_y=axis_y,
        ticks=tuple(ticks),
        minor_ticks=tuple(minors),
        strokes=tuple(parts.strokes),
        dots=tuple(parts.dots),
        texts=tuple(parts.texts),
        labels=tuple(fitted.labels),
        aliases=fitted.aliases,
        fontsize=fitted.fontsize,
        key=entries,
        key_texts=key_texts,
        key_y=key_y,
        caption=caption_text,
        names=tuple(c.names),
    )


def _axis_x(
    c: _Content,
    fitted: Any,
    weight: str,
    sides: tuple[list[int], list[int]],
    width: float,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The stems' ends (left, right) and the rank axis' map ``x = a + b r``:
    the axis runs between the stems' ends, which leave room for the names
    and for half of the end tick labels."""
    size = fitted.fontsize

    def widest(members: list[int]) -> float:
        # + 3 %: a raster at a screen's resolution hints glyphs wider than
        # their outlines (a PDF or SVG sets them at their measured width)
        return 1.03 * max(
            (text_width(fitted.labels[j], size, weight=weight) for j in members),
            default=0.0,
        )

    right_side, left_side = sides
    ends = text_width(str(c.last), SMALL) / 2 + 1.0
    left_edge = max(PAD + widest(left_side) + NAME_GAP, ends - STEM_RUN + PAD)
    right_edge = min(
        width - PAD - widest(right_side) - NAME_GAP, width - ends + STEM_RUN - PAD
    )
    x0, x1 = left_edge + STEM_RUN, right_edge - STEM_RUN
    if x1 - x0 < 0.2 * width:  # names wider than measured room: keep an axis
        x0, x1 = 0.4 * width, 0.6 * width
    scale = (x1 - x0) / (c.last - c.first)
    if c.reverse:  # best (rank 1) on the left
        return (left_edge, right_edge), (x0 - c.first * scale, scale)
    return (left_edge, right_edge), (x1 + c.first * scale, -scale)


class _Parts:
    """The strokes, dots and texts of a diagram, added part by part."""

    def __init__(self) -> None:
        self.strokes: list[Stroke] = []
        self.dots: list[Dot] = []
        self.texts: list[Text] = []

    def top(self, c: _Content, x_of: Any) -> float:
        """The CD bar with its value (if shown); the axis' height."""
        tick_block = SMALL * 1.2 + TICK_PAD + TICK_LENGTH
        if not c.show_cd:
            return PAD + tick_block
        y_cd = PAD + SMALL * 1.2 + 2.5
        start = float(c.last) if not c.reverse else float(c.first)
        end = start - c.cd if not c.reverse else start + c.cd
        self.strokes.append(
            Stroke(
                ((x_of(start), y_cd), (x_of(end), y_cd)),
                1.0,
                "cd-bar",
                ranks=(start, end),
            )
        )
        for x in (start, end):
            self.strokes.append(
                Stroke(((x_of(x), y_cd - 2), (x_of(x), y_cd + 2)), 0.7, "cd-bar-end")
            )
        self.texts.append(
            Text(
                (x_of(start) + x_of(end)) / 2,
                y_cd - 2.5,
                (f"CD = {c.cd:.2f}",),
                SMALL,
                "cd-text",
                anchor="middle",
                valign="bottom",
            )
        )
        return y_cd + 4.0 + tick_block

    def groups(self, c: _Content, x_of: Any, axis_y: float) -> list[float]:
        """The group lines (or the control's band); the heights of their rows."""
        n_rows = max((r + 1 for r in c.group_rows if r is not None), default=0)
        if c.band:
            n_rows = 1
        rows_y = [axis_y + 5.5 + r * ROW_STEP for r in range(n_rows)]
        for i, group in enumerate(c.groups):
            xs = sorted(c.ranks[c.index[str(a)]] for a in group)
            row = c.group_rows[i]
            if row is None:  # a group of one: nothing to join (kept for its gid)
                points = tuple((x_of(x), axis_y) for x in xs)
                self.strokes.append(
                    Stroke(
                        points,
                        GROUP_WIDTH,
                        f"group-{i}",
                        visible=False,
                        ranks=tuple(xs),
                    )
                )
                continue
            lo, hi = xs[0], xs[-1]
            members = {str(a) for a in group}
            skips = any(
                lo <= r <= hi and name not in members
                for name, r in zip(c.names, c.ranks, strict=True)
            )
            y = rows_y[row]
            points = tuple((x_of(x), y) for x in xs)
            self.strokes.append(
                Stroke(
                    points, GROUP_WIDTH, f"group-{i}", cap="projecting", ranks=tuple(xs)
                )
            )
            if skips or hi == lo:
                self.dots += [Dot(px, y, MARK, f"group-{i}-member") for px, _ in points]
        if c.band:
            centre = c.ranks[c.index[str(c.control)]]
            lo_x, hi_x = sorted((x_of(c.first), x_of(c.last)))
            ends = (centre - c.cd, centre + c.cd)
            self.strokes.append(
                Stroke(
                    tuple((x_of(e), rows_y[0]) for e in ends),
                    GROUP_WIDTH + 0.8,
                    "control-band",
                    color=MUTED,
                    clip=(lo_x, hi_x),
                    ranks=ends,
                )
            )
        return rows_y

    def names(
        self,
        c: _Content,
        fitted: Any,
        sides: tuple[list[int], list[int]],
        edges: tuple[float, float],
        x_of: Any,
        axis_y: float,
        below: float,
    ) -> float:
        """The names, one row each, joined to their mean ranks by stems; the
        bottom of the last row."""
        size, lines = fitted.fontsize, fitted.lines
        lead = 0.35 if lines > 1 else 0.1  # a line of text is ~1.2 em
        spacing = (1.2 * lines + lead) * size
        rejected = set()
        if c.marks:
            rejected = {str(n) for n, flag in c.result.reject.items() if bool(flag)}
        for members, on_right in ((sides[0], True), (sides[1], False)):
            edge = edges[1] if on_right else edges[0]
            for row, j in enumerate(members):
                y = below + 0.6 * size + row * spacing
                x = x_of(c.ranks[j])
                self.strokes.append(
                    Stroke(
                        ((x, axis_y), (x, y), (edge, y)),
                        0.7 if c.m <= 12 else 0.55,
                        f"stem-{j}",
                        ranks=(c.ranks[j], c.ranks[j], None),
                    )
                )
                self.texts.append(
                    Text(
                        edge + (NAME_GAP if on_right else -NAME_GAP),
                        y,
                        tuple(fitted.labels[j].split("\n")),
                        size,
                        f"label-{j}",
                        anchor="start" if on_right else "end",
                        bold=c.names[j] == c.control,
                    )
                )
                if c.names[j] in rejected:
                    inward = edge - 5.0 if on_right else edge + 5.0
                    self.dots.append(Dot(inward, y, MARK, f"significant-{j}"))
        rows = max(len(sides[0]), len(sides[1]))
        return below + 0.6 * size + (rows - 1) * spacing + 0.6 * lines * size


def _key(entries: tuple[str, ...], width: float, top: float) -> tuple[Text, ...]:
    """The key's entries in as many columns as fit, filled one after the
    other (as a reader scans), each wrapped to its column."""
    gap = 1.2 * SMALL
    room = width - 2 * PAD
    widest = max(text_width(entry, SMALL) for entry in entries)
    ncol = max(1, min(len(entries), int((room + gap) // (widest + gap))))
    column = (room + gap) / ncol - gap
    wrapped = [str(wrap_text(e, column, SMALL, force=True)) for e in entries]
    per_column = math.ceil(len(wrapped) / ncol)
    out = []
    for k in range(ncol):
        y = top
        for entry in wrapped[k * per_column : (k + 1) * per_column]:
            lines = tuple(entry.split("\n"))
            out.append(
                Text(
                    PAD + k * (column + gap),
                    y,
                    lines,
                    SMALL,
                    "key",
                    valign="top",
                )
            )
            y += 1.2 * SMALL * len(lines) + 0.25 * SMALL
    return tuple(out)
