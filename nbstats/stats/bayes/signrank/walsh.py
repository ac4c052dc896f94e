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
one dot product per draw: O(n), with no n × n matrix. The loop over draws is
compiled (:mod:`.walsh_kernel`); :class:`WalshBatch` evaluates many plans on
the same draws.

Weights need not be normalised: the sums are quadratic forms, so a draw of
unnormalised Gamma weights is divided by its squared total at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Region", "WalshBatch", "WalshPlan"]


@dataclass(frozen=True)
class Region:
    """Positions for one region ``H(sign · (z_i + z_j) - c)`` over sorted z.

    ``main`` indexes the prefix sums for every i; ``tie_rows`` are the i with
    sums exactly at the boundary, ``tie_high``/``tie_low`` their end points.
    ``full``: every pair (i, j) is in the region (its weighted sum is T²).
    """

    sign: int
    c: float
    main: np.ndarray
    tie_rows: np.ndarray
    tie_high: np.ndarray
    tie_low: np.ndarray
    full: bool


@dataclass(frozen=True)
class WalshPlan:
    """Sorted differences and the regions to evaluate on them.

    Build with :meth:`build`; evaluate draws with a :class:`WalshBatch`.
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
        everything = 0 if sign > 0 else self.n  # where main is when all pairs are in
        full = ties.size == 0 and bool(np.all(main == everything))
        return Region(sign, c, main, ties, high[ties], low[ties], full)

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

    def count(self, region: Region) -> float:
        """``Σ_i Σ_j H(sign (z_i + z_j) - c)``: the region's sum with unit weights."""
        n = self.n
        inside = region.main if region.sign < 0 else n - region.main
        half = region.tie_high - region.tie_low
        return float(inside.sum() + 0.5 * half.sum())


