"""Sign test on counts of wins, losses and ties (Demšar 2006, §3.1.4)."""

from __future__ import annotations

import dataclasses
from typing import Literal

import numpy as np

from nbstats.results.frequentist import SignTestResult
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice

__all__ = ["sign_test"]


def sign_test(
    a: object,
    b: object,
    *,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    ties: Literal["split", "drop"] = "split",
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
) -> SignTestResult:
    """Sign test of whether b wins on more cases than a.

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: b is better than a.
    ties : {"split", "drop"}
        ``"split"`` (Demšar): ties support the null hypothesis, so they are
        shared evenly between a and b; if their number is odd, one is ignored.
        ``"drop"``: the classical sign test, which discards ties.
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit", "pairwise"}
        See :func:`nbstats.score_table`; with one pair, ``"pairwise"`` is
        ``"omit"`` (the cases where both have a score).

    Returns
    -------
    SignTestResult
        ``statistic`` is b's number of wins (with half the ties under
        ``"split"``); ``pvalue`` is the exact binomial p-value with p = ½.
        ``cases``: the labels of the ``n_cases`` cases counted as trials (``a``'s
        index, else positions), among those where both have a score: under
        ``"drop"`` the ties are not used; under ``"split"`` they are, but
        for an odd number of ties the last tied case (in the table's order)
        is the one ignored.

    Examples
    --------
    Demšar's Table 2: C4.5+m wins 10, loses 2, ties 2 → 11 of 14.

    >>> import nbstats
    >>> t2 = nbstats.datasets.load("demsar2006_table2")
    >>> res = nbstats.sign_test(t2["C4.5"], t2["C4.5+m"])
    >>> res.statistic, res.n_cases, round(res.pvalue, 4)
    (11.0, 14, 0.0574)

    Compare with SciPy's binomial test on the same counts:

    >>> from scipy.stats import binomtest
    >>> round(float(binomtest(11, 14).pvalue), 4)
    0.0574

    Demšar's Table 3 calls 11 of 14 significant at α = 0.05: its critical
    values come from the normal approximation (N/2 + 1.96 √N / 2 = 10.67),
    while the exact p-value is just above 0.05.
    """
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    check_choice("ties", ties, ("split", "drop"))
    d, name_a, name_b, cases = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    result = sign_test_from_differences(
        d, alternative=alternative, ties=ties, names=(name_a, name_b)
    )
    used = d != 0
    tied = np.flatnonzero(d == 0)
    if ties == "split":
        used[tied[: 2 * (tied.size // 2)]] = True
    return dataclasses.replace(result, cases=cases[used])


def sign_test_from_differences(
    d: np.ndarray,
    *,
    alternative: str = "two-sided",
    ties: str = "split",
    names: tuple[str, str] = ("a", "b"),
) -> SignTestResult:
    """The sign test on validated differences ``d`` (> 0 where b is better)."""
    wins = int((d > 0).sum())
    losses = int((d < 0).sum())
    n_ties = int((d == 0).sum())
    shared = n_ties // 2 if ties == "split" else 0
    successes = wins + shared
    trials = wins + losses + 2 * shared
    pvalue = (
        1.0
        if trials == 0
        else float(
            sps.binomtest(successes, trials, 0.5, alternative=alternative).pvalue
        )
    )
    return SignTestResult(
        statistic=float(successes),
        pvalue=min(1.0, pvalue),
        wins=wins,
        losses=losses,
        n_ties=n_ties,
        n_cases=trials,
        alternative=alternative,
        ties=ties,
        name_a=names[0],
        name_b=names[1],
    )
