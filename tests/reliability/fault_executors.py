"""Executors that misbehave the way real back ends do, and a guard against
hangs, for the fault tests of study() and race().

- :class:`CancellingExecutor` runs each call at once, except the submissions
  it is told to cancel: with ``notify=True`` it cancels them the way Dask does
  when a cluster closes (waiters are woken), with ``notify=False`` the way
  ``ThreadPoolExecutor.shutdown(cancel_futures=True)`` does (nobody is woken:
  ``as_completed`` or ``wait()`` without a time limit would wait for ever).
- :class:`HollowExecutor` says a call finished but hands back an empty
  result for the submissions it is told to lose.
- :func:`finishes_within` runs a function in a daemon thread and fails the
  test if it has not returned in time (the suite has no pytest-timeout).
"""

from __future__ import annotations

import threading
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
