"""Display helpers that the report notebook's hidden cells call, in the kernel.

Each helper displays one output per item with ``text/html`` (escaped HTML;
figures as SVG ``data:`` URIs inside ``<figure>``), ``text/latex`` (escaped
LaTeX, booktabs tables from the results' ``to_latex()``), ``application/pdf``
for figures and ``text/plain``. Table and figure numbers are assigned by
:func:`start`, in display order, so HTML and LaTeX agree. The notebook itself
is built by :mod:`nbstats.report.notebook`.
"""

from __future__ import annotations

import base64
import html
import io
import itertools
from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.report.methods import CHI2_F, F_F, Alt, Paragraph
from nbstats.report.notebook import read_scores  # noqa: F401  (the cells call it)
from nbstats.results import render
from nbstats.results.render import escape_latex, format_value

#: Above this many cases the LaTeX score table becomes a longtable.
LONGTABLE_ROWS = 30
#: Above this many algorithms the LaTeX score table is scaled to the text width.
WIDE_COLUMNS = 6
#: Algorithm names longer than this are set upright in a longtable's header.
LONG_NAME = 12


class _Numbers:
    """Table and figure numbers, assigned in display order by :func:`start`."""

    def __init__(self) -> None:
        self.tables: list[str] = []
        self.figures: list[str] = []

    def number(self, label: str) -> int:
        kind = self.tables if label.startswith("tab:") else self.figures
        if label not in kind:
            kind.append(label)
        return kind.index(label) + 1


_NUMBERS = _Numbers()


def start(*, tables: Sequence[str] = (), figures: Sequence[str] = ()) -> None:
    """First cell of a report: number the floats; vector figure formats."""
    import warnings

    _NUMBERS.tables = list(tables)
    _NUMBERS.figures = list(figures)
    # library deprecation notices are no part of a report
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # pragma: no cover - ipykernel ships matplotlib-inline
        return
    # any figure shown the ordinary way is vector too (SVG for HTML, PDF for
    # LaTeX); the report's own figures are displayed by figure() below
    set_matplotlib_formats("svg", "pdf")


def pairs(order: Sequence[str]) -> list[tuple[str, str]]:
    """``(better-ranked, worse-ranked)`` for every pair of ``order`` (best first)."""
    return [(order[i], order[j]) for i, j in _index_pairs(len(order))]


def _index_pairs(m: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(m), 2))


def ref(label: str) -> Alt:
    """A cross-reference: "Table 3" in text and HTML, ``Table~\\ref{...}`` in LaTeX."""
    kind = "Table" if label.startswith("tab:") else "Figure"
    n = _NUMBERS.number(label)
    anchor = label.replace(":", "-")
    return Alt(
        text=f"{kind} {n}",
        html=f'<a href="#{anchor}">{kind} {n}</a>',
        latex=f"{kind}~\\ref{{{label}}}",
    )


def _display(bundle: dict[str, str], metadata: dict[str, Any] | None = None) -> None:
    from IPython.display import display

    display(bundle, raw=True, metadata=metadata or {})


def paragraph(para: Paragraph, css_class: str = "nbstats-text") -> None:
    """Display a paragraph in every format."""
    _display(
        {
            "text/html": f'<p class="{css_class}">{para.html()}</p>',
            "text/latex": para.latex() + "\n",
            "text/plain": para.text(),
        }
    )


def table(
    label: str,
    caption: str,
    *,
    html_table: str,
    latex: str,
    plain: str,
    files: dict[str, str] | None = None,
) -> None:
    """Display a numbered table with its caption (above it).

    ``latex`` is the whole float (``to_latex(caption=..., label=label)``);
    ``files`` maps file names to the LaTeX tables a ``.tex`` export writes
    next to the report (default: this table as ``<label>.tex``).
    """
    n = _NUMBERS.number(label)
    anchor = label.replace(":", "-")
    markup = (
        f'<figure class="nbstats-float nbstats-table-float" id="{anchor}">'
        f'<figcaption><span class="nbstats-label">Table {n}.</span> '
        f"{html.escape(caption)}</figcaption>"
        f'<div class="nbstats-table-wrap">{html_table}</div></figure>'
    )
    name = label.split(":", 1)[1]
    _display(
        {
            "text/html": markup,
            "text/latex": _fit_width(latex),
            "text/plain": f"Table {n}. {caption}\n{plain}",
        },
        {
            "nbstats": {
                "kind": "table",
                "label": label,
                "number": n,
                "files": files if files is not None else {f"{name}.tex": latex},
            }
        },
    )


