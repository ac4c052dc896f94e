"""Racing: find the best candidate without evaluating every one everywhere.

A race evaluates the surviving candidates on one block of new instances per
step, tests, and drops the candidates the evidence rules out (Maron & Moore
1997; F-race, Birattari et al. 2002; the Bayesian race of Benavoli et al.
2015, §1.1 and §7.1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import CancelledError, Executor
from typing import Any, Literal

import numpy as np
import pandas as pd

from nbstats import _scipy_stats as sps
from nbstats._progress import progress_bar
from nbstats.results.racing import RaceResult
from nbstats.scores import check_choice, oriented, rank_rows
from nbstats.stats.bayes.decision import check_gamma, check_n_samples, check_s
from nbstats.stats.bayes.friedman import bayes_friedman
from nbstats.stats.bayes.friedman_calibration import minimum_cases
from nbstats.stats.bayes.posthoc import SignEvents, bayes_posthoc
from nbstats.stats.bayes.weights import DirichletWeights, seed_sequence
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.sign import sign_test_from_differences
from nbstats.stats.racing_executors import (
    CallFailure,
    RaceError,
    check_timeout,
    describe_failure,
    failure_words,
    run_calls,
    score_problem,
    show,
)

__all__ = ["RaceError", "race"]

Method = Literal["bayes", "frace-sign", "frace-mr"]


def race(
    evaluate: Callable[[Any, Any], float],
    candidates: Sequence[Any],
    instances: Iterable[Any],
    *,
    method: Method = "bayes",
    gamma: float = 0.05,
    epsilon: float = 0.05,
    alpha: float = 0.05,
    s: float = 1.0,
    budget: int | None = None,
    max_steps: int | None = None,
    instances_per_step: int = 1,
    first_test: int = 5,
    higher_is_better: bool = True,
    n_samples: int = 10_000,
    executor: Executor | None = None,
    timeout: float | None = None,
    random_state: object = None,
    progress: bool | None = None,
) -> RaceResult:
    """Race candidates over instances and return the winner.

    Each step evaluates every surviving candidate on ``instances_per_step``
    new instances (the same ones for all), then, once ``first_test``
    instances have been seen, tests and eliminates:

    - ``"bayes"``: the Bayesian Friedman test at γ; if the candidates differ,
      the joint Bayesian sign-test comparisons (:func:`nbstats.bayes_posthoc`)
      and every candidate that is worse in an accepted statement is dropped.
      At every test, a candidate is also dropped when it is
      *indistinguishable* from a better-ranked survivor: posterior probability
      above 1 − γ that ``|P(X_i > X_j) + ½ P(X_i = X_j) − ½| < ε`` (2015, §7.1).
    - ``"frace-sign"`` / ``"frace-mr"``: the Friedman test at α; if rejected,
      every candidate is compared with the best one (best mean rank) by the
      sign test or the mean-rank z test, at α without multiplicity
      correction, as F-race does; the significantly worse ones are dropped.

    The race ends when one candidate is left, the instances run out, or the
    budget cannot pay for another step; the winner is then the survivor with
    the best mean score (2015, §7.1).

    Parameters
    ----------
    evaluate : callable
        ``evaluate(candidate, instance) -> float``, the user's function. It
        should be deterministic (seed any randomness from its arguments), so
        that a race is reproducible whatever the executor.
    candidates : sequence
        The configurations to race: any objects (dicts of hyper-parameters,
        tuples, estimators, …), named by ``str(candidate)``; the names must
        be distinct.
    instances : iterable
        Instances in the order they are used (a generator is fine).
    method : {"bayes", "frace-sign", "frace-mr"}
    gamma, epsilon : float
        Bayesian race: credible level 1 − γ and indistinguishability width ε.
    alpha : float
        F-race significance level.
    s : float
        Prior strength of the Bayesian tests.
    budget : int, optional
        Maximum number of ``evaluate`` calls; default: unlimited (every
        instance).
    max_steps : int, optional
        Maximum number of steps. benavoli2015 §7.1 counts its budget
        M = 300 this way (one unit per assessment round), so ITER there is
        ``steps / max_steps``.
    instances_per_step : int
        New instances per step (benavoli2015 §7.1 adds five observations per
        assessment).
    first_test : int
        Instances seen before the first test.
    higher_is_better : bool
        Whether higher scores are better.
    n_samples : int
        Posterior draws per Bayesian test (10,000 by default: a race runs many
        tests, and the joint decisions only need to resolve γ = 0.05).
    executor : concurrent.futures.Executor, optional
        Runs the evaluations of one step in parallel (e.g.
        ``ProcessPoolExecutor()`` or ``dask.distributed.Client().get_executor()``);
        results are identical to ``None`` (in-process) because every
        evaluation is keyed by (candidate, instance), not by worker. The
        caller owns the executor (it is not shut down); a process pool or
        cluster pickles ``evaluate``, the candidates and the instances: use
        module-level functions, not lambdas or local functions.
    timeout : float, optional
        Time limit in seconds for each evaluation; a longer one stops the
        race with a :class:`RaceError`. With a thread or process pool the
        time counts from when the pool starts the call (a process pool
        reports it when handing the call to its workers' queue, which can be
        one call early); with other executors (Dask's), from its submission
        or the last evaluation that finished, whichever is later. Without an
        executor each evaluation runs in a daemon thread. A Python thread
        cannot be stopped: a timed-out call on a thread keeps running in the
        background (and leaving a ``with ThreadPoolExecutor()`` block waits
        for it). A :class:`~concurrent.futures.ProcessPoolExecutor`'s worker
        processes are terminated at a time-out, so a hung evaluation cannot
        hang the program — and the pool cannot be used again.
    random_state : None, int or Generator
        Seed of the Bayesian tests' posterior draws (one stream per step).
    progress : bool, optional
        Show a tqdm progress bar; default: only in a terminal or notebook.

    Returns
    -------
    RaceResult
        ``winner`` and ``survivors`` are the candidate objects themselves
        (a dict stays a dict, ``4`` stays an int); ``candidates`` maps each
        name to its object, and the names label ``scores``' columns and the
        ``candidate``/``by`` entries of ``eliminations`` and ``history``
        (``winner_name``, ``survivor_names`` and ``name_of(candidate)`` give
        them).

    Raises
    ------
    RaceError
        An evaluation failed: ``evaluate`` raised (any exception but
        ``KeyboardInterrupt``: ``SystemExit`` and ``GeneratorExit`` too, e.g.
        a process-pool worker's ``sys.exit()``), ran past ``timeout``, its
        worker process died, it could not be sent to the executor (pickling,
        an executor already shut down), the executor cancelled it or gave back
        nothing (a pool shut down with ``cancel_futures=True``, a Dask cluster
        closed mid-race), or it returned something other than a finite real
        number (``True``, ``"0.5"``, ``None``, a complex number, NaN or ±inf,
        a ``timedelta64`` or a date, ``10**400``, an integer beyond 2**53
        that a float would round are refused; numpy integers and floats are
        fine). Or the ``instances`` iterable raised. The message and
        ``error.candidate`` / ``error.instance`` name the call, the cause is
        chained, and ``error.partial_result`` keeps every complete instance.
        With an executor, the calls not started are cancelled; if several
        failed, the first in the step's order (instances, then candidates) is
        reported.
    ValueError
        Bad arguments.
    KeyboardInterrupt
        The only exception that is not wrapped: interrupting a race (Ctrl-C,
        or a ``KeyboardInterrupt`` raised by ``evaluate``) cancels the calls
        not started and re-raises the same exception with the complete
        instances attached as ``interrupt.partial_result``, so that
        ``except KeyboardInterrupt`` still catches it.

    Examples
    --------
    >>> import nbstats
    >>> means = {"a": 0.2, "b": 0.5, "c": 0.9}
    >>> def evaluate(candidate, instance):
    ...     rng = np.random.default_rng([instance, ord(candidate)])
    ...     return means[candidate] + rng.normal(0, 0.1)
    >>> res = nbstats.race(evaluate, list(means), range(40), method="frace-sign",
    ...                    progress=False)
    >>> res.winner
    'c'

    Candidates may be any objects, e.g. configurations as dicts; the result
    hands back the dict that won:

    >>> configs = [{"lr": 0.5}, {"lr": 0.1}, {"lr": 0.01}]
    >>> def fit(config, instance):
    ...     rng = np.random.default_rng([instance, int(1000 * config["lr"])])
    ...     return -abs(config["lr"] - 0.1) + rng.normal(0, 0.01)
    >>> res = nbstats.race(fit, configs, range(40), method="frace-sign",
    ...                    progress=False)
    >>> res.winner, res.winner is configs[1]
    ({'lr': 0.1}, True)
    >>> res.winner_name, list(res.scores.columns)
    ("{'lr': 0.1}", ["{'lr': 0.5}", "{'lr': 0.1}", "{'lr': 0.01}"])

    A failed evaluation stops the race; the error names the call and keeps
    every complete instance (here 3 instances × 3 candidates):

    >>> def flaky(candidate, instance):
    ...     if instance == 3 and candidate == "b":
    ...         raise ValueError("diverged")
    ...     return means[candidate]
    >>> try:
    ...     nbstats.race(flaky, list(means), range(40), timeout=10, progress=False)
    ... except nbstats.RaceError as error:
    ...     print(error.candidate, error.instance, error.partial_result.evaluations)
    ...     print(repr(error.__cause__))
    b 3 9
    ValueError('diverged')
    """
    check_choice("method", method, ("bayes", "frace-sign", "frace-mr"))
    gamma = check_gamma(gamma)
    if not 0 < epsilon < 0.5:
        raise ValueError(f"epsilon must lie in (0, 0.5), got {epsilon!r}.")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}.")
    s = check_s(s, allow_zero=True)
    n_samples = check_n_samples(n_samples)
    timeout = check_timeout(timeout)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(
            "executor must be a concurrent.futures.Executor (something with "
            f"submit()), or None to run here; got {executor!r}."
        )
    candidates = list(candidates)
    names = [str(c) for c in candidates]
    if len(candidates) < 2:
        raise ValueError(f"a race needs at least 2 candidates, got {len(candidates)}.")
    if len(set(names)) != len(names):
        raise ValueError("candidates must have distinct names (str(candidate)).")
    for label, value, low in (
        ("instances_per_step", instances_per_step, 1),
        ("first_test", first_test, 2),
    ):
        if not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{label} must be an integer >= {low}, got {value!r}.")
    round_cost = len(candidates) * instances_per_step
    if budget is not None and budget < round_cost:
        raise ValueError(
            f"budget={budget} evaluations cannot pay for one step "
            f"({len(candidates)} candidates × {instances_per_step} instances = "
            f"{round_cost}); raise the budget or race fewer candidates."
        )
    seeds = seed_sequence(random_state)
    if max_steps is not None and (
        not isinstance(max_steps, (int, np.integer)) or max_steps < 1
    ):
        raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}.")
    state = _RaceState(names=names, method=method, budget=budget, max_steps=max_steps)
    state.candidates = dict(zip(names, candidates, strict=True))
    state.higher_is_better = higher_is_better
    instance_iter = iter(instances)
    bar = progress_bar(progress, budget, desc="race", unit="eval")
    try:
        while len(state.alive) > 1:
            if max_steps is not None and state.step >= max_steps:
                state.stop_reason = "step limit reached"
                break
            block = _take(instance_iter, instances_per_step, state)
            if not block:
                state.stop_reason = "instances exhausted"
                break
            cost = len(state.alive) * len(block)
            if budget is not None and state.evaluations + cost > budget:
                state.stop_reason = "budget exhausted"
                break
            _evaluate_step(evaluate, state, block, executor, timeout)
            if bar is not None:
                bar.update(cost)
            if len(state.rows) >= first_test:
                step_seed = np.random.SeedSequence(
                    seeds.entropy, spawn_key=(*seeds.spawn_key, state.step)
                )
                _eliminate(
                    state,
                    method,
                    gamma,
                    epsilon,
                    alpha,
                    s,
                    higher_is_better,
                    n_samples,
                    step_seed,
                )
            state.step += 1
        else:
            state.stop_reason = "one candidate left"
    except KeyboardInterrupt as interrupt:
        state.stop_reason = "interrupted"
        interrupt.partial_result = state.result(higher_is_better)  # type: ignore[attr-defined]
        raise
    finally:
        if bar is not None:
            bar.close()
    return state.result(higher_is_better)


class _RaceState:
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


def _take(iterator: Any, count: int, state: _RaceState) -> list[Any]:
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


def _evaluate_step(
    evaluate: Callable[[Any, Any], float],
    state: _RaceState,
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
    state: _RaceState,
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


def _eliminate(
    state: _RaceState,
    method: str,
    gamma: float,
    epsilon: float,
    alpha: float,
    s: float,
    higher_is_better: bool,
    n_samples: int,
    seed: np.random.SeedSequence,
) -> None:
    table = state.table()
    hib = {"higher_is_better": higher_is_better}
    if method == "bayes":
        n, m = table.shape
        # the Bayesian Friedman test needs as many instances as candidates
        # alive, twice as many with s = 0 (below, its posterior cannot tell
        # ranks apart and it is not calibrated): until then only the
        # ε-indistinguishability step runs
        omnibus = (
            bayes_friedman(
                table,
                s=s,
                gamma=gamma,
                method="ellipsoid",
                n_samples=max(n_samples, 1000),
                random_state=seed.spawn(1)[0],
                **hib,
            )
            if n >= minimum_cases(m, s)
            else None
        )
        if omnibus is not None and omnibus.reject:
            comparisons = bayes_posthoc(
                table,
                s=s,
                gamma=gamma,
                n_samples=n_samples,
                random_state=seed.spawn(1)[0],
                groups=False,  # only the statements decide; groups can explode
                **hib,
            )
            accepted = comparisons.statements[comparisons.statements["accepted"]]
            for row in accepted.itertuples(index=False):
                if row.worse in state.alive:
                    state.eliminate(row.worse, "dominated", row.better)
        _drop_indistinguishable(
            state, gamma, epsilon, s, higher_is_better, n_samples, seed
        )
        return
    result = friedman(table, **hib)
    if result.pvalue >= alpha:
        return
    ranks = result.mean_ranks
    best = str(ranks.idxmin())
    values = oriented(table.to_numpy(), higher_is_better)
    position = {name: j for j, name in enumerate(table.columns)}
    n, m = table.shape
    se = math.sqrt(m * (m + 1) / (6 * n))
    for name in list(table.columns):
        if name == best:
            continue
        if method == "frace-sign":
            d = values[:, position[best]] - values[:, position[name]]
            test = sign_test_from_differences(d, alternative="greater")
            p = test.pvalue
            reason = "worse than the best (sign test)"
        else:
            z = (ranks[name] - ranks[best]) / se
            p = float(sps.norm.sf(z))
            reason = "worse than the best (mean-rank z test)"
        if p < alpha:
            state.eliminate(name, reason, best)


def _drop_indistinguishable(
    state: _RaceState,
    gamma: float,
    epsilon: float,
    s: float,
    higher_is_better: bool,
    n_samples: int,
    seed: np.random.SeedSequence,
) -> None:
    """Drop a survivor when P(|θ_ij − ½| < ε) > 1 − γ for a better-ranked one."""
    table = state.table()
    if table.shape[1] < 2:
        return
    values = oriented(table.to_numpy(), higher_is_better)
    n, m = values.shape
    mean_ranks = rank_rows(values).mean(axis=0)
    order = np.argsort(mean_ranks, kind="stable")  # best first
    pairs = [(order[a], order[b]) for a in range(m) for b in range(a + 1, m)]
    events = SignEvents(
        np.column_stack([values[:, j] - values[:, i] for i, j in pairs])
    )
    close = np.zeros(len(pairs))
    for chunk in DirichletWeights(n, n_samples, seed.spawn(1)[0]):
        # θ in blocks of pairs within the memory ceiling: 200 candidates make
        # 19,900 pairs, which one chunk of draws would hold as ~2 GB
        for cols, theta in events.blocks(chunk, s):
            close[cols] += (np.abs(theta - 0.5) < epsilon).sum(axis=0)
    prob = close / n_samples
    names = list(table.columns)
    for (i, j), p in zip(pairs, prob, strict=True):
        better, worse = names[i], names[j]
        if p > 1 - gamma and better in state.alive and worse in state.alive:
            state.eliminate(worse, "indistinguishable", better)
