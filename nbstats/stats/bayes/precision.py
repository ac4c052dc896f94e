"""Monte Carlo to a stated precision: draws in batches until every reported
probability's standard error is below a target.

A probability estimated from N posterior draws has the Monte Carlo standard
error ``sqrt(p (1 - p) / N)``. A fixed N either wastes draws on pairs whose
probabilities are near 0 or 1 (a clear winner) or leaves the others
imprecise. With a target ``t`` (:data:`MC_TARGET` in the report and
:func:`nbstats.analyze`), a pair's draws come in batches on a fixed schedule
(:func:`schedule`): the first batch is ``n_samples`` draws, each further one
doubles the draws so far, and the last stops at :func:`draws_for` ``(t)``,
the number at which even ``p = ½`` is below ``t``. After each batch, a pair
whose every probability (each lower and upper bound, left, rope and right)
has an error below ``t`` stops; the others get the next batch.

Every batch has a random stream of its own, derived from the seed and the
batch's number (the first is the seed's own stream, so a pair that stops
there has exactly the fixed-N posterior of ``n_samples`` draws): the same seed
gives the same numbers, whatever the grouping of the pairs. Each batch is
evaluated by the one engine,
:meth:`~nbstats.stats.bayes.signrank.blocks.PairBlocks.table`, which tells its
counts to :class:`~nbstats.stats.bayes.signrank.pooled.PooledCounts`: a pair's
probabilities are the shares of its pooled counts over all its draws. Under
the near-ignorance prior with a rope the bounds are the extremes over the
placements of the prior of the pooled counts at every placement -- exactly
those of one run on all the batches' draws, not the average of each
batch's extremes (a looser bound) -- and so is the stopping rule's error
after each batch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from nbstats.stats.bayes.decision import decide_many
from nbstats.stats.bayes.signrank.blocks import GROUP_SHARE
from nbstats.stats.bayes.signrank.bounds import bounds_of_counts
from nbstats.stats.bayes.signrank.pooled import PooledCounts, pooled_bytes
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.memory import budget

__all__ = [
    "MC_TARGET",
    "MIN_DRAWS",
    "batch_seed",
    "check_target",
    "draws_for",
    "first_draws",
    "one_pair_draws",
    "precise_joint",
    "precise_table",
    "schedule",
]

#: Default target of the Monte Carlo standard error of every reported
#: probability (the report, :func:`nbstats.analyze`).
MC_TARGET = 0.002
#: Default first batch (the fewest draws of a pair) under a target.
MIN_DRAWS = 5_000
#: A batch's stream: the seed's spawn key, this tag, the batch's number (the
#: chunks of a batch add their own index after it, so no stream repeats).
_BATCH_TAG = 0x6D63  # "mc"

#: The probability columns of the pairs' table a target applies to.
PROBABILITIES = tuple(
    f"prob_{region}_{end}"
    for region in ("left", "rope", "right")
    for end in ("lower", "upper")
)


def check_target(mc_error: object) -> float | None:
    """``mc_error`` validated: None, or a float in (0, 0.5).

    Examples
    --------
    >>> check_target(0.002), check_target(None)
    (0.002, None)
    """
    if mc_error is None:
        return None
    if isinstance(mc_error, bool) or not isinstance(mc_error, (int, float)):
        raise TypeError(
            f"mc_error must be a number (e.g. 0.002) or None, got "
            f"{type(mc_error).__name__}."
        )
    value = float(mc_error)
    if not (0.0 < value < 0.5) or math.isnan(value):
        raise ValueError(
            f"mc_error must be between 0 and 0.5 (a standard error of a "
            f"probability, e.g. 0.002), got {mc_error!r}."
        )
    return value


def draws_for(target: float) -> int:
    """The fewest draws at which every probability's standard error is below
    ``target`` (``p = ½``: ``0.5 / sqrt(N) < target``).

    Examples
    --------
    >>> draws_for(0.002)
    62501
    """
    n = math.floor(0.25 / target**2) + 1
    while 0.5 / math.sqrt(n) >= target:  # rounding of 0.25 / target²
        n += 1
    while n > 1 and 0.5 / math.sqrt(n - 1) < target:
        n -= 1
    return n


def schedule(first: int, target: float) -> list[int]:
    """The batches' sizes: ``first``, then each doubling the draws so far, up
    to :func:`draws_for` ``(target)`` in all (a ``first`` beyond it is one
    batch).

    Examples
    --------
    >>> schedule(5_000, 0.002)
    [5000, 5000, 10000, 20000, 22501]
    """
    sizes = [int(first)]
    total, last = int(first), draws_for(target)
    while total < last:
        size = min(total, last - total)
        sizes.append(size)
        total += size
    return sizes


#: Draws of a Bayesian test without a precision target (``analyze``'s default).
N_SAMPLES = 50_000


def first_draws(n_samples: int | None, mc_error: float | None) -> int:
    """Many pairs' draws: the first batch under a target (default
    :data:`MIN_DRAWS`), else all of them (default :data:`N_SAMPLES`).

    Examples
    --------
    >>> first_draws(None, 0.002), first_draws(None, None), first_draws(800, 0.01)
    (5000, 50000, 800)
    """
    if n_samples is not None:
        return n_samples
    return MIN_DRAWS if check_target(mc_error) is not None else N_SAMPLES


def one_pair_draws(n_samples: int | None, mc_error: float | None) -> int:
    """One pair's draws: under a target, at least :func:`draws_for` it (any
    probability that precise); else ``n_samples`` (default :data:`N_SAMPLES`).

    Examples
    --------
    >>> one_pair_draws(None, 0.002), one_pair_draws(2000, None)
    (62501, 2000)
    """
    target = check_target(mc_error)
    if target is None:
        return N_SAMPLES if n_samples is None else n_samples
    return max(draws_for(target), n_samples or 0)


def batch_seed(seed: np.random.SeedSequence, batch: int) -> np.random.SeedSequence:
    """The stream of batch ``batch``: the seed itself for the first.

    Examples
    --------
    >>> seed = np.random.SeedSequence(0)
    >>> batch_seed(seed, 0) is seed, batch_seed(seed, 2).spawn_key
    (True, (28003, 2))
    """
    if batch == 0:
        return seed
    return np.random.SeedSequence(
        seed.entropy, spawn_key=(*seed.spawn_key, _BATCH_TAG, batch)
    )


def errors_of(columns: dict[str, np.ndarray], draws: np.ndarray) -> np.ndarray:
    """Each pair's largest standard error over its probabilities (NaN
    columns, e.g. the rope's without a rope, left out)."""
    shares = np.column_stack([columns[key] for key in PROBABILITIES])
    errors = np.sqrt(shares * (1 - shares) / np.asarray(draws, dtype=float)[:, None])
    return np.nanmax(np.where(np.isnan(errors), -np.inf, errors), axis=1)


