"""The prior strengths of the Bayesian tests: their defaults and their range."""

from __future__ import annotations

import math

from nbstats.util.checks import check_positive

__all__ = ["FRIEDMAN_DEFAULT_S", "IDP_DEFAULT_S", "MAX_S", "check_s"]

#: Benavoli et al. (2014) §3.1: the s that halves the prior imprecision after
#: one observation, (s² + 3s) / ((s + 1)(s + 2)) = ½.
IDP_DEFAULT_S = (math.sqrt(17) - 3) / 2

#: Benavoli et al. (2015) §7: the prior strength of the Bayesian Friedman
#: test and of the joint statements when none is given — a prior on "all
#: algorithms equal" with s > 0 regularises the covariance, "e.g., s = 1".
#: The report and the dashboard use it whenever the user keeps the defaults.
FRIEDMAN_DEFAULT_S = 1.0

#: The largest prior strength any Bayesian test takes. Beyond it the prior's
#: weight swamps any data set (the posterior is the prior's to double
#: precision), and the signed-rank test's squared weights, ``(s + n)²`` in a
#: draw, would overflow near 1e154.
MAX_S = 1e100


def check_s(s: object, *, allow_zero: bool) -> float:
    """The prior strength: ``0 < s ≤ 1e100`` (``0 ≤ s`` with ``allow_zero``).

    Examples
    --------
    >>> check_s(1, allow_zero=False)
    1.0
    >>> check_s(1e200, allow_zero=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: s=1e+200 is beyond 1e100, ...
    """
    s = check_positive("s", s, allow_zero=allow_zero)
    if s > MAX_S:
        raise ValueError(
            f"s={s!r} is beyond 1e100, the largest prior strength the tests "
            "take: there the prior outweighs any data (the posterior is the "
            "prior's to double precision) and the signed-rank sums overflow. "
            "Use s <= 1e100 (s = 1 or less is usual)."
        )
    return s
