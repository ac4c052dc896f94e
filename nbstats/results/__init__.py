"""Frozen result objects with text, HTML and LaTeX renderings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nbstats.util.lazy import lazy_attributes

#: Public name -> the module that defines it, imported on first use (PEP 562):
#: a function that returns one result loads that result's module, not the package's.
_LAZY = {
    "AnalysisResult": "nbstats.results.analysis",
    "AnovaResult": "nbstats.results.frequentist",
    "BayesCorrelatedTTestResult": "nbstats.results.folds",
    "BayesFriedmanResult": "nbstats.results.bayes_friedman",
    "BayesHierarchicalResult": "nbstats.results.hierarchical",
    "BayesPosthocResult": "nbstats.results.bayes",
    "BayesSignTestResult": "nbstats.results.bayes",
    "BayesSignedRankPairsResult": "nbstats.results.bayes",
    "BayesSignedRankResult": "nbstats.results.bayes",
    "ComparisonMatrixResult": "nbstats.results.comparison",
    "CorrelatedPairsResult": "nbstats.results.folds",
    "CorrelatedTTestResult": "nbstats.results.folds",
    "CoverageResult": "nbstats.results.coverage",
    "DurbinResult": "nbstats.results.incomplete",
    "EffectSizeResult": "nbstats.results.effect_size",
    "FriedmanAlignedResult": "nbstats.results.aligned",
    "FriedmanResult": "nbstats.results.frequentist",
    "LettersResult": "nbstats.results.letters",
    "PlackettLuceResult": "nbstats.results.plackett_luce",
    "PosthocResult": "nbstats.results.frequentist",
    "QuadeResult": "nbstats.results.quade",
    "RaceResult": "nbstats.results.racing",
    "RankCIResult": "nbstats.results.ranking",
    "Result": "nbstats.results.base",
    "SignTestResult": "nbstats.results.frequentist",
    "SkillingsMackResult": "nbstats.results.incomplete",
    "SphericityResult": "nbstats.results.analysis",
    "TTestResult": "nbstats.results.frequentist",
    "TestResult": "nbstats.results.base",
    "WilcoxonResult": "nbstats.results.frequentist",
}

__all__ = [
    "AnalysisResult",
    "AnovaResult",
    "BayesCorrelatedTTestResult",
    "BayesFriedmanResult",
    "BayesHierarchicalResult",
    "BayesPosthocResult",
    "BayesSignTestResult",
    "BayesSignedRankPairsResult",
    "BayesSignedRankResult",
    "ComparisonMatrixResult",
    "CorrelatedPairsResult",
    "CorrelatedTTestResult",
    "CoverageResult",
    "DurbinResult",
    "EffectSizeResult",
    "FriedmanAlignedResult",
    "FriedmanResult",
    "LettersResult",
    "PlackettLuceResult",
    "PosthocResult",
    "QuadeResult",
    "RaceResult",
    "RankCIResult",
    "Result",
    "SignTestResult",
    "SkillingsMackResult",
    "SphericityResult",
    "TTestResult",
    "TestResult",
    "WilcoxonResult",
]

__getattr__, __dir__ = lazy_attributes("nbstats.results", _LAZY, globals())

if TYPE_CHECKING:  # static analysers and IDEs see the eager imports
    from nbstats.results.aligned import FriedmanAlignedResult
    from nbstats.results.analysis import AnalysisResult, SphericityResult
    from nbstats.results.base import Result, TestResult
    from nbstats.results.bayes import (
        BayesPosthocResult,
        BayesSignedRankPairsResult,
        BayesSignedRankResult,
        BayesSignTestResult,
    )
    from nbstats.results.bayes_friedman import BayesFriedmanResult
    from nbstats.results.comparison import ComparisonMatrixResult
    from nbstats.results.coverage import CoverageResult
    from nbstats.results.effect_size import EffectSizeResult
    from nbstats.results.folds import (
        BayesCorrelatedTTestResult,
        CorrelatedPairsResult,
        CorrelatedTTestResult,
    )
    from nbstats.results.frequentist import (
        AnovaResult,
        FriedmanResult,
        PosthocResult,
        SignTestResult,
        TTestResult,
        WilcoxonResult,
    )
    from nbstats.results.hierarchical import BayesHierarchicalResult
    from nbstats.results.incomplete import DurbinResult, SkillingsMackResult
    from nbstats.results.letters import LettersResult
    from nbstats.results.plackett_luce import PlackettLuceResult
    from nbstats.results.quade import QuadeResult
    from nbstats.results.racing import RaceResult
    from nbstats.results.ranking import RankCIResult