def precise_table(
    engine_for: Callable[[DirichletWeights], Any],
    diffs: Callable[[np.ndarray], np.ndarray],
    names: Sequence[tuple[str, str]],
    *,
    n_cases: int,
    first: int,
    target: float,
    seed: np.random.SeedSequence,
    threshold: float,
    interval: bool,
    out: dict[str, np.ndarray],
    bar: Any = None,
    weights_for: Callable[[int, int], Any] | None = None,
    codes: Callable[[int, np.ndarray, np.ndarray], None] | None = None,
) -> Iterator[None]:
    """The pairs' table (``PairBlocks.table``'s columns, into ``out``) with
    draws in batches until every probability's error is below ``target``.

    A generator: it pauses after each batch of draws but the last (exhaust
    it, e.g. ``for _ in precise_table(...): pass``), so that the tables of
    several sets of cases can take their batches in step from one shared
    stream (:mod:`~nbstats.stats.bayes.signrank.shared_draws`).

    ``engine_for(draws)`` makes the engine (a
    :class:`~nbstats.stats.bayes.signrank.blocks.PairBlocks`) on a batch's draws;
    ``diffs(pairs)`` gives the differences (cases × pairs) of the pairs
    numbered ``pairs``. ``weights_for(batch, size)``: the draws of batch
    ``batch`` (default: ``DirichletWeights(n_cases, size, batch_seed(seed,
    batch))``). Besides the engine's columns, ``out`` gets ``draws`` (each
    pair's number of draws) and ``_mc_error`` (its largest standard error).
    Every column that depends on the draws beyond the probabilities -- the
    credible interval and ``differs``, with ``interval`` -- is the first
    batch's. ``codes(batch, pairs, codes)``: told each batch's region codes
    of the pairs it evaluated (``PairBlocks.table``'s ``codes``).
    """
    sizes = schedule(first, target)
    if weights_for is None:

        def weights_for(batch: int, size: int) -> DirichletWeights:
            return DirichletWeights(n_cases, size, batch_seed(seed, batch))

    # the pooled counts of a group of pairs fit a share of the memory ceiling
    # whatever the number of pairs: each group runs its own batches (the same
    # streams, so the same numbers as in any other grouping)
    each = pooled_bytes(1, n_cases, sum(sizes))
    size = max(1, budget(GROUP_SHARE) // each)
    for start in range(0, len(names), size):
        group = np.arange(start, min(len(names), start + size))
        yield from _precise_group(
            engine_for, lambda at, group=group: diffs(group[at]),
            [names[i] for i in group], group, sizes, weights_for,
            target=target, threshold=threshold,
            interval=interval, out=out, bar=bar, codes=codes,
        )  # fmt: skip


def _precise_group(
    engine_for: Callable[[DirichletWeights], Any],
    diffs: Callable[[np.ndarray], np.ndarray],
    names: Sequence[tuple[str, str]],
    group: np.ndarray,
    sizes: list[int],
    weights_for: Callable[[int, int], Any],
    *,
    target: float,
    threshold: float,
    interval: bool,
    out: dict[str, np.ndarray],
    bar: Any,
    codes: Callable[[int, np.ndarray, np.ndarray], None] | None = None,
) -> Iterator[None]:
    """:func:`precise_table` of the pairs numbered ``group`` in ``out``
    (``diffs`` and ``names`` numbered within the group); pauses after each
    batch but the last."""
    pool = PooledCounts(group.size, sum(sizes))
    active = np.arange(group.size)
    for batch, size in enumerate(sizes):
        if batch > 0:
            yield
        engine = engine_for(weights_for(batch, size))
        with_rope = engine.rope > 0
        pairs = active  # bound now: the closures below run within this batch

        def told(block: slice, counts: Any, placed: Any, pairs=pairs, size=size):
            pool.add(pairs[block], counts, size, placed)

        def coded(block: slice, found: np.ndarray, pairs=pairs, batch=batch):
            codes(batch, group[pairs[block]], found)

        found = engine.table(
            lambda block, pairs=pairs: diffs(pairs[block]),
            [names[i] for i in pairs],
            threshold=threshold,
            interval=interval and batch == 0,
            bar=bar if batch == 0 else None,
            sink=told,
            codes=None if codes is None else coded,
        )
        if batch == 0:
            for key, value in found.items():
                out[key][group] = value
        shares = _probabilities(pool.shares(pairs), with_rope)
        active = pairs[errors_of(shares, pool.draws[pairs]) >= target]
        pool.keep(active)
        if active.size == 0:
            break
    _finish(out, group, pool, with_rope, threshold)


def _probabilities(shares: np.ndarray, with_rope: bool) -> dict[str, np.ndarray]:
    """The probability columns (:data:`PROBABILITIES`) of pooled shares."""
    found = bounds_of_counts(shares, with_rope=with_rope)
    return {f"prob_{key}": value for key, value in found.items()}


def _finish(
    out: dict[str, np.ndarray],
    group: np.ndarray,
    pool: PooledCounts,
    with_rope: bool,
    threshold: float,
) -> None:
    """The columns of the pairs ``group`` from their pooled counts:
    probabilities, their aliases, the decisions (as the engine makes them),
    the draws and the errors."""
    found = _probabilities(pool.shares(), with_rope)
    for key, value in found.items():
        out[key][group] = value
    for alias, key in (
        ("prob_left", "prob_left_lower"),
        ("prob_rope", "prob_rope_lower"),
        ("prob_right", "prob_right_lower"),
        ("prob_lower", "prob_right_lower"),
        ("prob_upper", "prob_right_upper"),
        ("_lower_left", "prob_left_lower"),
    ):
        if alias in out and out[alias] is not out[key]:
            out[alias][group] = found[key]
    lower, upper = (
        (
            np.round(found[f"prob_left_{end}"], 15),
            found[f"prob_rope_{end}"],  # NaN without a rope
            np.round(found[f"prob_right_{end}"], 15),
        )
        for end in ("lower", "upper")
    )
    out["decision"][group] = decide_many(*lower, threshold, upper=upper)
    if "draws" not in out:
        out["draws"] = np.zeros(len(out["decision"]), dtype=np.int64)
    out["draws"][group] = pool.draws
    out["_mc_error"][group] = errors_of(found, pool.draws)


def joint_error(statements: Any, n_samples: int) -> float:
    """The largest standard error of the joint procedure's shares (every
    statement's ``prob`` and ``joint``)."""
    shares = np.concatenate(
        [statements[key].to_numpy(dtype=float) for key in ("prob", "joint")]
    )
    if shares.size == 0:
        return 0.0
    return float(np.sqrt(shares * (1 - shares) / n_samples).max())


def precise_joint(run: Callable[[int], Any], first: int, target: float) -> Any:
    """The joint procedure (``run(draws)``, a :class:`BayesPosthocResult`) on
    ``first`` draws, and again on :func:`draws_for` ``(target)`` draws when a
    share's error is not below ``target`` (the joint shares of the long
    prefixes pass through ½, so there is no point in smaller steps). When
    ``first`` is more than half of those draws, it runs once, on them.

    Examples
    --------
    >>> import types, pandas as pd
    >>> def run(draws):
    ...     shares = pd.Series([0.5])
    ...     return types.SimpleNamespace(statements=pd.DataFrame(
    ...         {"prob": shares, "joint": shares}), n_samples=draws)
    >>> precise_joint(run, 5_000, 0.002).n_samples
    62501
    """
    last = draws_for(target)
    if 2 * first > last:  # a second run would cost more than the first saves
        return run(max(first, last))
    result = run(first)
    if joint_error(result.statements, first) < target:
        return result
    return run(last)
