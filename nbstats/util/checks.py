"""Argument checks every function shares: a choice, a flag, a ``nan_policy``.

Each refuses bad input with a message that names the argument and the fix.

Examples
--------
>>> check_choice("method", "holm", ("holm", "nemenyi"))
>>> check_flag("higher_is_better", "no")
Traceback (most recent call last):
...
TypeError: higher_is_better must be True or False, got 'no'.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

__all__ = ["check_choice", "check_complete_policy", "check_flag"]


def check_complete_policy(nan_policy: object) -> None:
    """Refuse ``nan_policy="pairwise"`` for a method that needs complete cases.

    The message names the public function the user called: the outermost
    nbstats frame on the stack (e.g. ``friedman``), so that every method of
    that kind refuses with its own name without passing it down.
    """
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    if nan_policy != "pairwise":
        return
    method = "this method"
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith(
        "nbstats"
    ):
        if not frame.f_code.co_name.startswith(("_", "<")):
            method = frame.f_code.co_name
        frame = frame.f_back
    raise ValueError(
        f"nan_policy='pairwise' compares each pair of algorithms on the cases "
        f"where both have a score, but {method} uses every algorithm on the same "
        "cases (it ranks or models them together). Pass nan_policy='omit' to drop "
        "the incomplete cases, or use a method that compares pairs separately: "
        "posthoc(method='wilcoxon'|'sign'|'ttest') or bayes_signrank_pairs."
    )


def check_choice(name: str, value: object, choices: Sequence[object]) -> None:
    if value not in choices:
        raise ValueError(
            f"unknown {name}={value!r}; choose one of "
            + ", ".join(repr(c) for c in choices)
            + "."
        )


def check_flag(name: str, value: object) -> None:
    """Refuse non-booleans: a string such as "no" would silently count as True."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}.")
