r"""How a table fits a venue: the measuring half of the LaTeX renderer.

The rule is stated in :mod:`nbstats.results.render_latex`, which writes the
LaTeX of the layout chosen here: the font size, which columns wrap (``X``),
how wide the header boxes are, whether the table spans both columns of a
two-column page, how it is split into blocks of columns, and how tall each
row is. Widths come from :mod:`nbstats.results.font_metrics` (the venue
font's own advance widths); everything else is left to TeX.

Examples
--------
>>> from nbstats.results.table_model import from_frame
>>> import pandas as pd
>>> t = from_frame(pd.DataFrame({"p": [0.5]}, index=["a"]))
>>> from nbstats.results.venues import get_venue
>>> plans, wide = layout(t, get_venue("ieee"), "times")
>>> plans[0].size.pt, plans[0].wrap, wide
(10.0, [False, False], False)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from nbstats.results.font_metrics import quad_pt, text_width_em
from nbstats.results.table_model import Cell, Table
from nbstats.results.venues import Venue

__all__ = [
    "FLOAT_FILL",
    "HEADER_MAX_EM",
    "LINE_FACTOR",
    "MIN_SIZE_PT",
    "NAME_MIN_EM",
    "REPORT_PAGE",
    "SLACK",
    "TABCOLSEP",
    "Column",
    "Plan",
    "Size",
    "cell_width",
    "float_room",
    "heights",
    "layout",
    "measure",
    "pieces",
    "plan_block",
    "sizes",
]

#: Natural break points of a name (as :func:`render_latex.breakable` sets
#: them): after ``, ; / = _``, after a ``(`` inside a word, camel case.
BREAKS = re.compile(r"(?<=[,;/=_])(?=\S)|(?<=\S\()(?=\S)|(?<=[a-z])(?=[A-Z])")

#: No table is set smaller than this (pt).
MIN_SIZE_PT = 8.0
#: A text column narrower than this (em) is never made to wrap.
NAME_MIN_EM = 6.0
#: A number column's header box is at most this wide (em) beyond its numbers.
HEADER_MAX_EM = 6.0
#: Each text line is counted this much taller than the font's size: the
#: baseline skip (about 1.2 of it), rows a little more.
LINE_FACTOR = 1.25
#: The height a float may fill, as a share of the text height.
FLOAT_FILL = 0.85
#: Room kept on each line for what the width estimate leaves out (kerning,
#: a bold number), as a share of the width.
SLACK = 0.97
#: The page of nbstats' own PDF report (A4, 11 pt, 1 in margins): its tables
#: are this renderer's too, set for that page.
REPORT_PAGE = Venue(
    "report", r"\documentclass[11pt,a4paper]{article}", 453.0, 453.0, 11.0, False
)
#: Text heights (pt) of the venues, read from the classes like their widths.
TEXT_HEIGHT = {
    "article": 550.0,
    "twocolumn": 550.0,
    "ieee": 672.0,
    "acm": 626.0,
    "report": 700.0,
}
#: \tabcolsep of the venues' classes (pt), where not 6 pt.
TABCOLSEP = {"acm": 5.0}
#: \tabcolsep of a table set smaller than the body text (pt).
SMALL_SEP = 4.0


def pieces(text: str) -> list[str]:
    """The parts of ``text`` that no natural break point divides."""
    return [p for p in BREAKS.sub(" ", text).split() if p] or [""]


@dataclass(frozen=True)
class Size:
    command: str  # "" (the body size), "\small", "\footnotesize"
    pt: float
    sep: float  # \tabcolsep


def sizes(venue: Venue) -> list[Size]:
    """The venue's body size and its ``\\small`` and ``\\footnotesize``, not
    below :data:`MIN_SIZE_PT`."""
    body = venue.font_size_pt
    steps = {9.0: (8.0, 7.0), 10.0: (9.0, 8.0), 11.0: (10.0, 9.0), 12.0: (10.95, 10.0)}
    small, foot = steps.get(body, (body - 1, body - 2))
    sep = TABCOLSEP.get(venue.name, 6.0)
    sizes = [Size("", body, sep), Size("\\small", small, SMALL_SEP)]
    sizes.append(Size("\\footnotesize", foot, SMALL_SEP))
    return [s for s in sizes if s.pt >= MIN_SIZE_PT] or sizes[:1]


@dataclass
class Column:
    """One column measured at one size (widths in em of that size)."""

    text: bool  # words: may wrap
    natural: float  # widest cell or header at its natural width
    least: float  # the narrowest it may be set
    header_box: float  # a number column's header box width (0: none)


def cell_width(cell: Cell, font: str, size: float) -> float:
    return text_width_em(cell.text, font, size_pt=size, bold=cell.bold)


def measure(table: Table, font: str, size: float) -> list[Column]:
    columns = []
    for j, head in enumerate(table.header):
        cells = [row[j] for row in table.rows]
        text = any(not c.numeric for c in cells)  # words (numbers too) may wrap
        data = max((cell_width(c, font, size) for c in cells), default=0.0)
        whole = cell_width(head, font, size)
        if text:
            parts = pieces(head.text)
            word = max(text_width_em(p, font, size_pt=size) for p in parts)
            natural = max(data, whole)
            least = min(natural, max(NAME_MIN_EM, word))
            columns.append(Column(True, natural, least, 0.0))
            continue
        if whole <= data or head.label is not None:
            columns.append(Column(False, max(data, whole), max(data, whole), 0.0))
            continue
        widest = max(text_width_em(p, font, size_pt=size) for p in pieces(head.text))
        # a little wider than measured: the same box at another size (the
        # report's page) holds its words too; in Computer Modern's wider em
        box = max(data, min(widest, HEADER_MAX_EM)) * 1.04
        wide = box * quad_pt(font, size) / size
        columns.append(Column(False, wide, wide, box))
    return columns


@dataclass
class Plan:
    """How one block of columns is set: which columns wrap (``X``), at what
    size, and how tall each row is (lines)."""

    columns: list[int]
    wrap: list[bool]
    size: Size
    heights: list[float]  # pt: the header, then each row
    box: dict[int, float]  # header boxes (em)
    font: str = "computer-modern"
    share: float = math.inf  # the width of each X column (em)

    def tex_em(self, em: float, *, at_least: bool = False) -> str:
        """A width in em of this size as a LaTeX length in ``em`` of the
        font. pdflatex's Computer Modern has an em (quad) wider than its
        size, xelatex's Latin Modern not: a width the text must not exceed is
        written for the wider em (never too wide), one the text must fit in
        (``at_least``) for the narrower (never too narrow)."""
        if at_least:
            return f"{em:.2f}em"
        return f"{em * self.size.pt / quad_pt(self.font, self.size.pt):.2f}em"

    @property
    def narrowest(self) -> float:
        """The width (em of this size) an X or p column may take at least, in
        either engine (a p column is written in the wider em)."""
        return self.share * SLACK * self.size.pt / quad_pt(self.font, self.size.pt)

    def too_wide(self, limit: float) -> Callable[[str], bool]:
        """Whether a piece of text is wider than ``limit`` em at this size."""
        return lambda piece: (
            text_width_em(piece, self.font, size_pt=self.size.pt) > limit
        )


def plan_block(
    table: Table,
    cols: list[int],
    measured: list[Column],
    size: Size,
    line: float,
    font: str,
) -> Plan | None:
    """The block ``cols`` set in ``line`` pt at ``size``, or None if it does
    not fit."""
    em = size.pt
    seps = 2 * size.sep * (len(cols) - 1)
    room = line * SLACK - seps
    natural = sum(measured[j].natural for j in cols) * em
    wrap = [False] * len(cols)
    share = math.inf
    if natural > room:
        wrap = [measured[j].text and measured[j].natural > NAME_MIN_EM for j in cols]
        fixed = (
            sum(measured[j].natural for j, w in zip(cols, wrap, strict=True) if not w)
            * em
        )
        n_x = sum(wrap)
        if not n_x:
            return None
        share = (room - fixed) / n_x
        if any(
            w and share < measured[j].least * em
            for j, w in zip(cols, wrap, strict=True)
        ):
            return None
    boxes = {j: measured[j].header_box for j in cols if measured[j].header_box}
    tall = heights(table, cols, measured, size, wrap, room, font)
    return Plan(cols, wrap, size, tall, boxes, font, share / em)


def heights(
    table: Table,
    cols: list[int],
    measured: list[Column],
    size: Size,
    wrap: list[bool],
    room: float,
    font: str,
) -> list[float]:
    """The height of the header and of each row, in pt."""
    em = size.pt
    fixed = (
        sum(measured[j].natural for j, w in zip(cols, wrap, strict=True) if not w) * em
    )
    share = (room - fixed) / max(sum(wrap), 1)

    def lines(cell: Cell, width: float) -> int:
        need = cell_width(cell, font, size.pt) * em * 1.15
        return max(1, math.ceil(need / max(width, 1.0)))

    line = LINE_FACTOR * em
    heads = [
        lines(table.header[j], share if w else measured[j].natural * em)
        for j, w in zip(cols, wrap, strict=True)
    ]
    rows = [
        max(
            (lines(row[j], share) for j, w in zip(cols, wrap, strict=True) if w),
            default=1,
        )
        for row in table.rows
    ]
    return [max(heads) * line + 4.0, *(r * line for r in rows)]


def blocks(
    table: Table, measured: list[Column], size: Size, line: float, font: str
) -> list[Plan] | None:
    """The columns in as few, and as even, blocks as fit ``line`` (each
    repeating the first column when it holds the rows' labels)."""
    n = len(measured)
    first = [0] if table.stub else []
    rest = list(range(1 if table.stub else 0, n))
    for k in range(2, len(rest) + 1):
        per = -(-len(rest) // k)
        groups = [first + rest[i : i + per] for i in range(0, len(rest), per)]
        plans = [plan_block(table, g, measured, size, line, font) for g in groups]
        if all(plans):
            return plans
    return None


def layout(
    table: Table, venue: Venue, font: str, column_only: bool = False
) -> tuple[list[Plan], bool]:
    """The blocks (one, unless the table is split by columns) and whether
    they span both columns of the page (never with ``column_only``)."""
    widths = [(venue.column_width_pt, False)]
    if venue.two_column and not column_only:
        widths.append((venue.text_width_pt, True))
    ladder = sizes(venue)
    limit = float_room(table, venue)
    chosen: list[tuple[Plan, bool]] = []
    for line, wide in widths:
        fitting = []
        for size in ladder:
            measured = measure(table, font, size.pt)
            plan = plan_block(
                table, list(range(len(measured))), measured, size, line, font
            )
            if plan is not None:
                fitting.append(plan)
        if fitting:
            one = [p for p in fitting if sum(p.heights) <= limit]
            # one float at the largest size that allows it; else the smallest
            chosen.append((one[0] if one else fitting[-1], wide))
    if chosen:
        # the column, unless both columns hold it in less page: names that
        # wrap on many lines in a column take more than twice the height
        plan, wide = chosen[0]
        if len(chosen) > 1 and sum(plan.heights) > 2 * sum(chosen[1][0].heights):
            plan, wide = chosen[1]
        return [plan], wide
    line, wide = widths[-1]
    size = ladder[-1]
    measured = measure(table, font, size.pt)
    plans = blocks(table, measured, size, line, font)
    if plans is None:  # nothing narrower is possible: every column on its own
        plans = [
            plan_block(table, [0, j] if table.stub else [j], measured, size, 1e9, font)
            for j in range(1 if table.stub else 0, len(measured))
        ]
    return [p for p in plans if p is not None], wide


def float_room(table: Table, venue: Venue) -> float:
    """The height (pt) the rows of one float may take: the text height less
    the caption, its notes and the space around them."""
    height = TEXT_HEIGHT.get(venue.name, venue.text_width_pt * 1.3)
    caption = str(table.caption or "") + " ".join(table.notes)
    chars_per_line = venue.column_width_pt / (0.5 * venue.font_size_pt)
    caption_lines = math.ceil(len(caption) / chars_per_line * 1.2) + 1
    return height * FLOAT_FILL - caption_lines * 1.2 * venue.font_size_pt - 24.0
