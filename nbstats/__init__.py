"""nbstats: which algorithms are really better, and how sure can we be.

Importing nbstats registers the ``DataFrame.compare`` accessor (pandas' own
``df.compare(other)`` keeps working). Heavy display libraries (matplotlib,
ipywidgets, nbconvert) are imported lazily, by the functions that need them.

Examples
--------
>>> import nbstats
>>> table = nbstats.datasets.load("demsar2006")
>>> res = table.compare.friedman()
>>> statistic, pvalue = res
>>> round(statistic, 2)
9.28
"""

from nbstats import datasets, report, simulate
from nbstats.accessor import register as _register_accessor
from nbstats.scores import fold_summary, mean_ranks, ranks, score_table
from nbstats.stats.analyze import analyze
from nbstats.stats.bayes import (
    bayes_friedman,
    bayes_posthoc,
    bayes_sign_test,
    bayes_signrank,
    bayes_signrank_pairs,
)
from nbstats.stats.bayes.memory import memory_ceiling, set_memory_ceiling
from nbstats.stats.bayes.plackett_luce import bayes_plackett_luce
from nbstats.stats.comparison import comparison_matrix
from nbstats.stats.correlated import bayes_correlated_ttest, correlated_ttest
from nbstats.stats.correlated_pairs import correlated_pairs
from nbstats.stats.effect_size import effect_size
from nbstats.stats.frequentist import (
    adjust_pvalues,
    critical_difference,
    friedman,
    posthoc,
    rm_anova,
    sign_test,
    ttest,
    wilcoxon,
)
from nbstats.stats.frequentist.aligned import friedman_aligned
from nbstats.stats.frequentist.durbin import durbin
from nbstats.stats.frequentist.quade import quade
from nbstats.stats.frequentist.skillings_mack import skillings_mack
from nbstats.stats.hierarchical import bayes_hierarchical
from nbstats.stats.letters import letters
from nbstats.stats.racing import RaceError, race
from nbstats.stats.ranking import nemenyi_min_cases, rank_ci
from nbstats.widgets.dashboard import dashboard

__version__ = "0.1.0.dev0"

__all__ = [
    "RaceError",
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
    "correlated_pairs",
    "correlated_ttest",
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


def __getattr__(name: str) -> object:
    # nbstats.plots imports matplotlib: load it on first use, not with nbstats
    if name == "plots":
        import importlib

        return importlib.import_module("nbstats.plots")
    raise AttributeError(f"module 'nbstats' has no attribute {name!r}")
