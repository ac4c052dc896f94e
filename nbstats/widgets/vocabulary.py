"""The dashboards' decision words: the product's one vocabulary.

Bayesian decisions (:data:`nbstats.results.decisions.DECISIONS`) are written
``"<algorithm> better"`` — naming the algorithm, never a bare "a" or "b" —
``"equivalent"``, ``"undecided"`` and ``"indeterminate"``; frequentist
decisions ``"significantly different"`` or ``"not significantly different"``.
Every dashboard writes its decisions with these functions, so the matrix, the
per-data-set table, the selected pair and the legend say the same as the
report.

Examples
--------
>>> bayes_decision("b", "nbc", "aode")
'aode better'
>>> bayes_decision("indeterminate", "nbc", "aode")
'indeterminate'
>>> frequentist_decision(True)
'significantly different'
"""

from __future__ import annotations

__all__ = [
    "BAYES_WORDS",
    "NOT_SIGNIFICANT",
    "SIGNIFICANT",
    "bayes_decision",
    "frequentist_decision",
]

#: The frequentist decision words (a test at level α).
SIGNIFICANT = "significantly different"
NOT_SIGNIFICANT = "not significantly different"
#: The Bayesian decision words other than "<algorithm> better".
BAYES_WORDS = {
    "equivalent": "equivalent",
    "undecided": "undecided",
    "indeterminate": "indeterminate",
}


def bayes_decision(decision: str, a: str, b: str) -> str:
    """A Bayesian decision in the product's words, naming the better algorithm
    (``a`` and ``b``: the display names of the pair)."""
    if decision == "b":
        return f"{b} better"
    if decision == "a":
        return f"{a} better"
    if decision not in BAYES_WORDS:
        raise ValueError(
            f"unknown decision {decision!r}; one of 'a', 'b', "
            + ", ".join(repr(d) for d in BAYES_WORDS)
            + "."
        )
    return BAYES_WORDS[decision]


def frequentist_decision(rejected: bool) -> str:
    """``"significantly different"`` when the null hypothesis is rejected."""
    return SIGNIFICANT if rejected else NOT_SIGNIFICANT
