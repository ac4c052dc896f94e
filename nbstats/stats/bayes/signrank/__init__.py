"""The Bayesian signed-rank test: one pair, the pairs table, and their engines.

:mod:`~nbstats.stats.bayes.signrank.one_pair` has :func:`bayes_signrank`,
:mod:`~nbstats.stats.bayes.signrank.pairs` :func:`bayes_signrank_pairs`; the
posterior (:mod:`~.posterior`), its summary and bounds, the Walsh averages'
sums and placements (the exact near-ignorance prior) and their compiled
kernels are the modules beside them.
"""
