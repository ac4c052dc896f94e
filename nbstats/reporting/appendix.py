"""The compact layout's appendix, and the tables that are CSV files only.

- :func:`appendix_note`, :func:`appendix_frequentist`: the appendix of every
  full table (:func:`nbstats.reporting.bayesian.appendix_bayesian` and
  :func:`nbstats.reporting.cells.appendix_ranks` add theirs);
- :func:`typeset_pairs`: whether a full pairwise table is short enough to be
  typeset;
- :func:`csv_download`: a table as a CSV download (a link in HTML, a file in
  ``<report>_tables/`` beside a PDF or LaTeX report, :data:`TABLES_FOLDER`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from nbstats.reporting.csv_safety import csv_text
from nbstats.reporting.display import (
    _display,
    _n,
    paragraph,
)
from nbstats.reporting.pairs import effect_caption
from nbstats.reporting.references import Paragraph
from nbstats.reporting.tables import result_table
from nbstats.results.render import escape_latex

__all__ = [
    "APPENDIX_ROWS",
    "TABLES_FOLDER",
    "appendix_frequentist",
    "appendix_note",
    "csv_download",
    "typeset_pairs",
]


#: A full pairwise table longer than this many rows is not typeset in the
#: appendix (m > 25 algorithms); it is a CSV file instead (a download link in
#: HTML, a file in ``<report>_tables/`` beside a PDF or LaTeX report).
APPENDIX_ROWS = 300


def typeset_pairs(n_pairs: int) -> bool:
    """Whether a full pairwise table of ``n_pairs`` rows is typeset in the appendix."""
    return n_pairs <= APPENDIX_ROWS


#: Replaced, when a PDF or LaTeX report is written, by the folder of its tables.
TABLES_FOLDER = "@@NBSTATS-TABLES-FOLDER@@"


def appendix_note() -> None:
    """The appendix's opening sentence."""
    paragraph(
        Paragraph().add(
            "The tables below hold every score and every pair; the text above "
            f"shows only the pairs that matter. Pairwise tables of more than "
            f"{APPENDIX_ROWS} rows are given as CSV files instead, and every "
            "pairwise table is also a CSV file (links below; beside a PDF or "
            "LaTeX report, in its folder of tables)."
        )
    )


def csv_download(
    name: str,
    description: str,
    frame: pd.DataFrame,
    *,
    tables: Mapping[str, str] | None = None,
) -> None:
    """A full table as a CSV file: a download link in HTML, a file beside LaTeX.

    HTML embeds the file as a ``data:`` URI (the report stays one file);
    the PDF and LaTeX exports write it to ``<report>_tables/<name>``, which
    the LaTeX text names. ``tables`` ({file name: LaTeX}): the same table
    typeset, written beside it in ``<report>_tables/`` by those exports
    (for a paper's appendix).
    """
    import base64
    import html

    text = csv_text(frame)
    rows = len(frame)
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    link = (
        f'<a download="{html.escape(name)}" '
        f'href="data:text/csv;charset=utf-8;base64,{encoded}">{html.escape(name)}</a>'
    )
    latex_name = escape_latex(name)
    _display(
        {
            "text/html": f'<p class="nbstats-text nbstats-download">{link}: '
            f"{html.escape(description)} ({rows:,} rows, CSV).</p>",
            "text/latex": f"\\noindent\\texttt{{{TABLES_FOLDER}/{latex_name}}}: "
            f"{escape_latex(description)} ({rows:,} rows, CSV file beside this "
            "report).\n\n",
            "text/plain": f"{name}: {description} ({rows:,} rows, CSV).",
        },
        {
            "nbstats": {
                "kind": "csv",
                "name": name,
                "csv": text,
                **({"tables_files": dict(tables)} if tables else {}),
            }
        },
    )


def appendix_frequentist(nemenyi: Any, holm: Any) -> None:
    """Every Nemenyi pair and Holm's comparisons against the best."""
    caption = (
        f"Nemenyi test of every pair at α = {_n(nemenyi.alpha)} on the "
        f"{nemenyi.n_cases:,} cases: mean ranks, "
        "z statistic, unadjusted and Nemenyi-adjusted p-values, and whether "
        f"the pair differs{effect_caption('tab:nemenyi-all')}"
    )
    csv_download("nemenyi_pairs.csv", caption, nemenyi.to_frame())
    if typeset_pairs(len(nemenyi.to_frame())):
        result_table(nemenyi, "tab:nemenyi-all", caption)
    result_table(
        holm,
        "tab:holm",
        f"Every algorithm against the best-ranked one, {holm.control}: z-tests "
        f"on mean ranks with Holm's step-down correction at α = {_n(holm.alpha)}, "
        f"on the {holm.n_cases:,} cases{effect_caption('tab:holm')}",
    )
