r"""How a LaTeX results table fits the page: wrap, smaller type, split, longtable.

The layout behind :func:`nbstats.results.render.latex_table` and every
result's ``to_latex()`` with ``fit=True``. Widths are estimated in characters
of about half an em (:func:`chars`), for a 10pt article whose text block is
some 68 of them:

1. a table that fits the line stays as it is; else long names wrap (line
   breaks after ``( , = _``, between camel-case words and, in a long word,
   every few characters) and long headers of number columns break between
   words, at 10, 9 or 8 pt, the first size that fits;
2. a table still too wide (names that would wrap narrower than
   :data:`MIN_WRAP` characters at 8 pt) is split into parts of columns, each
   repeating the first column;
3. a table longer than :data:`LONG_LINES` lines is a ``longtable`` that breaks
   across pages and repeats its header; a shorter one a ``table`` float.

Examples
--------
>>> head = [header_cell(""), header_cell("p")]
>>> print(layout(head, [[text_cell("a_1"), Cell("0.5", "0.500")]], ["l", "r"],
...              None, None, float_env=False, fit=False))
\begin{tabular}{lr}
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
from dataclasses import dataclass

from nbstats.results.formatting import (
    RTL_LETTER,
    Label,
    escape_latex,
    tie_relations,
    to_latex,
    visual_order,
)
from nbstats.results.number_policy import Column

__all__ = [
    "LINE_CHARS",
    "LONG_LINES",
    "MIN_WRAP",
    "PREFERRED_WRAP",
    "Cell",
    "breakable",
    "chars",
    "header_cell",
    "layout",
    "number_latex",
    "text_cell",
    "value_cell",
]

#: The width a table may take before its long text wraps, in characters of
#: about half an em (a 10pt article's text block is some 68 of them).
LINE_CHARS = 66
#: Text cells never wrap narrower than this many characters.
MIN_WRAP = 12
#: A smaller font is taken when text would wrap narrower than this.
PREFERRED_WRAP = 24
#: A fitted table longer than this many lines is a longtable.
LONG_LINES = 36
_EM_PER_CHAR = 0.5
_COLUMN_PAD = 2.4  # \tabcolsep on both sides of a column gap, in characters
#: After ``, ; / = _``, after a ``(`` that opens inside a word (a name's
#: arguments, never "rank (Bayesian": a line may not end in an open
#: parenthesis), and between camel-case words.
_BREAKS = re.compile(r"(?<=[,;/=_])(?=\S)|(?<=\S\()(?=\S)|(?<=[a-z])(?=[A-Z])")


@dataclass(frozen=True)
class Cell:
    """A tabular cell: plain text (for widths), its LaTeX, and whether it is
    text that may wrap (its form with break points is built only then)."""

    plain: str
    latex: str
    wraps: bool = False  # text that may wrap (its breakable form is built then)


def text_cell(text: object) -> Cell:
    if isinstance(text, Label):
        return Cell(str(text), text.latex)
    raw = str(text)
    return Cell(raw, escape_latex(raw), wraps=True)


def header_cell(text: object) -> Cell:
    return Cell(str(text), to_latex(text))


def number_latex(text: str) -> str:
    if text == "—":
        return "--"
    if text.startswith(("<", ">")):
        return f"${text[0]}$" + escape_latex(text[1:])
    return escape_latex(text)


def value_cell(value: object, text: str, column: Column) -> Cell:
    if isinstance(value, Label):
        return Cell(str(value), value.latex)
    if column.numeric:
        return Cell(text, number_latex(text))
    return text_cell(text)


def breakable(text: str, width: int = 0) -> str:
    r"""``text`` escaped, with a break point (``\allowbreak``, no hyphen: a
    name has none) after ``, ; ( / = _`` (a ``(`` only inside a word) and
    between camel-case words, and ties around a relation (``α~=~0.05``); with
    ``width``, a word that would still not fit ``width`` characters (capitals
    run wider than half an em) also gets one every so many characters."""
    pieces, last = [], 0
    text = visual_order(text)  # before it is cut into pieces
    for match in _BREAKS.finditer(text):
        at = match.start()
        pieces.append(_chunked(text[last:at], width))
        pieces.append(r"\allowbreak{}")
        last = at
    pieces.append(_chunked(text[last:], width))
    return tie_relations("".join(pieces))


def _chunked(text: str, width: int) -> str:
    step = max(int(width * 0.7), 4)
    if not width or all(len(word) <= width * 0.8 for word in text.split()):
        return escape_latex(text)
    out = []
    for word in re.split(r"( +)", text):
        if RTL_LETTER.search(word):  # cut, its letters would not join
            out.append(escape_latex(word))
            continue
        parts = [word[k : k + step] for k in range(0, len(word), step)] or [""]
        out.append(r"\allowbreak{}".join(escape_latex(p) for p in parts))
    return "".join(out)


#: Font sizes a fitted table may take, tried in turn, with the factor by which
#: each widens the line in characters (10pt → 9pt → 8pt).
_SIZES = (("", 1.0), ("\\small", 10 / 9), ("\\footnotesize", 10 / 8))


@dataclass
class _Laid:
    """A table laid out for one font size: its cells' LaTeX, estimated width
    (characters) and height (lines)."""

    heads: list[str]
    cells: list[list[str]]
    width: float
    lines: int
    size: str = ""
    wrap: float = math.inf  # the width text wraps at, in characters


def layout(
    header: list[Cell],
    body: list[list[Cell]],
    align: list[str],
    caption: str | None,
    label: str | None,
    *,
    float_env: bool,
    fit: bool,
) -> str:
    """The table's LaTeX: a ``table`` float, a ``longtable``, or the bare
    ``tabular`` (``float_env=False``); fitted to the line with ``fit`` (see
    :func:`nbstats.results.render.latex_table` for the rule). ``caption`` is
    LaTeX already (escaped, with its break points)."""
    if not fit:
        laid = _Laid(
            [h.latex for h in header], [[c.latex for c in r] for r in body], 0, 0
        )
        parts = [(laid, align)]
    else:
        parts = [
            (
                _fit_sizes(
                    [header[j] for j in cols], [[r[j] for j in cols] for r in body]
                ),
                [align[j] for j in cols],
            )
            for cols in _column_parts(header, body)
        ]
    pad = "@{}" if fit else ""
    if not float_env:
        return "\n".join(_tabular(laid, a, pad) for laid, a in parts) + "\n"
    long = fit and any(laid.lines > LONG_LINES for laid, _ in parts)
    if long:
        return "\n".join(
            _longtable(laid, a, pad, caption, label, k, len(parts))
            for k, (laid, a) in enumerate(parts)
        )
    lines = [r"\begin{table}[htbp]", r"\centering"]
    if caption:
        lines.append(r"\caption{" + caption + "}")
    if label:
        lines.append(r"\label{" + label + "}")
    for k, (laid, a) in enumerate(parts):
        if k:
            lines.append(r"\par\medskip")
        lines.append(_tabular(laid, a, pad))
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def _column_parts(header: list[Cell], body: list[list[Cell]]) -> list[list[int]]:
    """The columns of each part of a table split to fit the line at the
    smallest size: all of them when the names need not wrap narrower than
    :data:`MIN_WRAP`, else the first column and as many others as fit."""
    n = len(header)
    scale = _SIZES[-1][1]
    line = LINE_CHARS * scale
    if _fit_sizes(header, body).width <= line or n <= 2:
        return [list(range(n))]
    # at their narrowest: text wraps at MIN_WRAP, a long header breaks
    widths = [
        float(MIN_WRAP)
        if any(r[j].wraps for r in body)
        else max(
            min(chars(header[j].plain), MIN_WRAP) + 1,
            *(chars(r[j].plain) for r in body),
        )
        for j in range(n)
    ]
    first = widths[0]
    parts: list[list[int]] = [[0]]
    used = first
    for j in range(1, n):
        if len(parts[-1]) > 1 and used + _COLUMN_PAD * scale + widths[j] > line:
            parts.append([0])
            used = first
        parts[-1].append(j)
        used += _COLUMN_PAD * scale + widths[j]
    return parts


def _fit_sizes(header: list[Cell], body: list[list[Cell]]) -> _Laid:
    """The table at the largest of 10, 9 and 8 pt at which it fits the line
    (else at 8 pt)."""
    for command, scale in _SIZES:
        laid = _fitted(header, body, LINE_CHARS * scale, scale)
        laid.size = command
        if laid.width <= LINE_CHARS * scale and laid.wrap >= PREFERRED_WRAP:
            break
    return laid


def _tabular(laid: _Laid, align: list[str], pad: str) -> str:
    lines = [
        r"\begin{tabular}{" + pad + "".join(align) + pad + "}",
        r"\toprule",
        " & ".join(laid.heads) + r" \\",
        r"\midrule",
        *(" & ".join(row) + r" \\" for row in laid.cells),
        r"\bottomrule",
        r"\end{tabular}",
    ]
    if laid.size:
        lines = ["{" + laid.size, *lines, "}"]
    return "\n".join(lines)


def _longtable(
    laid: _Laid,
    align: list[str],
    pad: str,
    caption: str | None,
    label: str | None,
    part: int,
    parts: int,
) -> str:
    r"""One part of a long table: a ``longtable`` that repeats its header on
    every page; the first part carries the caption and label, the others an
    unnumbered caption naming the part."""
    head = " & ".join(laid.heads) + r" \\"
    if part == 0:
        title = r"\caption{" + caption + "}" if caption else ""
        title += r"\label{" + label + "}" if label else ""
    else:
        title = rf"\caption*{{Continued: part {part + 1} of {parts}.}}"
    lines = [
        r"\begingroup" + laid.size,
        r"\begin{longtable}{" + pad + "".join(align) + pad + "}",
    ]
    if title:
        lines.append(title + r"\\")
    lines += [
        r"\toprule",
        head,
        r"\midrule",
        r"\endfirsthead",
        r"\toprule",
        head,
        r"\midrule",
        r"\endhead",
        r"\bottomrule",
        r"\endfoot",
        *(" & ".join(row) + r" \\" for row in laid.cells),
        r"\end{longtable}",
        r"\endgroup",
    ]
    if part:  # longtable counts a table even with an unnumbered caption
        lines.append(r"\addtocounter{table}{-1}")
    return "\n".join(lines) + "\n"


def _fitted(
    header: list[Cell], body: list[list[Cell]], line: float, scale: float = 1.0
) -> _Laid:
    """Headers and cells laid out for ``line`` characters, with the estimated
    width and height of the result (``scale``: characters of this font size
    per character at 10pt; the column padding does not shrink with the
    font)."""
    n = len(header)
    columns = [[row[j] for row in body] for j in range(n)]
    data_width = [max((chars(c.plain) for c in col), default=0) for col in columns]
    width = [max(chars(h.plain), w) for h, w in zip(header, data_width, strict=True)]
    heads = [h.latex for h in header]
    cells = [[c.latex for c in row] for row in body]
    pad = _COLUMN_PAD * scale * (n - 1)
    if sum(width) + pad <= line:
        return _Laid(heads, cells, sum(width) + pad, len(body) + 1)
    text_columns = [
        j
        for j, col in enumerate(columns)
        if any(c.wraps and len(c.plain) > MIN_WRAP for c in col)
    ]
    numbers = [j for j in range(n) if j not in text_columns]

    def room() -> float:
        free = line - pad - sum(width[j] for j in numbers)
        return free / max(len(text_columns), 1)

    head_lines = 1
    if not text_columns or room() < MIN_WRAP:
        for j in numbers:  # long headers of number columns break
            words = re.split(r"[\s_(),=]+", header[j].plain)
            # between words; a long word (a name) is broken at MIN_WRAP; one
            # character of slack: "_" and capitals run wider than half an em
            longest = max([min(chars(w), MIN_WRAP) for w in words], default=0)
            narrow = max(data_width[j], longest) + 1
            if narrow < chars(header[j].plain):
                align = r"\raggedright" if j == 0 else r"\raggedleft"
                text = breakable(header[j].plain, int(narrow))
                heads[j] = _parbox("b", narrow, align, text)
                width[j] = narrow
                lines = -(-int(chars(header[j].plain) * 1.3) // int(narrow))
                head_lines = max(head_lines, lines)
    wrap = max(MIN_WRAP, int(room()))
    row_lines = [1] * len(body)
    for j in text_columns:
        for i, cell in enumerate(columns[j]):
            if cell.wraps and len(cell.plain) > wrap:
                text = breakable(cell.plain, wrap)
                cells[i][j] = _parbox("t", wrap, r"\raggedright", text)
                # a word that cannot break at the line's end takes more room
                need = -(-int(len(cell.plain) * 1.3) // wrap)
                row_lines[i] = max(row_lines[i], need)
        width[j] = min(width[j], wrap)
    laid = _Laid(heads, cells, sum(width) + pad, sum(row_lines) + head_lines)
    laid.wrap = wrap if text_columns else math.inf
    return laid


_NARROW = frozenset(" .,:;()[]ilj'!|/")


def chars(text: str) -> float:
    """The width of ``text`` in characters of half an em: capitals and
    symbols count 1.4, narrow characters (``. , ( ) i l`` and spaces) 0.6."""
    return sum(
        0.6 if ch in _NARROW else 1.4 if ch.isupper() or not ch.isalnum() else 1.0
        for ch in text
    )


def _parbox(position: str, chars: float, align: str, latex: str) -> str:
    em = f"{chars * _EM_PER_CHAR:g}em"
    return rf"\parbox[{position}]{{{em}}}{{{align} {latex}\strut}}"
