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

How numbers are written (p-values ``0.0012`` / ``< 0.001``, fixed notation,
true minus signs) is described in :mod:`nbstats.results.formatting`; its
functions are re-exported here.
"""

from __future__ import annotations

import html
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
    "format_pvalue",
    "format_value",
    "html_block",
    "html_grid",
    "html_table",
    "is_pvalue_name",
    "latex_scalars",
    "latex_table",
    "text_block",
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


@cache
def _stylesheet() -> str:
    return resources.files("nbstats.results").joinpath("result.css").read_text()


def html_block(title: str, scalars: Scalars, frame: pd.DataFrame | None) -> str:
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
    """
    parts = [
        f"<style>{_stylesheet()}</style>",
        '<div class="nbstats-result">',
        f'<div class="nbstats-title">{to_html(title)}</div>',
    ]
    if scalars:
        parts.append(html_grid(scalars))
    if frame is not None and len(frame):
        parts.append(
            '<div class="nbstats-scroll" role="region" tabindex="0" '
            'aria-label="table">' + html_table(frame) + "</div>"
        )
    parts.append("</div>")
    return "".join(parts)


def html_grid(scalars: Scalars) -> str:
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
    """
    rows = []
    for label, value in scalars:
        text = (
            to_html(value)
            if isinstance(value, Label)
            else html.escape(format_cell(value, pvalue=is_pvalue_name(label)))
        )
        rows.append(
            f'<div class="nbstats-row"><dt>{to_html(label)}</dt><dd>{text}</dd></div>'
        )
    return '<dl class="nbstats-grid">' + "".join(rows) + "</dl>"


def html_table(frame: pd.DataFrame) -> str:
    """An escaped HTML table of ``frame`` (index shown as the first column).

    Numbers are right-aligned cells of class ``num`` (never wrapped); text
    cells and row labels may wrap anywhere, so that long algorithm names fit.
    p-value columns (:func:`is_pvalue_name`) are written by
    :func:`format_pvalue`.

    Examples
    --------
    >>> frame = pd.DataFrame({"p": [0.5]}, index=pd.Index(["a<b"], name="pair"))
    >>> print(html_table(frame).replace("</tr>", "</tr>\\n"))
    <table class="nbstats-table"><thead><tr><th>pair</th><th>p</th></tr>
    </thead><tbody><tr><th scope="row">a&lt;b</th><td class="num">0.5000</td></tr>
    </tbody></table>
    """
    index_name = frame.index.name if frame.index.name is not None else ""
    head = "".join(
        f"<th>{to_html(c)}</th>" for c in [index_name, *map(str, frame.columns)]
    )
    pvalue = [is_pvalue_name(c) for c in frame.columns]
    rows = []
    for label, row in zip(frame.index, frame.itertuples(index=False), strict=True):
        cells = "".join(
            ('<td class="num">' if _is_number(v) else "<td>")
            + html.escape(format_cell(v, pvalue=p))
            + "</td>"
            for v, p in zip(row, pvalue, strict=True)
        )
        rows.append(f'<tr><th scope="row">{to_html(label)}</th>{cells}</tr>')
    return (
        '<table class="nbstats-table"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


# ---------------------------------------------------------------- LaTeX


def latex_table(
    frame: pd.DataFrame,
    *,
    caption: str | None = None,
    label: str | None = None,
    digits: int = 4,
    float_env: bool = True,
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
    index_name = to_latex(frame.index.name) if frame.index.name else ""
    header = [index_name, *(to_latex(c) for c in frame.columns)]
    pvalue = [is_pvalue_name(c) for c in frame.columns]
    body = [
        [
            to_latex(lab),
            *(_latex_cell(v, p, digits) for v, p in zip(row, pvalue, strict=True)),
        ]
        for lab, row in zip(frame.index, frame.itertuples(index=False), strict=True)
    ]
    tabular = _tabular(header, body)
    return _latex_float(tabular, caption, label) if float_env else tabular + "\n"


def latex_scalars(
    scalars: Scalars,
    *,
    caption: str | None = None,
    label: str | None = None,
    digits: int = 4,
    float_env: bool = True,
) -> str:
    r"""A booktabs table of labels and values (one row each), like
    :func:`latex_table`; p-value rows are written by :func:`format_pvalue`.

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
        [to_latex(name), _latex_cell(value, is_pvalue_name(name), digits)]
        for name, value in scalars
    ]
    tabular = _tabular(["", "value"], body)
    return _latex_float(tabular, caption, label) if float_env else tabular + "\n"


def _latex_cell(value: object, pvalue: bool, digits: int) -> str:
    if isinstance(value, Label):
        return value.latex
    if pvalue and _is_number(value):
        return format_pvalue(value, latex=True)
    text = format_value(value, digits)
    return "--" if text == "—" else escape_latex(text)


def _tabular(header: list[str], body: list[list[str]]) -> str:
    return "\n".join(
        [
            r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
            r"\toprule",
            " & ".join(header) + r" \\",
            r"\midrule",
            *(" & ".join(row) + r" \\" for row in body),
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )


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
        pvalue = [is_pvalue_name(c) for c in frame.columns]
        formatted = pd.DataFrame(
            [
                [format_cell(v, pvalue=p) for v, p in zip(row, pvalue, strict=True)]
                for row in frame.itertuples(index=False)
            ],
            index=frame.index,
            columns=frame.columns,
        )
        lines += ["", formatted.to_string()]
    return "\n".join(lines)
