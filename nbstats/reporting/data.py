"""The report's Data section: the opening summary and the table of scores
(the CSV of every exported table: :mod:`nbstats.reporting.csv_safety`)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.display import _and, paragraph, ref, table
from nbstats.reporting.methods import Paragraph
from nbstats.results.number_policy import format_column
from nbstats.results.render import name_html
from nbstats.results.table_model import Cell, Table

#: Above this many algorithms the score table leaves out the rank of every
#: score (the mean ranks stay), in HTML and LaTeX.
RANKED_COLUMNS = 12
#: Names longer than this (characters) may wrap in the HTML score table.
LONG_NAME = 12
#: The score table shows at most this many cases (the first ones); its
#: caption says how many more there are. Every score stays in the notebook's
#: data (``SCORES_CSV``), and the mean ranks are over every case.
SHOWN_CASES = 100


def summary(
    scores: pd.DataFrame,
    *,
    higher_is_better: bool = True,
    n_given: int | None = None,
    aliased: bool = False,
) -> None:
    """The opening paragraph: what is compared, on what, which way is better
    (``n_given``: the cases given, when some have a missing score and
    ``scores`` holds the complete ones; ``aliased``: some columns are short
    aliases, which the opening does not use before the aliases table)."""
    from importlib.metadata import version

    from nbstats.reporting.prepare import COMPACT_ABOVE

    m, n = scores.shape[1], scores.shape[0]
    direction = "Higher" if higher_is_better else "Lower"
    # many names are listed by the Data section's table, not in a sentence
    names: tuple = (f" ({_and(scores.columns)})",) if m <= COMPACT_ABOVE else ()
    if aliased:  # an alias would be read before the table that defines it
        names = (" (", ref("tab:aliases"), " names them)")
    on = f"{n} cases"
    if n_given is not None and n_given != n:
        on = f"{n_given} cases, {n} of them with a score from every algorithm"
    para = Paragraph().add(
        f"This report compares {m} algorithms",
        *names,
        f" on {on}. "
        f"{direction} scores are better; ranks are 1 for the best. Every "
        f"number below was recomputed by nbstats {version('nbstats')} from the "
        "scores embedded in the report's notebook; the Methods section states "
        "how.",
    )
    paragraph(para, "nbstats-text nbstats-summary")


def scores_table(scores: pd.DataFrame, *, higher_is_better: bool = True) -> None:
    """Table: every score with its rank, the mean ranks, the best in bold;
    beyond :data:`SHOWN_CASES` cases, the first ones and how many more."""
    from nbstats.scores.ranks import mean_ranks
    from nbstats.scores.ranks import ranks as rank_table

    mean = mean_ranks(scores, higher_is_better=higher_is_better)
    shown = scores.iloc[:SHOWN_CASES]
    ranks = rank_table(shown, higher_is_better=higher_is_better)
    values = shown.to_numpy()
    best = values.max(axis=1) if higher_is_better else values.min(axis=1)
    bold = values == best[:, None]
    with_ranks = scores.shape[1] <= RANKED_COLUMNS
    texts = _score_texts(values)
    cells = [
        [
            f"{v} ({r:g})" if with_ranks else v
            for v, r in zip(row, rank_row, strict=True)
        ]
        for row, rank_row in zip(texts, ranks.to_numpy(), strict=True)
    ]
    mean_cells = format_column(mean.tolist(), "rank").cells
    mean_bold = (mean.to_numpy() == mean.min()).tolist()
    names = [str(c) for c in scores.columns]
    index_name = str(scores.index.name or "case")
    caption = _scores_caption(scores.shape, higher_is_better, with_ranks=with_ranks)
    left_out = len(scores) - len(shown)
    scores = shown

    def h(text: str, strong: bool) -> str:
        text = html.escape(text)
        if with_ranks and " (" in text:
            # the rank on a line of its own, under its score: twelve columns
            # of "100.0 (11.5)" would not fit the column
            score, rank = text.split(" (", 1)
            text = (
                f'<span class="nbstats-score">{score}</span> '
                f'<span class="nbstats-rank">({rank}</span>'
            )
        return f"<strong>{text}</strong>" if strong else text

    head = f"<th>{html.escape(index_name)}</th>" + "".join(
        _head_html(c, vertical=_vertical_heads(names)) for c in names
    )
    body = [
        f"<tr><th>{_name_html(str(case))}</th>"
        + "".join(f"<td>{h(c, b)}</td>" for c, b in zip(row, brow, strict=True))
        + "</tr>"
        for case, row, brow in zip(scores.index, cells, bold.tolist(), strict=True)
    ]
    foot = (
        '<tr class="nbstats-mean-rank"><th>mean rank</th>'
        + "".join(
            f"<td>{h(c, b)}</td>" for c, b in zip(mean_cells, mean_bold, strict=True)
        )
        + "</tr>"
    )
    html_table = (
        '<table class="nbstats-table nbstats-scores"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + "".join(body)
        + "</tbody><tfoot>"
        + foot
        + "</tfoot></table>"
    )

    model = _scores_model(
        scores,
        names=names,
        index_name=index_name,
        cells=cells,
        bold=bold.tolist(),
        mean_cells=mean_cells,
        mean_bold=mean_bold,
        caption=caption,
        n_cases=len(scores) + left_out,
    )
    table(model, html_table=html_table)


#: Header characters (a name counted at least 6 and at most LONG_NAME
#: characters, as it wraps) above which the score table's algorithm names are
#: set vertically, so that the columns are as narrow as their scores and
#: twelve algorithms fit the report's 46rem column.
VERTICAL_HEADS = 80


def _vertical_heads(names: Sequence[str]) -> bool:
    """Whether the names, side by side, would be wider than the column.

    Examples
    --------
    >>> _vertical_heads(list("ABCDEFGHIJKL")), _vertical_heads(["x" * 20] * 12)
    (False, True)
    """
    return sum(max(min(len(n), LONG_NAME), 6) for n in names) > VERTICAL_HEADS


def _head_html(name: str, *, vertical: bool) -> str:
    """The header cell of an algorithm's column."""
    if vertical:
        return (
            '<th class="nbstats-vertical">'
            f'<span class="nbstats-vertical-name">{name_html(name)}</span></th>'
        )
    return f"<th>{_name_html(name)}</th>"


