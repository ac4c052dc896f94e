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

from nbstats.reporting import notebook_template
from nbstats.reporting.appendix import typeset_pairs
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
    "settings_source",
    "template_flags",
    "unpickled",
]

#: Tag that hides a cell's code in the exports (nbconvert TagRemovePreprocessor).
HIDE_INPUT = "remove-input"
#: Tag that drops a cell from the exports altogether.
HIDE_CELL = "remove-cell"

#: Confidence intervals for ranks: Foucart et al.'s Iman–Davenport + Wilcoxon
#: (the method template/multiple.py's rank_ci cell calls).
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

    def template(self, name: str, flags: dict[str, Any]) -> None:
        """The cells of ``template/<name>.py`` that ``flags`` include."""
        for cell, source in notebook_template.cells(name, flags):
            tables = cell.value("tables", flags, [])
            figures = cell.value("figures", flags, [])
            if cell.kind == "markdown":
                self.markdown(source)
            elif cell.value("join", flags, False):
                last = self.cells[-1]
                assert last.cell_type == "code", f"{cell.file}: join after markdown"
                self.code(source, tables=tables, figures=figures)
                joined = self.cells.pop()
                last.source = last.source + "\n" + joined.source
            else:
                self.code(source, tables=tables, figures=figures)


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

    The code is that of the template files (:mod:`.notebook_template`), in
    the order of the sections, after one generated cell that holds the
    user's data and settings as constants (:func:`settings_source`).
    """
    flags = template_flags(table, settings)
    nb = _Cells()
    # the title, for readers of the notebook itself; the exports typeset it
    # from the notebook's metadata instead
    nb.markdown("# " + escape_markdown(settings.title), HIDE_CELL)
    sections = ["start", "core"]
    if not settings.core_only:
        sections += ["data", "multiple" if flags["multiple"] else "two_sample"]
        sections += ["folds"] * flags["folds"] + ["appendix"] * flags["compact"]
        sections.append("methods")
    for name in sections:
        nb.template(name, flags)
    source = settings_source(table, settings, nb.tables, nb.figures, figure_formats)
    nb.cells.insert(1, nb.v4.new_code_cell(source, metadata={"tags": [HIDE_INPUT]}))
    return _finish(nb, settings)


def template_flags(table: pd.DataFrame, settings: ReportSettings) -> dict[str, Any]:
    """The names the template files' headers and ``# when:`` comments read."""
    from nbstats.reporting.folds import FOLD_CASES_TYPESET
    from nbstats.reporting.hierarchical import sampler_installed

    m = table.shape[1]
    folds = settings.fold_scores is not None
    runs = settings.runs is not None
    hierarchical = bool(settings.hierarchical)
    return {
        "freq": "frequentist" in settings.analyses,
        "bayes": "bayesian" in settings.analyses,
        "ranks": "ranks" in settings.analyses,
        "layout": settings.layout,
        "multiple": settings.layout != "two-sample",
        "compact": settings.layout == "compact",
        "core_only": settings.core_only,
        "aliases": bool(settings.aliases),
        # holes: where they are, and what leaving algorithms out keeps
        "holes": bool(table.isna().to_numpy().any()),
        "folds": folds,
        "runs": runs,
        "hierarchical": hierarchical,
        # the kernel runs in this environment: without the sampler the
        # hierarchical section only says what to install, and numbers nothing
        "sampler": folds and runs and hierarchical and sampler_installed(),
        # the compact appendix: pairwise tables too long to typeset are CSV
        # files only, with no number
        "typeset": typeset_pairs(m * (m - 1) // 2),
        # the cases analysed: those without a missing score (see nan_policy)
        "fold_cases": settings.layout == "two-sample"
        and len(table.dropna()) <= FOLD_CASES_TYPESET,
    }


def settings_source(
    table: pd.DataFrame,
    settings: ReportSettings,
    tables: Sequence[str],
    figures: Sequence[str],
    figure_formats: Sequence[str],
) -> str:
    """The notebook's one generated cell: its imports, and the user's data and
    settings as constants that the template cells read (every value written
    as data, never as code, by :func:`python_value`)."""
    v = python_value
    lines = [
        "# This report was written by nbstats.report: every number in it is recomputed",
        "# below from the scores embedded in this notebook. Re-run it to "
        "reproduce them.",
        "import warnings",
        "",
        "import nbstats",
        "from nbstats.reporting import cells as report",
        "",
        "# The scores: rows = cases, columns = algorithms (CSV, exactly as analysed;",
        '# "nan" marks a missing score).',
        f"SCORES_CSV = {_python_text(scores_csv(table))}",
        f"INDEX_NAME = {v(table.index.name)}  # the name of the cases' column",
        "",
    ]
    for name, attribute, comment in _CONSTANTS:
        value = v(getattr(settings, attribute))
        lines.append(f"{name} = {value}" + (f"  # {comment}" if comment else ""))
    if settings.fold_scores is not None:
        from nbstats.reporting.folds import fold_scores_csv

        cases = template_flags(table, settings)["fold_cases"]
        lines += [
            "",
            "# Per-fold scores: rows = (case, fold), columns = algorithms (CSV, "
            "exactly as",
            "# given; several fold columns are kept as one key, a JSON array "
            '["run", "fold"]).',
            f"FOLD_SCORES_CSV = {_python_text(fold_scores_csv(settings.fold_scores))}",
            "# failed folds: the fewest folds both algorithms of a pair must have "
            "scored on",
            "# a case (the per-fold tests leave out a (pair, data set) below it), "
            "or None",
            f"MIN_FOLDS = {v(settings.folds.get('minimum'))}",
            f"FOLD_CASES_TABLE = {v(cases)}  # the per-fold section lists each case",
        ]
    lines += [
        "",
        "# the numbered tables and figures, in display order, and the formats the",
        "# figures are saved in",
        f"TABLES = {list(tables)!r}",
        f"FIGURES = {list(figures)!r}",
        f"FIGURE_FORMATS = {tuple(figure_formats)!r}",
    ]
    return "\n".join(lines)


#: (name, settings attribute, comment) of every user setting the template
#: cells read, in the order of the generated cell.
_CONSTANTS = (
    ("HIGHER_IS_BETTER", "higher_is_better", ""),
    ("ALPHA", "alpha", "frequentist tests and rank intervals"),
    ("THRESHOLD", "threshold", "credible level of the Bayesian Friedman test"),
    ("S", "s", "prior strength; None = each Bayesian test's default"),
    ("PRIOR", "prior", "of the signed-rank tests: idp, bb (s -> 0) or point"),
    ("ROPE", "rope", "half-width of the region of practical equivalence"),
    ("LOSS", "loss", "losses (l0, l1) of a Type II and a Type I error"),
    ("SEED", "random_state", "seed of every Monte Carlo computation"),
    ("N_SAMPLES", "n_samples", "posterior draws per Monte Carlo computation"),
    ("MC_ERROR", "mc_error", "pairs: more draws until each MC error is below"),
    (
        "NAN_POLICY",
        "nan_policy",
        '"omit": drop cases with a missing score\n'
        '# ("pairwise": all-algorithm analyses on complete cases, pairs on their own)',
    ),
    ("FOLDS", "folds", "per-fold data averaged per case, or None"),
    ("RUNS", "runs", "runs of the cross-validation (k = folds per case / runs)"),
    ("ALIASES", "aliases", "short names shown for long ones"),
    ("LAYOUT", "layout", "chosen from the number of algorithms"),
    ("SCORE_UNIT", "score_unit", "unit of the scores (and of the rope)"),
    ("CORE_ONLY", "core_only", "only the part that goes into a paper"),
    ("VENUE", "venue", "the paper venue every table is set for"),
)


def _finish(nb: _Cells, settings: ReportSettings) -> Any:
    """The metadata, and a validated notebook."""
    from nbstats.reporting.imports import nbformat as load_nbformat

    nbformat = load_nbformat()
    notebook = nbformat.v4.new_notebook(cells=nb.cells)
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
