r"""The LaTeX renderer of the table model, fitted to a venue.

One rule for every table nbstats writes (a result's ``to_latex()``, the
report's tables, ``<stem>_tables/`` and ``<stem>_core/``), for a venue of
:mod:`nbstats.results.venues`:

*Width.* Numbers never wrap: their columns are measured with the real
advance widths of the venue's font (:mod:`nbstats.results.font_metrics`),
and a header wider than its numbers goes in a box as wide as they are,
breaking between words (a name with no space, after ``_ ( , = /``, between
camel-case words and, at a cost, inside a word too long for the box).
Names and other text are *left to TeX*: when the table is too wide at its
natural width, each long text column is an ``X`` column of a ``tabularx``
as wide as the line, so TeX breaks the names in the width that is left
(names are never hyphenated; they break at the same points). The layout
takes the largest body size of the venue's 10, 9 and 8 pt (never smaller
than 8 pt) at which the table fits:

1. the column (``\columnwidth``): a ``table``;
2. on a two-column page, else the whole text width: a ``table*`` spanning
   both columns -- also when, set in the column, its names would wrap onto
   so many lines that it takes more than twice the height it takes across
   both columns (more page);
3. else the table is split into blocks of columns, each repeating the row
   labels, as many and as even as the text width needs (8 pt).

*Height.* A table taller than a float may be (the venue's text height less
room for its caption) is, when it is narrow enough, set as two halves side
by side in one float (each half fits half the line and the float); else it
takes the smallest size that fits its width (fewer pages) and is split by
rows: in a one-column venue as a ``longtable`` (its ``X`` columns as ``p``
columns of their width) that breaks across pages and repeats its header; in a
two-column venue -- where ``longtable`` stops the document, and dozens of
floats overflow LaTeX's list of floats -- as a ``supertabular`` in the
column, which flows from column to column and repeats its header under
"Table n (continued)" (a table too wide for the column is then split into
blocks of columns that fit it). A table that fits one float only at a
smaller size takes that size.

Needs booktabs, and tabularx where a table has ``X`` columns, longtable
(loaded by xltabular) where it is long in one column, supertabular where it
is long in two; compiles under pdflatex and xelatex.

Examples
--------
>>> from nbstats.results.table_model import from_frame
>>> import pandas as pd
>>> t = from_frame(pd.DataFrame({"p": [0.5]}, index=["a_1"]), caption="P.")
>>> print(latex(t, float_env=False))
\begin{tabular}{@{}lr@{}}
\toprule
 & p \\
\midrule
a\_1 & 0.500 \\
\bottomrule
\end{tabular}
<BLANKLINE>
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from nbstats.results.font_metrics import font_of, quad_pt, text_width_em
from nbstats.results.formatting import (
    RTL_LETTER,
    Label,
    escape_latex,
    to_latex,
    visual_order,
)
from nbstats.results.table_model import Cell, Table
from nbstats.results.venues import Venue, get_venue

__all__ = ["MIN_SIZE_PT", "REPORT_PAGE", "breakable", "latex", "number_latex"]

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
_TEXT_HEIGHT = {
    "article": 550.0,
    "twocolumn": 550.0,
    "ieee": 672.0,
    "acm": 626.0,
    "report": 700.0,
}
#: \tabcolsep of the venues' classes (pt), where not 6 pt.
_TABCOLSEP = {"acm": 5.0}
#: \tabcolsep of a table set smaller than the body text (pt).
_SMALL_SEP = 4.0

#: Natural break points of a name: after ``, ; / = _``, after a ``(`` that
#: opens inside a word, and between camel-case words.
_BREAKS = re.compile(r"(?<=[,;/=_])(?=\S)|(?<=\S\()(?=\S)|(?<=[a-z])(?=[A-Z])")
#: A relation before a number (``α = 0.05``, ``p < 0.001``) never breaks
#: across lines; one between names (``A > B``) may.
_VALUE_RELATION = re.compile(
    r" (=|\$[<>]\$|\$\\leq\$|\$\\geq\$|\$\\approx\$|≈) (?=[\d.-]|\$-\$)"
)
#: A break inside a word, taken only where no natural one will do.
_WORD_BREAK = r"\penalty300{}"
_NATURAL_BREAK = r"\allowbreak{}"
#: Characters between two breaks inside a long word.
_CHUNK = 3


def number_latex(text: str) -> str:
    """A number cell's text (number policy) as LaTeX.

    Examples
    --------
    >>> number_latex("< 0.001"), number_latex("—"), number_latex("−1.50")
    ('$<$ 0.001', '--', '$-$1.50')
    """
    if text == "—":
        return "--"
    if text.startswith(("<", ">")):
        return f"${text[0]}$" + escape_latex(text[1:])
    return escape_latex(text)


def breakable(text: str, longest: int | Callable[[str], bool] = 0) -> str:
    r"""``text`` escaped, with a break point (``\allowbreak``, no hyphen: a
    name has none) after ``, ; / = _``, after a ``(`` inside a word and
    between camel-case words, and ties around a relation before a number
    (``α~=~0.05``);
    with ``longest``, a piece longer than that many characters (or for which
    ``longest(piece)`` is true) also gets a costlier break every few
    characters, taken only where no other fits.

    Examples
    --------
    >>> print(breakable("P(a_b better)"))
    P(\allowbreak{}a\_\allowbreak{}b better)
    >>> print(breakable("abcdefgh", 4))
    abc\penalty300{}def\penalty300{}gh
    """
    pieces, last = [], 0
    text = visual_order(text)  # before it is cut into pieces
    for match in _BREAKS.finditer(text):
        pieces.append(_chunked(text[last : match.start()], longest))
        pieces.append(_NATURAL_BREAK)
        last = match.start()
    pieces.append(_chunked(text[last:], longest))
    return _VALUE_RELATION.sub(r"~\1~", "".join(pieces))


def _chunked(text: str, longest: int | Callable[[str], bool]) -> str:
    if not longest:
        return escape_latex(text)
    too_long = longest if callable(longest) else lambda word: len(word) > longest
    if not any(too_long(word) for word in text.split()):
        return escape_latex(text)
    out = []
    for word in re.split(r"( +)", text):
        if not too_long(word) or RTL_LETTER.search(word):
            out.append(escape_latex(word))  # an RTL word: its letters would not join
            continue
        parts = [word[k : k + _CHUNK] for k in range(0, len(word), _CHUNK)]
        out.append(_WORD_BREAK.join(escape_latex(p) for p in parts))
    return "".join(out)


def _pieces(text: str) -> list[str]:
    """The parts of ``text`` that no natural break point divides."""
    return [p for p in _BREAKS.sub(" ", text).split() if p] or [""]


@dataclass(frozen=True)
class _Size:
    command: str  # "" (the body size), "\small", "\footnotesize"
    pt: float
    sep: float  # \tabcolsep


def _sizes(venue: Venue) -> list[_Size]:
    """The venue's body size and its ``\\small`` and ``\\footnotesize``, not
    below :data:`MIN_SIZE_PT`."""
    body = venue.font_size_pt
    steps = {9.0: (8.0, 7.0), 10.0: (9.0, 8.0), 11.0: (10.0, 9.0), 12.0: (10.95, 10.0)}
    small, foot = steps.get(body, (body - 1, body - 2))
    sep = _TABCOLSEP.get(venue.name, 6.0)
    sizes = [_Size("", body, sep), _Size("\\small", small, _SMALL_SEP)]
    sizes.append(_Size("\\footnotesize", foot, _SMALL_SEP))
    return [s for s in sizes if s.pt >= MIN_SIZE_PT] or sizes[:1]


@dataclass
class _Column:
    """One column measured at one size (widths in em of that size)."""

    text: bool  # words: may wrap
    natural: float  # widest cell or header at its natural width
    least: float  # the narrowest it may be set
    header_box: float  # a number column's header box width (0: none)


def _width(cell: Cell, font: str, size: float) -> float:
    return text_width_em(cell.text, font, size_pt=size, bold=cell.bold)


def _measure(table: Table, font: str, size: float) -> list[_Column]:
    columns = []
    for j, head in enumerate(table.header):
        cells = [row[j] for row in table.rows]
        text = any(not c.numeric for c in cells)  # words (numbers too) may wrap
        data = max((_width(c, font, size) for c in cells), default=0.0)
        whole = _width(head, font, size)
        if text:
            pieces = _pieces(head.text)
            word = max(text_width_em(p, font, size_pt=size) for p in pieces)
            natural = max(data, whole)
            least = min(natural, max(NAME_MIN_EM, word))
            columns.append(_Column(True, natural, least, 0.0))
            continue
        if whole <= data or head.label is not None:
            columns.append(_Column(False, max(data, whole), max(data, whole), 0.0))
            continue
        widest = max(text_width_em(p, font, size_pt=size) for p in _pieces(head.text))
        # a little wider than measured: the same box at another size (the
        # report's page) holds its words too; in Computer Modern's wider em
        box = max(data, min(widest, HEADER_MAX_EM)) * 1.04
        wide = box * quad_pt(font, size) / size
        columns.append(_Column(False, wide, wide, box))
    return columns


@dataclass
class _Plan:
    """How one block of columns is set: which columns wrap (``X``), at what
    size, and how tall each row is (lines)."""

    columns: list[int]
    wrap: list[bool]
    size: _Size
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


def _plan(
    table: Table,
    cols: list[int],
    measured: list[_Column],
    size: _Size,
    line: float,
    font: str,
) -> _Plan | None:
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
    heights = _heights(table, cols, measured, size, wrap, room, font)
    return _Plan(cols, wrap, size, heights, boxes, font, share / em)


def _heights(
    table: Table,
    cols: list[int],
    measured: list[_Column],
    size: _Size,
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
        need = _width(cell, font, size.pt) * em * 1.15
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


def _blocks(
    table: Table, measured: list[_Column], size: _Size, line: float, font: str
) -> list[_Plan] | None:
    """The columns in as few, and as even, blocks as fit ``line`` (each
    repeating the first column when it holds the rows' labels)."""
    n = len(measured)
    first = [0] if table.stub else []
    rest = list(range(1 if table.stub else 0, n))
    for k in range(2, len(rest) + 1):
        per = -(-len(rest) // k)
        groups = [first + rest[i : i + per] for i in range(0, len(rest), per)]
        plans = [_plan(table, g, measured, size, line, font) for g in groups]
        if all(plans):
            return plans
    return None


def _layout(
    table: Table, venue: Venue, font: str, column_only: bool = False
) -> tuple[list[_Plan], bool]:
    """The blocks (one, unless the table is split by columns) and whether
    they span both columns of the page (never with ``column_only``)."""
    widths = [(venue.column_width_pt, False)]
    if venue.two_column and not column_only:
        widths.append((venue.text_width_pt, True))
    sizes = _sizes(venue)
    limit = _float_room(table, venue)
    chosen: list[tuple[_Plan, bool]] = []
    for line, wide in widths:
        fitting = []
        for size in sizes:
            measured = _measure(table, font, size.pt)
            plan = _plan(table, list(range(len(measured))), measured, size, line, font)
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
    size = sizes[-1]
    measured = _measure(table, font, size.pt)
    plans = _blocks(table, measured, size, line, font)
    if plans is None:  # nothing narrower is possible: every column on its own
        plans = [
            _plan(table, [0, j] if table.stub else [j], measured, size, 1e9, font)
            for j in range(1 if table.stub else 0, len(measured))
        ]
    return [p for p in plans if p is not None], wide


def _float_room(table: Table, venue: Venue) -> float:
    """The height (pt) the rows of one float may take: the text height less
    the caption, its notes and the space around them."""
    height = _TEXT_HEIGHT.get(venue.name, venue.text_width_pt * 1.3)
    caption = str(table.caption or "") + " ".join(table.notes)
    chars_per_line = venue.column_width_pt / (0.5 * venue.font_size_pt)
    caption_lines = math.ceil(len(caption) / chars_per_line * 1.2) + 1
    return height * FLOAT_FILL - caption_lines * 1.2 * venue.font_size_pt - 24.0


def _cell_latex(cell: Cell, plan: _Plan, wrap: bool) -> str:
    if cell.label is not None:
        out = cell.label.latex
    elif cell.numeric:
        out = number_latex(cell.text)
    elif wrap:
        out = breakable(cell.text, plan.too_wide(plan.narrowest))
    else:
        out = escape_latex(cell.text)
    return f"\\textbf{{{out}}}" if cell.bold else out


def _header_latex(cell: Cell, plan: _Plan, box: float, align: str, wrap: bool) -> str:
    if box:
        text = breakable(cell.text, plan.too_wide(box))
        width = plan.tex_em(box, at_least=True)
        return f"\\parbox[b]{{{width}}}{{{align}\\hspace{{0pt}}{text}\\strut}}"
    if wrap and cell.label is None:
        return breakable(cell.text, plan.too_wide(plan.narrowest))
    return to_latex(cell.label if cell.label is not None else cell.text)


_RAGGED = ">{\\raggedright\\arraybackslash}X"


def _rows(table: Table, plan: _Plan, rows: range) -> list[str]:
    out = []
    for i in rows:
        if i in table.rules and i != rows.start:
            out.append("\\midrule")
        cells = [
            _cell_latex(table.rows[i][j], plan, w)
            for j, w in zip(plan.columns, plan.wrap, strict=True)
        ]
        out.append(" & ".join(cells) + r" \\")
    return out


def _spec(table: Table, plan: _Plan, pad: str = "@{}") -> str:
    kinds = table.kinds
    letters = [
        _RAGGED if w else ("l" if kinds[j] in ("text", "name") else "r")
        for j, w in zip(plan.columns, plan.wrap, strict=True)
    ]
    return pad + "".join(letters) + pad


def _head(table: Table, plan: _Plan) -> str:
    kinds = table.kinds
    cells = []
    for j, w in zip(plan.columns, plan.wrap, strict=True):
        align = "\\raggedright" if kinds[j] in ("text", "name") else "\\raggedleft"
        box = plan.box.get(j, 0.0)
        cells.append(_header_latex(table.header[j], plan, box, align, w))
    return " & ".join(cells) + r" \\"


def _setup(plan: _Plan, venue: Venue) -> str:
    """Font size, column gap and no hyphens in names, for one block."""
    out = plan.size.command
    if plan.size.sep != _TABCOLSEP.get(venue.name, 6.0):
        out += f"\\setlength{{\\tabcolsep}}{{{plan.size.sep:g}pt}}"
    if any(plan.wrap) or plan.box:
        out += "\\hyphenpenalty=10000\\exhyphenpenalty=10000"
    return out


def _tabular(table: Table, plan: _Plan, rows: range) -> str:
    env = "tabularx" if any(plan.wrap) else "tabular"
    width = "{\\linewidth}" if any(plan.wrap) else ""
    return "\n".join(
        [
            f"\\begin{{{env}}}{width}{{{_spec(table, plan)}}}",
            "\\toprule",
            _head(table, plan),
            "\\midrule",
            *_rows(table, plan, rows),
            "\\bottomrule",
            f"\\end{{{env}}}",
        ]
    )


def _caption_latex(table: Table) -> str:
    caption = table.caption
    if isinstance(caption, Label):
        return caption.latex
    return breakable(str(caption), 30) if caption else ""


def _notes(table: Table) -> list[str]:
    if not table.notes:
        return []
    text = " ".join(breakable(n, 30) for n in table.notes)
    return [f"\\par\\smallskip{{\\footnotesize\\raggedright {text}\\par}}"]


def _title(table: Table, first: bool) -> str:
    if first:
        caption = _caption_latex(table)
        out = f"\\caption{{{caption}}}" if caption else ""
        return out + (f"\\label{{{table.label}}}" if table.label else "")
    return "\\addtocounter{table}{-1}\\caption{(continued)}"


def _float(table: Table, body: list[str], wide: bool, first: bool) -> list[str]:
    env = "table*" if wide else "table"
    title = _title(table, first)
    return [
        f"\\begin{{{env}}}{'[tp]' if wide else '[htbp]'}",
        "\\centering",
        *([title] if title else []),
        *(line for line in body if line),
        f"\\end{{{env}}}",
    ]


def _longtable(
    table: Table, plan: _Plan, venue: Venue, first: bool, notes: list[str]
) -> list[str]:
    """One block as a table that breaks across pages (one-column venues): a
    ``longtable`` whose name columns are ``p`` columns as wide as the ``X``
    columns would be (``xltabular`` would set a long table in memory whole,
    several times over)."""
    head = _head(table, plan)
    k = len(plan.columns)
    caption = _caption_latex(table) if first else "(continued)"
    title = f"\\caption{{{caption}}}" if caption else ""
    if first and table.label:
        title += f"\\label{{{table.label}}}"
    return [
        # a longtable steps the table counter: a later block keeps the number
        "\\begingroup"
        + _setup(plan, venue)
        + ("" if first else "\\addtocounter{table}{-1}"),
        f"\\begin{{longtable}}{{{_p_spec(table, plan)}}}",
        *([title + r" \\"] if title else []),
        "\\toprule",
        head,
        "\\midrule",
        "\\endfirsthead",
        f"\\multicolumn{{{k}}}{{@{{}}l}}{{{_CONTINUED}}} \\\\",
        "\\toprule",
        head,
        "\\midrule",
        "\\endhead",
        "\\bottomrule",
        "\\endfoot",
        *_rows(table, plan, range(len(table.rows))),
        "\\end{longtable}",
        *notes,
        "\\endgroup",
    ]


def _p_spec(table: Table, plan: _Plan) -> str:
    """The column spec with ``p`` columns for the ``X`` ones, as wide."""
    width = plan.tex_em(plan.share * SLACK)
    return _spec(table, plan).replace(
        _RAGGED, f">{{\\raggedright\\arraybackslash}}p{{{width}}}"
    )


def _supertabular(
    table: Table, plan: _Plan, venue: Venue, first: bool, notes: list[str]
) -> list[str]:
    """One block as a table that flows from column to column (two-column
    venues, where ``longtable`` stops the document): a ``supertabular``
    whose name columns are ``p`` columns as wide as the ``X`` columns would
    be in the column."""
    head = _head(table, plan)
    k = len(plan.columns)
    caption = _caption_latex(table) if first else "(continued)"
    if first and table.label:
        caption += f"\\label{{{table.label}}}"
    spec = _p_spec(table, plan)
    return [
        "\\par\\begingroup\\centering\\parindent=0pt"
        + _setup(plan, venue)
        + ("" if first else "\\addtocounter{table}{-1}"),
        f"\\tablefirsthead{{\\toprule {head} \\midrule}}",
        f"\\tablehead{{\\multicolumn{{{k}}}{{@{{}}l}}{{{_CONTINUED}}} \\\\ "
        f"\\toprule {head} \\midrule}}",
        "\\tabletail{\\bottomrule}",
        "\\tablelasttail{\\bottomrule}",
        f"\\topcaption{{{caption}}}",
        f"\\begin{{supertabular}}{{{spec}}}",
        *_rows(table, plan, range(len(table.rows))),
        "\\end{supertabular}",
        *notes,
        "\\par\\endgroup\\medskip",
    ]


_CONTINUED = "\\tablename~\\thetable{} (continued)"


#: The gap between the halves of a table set side by side (share of the line).
_HALF = 0.485


def _halves(
    table: Table, plans: list[_Plan], wide: bool, venue: Venue, limit: float
) -> list[str] | None:
    """A long, narrow table as two halves side by side in one float (each
    half's rows under the header), when each half fits half the line and the
    float; else None."""
    if len(plans) != 1 or len(table.rows) < 2:
        return None
    line = (venue.text_width_pt if wide else venue.column_width_pt) * _HALF
    font, cols = plans[0].font, plans[0].columns
    middle = -(-len(table.rows) // 2)
    for size in _sizes(venue):
        measured = _measure(table, font, size.pt)
        plan = _plan(table, cols, measured, size, line, font)
        if plan is None:
            continue
        head, rows = plan.heights[0], plan.heights[1:]
        if max(sum(rows[:middle]), sum(rows[middle:])) + head > limit:
            continue
        box = f"\\begin{{minipage}}[t]{{{_HALF}\\linewidth}}"
        return [
            _setup(plan, venue),
            box,
            _tabular(table, plan, range(middle)),
            "\\end{minipage}\\hfill" + box,
            _tabular(table, plan, range(middle, len(table.rows))),
            "\\end{minipage}",
        ]
    return None


def _natural(table: Table, venue: Venue, float_env: bool) -> str:
    """The table at its natural width, as one float (``fit=False``)."""
    cols = list(range(len(table.header)))
    plan = _Plan(cols, [False] * len(cols), _sizes(venue)[0], [0.0], {})
    tab = _tabular(table, plan, range(len(table.rows))).replace("@{}", "")
    if not float_env:
        return tab + "\n"
    return "\n".join(_float(table, [tab, *_notes(table)], False, True)) + "\n"


def latex(
    table: Table,
    venue: str | Venue = "article",
    *,
    float_env: bool = True,
    fit: bool = True,
) -> str:
    r"""The LaTeX of ``table`` for a paper in ``venue`` (see the module's rule).

    Parameters
    ----------
    table : Table
        From :mod:`nbstats.results.table_model`.
    venue : str or Venue
        ``"article"`` (one column, 10 pt), ``"twocolumn"``, ``"ieee"``,
        ``"acm"`` or a :class:`~nbstats.results.venues.Venue`.
    float_env : bool
        A ``table`` float (or its parts, or a ``longtable``) with caption and
        label; without, the ``tabular`` (or its blocks) alone.
    fit : bool
        Fit the venue (default); ``False`` gives the table at its natural
        width as one float, whatever its size.

    Returns
    -------
    str
    """
    venue = get_venue(venue)
    if not fit:
        return _natural(table, venue, float_env)
    plans, wide = _layout(table, venue, font_of(venue.name))
    every = range(len(table.rows))
    if not float_env:
        setup = _setup(plans[0], venue)
        body = "\n".join(_tabular(table, p, every) for p in plans)
        return (f"{{{setup}\n{body}\n}}" if setup else body) + "\n"
    limit = _float_room(table, venue)
    if sum(sum(p.heights) + 12.0 for p in plans) <= limit + 12.0:
        body = [_setup(plans[0], venue)]
        for k, plan in enumerate(plans):
            body += ["\\par\\medskip"] if k else []
            body.append(_tabular(table, plan, every))
        return "\n".join(_float(table, [*body, *_notes(table)], wide, True)) + "\n"
    halves = _halves(table, plans, wide, venue, limit)
    if halves is not None:
        return "\n".join(_float(table, [*halves, *_notes(table)], wide, True)) + "\n"
    if venue.two_column:  # long: in the column, flowing from column to column
        plans, _ = _layout(table, venue, font_of(venue.name), column_only=True)
    out: list[str] = []
    for k, plan in enumerate(plans):
        notes = _notes(table) if k == len(plans) - 1 else []
        if venue.two_column:
            out += _supertabular(table, plan, venue, not out, notes)
        else:
            out += _longtable(table, plan, venue, not out, notes)
    return "\n".join(out) + "\n"
