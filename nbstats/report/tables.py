"""Tables built from data frames and result objects, in every format at once."""

from __future__ import annotations

from typing import Any

import pandas as pd

from nbstats.report.display import table
from nbstats.results import render

__all__ = ["frame_table", "frame_text", "result_table"]


def frame_text(frame: pd.DataFrame) -> str:
    """A frame as plain text: p-values as 0.0012 or < 0.001, other numbers
    with four significant figures (:func:`nbstats.results.render.text_table`)."""
    return render.text_table(frame)


def frame_table(label: str, caption: str, frame: pd.DataFrame) -> None:
    """Display ``frame`` as a numbered table (booktabs LaTeX, escaped HTML)."""
    table(
        label,
        caption,
        html_table=render.html_table(frame),
        latex=render.latex_table(frame, caption=caption, label=label),
        plain=frame_text(frame),
    )


def result_table(result: Any, label: str, caption: str) -> None:
    """A result's own table: ``to_latex()`` for LaTeX, the same rows in HTML."""
    frame = result._table()
    table(
        label,
        caption,
        html_table=render.html_table(frame),
        latex=result.to_latex(caption=caption, label=label),
        plain=frame_text(frame),
    )
