"""Result of a race (nbstats.race)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pandas as pd

from nbstats.results.base import Result


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class RaceResult(Result):
    """Outcome of :func:`nbstats.race`.

    Attributes
    ----------
    winner : str
        The last survivor, or the survivor with the best mean score when the
        race stopped with several left.
    survivors : list of str
        Candidates still in the race at the end.
    eliminations : DataFrame
        One row per dropped candidate: ``candidate``, ``step``,
        ``instances_seen``, ``evaluations_used`` (when it was dropped),
        ``reason`` (``"dominated"``, ``"indistinguishable"``, ``"worse than
        the best (…)"``) and ``by`` (the candidate that beat or matched it).
    history : DataFrame
        Every evaluation: ``step``, ``instance``, ``candidate``, ``score``.
    scores : DataFrame
        Instances × candidates (NaN after a candidate was dropped).
    evaluations : int
        ``evaluate`` calls made.
    budget, max_steps : int or None
        The limits the race ran under.
    steps : int
        Steps run.
    method : str
    stop_reason : str
        ``"one candidate left"``, ``"budget exhausted"``, ``"step limit
        reached"`` or ``"instances exhausted"``.
    """

    winner: str
    survivors: list[str]
    eliminations: pd.DataFrame
    history: pd.DataFrame
    scores: pd.DataFrame
    evaluations: int
    budget: int | None
    max_steps: int | None
    steps: int
    method: str
    stop_reason: str

    @property
    def budget_used(self) -> float:
        """Share of the limit used: ``steps / max_steps`` if a step limit was
        set (benavoli2015's ITER), else ``evaluations / budget`` (NaN with
        neither)."""
        if self.max_steps:
            return self.steps / self.max_steps
        return self.evaluations / self.budget if self.budget else float("nan")

    @property
    def n_indistinguishable(self) -> int:
        """Candidates dropped as indistinguishable from a better one."""
        return int((self.eliminations["reason"] == "indistinguishable").sum())

    def _title(self) -> str:
        return f"Race ({self.method}): winner {self.winner}"

    def _scalars(self) -> list[tuple[str, object]]:
        return [
            ("winner", self.winner),
            ("survivors", ", ".join(self.survivors)),
            ("evaluations", self.evaluations),
            ("budget", self.budget),
            ("steps", self.steps),
            ("stopped because", self.stop_reason),
            ("dropped as indistinguishable", self.n_indistinguishable),
        ]

    def to_frame(self) -> pd.DataFrame:
        """The eliminations, one row per dropped candidate."""
        return self.eliminations.copy()

    def _table(self) -> pd.DataFrame:
        return self.eliminations.set_index("candidate").rename(
            columns={
                "instances_seen": "instances seen",
                "evaluations_used": "evaluations used",
            }
        )

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Survivors against evaluations (:func:`nbstats.plots.race_trace`)."""
        from nbstats import plots  # lazy: matplotlib only when drawing

        return plots.race_trace(self, ax=ax, **kwargs)
