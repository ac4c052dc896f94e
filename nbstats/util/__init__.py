"""General utilities that every room may use; they import nothing from nbstats.

Argument checks (:mod:`~nbstats.util.checks`), the random state
(:mod:`~nbstats.util.random`), progress bars (:mod:`~nbstats.util.progress`),
the memory ceiling (:mod:`~nbstats.util.memory`), lazy imports
(:mod:`~nbstats.util.lazy`, :mod:`~nbstats.util.scipy_stats`).
"""
