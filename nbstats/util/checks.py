"""The argument checks every public function shares.

One place for every kind of argument: a choice, a flag, a probability or
level, a count, a positive number, a callable, a random state and
``nan_policy``. Each check returns the normalised value (a float, an int)
and refuses bad input up front, before any work, with a message that names
the argument, shows the value given and says what is allowed:
``TypeError`` for a value of the wrong type, ``ValueError`` for one out of
range. A string such as ``"0.1"`` is refused, not converted: a number read
from a file belongs in the file reader.

Examples
--------
>>> check_choice("method", "holm", ("holm", "nemenyi"))
>>> check_fraction("alpha", 0.05)
0.05
>>> check_fraction("alpha", "0.1")
Traceback (most recent call last):
...
TypeError: alpha must be a number in (0, 1), got '0.1' (str).
>>> check_count("n_samples", 0)
Traceback (most recent call last):
...
ValueError: n_samples must be a whole number >= 1, got 0.
>>> check_flag("higher_is_better", "no")
Traceback (most recent call last):
...
TypeError: higher_is_better must be True or False, got 'no' (str).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np

__all__ = [
    "check_callable",
    "check_choice",
    "check_complete_policy",
    "check_count",
    "check_flag",
    "check_fraction",
    "check_number",
    "check_positive",
    "check_random_state",
]


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
        "comparison_matrix(test='wilcoxon'|'sign'|'ttest') or bayes_signrank_pairs."
    )


def _got(value: object) -> str:
    """``'0.1' (str)``: the value and, where repr does not show it, its type."""
    return f"{value!r} ({type(value).__name__})"


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, (bool, np.bool_))


def check_choice(name: str, value: object, choices: Sequence[object]) -> None:
    """Refuse a value that is not one of ``choices`` (compared with ``==``)."""
    try:
        known = value in choices
    except TypeError:  # an unhashable or incomparable value
        known = False
    if not known:
        raise ValueError(
            f"unknown {name}={value!r}; choose one of "
            + ", ".join(repr(c) for c in choices)
            + "."
        )


def check_flag(name: str, value: object) -> None:
    """Refuse non-booleans: a string such as "no" would silently count as True."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {_got(value)}.")


def check_number(name: str, value: object) -> float:
    """A finite real number (not a bool, not a string).

    Examples
    --------
    >>> check_number("rope", 1)
    1.0
    >>> check_number("rope", float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: rope must be a finite number, got nan.
    """
    if not _is_number(value):
        raise TypeError(f"{name} must be a number, got {_got(value)}.")
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}.")
    return number


def check_fraction(
    name: str,
    value: object,
    *,
    low: float = 0.0,
    high: float = 1.0,
    closed: str = "neither",
    example: object = None,
) -> float:
    """A number in the interval from ``low`` to ``high``: a level, a probability.

    ``closed`` says which ends belong to it: ``"neither"`` (the default:
    ``alpha``, a credible level, a decision threshold), ``"low"``,
    ``"high"`` or ``"both"``. ``example`` is a valid value quoted in the
    message.

    Examples
    --------
    >>> check_fraction("level", 0.95)
    0.95
    >>> check_fraction("level", 95, example=0.95)
    Traceback (most recent call last):
    ...
    ValueError: level must be a number in (0, 1), got 95; e.g. level=0.95.
    >>> check_fraction("epsilon", 0.5, high=0.5, closed="high")
    0.5
    """
    check_choice("closed", closed, ("neither", "low", "high", "both"))
    left = "[" if closed in ("low", "both") else "("
    right = "]" if closed in ("high", "both") else ")"
    interval = f"{left}{low:g}, {high:g}{right}"
    if not _is_number(value):
        raise TypeError(f"{name} must be a number in {interval}, got {_got(value)}.")
    number = float(value)  # type: ignore[arg-type]
    above = number > low if left == "(" else number >= low
    below = number < high if right == ")" else number <= high
    if not (above and below):  # also refuses nan
        hint = "" if example is None else f"; e.g. {name}={example!r}"
        raise ValueError(f"{name} must be a number in {interval}, got {value!r}{hint}.")
    return number


def check_count(
    name: str, value: object, *, minimum: int = 1, maximum: int | None = None
) -> int:
    """A whole number from ``minimum`` to ``maximum`` (a count of draws, runs, …).

    A float such as ``1000.0`` is refused: a count is an int.

    Examples
    --------
    >>> check_count("n_resamples", 1000)
    1000
    >>> check_count("runs", 2.0)
    Traceback (most recent call last):
    ...
    TypeError: runs must be a whole number (int), got 2.0 (float).
    """
    if not isinstance(value, Integral) or isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a whole number (int), got {_got(value)}.")
    count = int(value)
    if count < minimum or (maximum is not None and count > maximum):
        rule = f">= {minimum}" if maximum is None else f"in {minimum}..{maximum}"
        raise ValueError(f"{name} must be a whole number {rule}, got {count}.")
    return count


def check_positive(
    name: str,
    value: object,
    *,
    allow_zero: bool = False,
    maximum: float | None = None,
) -> float:
    """A finite number above 0 (or from 0, with ``allow_zero``), at most
    ``maximum``: a prior strength, a rope, a timeout.

    Examples
    --------
    >>> check_positive("s", 0.5)
    0.5
    >>> check_positive("s", 0)
    Traceback (most recent call last):
    ...
    ValueError: s must be a number > 0, got 0.
    """
    number = check_number(name, value)
    rule = ">= 0" if allow_zero else "> 0"
    if number < 0 or (number == 0 and not allow_zero):
        raise ValueError(f"{name} must be a number {rule}, got {value!r}.")
    if maximum is not None and number > maximum:
        raise ValueError(
            f"{name} must be a number {rule} and <= {maximum:g}, got {value!r}."
        )
    return number


def check_callable(name: str, value: object) -> None:
    """Refuse what cannot be called (a function expected).

    Examples
    --------
    >>> check_callable("evaluate", "f")
    Traceback (most recent call last):
    ...
    TypeError: evaluate must be a function (callable), got 'f' (str).
    """
    if not callable(value):
        raise TypeError(f"{name} must be a function (callable), got {_got(value)}.")


def check_random_state(value: object) -> None:
    """Refuse a ``random_state`` that cannot seed: checked up front, whether
    the function draws or not, without drawing from a Generator.

    Allowed: None, an int >= 0, a numpy ``SeedSequence`` or ``Generator``
    (:func:`nbstats.util.random.seed_sequence` turns each into a
    SeedSequence when the function draws).

    Examples
    --------
    >>> check_random_state(0)
    >>> check_random_state("x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: random_state must be None, an int >= 0, ... got 'x' (str).
    """
    if value is None or isinstance(
        value, (np.random.SeedSequence, np.random.Generator)
    ):
        return
    if isinstance(value, Integral) and not isinstance(value, (bool, np.bool_)):
        if int(value) < 0:
            raise ValueError(f"random_state must be an int >= 0, got {value!r}.")
        return
    raise TypeError(
        "random_state must be None, an int >= 0, a numpy SeedSequence or "
        f"Generator, got {_got(value)}."
    )
