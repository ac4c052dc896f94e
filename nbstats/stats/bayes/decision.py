"""Decisions by expected loss, and the validation shared by the Bayesian tests."""

from __future__ import annotations

import math
import warnings
from numbers import Real

import numpy as np

__all__ = [
    "IDP_DEFAULT_S",
    "check_gamma",
    "check_n_samples",
    "check_rope",
    "check_s",
    "decide",
    "region_shares",
    "resolve_threshold",
]

#: Benavoli et al. (2014) §3.1: the s that halves the prior imprecision after
#: one observation, (s² + 3s) / ((s + 1)(s + 2)) = ½.
IDP_DEFAULT_S = (math.sqrt(17) - 3) / 2

MIN_RELIABLE_SAMPLES = 1000


def resolve_threshold(threshold: float | None, loss: tuple[float, float]) -> float:
    """The posterior probability needed to prefer b: ``l1 / (l0 + l1)``.

    ``loss = (l0, l1)``: l1 is the loss of a Type I error (preferring b when it
    is not better), l0 of a Type II error. An explicit ``threshold`` wins.

    Examples
    --------
    >>> resolve_threshold(None, (1, 19))
    0.95
    """
    if threshold is not None:
        threshold = float(threshold)
        if not 0 < threshold < 1:
            raise ValueError(
                f"threshold must lie strictly between 0 and 1, got {threshold!r}."
            )
        return threshold
    try:
        l0, l1 = (float(v) for v in loss)
    except (TypeError, ValueError):
        raise ValueError(
            f"loss must be a pair (l0, l1) of positive numbers, got {loss!r}."
        ) from None
    if not (l0 > 0 and l1 > 0 and math.isfinite(l0) and math.isfinite(l1)):
        raise ValueError(f"losses must be positive and finite, got {loss!r}.")
    return l1 / (l0 + l1)


def decide(prob_lower: float, prob_upper: float, threshold: float) -> str:
    """``"b"`` if even the lowest probability that b is better exceeds the
    threshold, ``"a"`` if even the highest stays below it (keep a: choosing b
    would cost more in expectation), else ``"indeterminate"``.

    For a single prior pass the same probability twice.
    """
    if prob_lower > threshold:
        return "b"
    if prob_upper <= threshold:
        return "a"
    return "indeterminate"


def region_shares(left: np.ndarray, rope: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Share of draws in which each of (left, rope, right) is the most probable.

    This is how baycomp turns posterior samples of the three region
    probabilities into ``(p_left, p_rope, p_right)``; a tie goes to the first.
    """
    # comparisons rather than argmax over a stacked copy: several times
    # faster, and a dashboard does this for every pair on every change
    left_wins = (left >= rope) & (left >= right)
    rope_wins = ~left_wins & (rope >= right)
    count = left_wins.size
    n_left, n_rope = int(np.count_nonzero(left_wins)), int(np.count_nonzero(rope_wins))
    return np.array([n_left, n_rope, count - n_left - n_rope]) / count


def check_s(s: float, *, allow_zero: bool) -> float:
    """Validate the prior strength."""
    if isinstance(s, (bool, np.bool_)) or not isinstance(s, Real):
        raise TypeError(f"s (the prior strength) must be a number, got {s!r}.")
    s = float(s)
    if not math.isfinite(s) or s < 0 or (s == 0 and not allow_zero):
        bound = "s >= 0" if allow_zero else "s > 0"
        raise ValueError(f"the prior strength must satisfy {bound}, got s={s!r}.")
    return s


def check_rope(rope: float) -> float:
    """Validate the half-width of the region of practical equivalence."""
    if isinstance(rope, (bool, np.bool_)) or not isinstance(rope, Real):
        raise TypeError(f"rope must be a number, got {rope!r}.")
    rope = float(rope)
    if not math.isfinite(rope) or rope < 0:
        raise ValueError(
            f"rope is the half-width of the region of practical equivalence and "
            f"must be >= 0, got {rope!r}."
        )
    return rope


def check_gamma(gamma: float) -> float:
    """Validate γ, one minus the credible level."""
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, Real):
        raise TypeError(f"gamma must be a number in (0, 1), got {gamma!r}.")
    if not 0 < gamma < 1:
        raise ValueError(
            f"gamma must lie strictly between 0 and 1 (the credible level is "
            f"1 - gamma), got {gamma!r}; e.g. gamma=0.05 for 95%."
        )
    return float(gamma)


def check_n_samples(n_samples: int, *, warn: bool = True, stacklevel: int = 3) -> int:
    """Validate the number of Monte Carlo draws; warn when it is too small.

    ``stacklevel`` points the warning at the caller's caller (the user's
    call of a public function); add one per level of helper in between.
    """
    if not isinstance(n_samples, (int, np.integer)) or isinstance(n_samples, bool):
        raise TypeError(f"n_samples must be an integer, got {n_samples!r}.")
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}.")
    if warn and n_samples < MIN_RELIABLE_SAMPLES:
        warnings.warn(
            f"n_samples={n_samples} draws give probabilities with a Monte Carlo "
            f"error of about {0.5 / math.sqrt(n_samples):.3f}; use at least "
            f"{MIN_RELIABLE_SAMPLES} (the default is 50,000).",
            UserWarning,
            stacklevel=stacklevel,
        )
    return int(n_samples)
