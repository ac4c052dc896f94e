"""``import nbstats`` stays light (issue 28 item 5).

Structural: after ``import pandas``, ``import nbstats`` loads none of the
heavy libraries (checked in ``sys.modules`` of a fresh interpreter, so it
does not depend on the machine's speed); the public names still resolve,
lazily. Plus a generous wall-time bound: 3x the 0.3 s target, or on a busy
machine the target's ratio to ``import pandas``. The timing itself is
measured by ``benchmarks/bench_import.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import nbstats

#: Loaded on first use only, never by ``import nbstats``.
HEAVY = (
    "scipy.interpolate",
    "scipy.optimize",
    "scipy.special",
    "numba",
    "matplotlib",
    "ipywidgets",
    "nbconvert",
    "seaborn",
)
#: Subpackages that ``import nbstats`` must not load (PEP 562 attributes).
LAZY_SUBPACKAGES = ("nbstats.simulate", "nbstats.datasets", "nbstats.plots")
TARGET_SECONDS = 0.3
#: The target as a ratio to ``import pandas``: the issue's 0.62 s was, if
#: 2.6 times pandas as measured here before the fix, against pandas' 0.24 s;
#: 0.3 s is then 1.25 times pandas (after the fix: about 0.5 times).
MAX_RATIO_TO_PANDAS = 1.25

_CODE = """
import json, sys, time
start = time.perf_counter()
import pandas
middle = time.perf_counter()
import nbstats
seconds = time.perf_counter() - middle
print(json.dumps({"seconds": seconds, "pandas": middle - start,
                  "modules": sorted(sys.modules)}))
"""


def _fresh_import() -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _CODE], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def fresh() -> dict:
    return _fresh_import()


@pytest.mark.parametrize("module", HEAVY + LAZY_SUBPACKAGES)
def test_import_nbstats_does_not_load(fresh, module):
    loaded = [m for m in fresh["modules"] if m == module or m.startswith(module + ".")]
    assert not loaded, f"import nbstats loaded {len(loaded)} modules: {loaded[:5]}"


def test_import_nbstats_within_three_times_the_target():
    # best of three fresh interpreters: a busy machine slows some runs, not
    # all; and a machine busy throughout slows pandas' import alike, so the
    # ratio to it in the same interpreter stands in for the seconds
    runs = [_fresh_import() for _ in range(3)]
    best = min(run["seconds"] for run in runs)
    ratio = min(run["seconds"] / run["pandas"] for run in runs)
    assert best <= 3 * TARGET_SECONDS or ratio <= MAX_RATIO_TO_PANDAS, (
        f"import nbstats took {best:.2f} s, {ratio:.2f} times import pandas"
    )


@pytest.mark.parametrize("name", nbstats.__all__)
def test_public_names_resolve_lazily(name):
    assert getattr(nbstats, name) is not None
    assert name in dir(nbstats)


def test_lazy_names_are_the_defining_objects():
    from nbstats.simulate import challenge_scores
    from nbstats.stats.frequentist import friedman

    assert nbstats.friedman is friedman
    assert nbstats.simulate.challenge_scores is challenge_scores
    assert nbstats.plots.__name__ == "nbstats.plots"


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'friedmann'"):
        nbstats.friedmann
