"""The names the report notebook's cells share, declared for the linters.

The template files (``nbstats/reporting/template/*.py``, see
:mod:`nbstats.reporting.notebook_template`) are the notebook's code, checked
by ruff and read by an editor; each imports from here, under
``if TYPE_CHECKING:``, the names that earlier cells define -- the modules and
constants of the generated first cell (written by
:func:`nbstats.reporting.notebook.build_notebook`) and the results of earlier
sections. That import is not copied into the notebook, and nothing imports
this module at run time.
"""

from __future__ import annotations

import types
import warnings
from typing import Any

import pandas as pd

from nbstats.reporting import cells as report
from nbstats.reporting.methods import Paragraph
from nbstats.reporting.results import ReportResults

__all__ = [
    "ALIASES",
    "ALPHA",
    "CORE_ONLY",
    "FIGURES",
    "FIGURE_FORMATS",
    "FOLDS",
    "FOLD_CASES_TABLE",
    "FOLD_SCORES_CSV",
    "HIGHER_IS_BETTER",
    "INDEX_NAME",
    "LAYOUT",
    "LOSS",
    "MC_ERROR",
    "MIN_FOLDS",
    "NAN_POLICY",
    "NEMENYI_WARNING",
    "N_SAMPLES",
    "PRIOR",
    "RANK_ORDER",
    "ROPE",
    "RUNS",
    "SCORES_CSV",
    "SCORE_UNIT",
    "SEED",
    "TABLES",
    "THRESHOLD",
    "VENUE",
    "S",
    "bayes_friedman",
    "bayes_sign",
    "core_text",
    "direction",
    "fold_pairs",
    "fold_scores",
    "fold_tests",
    "friedman",
    "hierarchical",
    "holm",
    "joint",
    "methods",
    "nbstats",
    "nemenyi",
    "pair_scores",
    "plackett_luce",
    "prior",
    "rank_ci",
    "raw",
    "report",
    "results",
    "scores",
    "sign",
    "signrank",
    "skillings_mack",
    "warnings",
    "wilcoxon",
]  # fmt: skip

#: The package (``import nbstats`` in the notebook; the architecture forbids
#: importing the package root from inside it, so only declared here).
nbstats: types.ModuleType
_ = (report, warnings)  # imported in the notebook's first cell too

# -- the generated first cell: the user's data and settings ----------------------
SCORES_CSV: str
INDEX_NAME: Any
HIGHER_IS_BETTER: bool
ALPHA: float
THRESHOLD: float
S: float | None
PRIOR: str
ROPE: float
LOSS: tuple[float, float]
SEED: int | None
N_SAMPLES: int
MC_ERROR: float | None
NAN_POLICY: str
FOLDS: dict[str, Any] | None
ALIASES: dict[str, str]
LAYOUT: str
SCORE_UNIT: str | None
CORE_ONLY: bool
VENUE: Any
FOLD_SCORES_CSV: str
RUNS: int | None
MIN_FOLDS: int | None
FOLD_CASES_TABLE: bool
TABLES: list[str]
FIGURES: list[str]
FIGURE_FORMATS: tuple[str, ...]

# -- defined by the cells --------------------------------------------------------
raw: pd.DataFrame
scores: pd.DataFrame
pair_scores: pd.DataFrame
fold_scores: pd.DataFrame
direction: dict[str, bool]
prior: dict[str, float]
core_text: Paragraph
NEMENYI_WARNING: str
RANK_ORDER: list[str]
fold_pairs: list[tuple[str, str]]
friedman: Any
nemenyi: Any
holm: Any
skillings_mack: Any
bayes_friedman: Any
signrank: Any
joint: Any
rank_ci: Any
wilcoxon: Any
sign: Any
bayes_sign: Any
fold_tests: Any
hierarchical: Any
plackett_luce: Any
results: ReportResults
methods: Paragraph
