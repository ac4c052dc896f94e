"""Decisions by expected loss: the threshold a region needs, and the decision."""

from __future__ import annotations

import numpy as np

from nbstats.results.decisions import Decision
from nbstats.util.checks import check_fraction, check_number

__all__ = [
    "check_loss",
    "decide",
    "decide_many",
    "region_shares",
    "resolve_threshold",
]


def resolve_threshold(threshold: float | None, loss: tuple[float, float]) -> float:
    """The posterior probability a region needs to be decided: ``l1 / (l0 + l1)``.

    ``loss = (l0, l1)``: l1 is the loss of a Type I error (declaring b better
    when it is not), l0 of a Type II error (not declaring b better when it
    is). Deciding "b" when P(b better) > l1 / (l0 + l1) minimises the
    expected loss (Benavoli et al. 2014); the same threshold decides "a"
    and, with a rope, "equivalent" (see :func:`decide`). An explicit
    ``threshold`` wins (``loss`` is checked all the same).

    Examples
    --------
    >>> resolve_threshold(None, (1, 19))
    0.95
    """
    l0, l1 = check_loss(loss)
    if threshold is not None:
        return check_fraction("threshold", threshold, example=0.95)
    return l1 / (l0 + l1)


def check_loss(loss: object) -> tuple[float, float]:
    """The pair ``(l0, l1)`` of positive finite losses.

    Examples
    --------
    >>> check_loss((1, 19))
    (1.0, 19.0)
    >>> check_loss("1,19")
    Traceback (most recent call last):
    ...
    TypeError: loss must be a pair (l0, l1) of positive numbers, got '1,19' (str).
    """
    if isinstance(loss, (str, bytes)) or not isinstance(
        loss, (tuple, list, np.ndarray)
    ):
        raise TypeError(
            "loss must be a pair (l0, l1) of positive numbers, got "
            f"{loss!r} ({type(loss).__name__})."
        )
    if len(loss) != 2:
        raise ValueError(
            f"loss must be a pair (l0, l1) of positive numbers, got {len(loss)} "
            f"values: {loss!r}."
        )
    l0, l1 = (check_number("loss", v) for v in loss)
    if not (l0 > 0 and l1 > 0):
        raise ValueError(
            f"loss must be a pair (l0, l1) of positive numbers, got {loss!r}."
        )
    return l0, l1


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
