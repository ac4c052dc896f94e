"""Result of a race (nbstats.race)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.base import Result


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class RaceResult(Result):
    """Outcome of :func:`nbstats.race`.

    Attributes
    ----------
    winner : object
        The candidate given to :func:`nbstats.race` (a dict configuration
        stays that dict) that survived last, or the survivor with the best
        mean score when the race stopped with several left.
    survivors : list
        The candidates (objects as given) still in the race at the end.
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
        Scores held: ``evaluate`` calls made and kept (after a failure, the
        scores of an incomplete instance are not kept, so this is always the
        number of scores in ``scores`` and of rows in ``history``).
    budget, max_steps : int or None
        The limits the race ran under.
    steps : int
        Steps run.
    method : str
    stop_reason : str
        ``"one candidate left"``, ``"budget exhausted"``, ``"step limit
        reached"`` or ``"instances exhausted"``; in the ``partial_result`` of
        a :class:`~nbstats.stats.racing.RaceError`, ``"evaluation failed"``
        (or ``"instances failed"`` when the instances iterable raised), and
        of an interrupted race, ``"interrupted"``.
    candidates : dict
        Each candidate's name (``str(candidate)``), which labels the columns
        of ``scores`` and the ``candidate``/``by`` entries of
        ``eliminations`` and ``history``, mapped to the object itself.
    """

    winner: Any
    survivors: list[Any]
    eliminations: pd.DataFrame
    history: pd.DataFrame
    scores: pd.DataFrame
    evaluations: int
    budget: int | None
    max_steps: int | None
    steps: int
    method: str
    stop_reason: str
    candidates: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def winner_name(self) -> str:
        """The winner's name: its column in ``scores``."""
        return self.name_of(self.winner)

    @property
    def survivor_names(self) -> list[str]:
        """The survivors' names: their columns in ``scores``."""
        return [self.name_of(candidate) for candidate in self.survivors]

    def name_of(self, candidate: Any) -> str:
        """The name (``scores`` column) of a candidate object of this race."""
        for name, known in self.candidates.items():
            if known is candidate:
                return name
        for name, known in self.candidates.items():
            if _same(known, candidate):
                return name
        if not self.candidates:  # a result built by hand, without the map
            return str(candidate)
        raise KeyError(f"{candidate!r} is not a candidate of this race.")

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
        return f"Race ({self.method}): winner {self.winner_name}"

    def _scalars(self) -> list[tuple[str, object]]:
        # the winner and survivors may be any objects: show their names
        return [
            ("winner", self.winner_name),
            ("survivors", ", ".join(self.survivor_names)),
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
        import nbstats.plots as plots  # lazy: matplotlib only when drawing

        return plots.race_trace(self, ax=ax, **kwargs)


def _same(a: Any, b: Any) -> bool:
    """Equality of two candidates, arrays included (their == is elementwise)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.shape(a) == np.shape(b) and bool(np.array_equal(a, b))
    try:
        return bool(a == b)
    except Exception:  # an == that gives no truth value
        return False
