"""The report notebook: its builder, and the display helpers its cells call.

:func:`build_notebook` writes a notebook (nbformat v4) that embeds the score
table as CSV text and recomputes every analysis with nbstats in code cells
tagged ``remove-input`` (the exported report shows no code). Section headings
are static Markdown cells; everything that depends on the data -- paragraphs,
numbered tables and figures with captions -- is written by the helpers below,
which run *inside the kernel* and display one output per item with

- ``text/html``: escaped HTML (tables, ``<figure>`` with the figure as an SVG
  ``data:`` URI and its caption), shown by Jupyter and the HTML export;
- ``text/latex``: escaped LaTeX (booktabs tables from the results'
  ``to_latex()``, paragraphs with ``\\cite``), used by the LaTeX/PDF export;
- ``application/pdf`` for figures (vector), which the LaTeX template puts in a
  ``figure`` float captioned from the output's ``metadata["nbstats"]``;
- ``text/plain``.

Every user-supplied name reaches HTML through :func:`html.escape`, LaTeX
through :func:`~nbstats.results.render.escape_latex` and matplotlib through
:func:`nbstats.plots.literal` (the plots do it), never through Markdown.

Table and figure numbers are assigned when the notebook starts
(:func:`start` receives the labels in display order), so a paragraph can cite
"Table 3" before the table appears, and the HTML numbers agree with LaTeX's.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import html
import io
import itertools
import re
from collections.abc import Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd

from nbstats.report.methods import CHI2_F, F_F, Alt, Paragraph
from nbstats.results import render
from nbstats.results.render import escape_latex, format_value

__all__ = [
    "ANALYSES",
    "ReportSettings",
    "build_notebook",
    "make_settings",
]

#: The analyses a report can contain, in report order.
ANALYSES = ("frequentist", "bayesian", "ranks")

#: Tag that hides a cell's code in the exports (nbconvert TagRemovePreprocessor).
HIDE_INPUT = "remove-input"
#: Tag that drops a cell from the exports altogether.
HIDE_CELL = "remove-cell"

#: Posterior draws of every Monte Carlo computation in a report.
N_SAMPLES = 50_000
#: Confidence intervals for ranks: Foucart et al.'s Iman–Davenport + Wilcoxon.
RANK_CI_METHOD = "id-wilcoxon-2s"
#: Above this many cases the LaTeX score table becomes a longtable.
LONGTABLE_ROWS = 30
#: Above this many algorithms the LaTeX score table is scaled to the text width.
WIDE_COLUMNS = 6
#: Algorithm names longer than this are set upright in a longtable's header.
LONG_NAME = 12


# -- settings -------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ReportSettings:
    """Validated arguments of :func:`nbstats.report.report`."""

    title: str
    analyses: tuple[str, ...]
    higher_is_better: bool
    alpha: float
    gamma: float
    s: float | None
    rope: float
    loss: tuple[float, float]
    random_state: int
    n_samples: int = N_SAMPLES


def make_settings(
    table: pd.DataFrame,
    *,
    title: str | None,
    analyses: Sequence[str],
    higher_is_better: bool,
    alpha: float,
    gamma: float,
    s: float | None,
    rope: float,
    loss: tuple[float, float],
    random_state: int | None,
) -> ReportSettings:
    """Check every report argument; clear ``ValueError``/``TypeError`` otherwise."""
    from nbstats.stats.bayes.decision import (
        check_gamma,
        check_rope,
        check_s,
        resolve_threshold,
    )

    if title is None:
        title = (
            f"Statistical comparison of {table.shape[1]} algorithms on "
            f"{table.shape[0]} cases"
        )
    elif not isinstance(title, str):
        raise TypeError(f"title must be a string, got {type(title).__name__}.")
    if isinstance(analyses, str):
        analyses = (analyses,)
    try:
        chosen = [str(a) for a in analyses]
    except TypeError:
        raise TypeError(
            f"analyses must be a sequence drawn from {ANALYSES}, got {analyses!r}."
        ) from None
    unknown = [a for a in chosen if a not in ANALYSES]
    if unknown:
        raise ValueError(f"unknown analyses {unknown}; choose any of {list(ANALYSES)}.")
    if not chosen:
        raise ValueError(f"analyses is empty; choose at least one of {list(ANALYSES)}.")
    if not isinstance(higher_is_better, (bool, np.bool_)):
        raise TypeError(
            f"higher_is_better must be True or False, got {higher_is_better!r}."
        )
    if isinstance(alpha, (bool, np.bool_)) or not isinstance(alpha, Real):
        raise TypeError(f"alpha must be a number in (0, 1), got {alpha!r}.")
    if not 0 < float(alpha) < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    gamma = check_gamma(gamma)
    s = None if s is None else check_s(s, allow_zero=True)
    rope = check_rope(rope)
    resolve_threshold(None, loss)  # validates the pair
    l0, l1 = (float(v) for v in loss)
    if random_state is None:
        # a report must say which seed it used: draw one and write it down
        random_state = int(np.random.SeedSequence().generate_state(1)[0])
    elif isinstance(random_state, (bool, np.bool_)) or not isinstance(
        random_state, Integral
    ):
        raise TypeError(
            "random_state must be an int (the report embeds and states its "
            f"seed) or None, got {type(random_state).__name__}."
        )
    elif random_state < 0:
        raise ValueError(f"random_state must be >= 0, got {random_state}.")
    return ReportSettings(
        title=title,
        analyses=tuple(a for a in ANALYSES if a in chosen),
        higher_is_better=bool(higher_is_better),
        alpha=float(alpha),
        gamma=gamma,
        s=s,
        rope=rope,
        loss=(l0, l1),
        random_state=int(random_state),
    )


# -- the builder ----------------------------------------------------------------


def scores_csv(table: pd.DataFrame) -> str:
    """The score table as CSV text that :func:`read_scores` reads back exactly.

    Raises ``ValueError`` when a name would not survive the round trip (an
    empty algorithm name, which CSV readers rename).
    """
    frame = table.copy()
    frame.columns = [str(c) for c in frame.columns]
    frame.index = pd.Index([str(i) for i in frame.index], name=frame.index.name)
    text = frame.to_csv(lineterminator="\n")
    back = read_scores(text, index_name=frame.index.name)
    if list(back.columns) != list(frame.columns) or list(back.index) != list(
        frame.index
    ):
        raise ValueError(
            "some algorithm or case names cannot be stored in the report's CSV "
            "unchanged (e.g. an empty name); rename them."
        )
    if not np.array_equal(back.to_numpy(), frame.to_numpy()):  # pragma: no cover
        raise ValueError("the scores do not survive a CSV round trip.")
    return text


def read_scores(
    text: str, *, index_name: str | None = "case", columns_name: str = "algorithm"
) -> pd.DataFrame:
    """Read the CSV written by :func:`scores_csv` (names as text, exact floats)."""
    frame = pd.read_csv(
        io.StringIO(text), index_col=0, dtype=str, keep_default_na=False
    )
    frame = frame.astype(float)
    frame.index.name = index_name
    frame.columns.name = columns_name
    return frame


def _python_text(text: str) -> str:
    """A Python literal of ``text``: a raw triple-quoted block when it is safe."""
    candidate = "r'''\\\n" + text + "'''"
    try:
        if "'''" not in text and ast.literal_eval(candidate) == text:
            return candidate
    except (SyntaxError, ValueError):  # pragma: no cover - repr() below
        pass
    return repr(text)


def _markdown_escape(text: str) -> str:
    """Text for a Markdown cell that shows literally (no HTML, no markup)."""
    escaped = html.escape(text, quote=False)
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~$>])", r"\\\1", escaped)


def build_notebook(table: pd.DataFrame, settings: ReportSettings) -> Any:
    """The report notebook (not executed) for a validated score table."""
    import nbformat
    from nbformat import v4

    freq = "frequentist" in settings.analyses
    bayes = "bayesian" in settings.analyses
    ranks = "ranks" in settings.analyses
    tables = ["tab:scores"]
    figures = []
    if freq or bayes:
        tables.append("tab:omnibus")
    if freq:
        figures.append("fig:cd")
        tables += ["tab:nemenyi", "tab:holm"]
    if bayes:
        tables += ["tab:signrank", "tab:joint"]
        figures.append("fig:joint")
    if ranks:
        tables.append("tab:ranks")
        figures.append("fig:ranks")

    def code(source: str) -> Any:
        return v4.new_code_cell(source.strip("\n"), metadata={"tags": [HIDE_INPUT]})

    def markdown(source: str, *tags: str) -> Any:
        cell = v4.new_markdown_cell(source.strip("\n"))
        if tags:
            cell.metadata["tags"] = list(tags)
        return cell

    s_text = "None" if settings.s is None else repr(settings.s)
    cells = [
        # the title, for readers of the notebook itself; the exports typeset
        # it from the notebook's metadata instead
        markdown("# " + _markdown_escape(settings.title), HIDE_CELL),
        code(
            f"""
