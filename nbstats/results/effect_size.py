"""The result of :func:`nbstats.effect_size`."""

from __future__ import annotations

import dataclasses

import pandas as pd

from nbstats.results.base import Result

_frozen = dataclasses.dataclass(frozen=True, eq=False, repr=False)

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
    kind : str
        See :func:`nbstats.effect_size`.
    value : float
    magnitude : str or None
        "negligible", "small", "medium" or "large"; None for Hodges–Lehmann
        (it has the scores' units).
    confidence_interval : tuple of float or None
        Hodges–Lehmann only.
    confidence_level : float or None
    interval_method : str or None
        "exact" (signed-rank distribution) or "normal".
    n : int
    name_a, name_b : str

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.effect_size([1, 2, 3], [2, 3, 4], kind="vargha-delaney")
    >>> round(res.value, 3), res.magnitude  # P(B > A) + ½ P(B = A) = 7/9
    (0.778, 'large')
    """

    kind: str
    value: float
    magnitude: str | None
    confidence_interval: tuple[float, float] | None
    confidence_level: float | None
    interval_method: str | None
    n: int
    name_a: str
    name_b: str

    def _title(self) -> str:
        return f"Effect size: {self.name_b} against {self.name_a}"

    def _scalars(self) -> list[tuple[str, object]]:
        rows: list[tuple[str, object]] = [(_NAMES[self.kind], self.value)]
        if self.magnitude is not None:
            rows.append(("magnitude", self.magnitude))
        if self.confidence_interval is not None:
            rows.append(
                (
                    f"{self.confidence_level:.0%} CI ({self.interval_method})",
                    self.confidence_interval,
                )
            )
        rows.append(("cases", self.n))
        return rows

    def to_frame(self) -> pd.DataFrame:
        low, high = self.confidence_interval or (None, None)
        return pd.DataFrame(
            {
                "a": [self.name_a],
                "b": [self.name_b],
                "kind": [self.kind],
                "value": [self.value],
                "magnitude": [self.magnitude],
                "ci_low": [low],
                "ci_high": [high],
                "n": [self.n],
            }
        )

    def _table(self) -> None:
        return None
