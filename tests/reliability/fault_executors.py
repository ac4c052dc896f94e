"""Executors that misbehave the way real back ends do, and a guard against
hangs, for the fault tests of study() and race().

- :class:`CancellingExecutor` runs each call at once, except the submissions
  it is told to cancel: with ``notify=True`` it cancels them the way Dask does
  when a cluster closes (waiters are woken), with ``notify=False`` the way
  ``ThreadPoolExecutor.shutdown(cancel_futures=True)`` does (nobody is woken:
  ``as_completed`` or ``wait()`` without a time limit would wait for ever).
- :class:`HollowExecutor` says a call finished but hands back an empty
  result for the submissions it is told to lose.
- :class:`ShuffledExecutor` runs the calls in a random order on a thread.
- :func:`finishes_within` runs a function in a daemon thread and fails the
  test if it has not returned in time (the suite has no pytest-timeout).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Collection
from concurrent.futures import Executor, Future
from typing import Any

import pytest


class CancellingExecutor(Executor):
    """Runs submissions here, at once; cancels the ones numbered in ``cancel``
    (0-based, in submission order)."""

    def __init__(self, cancel: Collection[int], notify: bool = True) -> None:
        self.cancel = set(cancel)
        self.notify = notify
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        number, self.submitted = self.submitted, self.submitted + 1
        if number in self.cancel:
            future.cancel()
            if self.notify:
                future.set_running_or_notify_cancel()
            return future
        future.set_running_or_notify_cancel()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # as a pool does: the caller sees it
            future.set_exception(error)
        return future


class HollowExecutor(Executor):
    """Runs submissions here; for the ones numbered in ``lose`` the future
    finishes with ``empty`` instead of the call's result."""

    def __init__(self, lose: Collection[int], empty: object) -> None:
        self.lose = set(lose)
        self.empty = empty
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        number, self.submitted = self.submitted, self.submitted + 1
        future.set_running_or_notify_cancel()
        future.set_result(self.empty if number in self.lose else fn(*args, **kwargs))
        return future


def finishes_within(seconds: float, function: Callable[[], Any]) -> Any:
    """``function()``'s value, or its exception re-raised here; the test fails
    if it is still running after ``seconds`` (the thread is a daemon: a hung
    call does not hold up the test run)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = function()
        except BaseException as error:  # handed to the test
            box["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"still running after {seconds:g} s: it hangs")
    if "error" in box:
        raise box["error"]
    return box["value"]


class ShuffledExecutor(Executor):
    """Runs submissions on one background thread in a shuffled order: once
    nothing new has been submitted for a moment, it runs a random one of the
    queued calls (``random.Random(seed)``), so calls finish in an order
    unrelated to their submission. Use it as a context manager."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self._queue: list[tuple[Future, Callable[..., Any], tuple, dict]] = []
        self._lock = threading.Condition()
        self._last_submit = time.monotonic()
        self._closed = False
        self._thread = threading.Thread(target=self._work, daemon=True)
        self._thread.start()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._queue.append((future, fn, args, kwargs))
            self._last_submit = time.monotonic()
            self._lock.notify()
        return future

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait(0.05)
                if not self._queue:
                    return  # closed and drained
                if time.monotonic() - self._last_submit < 0.005:
                    self._lock.wait(0.005)  # let the caller submit the rest
                    continue
                item = self._queue.pop(self._random.randrange(len(self._queue)))
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as error:  # handed to the caller, as a pool does
                future.set_exception(error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._closed = True
            self._lock.notify()
        if wait:
            self._thread.join()
