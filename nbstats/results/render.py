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
with ``fit=True`` they fit a venue (``venue="article"``, ``"ieee"`` …).

How numbers are written (fixed decimals per column by kind, p-values
``0.012`` / ``< 0.001``, true minus signs) is the number policy of
:mod:`nbstats.results.number_policy`, built on
:mod:`nbstats.results.formatting`; their functions are re-exported here. How a
LaTeX table fits a venue is :mod:`nbstats.results.render_latex`, the
renderer of the table model (:mod:`nbstats.results.table_model`).

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
from nbstats.results.number_policy import (
    Column,
    format_column,
    format_number,
    header_words,
    kind_of,
)
from nbstats.results.render_latex import breakable
from nbstats.results.render_latex import latex as render_latex
from nbstats.results.table_model import Table, from_frame, from_scalars, shows_index
from nbstats.results.venues import Venue

__all__ = [
    "Label",
    "breakable_latex",
    "escape_latex",
    "format_cell",
    "format_column",
    "format_columns",
    "format_number",
    "format_pvalue",
    "format_scalar",
    "format_value",
    "header_words",
    "html_block",
    "html_grid",
    "html_table",
    "is_pvalue_name",
    "isolate",
    "kind_of",
    "latex_scalars",
    "latex_table",
    "name_html",
    "shows_index",
    "table_html",
    "to_html",
    "to_latex",
]

Scalars = list[tuple[str, object]]
#: Column (or key-figure) name -> kind of number (:data:`number_policy.KINDS`).
Kinds = dict[object, str]


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def format_cell(value: object, *, pvalue: bool = False, digits: int = 4) -> str:
    """One value as plain text: :func:`format_pvalue` for a number in a p-value
    column or row, :func:`format_value` otherwise.

    Examples
    --------
    >>> format_cell(0.000012, pvalue=True), format_cell(0.000012)
    ('< 0.001', '1.20 × 10⁻⁵')
    """
    if pvalue and _is_number(value):
        return format_pvalue(value)
    return format_value(value, digits)


def format_scalar(label: object, value: object, kind: str | None = None) -> str:
    """A key figure's value as plain text, by the number policy
    (:func:`format_number`), its kind declared or known from its label
    (:func:`kind_of`); text as it is.

    Examples
    --------
    >>> format_scalar("p-value", 0.02582), format_scalar("χ²", 9.2793)
    ('0.026', '9.28')
    >>> format_scalar("95% CI", (-0.0123, float("inf")))
    '(−0.0123, ∞)'
    """
    numbers = value if isinstance(value, (tuple, list)) else (value,)
    if numbers and all(_is_number(v) or v is None for v in numbers):
        return format_number(value, kind or kind_of(label))
    return format_value(value)


def format_columns(frame: pd.DataFrame, kinds: Kinds | None = None) -> list[Column]:
    """Every column of ``frame`` written by the number policy
    (:func:`format_column`): its kind from ``kinds``, else from its header
    (:func:`kind_of`)."""
    kinds = kinds or {}
    return [
        format_column(frame.iloc[:, j].tolist(), kinds.get(name) or kind_of(name))
        for j, name in enumerate(frame.columns)
    ]


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


@cache
def _stylesheet() -> str:
    return resources.files("nbstats.results").joinpath("result.css").read_text()


