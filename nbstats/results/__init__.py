"""Frozen result objects with text, HTML and LaTeX renderings."""

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
