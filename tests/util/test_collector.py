"""The collector is kept off older objects during a block, and given them back."""

from __future__ import annotations

import gc
import weakref

import pytest

from nbstats.util.collector import older_objects_frozen


class _Node:
    pass


def _cycle() -> weakref.ref:
    """A reference cycle nothing else holds, watched by a weak reference."""
    node = _Node()
    node.self = node
    return weakref.ref(node)


def test_an_older_cycle_waits_for_the_end_of_the_block():
    older = _cycle()
    with older_objects_frozen():
        newer = _cycle()
        gc.collect()
        assert newer() is None  # made in the block: collected as usual
        assert older() is not None  # frozen: left for later
    gc.collect()
    assert older() is None
    assert gc.get_freeze_count() == 0


def test_given_back_after_an_exception():
    with pytest.raises(RuntimeError), older_objects_frozen():
        raise RuntimeError("boom")
    assert gc.get_freeze_count() == 0


def test_objects_frozen_by_the_caller_stay_frozen():
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with older_objects_frozen():
            assert gc.get_freeze_count() == before
        assert gc.get_freeze_count() == before  # not unfrozen here
    finally:
        gc.unfreeze()


def test_nothing_is_done_with_the_collector_off():
    gc.disable()
    try:
        with older_objects_frozen():
            assert gc.get_freeze_count() == 0
    finally:
        gc.enable()
