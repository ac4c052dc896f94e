"""outside_stacklevel points a warning at the user's line, however many
nbstats frames are between (the accessor, helpers)."""

from __future__ import annotations

import warnings

import pandas as pd

import nbstats
from nbstats.util.stacklevel import outside_stacklevel


def test_a_warning_from_deep_inside_points_at_this_file():
    # 4 differences: a 0.95 Hodges-Lehmann interval cannot be reached, which
    # hodges_lehmann (called by effect_size) warns about
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nbstats.effect_size([0.0, 0, 0, 0], [1.0, 2, 3, 4], effect="hodges-lehmann")
    (warning,) = [w for w in caught if "cannot be reached" in str(w.message)]
    assert warning.filename == __file__


def test_through_the_accessor_too():
    frame = pd.DataFrame({"A": [0.0, 0, 0, 0], "B": [1.0, 2, 3, 4]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame.compare.effect_size("A", "B", effect="hodges-lehmann")
    (warning,) = [w for w in caught if "cannot be reached" in str(w.message)]
    assert warning.filename == __file__


def test_called_from_outside_the_package_it_is_one():
    assert outside_stacklevel() == 1
