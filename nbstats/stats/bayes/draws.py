"""The number of Monte Carlo draws of the Bayesian tests, and its warning."""

from __future__ import annotations

import math
import warnings

from nbstats.util.checks import check_count

__all__ = ["MIN_RELIABLE_SAMPLES", "check_n_samples", "warn_few_draws"]

#: Fewer draws than this give probabilities with a Monte Carlo error above
#: about 0.016: the tests warn.
MIN_RELIABLE_SAMPLES = 1000


def warn_few_draws(n_samples: int, *, stacklevel: int = 3) -> None:
    """Warn when ``n_samples`` draws are too few for reliable probabilities.

    ``stacklevel`` points the warning at the caller's caller (the user's
    call of a public function); add one per level of helper in between.
    """
    if n_samples < MIN_RELIABLE_SAMPLES:
        warnings.warn(
            f"n_samples={n_samples} draws give probabilities with a Monte Carlo "
            f"error of about {0.5 / math.sqrt(n_samples):.3f}; use at least "
            f"{MIN_RELIABLE_SAMPLES} (the default is 50,000).",
            UserWarning,
            stacklevel=stacklevel,
        )


def check_n_samples(
    n_samples: object, *, warn: bool = True, stacklevel: int = 3
) -> int:
    """The number of draws, a whole number >= 1; warns when it is too few.

    Examples
    --------
    >>> check_n_samples(50_000)
    50000
    >>> check_n_samples(0)
    Traceback (most recent call last):
    ...
    ValueError: n_samples must be a whole number >= 1, got 0.
    """
    n = check_count("n_samples", n_samples)
    if warn:
        warn_few_draws(n, stacklevel=stacklevel + 1)
    return n
