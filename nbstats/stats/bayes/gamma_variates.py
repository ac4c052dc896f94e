"""Logs of Gamma random numbers, compiled, on the SFC64 stream of :mod:`.exponentials`.

Why not numpy's ``Generator.standard_gamma``: the Plackett–Luce sampler
(:mod:`.plackett_luce_kernel`) runs a whole chain in one compiled call, with
the chain's random stream in its own four words, so that chains run in
threads and give the same draws whichever thread runs them. numba's own
``np.random.gamma`` keeps one hidden stream per thread, which would tie the
draws to the thread.

The algorithms are the textbook ones:

- standard normal variates by Marsaglia's polar method (Marsaglia & Bray
  1964), one variate per accepted pair;
- ``Gamma(a, 1)`` for ``a ≥ 1`` by Marsaglia & Tsang (2000), "A simple
  method for generating gamma variables", *ACM TOMS* 26(3), 363–372, with
  the log of the draw formed as ``log d + log v`` so no draw overflows;
- ``a < 1`` by their boost: ``log G(a) = log G(a + 1) + log(U) / a`` with
  ``U`` uniform on (0, 1], finite at every positive ``a`` (a draw of a small
  shape underflows to 0; its log does not).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from nbstats.stats.bayes.exponentials import _sfc64, _unit
from nbstats.stats.compiled import announce

__all__ = ["draw_log_gamma"]


@numba.njit(inline="always")
def _normal(a, b, c, counter):  # pragma: no cover - compiled
    """One N(0, 1) variate by the polar method: ``(z, a, b, c, counter)``."""
    while True:
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        x = 2.0 * _unit(out) - 1.0
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        y = 2.0 * _unit(out) - 1.0
        square = x * x + y * y
        if 0.0 < square < 1.0:
            return x * math.sqrt(-2.0 * math.log(square) / square), a, b, c, counter


@numba.njit(nogil=True, cache=True)
def draw_log_gamma(state: np.ndarray, shape: float) -> float:
    """``log G`` for one ``G ~ Gamma(shape, 1)``, from the SFC64 words ``state``.

    ``state`` (from :func:`~nbstats.stats.bayes.exponentials.sfc64_state`)
    is advanced in place.

    Examples
    --------
    >>> from nbstats.stats.bayes.exponentials import sfc64_state
    >>> state = sfc64_state(np.random.SeedSequence(0))
    >>> draws = [draw_log_gamma(state, shape) for shape in (1e-300, 1.0, 1e300)]
    >>> bool(np.all(np.isfinite(draws)))
    True
    """
    a, b, c, counter = state[0], state[1], state[2], state[3]
    boost = shape < 1.0
    d = (shape + 1.0 if boost else shape) - 1.0 / 3.0
    spread = 1.0 / math.sqrt(9.0 * d)
    while True:
        z, a, b, c, counter = _normal(a, b, c, counter)
        v = 1.0 + spread * z
        if v <= 0.0:
            continue
        v = v * v * v
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        u = _unit(out)
        # log(0) = -inf accepts, as it should (u = 0 is below every bound)
        if u == 0.0 or math.log(u) < 0.5 * z * z + d - d * v + d * math.log(v):
            break
    log_draw = math.log(d) + math.log(v)
    if boost:
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        log_draw += math.log(1.0 - _unit(out)) / shape  # 1 − U in (0, 1]
    state[0], state[1], state[2], state[3] = a, b, c, counter
    return log_draw


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(draw_log_gamma)
