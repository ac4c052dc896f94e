"""Bayesian tests with the Dirichlet process (Benavoli et al. 2014, 2015)."""

from nbstats.stats.bayes.friedman import bayes_friedman
from nbstats.stats.bayes.pairs import bayes_signrank_pairs
from nbstats.stats.bayes.posthoc import bayes_posthoc
from nbstats.stats.bayes.sign import bayes_sign_test
from nbstats.stats.bayes.signrank import bayes_signrank

__all__ = [
    "bayes_friedman",
    "bayes_posthoc",
    "bayes_sign_test",
    "bayes_signrank",
    "bayes_signrank_pairs",
]
