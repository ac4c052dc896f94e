"""Rank axes: the CD diagram's integer ranks 1..m thinned to fit, and one
interval of ranks with its marker (the rank-interval and Plackett–Luce figures)."""

from __future__ import annotations

from typing import Any

from matplotlib.ticker import Locator

__all__ = ["TICK_FONT", "RankLocator", "draw_rank_interval", "rank_label", "rank_step"]

#: Size of the rank labels (points).
TICK_FONT = 8.0


def draw_rank_interval(
    ax: Any,
    y: float,
    bounds: tuple[float, float],
    centre: float,
    *,
    colour: str,
    marker: str,
    gids: tuple[str, str],
) -> None:
    """A horizontal interval of ranks at height ``y`` and a hollow marker on it.

    ``gids`` name the interval's line and the marker's, so tests can read them.
    """
    ax.plot(
        list(bounds),
        [y, y],
        color=colour,
        linewidth=1.2,
        marker="|",
        markersize=4,
        markeredgewidth=1.0,
        solid_capstyle="butt",
        gid=gids[0],
    )
    ax.plot(
        [centre],
        [y],
        linestyle="none",
        marker=marker,
        markersize=3.5,
        markerfacecolor="white",
        markeredgecolor=colour,
        markeredgewidth=1.0,
        zorder=3,
        gid=gids[1],
    )


def rank_label(x: float, pos: int | None = None) -> str:
    return f"{x:g}"


def rank_step(m: int, fits: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if (m - 1) // step + 1 <= max(fits, 2):
            return step
    return 10 ** len(str(m))


class RankLocator(Locator):
    """Integer ranks ``first``..m, thinned to what fits along the axis."""

    def __init__(self, m: int, *, major: bool, first: int = 1) -> None:
        self.m = m
        self.first = first
        self.major = major

    def _step(self) -> int:
        axis = getattr(self, "axis", None)
        if axis is None or axis.axes is None:
            return 1
        axes = axis.axes
        lo, hi = sorted(axes.get_xlim())
        share = (self.m - self.first) / (hi - lo) if hi > lo else 1.0
        ends = axes.transAxes.transform([[0, 0], [1, 0]])
        length = (ends[1][0] - ends[0][0]) / axes.figure.dpi * 72 * share
        # a label of d digits takes about 0.6 d em; leave 1.4 em between
        digits = len(str(self.m))
        fits = int(length / (TICK_FONT * (0.6 * digits + 1.4))) + 1
        return rank_step(self.m - self.first + 1, fits)

    def __call__(self) -> list[float]:
        return self.tick_values(0, 0)

    def tick_values(self, vmin: float, vmax: float) -> list[float]:
        step = self._step()
        ranks = range(self.first, self.m + 1)
        majors = [float(k) for k in ranks if k % step == 0]
        # the first rank labelled too, unless a label stands too close to it
        if (step == 1 or step >= 5) and not (
            majors and majors[0] - self.first < max(step / 2, 1.5)
        ):
            majors = sorted({float(self.first), *majors})
        if self.major:
            return majors
        if step == 1:
            return [k + 0.5 for k in range(self.first, self.m)]
        return [float(k) for k in ranks if float(k) not in majors]
