"""nbstats: which algorithms are really better, and how sure can we be.

Importing nbstats registers the ``DataFrame.compare`` accessor (pandas' own
``df.compare(other)`` keeps working). Everything else loads on first use:
the functions below are looked up when first asked for (PEP 562), and heavy
libraries (matplotlib, ipywidgets, nbconvert, numba's kernels, scipy's
interpolate and optimize) are imported by the functions that need them, so
``import nbstats`` stays quick (``benchmarks/bench_import.py``).

Examples
--------
>>> import nbstats
>>> table = nbstats.datasets.load("demsar2006")
>>> res = table.compare.friedman()
>>> statistic, pvalue = res
>>> round(statistic, 2)
9.28
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nbstats.accessor import register as _register_accessor
from nbstats.util.lazy import lazy_attributes

__version__ = "0.1.0.dev0"

# Public name -> module that defines it (not its package: a first call loads
# that module's imports only). A submodule's own name maps to None.
_LAZY: dict[str, str | None] = {
    "RaceError": "nbstats.stats.racing",
    "WilcoxonTest": "nbstats.stats.frequentist.pairwise_tests",
    "adjust_pvalues": "nbstats.stats.frequentist.adjust",
    "analyze": "nbstats.stats.analyze",
    "bayes_correlated_ttest": "nbstats.stats.correlated",
    "bayes_friedman": "nbstats.stats.bayes.friedman",
    "bayes_hierarchical": "nbstats.stats.hierarchical",
    "bayes_plackett_luce": "nbstats.stats.bayes.plackett_luce",
    "bayes_posthoc": "nbstats.stats.bayes.posthoc",
    "bayes_sign_test": "nbstats.stats.bayes.sign",
    "bayes_signrank": "nbstats.stats.bayes.signrank.one_pair",
    "bayes_signrank_pairs": "nbstats.stats.bayes.signrank.pairs",
    "comparison_matrix": "nbstats.stats.comparison",
    "conover": "nbstats.stats.frequentist.conover",
    "correlated_pairs": "nbstats.stats.correlated_pairs",
    "correlated_ttest": "nbstats.stats.correlated",
    "coverage": "nbstats.stats.coverage",
    "critical_difference": "nbstats.stats.frequentist.critical_difference",
    "dashboard": "nbstats.widgets.dashboard",
    "datasets": None,
    "durbin": "nbstats.stats.frequentist.durbin",
    "effect_size": "nbstats.stats.effect_size",
    "fold_summary": "nbstats.scores.folds",
    "friedman": "nbstats.stats.frequentist.friedman",
    "friedman_aligned": "nbstats.stats.frequentist.aligned",
    "letters": "nbstats.stats.letters",
    "mean_ranks": "nbstats.scores.ranks",
    "memory_ceiling": "nbstats.util.memory",
    "nemenyi_min_cases": "nbstats.stats.ranking",
    "plots": None,
    "posthoc": "nbstats.stats.frequentist.posthoc",
    "quade": "nbstats.stats.frequentist.quade",
    "race": "nbstats.stats.racing",
    "rank_ci": "nbstats.stats.ranking",
    "ranks": "nbstats.scores.ranks",
    "report": "nbstats.reporting",
    "report_text": "nbstats.reporting",
    "rm_anova": "nbstats.stats.frequentist.anova",
    "score_table": "nbstats.scores.table",
    "set_memory_ceiling": "nbstats.util.memory",
    "sign_test": "nbstats.stats.frequentist.sign",
    "simulate": None,
    "skillings_mack": "nbstats.stats.frequentist.skillings_mack",
    "ttest": "nbstats.stats.frequentist.ttest",
    "wilcoxon": "nbstats.stats.frequentist.wilcoxon",
}

__all__ = [
    "RaceError",
    "WilcoxonTest",
    "adjust_pvalues",
    "analyze",
    "bayes_correlated_ttest",
    "bayes_friedman",
    "bayes_hierarchical",
    "bayes_plackett_luce",
    "bayes_posthoc",
    "bayes_sign_test",
    "bayes_signrank",
    "bayes_signrank_pairs",
    "comparison_matrix",
    "conover",
    "correlated_pairs",
    "correlated_ttest",
    "coverage",
    "critical_difference",
    "dashboard",
    "datasets",
    "durbin",
    "effect_size",
    "fold_summary",
    "friedman",
    "friedman_aligned",
    "letters",
    "mean_ranks",
    "memory_ceiling",
    "nemenyi_min_cases",
    "posthoc",
    "quade",
    "race",
    "rank_ci",
    "ranks",
    "report",
    "report_text",
    "rm_anova",
    "score_table",
    "set_memory_ceiling",
    "sign_test",
    "simulate",
    "skillings_mack",
    "ttest",
    "wilcoxon",
]

_register_accessor()


# PEP 562: import the defining module on first access only, so that simulate,
# datasets, plots (matplotlib) and the functions' own heavy imports cost
# nothing until used
__getattr__, __dir__ = lazy_attributes("nbstats", _LAZY, globals())


if TYPE_CHECKING:  # static analysers and IDEs see the eager imports
    from nbstats import datasets, simulate
    from nbstats import plots as plots
    from nbstats.reporting import report, report_text
    from nbstats.scores.folds import fold_summary
    from nbstats.scores.ranks import mean_ranks, ranks
    from nbstats.scores.table import score_table
    from nbstats.stats.analyze import analyze
    from nbstats.stats.bayes.friedman import bayes_friedman
    from nbstats.stats.bayes.plackett_luce import bayes_plackett_luce
    from nbstats.stats.bayes.posthoc import bayes_posthoc
    from nbstats.stats.bayes.sign import bayes_sign_test
    from nbstats.stats.bayes.signrank.one_pair import bayes_signrank
    from nbstats.stats.bayes.signrank.pairs import bayes_signrank_pairs
    from nbstats.stats.comparison import comparison_matrix
    from nbstats.stats.correlated import bayes_correlated_ttest, correlated_ttest
    from nbstats.stats.correlated_pairs import correlated_pairs
    from nbstats.stats.coverage import coverage
    from nbstats.stats.effect_size import effect_size
    from nbstats.stats.frequentist.adjust import adjust_pvalues
    from nbstats.stats.frequentist.aligned import friedman_aligned
    from nbstats.stats.frequentist.anova import rm_anova
    from nbstats.stats.frequentist.conover import conover
    from nbstats.stats.frequentist.critical_difference import critical_difference
    from nbstats.stats.frequentist.durbin import durbin
    from nbstats.stats.frequentist.friedman import friedman
    from nbstats.stats.frequentist.pairwise_tests import WilcoxonTest
    from nbstats.stats.frequentist.posthoc import posthoc
    from nbstats.stats.frequentist.quade import quade
    from nbstats.stats.frequentist.sign import sign_test
    from nbstats.stats.frequentist.skillings_mack import skillings_mack
    from nbstats.stats.frequentist.ttest import ttest
    from nbstats.stats.frequentist.wilcoxon import wilcoxon
    from nbstats.stats.hierarchical import bayes_hierarchical
    from nbstats.stats.letters import letters
    from nbstats.stats.racing import RaceError, race
    from nbstats.stats.ranking import nemenyi_min_cases, rank_ci
    from nbstats.util.memory import memory_ceiling, set_memory_ceiling
    from nbstats.widgets.dashboard import dashboard
