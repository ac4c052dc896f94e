"""The report notebook's builder (its cells call :mod:`nbstats.reporting.cells`).

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
import dataclasses
import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from nbstats.reporting.compact import typeset_pairs
from nbstats.reporting.coverage import coverage_cell
from nbstats.reporting.notebook_core import core_cell
from nbstats.reporting.notebook_folds import fold_cells
from nbstats.reporting.settings import (  # noqa: F401  (re-exported)
    ANALYSES,
    N_SAMPLES,
    ReportSettings,
    escape_markdown,
    json_value,
    make_settings,
    python_value,
    unpickled,
)
from nbstats.results.render import escape_latex

__all__ = [
    "ANALYSES",
    "ReportSettings",
    "build_notebook",
    "make_settings",
    "python_value",
    "unpickled",
]

#: Tag that hides a cell's code in the exports (nbconvert TagRemovePreprocessor).
HIDE_INPUT = "remove-input"
#: Tag that drops a cell from the exports altogether.
HIDE_CELL = "remove-cell"

#: Confidence intervals for ranks: Foucart et al.'s Iman–Davenport + Wilcoxon.
RANK_CI_METHOD = "id-wilcoxon-2s"


# -- the builder ----------------------------------------------------------------


def scores_csv(table: pd.DataFrame) -> str:
    """The score table as CSV text that :func:`read_scores` reads back exactly.

    Raises ``ValueError`` when a name would not survive the round trip (an
    empty algorithm name, which CSV readers rename).
    """
    frame = table.copy()
    frame.columns = [str(c) for c in frame.columns]
    frame.index = pd.Index([str(i) for i in frame.index], name=frame.index.name)
    # "nan" marks a missing cell (the report drops incomplete cases itself)
    text = frame.to_csv(lineterminator="\n", na_rep="nan")
    back = read_scores(text, index_name=frame.index.name)
    if list(back.columns) != list(frame.columns) or list(back.index) != list(
        frame.index
    ):
        raise ValueError(
            "some algorithm or case names cannot be stored in the report's CSV "
            "unchanged (e.g. an empty name); rename them."
        )
    same = np.array_equal(back.to_numpy(), frame.to_numpy(), equal_nan=True)
    if not same:  # pragma: no cover
        raise ValueError("the scores do not survive a CSV round trip.")
    return text


def read_scores(
    text: str, *, index_name: str | None = "case", columns_name: str = "algorithm"
) -> pd.DataFrame:
    """Read the CSV written by :func:`scores_csv` (names as text, exact floats).

    The case names are read as text (a converter), the scores straight as
    floats (pandas' parser, exact: :func:`scores_csv` checks the round trip),
    with no column of a million strings on the way.

    Examples
    --------
    >>> read_scores("case,A,007\\n01,0.1,nan\\n").to_dict()
    {'A': {'01': 0.1}, '007': {'01': nan}}
    """
    import csv

    header = next(csv.reader(io.StringIO(text[: text.find("\n") + 1])))
    scores = header[1:]
    frame = pd.read_csv(
        io.BytesIO(text.encode("utf-8")),
        encoding="utf-8",
        index_col=0,
        converters={0: str},
        dtype=dict.fromkeys(scores, float),
        keep_default_na=False,
        na_values={name: ["nan"] for name in scores},
    )
    frame.columns = scores  # as written (no "Unnamed: 1" for an empty name)
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


class _Cells:
    """The notebook's cells and the labels of its floats, in display order."""

    def __init__(self) -> None:
        from nbstats.reporting.imports import nbformat

        self.v4 = nbformat().v4
        self.cells: list[Any] = []
        self.tables: list[str] = []
        self.figures: list[str] = []

    def code(self, source: str, *, tables: Sequence[str] = (), figures=()) -> None:
        self.tables += [t for t in tables if t not in self.tables]
        self.figures += [f for f in figures if f not in self.figures]
        self.cells.append(
            self.v4.new_code_cell(source.strip("\n"), metadata={"tags": [HIDE_INPUT]})
        )

    def markdown(self, source: str, *tags: str) -> None:
        cell = self.v4.new_markdown_cell(source.strip("\n"))
        if tags:
            cell.metadata["tags"] = list(tags)
        self.cells.append(cell)


def build_notebook(
    table: pd.DataFrame,
    settings: ReportSettings,
    *,
    figure_formats: Sequence[str] = ("svg", "pdf"),
) -> Any:
    """The report notebook (not executed) for a validated score table.

    ``figure_formats`` are those the figures are saved in: ``"svg"`` for an
    HTML export, ``"pdf"`` for LaTeX, both for the notebook itself, none for
    a text report.

    ``table`` holds the scores under their full names, incomplete cases
    included when ``settings.nan_policy == "omit"`` (the notebook drops them
    and says so). The cells depend on ``settings.layout``: see
    :func:`nbstats.reporting.prepare.choose_layout`.
    """

    freq = "frequentist" in settings.analyses
    bayes = "bayesian" in settings.analyses
    ranks = "ranks" in settings.analyses
    layout = settings.layout
    compact = layout == "compact"
    nb = _Cells()
    v = python_value  # every user value is written as data, never as code
    # the title, for readers of the notebook itself; the exports typeset it
    # from the notebook's metadata instead
    nb.markdown("# " + escape_markdown(settings.title), HIDE_CELL)
    nb.code(
        f"""
# The scores: rows = cases, columns = algorithms (CSV, exactly as analysed;
# "nan" marks a missing score).
SCORES_CSV = {_python_text(scores_csv(table))}
raw = report.read_scores(SCORES_CSV, index_name={v(table.index.name)})

HIGHER_IS_BETTER = {v(settings.higher_is_better)}
ALPHA = {v(settings.alpha)}  # frequentist tests and rank intervals
THRESHOLD = {v(settings.threshold)}  # credible level of the Bayesian Friedman test
S = {v(settings.s)}  # prior strength; None = each Bayesian test's default
PRIOR = {v(settings.prior)}  # of the signed-rank tests: idp, bb (s -> 0) or point
ROPE = {v(settings.rope)}  # half-width of the region of practical equivalence
LOSS = {v(settings.loss)}  # losses (l0, l1) of a Type II and a Type I error
SEED = {v(settings.random_state)}  # seed of every Monte Carlo computation
N_SAMPLES = {v(settings.n_samples)}  # posterior draws per Monte Carlo computation
MC_ERROR = {v(settings.mc_error)}  # pairs: more draws until each MC error is below
NAN_POLICY = {v(settings.nan_policy)}  # "omit": drop cases with a missing score
# ("pairwise": all-algorithm analyses on complete cases, pairs on their own)
FOLDS = {v(settings.folds)}  # per-fold data averaged per case, or None
ALIASES = {v(settings.aliases)}  # short names shown for long ones
LAYOUT = {v(layout)}  # chosen from the number of algorithms
SCORE_UNIT = {v(settings.score_unit)}  # unit of the scores (and of the rope)
CORE_ONLY = {v(settings.core_only)}  # only the part that goes into a paper

with warnings.catch_warnings():  # the Data section names the dropped cases
    warnings.simplefilter("ignore", UserWarning)
    scores = nbstats.score_table(
        raw, nan_policy="omit" if NAN_POLICY == "pairwise" else NAN_POLICY
    )
scores = scores.rename(columns=ALIASES)
pair_scores = raw.rename(columns=ALIASES) if NAN_POLICY == "pairwise" else scores
direction = {{"higher_is_better": HIGHER_IS_BETTER}}
prior = {{}} if S is None else {{"s": S}}
if not CORE_ONLY:  # the answer-first part alone has its own caption
    report.summary(scores, n_given=len(raw), aliased=bool(ALIASES), **direction)
"""
    )
    folds_section = settings.fold_scores is not None
    if folds_section:
        from nbstats.reporting.folds import fold_scores_csv

        nb.code(
            f"""
# Per-fold scores: rows = (case, fold), columns = algorithms (CSV, exactly as
# given; several fold columns are kept as one key, a JSON array ["run", "fold"]).
FOLD_SCORES_CSV = {_python_text(fold_scores_csv(settings.fold_scores))}
RUNS = {v(settings.runs)}  # runs of the cross-validation (k = folds per case / runs)
# failed folds: the fewest folds both algorithms of a pair must have scored on
# a case (the per-fold tests leave out a (pair, data set) below it), or None
MIN_FOLDS = {v(settings.folds.get("minimum"))}
# the analysed cases (with MIN_FOLDS under nan_policy "pairwise": every case,
# each pair keeping those on which it has enough paired folds)
fold_scores = report.read_fold_scores(
    FOLD_SCORES_CSV, ALIASES, (pair_scores if MIN_FOLDS else scores).index
)
"""
        )
    core_cell(nb, settings, freq=freq, bayes=bayes)
    if settings.core_only:
        nb.code("report.references(core_text, small=True)")
        return _finish(nb, settings, figure_formats)
    nb.markdown("# Data")
    data = [
        "report.data_notes(raw, scores, layout=LAYOUT, nan_policy=NAN_POLICY, "
        "folds=FOLDS)"
    ]
    legend = []
    if settings.aliases:
        data.append("report.alias_legend(ALIASES)")
        legend = ["tab:aliases"]
    if compact:
        data.append("report.ranked_summary(scores, **direction)")
        nb.code("\n".join(data), tables=[*legend, "tab:summary"])
    else:
        data.append("report.scores_table(scores, **direction)")
        nb.code("\n".join(data), tables=[*legend, "tab:scores"])
    if table.isna().to_numpy().any():  # holes: where, and what leaving out keeps
        coverage_cell(nb)
    if layout == "two-sample":
        _two_sample_cells(nb, freq=freq, bayes=bayes)
    else:
        _multiple_cells(nb, freq=freq, bayes=bayes, ranks=ranks, compact=compact)
    if folds_section:
        fold_cells(nb, settings, layout, table)
    if compact:
        _appendix_cells(nb, table.shape[1], freq=freq, bayes=bayes, ranks=ranks)
    _methods_cell(nb, settings, folds=folds_section)
    nb.code("report.references(methods)")
    return _finish(nb, settings, figure_formats)


def _appendix_cells(
    nb: _Cells, m: int, *, freq: bool, bayes: bool, ranks: bool
) -> None:
    """The compact layout's appendix: every full table of ``m`` algorithms."""
    nb.markdown("# Appendix: full tables")
    appendix = [
        "report.appendix_note()",
        "report.scores_table(scores, **direction)",
    ]
    labels = ["tab:scores"]
    # pairwise tables too long to typeset are CSV files only: no label
    typeset = typeset_pairs(m * (m - 1) // 2)
    if freq:
        appendix.append("report.appendix_frequentist(nemenyi, holm)")
        labels += ["tab:nemenyi-all", "tab:holm"] if typeset else ["tab:holm"]
    if bayes:
        appendix.append("report.appendix_bayesian(signrank, joint)")
        labels += ["tab:signrank-all", "tab:joint"] if typeset else []
    if ranks:
        appendix.append("report.appendix_ranks(rank_ci, RANK_ORDER)")
        labels.append("tab:ranks")
    nb.code("\n".join(appendix), tables=labels)


def _methods_cell(nb: _Cells, settings: ReportSettings, *, folds: bool) -> None:
    """The Methods section: every test, setting and seed the report used (the
    results of every analysis the notebook ran)."""
    freq = "frequentist" in settings.analyses
    bayes = "bayesian" in settings.analyses
    ranks = "ranks" in settings.analyses
    layout = settings.layout
    results = []
    if layout == "two-sample":
        results.append("wilcoxon=wilcoxon, sign=sign," if freq else "")
        results.append("signrank=signrank, bayes_sign=bayes_sign," if bayes else "")
    else:
        results.append(
            "friedman=friedman, nemenyi=nemenyi, holm=holm, "
            "skillings_mack=skillings_mack,"
            if freq
            else ""
        )
        results.append(
            "bayes_friedman=bayes_friedman, signrank=signrank, joint=joint,"
            if bayes
            else ""
        )
        results.append("rank_ci=rank_ci," if ranks else "")
    if folds:
        results.append("fold_tests=fold_tests, runs=RUNS,")
    if folds and settings.hierarchical and settings.runs is not None:
        results.append("hierarchical=hierarchical,")
    if bayes and layout != "two-sample":
        results.append("plackett_luce=plackett_luce,")
    arguments = "\n    ".join(r for r in results if r)
    nb.markdown("# Methods")
    nb.code(
        f"""
methods = report.methods(
    scores, seed=SEED, loss=LOSS, folds=FOLDS, dropped=len(raw) - len(scores),
    score_unit=SCORE_UNIT, nemenyi_warning=NEMENYI_WARNING,
    cited=core_text.keys, raw=raw.rename(columns=ALIASES), nan_policy=NAN_POLICY,
    **direction,
    {arguments}
)
"""
    )


def _finish(nb: _Cells, settings: ReportSettings, figure_formats: Sequence[str]) -> Any:
    """The start cell (float numbers), the metadata, and a validated notebook."""
    from nbstats.reporting.imports import nbformat as load_nbformat

    nbformat = load_nbformat()
    v4 = nbformat.v4
    start = v4.new_code_cell(
        f"""
# This report was written by nbstats.report: every number in it is recomputed
# below from the scores embedded in this notebook. Re-run it to reproduce them.
import warnings

import nbstats
from nbstats.reporting import cells as report

report.start(
    tables={nb.tables!r},
    figures={nb.figures!r},
    figure_formats={tuple(figure_formats)!r},
    venue={settings.venue!r},  # the paper venue every table is set for
)
""".strip("\n"),
        metadata={"tags": [HIDE_INPUT]},
    )
    cells = [nb.cells[0], start, *nb.cells[1:]]
    notebook = v4.new_notebook(cells=cells)
    notebook.metadata["title"] = settings.title
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    notebook.metadata["language_info"] = {"name": "python"}
    notebook.metadata["nbstats"] = {
        "title_latex": escape_latex(settings.title),
        "settings": json_value(
            {
                **{
                    field.name: getattr(settings, field.name)
                    for field in dataclasses.fields(settings)
                    if field.name != "fold_scores"
                },
                "loss": list(settings.loss),
                "analyses": list(settings.analyses),
            }
        ),
    }
    nbformat.validate(notebook)
    return notebook


def _two_sample_cells(nb: _Cells, *, freq: bool, bayes: bool) -> None:
    """Two algorithms: Wilcoxon and the sign test, and their Bayesian versions
    (computed in the answer-first cell, :func:`core_cell`)."""
    if freq:
        nb.markdown("# Two-sample tests")
        nb.code(
            "report.two_sample(wilcoxon, sign, alpha=ALPHA)", tables=["tab:two-sample"]
        )
    if bayes:
        nb.markdown("# Bayesian two-sample tests")
        nb.code(
            "report.bayes_two_sample(signrank, bayes_sign, loss=LOSS)",
            tables=["tab:bayes-two-sample"],
            figures=["fig:posterior"],
        )


def _multiple_cells(
    nb: _Cells, *, freq: bool, bayes: bool, ranks: bool, compact: bool
) -> None:
    """Three or more algorithms: omnibus, post-hoc, Bayesian pairs, rank intervals."""
    if freq or bayes:
        omnibus = []
        if freq:
            omnibus.append(
                """# nan_policy="pairwise": Friedman's test for missing cells
skillings_mack = (
    nbstats.skillings_mack(pair_scores, **direction)
    if NAN_POLICY == "pairwise"
    else None
)"""
            )
        else:
            omnibus.append("friedman = skillings_mack = None")
        if bayes:
            omnibus.append(
                """
# the Bayesian Friedman test needs at least as many cases as algorithms
# (twice as many with s = 0)
bayes_friedman = (
    nbstats.bayes_friedman(scores, threshold=THRESHOLD, **prior, **direction)
    if scores.shape[0] >= report.bayes_friedman_minimum(scores.shape[1], **prior)
    else None
)"""
            )
        else:
            omnibus.append("bayes_friedman = None")
        omnibus.append(
            "report.omnibus(\n"
            "    friedman, bayes_friedman, alpha=ALPHA, shape=scores.shape,\n"
            "    skillings_mack=skillings_mack, **prior,\n"
            ")"
        )
        nb.markdown("# Omnibus tests")
        nb.code("\n".join(omnibus), tables=["tab:omnibus"])
    if freq:
        nb.markdown("# Post-hoc tests")
        nb.code(
            f"""
# Holm's step-down procedure against the best-ranked algorithm
best = str(friedman.mean_ranks.idxmin())
holm = nbstats.posthoc(
    scores, method="holm", control=best, alpha=ALPHA, **direction
)
report.posthoc(nemenyi, holm, compact={compact!r})
""",
            tables=["tab:nemenyi"] + ([] if compact else ["tab:holm"]),
        )
    if bayes:
        nb.markdown("# Bayesian comparisons")
        nb.code(
            f"""
# every pair on shared posterior draws: is the better-ranked algorithm (b)
# really better than the worse-ranked one (a)? Columns worst to best make
# each pair (a, b) = (worse, better).
order = list(nbstats.mean_ranks(scores, **direction).sort_values(kind="stable").index)
signrank_prior = {{"prior": "bb"}} if PRIOR == "bb" else {{"prior": PRIOR, **prior}}
# joint statements: the same signed-rank test, rope, prior strength and prior
# as the pairs (under the near-ignorance prior a statement counts in a draw
# only if it holds for every prior of the set, so a pair the table calls
# indeterminate is never accepted). joint="auto" reads them from the pairs'
# own posterior draws when every pair has the same cases: a statement's
# probability is then its pair's in the table. With missing cells each pair
# has its own cases, and the joint statements, like every analysis of all the
# algorithms at once, use the complete cases (and draws of their own).
signrank = nbstats.bayes_signrank_pairs(
    pair_scores[order[::-1]], rope=ROPE, loss=LOSS, n_samples=N_SAMPLES,
    mc_error=MC_ERROR, random_state=SEED, interval=False, **signrank_prior,
    **direction, joint="auto",
    **({{"nan_policy": "pairwise"}} if NAN_POLICY == "pairwise" else {{}}),
)
joint = signrank.joint if signrank.joint is not None else nbstats.bayes_posthoc(
    scores, test="signrank", rope=ROPE, s=signrank.s, threshold=signrank.threshold,
    prior=signrank.prior,
    n_samples=N_SAMPLES, mc_error=MC_ERROR, random_state=SEED, **direction,
)
report.bayesian(signrank, joint, loss=LOSS, compact={compact!r})
""",
            tables=["tab:signrank"] + ([] if compact else ["tab:joint"]),
            figures=["fig:joint"],
        )
        nb.markdown("# Bayesian ranking of all algorithms")
        nb.code(
            # rows in the order of Table 1 (mean ranks over its cases)
            "report.plackett_luce_section(\n    plackett_luce,\n    order=list(\n"
            "        nbstats.mean_ranks(scores, **direction)"
            ".sort_values(kind='stable').index\n    ),\n"
            "    ordered_by=f'mean rank over its {len(scores):,} cases',\n)",
            tables=["tab:plackett-luce"],
            figures=["fig:plackett-luce"],
        )
    if ranks:
        nb.markdown("# Confidence intervals for ranks")
        nb.code(
            f"""
# with nan_policy="pairwise": every case, each pair's Wilcoxon test on its own
rank_ci = nbstats.rank_ci(
    pair_scores, method={RANK_CI_METHOD!r}, alpha=ALPHA, **direction,
    **({{"nan_policy": "pairwise"}} if NAN_POLICY == "pairwise" else {{}}),
)
# rows in the order of Table 1 (mean ranks over the complete cases)
RANK_ORDER = list(
    nbstats.mean_ranks(scores, **direction).sort_values(kind="stable").index
)
report.rank_intervals(rank_ci, compact={compact!r}, order=RANK_ORDER)
""",
            tables=[] if compact else ["tab:ranks"],
            figures=["fig:ranks"],
        )
