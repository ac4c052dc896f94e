"""Runs of the pairs table's sets of cases, advanced a batch at a time.

With missing cells (``nan_policy="pairwise"``) each set of cases that some
pairs share is a run of :mod:`~nbstats.stats.bayes.signrank.pairs`'s
evaluation, paused between batches of draws so that every set takes its
batches in step from one shared stream.
"""

from __future__ import annotations

from collections.abc import Iterator

from nbstats.util.pools import default_threads, in_two_threads

__all__ = ["one_batch_further"]

#: The end of a run.
_DONE = object()


def one_batch_further(
    runs: list[Iterator[None]], threads: int | None = None
) -> list[Iterator[None]]:
    """Advance every run by one batch; returns those not yet done, in their
    order.

    Most sets of cases hold a pair or two, too few for the compiled sums'
    own two threads (:func:`~nbstats.stats.bayes.signrank.pair_sums.in_halves`),
    so the sets themselves are shared between two threads (the sums release
    the GIL). Each set's numbers depend only on the shared stream's draws,
    not on the thread that evaluates it. ``threads``: 1 to advance them all
    here (default: 2 on a machine with two processors or more).

    Examples
    --------
    >>> def run(batches):
    ...     for _ in range(batches - 1):
    ...         yield
    >>> runs = [run(1), run(2), run(3)]
    >>> len(one_batch_further(runs, threads=2)), len(one_batch_further(runs))
    (2, 1)
    """
    if threads is None:
        threads = default_threads()
    if threads < 2 or len(runs) < 2:
        return [run for run in runs if next(run, _DONE) is not _DONE]

    def advance(part: list[Iterator[None]]) -> list[bool]:
        return [next(run, _DONE) is not _DONE for run in part]

    # not pair_sums' pool: its workers run the sums' halves, which a set
    # evaluated here may ask for while this pool's thread waits
    even, odd = in_two_threads("nbstats-sets", advance, runs)
    going = [False] * len(runs)
    going[::2], going[1::2] = even, odd
    return [run for run, alive in zip(runs, going, strict=True) if alive]
