"""The words of every Bayesian decision: one vocabulary for results, tables,
reports, dashboards and the command line.

:func:`nbstats.stats.bayes.decision.decide` makes the decisions; this module
only says them.

- ``"b"``: b is better (its posterior probability exceeds the threshold
  l1 / (l0 + l1) of the loss).
- ``"a"``: a is better (the same rule for a).
- ``"equivalent"``: with a rope, the rope -- a region of the parameter,
  |difference| ≤ rope -- is the decided region.
- ``"undecided"``: no region reaches the threshold. Without a rope this
  reads "neither b nor a reaches the threshold" (with the names): it does
  *not* say that a is better.
- ``"indeterminate"``: under the near-ignorance prior (IDP), a region passes
  for some priors of the set but not for all: the decision depends on the
  prior.

ε-indistinguishability (P(|θ − ½| < ε), used by racing) is a different
statement and is never reported as ``"equivalent"``.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["DECISIONS", "DECISION_LABEL", "DECISION_TEXT", "Decision", "describe"]

#: The outcomes of every Bayesian decision.
Decision = Literal["a", "b", "equivalent", "undecided", "indeterminate"]
DECISIONS: tuple[str, ...] = ("a", "b", "equivalent", "undecided", "indeterminate")

#: One sentence per decision; ``{a}`` and ``{b}`` are the two names. The
#: "undecided" of a test without a rope has its own words (see :func:`describe`).
DECISION_TEXT = {
    "b": "{b} better than {a}",
    "a": "{a} better than {b}",
    "equivalent": "{a} and {b} practically equivalent (the rope is the decided region)",
    "undecided": "undecided: no region reaches the threshold",
    "indeterminate": "indeterminate: the decision depends on the prior",
}
_UNDECIDED_NO_ROPE = "undecided: neither {b} nor {a} reaches the threshold"

#: Short labels (tables, matrices, legends); format with the names, e.g.
#: ``DECISION_LABEL["b"].format(a="nbc", b="aode")`` is ``"aode better"``.
DECISION_LABEL = {
    "b": "{b} better",
    "a": "{a} better",
    "equivalent": "equivalent",
    "undecided": "undecided",
    "indeterminate": "indeterminate",
}


def describe(decision: str, name_a: str, name_b: str, *, rope: bool = True) -> str:
    """A decision in words, with the algorithms' names.

    ``rope=False`` (the test has no rope): ``"undecided"`` names both
    algorithms, neither of which reaches the threshold, never as a statement
    that a is better.

    Examples
    --------
    >>> describe("a", "nbc", "aode")
    'nbc better than aode'
    >>> describe("undecided", "nbc", "aode", rope=False)
    'undecided: neither aode nor nbc reaches the threshold'
    """
    if decision not in DECISION_TEXT:
        raise ValueError(
            f"unknown decision {decision!r}; one of "
            + ", ".join(repr(d) for d in DECISIONS)
            + "."
        )
    text = (
        _UNDECIDED_NO_ROPE
        if decision == "undecided" and not rope
        else DECISION_TEXT[decision]
    )
    return text.format(a=name_a, b=name_b)
