"""The report's Data section: the opening summary and the table of scores."""

from __future__ import annotations

import html

import pandas as pd

from nbstats.report.display import _and, paragraph, table
from nbstats.report.methods import Paragraph
from nbstats.results.render import escape_latex, format_value

#: Above this many cases the LaTeX score table becomes a longtable.
LONGTABLE_ROWS = 30
#: Above this many algorithms the LaTeX score table is scaled to the text width.
WIDE_COLUMNS = 6
#: Algorithm names longer than this are set upright in a longtable's header.
LONG_NAME = 12


def summary(scores: pd.DataFrame, *, higher_is_better: bool = True) -> None:
    """The opening paragraph: what is compared, on what, which way is better."""
    import nbstats

    m, n = scores.shape[1], scores.shape[0]
    direction = "Higher" if higher_is_better else "Lower"
    para = Paragraph().add(
        f"This report compares {m} algorithms ({_and(scores.columns)}) on {n} "
        f"cases. {direction} scores are better; ranks are 1 for the best. Every "
        f"number below was recomputed by nbstats {nbstats.__version__} from the "
        "scores embedded in the report's notebook; the Methods section states "
        "how."
    )
    paragraph(para, "nbstats-text nbstats-summary")


def scores_table(scores: pd.DataFrame, *, higher_is_better: bool = True) -> None:
    """Table: every score with its rank, the mean ranks, the best in bold."""
    import nbstats

    ranks = nbstats.ranks(scores, higher_is_better=higher_is_better)
    mean = nbstats.mean_ranks(scores, higher_is_better=higher_is_better)
    values = scores.to_numpy()
    best = values.max(axis=1) if higher_is_better else values.min(axis=1)
    bold = values == best[:, None]
    cells = [
        [f"{format_value(v)} ({r:g})" for v, r in zip(row, rank_row, strict=True)]
        for row, rank_row in zip(values, ranks.to_numpy(), strict=True)
    ]
    mean_cells = [f"{r:.3f}" for r in mean]
    mean_bold = (mean.to_numpy() == mean.min()).tolist()
    names = [str(c) for c in scores.columns]
    index_name = str(scores.index.name or "case")
    caption = _scores_caption(scores.shape, higher_is_better, with_ranks=True)

    def h(text: str, strong: bool) -> str:
        text = html.escape(text)
        return f"<strong>{text}</strong>" if strong else text

    head = "".join(f"<th>{html.escape(c)}</th>" for c in [index_name, *names])
    body = [
        f"<tr><th>{html.escape(str(case))}</th>"
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

    latex = _scores_latex(
        scores,
        names=names,
        index_name=index_name,
        cells=cells,
        bold=bold.tolist(),
        mean_cells=mean_cells,
        mean_bold=mean_bold,
        higher_is_better=higher_is_better,
    )
    plain = pd.DataFrame(cells, index=scores.index, columns=names)
    plain.loc["mean rank"] = mean_cells
    table(
        "tab:scores",
        caption,
        html_table=html_table,
        latex=latex,
        plain=plain.to_string(),
    )


def _scores_caption(
    shape: tuple[int, int], higher_is_better: bool, *, with_ranks: bool
) -> str:
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
    )


def _scores_latex(
    scores: pd.DataFrame,
    *,
    names: list[str],
    index_name: str,
    cells: list[list[str]],
    bold: list[list[bool]],
    mean_cells: list[str],
    mean_bold: list[bool],
    higher_is_better: bool,
) -> str:
    """The score table in LaTeX: a float (scaled to the text width when it has
    many algorithms), or a longtable across pages when it has many cases.

    A longtable cannot be scaled: with many algorithms it drops the per-case
    ranks (the mean ranks stay) and sets a smaller font, and with many or long
    names it sets them upright (rotated) in the header.
    """

    def t(text: str, strong: bool) -> str:
        text = escape_latex(text)
        return f"\\textbf{{{text}}}" if strong else text

    long = len(scores) > LONGTABLE_ROWS
    wide = len(names) > WIDE_COLUMNS
    caption = _scores_caption(
        scores.shape, higher_is_better, with_ranks=not (long and wide)
    )
    if long and wide:
        cells = [[c.split(" (")[0] for c in row] for row in cells]
    if long and (wide or max(len(n) for n in names) > LONG_NAME):
        heads = [f"\\rotatebox{{90}}{{{escape_latex(n)}}}" for n in names]
    else:
        heads = [escape_latex(n) for n in names]
    header = " & ".join([escape_latex(index_name), *heads]) + r" \\"
    rows = [
        " & ".join(
            [escape_latex(case)] + [t(c, b) for c, b in zip(row, brow, strict=True)]
        )
        + r" \\"
        for case, row, brow in zip(scores.index, cells, bold, strict=True)
    ]
    mean_row = (
        " & ".join(
            ["mean rank"]
            + [t(c, b) for c, b in zip(mean_cells, mean_bold, strict=True)]
        )
        + r" \\"
    )
    spec = "l" + "r" * len(names)
    label = "tab:scores"
    if long:
        lines = [
            r"\begingroup"
            + (r"\footnotesize\setlength{\tabcolsep}{2pt}" if wide else r"\small"),
            r"\begin{longtable}{" + spec + "}",
            r"\caption{" + escape_latex(caption) + r"}\label{" + label + r"}\\",
            r"\toprule",
            header,
            r"\midrule",
            r"\endfirsthead",
            r"\toprule",
            header,
            r"\midrule",
            r"\endhead",
            r"\bottomrule",
            r"\endfoot",
            *rows,
            r"\midrule",
            mean_row,
            r"\end{longtable}",
            r"\endgroup",
        ]
    else:
        tabular = [
            r"\begin{tabular}{" + spec + "}",
            r"\toprule",
            header,
            r"\midrule",
            *rows,
            r"\midrule",
            mean_row,
            r"\bottomrule",
            r"\end{tabular}",
        ]
        if wide:
            tabular = [r"\resizebox{\linewidth}{!}{%", *tabular, "}"]
        lines = [
            r"\begin{table}[htbp]",
            r"\centering",
            r"\caption{" + escape_latex(caption) + "}",
            r"\label{" + label + "}",
            *tabular,
            r"\end{table}",
        ]
    return "\n".join(lines) + "\n"
