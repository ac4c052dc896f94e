"""Simulation studies: synthetic scores with a known truth, and how often a
method gets it right.

- generators: :func:`challenge_scores` (Foucart et al. 2025),
  :func:`paired_normal` (Benavoli et al. 2014, eq. 10),
  :func:`racing_candidates` (Benavoli et al. 2015, §7.1);
- :func:`study` runs generate → analyse → evaluate over settings ×
  repetitions, in process or on any ``concurrent.futures`` executor, with
  the same results either way; :func:`summarise` averages the metrics;
- metrics: :func:`rank_interval_metrics` (FWTI, FWP, IP, DP, FWDP, coverage)
  and :func:`test_decision_metrics` (rejection rate, loss, indeterminacy).

Examples
--------
>>> from nbstats import simulate
>>> scores, truth = simulate.challenge_scores(20, 5, 1.0, random_state=0)
>>> scores.shape, truth.idxmin()
((20, 5), 'alg5')
"""

from nbstats.simulate.generators import (
    CandidateEvaluator,
    challenge_scores,
    paired_normal,
    racing_candidates,
)
from nbstats.simulate.metrics import rank_interval_metrics, test_decision_metrics
from nbstats.simulate.study import StudyError, expand_settings, study, summarise

__all__ = [
    "CandidateEvaluator",
    "StudyError",
    "challenge_scores",
    "expand_settings",
    "paired_normal",
    "racing_candidates",
    "rank_interval_metrics",
    "study",
    "summarise",
    "test_decision_metrics",
]
