"""The result of :func:`nbstats.effect_size`."""

from __future__ import annotations

import dataclasses
import math

import pandas as pd

from nbstats.results.base import Result

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

MAGNITUDE_BOUNDS = {
    "cliff": (0.147, 0.33, 0.474),  # Romano et al. (2006)
    "vargha-delaney": (0.06, 0.14, 0.21),  # Vargha & Delaney (2000)
    "cohen-d": (0.2, 0.5, 0.8),  # Cohen (1988)
    "hedges-g": (0.2, 0.5, 0.8),
    "rank-biserial": (0.1, 0.3, 0.5),  # Cohen's words for a correlation
}


def magnitude(kind: str, value: float) -> str | None:
    """The word for an effect: negligible, small, medium or large.

    Examples
    --------
    >>> magnitude("cliff", -0.2), magnitude("vargha-delaney", 0.75)
    ('small', 'large')
    """
    bounds = MAGNITUDE_BOUNDS.get(kind)
    if bounds is None or not math.isfinite(value):
        return None
    size = abs(value - 0.5) if kind == "vargha-delaney" else abs(value)
    for bound, word in zip(bounds, ("negligible", "small", "medium"), strict=True):
        if size < bound:
            return word
    return "large"


_NAMES = {
    "cliff": "Cliff's δ",
    "vargha-delaney": "Vargha–Delaney A",
    "cohen-d": "Cohen's d_z (paired)",
    "hedges-g": "Hedges' g_z (paired)",
    "rank-biserial": "matched-pairs rank-biserial r",
    "hodges-lehmann": "Hodges–Lehmann shift estimate",
}


@_frozen
class EffectSizeResult(Result):
    """An effect size of b against a (positive: b is better).

    Attributes
    ----------
    effect : str
        Which effect size; see :func:`nbstats.effect_size`.
    value : float
    magnitude : str or None
        "negligible", "small", "medium" or "large"; None for Hodges–Lehmann
        (it has the scores' units).
    confidence_interval : tuple of float or None
        Hodges–Lehmann only: ``(W_(k), W_(N − k + 1))``, order statistics of
        the Walsh averages.
    level : float or None
        The interval's level: the one asked for, or lower when that cannot be
        reached with so few cases (a warning said so).
    interval_method : str or None
        "exact" (signed-rank distribution) or "approx" (normal approximation).
    n_cases : int
        Cases (zero differences included).
    name_a, name_b : hashable
    zero_method : str or None
        Hodges–Lehmann: "wilcox" dropped the zero differences, "zsplit" or
        "pratt" kept them.
    correction : bool or None
        Hodges–Lehmann: continuity correction of the approximate interval.
    n_zero : int or None
        Hodges–Lehmann: zero differences among the n_cases.
    order_statistics : tuple of int or None
        Hodges–Lehmann: (k, N − k + 1), the ranks of the interval's ends
        among the N Walsh averages ((0, 0): R's fallback to the median of the
        differences when no level is reached).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.effect_size([1, 2, 3], [2, 3, 4], effect="vargha-delaney")
    >>> round(res.value, 3), res.magnitude  # P(B > A) + ½ P(B = A) = 7/9
    (0.778, 'large')
    """

    effect: str
    value: float
    magnitude: str | None
    confidence_interval: tuple[float, float] | None
    level: float | None
    interval_method: str | None
    n_cases: int
    name_a: str
    name_b: str
    zero_method: str | None = None
    correction: bool | None = None
    n_zero: int | None = None
    order_statistics: tuple[int, int] | None = None

    def _title(self) -> str:
        return f"Effect size: {self.name_b} against {self.name_a}"

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = [(_NAMES[self.effect], self.value)]
        if self.magnitude is not None:
            rows.append(("magnitude", self.magnitude))
        if self.confidence_interval is not None:
            rows.append(
                (
                    f"{100 * self.level:.4g}% CI ({self.interval_method})",
                    self.confidence_interval,
                )
            )
        if self.effect == "hodges-lehmann" and self.order_statistics is not None:
            rows.extend(self._hodges_lehmann_rows())
        rows.append(("cases", self.n_cases))
        return rows

    def _hodges_lehmann_rows(self) -> list[tuple[str, object]]:
        """What the estimate and the interval are, in words."""
        dropped = self.zero_method == "wilcox" and self.n_zero
        used = self.n_cases - (self.n_zero or 0) if dropped else self.n_cases
        total = used * (used + 1) // 2
        if not self.n_zero:
            zeros = "none zero"
        elif dropped:
            zeros = f"{self.n_zero} zero differences dropped"
        else:
            zeros = f"{self.n_zero} zero differences kept"
        k, upper = self.order_statistics or (0, 0)
        if k == 0:
            interval = "the median of the differences (no level reached)"
        elif self.interval_method == "exact":
            interval = f"Walsh averages no. {k} and {upper} (exact signed-rank test)"
        else:
            corrected = ", continuity corrected" if self.correction else ""
            interval = (
                f"Walsh averages no. {k} and {upper} (signed-rank test's normal "
                f"approximation, ties corrected{corrected})"
            )
        return [
            (
                "estimate",
                f"median of the {total} Walsh averages of {used} differences ({zeros})",
            ),
            ("interval", interval),
        ]

    def to_frame(self) -> pd.DataFrame:
        low, high = self.confidence_interval or (None, None)
        return self._row(
            "a b effect value magnitude ci_low ci_high interval_method n_cases",
            ci_low=low,
            ci_high=high,
        )

    def _table(self) -> None:
        return None
