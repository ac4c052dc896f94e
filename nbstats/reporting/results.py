"""The results a report computed, passed as one object to its Methods section.

The report notebook's Methods cell builds one :class:`ReportResults` from the
results of every analysis it ran, and both
:func:`nbstats.reporting.cells.methods` and
:func:`nbstats.reporting.methods.methods_paragraph` read it: an analysis left
out of the report is ``None`` here and left out of the paragraph.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nbstats.results.bayes import (
        BayesSignedRankPairsResult,
        BayesSignedRankResult,
        BayesSignTestResult,
    )
    from nbstats.results.bayes_friedman import BayesFriedmanResult
    from nbstats.results.bayes_posthoc import BayesPosthocResult
    from nbstats.results.folds import CorrelatedPairsResult
    from nbstats.results.frequentist import FriedmanResult, PosthocResult
    from nbstats.results.incomplete import SkillingsMackResult
    from nbstats.results.plackett_luce import PlackettLuceResult
    from nbstats.results.ranking import RankCIResult
    from nbstats.results.two_sample import SignTestResult, WilcoxonResult

__all__ = ["ReportResults"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class ReportResults:
    """The result of each analysis of a report (``None``: not run).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.reporting.results import ReportResults
    >>> scores = nbstats.datasets.load("demsar2006")
    >>> results = ReportResults(friedman=nbstats.friedman(scores))
    >>> results.friedman.n_cases, results.holm is None
    (14, True)
    """

    #: Three or more algorithms: Friedman's test (``None`` without the
    #: frequentist analyses), Nemenyi's and Holm's post-hoc tests, and the
    #: Skillings–Mack test (``nan_policy="pairwise"`` only).
    friedman: FriedmanResult | None = None
    nemenyi: PosthocResult | None = None
    holm: PosthocResult | None = None
    skillings_mack: SkillingsMackResult | None = None
    #: The Bayesian Friedman test (``None`` with too few cases too).
    bayes_friedman: BayesFriedmanResult | None = None
    #: The Bayesian signed-rank test: every pair of three or more algorithms
    #: (:func:`~nbstats.bayes_signrank_pairs`), or the one pair of two (or a
    #: list of single pairs run alike: the first speaks for all).
    signrank: (
        BayesSignedRankPairsResult
        | BayesSignedRankResult
        | Sequence[BayesSignedRankResult]
        | None
    ) = None
    #: The joint statements on every pair (:func:`~nbstats.bayes_posthoc`).
    joint: BayesPosthocResult | None = None
    #: The confidence intervals for the ranks.
    rank_ci: RankCIResult | None = None
    #: Two algorithms: Wilcoxon's test, the sign test and its Bayesian version.
    wilcoxon: WilcoxonResult | None = None
    sign: SignTestResult | None = None
    bayes_sign: BayesSignTestResult | None = None
    #: Per-fold scores: both correlated t-tests of each pair on each data set,
    #: and the Bayesian hierarchical tests across data sets (a
    #: :class:`nbstats.reporting.hierarchical.HierarchicalTests`; not named
    #: here, as that module imports the Methods paragraph that reads this).
    fold_tests: CorrelatedPairsResult | None = None
    hierarchical: Any = None
    #: The Bayesian Plackett–Luce ranking.
    plackett_luce: PlackettLuceResult | None = None
