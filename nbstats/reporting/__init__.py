"""Paper-ready reports: one call from a score table to HTML, PDF, LaTeX or a notebook.

:func:`report` builds a notebook that embeds the scores and recomputes
every analysis with nbstats (:mod:`nbstats.reporting.notebook`), executes it in a
fresh kernel (:mod:`nbstats.reporting.kernel`) and exports it with the nbconvert
templates ``nbstats-paper`` (HTML) and ``nbstats-paper-latex`` (a plain LaTeX
article, also for PDF) (:mod:`nbstats.reporting.export`,
:mod:`nbstats.reporting.exporters`). The Methods paragraph and the references are
written by :mod:`nbstats.reporting.methods`.

Importing this package is cheap: nbformat, nbclient and nbconvert are imported
when a report is written. :func:`report` writes a report; it is
``nbstats.report`` and ``df.compare.report``, and :func:`report_text` is
``nbstats.report_text``.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nbstats.reporting.errors import TEX_PACKAGES, MissingToolError, ReportError
from nbstats.scores.aliases import AliasOption
from nbstats.util.collector import older_objects_frozen

__all__ = [
    "TEX_PACKAGES",
    "MissingToolError",
    "ReportError",
    "report",
    "report_text",
]


#: The figure formats each report format uses (saving a large figure takes
#: seconds: a report saves only what its export shows).
FIGURE_FORMATS = {
    "html": ("svg",),
    "pdf": ("pdf",),
    "tex": ("pdf",),
    "ipynb": ("svg", "pdf"),
}


def report(
    scores: Any,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    title: str | None = None,
    analyses: Sequence[str] = ("frequentist", "bayesian", "ranks"),
    higher_is_better: bool = True,
    alpha: float = 0.05,
    threshold: float = 0.95,
    s: float | None = None,
    prior: str = "idp",
    rope: float = 0.0,
    loss: tuple[float, float] = (1, 19),
    random_state: int | None = 0,
    nan_policy: str = "raise",
    aliases: AliasOption = "auto",
    layout: str = "auto",
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    fold: str | Sequence[str] | None = None,
    aggregate: str | None = None,
    min_folds: int | None = None,
    runs: int | None = None,
    hierarchical: bool = False,
    score_unit: str | None = None,
    core_only: bool = False,
    venue: str = "article",
) -> Path:
    """Write a report of the comparison of algorithms on a score table.

    The report opens with the answer, what goes into a paper, in at most two
    PDF pages: the ranked summary table (mean rank, the Nemenyi test's
    compact letters, and P(best) and expected rank of the Bayesian
    Plackett–Luce ranking when the Bayesian analysis is requested; above 25
    algorithms, :data:`nbstats.reporting.core.CORE_ROWS`, the 25 best-ranked,
    with all of them in ``<stem>_tables/summary-all.tex`` and ``.csv``), the
    critical-difference diagram as Figure 1, and one results paragraph that
    states the decisions by groups (:mod:`nbstats.reporting.core`). Beside a
    PDF or LaTeX report, the table and the figure are also written in
    ``<stem>_core/`` (``summary.tex``, ``summary.csv``, ``figure-1.pdf``,
    ``figure-1.svg`` and ``figure-1.tex``, its TikZ), for ``\\input`` and
    ``\\includegraphics``: the figure a column of the paper's venue wide, at
    its natural size (article by default; a two-column venue adds
    ``figure-1-wide.pdf`` for ``figure*``; see
    :func:`nbstats.plots.venue_figures`).

    The detailed analysis follows: the data (cases, algorithms, direction,
    folds, dropped cases) and then, by the number of algorithms m
    (``layout="auto"``):

    - **m = 2, two-sample layout**: the scores with their ranks; the
      Wilcoxon signed-ranks test with its effect size (matched-pairs
      rank-biserial r) and the sign test; the Bayesian signed-rank and sign
      tests (with the rope) and a plot of the posterior. No Friedman test and
      no critical-difference diagram (Demšar 2006, §3.1).
    - **3 ≤ m ≤ 12, standard layout**: the scores with their ranks (best in
      bold); the Friedman and Iman–Davenport tests and the Bayesian Friedman
      test; the Nemenyi critical-difference diagram and table, and Holm's
      procedure against the best-ranked algorithm; the Bayesian signed-rank
      test of every pair and the joint Bayesian statements with their
      heatmap; the Bayesian Plackett–Luce ranking (Calvo et al. 2018) with
      its table and figure; confidence intervals for the ranks with a forest
      plot.
    - **m > 12, compact layout**: the same analyses, but a ranked summary
      (mean rank, mean and median score, wins) instead of the score table,
      and in the text only the pairs that matter (neighbours in the ranking,
      and significant pairs while there are few); every full table is in an
      appendix.

    Then a Methods paragraph naming every test, correction, prior, setting
    and seed used, with citations; and the references. Tables and figures
    are numbered and captioned; the report says which rule chose its layout.
    Nothing shows code. Algorithm names longer than 20 characters are
    replaced by aliases A, B, … in tables and figures, with a legend table of
    those names; shorter names are shown as they are.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Wide score table: rows = cases, columns = algorithms (validated by
        :func:`nbstats.score_table`), or long data with ``case``,
        ``algorithm``, ``score`` (and ``fold``) naming its columns.
    path : str or path-like
        Where to write the report. Its directory must exist.
    format : {"html", "pdf", "tex", "ipynb"}, optional
        Default: from the suffix of ``path`` (``.html``, ``.pdf``, ``.tex``,
        ``.ipynb``).

        - ``"html"``: one self-contained file (figures as ``data:`` URIs, CSS
          inline, no script from the network; opens offline).
        - ``"pdf"``: typeset by xelatex (Debian: ``texlive-xetex
          texlive-fonts-recommended texlive-plain-generic pandoc``), plus
          ``<stem>.bib`` with the references.
        - ``"tex"``: the LaTeX source, ``<stem>.bib``, the figures in
          ``<stem>_files/`` and every table as its own booktabs file in
          ``<stem>_tables/`` (``\\input{<stem>_tables/nemenyi.tex}`` in a paper
          that loads ``booktabs``). Needs pandoc.
        - ``"ipynb"``: the executed notebook itself; its hidden code cells
          reproduce every number from the scores they embed.
    title : str, optional
        Default: "Statistical comparison of m algorithms on n cases".
    analyses : sequence of {"frequentist", "bayesian", "ranks"}
        Which analyses to include (at least one).
    higher_is_better : bool
        Whether higher scores are better.
    alpha : float
        Significance level of the frequentist tests and the rank intervals.
    threshold : float
        The credible level of the Bayesian Friedman test (the pairs and
        their joint statements decide at the threshold of ``loss``).
    s : float, optional
        Prior strength of every Bayesian analysis. Default: each test's own,
        (√17 − 3)/2 for the near-ignorance prior of the pairwise signed-rank
        tests and 1 for the Bayesian Friedman test and the joint statements.
        ``s=0`` makes the signed-rank tests the Bayesian bootstrap.
    prior : {"idp", "bb", "point"}
        Prior of the Bayesian signed-rank tests (see
        :func:`nbstats.bayes_signrank`): the near-ignorance prior (lower and
        upper probabilities, indeterminate decisions), the Bayesian bootstrap
        (s → 0), or a pseudo-observation of strength ``s`` at a zero
        difference.
    rope : float
        Half-width of the region of practical equivalence of the pairwise
        Bayesian signed-rank tests (in score units: see ``score_unit``).
    loss : (l0, l1)
        Losses of a Type II and a Type I error; the signed-rank tests prefer
        an algorithm when its posterior probability of being better exceeds
        ``l1 / (l0 + l1)`` (0.95 for the default).
    random_state : int or None
        Seed of every Monte Carlo computation (50,000 draws each up to 12
        algorithms; fewer above, never below 5,000, so that the shared draws
        of all pairs stay affordable: see
        :func:`nbstats.reporting.settings.pair_draws`; the report states the
        draws and the Monte Carlo error). None draws a seed, which the report
        states.
    nan_policy : {"raise", "omit", "pairwise"}
        ``"raise"`` refuses missing scores (naming the cells); ``"omit"`` drops
        every case with a missing score, and the report names those cases and
        counts the missing scores per algorithm. ``"pairwise"``: as
        ``"omit"`` for the analyses that compare every algorithm on the same
        cases (mean ranks, Friedman, Nemenyi, Holm, Bayesian Friedman, joint
        statements), but each pair's tests (the Bayesian signed-rank table,
        the rank intervals' Wilcoxon tests) use every case where both have a
        score, Skillings and Mack's test every case, and the Plackett–Luce
        ranking (P(best) and expected rank in Table 1) every case, each
        ranking the algorithms it has. Either way the report states the
        cases of every table column and analysis (Table 1's caption, the
        first page, Methods), and warns on the first page when the complete
        cases are fewer than half.
    aliases : "auto", bool or mapping
        Short names in tables and figures: ``"auto"`` gives A, B, … to each
        name longer than 20 characters and leaves the others as they are,
        ``True`` gives every name a letter, ``False`` none; a mapping
        ``{name: alias}`` gives your own. A legend table maps the aliases to
        the full names (see :func:`nbstats.scores.aliases.make_aliases`).
    layout : {"auto", "standard", "compact"}
        ``"auto"`` chooses from the number of algorithms (above); 3 or more
        algorithms can be forced into either multi-algorithm layout.
    case, algorithm, score : str, optional
        Long data: the columns of case names, algorithm names and scores.
    fold : str or list of str, optional
        Long per-fold data: the column(s) naming a fold (e.g. ``"fold"`` or
        ``["run", "fold"]``). Each algorithm's fold scores on a case are
        averaged (``aggregate``) before the tests, and the report says so and
        how many folds there were. Unequal folds between algorithms are
        refused (see :func:`nbstats.score_table`), and so are failed folds
        unless ``min_folds`` is given.
    aggregate : {"mean", "median"}, optional
        How repeated rows of long data are combined (default with ``fold``:
        ``"mean"``).
    min_folds : int, optional
        Per-fold data with failed folds (an absent row or a missing score):
        each cell's score averages the folds it has when it has at least
        ``min_folds``; a cell with fewer is a missing score (``nan_policy``
        applies). Methods states how many cells were averaged over fewer
        folds. The per-fold tests (which pair the folds) take the same
        ``min_folds`` (:func:`nbstats.correlated_pairs`,
        :func:`nbstats.bayes_hierarchical`): each pair on each data set's
        folds both algorithms scored, a (pair, data set) with fewer left out,
        and the counts stated beside their tables and in Methods; a pair left
        with fewer than 2 such data sets is left out of the hierarchical
        test, with the reason, instead of stopping it. Without
        it, a failed fold is refused, naming each cell's count (see
        :func:`nbstats.score_table`).
    runs : int, optional
        Per-fold data: how many runs (repetitions) of k-fold cross-validation
        made each case's folds (k = folds per case / runs). With it, or with
        two fold columns (run, fold), the report adds a section that tests
        each data set on its own folds (corrected resampled t-test and
        Bayesian correlated t-test, :func:`nbstats.correlated_pairs`); without
        it, the report says what it needs.
    hierarchical : bool
        Per-fold data with ``runs``: also run the Bayesian hierarchical test
        (Corani et al. 2017, :func:`nbstats.bayes_hierarchical`) on the first
        three pairs of the fold section -- what to expect on a further data
        set, with the sampler's diagnostics and the posterior simplex. Tens of
        seconds per pair; needs the extra ``nbstats[hierarchical]`` (without
        it the report says what to install and goes on).
    score_unit : str, optional
        The unit of the scores, e.g. ``"percentage points"`` or ``"seconds"``:
        the report states the rope in it ("±1 percentage points"). Without
        it, the rope is "±1 in the scores' units".
    core_only : bool
        Write only the answer-first part (the summary table, Figure 1, the
        results paragraph and its references): two PDF pages while Table 1
        fits one page's float, about 42 algorithms (see the reports guide).
    venue : str
        The paper venue the tables are set for: ``"article"`` (one column,
        10 pt; default), ``"twocolumn"`` (article, two columns), ``"ieee"``
        (IEEEtran conference) or ``"acm"`` (acmart sigconf). The report and
        the files beside it (``<stem>_tables/``, ``<stem>_core/``) take the
        same tables, each the ``to_latex(venue=...)`` of its result: in a
        two-column venue a table fits the column or spans both (``table*``),
        and a long one is split into floats, never a ``longtable``. The
        figures beside a PDF or LaTeX report are set for it too: Figure 1 in
        ``<stem>_core/``, the others (heat map, rank intervals, Plackett–Luce,
        posterior) as ``<stem>_tables/figure-<name>.pdf``, each a column wide
        with text at 8 pt in the venue's font, a ``-wide`` variant for
        ``figure*`` in a two-column venue, and a ``-key.tex`` table of the
        names when they are too many for the float.

    Returns
    -------
    pathlib.Path
        The absolute path of the report written.

    Raises
    ------
    ValueError, TypeError
        Bad scores (see :func:`nbstats.score_table`), an unknown format or
        analysis, or a setting out of range.
    OSError
        ``path`` cannot be written: its directory does not exist
        (``FileNotFoundError``), it is a directory (``IsADirectoryError``), or
        the directory is read-only (``PermissionError``). Checked before any
        work.
    MissingToolError
        ``pdf`` without xelatex or pandoc, ``tex`` without pandoc (an
        ``OSError`` and a ``RuntimeError``); the message suggests
        ``format="html"`` and the Debian packages. Nothing is written.
    ReportError
        The notebook failed to execute or to typeset (a ``RuntimeError``).

    Notes
    -----
    Writes are atomic: everything is written to a temporary directory beside
    ``path`` and renamed into place, the report last. On failure nothing is
    left behind, an existing report is untouched, and ``scores`` is never
    modified.

    Examples
    --------
    >>> import nbstats, nbstats.reporting
    >>> table = nbstats.datasets.load("demsar2006")
    >>> nbstats.reporting.report(table, "demsar.html")  # doctest: +SKIP
    PosixPath('/.../demsar.html')
    """
    from nbstats.reporting import export, paste_later

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or path-like, got {type(path).__name__}.")
    target = Path(path).expanduser().absolute()
    fmt = export.resolve_format(target, format)
    table, settings = _prepare(
        scores,
        title=title,
        analyses=analyses,
        higher_is_better=higher_is_better,
        alpha=alpha,
        threshold=threshold,
        s=s,
        prior=prior,
        rope=rope,
        loss=loss,
        random_state=random_state,
        nan_policy=nan_policy,
        aliases=aliases,
        layout=layout,
        case=case,
        algorithm=algorithm,
        score=score,
        fold=fold,
        aggregate=aggregate,
        min_folds=min_folds,
        runs=runs,
        hierarchical=hierarchical,
        score_unit=score_unit,
        core_only=core_only,
        venue=venue,
    )
    export.check_target(target)  # before any work: exists, writable, a file
    export.check_tools(fmt)
    with older_objects_frozen():
        if fmt != "pdf":
            executed = _executed(table, settings, FIGURE_FORMATS[fmt])
            return export.write_report(executed, target, fmt)
        # the paste-ready figure files are drawn while xelatex runs
        with paste_later.collected() as pending:
            executed = _executed(table, settings, FIGURE_FORMATS[fmt])
        later = (lambda: paste_later.draw_all(pending)) if pending else None
        return export.write_report(executed, target, fmt, later=later)


def report_text(scores: Any, **options: Any) -> str:
    """The report as plain text: every paragraph and table of :func:`report`.

    Takes the keywords of :func:`report` except ``path`` and ``format``, runs
    the same notebook, and joins the plain-text form of its outputs, so the
    decisions it states are the report's own. ``nbstats analyze`` prints it.

    Examples
    --------
    >>> import nbstats
    >>> table = nbstats.datasets.load("demsar2006")
    >>> text = nbstats.reporting.report_text(table)  # doctest: +SKIP
    >>> "Friedman test rejects" in text  # doctest: +SKIP
    True
    """
    for name in ("path", "format"):
        if name in options:
            raise TypeError(f"report_text() takes no {name!r}; it returns the text.")
    table, settings = _prepare(scores, **{**_REPORT_DEFAULTS, **options})
    with older_objects_frozen():
        executed = _executed(table, settings, ())  # no figure is saved for text
    return _plain_text(executed)


def _prepare(
    scores: Any,
    *,
    title: str | None,
    analyses: Sequence[str],
    higher_is_better: bool,
    alpha: float,
    threshold: float,
    s: float | None,
    prior: str,
    rope: float,
    loss: tuple[float, float],
    random_state: int | None,
    nan_policy: str,
    aliases: AliasOption,
    layout: str,
    case: str | None,
    algorithm: str | None,
    score: str | None,
    fold: str | Sequence[str] | None,
    aggregate: str | None,
    min_folds: int | None,
    runs: int | None,
    hierarchical: bool,
    score_unit: str | None,
    core_only: bool,
    venue: str,
) -> tuple[Any, Any]:
    """The table the report embeds and its validated settings.

    Every keyword is required: the defaults are :func:`report`'s alone
    (:func:`report_text` takes them from its signature).
    """
    from nbstats.reporting import notebook, prepare, settings

    if title is not None:  # before the scores are even looked at
        settings.check_title(title)
    given = prepare.prepare(
        scores,
        case=case,
        algorithm=algorithm,
        score=score,
        fold=fold,
        aggregate=aggregate,
        nan_policy=nan_policy,
        aliases=aliases,
        layout=layout,
        min_folds=min_folds,
    )
    settings = notebook.make_settings(
        given.complete,
        title=title,
        analyses=analyses,
        higher_is_better=higher_is_better,
        alpha=alpha,
        threshold=threshold,
        s=s,
        prior=prior,
        rope=rope,
        loss=loss,
        random_state=random_state,
        nan_policy=nan_policy,
        layout=given.layout,
        aliases=given.aliases,
        folds=given.folds,
        runs=runs,
        fold_scores=given.fold_scores,
        hierarchical=hierarchical,
        score_unit=score_unit,
        core_only=core_only,
        venue=venue,
        n_given=len(given.table),
    )
    # before the notebook: a size its analyses cannot finish in the memory
    # ceiling is refused now, not after a minute inside the kernel
    prepare.check_size(given.complete, settings)
    return given.table, settings


def _executed(table: Any, settings: Any, figure_formats: Sequence[str]) -> Any:
    from nbstats.reporting import export, notebook

    nb = notebook.build_notebook(table, settings, figure_formats=figure_formats)
    return export.execute_notebook(nb)


def _plain_text(nb: Any) -> str:
    """The text a reader of the report sees: headings, paragraphs, tables."""
    parts = [nb.metadata.get("title", ""), "=" * len(nb.metadata.get("title", ""))]
    for cell in nb.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if "remove-cell" in tags:
            continue
        if cell.cell_type == "markdown":
            heading = cell.source.lstrip("# ").strip()
            parts += ["", heading, "-" * len(heading)]
            continue
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain")
            if text and output.get("output_type") == "display_data":
                parts += ["", text if isinstance(text, str) else "".join(text)]
    return "\n".join(parts).strip() + "\n"


#: report()'s defaults of the keywords report_text() shares with it.
_REPORT_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(report).parameters.items()
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY and name != "format"
}
