"""Tables built from data frames and result objects, in every format at once.

Every table is a table model (:mod:`nbstats.results.table_model`), displayed
in the report (HTML, and the LaTeX of the report's venue) and written as a
file beside a ``.tex`` or ``.pdf`` report (``<report>_tables/<name>.tex``)
for a paper's ``\\input``: the same LaTeX, the ``to_latex(venue=...)`` of
the result (:func:`nbstats.results.render_latex.latex`), which needs only
the packages a journal allows (booktabs, tabularx, xltabular).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from nbstats.reporting.display import table
from nbstats.results import render_text
from nbstats.results.table_model import from_frame

__all__ = ["frame_table", "frame_text", "result_table"]


def frame_text(frame: pd.DataFrame) -> str:
    """A frame as plain text by the number policy
    (:func:`nbstats.results.render_text.text_table`)."""
    return render_text.text_table(frame)


def frame_table(
    label: str,
    caption: str,
    frame: pd.DataFrame,
    *,
    kinds: dict[str, str] | None = None,
) -> None:
    """Display ``frame`` as a numbered table (its table model, every format)."""
    table(from_frame(frame, kinds, caption=caption, label=label))


def result_table(result: Any, label: str, caption: str) -> None:
    """A result's own table: its table model (:meth:`table_model`), the one
    its ``to_latex()`` draws, in every format."""
    table(result.table_model(caption=caption, label=label))