def html_block(
    title: str,
    scalars: Scalars,
    frame: pd.DataFrame | None,
    *,
    names: Sequence[object] = (),
    kinds: Kinds | None = None,
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
    kinds : dict, optional
        The kind of number of each column and key figure (see
        :mod:`nbstats.results.formatting`); the others by their names.

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
        parts.append(html_grid(scalars, names=names, kinds=kinds))
    if frame is not None and len(frame):
        parts.append(
            '<div class="nbstats-scroll" role="region" tabindex="0" '
            'aria-label="table">' + html_table(frame, kinds=kinds) + "</div>"
        )
    parts.append("</div>")
    return "".join(parts)


def html_grid(
    scalars: Scalars, *, names: Sequence[object] = (), kinds: Kinds | None = None
) -> str:
    """Labels and values as one two-column grid (``<dl>``), one row per pair.

    Each pair is a ``<div class="nbstats-row">`` holding a ``<dt>`` and a
    ``<dd>``: the row's cells share a grid row, so they start on the same line
    however their text wraps. Numbers are written by :func:`format_scalar`
    (the number policy; ``kinds`` maps labels to kinds of number).

    Examples
    --------
    >>> print(html_grid([("χ²", 9.2793)]).replace("><", ">\\n<"))
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
            kind = (kinds or {}).get(label)
            text = html.escape(format_scalar(label, value, kind))
        rows.append(
            f'<div class="nbstats-row"><dt>{_sentence_html(label, names)}</dt>'
            f"<dd>{text}</dd></div>"
        )
    return '<dl class="nbstats-grid">' + "".join(rows) + "</dl>"


def html_table(frame: pd.DataFrame, *, kinds: Kinds | None = None) -> str:
    """An escaped HTML table of ``frame`` (its index, unless a bare 0, 1, 2 …,
    as the first column).

    Numbers follow the number policy (:func:`format_columns`: fixed decimals
    per column, a common power of ten in the header at extreme scales) in
    right-aligned cells of class ``num`` with tabular figures, so that their
    decimal points line up; they never wrap. Headers are in words
    (:func:`header_words`). Text cells and row labels may wrap anywhere, so
    that long algorithm names fit. Headers, row labels (each name of
    ``"a vs b"``) and text cells are isolated (:func:`isolate`).

    Examples
    --------
    >>> frame = pd.DataFrame({"pvalue": [0.5]}, index=pd.Index(["a<b"], name="pair"))
    >>> print(html_table(frame).replace("><t", ">\\n<t"))
    <table class="nbstats-table">
    <thead>
    <tr>
    <th><bdi>pair</bdi></th>
    <th class="num"><bdi>p</bdi></th></tr></thead>
    <tbody>
    <tr>
    <th scope="row"><bdi>a&lt;b</bdi></th>
    <td class="num">0.500</td></tr></tbody></table>
    """
    return table_html(from_frame(frame, kinds))


#: A word of a name this long (characters) or longer gets break points
#: (``<wbr>``) in HTML; a shorter one is never broken.
LONG_WORD = 19
_WBR = re.compile(r"(?<=[(,=/_])(?=[^\s)])|(?<=[a-z])(?=[A-Z])|(?<=[^\s(])(?=\()")


def name_html(text: str) -> str:
    """A name as HTML, isolated, with a ``<wbr/>`` at the natural break points
    of each of its words of :data:`LONG_WORD` characters or more (after
    ``( , = / _``, before ``(`` and between camel-case words): the only
    places a browser may break it (the stylesheet breaks no word inside)."""
    words = re.split(r"(\s+)", str(text))
    out = []
    for word in words:
        if len(word) < LONG_WORD:
            out.append(_html_text(word))
        else:
            out.append("<wbr/>".join(_html_text(p) for p in _WBR.split(word)))
    return f"<bdi>{''.join(out)}</bdi>"


#: A text column whose longest cell has more characters than this holds
#: names that wrap (class ``nbstats-text``: flush left, wrapping at the
#: break points of :func:`_name_html`).
NAME_CHARS = 20


#: "0.105 to 0.146", "> 0.999 to > 0.999": a text cell of two bounds.
_BOUND = r"(?:[<>] )?[−-]?\d[\d.,]*"
_INTERVAL = re.compile(rf"({_BOUND}) to ({_BOUND})")


def table_html(table: Table) -> str:
    """The HTML renderer of the table model (:mod:`nbstats.results.table_model`).

    Numbers in right-aligned cells of class ``num`` (tabular figures; they
    never wrap); names isolated (:func:`isolate`) and, when long, breaking
    only at their natural break points (:func:`_name_html`); a column of
    long names has the class ``nbstats-text`` (flush left, wraps).

    Examples
    --------
    >>> from nbstats.results.table_model import from_frame
    >>> frame = pd.DataFrame({"p": [0.5]}, index=["HistGradientBoostingClassifier"])
    >>> t = from_frame(frame)
    >>> "Hist<wbr/>Gradient<wbr/>Boosting<wbr/>Classifier" in table_html(t)
    True
    """
    kinds = table.kinds
    texts = [
        kind in ("text", "name")
        and max((len(r[j].text) for r in table.rows), default=0) > NAME_CHARS
        for j, kind in enumerate(kinds)
    ]
    heads = []
    for j, cell in enumerate(table.header):
        classes = [
            c
            for c, on in (
                ("num", kinds[j] not in ("text", "name")),
                ("nbstats-text", texts[j]),
            )
            if on
        ]
        attr = f' class="{" ".join(classes)}"' if classes else ""
        inner = (
            _html_text(cell.label) if cell.label is not None else name_html(cell.text)
        )
        heads.append(f"<th{attr}>{inner}</th>")
    rows = []
    for row in table.rows:
        cells = []
        for j, cell in enumerate(row):
            stub = j == 0 and table.stub
            cells.append(_html_cell(cell, texts[j], stub))
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return (
        '<table class="nbstats-table"><thead><tr>'
        + "".join(heads)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _html_cell(cell, wraps: bool, stub: bool) -> str:
    if cell.numeric:
        inner = html.escape(cell.text)
        inner = f"<b>{inner}</b>" if cell.bold else inner
        return f'<td class="num">{inner}</td>'
    if cell.label is not None:
        inner = _html_text(cell.label)
    elif stub:
        parts = cell.text.split(" vs ")
        inner = "\u00a0vs ".join(name_html(part) for part in parts)
    elif _INTERVAL.fullmatch(cell.text):
        # lower and upper probabilities: the cell may wrap only between them
        low, high = _INTERVAL.fullmatch(cell.text).groups()
        inner = (
            f'<span class="nbstats-bound">{html.escape(low)} to</span> '
            f'<span class="nbstats-bound">{html.escape(high)}</span>'
        )
    else:
        inner = name_html(cell.text)
    inner = f"<b>{inner}</b>" if cell.bold else inner
    attr = ' class="nbstats-text"' if wraps else ""
    if stub:
        return f'<th scope="row"{attr}>{inner}</th>'
    return f"<td{attr}>{inner}</td>"


# ---------------------------------------------------------------- LaTeX


def latex_table(
    frame: pd.DataFrame,
    *,
    caption: str | None = None,
    label: str | None = None,
    float_env: bool = True,
    fit: bool = False,
    kinds: Kinds | None = None,
    venue: str | Venue = "article",
) -> str:
    r"""A booktabs table of ``frame`` that a paper can ``\input``.

    Names are escaped (:func:`escape_latex`); numbers follow the number policy
    (:func:`format_columns`: fixed decimals per column, ``$-$`` minus signs,
    a common power of ten in the header at extreme scales), right-aligned, so
    that with the fixed decimals their decimal points line up. Headers are in
    words (:func:`header_words`). The index is the first column, unless it is
    a bare 0, 1, 2 ….

    It is the table model (:func:`nbstats.results.table_model.from_frame`)
    drawn by the one LaTeX renderer (:func:`nbstats.results.render_latex.latex`).
    With ``fit``, it fits ``venue`` by that renderer's rule: numbers measured
    in the venue's font, long names left to TeX in ``X`` columns, at 10, 9 or
    8 pt; in one column, else (two-column venues) across both as a
    ``table*``, else split into blocks of columns; a table taller than a
    float is a ``longtable`` in a one-column venue and several floats
    ("(continued)") in a two-column one.

    Needs ``booktabs`` (and ``tabularx``, ``xltabular`` for a fitted table
    whose names wrap or that is long); compiles under pdflatex and xelatex.

    Parameters
    ----------
    frame : DataFrame
        The index becomes the first column.
    caption : str, optional
        Escaped, unless a :class:`Label` (its ``latex`` is used as is).
    label : str, optional
        ``\label{...}``.
    float_env : bool
        Wrap the ``tabular`` in a ``table`` float (with caption and label),
        or a ``longtable`` when it is long; without, the ``tabular`` (or its
        parts) alone.
    fit : bool
        Fit the venue as above (off here by default: the plain table at its
        natural width); every result's ``to_latex()`` and every report table
        fit.
    kinds : dict, optional
        The kind of number of each column (see
        :mod:`nbstats.results.formatting`); the others by their headers.
    venue : str or Venue
        The venue it is fitted to (:func:`nbstats.results.venues.get_venue`):
        ``"article"`` (default), ``"twocolumn"``, ``"ieee"``, ``"acm"``.

    Examples
    --------
    >>> frame = pd.DataFrame({"p": [1e-4, 0.5], "z": [-1.5, 2.25]}, index=["a_1", "b"])
    >>> print(latex_table(frame, float_env=False))
    \begin{tabular}{lrr}
    \toprule
     & p & z \\
    \midrule
    a\_1 & $<$ 0.001 & $-$1.50 \\
    b & 0.500 & 2.25 \\
    \bottomrule
    \end{tabular}
    <BLANKLINE>
    """
    table = from_frame(frame, kinds, caption=caption, label=label)
    return render_latex(table, venue, float_env=float_env, fit=fit)


def latex_scalars(
    scalars: Scalars,
    *,
    caption: str | None = None,
    label: str | None = None,
    float_env: bool = True,
    fit: bool = False,
    kinds: Kinds | None = None,
    venue: str | Venue = "article",
) -> str:
    r"""A booktabs table of labels and values (one row each), like
    :func:`latex_table` (same parameters); each value is written by
    :func:`format_scalar`.

    Examples
    --------
    >>> print(latex_scalars([("χ²", 9.2793), ("p-value", 0.0258)], float_env=False))
    \begin{tabular}{lr}
    \toprule
     & value \\
    \midrule
    $\chi^{2}$ & 9.28 \\
    p-value & 0.026 \\
    \bottomrule
    \end{tabular}
    <BLANKLINE>
    """
    table = from_scalars(scalars, kinds, caption=caption, label=label)
    return render_latex(table, venue, float_env=float_env, fit=fit)


def breakable_latex(text: object) -> str:
    r"""``text`` for a LaTeX paragraph (a caption): escaped, with break points
    after ``, ; ( / = _``, between camel-case words and inside long words, so
    that a long algorithm name cannot stick out of the line. A
    :class:`Label` keeps its own LaTeX.

    Examples
    --------
    >>> print(breakable_latex("P(a_b better)"))
    P(\allowbreak{}a\_\allowbreak{}b better)
    """
    if isinstance(text, Label):
        return text.latex
    return breakable(str(text), 30)
