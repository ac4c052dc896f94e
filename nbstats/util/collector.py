"""The garbage collector kept off the objects a long computation started with."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["older_objects_frozen"]


@contextlib.contextmanager
def older_objects_frozen() -> Iterator[None]:
    """While the block runs, the collector scans only the objects made in it.

    Python's full collections scan every tracked object. After pandas,
    SciPy, matplotlib and numba are imported that is a quarter of a million
    objects, and a report triggers a few such collections: about a quarter
    of a second of a report run in the command's own process
    (``benchmarks/bench_report.py``). The objects that exist when the block
    starts are moved aside (:func:`gc.freeze`) and given back to the
    collector when it ends (:func:`gc.unfreeze`), exception or not; a cycle
    among them is collected then instead of during the block. Nothing is
    done when the collector is off or when objects are frozen already (the
    warm process freezes its own; the caller's are never unfrozen here).

    Examples
    --------
    >>> import gc
    >>> with older_objects_frozen():
    ...     gc.get_freeze_count() > 0
    True
    >>> gc.get_freeze_count()
    0
    """
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
