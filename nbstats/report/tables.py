"""Tables built from data frames and result objects, in every format at once.

Every table is displayed in the report (HTML, and LaTeX that the report's
template sets) and written as a file beside a ``.tex`` or ``.pdf`` report
(``<report>_tables/<name>.tex``) for a paper's ``\\input``. The file is laid
out by the results' own rule (:func:`nbstats.results.render.latex_table` with
``fit=True``: it fits a 10 pt article's text width, splits a wide table into
parts, and sets a long one as a ``longtable``), so that it needs only the
packages a journal allows (booktabs, longtable, amsmath, graphicx).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from nbstats.report.display import table
from nbstats.results import render, render_text

__all__ = ["frame_table", "frame_text", "paper_latex", "result_table"]


def frame_text(frame: pd.DataFrame) -> str:
    """A frame as plain text by the number policy
    (:func:`nbstats.results.render_text.text_table`)."""
    return render_text.text_table(frame)


def paper_latex(
    frame: pd.DataFrame,
    caption: str,
    label: str,
    kinds: dict[str, str] | None = None,
) -> str:
    """The LaTeX of ``frame`` for a paper's ``\\input``: fitted to the page.

    Examples
    --------
    >>> frame = pd.DataFrame({"mean rank": [1.5, 2.5]}, index=["a", "b"])
    >>> "\\\\begin{table}" in paper_latex(frame, "Mean ranks.", "tab:x")
    True
    """
    return render.latex_table(
        frame, caption=caption, label=label, kinds=kinds, fit=True
    )


def frame_table(
    label: str,
    caption: str,
    frame: pd.DataFrame,
    *,
    kinds: dict[str, str] | None = None,
) -> None:
    """Display ``frame`` as a numbered table (booktabs LaTeX, escaped HTML);
    its file for ``\\input`` is :func:`paper_latex`."""
    name = label.split(":", 1)[1]
    table(
        label,
        caption,
        html_table=render.html_table(frame, kinds=kinds),
        latex=render.latex_table(frame, caption=caption, label=label, kinds=kinds),
        plain=frame_text(frame),
        files={f"{name}.tex": paper_latex(frame, caption, label, kinds)},
    )


def result_table(result: Any, label: str, caption: str) -> None:
    """A result's own table: ``to_latex()`` for LaTeX (fitted to the page, the
    file for ``\\input`` too), the same rows in HTML."""
    frame = result._table()
    kinds = result._kinds()  # e.g. a joint probability is a probability
    table(
        label,
        caption,
        html_table=render.html_table(frame, kinds=kinds),
        latex=result.to_latex(caption=caption, label=label),
        plain=render_text.text_table(frame, kinds=kinds),
    )
