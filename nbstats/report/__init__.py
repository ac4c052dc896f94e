"""Paper-ready reports: one call from a score table to HTML, PDF, LaTeX or a notebook.

:func:`report` builds a notebook that embeds the scores and recomputes every
analysis with nbstats (:mod:`nbstats.report.notebook`), executes it in a fresh
kernel and exports it with the nbconvert templates ``nbstats-paper`` (HTML)
and ``nbstats-paper-latex`` (LaTeX/PDF) (:mod:`nbstats.report.export`,
:mod:`nbstats.report.exporters`). The Methods paragraph and the references are
written by :mod:`nbstats.report.methods`.

Importing this package is cheap: nbformat, nbclient and nbconvert are imported
when a report is written. The module itself is callable, so
``nbstats.report(scores, "report.html")`` and
``nbstats.report.report(scores, "report.html")`` are the same call.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["TEX_PACKAGES", "MissingToolError", "ReportError", "report"]


#: The Debian packages behind the PDF and LaTeX formats.
TEX_PACKAGES = "texlive-xetex texlive-fonts-recommended texlive-plain-generic pandoc"


class ReportError(RuntimeError):
    """The report notebook failed to execute or to typeset."""


class MissingToolError(OSError, RuntimeError):
    """A program the report format needs (xelatex, pandoc) is not installed.

    Both an ``OSError`` (what nbconvert raises for a missing LaTeX) and a
    ``RuntimeError``. Its message suggests ``format="html"`` and the Debian
    packages of :data:`TEX_PACKAGES`.
    """


def report(
    scores: Any,
    path: str | os.PathLike[str],
    *,
    format: str | None = None,
    title: str | None = None,
    analyses: Sequence[str] = ("frequentist", "bayesian", "ranks"),
    higher_is_better: bool = True,
    alpha: float = 0.05,
    gamma: float = 0.05,
    s: float | None = None,
    rope: float = 0.0,
    loss: tuple[float, float] = (1, 19),
    random_state: int | None = 0,
) -> Path:
    """Write a report of the comparison of algorithms on a score table.

    The report states the data (cases, algorithms, direction) and shows the
    scores with their ranks (best in bold); the Friedman and Iman–Davenport
    tests and the Bayesian Friedman test; the Nemenyi critical-difference
    diagram and table, and Holm's procedure against the best-ranked algorithm;
    the Bayesian signed-rank test of every pair and the joint Bayesian
    statements with their heatmap; confidence intervals for the ranks with a
    forest plot; a Methods paragraph naming every test, correction, prior,
    setting and seed used, with citations; and the references. Tables and
    figures are numbered and captioned. Nothing shows code.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Wide score table: rows = cases, columns = algorithms (validated by
        :func:`nbstats.score_table`; convert long data with it first).
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
    gamma : float
        ``1 - gamma`` is the credible level of the Bayesian Friedman test and
        of the joint Bayesian statements.
    s : float, optional
        Prior strength of every Bayesian analysis. Default: each test's own,
        (√17 − 3)/2 for the near-ignorance prior of the pairwise signed-rank
        tests and 1 for the Bayesian Friedman test and the joint statements.
        ``s=0`` makes the signed-rank tests the Bayesian bootstrap.
    rope : float
        Half-width of the region of practical equivalence of the pairwise
        Bayesian signed-rank tests (in score units).
    loss : (l0, l1)
        Losses of a Type II and a Type I error; the signed-rank tests prefer
        an algorithm when its posterior probability of being better exceeds
        ``l1 / (l0 + l1)`` (0.95 for the default).
    random_state : int or None
        Seed of every Monte Carlo computation (50,000 draws each). None draws
        a seed, which the report states.

    Returns
    -------
    pathlib.Path
        The absolute path of the report written.

    Raises
    ------
    ValueError, TypeError
        Bad scores (see :func:`nbstats.score_table`), an unknown format or
        analysis, or a setting out of range.
    FileNotFoundError
        The directory of ``path`` does not exist.
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
    >>> import nbstats, nbstats.report
    >>> table = nbstats.datasets.load("demsar2006")
    >>> nbstats.report.report(table, "demsar.html")  # doctest: +SKIP
    PosixPath('/.../demsar.html')
    """
    from nbstats.report import export, notebook
    from nbstats.scores import score_table

    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or path-like, got {type(path).__name__}.")
    target = Path(path).expanduser().absolute()
    fmt = export.resolve_format(target, format)
    table = score_table(scores)
    settings = notebook.make_settings(
        table,
        title=title,
        analyses=analyses,
        higher_is_better=higher_is_better,
        alpha=alpha,
        gamma=gamma,
        s=s,
        rope=rope,
        loss=loss,
        random_state=random_state,
    )
    if not target.parent.is_dir():
        raise FileNotFoundError(
            f"cannot write {target.name!r}: the directory {str(target.parent)!r} "
            "does not exist."
        )
    if target.is_dir():
        raise IsADirectoryError(f"{str(target)!r} is a directory; give a file name.")
    export.check_tools(fmt)
    nb = notebook.build_notebook(table, settings)
    executed = export.execute_notebook(nb)
    return export.write_report(executed, target, fmt)


class _CallableModule(types.ModuleType):
    """``nbstats.report(...)`` calls :func:`report`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Path:
        return report(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