def _fit_width(latex: str) -> str:
    """Shrink a float's tabular to the text width when it is wider (adjustbox,
    which nbconvert's LaTeX template loads); longtables are left alone."""
    if "\\begin{tabular}" not in latex or "\\resizebox" in latex:
        return latex
    return latex.replace(
        "\\begin{tabular}",
        "\\begin{adjustbox}{max width=\\linewidth}\n\\begin{tabular}",
        1,
    ).replace("\\end{tabular}", "\\end{tabular}\n\\end{adjustbox}", 1)


def figure(label: str, caption: str, fig: Any) -> None:
    """Display a numbered figure: SVG ``data:`` URI in HTML, vector PDF for LaTeX."""
    import matplotlib.pyplot as plt

    from nbstats.plots import save

    svg, pdf = io.BytesIO(), io.BytesIO()
    save(fig, svg, format="svg")
    save(fig, pdf, format="pdf")
    plt.close(fig)
    n = _NUMBERS.number(label)
    anchor = label.replace(":", "-")
    svg64 = base64.b64encode(svg.getvalue()).decode("ascii")
    markup = (
        f'<figure class="nbstats-float nbstats-figure" id="{anchor}">'
        f'<img src="data:image/svg+xml;base64,{svg64}" '
        f'alt="{html.escape(caption)}">'
        f'<figcaption><span class="nbstats-label">Figure {n}.</span> '
        f"{html.escape(caption)}</figcaption></figure>"
    )
    _display(
        {
            "text/html": markup,
            "application/pdf": base64.b64encode(pdf.getvalue()).decode("ascii"),
            "text/plain": f"Figure {n}. {caption}",
        },
        {
            "nbstats": {
                "kind": "figure",
                "label": label,
                "number": n,
                "caption_latex": escape_latex(caption),
            }
        },
    )


def _and(names: Sequence[str]) -> str:
    names = [str(n) for n in names]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _n(value: object, digits: int = 4) -> str:
    """``digits`` significant figures, and no ".0" on whole numbers."""
    text = format_value(value, digits)
    return text[:-2] if text.endswith(".0") else text


def _p(value: float) -> str:
    """A p-value: 4 significant figures, or "< 0.0001"."""
    return "< 0.0001" if value < 1e-4 else f"= {_n(value)}"


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


def _frame_text(frame: pd.DataFrame) -> str:
    return frame.map(format_value).to_string()


def _result_table(result: Any, label: str, caption: str) -> None:
    """A result's own table: ``to_latex()`` for LaTeX, the same rows in HTML."""
    frame = result._table()
    table(
        label,
        caption,
        html_table=render.html_table(frame),
        latex=result.to_latex(caption=caption, label=label),
        plain=_frame_text(frame),
    )


