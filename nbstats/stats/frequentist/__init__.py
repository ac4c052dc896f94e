"""Frequentist tests and post-hoc procedures of Demšar (2006)."""

from nbstats.stats.frequentist.adjust import adjust_pvalues
from nbstats.stats.frequentist.anova import rm_anova
from nbstats.stats.frequentist.critical_difference import critical_difference
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.posthoc import posthoc
from nbstats.stats.frequentist.sign import sign_test
from nbstats.stats.frequentist.ttest import ttest
from nbstats.stats.frequentist.wilcoxon import wilcoxon

__all__ = [
    "adjust_pvalues",
    "critical_difference",
    "friedman",
    "posthoc",
    "rm_anova",
    "sign_test",
    "ttest",
    "wilcoxon",
]
