"""nbstats.util.recent.Recent: the last few values by key.

Oracle: a list of keys in order of use, the least recent dropped first, the
behaviour of an LRU cache written out by hand below.
"""

from __future__ import annotations

import random

import pytest

from nbstats.util.recent import Recent


def test_it_keeps_the_most_recently_used_keys():
    rng = random.Random(3)
    kept, order, values = Recent(4), [], {}
    for step in range(500):
        key = rng.randrange(8)
        if rng.random() < 0.5:
            found = kept.get(key)
            assert found == (values[key] if key in order else None)
            if key in order:
                order.remove(key)
                order.append(key)
        else:
            assert kept.put(key, step) == step
            values[key] = step
            if key in order:
                order.remove(key)
            order.append(key)
            del order[:-4]
        assert list(kept) == order and len(kept) == len(order)
        assert kept.values() == [values[k] for k in order]


def test_a_store_of_nothing_is_refused():
    with pytest.raises(ValueError, match="at least 1 value, got size=0"):
        Recent(0)


def test_a_kept_none_is_found_and_made_recent():
    kept = Recent(2)
    kept.put("too few cases", None)
    kept.put("b", 2)
    assert "too few cases" in kept and kept.get("too few cases") is None
    kept.put("c", 3)  # forgets "b", not the None just used
    assert list(kept) == ["too few cases", "c"]