def omnibus(friedman: Any, bayes_friedman: Any, *, alpha: float) -> None:
    """Friedman, Iman–Davenport and Bayesian Friedman: a paragraph and a table."""
    para = Paragraph()
    rows: dict[str, list[str]] = {}
    files: dict[str, str] = {}
    if friedman is not None:
        verdict = "rejects" if friedman.pvalue <= alpha else "does not reject"
        f_verdict = "rejects" if friedman.f_pvalue <= alpha else "does not reject"
        para.add(
            f"The Friedman test {verdict} the hypothesis that all algorithms "
            f"perform equally at α = {_n(alpha)} (",
            CHI2_F,
            f" = {_n(friedman.statistic)}, df = {friedman.df}, "
            f"p {_p(friedman.pvalue)}); the less conservative Iman–Davenport "
            f"statistic {f_verdict} it (",
            F_F,
            f" = {_n(friedman.f_statistic)}, df = ({friedman.f_df[0]}, "
            f"{friedman.f_df[1]}), p {_p(friedman.f_pvalue)}). ",
        )
        rows["Friedman χ²"] = [
            _n(friedman.statistic),
            f"df = {friedman.df}",
            f"p {_p(friedman.pvalue)}",
            "reject" if friedman.pvalue <= alpha else "keep",
        ]
        rows["Iman–Davenport F"] = [
            _n(friedman.f_statistic),
            f"df = ({friedman.f_df[0]}, {friedman.f_df[1]})",
            f"p {_p(friedman.f_pvalue)}",
            "reject" if friedman.f_pvalue <= alpha else "keep",
        ]
        files["friedman.tex"] = friedman.to_latex(label="tab:friedman")
    if bayes_friedman is not None:
        bf = bayes_friedman
        level = f"{_n(100 * bf.credible_level)}%"
        para.add(
            f"The Bayesian Friedman test (s = {_n(bf.s)}) concludes: "
            f"{bf.decision}; the smallest credible region containing equal mean "
            f"ranks has level {_n(bf.credibility)}. "
        )
        rows["Bayesian Friedman"] = [
            f"D² = {_n(bf.statistic)}",
            f"{_n(bf.rho)} ({level})",
            _n(bf.credibility),
            "differ" if bf.reject else "no evidence",
        ]
        files["bayes_friedman.tex"] = bf.to_latex(label="tab:bayes-friedman")
    para.add("See ", ref("tab:omnibus"), ".")
    paragraph(para)
    frame = pd.DataFrame.from_dict(
        rows,
        orient="index",
        columns=["statistic", "df / threshold", "p-value / credibility", "decision"],
    )
    frame.index.name = "test"
    caption = "Omnibus tests of the hypothesis that all algorithms perform equally"
    if friedman is not None:
        caption += (
            f": Friedman's χ² and the Iman–Davenport F reject it or keep it at "
            f"α = {_n(alpha)}"
        )
    if bayes_friedman is not None:
        caption += (
            f"{';' if friedman is not None else ':'} the Bayesian Friedman test "
            f"(s = {_n(bayes_friedman.s)}) finds the algorithms different when "
            "D², the squared Mahalanobis distance of equal mean ranks from the "
            "posterior, exceeds its threshold at the credible level, i.e. when "
            "the credibility (level of the smallest credible region containing "
            "equal mean ranks) exceeds that level"
        )
    caption += "."
    latex = render.latex_table(frame, caption=caption, label="tab:omnibus")
    table(
        "tab:omnibus",
        caption,
        html_table=render.html_table(frame),
        latex=latex,
        plain=frame.to_string(),
        files={"omnibus.tex": latex, **files},
    )


def posthoc(nemenyi: Any, holm: Any) -> None:
    """Nemenyi (CD diagram and table) and Holm against the best-ranked."""
    para = Paragraph().add(
        f"With the Nemenyi test at α = {_n(nemenyi.alpha)} the critical "
        f"difference of mean ranks is CD = {_n(nemenyi.critical_difference)}. "
    )
    significant = nemenyi.significant_pairs()
    if significant:
        para.add(
            "Significantly different: "
            + "; ".join(f"{a} better than {b}" for a, b in significant)
            + ". "
        )
    else:
        para.add("No two algorithms differ significantly. ")
    para.add(
        ref("fig:cd"),
        " shows the critical-difference diagram and ",
        ref("tab:nemenyi"),
        " every pair. ",
    )
    rejected = [str(b) for b, r in holm.reject.items() if r]
    para.add(f"Against the best-ranked algorithm, {holm.control}, Holm's procedure ")
    if rejected:
        para.add(f"finds {_and(rejected)} significantly worse")
    else:
        para.add("finds no algorithm significantly worse")
    para.add(" (", ref("tab:holm"), ").")
    paragraph(para)
    m = len(nemenyi.mean_ranks)
    ax = nemenyi.plot(width="double")
    figure(
        "fig:cd",
        f"Critical-difference diagram: mean ranks (1 = best) of the {m} "
        f"algorithms and the Nemenyi critical difference CD = "
        f"{_n(nemenyi.critical_difference)} at α = {_n(nemenyi.alpha)}; "
        "algorithms joined by a bar do not differ significantly.",
        ax.figure,
    )
    _result_table(
        nemenyi,
        "tab:nemenyi",
        f"Nemenyi test of every pair at α = {_n(nemenyi.alpha)}: mean ranks, "
        "z statistic (positive when the second algorithm ranks better), "
        "unadjusted and Nemenyi-adjusted p-values, and whether the pair differs.",
    )
    _result_table(
        holm,
        "tab:holm",
        f"Every algorithm against the best-ranked one, {holm.control}: z-tests "
        f"on mean ranks with Holm's step-down correction at α = {_n(holm.alpha)}.",
    )


