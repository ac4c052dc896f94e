"""Racing: find the best candidate without evaluating every one everywhere.

A race evaluates the surviving candidates on one block of new instances per
step, tests, and drops the candidates the evidence rules out (Maron & Moore
1997; F-race, Birattari et al. 2002; the Bayesian race of Benavoli et al.
2015, §1.1 and §7.1). This module drives the race; the bookkeeping is in
:mod:`nbstats.stats.racing_state`, the tests that drop candidates in
:mod:`nbstats.stats.racing_elimination`, and the calls (any
``concurrent.futures`` executor, timeouts, failures) in
:mod:`nbstats.stats.racing_executors`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence, Sized
from concurrent.futures import Executor
from typing import Any, Literal

import numpy as np

from nbstats.results.racing import RaceResult
from nbstats.stats.bayes.draws import check_n_samples
from nbstats.stats.bayes.priors import check_s
from nbstats.stats.racing_elimination import eliminate
from nbstats.stats.racing_executors import RaceError, check_timeout
from nbstats.stats.racing_state import RaceState, evaluate_step, take
from nbstats.util.checks import (
    check_callable,
    check_choice,
    check_count,
    check_flag,
    check_fraction,
    check_random_state,
)
from nbstats.util.progress import progress_bar
from nbstats.util.random import seed_sequence

__all__ = ["RaceError", "race"]

Method = Literal["bayes", "frace-sign", "frace-mr"]


def race(
    evaluate: Callable[[Any, Any], float],
    candidates: Sequence[Any],
    instances: Iterable[Any],
    *,
    method: Method = "bayes",
    threshold: float = 0.95,
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

    - ``"bayes"``: the Bayesian Friedman test at credible level
      ``threshold``; if the candidates differ, the joint Bayesian sign-test
      comparisons (:func:`nbstats.bayes_posthoc`)
      and every candidate that is worse in an accepted statement is dropped.
      At every test, a candidate is also dropped when it is
      *indistinguishable* from a better-ranked survivor: posterior probability
      above ``threshold`` that ``|P(X_i > X_j) + ½ P(X_i = X_j) − ½| < ε`` (2015, §7.1).
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
    threshold, epsilon : float
        Bayesian race: the posterior probability a decision needs (the
        credible level, default 0.95; γ = 1 − threshold in Benavoli et al.
        2015) and the indistinguishability width ε, in (0, 0.5).
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
        tests, and the joint decisions only need to resolve a threshold of 0.95).
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
        ``None`` takes fresh entropy from the operating system, so a race
        decided near a threshold may end differently on a second run; give
        an int to reproduce it.
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
    check_callable("evaluate", evaluate)
    check_choice("method", method, ("bayes", "frace-sign", "frace-mr"))
    threshold = check_fraction("threshold", threshold, example=0.95)
    epsilon = check_fraction("epsilon", epsilon, high=0.5, example=0.05)
    alpha = check_fraction("alpha", alpha, example=0.05)
    s = check_s(s, allow_zero=True)
    if budget is not None:
        budget = check_count("budget", budget)
    if max_steps is not None:
        max_steps = check_count("max_steps", max_steps)
    instances_per_step = check_count("instances_per_step", instances_per_step)
    first_test = check_count("first_test", first_test, minimum=2)
    check_flag("higher_is_better", higher_is_better)
    n_samples = check_n_samples(n_samples)
    timeout = check_timeout(timeout)
    check_random_state(random_state)
    if progress is not None:
        check_flag("progress", progress)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(
            "executor must be a concurrent.futures.Executor (something with "
            f"submit()), or None to run here; got {executor!r}."
        )
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Iterable):
        raise TypeError(
            "candidates must be a sequence of configurations (a list), got "
            f"{candidates!r} ({type(candidates).__name__})."
        )
    if isinstance(instances, (str, bytes)) or not isinstance(instances, Iterable):
        raise TypeError(
            "instances must be an iterable of instances (a list, a range, a "
            f"generator), got {instances!r} ({type(instances).__name__})."
        )
    if isinstance(instances, Sized) and len(instances) == 0:
        raise ValueError(
            "instances is empty: a race needs instances to evaluate the "
            "candidates on (a list, a range or a generator of them)."
        )
    candidates = list(candidates)
    names = [str(c) for c in candidates]
    if len(candidates) < 2:
        raise ValueError(
            f"candidates must hold at least 2 configurations to race, got "
            f"{len(candidates)}."
        )
    if len(set(names)) != len(names):
        raise ValueError("candidates must have distinct names (str(candidate)).")
    round_cost = len(candidates) * instances_per_step
    if budget is not None and budget < round_cost:
        raise ValueError(
            f"budget={budget} evaluations cannot pay for one step "
            f"({len(candidates)} candidates × {instances_per_step} instances = "
            f"{round_cost}); raise the budget or race fewer candidates."
        )
    seeds = seed_sequence(random_state)
    state = RaceState(names=names, method=method, budget=budget, max_steps=max_steps)
    state.candidates = dict(zip(names, candidates, strict=True))
    state.higher_is_better = higher_is_better
    instance_iter = iter(instances)
    bar = progress_bar(progress, budget, desc="race", unit="eval")
    try:
        while len(state.alive) > 1:
            if max_steps is not None and state.step >= max_steps:
                state.stop_reason = "step limit reached"
                break
            block = take(instance_iter, instances_per_step, state)
            if not block:
                state.stop_reason = "instances exhausted"
                break
            cost = len(state.alive) * len(block)
            if budget is not None and state.evaluations + cost > budget:
                state.stop_reason = "budget exhausted"
                break
            evaluate_step(evaluate, state, block, executor, timeout)
            if bar is not None:
                bar.update(cost)
            if len(state.rows) >= first_test:
                step_seed = np.random.SeedSequence(
                    seeds.entropy, spawn_key=(*seeds.spawn_key, state.step)
                )
                eliminate(
                    state,
                    method,
                    threshold,
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