# This report was written by nbstats.report: every number in it is recomputed
# below from the scores embedded in this notebook. Re-run it to reproduce them.
import nbstats
from nbstats.report import notebook as report

report.start(
    tables={tables!r},
    figures={figures!r},
)
"""
        ),
        code(
            f"""
# The scores: rows = cases, columns = algorithms (CSV, exactly as analysed).
SCORES_CSV = {_python_text(scores_csv(table))}
scores = nbstats.score_table(
    report.read_scores(SCORES_CSV, index_name={table.index.name!r})
)

HIGHER_IS_BETTER = {settings.higher_is_better!r}
ALPHA = {settings.alpha!r}  # frequentist tests and rank intervals
GAMMA = {settings.gamma!r}  # 1 - credible level of the Bayesian tests
S = {s_text}  # prior strength; None = each Bayesian test's default
ROPE = {settings.rope!r}  # half-width of the region of practical equivalence
LOSS = {settings.loss!r}  # losses (l0, l1) of a Type II and a Type I error
SEED = {settings.random_state!r}  # seed of every Monte Carlo computation
N_SAMPLES = {settings.n_samples!r}  # posterior draws per Monte Carlo computation

direction = {{"higher_is_better": HIGHER_IS_BETTER}}
prior = {{}} if S is None else {{"s": S}}
report.summary(scores, **direction)
"""
        ),
        markdown("# Data"),
        code("report.scores_table(scores, **direction)"),
    ]
    if freq or bayes:
        omnibus = []
        if freq:
            omnibus.append("friedman = nbstats.friedman(scores, **direction)")
        else:
            omnibus.append("friedman = None")
        if bayes:
            omnibus.append(
                """