_DECISION = {"b": "better", "a": "not better", "indeterminate": "indeterminate"}


def bayesian(signrank: Sequence[Any], joint: Any, *, loss: Sequence[float]) -> None:
    """Pairwise Bayesian signed-rank tests, joint statements and their heatmap."""
    first = signrank[0] if signrank else None
    rows = {}
    for res in signrank:
        row = {
            "P(better), lower": res.prob_lower,
            "P(better), upper": res.prob_upper,
        }
        if res.rope > 0:
            row["P(rope)"] = res.prob_rope
        row["decision"] = _DECISION[res.decision]
        rows[f"{res.name_b} vs {res.name_a}"] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "comparison"
    para = Paragraph()
    if first is not None:
        prior = {
            "idp": f"near-ignorance prior, s = {_n(first.s)}",
            "bb": "Bayesian bootstrap, s → 0",
            "point": f"prior s = {_n(first.s)} at 0",
        }[first.prior]
        better = [f"{r.name_b} over {r.name_a}" for r in signrank if r.decision == "b"]
        unsure = [r for r in signrank if r.decision == "indeterminate"]
        para.add(
            ref("tab:signrank"),
            " compares every pair with the Bayesian signed-rank test "
            f"({prior}; losses ({_n(loss[0])}, {_n(loss[1])}), so a threshold of "
            f"{_n(first.threshold)}). ",
        )
        if better:
            para.add(
                f"The better-ranked algorithm is decided better for {_and(better)}"
            )
        else:
            para.add("No pair is decided in favour of the better-ranked algorithm")
        if unsure:
            para.add(
                f"; {len(unsure)} pair{'s are' if len(unsure) > 1 else ' is'} "
                "indeterminate (the lower and upper posterior probabilities "
                "straddle the threshold)"
            )
        para.add(". ")
    accepted = joint.statements[joint.statements["accepted"]]
    if len(accepted):
        statements = [
            f"{b} > {w}"
            for b, w in zip(accepted["better"], accepted["worse"], strict=True)
        ]
        together = float(accepted["joint"].iloc[-1])
        para.add(
            f"Jointly, the accepted statements are {_and(statements)}, which hold "
            f"together with posterior probability {_n(together)} "
            f"> 1 − γ = {_n(1 - joint.gamma)} ("
        )
    else:
        top = joint.statements.iloc[0]
        para.add(
            "No joint statement is accepted: even the most probable, "
            f"{top['better']} > {top['worse']}, has posterior probability "
            f"{_n(float(top['prob']))} ≤ 1 − γ = {_n(1 - joint.gamma)} ("
        )
    para.add(ref("tab:joint"), ", ", ref("fig:joint"), ").")
    paragraph(para)
    if first is not None:
        caption = (
            "Bayesian signed-rank test of every pair, the better-ranked algorithm "
            "first: posterior probability that it is better than the second "
            f"({prior}; under the near-ignorance prior the lower and upper "
            "probabilities bound those of every prior of that strength)"
        )
        if first.rope > 0:
            caption += (
                f", probability that the two are practically equivalent (rope "
                f"±{_n(first.rope)})"
            )
        caption += (
            f", and the decision at threshold {_n(first.threshold)}: better, not "
            "better, or indeterminate when the lower and upper probabilities "
            "straddle the threshold."
        )
        table(
            "tab:signrank",
            caption,
            html_table=render.html_table(frame),
            latex=render.latex_table(frame, caption=caption, label="tab:signrank"),
            plain=_frame_text(frame),
        )
    _result_table(
        joint,
        "tab:joint",
        f"Joint Bayesian statements (Bayesian {joint.test} test, s = {_n(joint.s)}) "
        "sorted by posterior probability (prob); joint: probability that the "
        "statement and all those above it hold together; accepted while joint > "
        f"1 − γ = {_n(1 - joint.gamma)}.",
    )
    m = len(joint.mean_ranks)
    ax = joint.plot(kind="heatmap", width="double" if m > 6 else "single")
    figure(
        "fig:joint",
        "Posterior probability that the column algorithm is better than the row "
        f"algorithm (Bayesian {joint.test} test, s = {_n(joint.s)}), algorithms "
        "by mean rank; framed cells are accepted joint statements.",
        ax.figure,
    )


