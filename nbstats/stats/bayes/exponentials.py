"""Exp(1) random numbers for the posterior weights, compiled.

Why not numpy's ``Generator.standard_exponential``: the signed-rank posterior
needs one exponential per case and draw (15 million for 300 cases and 50,000
draws), and with the Walsh sums compiled (:mod:`.walsh_kernel`) numpy's
generator was most of the run time — its per-number cost includes a call
through a function pointer into the bit generator. The same two algorithms
numpy uses, compiled inline, are faster (``benchmarks/bench_bayes.py``):

- the bit generator is SFC64 (Chris Doty-Humphrey's Small Fast Chaotic
  generator, one of numpy's own bit generators), seeded by numpy itself from
  a :class:`~numpy.random.SeedSequence`; our stream equals
  ``numpy.random.SFC64(seed).random_raw()`` bit for bit (tested);
- Exp(1) variates by the ziggurat method of Marsaglia & Tsang (2000) with 256
  layers, in the 53-bit form numpy uses; the tables are computed here from the
  paper's recursion. numpy's own tables were computed at higher precision, so
  the variates agree with ``Generator(SFC64(seed)).standard_exponential()``
  to about 1e-12 relative, draw by draw (tested), not bit for bit.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from nbstats.stats.compiled import announce

__all__ = ["fill_weights_raw", "sfc64_state"]

#: the ziggurat's right-most layer boundary and common layer area for Exp(1)
#: with 256 layers (Marsaglia & Tsang 2000, §"The exponential distribution")
_R = 7.697117470131487
_V = 3.949659822581572e-3
_SCALE = 2.0**53


def _ziggurat_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(k, w, f)``: acceptance thresholds, widths per 53-bit unit, densities.

    Layer i's right edge x_i follows ``x_{i-1} = -log(v / x_i + exp(-x_i))``
    down from x_255 = r; layer 0 is the base strip with the tail beyond r.
    """
    k = np.zeros(256, dtype=np.uint64)
    w = np.zeros(256)
    f = np.zeros(256)
    x = _R
    q = _V / math.exp(-x)
    k[0] = int(x / q * _SCALE)
    w[0] = q / _SCALE
    w[255] = x / _SCALE
    f[0] = 1.0
    f[255] = math.exp(-x)
    for i in range(254, 0, -1):
        inner = -math.log(_V / x + math.exp(-x))
        k[i + 1] = int(inner / x * _SCALE)
        x = inner
        f[i] = math.exp(-x)
        w[i] = x / _SCALE
    return k, w, f


_K, _W, _F = _ziggurat_tables()


def sfc64_state(seed: np.random.SeedSequence) -> np.ndarray:
    """The four 64-bit words of numpy's SFC64 seeded with ``seed``.

    Seeding (and its warm-up) is numpy's; the words then drive the compiled
    generator below.
    """
    words = np.random.SFC64(seed).state["state"]["state"]
    return np.array(words, dtype=np.uint64)


# The generator's four words travel as local variables (returned in tuples),
# not as an array, so that the compiler keeps them in registers.


@numba.njit(inline="always")
def _sfc64(a, b, c, counter):  # pragma: no cover - compiled
    """One SFC64 step: ``(output, a, b, c, counter)``."""
    out = a + b + counter
    return (
        out,
        b ^ (b >> np.uint64(11)),
        c + (c << np.uint64(3)),
        ((c << np.uint64(24)) | (c >> np.uint64(40))) + out,
        counter + np.uint64(1),
    )


@numba.njit(inline="always")
def _unit(bits):  # pragma: no cover - compiled
    """53 random bits as a double in [0, 1); via int64, which converts in one step."""
    return float(np.int64(bits >> np.uint64(11))) * (1.0 / 9007199254740992.0)


@numba.njit(inline="always")
def _exponential(a, b, c, counter, k, w, f):  # pragma: no cover - compiled
    """One Exp(1) variate by the ziggurat: ``(x, a, b, c, counter)``."""
    while True:
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        bits = out >> np.uint64(3)
        layer = np.intp(bits & np.uint64(0xFF))
        bits >>= np.uint64(8)
        x = float(np.int64(bits)) * w[layer]
        if bits < k[layer]:
            return x, a, b, c, counter  # inside the layer's rectangle: ~98.9%
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        u = _unit(out)
        if layer == 0:  # the tail beyond r, by inversion
            return _R - math.log1p(-u), a, b, c, counter
        if (f[layer - 1] - f[layer]) * u + f[layer] < math.exp(-x):
            return x, a, b, c, counter  # under the density in the layer's wedge


@numba.njit(nogil=True, cache=True)
def _fill(state, exponentials, uniforms, k, w, f):  # pragma: no cover - compiled
    a, b, c, counter = state[0], state[1], state[2], state[3]
    rows, n = exponentials.shape
    for r in range(rows):
        for j in range(n):
            x, a, b, c, counter = _exponential(a, b, c, counter, k, w, f)
            exponentials[r, j] = x
    for r in range(uniforms.size):
        out, a, b, c, counter = _sfc64(a, b, c, counter)
        uniforms[r] = _unit(out)
    state[0], state[1], state[2], state[3] = a, b, c, counter


def fill_weights_raw(
    state: np.ndarray, exponentials: np.ndarray, uniforms: np.ndarray
) -> None:
    """Fill ``exponentials`` (row by row) with Exp(1), then ``uniforms`` with U(0, 1).

    ``state`` (from :func:`sfc64_state`) is advanced in place.

    Examples
    --------
    >>> state = sfc64_state(np.random.SeedSequence(0))
    >>> e, u = np.empty((2, 3)), np.empty(2)
    >>> fill_weights_raw(state, e, u)
    >>> bool((e > 0).all() and ((0 <= u) & (u < 1)).all())
    True
    """
    _fill(state, exponentials, uniforms, _K, _W, _F)


# one line on stderr before the first compilation (nbstats.stats.compiled)
announce(_fill)
