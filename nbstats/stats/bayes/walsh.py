"""Weighted Walsh sums ``Σ_i Σ_j w_i w_j H(±(z_i + z_j) - c)`` in O(n) per draw.

``H`` is the Heaviside step with ``H(0) = ½``. baycomp builds the n × n matrix
of ``H(z_i + z_j)`` and multiplies it with ``w wᵀ`` for every draw: O(n²) per
draw. Here z is sorted once, and for every i binary search finds where
``z_i + z_(j)`` crosses ``c``. With the prefix sums ``P(k) = Σ_{j<k} w_(j)`` of
a draw's weights in sorted order,

    Σ_j w_j H(z_i + z_j - c)    = T - P(g_i) + ½ (P(g_i) - P(e_i))
    Σ_j w_j H(-(z_i + z_j) - c) = P(l_i) + ½ (P(u_i) - P(l_i))

(T = Σ w, g_i / e_i the first j with a sum > c / ≥ c, l_i / u_i the first j
with a sum ≥ -c / > -c). The ½ terms only exist where sums equal ±c exactly, so
each region costs one cumulative sum (shared by all regions), one gather and
one dot product per draw: O(n), with no n × n matrix.

Weights need not be normalised: the sums are quadratic forms, so a draw of
unnormalised Gamma weights is divided by its squared total at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Region", "WalshPlan"]


@dataclass(frozen=True)
class Region:
    """Positions for one region ``H(sign · (z_i + z_j) - c)`` over sorted z.

    ``main`` indexes the prefix sums for every i; ``tie_rows`` are the i with
    sums exactly at the boundary, ``tie_high``/``tie_low`` their end points.
    """

    sign: int
    c: float
    main: np.ndarray
    tie_rows: np.ndarray
    tie_high: np.ndarray
    tie_low: np.ndarray


@dataclass(frozen=True)
class WalshPlan:
    """Sorted differences and the regions to evaluate on them.

    Build with :meth:`build`; evaluate a chunk of draws with
    :meth:`evaluate`.
    """

    order: np.ndarray
    sorted_z: np.ndarray

    @classmethod
    def build(cls, z: np.ndarray) -> WalshPlan:
        z = np.asarray(z, dtype=float)
        order = np.argsort(z, kind="stable")
        return cls(order=order, sorted_z=z[order])

    @property
    def n(self) -> int:
        return self.sorted_z.size

    def region(self, sign: int, c: float = 0.0) -> Region:
        """``H(z_i + z_j - c)`` for ``sign = +1``, ``H(-(z_i + z_j) - c)`` for -1."""
        zs = self.sorted_z
        if sign > 0:
            main = first_index(zs, zs, c, strict=True)  # g: first sum > c
            other = first_index(zs, zs, c, strict=False)  # e: first sum >= c
            high, low = main, other
        else:
            main = first_index(zs, zs, -c, strict=False)  # l: first sum >= -c
            other = first_index(zs, zs, -c, strict=True)  # u: first sum > -c
            high, low = other, main
        ties = np.flatnonzero(high != low)
        return Region(sign, c, main, ties, high[ties], low[ties])

    def point_index(self, x: float, region: Region) -> tuple[int, int]:
        """``(main, other)`` positions of a single value x (a pseudo-observation)."""
        zs, c = self.sorted_z, region.c
        xs = np.array([x])
        if region.sign > 0:
            g = int(first_index(xs, zs, c, strict=True)[0])
            e = int(first_index(xs, zs, c, strict=False)[0])
            return g, e
        lo = int(first_index(xs, zs, -c, strict=False)[0])
        hi = int(first_index(xs, zs, -c, strict=True)[0])
        return lo, hi

    @staticmethod
    def prefix(weights_sorted: np.ndarray) -> np.ndarray:
        """Prefix sums with a leading zero column: rows × (n + 1)."""
        rows, n = weights_sorted.shape
        out = np.empty((rows, n + 1))
        out[:, 0] = 0.0
        np.cumsum(weights_sorted, axis=1, out=out[:, 1:])
        return out

    @staticmethod
    def quadratic(
        weights_sorted: np.ndarray, prefix: np.ndarray, region: Region
    ) -> np.ndarray:
        """``Σ_i Σ_j w_i w_j H(sign (z_i + z_j) - c)`` per row (unnormalised w)."""
        gathered = prefix[:, region.main]
        if region.sign > 0:
            total = prefix[:, -1]
            value = total * total - np.einsum("ij,ij->i", weights_sorted, gathered)
        else:
            value = np.einsum("ij,ij->i", weights_sorted, gathered)
        if region.tie_rows.size:
            half = prefix[:, region.tie_high] - prefix[:, region.tie_low]
            value += 0.5 * np.einsum(
                "ij,ij->i", weights_sorted[:, region.tie_rows], half
            )
        return value

    @staticmethod
    def linear(
        prefix: np.ndarray, region: Region, index: tuple[int, int]
    ) -> np.ndarray:
        """``Σ_j w_j H(sign (x + z_j) - c)`` per row, for a point x located by
        :meth:`point_index`."""
        main, other = index
        if region.sign > 0:
            value = prefix[:, -1] - prefix[:, main]
            return value + 0.5 * (prefix[:, main] - prefix[:, other])
        return prefix[:, main] + 0.5 * (prefix[:, other] - prefix[:, main])


def first_index(
    xs: np.ndarray, zs: np.ndarray, c: float, *, strict: bool
) -> np.ndarray:
    """For each x, the first j with ``x + zs[j] > c`` (or ``>= c``).

    ``x + zs[j]`` is non-decreasing in j (rounding is monotone), so the answer
    is a binary-search position. ``searchsorted`` on ``c - x`` finds it up to
    rounding; a few vectorised steps then make it exact for the floating-point
    sums themselves, so a tie such as ``z_i + z_j == 2 * rope`` counts ½ exactly
    as a direct evaluation of ``H(z_i + z_j - c)`` would.
    """
    n = zs.size
    k = np.searchsorted(zs, c - xs, side="right" if strict else "left")

    def holds(j: np.ndarray) -> np.ndarray:
        sums = xs + zs[np.clip(j, 0, n - 1)]
        return sums > c if strict else sums >= c

    for _ in range(n + 1):  # positions are off by rounding only: rarely > 1 step
        back = (k > 0) & holds(k - 1)
        ahead = (k < n) & ~holds(k)
        if not (back.any() or ahead.any()):
            break
        k = k - back + ahead
    return k
