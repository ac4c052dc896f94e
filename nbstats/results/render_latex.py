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
   labels, as many and as even as the text width needs (8 pt): in one float
   when they fit it together, else one float each ("(continued)"), so that
   no block starts at a page's foot.

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

import re
from collections.abc import Callable

from nbstats.results.font_metrics import font_of
from nbstats.results.formatting import (
    RTL_LETTER,
    Label,
    escape_latex,
    to_latex,
    visual_order,
)
from nbstats.results.latex_fit import (
    MIN_SIZE_PT,
    REPORT_PAGE,
    SLACK,
    TABCOLSEP,
    Plan,
    float_room,
    layout,
    measure,
    plan_block,
    sizes,
)
from nbstats.results.table_model import Cell, Table
from nbstats.results.venues import Venue, get_venue

__all__ = ["MIN_SIZE_PT", "REPORT_PAGE", "breakable", "latex", "number_latex"]

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


def _cell_latex(cell: Cell, plan: Plan, wrap: bool) -> str:
    if cell.label is not None:
        out = cell.label.latex
    elif cell.numeric:
        out = number_latex(cell.text)
    elif wrap:
        out = breakable(cell.text, plan.too_wide(plan.narrowest))
    else:
        out = escape_latex(cell.text)
    return f"\\textbf{{{out}}}" if cell.bold else out


def _header_latex(cell: Cell, plan: Plan, box: float, align: str, wrap: bool) -> str:
    if box:
        text = breakable(cell.text, plan.too_wide(box))
        width = plan.tex_em(box, at_least=True)
        return f"\\parbox[b]{{{width}}}{{{align}\\hspace{{0pt}}{text}\\strut}}"
    if wrap and cell.label is None:
        return breakable(cell.text, plan.too_wide(plan.narrowest))
    return to_latex(cell.label if cell.label is not None else cell.text)


_RAGGED = ">{\\raggedright\\arraybackslash}X"


def _rows(table: Table, plan: Plan, rows: range) -> list[str]:
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


def _spec(table: Table, plan: Plan, pad: str = "@{}") -> str:
    kinds = table.kinds
    letters = [
        _RAGGED if w else ("l" if kinds[j] in ("text", "name") else "r")
        for j, w in zip(plan.columns, plan.wrap, strict=True)
    ]
    return pad + "".join(letters) + pad


def _head(table: Table, plan: Plan) -> str:
    kinds = table.kinds
    cells = []
    for j, w in zip(plan.columns, plan.wrap, strict=True):
        align = "\\raggedright" if kinds[j] in ("text", "name") else "\\raggedleft"
        box = plan.box.get(j, 0.0)
        cells.append(_header_latex(table.header[j], plan, box, align, w))
    return " & ".join(cells) + r" \\"


def _setup(plan: Plan, venue: Venue) -> str:
    """Font size, column gap and no hyphens in names, for one block."""
    out = plan.size.command
    if plan.size.sep != TABCOLSEP.get(venue.name, 6.0):
        out += f"\\setlength{{\\tabcolsep}}{{{plan.size.sep:g}pt}}"
    if any(plan.wrap) or plan.box:
        out += "\\hyphenpenalty=10000\\exhyphenpenalty=10000"
    return out


def _tabular(table: Table, plan: Plan, rows: range) -> str:
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
    table: Table, plan: Plan, venue: Venue, first: bool, notes: list[str]
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


def _p_spec(table: Table, plan: Plan) -> str:
    """The column spec with ``p`` columns for the ``X`` ones, as wide."""
    width = plan.tex_em(plan.share * SLACK)
    return _spec(table, plan).replace(
        _RAGGED, f">{{\\raggedright\\arraybackslash}}p{{{width}}}"
    )


def _supertabular(
    table: Table, plan: Plan, venue: Venue, first: bool, notes: list[str]
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
    table: Table, plans: list[Plan], wide: bool, venue: Venue, limit: float
) -> list[str] | None:
    """A long, narrow table as two halves side by side in one float (each
    half's rows under the header), when each half fits half the line and the
    float; else None."""
    if len(plans) != 1 or len(table.rows) < 2:
        return None
    line = (venue.text_width_pt if wide else venue.column_width_pt) * _HALF
    font, cols = plans[0].font, plans[0].columns
    middle = -(-len(table.rows) // 2)
    for size in sizes(venue):
        measured = measure(table, font, size.pt)
        plan = plan_block(table, cols, measured, size, line, font)
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
    plan = Plan(cols, [False] * len(cols), sizes(venue)[0], [0.0], {})
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
    plans, wide = layout(table, venue, font_of(venue.name))
    every = range(len(table.rows))
    if not float_env:
        setup = _setup(plans[0], venue)
        body = "\n".join(_tabular(table, p, every) for p in plans)
        return (f"{{{setup}\n{body}\n}}" if setup else body) + "\n"
    limit = float_room(table, venue)
    if sum(sum(p.heights) + 12.0 for p in plans) <= limit + 12.0:
        body = [_setup(plans[0], venue)]
        for k, plan in enumerate(plans):
            body += ["\\par\\medskip"] if k else []
            body.append(_tabular(table, plan, every))
        return "\n".join(_float(table, [*body, *_notes(table)], wide, True)) + "\n"
    halves = _halves(table, plans, wide, venue, limit)
    if halves is not None:
        return "\n".join(_float(table, [*halves, *_notes(table)], wide, True)) + "\n"
    if len(plans) > 1 and all(sum(p.heights) <= limit for p in plans):
        # blocks of columns that each fit a float: one float each, in order
        # (a float never breaks, so no block starts with one row at a foot)
        out: list[str] = []
        for k, plan in enumerate(plans):
            notes = _notes(table) if k == len(plans) - 1 else []
            body = [_setup(plan, venue), _tabular(table, plan, every), *notes]
            out += _float(table, body, wide, not out)
        return "\n".join(out) + "\n"
    if venue.two_column:  # long: in the column, flowing from column to column
        plans, _ = layout(table, venue, font_of(venue.name), column_only=True)
    out = []
    for k, plan in enumerate(plans):
        notes = _notes(table) if k == len(plans) - 1 else []
        if venue.two_column:
            out += _supertabular(table, plan, venue, not out, notes)
        else:
            out += _longtable(table, plan, venue, not out, notes)
    return "\n".join(out) + "\n"
