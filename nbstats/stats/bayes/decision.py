"""Decisions by expected loss, and the validation shared by the Bayesian tests."""

from __future__ import annotations

import math
import warnings
from numbers import Real

import numpy as np

from nbstats.results.decisions import (
    DECISION_LABEL,
    DECISION_TEXT,
    DECISIONS,
    Decision,
    describe,
)

__all__ = [
    "DECISIONS",
    "DECISION_LABEL",
    "DECISION_TEXT",
    "FRIEDMAN_DEFAULT_S",
    "IDP_DEFAULT_S",
    "Decision",
    "check_gamma",
    "check_n_samples",
    "check_rope",
    "check_s",
    "decide",
    "decide_many",
    "describe",
    "region_shares",
    "resolve_threshold",
    "signrank_bounds",
    "signrank_bounds_many",
]

#: Benavoli et al. (2014) §3.1: the s that halves the prior imprecision after
#: one observation, (s² + 3s) / ((s + 1)(s + 2)) = ½.
IDP_DEFAULT_S = (math.sqrt(17) - 3) / 2

#: Benavoli et al. (2015) §7: the prior strength of the Bayesian Friedman
#: test and of the joint statements when none is given — a prior on "all
#: algorithms equal" with s > 0 regularises the covariance, "e.g., s = 1".
#: The report and the dashboard use it whenever the user keeps the defaults.
FRIEDMAN_DEFAULT_S = 1.0

MIN_RELIABLE_SAMPLES = 1000


