"""What a simulation measures: error rates and power of one analysis.

Each function scores **one** analysis of one simulated data set against the
truth and returns a dict of numbers; averaging the dicts over repetitions
(:func:`nbstats.simulate.summarise`) gives rates. A 0/1 indicator averages to a
probability, so the per-repetition values are defined as indicators or
shares.

- :func:`rank_interval_metrics` — confidence intervals for ranks, the
  FWTI / FWP / IP / DP / FWDP of Foucart et al. (2025, supplement tables).
- :func:`test_decision_metrics` — decisions of a two-sample test (the
  vocabulary of :mod:`nbstats.results.decisions`: "b" against every other
  determinate decision, "indeterminate" apart): rejection rate, average loss
  and indeterminacy as in Benavoli et al. (2014, §4).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["rank_interval_metrics", "test_decision_metrics"]

from nbstats.results.decisions import DECISIONS as _DECISIONS
from nbstats.stats.bayes.decision import check_loss


def rank_interval_metrics(
    lower: pd.Series | Sequence[float] | np.ndarray,
    upper: pd.Series | Sequence[float] | np.ndarray,
    true_ranks: pd.Series | Sequence[float] | np.ndarray,
) -> dict[str, float]:
    r"""Score a family of confidence intervals for ranks against the true ranks.

    With ``m`` algorithms, intervals ``[L_i, U_i]`` and true ranks ``r_i``
    (all **1 = best**; tied true ranks share their average rank), let the
    pair ``{i, j}`` be *resolved* when the intervals do not overlap beyond
    a shared end point, ``U_i ≤ L_j`` or ``U_j ≤ L_i``, unless both are the
    same single rank (ranks are strict, so ``[1, 2]`` and ``[2, 4]`` still
    place i before j; with this reading Nemenyi's intervals at n = 20, m = 5
    and large separation resolve 6 of the 10 pairs, the supplement's IP of
    60%), and
    interval ``i`` be *informative* when it is narrower than ``[1, m]``,
    ``L_i > 1`` or ``U_i < m``. The metrics are

    fwp
        :math:`\mathbb{1}[\exists i:\ L_i > 1 \lor U_i < m]` — family-wise
        power: at least one informative interval.
    fwti
        ``fwp`` when every true rank is equal (no true difference), else NaN
        — the family-wise type I error: under the null hypothesis any
        informative interval is a false claim.
    ip
        :math:`|\{\{i,j\}: \text{resolved}\}| \,/\, \binom{m}{2}` — share
        of the pairs whose order is resolved.
    dp
        :math:`|\{i: L_i = U_i\}| / m` — share of algorithms whose rank is
        pinned down to a single value.
    fwdp
        :math:`\mathbb{1}[\forall i:\ L_i = U_i]` — every rank pinned down
        (a complete, strict ranking).
    coverage
        :math:`|\{i: L_i \le r_i \le U_i\}| / m` — share of the intervals
        containing the true rank.
    errors
        :math:`|\{(i, j): i \text{ resolved above } j \land r_i \ge r_j\}|`
        — number of pairs resolved in the wrong order: i is placed above j
        although it is not truly better. A resolved pair of truly equal
        algorithms counts (a type I error), and so does a pair resolved the
        wrong way round (a type III, or sign, error).

    Averaged over repetitions, the indicators become the probabilities of
    the supplement's tables (FWTI, FWP, FWDP) and the shares their expected
    proportions (IP, DP). These are our definitions: the supplement gives
    the tables, not the formulas, and the main paper's definitions are not
    reproduced here.

    Parameters
    ----------
    lower, upper : Series or 1-D array-like
        Bounds of the intervals, ``1 ≤ lower ≤ upper ≤ m``.
    true_ranks : Series or 1-D array-like
        Population ranks, 1 = best, in ``[1, m]``; e.g. the second value
        returned by :func:`nbstats.simulate.challenge_scores`.

    Returns
    -------
    dict
        ``fwti``, ``fwp``, ``ip``, ``dp``, ``fwdp``, ``coverage`` (floats)
        and ``errors`` (int).

    Notes
    -----
    When all three are Series they are matched by algorithm name (the index);
    otherwise by position.

    Examples
    --------
    Three algorithms, truly ordered A > B > C; the intervals resolve A from
    the others but not B from C:

    >>> metrics = rank_interval_metrics([1, 2, 2], [1, 3, 3], [1, 2, 3])
    >>> metrics["ip"], metrics["dp"], metrics["fwp"], metrics["fwdp"]
    (0.6666666666666666, 0.3333333333333333, 1.0, 0.0)
    >>> metrics["coverage"], metrics["errors"], metrics["fwti"]
    (1.0, 0, nan)
    """
    low, high, truth = _align(lower, upper, true_ranks)
    m = low.size
    informative = (low > 1) | (high < m)
    single = low == high
    # above[i, j]: interval i lies entirely above (better than) interval j
    above = high[:, None] <= low[None, :]
    same_single = single[:, None] & single[None, :] & (low[:, None] == low[None, :])
    above &= ~same_single
    not_better = truth[:, None] >= truth[None, :]
    n_pairs = m * (m - 1) // 2
    fwp = float(informative.any())
    null = bool(np.all(truth == truth[0]))
    return {
        "fwti": fwp if null else math.nan,
        "fwp": fwp,
        "ip": float(above.sum()) / n_pairs,
        "dp": float(single.mean()),
        "fwdp": float(single.all()),
        "coverage": float(((low <= truth) & (truth <= high)).mean()),
        "errors": int((above & not_better).sum()),
    }


def test_decision_metrics(
    decisions: object,
    truth: object,
    loss: tuple[float, float] = (1.0, 1.0),  # noqa: PT028 (not a test, see below)
) -> dict[str, float]:
    r"""Score the decisions of a two-sample test against the truth.

    A decision is ``"b"`` (b is better: the test rejects "b is not better"),
    ``"indeterminate"`` (the near-ignorance prior could not decide, Benavoli
    et al. 2014, §3), or one of ``"a"``, ``"equivalent"``, ``"undecided"``,
    which all decline to declare b better. With ``loss = (l0, l1)``, as in
    that paper and in :func:`nbstats.bayes_signrank`:

    - deciding ``"b"`` when b is **not** better costs ``l1`` (type I error);
    - not deciding ``"b"`` when b **is** better costs ``l0`` (type II error);
    - a right decision costs 0.

    With ``n`` decisions of which ``D`` are determinate (all but
    ``"indeterminate"``):

    rejection_rate
        :math:`|\{k: \delta_k = b\}| / n` — the power when b is better, the
        type I error rate when it is not.
    loss
        :math:`\frac{1}{D}\sum_{k\ \text{determinate}} \big(l_1
        \mathbb{1}[\delta_k = b,\ \neg t_k] + l_0 \mathbb{1}[\delta_k = a,\
        t_k]\big)` — average loss of the determinate decisions (NaN if
        ``D = 0``), the quantity of the paper's Fig. 2 and Table 2.
    indeterminacy
        :math:`(n - D) / n` — share of indeterminate decisions.

    The loss averaged over *all* decisions, counting an indeterminate one as
    costing nothing, is ``loss × (1 − indeterminacy)``.

    Parameters
    ----------
    decisions : str, result object or sequence of them
        ``"a"``, ``"b"``, ``"equivalent"``, ``"undecided"`` or
        ``"indeterminate"``; an object with a
        ``decision`` attribute (e.g. the result of
        :func:`nbstats.bayes_signrank`) stands for its decision. For a
        frequentist test, decide yourself, e.g.
        ``"b" if res.pvalue < 0.05 else "undecided"`` for a one-sided test.
    truth : bool or sequence of bool
        Whether b is truly better (e.g. ``delta > 0`` for
        :func:`nbstats.simulate.paired_normal`); one value applies to every
        decision.
    loss : (float, float)
        ``(l0, l1)``, positive. The default ``(1, 1)`` makes ``loss`` the
        error rate; pass the loss the decisions were made with.

    Returns
    -------
    dict
        ``rejection_rate``, ``loss``, ``indeterminacy`` (floats).

    Examples
    --------
    >>> m = test_decision_metrics(["b", "undecided", "indeterminate", "b"],
    ...                           [True, True, False, False], loss=(1, 4))
    >>> m["rejection_rate"], round(m["loss"], 4), m["indeterminacy"]
    (0.5, 1.6667, 0.25)
    """
    labels = _decisions(decisions)
    n = labels.size
    better = _truth(truth, n)
    l0, l1 = check_loss(loss)
    choose_b = labels == "b"
    choose_a = (labels != "b") & (labels != "indeterminate")  # b not declared
    determinate = int(choose_b.sum() + choose_a.sum())
    total = l1 * np.sum(choose_b & ~better) + l0 * np.sum(choose_a & better)
    return {
        "rejection_rate": float(choose_b.mean()),
        "loss": float(total) / determinate if determinate else math.nan,
        "indeterminacy": (n - determinate) / n,
    }


# not a test: keep pytest from collecting it where it is imported into a test
# module (e.g. ``from nbstats.simulate import test_decision_metrics``)
test_decision_metrics.__test__ = False  # type: ignore[attr-defined]


def _align(
    lower: object, upper: object, true_ranks: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    names = ("lower", "upper", "true_ranks")
    values = [lower, upper, true_ranks]
    if all(isinstance(v, pd.Series) for v in values):
        index = values[0].index
        if index.has_duplicates:
            raise ValueError("lower has duplicated algorithm names in its index.")
        for name, v in zip(names[1:], values[1:], strict=True):
            if v.index.has_duplicates or set(v.index) != set(index):
                raise ValueError(
                    f"lower and {name} are Series naming different algorithms "
                    f"({sorted(map(str, index))} vs {sorted(map(str, v.index))}); "
                    "pass Series with the same index, or arrays in one order."
                )
        values = [values[0], *(v.reindex(index) for v in values[1:])]
    arrays = []
    for name, v in zip(names, values, strict=True):
        arr = np.asarray(v)
        if arr.ndim != 1:
            raise ValueError(
                f"{name} must be 1-D (one value per algorithm), got shape {arr.shape}."
            )
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}.")
        arr = arr.astype(float)
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite, got {arr.tolist()}.")
        arrays.append(arr)
    low, high, truth = arrays
    m = low.size
    if not (high.size == m and truth.size == m):
        raise ValueError(
            "lower, upper and true_ranks must have one value per algorithm each, "
            f"got {low.size}, {high.size} and {truth.size}."
        )
    if m < 2:
        raise ValueError(f"need at least 2 algorithms, got {m}.")
    if np.any(low > high):
        raise ValueError(
            f"every interval needs lower ≤ upper; got lower {low.tolist()}, "
            f"upper {high.tolist()}."
        )
    for name, arr in zip(names, arrays, strict=True):
        if np.any(arr < 1) or np.any(arr > m):
            raise ValueError(
                f"{name} must lie in [1, {m}] (ranks, 1 = best), got {arr.tolist()}."
            )
    return low, high, truth


def _decisions(decisions: object) -> np.ndarray:
    if isinstance(decisions, str) or hasattr(decisions, "decision"):
        decisions = [decisions]
    try:
        items = list(decisions)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(
            "decisions must be 'a', 'b', 'equivalent', 'undecided', "
            "'indeterminate', a result with a "
            f"decision attribute, or a sequence of them; got {decisions!r}."
        ) from None
    labels = [getattr(d, "decision", d) for d in items]
    bad = [d for d in labels if not isinstance(d, str) or d not in _DECISIONS]
    if bad:
        raise ValueError(
            f"decisions holds unknown decision(s) {bad[:5]!r}; each must be one of "
            + ", ".join(repr(d) for d in _DECISIONS)
            + "."
        )
    if not labels:
        raise ValueError("need at least one decision, got none.")
    return np.array(labels, dtype=object)


def _truth(truth: object, n: int) -> np.ndarray:
    arr = np.asarray(truth)
    if arr.dtype != bool:
        raise TypeError(
            "truth must be True/False (is b truly better?) or a sequence of them, "
            f"got {truth!r}; e.g. pass delta > 0."
        )
    if arr.ndim == 0:
        return np.full(n, bool(arr))
    if arr.shape != (n,):
        raise ValueError(
            f"truth must be one bool or one per decision ({n}), got shape {arr.shape}."
        )
    return arr