# the ellipsoid test needs at least as many cases as algorithms
method = "ellipsoid" if scores.shape[0] >= scores.shape[1] else "montecarlo"
bayes_friedman = nbstats.bayes_friedman(
    scores, gamma=GAMMA, method=method, n_samples=N_SAMPLES, random_state=SEED,
    **prior, **direction,
)"""
            )
        else:
            omnibus.append("bayes_friedman = None")
        omnibus.append("report.omnibus(friedman, bayes_friedman, alpha=ALPHA)")
        cells += [markdown("# Omnibus tests"), code("\n".join(omnibus))]
    if freq:
        cells += [
            markdown("# Post-hoc tests"),
            code(
                """
nemenyi = nbstats.posthoc(scores, method="nemenyi", alpha=ALPHA, **direction)
# Holm's step-down procedure against the best-ranked algorithm
best = str(friedman.mean_ranks.idxmin())
holm = nbstats.posthoc(
    scores, method="holm", control=best, alpha=ALPHA, **direction
)
report.posthoc(nemenyi, holm)
"""
            ),
        ]
    if bayes:
        cells += [
            markdown("# Bayesian comparisons"),
            code(
                """
# every pair: is the better-ranked algorithm (b) really better than a?
order = list(nbstats.mean_ranks(scores, **direction).sort_values(kind="stable").index)
signrank_prior = {"prior": "bb"} if S == 0 else {"prior": "idp", **prior}
signrank = [
    nbstats.bayes_signrank(
        scores[a], scores[b], rope=ROPE, loss=LOSS, n_samples=N_SAMPLES,
        random_state=SEED, **signrank_prior, **direction,
    )
    for b, a in report.pairs(order)
]
# joint statements, all evaluated on the same posterior draws
joint = nbstats.bayes_posthoc(
    scores, gamma=GAMMA, n_samples=N_SAMPLES, random_state=SEED,
    **prior, **direction,
)
report.bayesian(signrank, joint, loss=LOSS)
"""
            ),
        ]
    if ranks:
        cells += [
            markdown("# Confidence intervals for ranks"),
            code(
                f"""
rank_ci = nbstats.rank_ci(
    scores, method={RANK_CI_METHOD!r}, alpha=ALPHA, **direction
)
report.rank_intervals(rank_ci)
"""
            ),
        ]
    results = []
    results.append("friedman=friedman, nemenyi=nemenyi, holm=holm," if freq else "")
    results.append(
        "bayes_friedman=bayes_friedman, signrank=signrank, joint=joint,"
        if bayes
        else ""
    )
    results.append("rank_ci=rank_ci," if ranks else "")
    arguments = "\n    ".join(r for r in results if r)
    cells += [
        markdown("# Methods"),
        code(
            f"""
methods = report.methods(
    scores, seed=SEED, loss=LOSS, **direction,
    {arguments}
)
"""
        ),
        code("report.references(methods)"),
    ]
    nb = v4.new_notebook(cells=cells)
    nb.metadata["title"] = settings.title
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["nbstats"] = {
        "title_latex": escape_latex(settings.title),
        "settings": {
            **dataclasses.asdict(settings),
            "loss": list(settings.loss),
            "analyses": list(settings.analyses),
        },
    }
    nbformat.validate(nb)
    return nb


# -- helpers run inside the kernel ---------------------------------------------


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
