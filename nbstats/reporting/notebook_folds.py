"""The report notebook's cells for per-fold scores: both correlated t-tests
on each data set's folds and, when asked for, the Bayesian hierarchical test
across data sets (:func:`nbstats.reporting.notebook.build_notebook` adds them).

``nb`` is the builder's cell list (``markdown`` and ``code`` methods) and
``settings`` its :class:`~nbstats.reporting.settings.ReportSettings`, read by
what they carry.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["fold_cells"]


def fold_cells(nb: Any, settings: Any, layout: str, table: pd.DataFrame) -> None:
    """Per-fold scores: both correlated t-tests on each data set."""
    nb.markdown("# Each data set on its own: the folds")
    if settings.runs is None:
        nb.code(
            """
fold_tests = None  # the fold design is unknown: see the text
report.fold_tests_missing(FOLDS)
"""
        )
        return
    if layout == "two-sample":
        pairs = "[tuple(scores.columns)]  # (a, b) as in the tests above"
    else:
        pairs = (
            "report.fold_pairs(\n"
            "    nbstats.mean_ranks(scores, **direction)"
            '.sort_values(kind="stable").index,\n'
            "    LAYOUT,\n)"
        )
    cases = _fold_cases_shown(table, layout)
    nb.code(
        f"""
# the corrected resampled t-test and the Bayesian correlated t-test of each
# pair on each data set's folds; b is the better-ranked algorithm
fold_pairs = {pairs}
fold_tests = nbstats.correlated_pairs(
    fold_scores, case="case", algorithm="algorithm", score="score", fold="fold",
    runs=RUNS, rope=ROPE, loss=LOSS, pairs=fold_pairs, min_folds=MIN_FOLDS,
    **direction,
)
report.fold_section(
    fold_tests, folds=FOLDS, runs=RUNS, compact=LAYOUT == "compact",
    cases_table={cases!r},
)
""",
        tables=["tab:fold-pairs"] + (["tab:fold-cases"] if cases else []),
    )
    if settings.hierarchical:
        _hierarchical_cell(nb)


def _hierarchical_cell(nb: Any) -> None:
    """The Bayesian hierarchical test on the fold section's first pairs."""
    from nbstats.reporting.hierarchical import sampler_installed

    nb.markdown("# Across data sets: the Bayesian hierarchical test")
    # the kernel runs in this environment: without the sampler the section
    # only says what to install, and numbers no table or figure
    installed = sampler_installed()
    nb.code(
        """
hierarchical = report.hierarchical_tests(
    fold_scores, fold_pairs, runs=RUNS, rope=ROPE, loss=LOSS, seed=SEED,
    min_folds=MIN_FOLDS, **direction,
)
report.hierarchical_section(hierarchical)
""",
        tables=["tab:hierarchical"] if installed else [],
        figures=["fig:hierarchical"] if installed else [],
    )


def _fold_cases_shown(table: pd.DataFrame, layout: str) -> bool:
    from nbstats.reporting.folds import FOLD_CASES_TYPESET

    # the cases analysed: those without a missing score (see nan_policy)
    return layout == "two-sample" and len(table.dropna()) <= FOLD_CASES_TYPESET