@dataclass(frozen=True)
class WalshBatch:
    """The same regions of several plans, evaluated together on each draw.

    The joint procedure and the dashboards need the sums of many pairs on the
    same draws; evaluating them together reads each draw's weights once.
    Every plan has the same region signs (e.g. θ, right, left), each with
    its own boundaries.

    Examples
    --------
    >>> z = np.array([0.3, -0.1, 0.2])
    >>> plan = WalshPlan.build(z)
    >>> batch = WalshBatch.build([plan], [[plan.region(+1)]])
    >>> total, quad, _ = batch.evaluate(np.ones((1, 3)))
    >>> float(quad[0, 0, 0])  # pairs (i, j) with z_i + z_j > 0, out of 9
    8.0
    """

    orders: np.ndarray
    permute: bool
    mains: np.ndarray
    signs: np.ndarray
    full: np.ndarray
    tie_start: np.ndarray
    tie_rows: np.ndarray
    tie_high: np.ndarray
    tie_low: np.ndarray
    point_main: np.ndarray
    point_other: np.ndarray
    with_cross: bool

    @classmethod
    def build(
        cls,
        plans: Sequence[WalshPlan],
        regions: Sequence[Sequence[Region]],
        points: Sequence[Sequence[tuple[int, int]]] | None = None,
        *,
        permute: bool = False,
    ) -> WalshBatch:
        """Pack ``regions[k]`` of ``plans[k]``.

        ``points[k][q]`` is :meth:`WalshPlan.point_index` of a
        pseudo-observation for region q (``None``: no cross terms).
        ``permute=True`` gives plan k the weights of the cases in its own
        sorted order (the same weight on the same case for every plan);
        ``False`` hands the weights to every plan as they come, which for
        i.i.d. weights is a relabelling and saves the permutation.
        """
        signs = np.array([region.sign for region in regions[0]], dtype=np.int64)
        for plan_regions in regions:
            if [region.sign for region in plan_regions] != signs.tolist():
                raise ValueError("every plan of a batch needs the same region signs")
        ties = [region for plan_regions in regions for region in plan_regions]
        tie_start = np.cumsum([0] + [region.tie_rows.size for region in ties])
        n_plans, n_regions = len(plans), signs.size
        index = np.zeros((n_plans, n_regions, 2), dtype=np.int64)
        if points is not None:
            index[...] = np.asarray(points, dtype=np.int64)

        def joined(name: str) -> np.ndarray:
            parts = [getattr(region, name) for region in ties]
            return np.concatenate(parts).astype(np.int64, copy=False)

        return cls(
            orders=np.array([plan.order for plan in plans], dtype=np.int64),
            permute=permute,
            mains=np.array(
                [[region.main for region in plan_regions] for plan_regions in regions],
                dtype=np.int64,
            ),
            signs=signs,
            full=np.array(
                [[region.full for region in plan_regions] for plan_regions in regions],
                dtype=bool,
            ),
            tie_start=tie_start.astype(np.int64),
            tie_rows=joined("tie_rows"),
            tie_high=joined("tie_high"),
            tie_low=joined("tie_low"),
            point_main=np.ascontiguousarray(index[:, :, 0]),
            point_other=np.ascontiguousarray(index[:, :, 1]),
            with_cross=points is not None,
        )

    def evaluate(
        self,
        exponentials: np.ndarray,
        *,
        out: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None,
        offset: int = 0,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``(total, quad, cross)`` for a chunk of unnormalised weights.

        ``total[r]`` is Σ e of draw r; ``quad[k, q, r]`` the Walsh sum
        ``Σ_i Σ_j e_i e_j H(sign_q (z_i + z_j) - c)`` of plan k and region q;
        ``cross[k, q, r]`` (``None`` without points) ``Σ_j e_j H(sign_q (x +
        z_j) - c)`` for the pseudo-observation x. With ``out`` the chunk's
        draws are written from column ``offset`` of those arrays (no copies
        when a caller gathers many chunks).
        """
        from nbstats.stats.bayes.signrank.walsh_kernel import (
            walsh_sums,  # compiles lazily
        )

        e = np.ascontiguousarray(exponentials, dtype=float)
        if out is None:
            rows = e.shape[0]
            n_plans, n_regions = self.mains.shape[:2]
            shape = (n_plans, n_regions, rows)
            cross_out = np.empty(shape) if self.with_cross else None
            out = (np.empty(rows), np.empty(shape), cross_out)
            offset = 0
        total, quad, cross = out
        walsh_sums(
            e,
            self.orders,
            self.permute,
            self.mains,
            self.signs,
            self.full,
            self.tie_start,
            self.tie_rows,
            self.tie_high,
            self.tie_low,
            self.point_main,
            self.point_other,
            self.with_cross,
            total,
            quad,
            cross if cross is not None else np.empty((0, 0, 0)),
            offset,
            np.empty(0, dtype=np.int64),
            np.empty((0, 0, 0)),
        )
        return total, quad, cross


def first_index(
    xs: np.ndarray, zs: np.ndarray, c: float, *, strict: bool
) -> np.ndarray:
    """For each x, the first j with ``x + zs[j] > c`` (or ``>= c``).

    ``x + zs[j]`` is non-decreasing in j (zs is sorted and rounding is
    monotone), so a binary search on the floating-point sums themselves finds
    it exactly: a tie such as ``z_i + z_j == 2 * rope`` counts ½ exactly as a
    direct evaluation of ``H(z_i + z_j - c)`` would. (Searching ``c - x`` in
    zs instead can be off by one where ``c - x`` rounds.)

    Examples
    --------
    >>> zs = np.array([-0.2, 0.1, 0.1, 0.3])
    >>> first_index(np.array([0.1]), zs, 0.2, strict=True).tolist()
    [3]
    >>> first_index(np.array([0.1]), zs, 0.2, strict=False).tolist()
    [1]
    """
    from nbstats.stats.bayes.signrank.walsh_kernel import first_true  # compiles lazily

    xs = np.ascontiguousarray(xs, dtype=float)
    zs = np.ascontiguousarray(zs, dtype=float)
    return first_true(xs, zs, float(c), bool(strict))