def resolve_threshold(threshold: float | None, loss: tuple[float, float]) -> float:
    """The posterior probability a region needs to be decided: ``l1 / (l0 + l1)``.

    ``loss = (l0, l1)``: l1 is the loss of a Type I error (declaring b better
    when it is not), l0 of a Type II error (not declaring b better when it
    is). Deciding "b" when P(b better) > l1 / (l0 + l1) minimises the
    expected loss (Benavoli et al. 2014); the same threshold decides "a"
    and, with a rope, "equivalent" (see :func:`decide`). An explicit
    ``threshold`` wins.

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


def decide(
    prob_left: float,
    prob_rope: float | None,
    prob_right: float,
    threshold: float,
    *,
    upper: tuple[float, float | None, float] | None = None,
) -> Decision:
    """The decision, in the vocabulary shared by every Bayesian result.

    Parameters
    ----------
    prob_left, prob_rope, prob_right : float
        Posterior probability of each region: a better (left), practically
        equivalent (the rope; ``None`` or NaN without a rope) and b better
        (right). Under the imprecise Dirichlet process (IDP) these are the
        *lower* probabilities, the smallest over the prior set.
    threshold : float
        ``l1 / (l0 + l1)`` of the loss (see :func:`resolve_threshold`).
    upper : tuple of float, optional
        IDP only: the *upper* probabilities of (left, rope, right), the
        largest over the prior set. Default: the probabilities themselves
        (a single prior).

    Returns
    -------
    str
        The first rule that applies:

        ``"b"`` (b better)
            P(b better) > threshold: choosing b has the smaller expected loss
            (Benavoli et al. 2014; 2017, the loss ratio l0 : l1).
        ``"a"`` (a better)
            P(a better) > threshold. Without a rope P(a better) =
            1 − P(b better) (up to exact ties), so this is
            P(b better) < 1 − threshold.
        ``"equivalent"``
            With a rope: P(rope) > threshold, the rope (a region of the
            parameter, |difference| ≤ rope) is the decided region.
        ``"indeterminate"``
            IDP only: no region passes for *every* prior of the set, but one
            passes for some prior — the decision depends on the prior.
        ``"undecided"``
            No region reaches the threshold. Without a rope this is
            "undecided: neither b nor a reaches the threshold" — it does not
            mean that a is better.

        With a threshold of ½ or more at most one region can pass; below ½
        (l0 > l1) the regions are tried in the order b, a, rope.

    Notes
    -----
    The rope is a region of the parameter; ε-indistinguishability
    (P(|θ − ½| < ε), Benavoli et al. 2015, used by racing) is a different
    statement and never yields ``"equivalent"`` here.

    Examples
    --------
    >>> decide(0.01, 0.02, 0.97, 0.95)
    'b'
    >>> decide(0.0, 1.0, 0.0, 0.95)  # certain equivalence
    'equivalent'
    >>> decide(0.2, None, 0.8, 0.95)  # no rope: neither b nor a reaches it
    'undecided'
    >>> decide(0.97, None, 0.03, 0.95)
    'a'
    >>> decide(0.02, None, 0.9, 0.95, upper=(0.05, None, 0.97))
    'indeterminate'
    """
    return str(
        decide_many(
            np.asarray([prob_left], dtype=float),
            None if prob_rope is None else np.asarray([prob_rope], dtype=float),
            np.asarray([prob_right], dtype=float),
            threshold,
            upper=None
            if upper is None
            else tuple(None if u is None else np.asarray([u], float) for u in upper),
        )[0]
    )


def decide_many(
    prob_left: np.ndarray,
    prob_rope: np.ndarray | None,
    prob_right: np.ndarray,
    threshold: float,
    *,
    upper: tuple[np.ndarray, np.ndarray | None, np.ndarray] | None = None,
) -> np.ndarray:
    """:func:`decide` for many pairs at once (arrays of equal length).

    ``prob_rope`` may be None or hold NaN (no rope); ``upper`` holds the
    IDP upper probabilities of (left, rope, right), each array or None (then
    the lower one). Returns an object array of decision strings.

    Examples
    --------
    >>> decide_many(np.array([0.0, 0.97, 0.2]), np.array([1.0, 0.0, 0.1]),
    ...             np.array([0.0, 0.03, 0.7]), 0.95).tolist()
    ['equivalent', 'a', 'undecided']
    """
    threshold = float(threshold)
    left = np.asarray(prob_left, dtype=float)
    right = np.asarray(prob_right, dtype=float)
    if left.shape != right.shape:
        raise ValueError(
            f"prob_left and prob_right must have the same shape, got "
            f"{left.shape} and {right.shape}."
        )
    rope = np.zeros_like(left) if prob_rope is None else np.asarray(prob_rope, float)
    rope = np.where(np.isnan(rope), 0.0, np.broadcast_to(rope, left.shape))
    lower = (left, rope, right)
    if upper is None:
        high = lower
    else:
        if len(upper) != 3:
            raise ValueError(
                f"upper must hold the upper probabilities of (left, rope, right), "
                f"got {len(upper)} values."
            )
        high = tuple(
            low if u is None else np.where(np.isnan(u), low, np.asarray(u, float))
            for low, u in zip(lower, upper, strict=True)
        )
    out = np.full(left.shape, "undecided", dtype=object)
    possible = np.zeros(left.shape, dtype=bool)
    for k in range(3):
        possible |= high[k] > threshold
    out[possible] = "indeterminate"
    decided = np.zeros(left.shape, dtype=bool)
    for label, k in (("b", 2), ("a", 0), ("equivalent", 1)):
        hit = (lower[k] > threshold) & ~decided
        out[hit] = label
        decided |= hit
    return out


def signrank_bounds(
    theta: np.ndarray, regions: np.ndarray | None, *, idp: bool
) -> tuple[tuple[float, float | None, float], tuple[float, float | None, float]]:
    """Lower and upper (left, rope, right) of one signed-rank test's counts.

    ``theta``: the shares of draws with θ_lower > ½, θ_upper > ½, θ_upper <
    ½ and (optionally) θ_lower < ½ (θ_upper = θ_lower for a single prior).
    ``regions``: with a rope, the lower then the upper probability of each of
    (left, rope, right) over the prior set (6 values, see
    :mod:`nbstats.stats.bayes.signrank.bounds`); None without a rope. See
    :func:`signrank_bounds_many`.

    Examples
    --------
    >>> signrank_bounds(np.array([0.9, 0.97, 0.02, 0.1]), None, idp=True)
    ((0.02, None, 0.9), (0.1, None, 0.97))
    """
    lower, upper = signrank_bounds_many(
        np.asarray(theta, dtype=float)[None, :],
        None if regions is None else np.asarray(regions, dtype=float)[None, :],
        idp=idp,
    )

    def one(values: tuple) -> tuple[float, float | None, float]:
        left, rope, right = (float(v[0]) for v in values)
        return (round(left, 15), None if regions is None else rope, round(right, 15))

    return one(lower), one(upper)


def signrank_bounds_many(
    theta: np.ndarray, regions: np.ndarray | None, *, idp: bool
) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """:func:`signrank_bounds` of many pairs: ``theta`` is n × 4 (or n × 3,
    then the upper P(a better) is 1 − P(θ_lower > ½)), ``regions`` n × 6 or
    None; returns the lower and the upper (left, rope, right), each an array
    (the rope's NaN without a rope).

    Under the near-ignorance prior (IDP) the lower posterior (the prior's
    pseudo-observation at −∞) is the least favourable to b and the most to a;
    the upper the other way round. Without a rope, P(b better) lies between
    P(θ_lower > ½) and P(θ_upper > ½), P(a better) between P(θ_upper < ½)
    and P(θ_lower < ½). With a rope, each region's bounds are the smallest
    and largest share of draws it wins at one placement of the prior's
    pseudo-observation (see :mod:`nbstats.stats.bayes.signrank.bounds`). A single
    prior has lower = upper.
    """
    theta = np.asarray(theta, dtype=float)
    nan = np.full(theta.shape[0], np.nan)
    if regions is None:
        lower = (theta[:, 2], nan, theta[:, 0])
        upper_left = theta[:, 3] if theta.shape[1] > 3 else 1 - theta[:, 0]
        upper = (upper_left, nan, theta[:, 1]) if idp else lower
        return lower, upper
    r = np.asarray(regions, dtype=float)
    lower = (r[:, 0], r[:, 1], r[:, 2])
    upper = (r[:, 3], r[:, 4], r[:, 5]) if idp else lower
    return lower, upper


def region_shares(left: np.ndarray, rope: np.ndarray, right: np.ndarray) -> np.ndarray:
    """Share of draws in which each of (left, rope, right) is the most probable.

    This is how baycomp turns posterior samples of the three region
    probabilities into ``(p_left, p_rope, p_right)``; a tie goes to the first.
    """
    # comparisons rather than argmax over a stacked copy: faster, and a
    # dashboard does this for every pair on every change
    left_wins = (left >= rope) & (left >= right)
    rope_wins = ~left_wins & (rope >= right)
    count = left_wins.size
    n_left, n_rope = int(np.count_nonzero(left_wins)), int(np.count_nonzero(rope_wins))
    return np.array([n_left, n_rope, count - n_left - n_rope]) / count


#: The largest prior strength any Bayesian test takes. Beyond it the prior's
#: weight swamps any data set (the posterior is the prior's to double
#: precision), and the signed-rank test's squared weights, ``(s + n)²`` in a
#: draw, would overflow near 1e154.
MAX_S = 1e100


def check_s(s: float, *, allow_zero: bool) -> float:
    """Validate the prior strength: ``0 < s ≤ 1e100`` (``0 ≤ s`` with
    ``allow_zero``).

    Examples
    --------
    >>> check_s(1, allow_zero=False)
    1.0
    >>> check_s(1e200, allow_zero=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: s=1e+200 is beyond 1e100, ...
    """
    if isinstance(s, (bool, np.bool_)) or not isinstance(s, Real):
        raise TypeError(f"s (the prior strength) must be a number, got {s!r}.")
    s = float(s)
    if not math.isfinite(s) or s < 0 or (s == 0 and not allow_zero):
        bound = "s >= 0" if allow_zero else "s > 0"
        raise ValueError(f"the prior strength must satisfy {bound}, got s={s!r}.")
    if s > MAX_S:
        raise ValueError(
            f"s={s!r} is beyond 1e100, the largest prior strength the tests "
            "take: there the prior outweighs any data (the posterior is the "
            "prior's to double precision) and the signed-rank sums overflow. "
            "Use s <= 1e100 (s = 1 or less is usual)."
        )
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
