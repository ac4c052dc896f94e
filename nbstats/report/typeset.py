"""How the report's tables fit the page, in LaTeX and in HTML.

LaTeX (:func:`latex_longtable`, and :func:`fit_width` for the booktabs floats
of :func:`nbstats.results.render.latex_table` and the results' ``to_latex()``):
every table becomes a ``longtable`` (it breaks across pages and repeats its
header) at the largest font size of 10, 9 or 8 pt at which it fits the text
width, estimated from its characters: at its natural width, else with its
name columns wrapping (an ``xltabular``, names broken after ``_ ( , = /`` and
between camel-case words, never hyphenated), else in column blocks that repeat
the first column ("Table n (continued)"). Nothing is scaled (``\resizebox``
would set a 50-column table in 2 pt type). Needs ``booktabs`` and
``xltabular`` (both in the report's template).

HTML (:func:`mark_name_columns`, :func:`html_breaks`): a column of long names
is marked to wrap flush left, and long words get ``<wbr>`` break points; the
stylesheet does the rest (a table still too wide scrolls in its own box).
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Sequence

__all__ = [
    "break_points",
    "fit_width",
    "html_breaks",
    "latex_longtable",
    "mark_name_columns",
]


_ROW = re.compile(r"<tr\b[^>]*>.*?</tr>", re.DOTALL)
_CELL = re.compile(r"<(t[hd])\b([^>]*)>(.*?)</\1>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
#: A column (after the first) whose text is longer than this (characters)
#: and holds no numbers is a column of names.
NAME_CHARS = 20


def mark_name_columns(markup: str) -> str:
    """Give the cells of a column of names (long text, no ``num`` cell) the
    class ``nbstats-text``: the stylesheet sets it flush left and lets it wrap.

    Examples
    --------
    >>> row = "<tr><th>A</th><td>HistGradientBoostingClassifier()</td></tr>"
    >>> mark_name_columns(f"<table>{row}{row}</table>").count("nbstats-text")
    2
    """
    rows = [_CELL.findall(row) for row in _ROW.findall(markup)]
    if len(rows) < 2:
        return markup
    names = set()
    for j in range(1, max(len(r) for r in rows)):
        cells = [r[j] for r in rows[1:] if len(r) > j]
        texts = [html.unescape(_TAG.sub("", c[2])) for c in cells]
        numbers = any(re.search(r"\bnum\b", c[1]) for c in cells)
        if texts and not numbers and max(len(t) for t in texts) > NAME_CHARS:
            names.add(j)
    if not names:
        return markup

    def mark_row(match: re.Match[str]) -> str:
        column = iter(range(10**9))

        def mark_cell(cell: re.Match[str]) -> str:
            tag, attrs, inner = cell.groups()
            if next(column) not in names:
                return cell.group(0)
            if "class=" in attrs:
                attrs = re.sub(r'class="', 'class="nbstats-text ', attrs, count=1)
            else:
                attrs += ' class="nbstats-text"'
            return f"<{tag}{attrs}>{inner}</{tag}>"

        return _CELL.sub(mark_cell, match.group(0))

    return _ROW.sub(mark_row, markup)


_TEXT_NODE = re.compile(r"(?<=>)[^<]+(?=<)")
_LONG_WORD = re.compile(r"[^\s<>]{19,}")
#: Words shorter than this (characters shown) are left whole in HTML.
LONG_WORD = 19
_WORD_BREAK = re.compile(
    r"(?<=[(,=/_])(?=[^\s)])|(?<=[a-z])(?=[A-Z])|(?<=[^\s(])(?=\()"
)


def html_breaks(markup: str) -> str:
    """Let long names break at sensible places in HTML: a ``<wbr>`` after
    ``( , = / _``, before ``(`` and between camel-case words, in every word of
    :data:`LONG_WORD` (19) characters or more, outside tags and entities.

    Examples
    --------
    >>> html_breaks("<th>HistGradientBoosting(max_iter=3)</th>")
    '<th>Hist<wbr>Gradient<wbr>Boosting<wbr>(<wbr>max_<wbr>iter=<wbr>3)</th>'

    An interval of two bounds in a text cell ("&gt; 0.999 to &gt; 0.999") may
    break only between them (each bound in a ``nbstats-bound`` span that the
    stylesheet keeps on one line):

    >>> html_breaks("<td>0.1 to 0.2</td>").count('class="nbstats-bound"')
    2
    """

    def word(match: re.Match[str]) -> str:
        if len(html.unescape(match.group(0))) < LONG_WORD:
            return match.group(0)
        parts = re.split(r"(&#?\w+;)", match.group(0))
        return "".join(
            part if part.startswith("&") else _WORD_BREAK.sub("<wbr>", part)
            for part in parts
        )

    def node(match: re.Match[str]) -> str:
        return _INTERVAL.sub(_interval, _LONG_WORD.sub(word, match.group(0)))

    return _TEXT_NODE.sub(node, markup)


#: "0.105 to 0.146", "> 0.999 to > 0.999": lower and upper probabilities in a
#: text cell, each kept whole ("to" with the first) so that the cell may wrap
#: only between them.
_BOUND = r"(?:&[lg]t; )?[−-]?\d[\d.,]*"
_INTERVAL = re.compile(rf"({_BOUND}) to ({_BOUND})")


def _interval(match: re.Match[str]) -> str:
    return (
        f'<span class="nbstats-bound">{match.group(1)} to</span> '
        f'<span class="nbstats-bound">{match.group(2)}</span>'
    )


def fit_width(latex: str) -> str:
    """A table float rewritten by :func:`latex_longtable` to fit the text width.

    Parses the booktabs float that :func:`nbstats.results.render.latex_table`
    and the results' ``to_latex()`` write (caption, label, one ``tabular``);
    a longtable or anything else it does not recognise is returned unchanged.
    """
    if "\\begin{table}" not in latex or "longtable" in latex:
        return latex
    parsed = _parse_float(latex)
    if parsed is None:
        return latex
    caption, label, align, header, rows = parsed
    return latex_longtable(caption, label, header, rows, align=align)


def _braced(text: str, start: int) -> tuple[str, int] | None:
    """The contents of the brace group opening at ``text[start]``, and the
    index after it (escaped braces ``\\{`` ``\\}`` do not count)."""
    if start >= len(text) or text[start] != "{":
        return None
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i], i + 1
        i += 1
    return None


def _command_argument(text: str, command: str) -> str | None:
    at = text.find(command + "{")
    if at < 0:
        return None
    found = _braced(text, at + len(command))
    return None if found is None else found[0]


def _cells(line: str) -> list[str]:
    """The cells of one table row (``&`` not escaped as ``\\&``)."""
    line = line.strip()
    if line.endswith("\\\\"):
        line = line[:-2]
    return [cell.strip() for cell in re.split(r"(?<!\\)&", line)]


#: A line of a table that is a rule or spacing command, not a row.
_RULE = re.compile(r"\\(?:[a-z]*rule|cmidrule|addlinespace|hline|cline)\b")


def _parse_float(
    latex: str,
) -> tuple[str, str, str, list[str], list[list[str] | None]] | None:
    caption = _command_argument(latex, "\\caption") or ""
    label = _command_argument(latex, "\\label") or ""
    spec = _command_argument(latex, "\\begin{tabular}")
    if spec is None:
        return None
    body = latex.split("\\begin{tabular}{" + spec + "}", 1)[1]
    body = body.split("\\end{tabular}", 1)[0]
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    if not lines or lines[0] != "\\toprule" or "\\midrule" not in lines:
        return None
    first_mid = lines.index("\\midrule")
    header_lines = lines[1:first_mid]
    if len(header_lines) != 1:
        return None
    header = _cells(header_lines[0])
    rows: list[list[str] | None] = []
    for line in lines[first_mid + 1 :]:
        if line == "\\bottomrule":
            break
        if line == "\\midrule":
            rows.append(None)
        elif _RULE.match(line) or not line.endswith("\\\\"):
            return None  # a rule or command this parser does not know
        else:
            # a row, even one whose first cell is a command (a name that
            # begins with a quote or a backslash: \textquotesingle{}...)
            rows.append(_cells(line))
    align = re.sub(r"[^lcr]", "", spec)
    if len(align) != len(header) or any(
        r is not None and len(r) != len(header) for r in rows
    ):
        return None
    return caption, label, align, header, rows


# -- LaTeX tables that fit the page ---------------------------------------------

#: The text width LaTeX tables are laid out for, in pt: A4 at 11 pt with 1 in
#: margins (the report's page) is 452 pt; a margin is kept for the estimate.
LINE_WIDTH = 420.0
#: Font sizes a table may take (command, size in pt under an 11 pt class),
#: tried in turn; no table is set smaller than 8 pt.
TABLE_SIZES = (("\\small", 10.0), ("\\footnotesize", 9.0), ("\\scriptsize", 8.0))
#: Space between columns (pt, each side).
TABLE_SEP = 4.0
#: The narrowest the first (name) column may become before a table is split
#: into column blocks, in em.
NAME_COLUMN_EM = 7.0

#: A column (other than the first) whose cells are wider than this (em) holds
#: names, not numbers: it may wrap too.
TEXT_COLUMN_EM = 10.0

_BREAK = "\\hspace{0pt}"
_COMMAND = re.compile(r"\\([A-Za-z]+\*?|.)")


_VISIBLE = re.compile(
    r"(?P<escaped>\\[{}$&%#_^~ ])|(?P<command>\\[A-Za-z]+\*?)|(?P<markup>[{}$^])"
)
#: Commands that print nothing themselves (their argument is counted).
_SILENT = {"\\textbf", "\\textit", "\\emph", "\\mathrm", "\\text", "\\hspace"}


def _visible(latex: str) -> str:
    """Roughly the characters ``latex`` prints (for width estimates): an
    escaped character counts as itself, a symbol command (``\\alpha``,
    ``\\textbackslash``) as one letter, ``\\hspace{0pt}`` as nothing."""
    latex = latex.replace(_BREAK, "\u200b").replace("--", "–")

    def replace(match: re.Match[str]) -> str:
        if match.group("escaped"):
            return match.group("escaped")[1]
        if match.group("command"):
            return "" if match.group("command") in _SILENT else "x"
        return ""

    return _VISIBLE.sub(replace, latex)


def _char_em(ch: str) -> float:
    if ch == "\u200b":
        return 0.0
    if ch.isdigit():
        return 0.5
    if ch in " .,:;'!|()[]/`":
        return 0.32
    if ch.isupper() or ch in "MW%&@–—":
        return 0.75
    if ch.islower():
        return 0.5
    return 0.6


def _width_em(latex: str) -> float:
    """Estimated width of ``latex`` in em (bold counted 15% wider)."""
    width = sum(_char_em(ch) for ch in _visible(latex))
    return width * (1.15 if "\\textbf" in latex else 1.0)


def _longest_piece_em(latex: str) -> float:
    """The widest part of ``latex`` that cannot be broken across lines."""
    pieces = re.split(r"[\s\u200b]+", _visible(latex))
    return max((sum(_char_em(ch) for ch in p) for p in pieces), default=0.0)


def break_points(latex: str) -> str:
    r"""Let a line break inside a long name: after ``( , = /`` and between a
    lower- and an upper-case letter (``Hist|Gradient|Boosting``), by inserting
    ``\hspace{0pt}`` outside commands and math.

    Examples
    --------
    >>> print(break_points(r"HistGradient(max\_iter=3)"))
    Hist\hspace{0pt}Gradient(\hspace{0pt}max\_iter=\hspace{0pt}3)
    """
    out: list[str] = []
    i, math, previous = 0, False, ""
    while i < len(latex):
        ch = latex[i]
        if ch == "\\":
            match = _COMMAND.match(latex, i)
            token = match.group(0) if match else ch
            out.append(token)
            i += len(token)
            previous = token[-1] if len(token) == 2 else ""
            continue
        if ch == "$":
            math = not math
        elif not math and previous.islower() and ch.isupper():
            out.append(_BREAK)
        out.append(ch)
        if not math and ch in "(,=/" and i + 1 < len(latex) and latex[i + 1] != " ":
            out.append(_BREAK)
        previous = ch
        i += 1
    return "".join(out)


def _wrap_lines(latex: str, width_em: float) -> list[str]:
    """``latex`` in lines of at most about ``width_em`` (at spaces, then at
    :func:`break_points`); a piece wider than that keeps its own line."""
    lines: list[str] = []
    for w, word in enumerate(latex.split(" ")):
        if _width_em(word) <= width_em:
            parts = [word]
        else:
            parts = break_points(word).split(_BREAK)
        for k, part in enumerate(parts):
            glue = " " if k == 0 and w > 0 else ""
            if lines and _width_em(lines[-1] + glue + part) <= width_em:
                lines[-1] += glue + part
            else:
                lines.append(part)
    return lines


def _stacked(lines: list[str], align: str) -> str:
    if len(lines) == 1:
        return lines[0]
    inner = "\\\\".join(lines)
    return f"\\begin{{tabular}}[b]{{@{{}}{align}@{{}}}}{inner}\\end{{tabular}}"


@dataclasses.dataclass
class _Layout:
    """How one table is set: font size, header cells, the columns that wrap
    (X columns of an xltabular), the column blocks after the first, and the
    alignment (name columns flush left)."""

    size: str
    header: list[str]
    wrap: list[bool]
    blocks: list[list[int]]
    align: str


def _layout(header: list[str], rows: list[list[str] | None], align: str) -> _Layout:
    body = [r for r in rows if r is not None]
    n = len(header)
    plan = None
    for size, pt in TABLE_SIZES:
        sep = 2 * TABLE_SEP / pt
        line = LINE_WIDTH / pt
        natural, least, heads, names = [], [], [], []
        for j in range(n):
            cells = [r[j] for r in body]
            content = max((_width_em(c) for c in cells), default=0.0)
            if j == 0 or content > TEXT_COLUMN_EM:
                # a name column: wraps in the width left, if it must
                names.append(j)
                heads.append(break_points(header[j]))
                width = max(content, _width_em(header[j]))
                piece = max(
                    _longest_piece_em(break_points(c)) for c in [*cells, header[j]]
                )
                natural.append(width + sep)
                least.append(max(min(width, NAME_COLUMN_EM), piece) + sep)
            else:
                # numbers: a long header goes on lines no wider than them
                words = [_width_em(w) for w in header[j].split(" ")]
                lines = _wrap_lines(header[j], max(content, 4.0, min(max(words), 8.0)))
                heads.append(_stacked(lines, align[j]))
                width = max([content, *(_width_em(x) for x in lines)])
                natural.append(width + sep)
                least.append(width + sep)
        wrap = [low < high for low, high in zip(least, natural, strict=True)]
        everything = list(range(1, n))
        align = "".join("l" if j in names else a for j, a in enumerate(align))
        if sum(natural) <= line:
            return _Layout(size, heads, [False] * n, [everything], align)
        if sum(least) <= line:
            return _Layout(size, heads, wrap, [everything], align)
        if plan is None or size == TABLE_SIZES[1][0]:
            plan = (size, heads, wrap, least, line, align)
    # too wide even at the smallest size: column blocks that each repeat the
    # first column, at the middle size
    size, heads, wrap, least, line, align = plan
    blocks: list[list[int]] = [[]]
    used = least[0]
    for j in range(1, n):
        if blocks[-1] and used + least[j] > line:
            blocks.append([])
            used = least[0]
        blocks[-1].append(j)
        used += least[j]
    # as many columns in each block as the greedy split needs blocks, if they fit
    per = -(-(n - 1) // len(blocks))
    even = [list(range(j, min(j + per, n))) for j in range(1, n, per)]
    if len(even) == len(blocks) and all(
        least[0] + sum(least[j] for j in block) <= line for block in even
    ):
        blocks = even
    return _Layout(size, heads, wrap, blocks, align)


def latex_longtable(
    caption: str,
    label: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str] | None],
    *,
    align: str | None = None,
) -> str:
    r"""A booktabs table that fits the text width, across pages if long.

    Cells are LaTeX already (escaped). The table takes the largest font size
    of :data:`TABLE_SIZES` (10, 9, 8 pt) at which its estimated width fits
    :data:`LINE_WIDTH`: at its natural width (a ``longtable``, centred), or
    with the first column (the names) wrapping in the width that is left (an
    ``xltabular`` as wide as the line; long names break after ``_ ( , = /``
    and between camel-case words). Headers of the other columns wrap onto
    lines no wider than their numbers. A table still too wide at 8 pt is split
    into column blocks that each repeat the first column, set one after the
    other as "Table n (continued)". Long tables break across pages and repeat
    their header. Needs ``booktabs`` and ``xltabular``.

    Parameters
    ----------
    caption, label : str
        LaTeX caption (escaped) and label; an empty label is left out.
    header : sequence of str
        One header cell per column.
    rows : sequence
        The body: one list of cells per row, or None for a ``\midrule``.
    align : str, optional
        ``l``, ``c`` or ``r`` per column; default ``l`` then ``r``.

    Returns
    -------
    str

    Examples
    --------
    >>> out = latex_longtable("Scores.", "tab:x", ["case", "a"], [["c1", "0.5"]])
    >>> out.splitlines()[1]
    '\\begin{longtable}{@{}lr@{}}'
    """
    header = list(header)
    rows = [None if r is None else list(r) for r in rows]
    n = len(header)
    if align is None:
        align = "l" + "r" * (n - 1)
    if len(align) != n or any(r is not None and len(r) != n for r in rows):
        raise ValueError(
            f"every row needs {n} cells, like the header, and align one letter "
            "per column."
        )
    lay = _layout(header, rows, align)
    ragged = ">{\\raggedright\\arraybackslash}X"
    parts = []
    for number, block in enumerate(lay.blocks):
        columns = [0, *block]
        spec = "".join(ragged if lay.wrap[j] else lay.align[j] for j in columns)
        if any(lay.wrap[j] for j in columns):
            env, width = "xltabular", "{\\linewidth}"
        else:
            env, width = "longtable", ""
        head = " & ".join(lay.header[j] for j in columns) + r" \\"
        if number == 0:
            title = f"\\caption{{{caption}}}" + (f"\\label{{{label}}}" if label else "")
        else:
            title = "\\caption*{\\tablename~\\thetable{} (continued)}"
        body = []
        for number_row, row in enumerate(rows):
            if row is None:
                body.append("\\midrule")
                continue
            cells = [break_points(row[j]) if lay.wrap[j] else row[j] for j in columns]
            # no page break before a rule (the rows below it, e.g. the mean
            # ranks, stay with the table)
            before_rule = number_row + 1 < len(rows) and rows[number_row + 1] is None
            body.append(" & ".join(cells) + (r" \\*" if before_rule else r" \\"))
        k = len(columns)
        # a longtable steps the table counter: a block after the first keeps
        # the table's number
        again = "\\addtocounter{table}{-1}" if number else ""
        parts += [
            # names break where break_points allows, never hyphenated
            f"\\begingroup{lay.size}\\setlength{{\\tabcolsep}}{{{TABLE_SEP:g}pt}}"
            "\\hyphenpenalty=10000" + again,
            f"\\begin{{{env}}}{width}{{@{{}}{spec}@{{}}}}",
            title + r" \\",
            "\\toprule",
            head,
            "\\midrule",
            "\\endfirsthead",
            f"\\multicolumn{{{k}}}{{@{{}}l}}"
            "{\\tablename~\\thetable{} (continued)} \\\\",
            "\\toprule",
            head,
            "\\midrule",
            "\\endhead",
            "\\midrule",
            f"\\multicolumn{{{k}}}{{r@{{}}}}{{(continued on the next page)}} \\\\",
            "\\endfoot",
            "\\bottomrule",
            "\\endlastfoot",
            *body,
            f"\\end{{{env}}}",
            "\\endgroup",
        ]
    return "\n".join(parts) + "\n"
