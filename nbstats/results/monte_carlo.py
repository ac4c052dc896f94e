"""How a Monte Carlo error is written: one rule for every Bayesian result.

A Monte Carlo error is a bound on how far a share of posterior draws may lie
from the probability it estimates, so it is never understated: it is rounded
*up* to two significant figures (0.003536 → ``0.0036``). When every draw
falls in one region the estimated standard error √(p̂ (1 − p̂) / N) is 0,
which would claim an exact probability; the error is then bounded instead by
the rule of three: with none of N draws in a region, the region's
probability is below 3 / N with 95 % confidence (Hanley and Lippman-Hand,
1983, *JAMA* 249, 1743–1745).
"""

from __future__ import annotations

import math

__all__ = ["error_bound", "format_mc_error", "round_up"]


def round_up(value: float, digits: int = 2) -> str:
    """A positive ``value`` rounded up to ``digits`` significant figures,
    written in decimals (never e-notation).

    Examples
    --------
    >>> round_up(0.003536), round_up(0.0036), round_up(0.00999), round_up(0.15)
    ('0.0036', '0.0036', '0.010', '0.15')
    """
    if not value > 0 or not math.isfinite(value):
        raise ValueError(f"value must be positive and finite, got {value!r}.")
    step = 10.0 ** (math.floor(math.log10(value)) - digits + 1)
    # a relative slack so that a value already at 2 figures (0.0036, held
    # as 0.0036000000000000003 / 1e-4) is not pushed to the next step
    rounded = math.ceil(value / step * (1 - 1e-12)) * step
    decimals = max(0, digits - 1 - math.floor(math.log10(rounded)))
    return f"{rounded:.{decimals}f}"


def format_mc_error(error: float, n_samples: int) -> str:
    """The Monte Carlo error of shares of ``n_samples`` draws, in words.

    ``error`` is the estimated standard error (the largest √(p̂ (1 − p̂) / N)
    of the reported shares). It is rounded up to two significant figures;
    when it is 0 (every draw in one region) the rule of three bounds it.

    Examples
    --------
    >>> format_mc_error(0.003536, 20_000)
    'Monte Carlo error ≤ 0.0036'
    >>> format_mc_error(0.0, 20_000)
    'Monte Carlo error < 0.00015 (all 20,000 draws agree; 3/N, 95 %)'
    """
    if not math.isfinite(error):
        return "Monte Carlo error not estimated"
    estimated, value, note = _bound(error, n_samples)
    return f"Monte Carlo error {'≤' if estimated else '<'} {value}{note}"


def error_bound(error: float, n_samples: int) -> str:
    """The Monte Carlo error of shares of ``n_samples`` draws as a bound that
    goes into a sentence ("… error of {bound} on each probability"): "at
    most" the error rounded up, or the rule-of-three bound when every draw
    agrees (:func:`format_mc_error` writes the same numbers).

    Examples
    --------
    >>> error_bound(0.003536, 20_000)
    'at most 0.0036'
    >>> error_bound(0.0, 20_000)
    'below 0.00015 (all 20,000 draws agree; 3/N, 95 %)'
    """
    if not math.isfinite(error):
        raise ValueError(f"error must be finite, got {error!r}.")
    estimated, value, note = _bound(error, n_samples)
    return f"{'at most' if estimated else 'below'} {value}{note}"


def _bound(error: float, n_samples: int) -> tuple[bool, str, str]:
    """Whether the error was estimated (else every draw agreed), its bound
    as written, and the note that says where a rule-of-three bound comes from."""
    if error > 0:
        return True, round_up(error), ""
    return (
        False,
        round_up(3 / n_samples),
        f" (all {n_samples:,} draws agree; 3/N, 95 %)",
    )
