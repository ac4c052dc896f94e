r"""Text, HTML and LaTeX rendering shared by every result object.

Hand-written rather than ``DataFrame.to_html``/``Styler.to_latex`` because the
output must escape every user-supplied name the same way in all three formats,
carry no external CSS or JS, and give booktabs tables that compile on their own
with ``\usepackage{booktabs}`` and nothing else, under pdflatex and xelatex.

Every result displays the same way (:func:`html_block`): a title, then one grid
of labels and values (two columns that wrap inside their cells, so a label and
its value always start on the same line at any width), then its table in a box
that scrolls sideways on its own if the table is wider than the output. The
stylesheet (``result.css``) uses JupyterLab's theme variables, so results follow
its light and dark themes, and inherit the page's colours elsewhere.

LaTeX tables (:func:`latex_table`, :func:`latex_scalars`, every result's
``to_latex()``) need only booktabs and compile under pdflatex and xelatex;
with ``fit=True`` long names wrap so that the table fits a 10pt article.

How numbers are written (p-values ``0.0012`` / ``< 0.001``, fixed notation,
true minus signs) is described in :mod:`nbstats.results.formatting`; its
functions are re-exported here.

Names in HTML are isolated (:func:`isolate`): each name the tables and the
grid show as a whole (a column header, a row label, each side of ``"a vs b"``,
a text cell or value) sits in its own ``<bdi>``, so a right-to-left name
(Arabic, Hebrew) cannot reorder the text around it; and every explicit
bidirectional control (U+202A–U+202E, U+2066–U+2069) anywhere in the text,
titles included, is closed in a ``<bdi>`` of its own, so that a U+202E cannot
reverse the rest of a line (the name rule refuses such names; this holds for
any text that reaches the renderer).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from numbers import Real

import numpy as np
import pandas as pd

from nbstats.results.formatting import (
    Label,
    escape_latex,
    format_pvalue,
    format_value,
    is_pvalue_name,
    to_html,
    to_latex,
)

__all__ = [
    "Label",
    "escape_latex",
    "format_cell",
    "format_pvalue",
    "format_value",
    "html_block",
    "html_grid",
    "html_table",
    "is_pvalue_name",
    "isolate",
    "latex_scalars",
    "latex_table",
    "text_block",
    "text_table",
    "to_html",
    "to_latex",
]

Scalars = list[tuple[str, object]]


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def format_cell(value: object, *, pvalue: bool = False, digits: int = 4) -> str:
    """One value as plain text: :func:`format_pvalue` for a number in a p-value
    column or row, :func:`format_value` otherwise.

    Examples
    --------
    >>> format_cell(0.000012, pvalue=True), format_cell(0.000012)
    ('< 0.001', '< 0.0001')
    """
    if pvalue and _is_number(value):
        return format_pvalue(value)
    return format_value(value, digits)


# ---------------------------------------------------------------- HTML

#: Explicit bidirectional formatting characters: embeddings, overrides,
#: isolates and their terminators. Their scope ends at the end of the
#: element that holds them, so each is given an element of its own.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _html_text(text: object) -> str:
    """``text`` as HTML (:func:`to_html`), each bidi control in its own ``<bdi>``."""
    return _BIDI_CONTROLS.sub(lambda m: f"<bdi>{m.group()}</bdi>", to_html(text))


def isolate(text: object) -> str:
    """``text`` as HTML in a ``<bdi>`` of its own: a bidirectional isolate.

    The direction inside follows the text (a Hebrew name reads right to left),
    and nothing in it reorders the text around it. Use it for every name put
    into HTML next to other text.

    Examples
    --------
    >>> isolate("a<b")
    '<bdi>a&lt;b</bdi>'
    >>> isolate("x\u202ey")
    '<bdi>x<bdi>\u202e</bdi>y</bdi>'
    """
    return f"<bdi>{_html_text(text)}</bdi>"


def _sentence_html(text: object, names: Sequence[object]) -> str:
    """``text`` as HTML with each occurrence of ``names`` isolated (a name
    counts where it is not part of a longer word)."""
    wanted = sorted({str(n) for n in names if str(n)}, key=len, reverse=True)
    if isinstance(text, Label) or not wanted:
        return _html_text(text)
    pattern = re.compile(
        r"(?<!\w)(" + "|".join(re.escape(n) for n in wanted) + r")(?!\w)"
    )
    pieces = pattern.split(str(text))
    # split() alternates text and the names it found
    return "".join(
        isolate(piece) if i % 2 else _html_text(piece) for i, piece in enumerate(pieces)
    )


def _isolate_label(label: object) -> str:
    """A row label; a pair ``"a vs b"`` isolates each name, and breaks after
    "vs", not before it (two lines, not three)."""
    if isinstance(label, Label):
        return _html_text(label)
    parts = str(label).split(" vs ")
    return "\u00a0vs ".join(isolate(part) for part in parts)


@cache
def _stylesheet() -> str:
    return resources.files("nbstats.results").joinpath("result.css").read_text()


def html_block(
    title: str,
    scalars: Scalars,
    frame: pd.DataFrame | None,
    *,
    names: Sequence[object] = (),
) -> str:
    """One self-contained HTML fragment: title, the label/value grid, the table.

    Parameters
    ----------
    title : str
        Heading (a :class:`Label` keeps its own HTML).
    scalars : list of (label, value)
        The result's key figures, shown by :func:`html_grid`.
    frame : DataFrame or None
        Its table, shown by :func:`html_table` in a box that scrolls sideways
        when the table is wider than the output.
    names : sequence
        Names that the title and the grid's labels contain (e.g. a pair's
        ``name_a`` and ``name_b``): each occurrence is isolated
        (:func:`isolate`) inside the sentence.

    Returns
    -------
    str
        ``<style>`` (the packaged ``result.css``) and one
        ``<div class="nbstats-result">``; no script, no external resource.

    Examples
    --------
    >>> out = html_block("Test <1>", [("p-value", 0.0001)], None)
    >>> "Test &lt;1&gt;" in out and "&lt; 0.001" in out
    True
    >>> "Test: <bdi>עץ</bdi> vs" in html_block("Test: עץ vs B", [], None, names=["עץ"])
    True
    """
    parts = [
        f"<style>{_stylesheet()}</style>",
        '<div class="nbstats-result">',
        f'<div class="nbstats-title">{_sentence_html(title, names)}</div>',
    ]
    if scalars:
        parts.append(html_grid(scalars, names=names))
    if frame is not None and len(frame):
        parts.append(
            '<div class="nbstats-scroll" role="region" tabindex="0" '
            'aria-label="table">' + html_table(frame) + "</div>"
        )
    parts.append("</div>")
    return "".join(parts)


def html_grid(scalars: Scalars, *, names: Sequence[object] = ()) -> str:
    """Labels and values as one two-column grid (``<dl>``), one row per pair.

    Each pair is a ``<div class="nbstats-row">`` holding a ``<dt>`` and a
    ``<dd>``: the row's cells share a grid row, so they start on the same line
    however their text wraps. Values of p-value rows (:func:`is_pvalue_name`)
    are written by :func:`format_pvalue`.

    Examples
    --------
    >>> print(html_grid([("χ²", 9.28)]).replace("><", ">\\n<"))
    <dl class="nbstats-grid">
    <div class="nbstats-row">
    <dt>χ²</dt>
    <dd>9.28</dd>
    </div>
    </dl>

    A value that is text (e.g. a name) is isolated (:func:`isolate`), and so
    is each of ``names`` inside a label (e.g. ``"P(A better)"``).
    """
    rows = []
    for label, value in scalars:
        if isinstance(value, Label):
            text = _html_text(value)
        elif isinstance(value, str):
            text = isolate(value)
        else:
            text = html.escape(format_cell(value, pvalue=is_pvalue_name(label)))
        rows.append(
            f'<div class="nbstats-row"><dt>{_sentence_html(label, names)}</dt>'
            f"<dd>{text}</dd></div>"
        )
    return '<dl class="nbstats-grid">' + "".join(rows) + "</dl>"


def html_table(frame: pd.DataFrame) -> str:
    """An escaped HTML table of ``frame`` (index shown as the first column).

    Numbers are right-aligned cells of class ``num`` (never wrapped); text
    cells and row labels may wrap anywhere, so that long algorithm names fit.
    p-value columns (:func:`is_pvalue_name`) are written by
    :func:`format_pvalue`. Headers, row labels (each name of ``"a vs b"``)
    and text cells are isolated (:func:`isolate`).

    Examples
    --------
    >>> frame = pd.DataFrame({"p": [0.5]}, index=pd.Index(["a<b"], name="pair"))
    >>> print(html_table(frame).replace("><t", ">\\n<t"))
    <table class="nbstats-table">
    <thead>
    <tr>
    <th><bdi>pair</bdi></th>
    <th><bdi>p</bdi></th></tr></thead>
    <tbody>
    <tr>
    <th scope="row"><bdi>a&lt;b</bdi></th>
    <td class="num">0.5000</td></tr></tbody></table>
    """
    index_name = frame.index.name if frame.index.name is not None else ""
    head = "".join(
        f"<th>{_html_text(c) if isinstance(c, Label) else isolate(c)}</th>"
        for c in [index_name, *frame.columns]
    )
    pvalue = [is_pvalue_name(c) for c in frame.columns]
    rows = []
    for label, row in zip(frame.index, frame.itertuples(index=False), strict=True):
        cells = "".join(_html_cell(v, p) for v, p in zip(row, pvalue, strict=True))
        rows.append(f'<tr><th scope="row">{_isolate_label(label)}</th>{cells}</tr>')
    return (
        '<table class="nbstats-table"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _html_cell(value: object, pvalue: bool) -> str:
    if _is_number(value):
        return f'<td class="num">{html.escape(format_cell(value, pvalue=pvalue))}</td>'
    if isinstance(value, Label):
        return f"<td>{_html_text(value)}</td>"
    return f"<td>{isolate(format_cell(value, pvalue=pvalue))}</td>"


# ---------------------------------------------------------------- LaTeX


def latex_table(
    frame: pd.DataFrame,
    *,
    caption: str | None = None,
    label: str | None = None,
    digits: int = 4,
    float_env: bool = True,
    fit: bool = False,
) -> str:
    r"""A booktabs table of ``frame`` that a paper can ``\input``.

    Needs ``\usepackage{booktabs}`` in the preamble and nothing else; compiles
    under pdflatex and xelatex. Names are escaped (:func:`escape_latex`),
    numbers written by :func:`format_value` (``digits`` significant figures,
    ``$-$`` minus), p-value columns by :func:`format_pvalue`.

    Parameters
    ----------
    frame : DataFrame
        The index becomes the first column.
    caption : str, optional
        Escaped, unless a :class:`Label` (its ``latex`` is used as is).
    label : str, optional
        ``\label{...}``.
    digits : int
        Significant figures of numbers other than p-values.
    float_env : bool
        Wrap the ``tabular`` in a ``table`` float (with caption and label).
    fit : bool
        Fit a 10pt article's text width (some 64 characters): when the table
        is wider, long names wrap in ``\parbox``\ es (line breaks after
        ``( , = _`` and between camel-case words) and long headers of number
        columns break between words; the outer column padding is dropped
        (``@{}``). Plain LaTeX, no package. Off by default: the report fits
        its tables itself.

    Examples
    --------
    >>> frame = pd.DataFrame({"p": [0.0001], "z": [-1.5]}, index=["a_1"])
    >>> print(latex_table(frame, float_env=False))
    \begin{tabular}{lrr}
    \toprule
     & p & z \\
    \midrule
    a\_1 & $<$ 0.001 & $-$1.5 \\
    \bottomrule
    \end{tabular}
    <BLANKLINE>
    """
    index_name = frame.index.name if frame.index.name else ""
    header = [_header_cell(index_name), *(_header_cell(c) for c in frame.columns)]
    pvalue = [is_pvalue_name(c) for c in frame.columns]
    body = [
        [
            _text_cell(lab),
            *(_value_cell(v, p, digits) for v, p in zip(row, pvalue, strict=True)),
        ]
        for lab, row in zip(frame.index, frame.itertuples(index=False), strict=True)
    ]
    tabular = _tabular(header, body, fit=fit)
    return _latex_float(tabular, caption, label) if float_env else tabular + "\n"


def latex_scalars(
    scalars: Scalars,
    *,
    caption: str | None = None,
    label: str | None = None,
    digits: int = 4,
    float_env: bool = True,
    fit: bool = False,
) -> str:
    r"""A booktabs table of labels and values (one row each), like
    :func:`latex_table` (same parameters); p-value rows are written by
    :func:`format_pvalue`.

    Examples
    --------
    >>> print(latex_scalars([("χ²", 9.2793), ("p-value", 0.0258)], float_env=False))
    \begin{tabular}{lr}
    \toprule
     & value \\
    \midrule
    $\chi^{2}$ & 9.279 \\
    p-value & 0.0258 \\
    \bottomrule
    \end{tabular}
    <BLANKLINE>
    """
    body = [
        [_text_cell(name), _value_cell(value, is_pvalue_name(name), digits)]
        for name, value in scalars
    ]
    tabular = _tabular([_header_cell(""), _header_cell("value")], body, fit=fit)
    return _latex_float(tabular, caption, label) if float_env else tabular + "\n"


#: The width a table may take before its long text wraps, in characters of
#: about half an em (a 10pt article's text block is some 68 of them).
LINE_CHARS = 66
#: Text cells never wrap narrower than this many characters.
MIN_WRAP = 12
_EM_PER_CHAR = 0.5
_COLUMN_PAD = 2.4  # \tabcolsep on both sides of a column gap, in characters
_BREAKS = re.compile(r"(?<=[,;(/=_])(?=\S)|(?<=[a-z])(?=[A-Z])")


@dataclass(frozen=True)
class _Cell:
    """A tabular cell: plain text (for widths), its LaTeX, and whether it is
    text that may wrap (its form with break points is built only then)."""

    plain: str
    latex: str
    wraps: bool = False  # text that may wrap (its breakable form is built then)


def _text_cell(text: object) -> _Cell:
    if isinstance(text, Label):
        return _Cell(str(text), text.latex)
    raw = str(text)
    return _Cell(raw, escape_latex(raw), wraps=True)


def _header_cell(text: object) -> _Cell:
    return _Cell(str(text), to_latex(text))


def _value_cell(value: object, pvalue: bool, digits: int) -> _Cell:
    if isinstance(value, Label):
        return _Cell(str(value), value.latex)
    if isinstance(value, str):
        return _text_cell(value)
    if pvalue and _is_number(value):
        return _Cell(format_pvalue(value), format_pvalue(value, latex=True))
    text = format_value(value, digits)
    return _Cell(text, "--" if text == "—" else escape_latex(text))


def _breakable_latex(text: str) -> str:
    r"""``text`` escaped, with a break point after ``, ; ( / = _`` (``\allowbreak``)
    and a hyphenation point between camel-case words (``\-``)."""
    pieces, last = [], 0
    for match in _BREAKS.finditer(text):
        at = match.start()
        pieces.append(escape_latex(text[last:at]))
        camel = text[at - 1].islower() and text[at].isupper()
        pieces.append(r"\-" if camel else r"\allowbreak{}")
        last = at
    pieces.append(escape_latex(text[last:]))
    return "".join(pieces)


#: Font sizes a fitted table may take, tried in turn, with the factor by which
#: each widens the line in characters (10pt → 9pt → 8pt).
_SIZES = (("", 1.0), ("\\small", 10 / 9), ("\\footnotesize", 10 / 8))


def _tabular(header: list[_Cell], body: list[list[_Cell]], *, fit: bool) -> str:
    r"""The ``tabular``. With ``fit``, when its natural width exceeds
    :data:`LINE_CHARS`, long text cells wrap in paragraph boxes sharing the
    width the number columns leave; if that is too narrow, the number columns'
    long headers break between words, and if the table still does not fit,
    it is set in ``\small`` or ``\footnotesize``."""
    n = len(header)
    heads = [h.latex for h in header]
    cells = [[c.latex for c in row] for row in body]
    size = ""
    if fit:
        for command, scale in _SIZES:
            heads, cells, total = _fitted(header, body, LINE_CHARS * scale)
            size = command
            if total <= LINE_CHARS * scale:
                break
    spec = ("@{}" if fit else "") + "l" + "r" * (n - 1) + ("@{}" if fit else "")
    lines = [
        r"\begin{tabular}{" + spec + "}",
        r"\toprule",
        " & ".join(heads) + r" \\",
        r"\midrule",
        *(" & ".join(row) + r" \\" for row in cells),
        r"\bottomrule",
        r"\end{tabular}",
    ]
    if size:
        lines = ["{" + size, *lines, "}"]
    return "\n".join(lines)


def _fitted(
    header: list[_Cell], body: list[list[_Cell]], line: float
) -> tuple[list[str], list[list[str]], float]:
    """Headers and cells laid out for ``line`` characters, and the estimated
    width of the result."""
    n = len(header)
    columns = [[row[j] for row in body] for j in range(n)]
    data_width = [max((len(c.plain) for c in col), default=0) for col in columns]
    width = [max(len(h.plain), w) for h, w in zip(header, data_width, strict=True)]
    heads = [h.latex for h in header]
    cells = [[c.latex for c in row] for row in body]
    pad = _COLUMN_PAD * (n - 1)
    if sum(width) + pad <= line:
        return heads, cells, sum(width) + pad
    text_columns = [
        j
        for j, col in enumerate(columns)
        if any(c.wraps and len(c.plain) > MIN_WRAP for c in col)
    ]
    numbers = [j for j in range(n) if j not in text_columns]

    def room() -> float:
        free = line - pad - sum(width[j] for j in numbers)
        return free / max(len(text_columns), 1)

    if not text_columns or room() < MIN_WRAP:
        for j in numbers:  # long headers of number columns break
            words = re.split(r"[\s_]+", header[j].plain)
            # one character of slack: "_" and capitals run wider than half an em
            narrow = max([data_width[j], *map(len, words)], default=0) + 1
            if len(words) > 1 and narrow < len(header[j].plain):
                align = r"\raggedright" if j == 0 else r"\raggedleft"
                heads[j] = _parbox(
                    "b", narrow, align, _breakable_latex(header[j].plain)
                )
                width[j] = narrow
    wrap = max(MIN_WRAP, int(room()))
    for j in text_columns:
        for i, cell in enumerate(columns[j]):
            if cell.wraps and len(cell.plain) > wrap:
                text = _breakable_latex(cell.plain)
                cells[i][j] = _parbox("t", wrap, r"\raggedright", text)
        width[j] = min(width[j], wrap)
    return heads, cells, sum(width) + pad


def _parbox(position: str, chars: int, align: str, latex: str) -> str:
    em = f"{chars * _EM_PER_CHAR:g}em"
    return rf"\parbox[{position}]{{{em}}}{{{align} {latex}\strut}}"


def _latex_float(tabular: str, caption: str | None, label: str | None) -> str:
    lines = [r"\begin{table}[htbp]", r"\centering"]
    if caption:
        lines.append(r"\caption{" + to_latex(caption) + "}")
    if label:
        lines.append(r"\label{" + label + "}")
    lines += [tabular, r"\end{table}"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- text


def text_block(title: str, scalars: Scalars, frame: pd.DataFrame | None) -> str:
    """Plain-text summary: title, aligned label/value lines and the table.

    p-values (rows and columns named as :func:`is_pvalue_name` says) are
    written by :func:`format_pvalue`, other numbers by :func:`format_value`.

    Examples
    --------
    >>> print(text_block("Test", [("statistic", -2.5), ("p-value", 0.0124)], None))
    Test
    ====
    statistic : −2.5
    p-value   : 0.0124
    """
    title = str(title)
    lines = [title, "=" * len(title)]
    width = max((len(str(label)) for label, _ in scalars), default=0)
    lines += [
        f"{label!s:<{width}} : {format_cell(value, pvalue=is_pvalue_name(label))}"
        for label, value in scalars
    ]
    if frame is not None and len(frame):
        lines += ["", text_table(frame)]
    return "\n".join(lines)


def text_table(frame: pd.DataFrame) -> str:
    """``frame`` as aligned plain text: p-value columns (:func:`is_pvalue_name`)
    by :func:`format_pvalue`, other numbers by :func:`format_value`.

    Examples
    --------
    >>> frame = pd.DataFrame({"z": [-2.5, 0.25], "p": [0.0124, 1e-6]}, index=["x", "y"])
    >>> print(text_table(frame))
           z        p
    x   −2.5   0.0124
    y   0.25  < 0.001
    """
    pvalue = [is_pvalue_name(c) for c in frame.columns]
    formatted = pd.DataFrame(
        [
            [format_cell(v, pvalue=p) for v, p in zip(row, pvalue, strict=True)]
            for row in frame.itertuples(index=False)
        ],
        index=frame.index,
        columns=frame.columns,
    )
    return formatted.to_string()
