"""The values of the last few keys: a bounded store, oldest forgotten first.

The dashboards keep what recent settings cost to compute (counts, statement
tables, posteriors) so that going back to a setting costs nothing, and keep
only a few. :class:`Recent` is that store. ``functools.lru_cache`` caches a
function's calls; here the values are computed by the caller, in several
ways, and stored under a key of the caller's choosing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["Recent"]

_V = TypeVar("_V")


class Recent(Generic[_V]):
    """At most ``size`` values by key; :meth:`get` and :meth:`put` make a
    key the most recent, and a :meth:`put` beyond ``size`` forgets the
    least recent.

    Examples
    --------
    >>> kept = Recent(2)
    >>> kept.put("a", 1), kept.put("b", 2)
    (1, 2)
    >>> kept.get("a")  # now the most recent
    1
    >>> _ = kept.put("c", 3)  # forgets "b"
    >>> "b" in kept, list(kept)
    (False, ['a', 'c'])
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"Recent keeps at least 1 value, got size={size}.")
        self.size = size
        self._values: OrderedDict[Hashable, _V] = OrderedDict()

    def get(self, key: Hashable) -> _V | None:
        """The value of ``key`` (now the most recent), or None."""
        if key not in self._values:
            return None
        self._values.move_to_end(key)
        return self._values[key]

    def put(self, key: Hashable, value: _V) -> _V:
        """Keep ``value`` for ``key`` as the most recent; return it."""
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.size:
            self._values.popitem(last=False)
        return value

    def values(self) -> list[_V]:
        """The values, least recent first."""
        return list(self._values.values())

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)
