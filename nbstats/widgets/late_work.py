"""Work a dashboard shows later: computed now when quick, else in a thread.

The Bayesian dashboard has two such pieces of work, each too slow at 50
algorithms to wait for on a change of a control: the joint statements
(:class:`~nbstats.widgets.bayes_joint.SignedRankJoint`) and, under the
near-ignorance prior with a rope and a large s, the pair matrix's exact
bounds (:class:`~nbstats.widgets.bayes_pairs.PairBounds`). Each has a
:class:`LateRunner`; the two share one lock (``serial``), so they never
compute at the same time and the machine's processors go to one at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from nbstats.util.memory import trim_heap

__all__ = ["LateRunner", "LateWork", "prior_arguments"]


class LateWork(Protocol):
    """What a :class:`LateRunner` computes: ``ready`` says whether
    ``table`` is quick for these settings."""

    def ready(self, s: float, rope: float, *prior: str) -> bool: ...

    def table(self, s: float, threshold: float, rope: float, *prior: str) -> Any: ...


class LateRunner:
    """``work.table(...)`` now, or in a background thread when it is slow.

    A dashboard asks with :meth:`request` on every change of a control. A
    quick answer (``work.ready``) comes back at once; a slow one returns
    None, is computed in one background thread and handed to
    ``deliver(settings, value, error)``. Requests made meanwhile replace each
    other: only the newest is computed next, and a value whose settings were
    superseded is not delivered. While a thread runs every request queues, so
    the work is never done in two threads at once.

    Parameters
    ----------
    work : LateWork
        E.g. :class:`~nbstats.widgets.bayes_joint.SignedRankJoint`.
    deliver : callable
        ``deliver((s, threshold, rope, *prior), value or None, exception or
        None)``, called from the background thread; ``prior`` is empty for
        the default ``"point"`` and ``("idp",)`` for IDP, as :meth:`request`
        passes it to ``work``.
    background : bool
        False: every request is answered at once (tests, small problems).
    serial : threading.Lock, optional
        Held by the thread while it computes: runners given the same lock
        take turns.

    Examples
    --------
    >>> from nbstats.widgets.bayes_joint import SignedRankJoint
    >>> import numpy as np
    >>> diffs = np.array([[0.1], [0.2], [0.3], [-0.1]])
    >>> joint = SignedRankJoint(diffs, [(0, 1)], ["a", "b"], [2.0, 1.0], 1000, 0)
    >>> got = []
    >>> runner = LateRunner(joint, lambda *args: got.append(args), background=True)
    >>> runner.request(1.0, 0.95, 0.0) is None  # a first pass: in the background
    True
    >>> runner.wait(timeout=60)
    True
    >>> (settings, table, error), = got
    >>> settings, table["better"].tolist(), error
    ((1.0, 0.95, 0.0), ['b'], None)
    >>> runner.request(1.0, 0.90, 0.0)["better"].tolist()  # the threshold only: at once
    ['b']
    """

    def __init__(
        self,
        work: LateWork,
        deliver: Callable[[tuple, Any, Exception | None], None],
        *,
        background: bool,
        serial: threading.Lock | None = None,
    ) -> None:
        self.work = work
        self.background = background
        self._deliver = deliver
        self._serial = threading.Lock() if serial is None else serial
        self._lock = threading.Lock()
        self._wanted: tuple[float, float, float, str] | None = None
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    @property
    def busy(self) -> bool:
        """Whether work is being done in the background."""
        return not self._idle.is_set()

    def request(
        self, s: float, threshold: float, rope: float, prior: str = "point"
    ) -> Any:
        """The value for (s, threshold, rope, prior), or None when it comes
        later (``deliver`` gets the settings ``(s, threshold, rope)``,
        followed by the prior unless it is ``"point"``)."""
        extra = prior_arguments(prior)
        with self._lock:
            if self._thread is None and (
                not self.background or self.work.ready(s, rope, *extra)
            ):
                return self.work.table(s, threshold, rope, *extra)
            self._wanted = (s, threshold, rope, prior)
            if self._thread is None:
                self._idle.clear()
                self._thread = threading.Thread(
                    target=self._run, name="nbstats-late-work", daemon=True
                )
                self._thread.start()
        return None

    def if_idle(self, function: Callable[[], object]) -> bool:
        """Call ``function`` (e.g. to let memory of ``work`` go) unless a
        thread is working: then it is not called, and False is returned."""
        with self._lock:
            if self._thread is not None:
                return False
            function()
            return True

    def wait(self, timeout: float | None = None) -> bool:
        """Block until nothing is pending; False on a timeout."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                wanted, self._wanted = self._wanted, None
                if wanted is None:
                    self._thread = None
                    self._idle.set()
                    break
            value, error = None, None
            try:
                with self._serial:
                    value = self.work.table(*wanted[:3], *prior_arguments(wanted[3]))
            except Exception as caught:  # handed over, shown by the dashboard
                error = caught
            with self._lock:
                superseded = self._wanted is not None
            if not superseded:
                self._deliver((*wanted[:3], *prior_arguments(wanted[3])), value, error)
        # a pass over the draws left its blocks' memory in this thread's heap
        trim_heap()


def prior_arguments(prior: str) -> tuple[str, ...]:
    """The prior as an argument of ``table`` and ``ready``, and at the end of
    the settings :class:`LateRunner` delivers: none for the default
    ``"point"`` (so a joint object written before IDP still works).

    Examples
    --------
    >>> prior_arguments("point"), prior_arguments("idp")
    ((), ('idp',))
    """
    return () if prior == "point" else (prior,)
