"""The report's kernels compiled in a second process while the command starts.

After installing or upgrading nbstats, numba compiles the kernels on their
first call: seconds in which one core of a two-core machine idles, because
compiling holds the interpreter's lock (a thread does not help; a process
does). So ``nbstats report``, ``demo`` and ``analyze``, when they run in a
process of their own, start ``python -m nbstats.stats.compile_ahead`` beside
themselves (:func:`nbstats.util.warm.run_command`). It runs small analyses
that compile the kernels, the Bayesian pairs' first (a report compiles
Plackett–Luce itself, at its start, and reaches the pairs next): by the
time the command reaches a kernel, its compiled code is often on disk
already, and the command loads it instead of compiling it
(``benchmarks/bench_report.py``, "first run after install"). A kernel the
command reaches first it compiles itself, as it would alone; numba writes
each cache file whole, so two processes may fill one cache.

Once it has run to the end it leaves a stamp (named by the same key as the
warm process: interpreter, nbstats sources, import-time settings), and later
commands do not start it again until an upgrade changes the key; while it
runs, commands started meanwhile do not start another.
``NBSTATS_COMPILE_AHEAD=0`` turns it off.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["compile_kernels", "main"]


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


def main(stamp: str | None = None, running: str | None = None) -> None:
    """Compile the kernels, then create the file ``stamp`` and remove the
    file ``running`` (when given): a command starts this process only while
    its stamp is missing and no other runs
    (:func:`nbstats.util.warm.run_command`)."""
    try:
        compile_kernels()
        if stamp is not None:
            Path(stamp).touch()
    finally:
        if running is not None:
            Path(running).unlink(missing_ok=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
