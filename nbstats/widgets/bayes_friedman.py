"""The Bayesian dashboard's Friedman verdict: its prior strength and a cache.

The dashboard shows :func:`nbstats.bayes_friedman` beside the pairs, at the
slider's s and threshold; the last few verdicts are kept, so that switching
the prior (``"bb"`` sets s = 0) and back finds the verdict again (its Monte
Carlo holds draws of every algorithm's rank).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from nbstats.stats.bayes.friedman import bayes_friedman
from nbstats.stats.bayes.friedman_calibration import minimum_cases
from nbstats.stats.bayes.priors import FRIEDMAN_DEFAULT_S, IDP_DEFAULT_S
from nbstats.util.recent import Recent

__all__ = ["FRIEDMAN_CACHE", "FriedmanVerdicts", "friedman_strength"]

#: Friedman verdicts kept for earlier (s, threshold).
FRIEDMAN_CACHE = 8


def friedman_strength(prior: str, s: float) -> float:
    """The Bayesian Friedman test's s for the dashboard's prior and s: the
    slider's s once it is set, else the test's default (1; Benavoli et al.
    2015, §7), as in :func:`nbstats.bayes_friedman` and the report, whose
    settings (:meth:`BayesDashboard.report_settings`) then carry no s.

    Examples
    --------
    >>> friedman_strength("idp", IDP_DEFAULT_S), friedman_strength("idp", 2.0)
    (1.0, 2.0)
    >>> friedman_strength("bb", 0.0), friedman_strength("point", IDP_DEFAULT_S)
    (1.0, 0.5615528128088303)
    """
    if prior == "bb" or (prior == "idp" and s == IDP_DEFAULT_S):
        return FRIEDMAN_DEFAULT_S
    return float(s)


class FriedmanVerdicts:
    """:func:`nbstats.bayes_friedman` of one table at (s, threshold), the
    last :data:`FRIEDMAN_CACHE` kept; None where the table has too few
    cases for the test
    (:func:`~nbstats.stats.bayes.friedman_calibration.minimum_cases`).
    """

    def __init__(self, table: pd.DataFrame, higher_is_better: bool) -> None:
        self.table = table
        self.higher_is_better = higher_is_better
        self._friedman: Recent[Any] = Recent(FRIEDMAN_CACHE)

    def result(self, s: float, level: float) -> Any:
        key = (s, level)
        if key not in self._friedman:
            n, m = self.table.shape
            # the test needs n >= m, 2m for s = 0 (friedman_calibration)
            result = (
                bayes_friedman(
                    self.table,
                    s=s,
                    threshold=level,
                    higher_is_better=self.higher_is_better,
                )
                if n >= minimum_cases(m, s)
                else None
            )
            self._friedman.put(key, result)
        return self._friedman.get(key)
