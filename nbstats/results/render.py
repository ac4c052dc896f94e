"""Text, HTML and LaTeX rendering shared by every result object.

Hand-written rather than ``DataFrame.to_html``/``Styler.to_latex`` because the
output must escape every user-supplied name the same way in all three formats,
carry no external CSS or JS, and give booktabs tables that compile on their own
with ``\\usepackage{booktabs}`` and nothing else.
"""

from __future__ import annotations

import html
import math
from functools import cache
from importlib import resources
from numbers import Integral, Real

import numpy as np
import pandas as pd

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


# symbols that appear in nbstats' own labels, typeset the LaTeX way so that a
# table compiles with pdflatex as well as xelatex
_UNICODE_LATEX = {
    "χ": r"$\chi$",
    "²": r"$^2$",
    "ε": r"$\varepsilon$",
    "α": r"$\alpha$",
    "γ": r"$\gamma$",
    "θ": r"$\theta$",
    "−": "$-$",
    "–": "--",
    "—": "---",
    "∞": r"$\infty$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
}


def escape_latex(text: object) -> str:
    """Escape the characters LaTeX treats specially (``_ % & # $ { } ~ ^ \\``).

    A few symbols of nbstats' own labels (χ, ², ε, α, γ, θ, −, –, —, ∞, ≤, ≥)
    become their LaTeX equivalents; other characters are left for xelatex.

    Examples
    --------
    >>> escape_latex("C4.5_m & 50%")
    'C4.5\\\\_m \\\\& 50\\\\%'
    """
    return "".join(
        _LATEX_SPECIAL.get(ch) or _UNICODE_LATEX.get(ch, ch) for ch in str(text)
    )


def format_value(value: object, digits: int = 4) -> str:
    """Format a scalar for display: integers as such, floats to ``digits`` figures."""
    if value is None:
        return "—"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, Integral):
        return str(int(value))
    if isinstance(value, Real):
        v = float(value)
        if math.isnan(v):
            return "—"
        if math.isinf(v):
            return "∞" if v > 0 else "−∞"
        if v != 0 and float(v).is_integer() and abs(v) < 1e6:
            return f"{v:.1f}"
        text = f"{v:.{digits}g}"
        return text.replace("e-0", "e-").replace("e+0", "e+")
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(format_value(v, digits) for v in value) + ")"
    return str(value)


@cache
def _stylesheet() -> str:
    return resources.files("nbstats.results").joinpath("result.css").read_text()


def html_block(
    title: str, scalars: list[tuple[str, object]], frame: pd.DataFrame | None
) -> str:
    """One self-contained HTML fragment: heading, key/value list and a table."""
    parts = [f"<style>{_stylesheet()}</style>", '<div class="nbstats-result">']
    parts.append(f'<div class="nbstats-title">{html.escape(title)}</div>')
    if scalars:
        parts.append('<dl class="nbstats-scalars">')
        for label, value in scalars:
            parts.append(
                f"<dt>{html.escape(label)}</dt>"
                f"<dd>{html.escape(format_value(value))}</dd>"
            )
        parts.append("</dl>")
    if frame is not None and len(frame):
        parts.append(html_table(frame))
    parts.append("</div>")
    return "".join(parts)


def html_table(frame: pd.DataFrame) -> str:
    """An escaped HTML table of ``frame`` (index shown as the first column)."""
    index_name = frame.index.name if frame.index.name is not None else ""
    head = "".join(
        f"<th>{html.escape(str(c))}</th>" for c in [index_name, *frame.columns]
    )
    rows = []
    for label, row in zip(frame.index, frame.itertuples(index=False), strict=True):
        cells = "".join(f"<td>{html.escape(format_value(v))}</td>" for v in row)
        rows.append(f"<tr><th>{html.escape(str(label))}</th>{cells}</tr>")
    return (
        '<table class="nbstats-table"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def latex_table(
    frame: pd.DataFrame,
    *,
    caption: str | None = None,
    label: str | None = None,
    digits: int = 4,
    float_env: bool = True,
) -> str:
    r"""A booktabs table of ``frame`` that a paper can ``\input``.

    Needs ``\usepackage{booktabs}`` in the preamble. Names are escaped.
    """
    n_cols = frame.shape[1]
    index_name = escape_latex(frame.index.name) if frame.index.name else ""
    header = " & ".join([index_name, *(escape_latex(c) for c in frame.columns)])
    body = [
        " & ".join([escape_latex(lab), *(_latex_value(v, digits) for v in row)])
        + r" \\"
        for lab, row in zip(frame.index, frame.itertuples(index=False), strict=True)
    ]
    tabular = "\n".join(
        [
            r"\begin{tabular}{l" + "r" * n_cols + "}",
            r"\toprule",
            header + r" \\",
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular}",
        ]
    )
    if not float_env:
        return tabular + "\n"
    lines = [r"\begin{table}[htbp]", r"\centering"]
    if caption:
        lines.append(r"\caption{" + escape_latex(caption) + "}")
    if label:
        lines.append(r"\label{" + label + "}")
    lines += [tabular, r"\end{table}"]
    return "\n".join(lines) + "\n"


def _latex_value(value: object, digits: int) -> str:
    text = format_value(value, digits)
    return "--" if text == "—" else escape_latex(text)


def text_block(
    title: str, scalars: list[tuple[str, object]], frame: pd.DataFrame | None
) -> str:
    """Plain-text summary: title, aligned key/value lines and the table."""
    lines = [title, "=" * len(title)]
    width = max((len(label) for label, _ in scalars), default=0)
    lines += [f"{label:<{width}} : {format_value(value)}" for label, value in scalars]
    if frame is not None and len(frame):
        lines.append("")
        formatted = frame.map(format_value) if hasattr(frame, "map") else frame
        lines.append(formatted.to_string())
    return "\n".join(lines)