def _score_texts(values: Any) -> list[list[str]]:
    """Every score with the decimals of the whole table (the number policy's
    "score": the data's own precision, at most 4); at an extreme scale each
    in scientific notation, as no header names a power of ten here.

    Examples
    --------
    >>> import numpy as np
    >>> _score_texts(np.array([[0.8, 0.85], [1.0, 0.8522]]))
    [['0.8000', '0.8500'], ['1.0000', '0.8522']]
    >>> _score_texts(np.array([[0.41, 2.4e6]]))
    [['4.100 × 10⁻¹', '2.400 × 10⁶']]
    """
    column = format_column(values.ravel().tolist(), "score", common_scale=False)
    width = values.shape[1]
    return [column.cells[i : i + width] for i in range(0, len(column.cells), width)]


def _name_html(name: str) -> str:
    """An escaped name; a long one in a box that wraps at 9em (the CSS)."""
    if len(name) <= LONG_NAME:
        return html.escape(name)
    return f'<span class="nbstats-name">{name_html(name)}</span>'


def _scores_caption(
    shape: tuple[int, int], higher_is_better: bool, *, with_ranks: bool
) -> str:
    """The score table's caption; beyond :data:`SHOWN_CASES` cases it says
    which are shown and how many are left out."""
    direction = "higher" if higher_is_better else "lower"
    ranks = (
        "with each algorithm's rank on each case in parentheses (1 = best; ties "
        "share the average rank) and "
        if with_ranks
        else "with "
    )
    return (
        f"Scores of the {shape[1]} algorithms on the {shape[0]} cases "
        f"({direction} scores are better), {ranks}the mean rank (1 = best) in the "
        "last row. The best score of each case and the best mean rank are in bold."
        + _left_out(shape[0])
    )


def _left_out(n: int) -> str:
    """The caption's sentence on the cases a long score table leaves out.

    Examples
    --------
    >>> _left_out(1_000_000)[:61]
    ' Only the first 100 of the 1,000,000 cases are shown (999,900'
    >>> _left_out(100)
    ''
    """
    if n <= SHOWN_CASES:
        return ""
    return (
        f" Only the first {SHOWN_CASES} of the {n:,} cases are shown "
        f"({n - SHOWN_CASES:,} left out); the mean ranks are over all of them, "
        "and every score is in the data embedded in the report's notebook."
    )


def _scores_model(
    scores: pd.DataFrame,
    *,
    names: list[str],
    index_name: str,
    cells: list[list[str]],
    bold: list[list[bool]],
    mean_cells: list[str],
    mean_bold: list[bool],
    caption: str,
    n_cases: int,
) -> Table:
    """The score table's model: a row per case (scores, with their ranks),
    the best of each in bold, and under a rule the mean ranks."""
    header = (Cell(index_name), *(Cell(n) for n in names))
    rows = [
        (
            Cell(str(case), "name"),
            *(Cell(c, "score", bold=b) for c, b in zip(row, brow, strict=True)),
        )
        for case, row, brow in zip(scores.index, cells, bold, strict=True)
    ]
    rows.append(
        (
            Cell("mean rank", "name"),
            *(
                Cell(c, "rank", bold=b)
                for c, b in zip(mean_cells, mean_bold, strict=True)
            ),
        )
    )
    return Table(
        header,
        tuple(rows),
        caption=caption,
        label="tab:scores",
        n_cases=n_cases,
        rules=frozenset({len(rows) - 1}),
    )