def rank_intervals(rank_ci: Any) -> None:
    """Confidence intervals for ranks: a paragraph, a table and a forest plot."""
    from nbstats.results.ranking import _METHOD_TEXT

    rc = rank_ci
    level = f"{_n(100 * rc.confidence_level)}%"
    method = _METHOD_TEXT[rc.method]
    para = Paragraph().add(
        ref("tab:ranks"),
        " and ",
        ref("fig:ranks"),
        f" give {level} simultaneous confidence intervals for the ranks "
        f"(1 = best; {method}). ",
    )
    if rc.omnibus_rejected is False:
        para.add(
            f"The omnibus test does not reject equality (p = "
            f"{_n(rc.omnibus_pvalue)}), so every interval is [1, {rc.n_algorithms}]. "
        )
    frame = rc.to_frame()
    top = frame.iloc[0]
    para.add(
        f"The best-ranked algorithm, {top['algorithm']}, ranks between "
        f"{int(top['lower'])} and {int(top['upper'])}."
    )
    paragraph(para)
    _result_table(
        rc,
        "tab:ranks",
        f"{level} simultaneous confidence intervals for the ranks (1 = best; "
        f"{method}), by mean rank.",
    )
    ax = rc.plot(width="double" if rc.n_algorithms > 12 else "single")
    figure(
        "fig:ranks",
        f"{level} confidence intervals for the ranks (lines) and mean ranks "
        f"(markers), 1 = best ({method}).",
        ax.figure,
    )


def methods(
    scores: pd.DataFrame,
    *,
    seed: int,
    loss: Sequence[float],
    higher_is_better: bool = True,
    friedman: Any = None,
    nemenyi: Any = None,
    holm: Any = None,
    bayes_friedman: Any = None,
    signrank: Sequence[Any] = (),
    joint: Any = None,
    rank_ci: Any = None,
) -> Paragraph:
    """Display the Methods paragraph (see :mod:`nbstats.report.methods`)."""
    from nbstats.report.methods import methods_paragraph

    para = methods_paragraph(
        n_cases=scores.shape[0],
        n_algorithms=scores.shape[1],
        higher_is_better=higher_is_better,
        seed=seed,
        friedman=friedman,
        nemenyi=nemenyi,
        holm=holm,
        bayes_friedman=bayes_friedman,
        signrank=list(signrank),
        loss=(float(loss[0]), float(loss[1])),
        bayes_posthoc=joint,
        rank_ci=rank_ci,
    )
    paragraph(para, "nbstats-text nbstats-methods")
    return para


def references(para: Paragraph) -> None:
    """Display the numbered reference list of the works ``para`` cites."""
    from nbstats.report.methods import (
        references_html,
        references_latex,
        references_text,
    )

    keys = para.keys
    _display(
        {
            "text/html": '<h1 id="references">References</h1>' + references_html(keys),
            "text/latex": references_latex(keys),
            "text/plain": "References\n" + references_text(keys),
        },
        {"nbstats": {"kind": "references", "keys": keys}},
    )
