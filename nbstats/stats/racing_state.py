"""A race's bookkeeping: who is alive, what was evaluated, and the errors.

:class:`RaceState` holds a race as it runs (the survivors, one row of scores
per complete instance, the history and the eliminations) and turns it into a
:class:`~nbstats.results.racing.RaceResult`; :func:`take` draws the next block
of instances and :func:`evaluate_step` evaluates the survivors on it, keeping
every complete instance when a call fails (:class:`RaceError` carries the
partial result). :func:`nbstats.race` drives them.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import CancelledError, Executor
from typing import Any

import pandas as pd

from nbstats.results.racing import RaceResult
from nbstats.stats.racing_executors import (
    CallFailure,
    RaceError,
    describe_failure,
    failure_words,
    run_calls,
    score_problem,
    show,
)

__all__ = ["RaceState", "evaluate_step", "take"]


class RaceState:
    def __init__(
        self, names: list[str], method: str, budget: int | None, max_steps: int | None
    ) -> None:
        self.names = names
        self.candidates: dict[str, Any] = {name: name for name in names}
        self.method = method
        self.budget = budget
        self.max_steps = max_steps
        self.higher_is_better = True
        self.alive = list(names)
        self.rows: list[dict[str, float]] = []  # one per instance: name -> score
        self.instances: list[Any] = []
        self.history: list[dict[str, Any]] = []
        self.eliminations: list[dict[str, Any]] = []
        self.evaluations = 0
        self.step = 0
        self.stop_reason = ""

    def table(self) -> pd.DataFrame:
        """Scores of the survivors on every instance seen (rows = instances)."""
        frame = pd.DataFrame(self.rows, columns=self.names)
        frame.index = pd.RangeIndex(len(self.rows), name="instance")
        return frame[self.alive]

    def eliminate(self, name: str, reason: str, by: str | None) -> None:
        self.alive.remove(name)
        self.eliminations.append(
            {
                "candidate": name,
                "step": self.step,
                "instances_seen": len(self.rows),
                "evaluations_used": self.evaluations,
                "reason": reason,
                "by": by,
            }
        )

    def result(self, higher_is_better: bool) -> RaceResult:
        scores = pd.DataFrame(self.rows, columns=self.names)
        scores.index = pd.RangeIndex(len(self.rows), name="instance")
        if self.rows:
            means = scores[self.alive].mean(axis=0)
            best = means.idxmax() if higher_is_better else means.idxmin()
        else:
            best = self.alive[0]
        return RaceResult(
            winner=self.candidates[str(best)],
            survivors=[self.candidates[name] for name in self.alive],
            eliminations=pd.DataFrame(
                self.eliminations,
                columns=[
                    "candidate",
                    "step",
                    "instances_seen",
                    "evaluations_used",
                    "reason",
                    "by",
                ],
            ),
            history=pd.DataFrame(
                self.history, columns=["step", "instance", "candidate", "score"]
            ),
            scores=scores,
            evaluations=self.evaluations,
            budget=self.budget,
            max_steps=self.max_steps,
            steps=self.step,
            method=self.method,
            stop_reason=self.stop_reason,
            candidates=dict(self.candidates),
        )


def take(iterator: Any, count: int, state: RaceState) -> list[Any]:
    """The next ``count`` instances (fewer at the end); an iterable that
    raises stops the race with a :class:`RaceError` keeping what was done."""
    block = []
    for _ in range(count):
        try:
            block.append(next(iterator))
        except StopIteration:
            break
        except KeyboardInterrupt:
            raise
        except BaseException as error:  # the user's generator failed
            state.stop_reason = "instances failed"
            number = len(state.instances) + len(block)
            raise RaceError(
                f"the instances iterable raised {describe_failure(error)} when "
                f"asked for instance number {number} (0-based); the race "
                f"stopped at step {state.step} with {len(state.rows)} complete "
                f"instance(s) and {state.evaluations} evaluations (see "
                "error.partial_result).",
                state.result(state.higher_is_better),
                kind="instances",
            ) from error
    return block


def evaluate_step(
    evaluate: Callable[[Any, Any], float],
    state: RaceState,
    block: list[Any],
    executor: Executor | None,
    timeout: float | None,
) -> None:
    """Evaluate the survivors on a block of instances and record the complete
    instances; raise :class:`RaceError` on the first failed call (in the
    step's order), after recording every instance that is complete."""
    jobs = [(k, name) for k in range(len(block)) for name in state.alive]
    calls = [(state.candidates[name], block[k]) for k, name in jobs]
    values, failures = run_calls(evaluate, calls, executor, timeout)
    scores: dict[int, float] = {}
    for index, value in values.items():
        problem = score_problem(value)
        if problem is None:
            scores[index] = float(value)
        else:
            failures.append(CallFailure(index, problem, "bad score"))
    if not failures:  # an executor that lost a call without a word
        failures = [
            CallFailure(index, CancelledError("no result came back"), "cancelled")
            for index in range(len(jobs))
            if index not in values
        ][:1]
    failed_instances = {jobs[f.index][0] for f in failures}
    held = [k for k in range(len(block)) if k not in failed_instances]
    complete = [k for k in held if all(i in scores for i in _jobs_of(jobs, k))]
    # record in job order, so the history does not depend on the executor
    for k in complete:
        row: dict[str, float] = {}
        for index in _jobs_of(jobs, k):
            name = jobs[index][1]
            row[name] = scores[index]
            state.history.append(
                {
                    "step": state.step,
                    "instance": block[k],
                    "candidate": name,
                    "score": scores[index],
                }
            )
        state.evaluations += len(row)
        state.rows.append(row)
        state.instances.append(block[k])
    if not failures:  # every call returned a score: the block is complete
        return
    failure = min(failures, key=lambda f: f.index)
    discarded = len(scores) - sum(len(_jobs_of(jobs, k)) for k in complete)
    raise _race_error(state, failure, calls, timeout, discarded) from failure.error


def _jobs_of(jobs: list[tuple[int, str]], k: int) -> list[int]:
    return [index for index, (kk, _) in enumerate(jobs) if kk == k]


def _race_error(
    state: RaceState,
    failure: CallFailure,
    calls: list[tuple[Any, Any]],
    timeout: float | None,
    discarded: int,
) -> RaceError:
    state.stop_reason = "evaluation failed"
    candidate, instance = (
        calls[failure.index] if failure.index < len(calls) else (None, None)
    )
    call = f"evaluate({show(candidate)}, {show(instance)})"
    what = failure_words(failure, timeout)
    message = (
        f"{call} {what}; the race stopped at step {state.step} with "
        f"{len(state.rows)} complete instance(s) and {state.evaluations} "
        "evaluations (see error.partial_result)"
    )
    if discarded > 0:
        message += (
            f"; {discarded} other evaluation(s) of the incomplete instance(s) "
            "were discarded"
        )
    return RaceError(
        message + ".",
        state.result(state.higher_is_better),
        candidate=candidate,
        instance=instance,
        kind=failure.kind,
        timeout=timeout,
    )
