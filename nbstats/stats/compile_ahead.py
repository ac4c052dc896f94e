"""Every kernel a report or ``analyze`` calls, compiled (or loaded) at once.

numba compiles a kernel on its first call with each set of argument types,
and keeps the result in its cache for the next process. The warm process of
the ``nbstats`` command (:mod:`nbstats.cli.warm_server`) calls
:func:`compile_kernels` while it warms up, after its small reports: every
fork it makes for a command then has every kernel loaded, whatever the
command's table (after an install, the kernels nothing compiled yet are
compiled then, once, in the background).

It is also the oracle of :mod:`nbstats.stats.kernel_signatures`, whose
light process compiles the same kernels, from their recorded argument
types, beside a command's first run after an install.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["compile_kernels"]


def _small_table(holes: bool) -> pd.DataFrame:
    """Twelve cases of four algorithms, with ties (and holes, if asked)."""
    rng = np.random.default_rng(0)
    values = np.round(rng.normal(size=(12, 4)) + np.linspace(0, 1, 4), 1)
    if holes:
        values[[0, 3, 7], [1, 2, 3]] = np.nan
    return pd.DataFrame(values, columns=["A", "B", "C", "D"])


def compile_kernels() -> None:
    """Run the small analyses that compile every kernel a report or
    ``analyze`` calls, with their types.

    Examples
    --------
    >>> compile_kernels()  # compiles, or loads from numba's cache
    """
    from nbstats.stats.bayes.plackett_luce import bayes_plackett_luce
    from nbstats.stats.bayes.posthoc import bayes_posthoc
    from nbstats.stats.bayes.precision import first_draws
    from nbstats.stats.bayes.signrank.pairs import bayes_signrank_pairs
    from nbstats.stats.ranking import rank_ci

    complete, holes = _small_table(holes=False), _small_table(holes=True)
    # the report's calls (reporting/template/multiple.py), at its precision;
    # the pairs first: a report reaches them soonest after Plackett–Luce,
    # which it compiles itself
    precision = {"mc_error": 0.002, "random_state": 0}
    bayes_signrank_pairs(holes, nan_policy="pairwise", joint="auto", **precision)
    bayes_signrank_pairs(complete, joint="auto", **precision)
    bayes_posthoc(complete, test="signrank", **precision)
    # analyze's call: its first, smaller batch of draws
    bayes_signrank_pairs(
        complete, interval=False, n_samples=first_draws(50_000, 0.002), **precision
    )
    bayes_plackett_luce(holes, nan_policy="partial", n_samples=400, random_state=0)
    # the rank intervals' exact Wilcoxon tails with ties
    rank_ci(holes, method="id-wilcoxon-2s", nan_policy="pairwise")
