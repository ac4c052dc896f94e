"""``import nbstats`` stays light (issue 28 item 5, issue 37 item 5).

Structural: after ``import pandas``, ``import nbstats`` loads the accessor
and nothing else of nbstats (a fixed set of four modules), none of the heavy
libraries, and no module outside nbstats (checked in ``sys.modules`` of a
fresh interpreter, so it does not depend on the machine's speed); the public
names and every accessor method still resolve, lazily, to the functions
themselves. A first call loads its function's module, not its package's
siblings. Plus a generous wall-time bound: 3x the 0.15 s target, or on a
busy machine the target's ratio to ``import pandas``. The timing itself is
measured by ``benchmarks/bench_import.py``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys

import pandas as pd
import pytest

import nbstats
from nbstats.accessor import CompareAccessor, _Lazy

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
#: The nbstats modules ``import nbstats`` loads: the package, the accessor it
#: registers, and the lazy lookup of both.
IMPORTED = {"nbstats", "nbstats.accessor", "nbstats.util", "nbstats.util.lazy"}
TARGET_SECONDS = 0.15
#: The target as a ratio to ``import pandas``: issue 28's 0.3 s was 1.25
#: times pandas' 0.24 s as measured here; issue 37's 0.15 s is then 0.625
#: times pandas (with the lazy accessor: about 0.05 times).
MAX_RATIO_TO_PANDAS = 0.625

_CODE = """
import json, sys, time
start = time.perf_counter()
import pandas
middle = time.perf_counter()
before = set(sys.modules)
import nbstats
seconds = time.perf_counter() - middle
print(json.dumps({"seconds": seconds, "pandas": middle - start,
                  "modules": sorted(sys.modules),
                  "added": sorted(set(sys.modules) - before)}))
"""

#: A first call of each kind: the nbstats modules it may not load.
_FIRST_CALL = """
import json, sys
import numpy as np, pandas as pd
import nbstats
table = pd.DataFrame(np.arange(24.0).reshape(6, 4) % 7, columns=list("ABCD"))
{call}
print(json.dumps(sorted(m for m in sys.modules if m.startswith("nbstats"))))
"""


def _fresh_import() -> dict:
    return _run(_CODE)


def _run(code: str) -> dict | list:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def fresh() -> dict:
    return _fresh_import()


@pytest.mark.parametrize("module", HEAVY + LAZY_SUBPACKAGES)
def test_import_nbstats_does_not_load(fresh, module):
    loaded = [m for m in fresh["modules"] if m == module or m.startswith(module + ".")]
    assert not loaded, f"import nbstats loaded {len(loaded)} modules: {loaded[:5]}"


def test_import_nbstats_loads_only_the_accessor(fresh):
    ours = {m for m in fresh["modules"] if m.split(".")[0] == "nbstats"}
    assert ours == IMPORTED


def test_import_nbstats_loads_nothing_outside_nbstats(fresh):
    # pandas has loaded numpy and the standard library modules nbstats uses
    others = [m for m in fresh["added"] if m.split(".")[0] != "nbstats"]
    assert others == []


@pytest.mark.parametrize(
    ("call", "not_loaded"),
    [
        # a frequentist test loads no Bayesian module, no result of another
        # test, no other frequentist test, and not the report or dashboard
        (
            "nbstats.friedman(table)",
            (
                "nbstats.stats.bayes",
                "nbstats.results.bayes",
                "nbstats.stats.frequentist.posthoc",
                "nbstats.reporting",
                "nbstats.widgets",
                "nbstats.plots",
            ),
        ),
        (
            "table.compare.wilcoxon('A', 'B')",
            ("nbstats.stats.bayes", "nbstats.stats.frequentist.friedman"),
        ),
        (
            "nbstats.bayes_sign_test(table['A'], table['B'])",
            ("nbstats.stats.frequentist", "nbstats.reporting", "nbstats.widgets"),
        ),
    ],
)
def test_a_first_call_loads_its_own_module_only(call, not_loaded):
    loaded = _run(_FIRST_CALL.replace("{call}", call))
    wrong = [m for m in loaded if m.startswith(not_loaded)]
    assert wrong == [], f"{call} loaded {wrong[:5]}"


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


#: The accessor's methods as ``import nbstats`` leaves them, in a fresh
#: interpreter (this one may have resolved some already): each generated
#: method's module and function, None for a written one.
_PLACEHOLDERS = """
import json
import nbstats
from nbstats.accessor import CompareAccessor, _Lazy
print(json.dumps({
    name: value.module and [value.module, value.function]
    for name, value in vars(CompareAccessor).items() if isinstance(value, _Lazy)
}))
"""
#: Written methods whose parameters are their own (not a function's).
OWN_PARAMETERS = {"cd_diagram", "critical_difference", "nemenyi_min_cases"}
#: Written methods and the function whose parameters they take.
WRITTEN = {
    "letters": "posthoc",
    "correlated_ttest": "correlated_ttest",
    "bayes_correlated_ttest": "bayes_correlated_ttest",
    "bayes_hierarchical": "bayes_hierarchical",
}


@pytest.fixture(scope="module")
def placeholders() -> dict:
    return _run(_PLACEHOLDERS)


def test_every_method_waits_for_its_first_lookup(placeholders):
    public = {n for n in dir(CompareAccessor) if not n.startswith("_")}
    assert set(placeholders) == public - OWN_PARAMETERS
    assert {n for n, v in placeholders.items() if v is None} == set(WRITTEN)


def test_every_generated_method_names_its_public_function(placeholders):
    # the module a method names defines the very function nbstats exports
    for name, target in placeholders.items():
        if target is not None:
            module, function = target
            assert function == name
            assert getattr(importlib.import_module(module), name) is getattr(
                nbstats, name
            ), name


@pytest.mark.parametrize(
    "name", sorted(n for n in dir(CompareAccessor) if not n.startswith("_"))
)
def test_every_method_resolves_with_its_functions_signature(name):
    method = getattr(pd.DataFrame({"A": [1.0], "B": [2.0]}).compare, name)
    assert callable(method)
    assert not isinstance(vars(CompareAccessor)[name], _Lazy)  # resolved once
    if name in OWN_PARAMETERS:
        return
    got = inspect.signature(method)
    function = getattr(nbstats, WRITTEN.get(name, name))
    expected = list(inspect.signature(function).parameters)
    if name in WRITTEN:  # less the frame (and control=) it fills in
        filled = {"scores", "data", "control"}
        assert [p for p in expected if p not in filled] == [
            p for p in got.parameters if p in expected
        ]
        return
    if expected[0] in {"scores", "data"}:  # the frame is the first argument
        expected = expected[1:]
    assert list(got.parameters) == expected
    assert got == inspect.signature(function).replace(
        parameters=[inspect.signature(function).parameters[p] for p in expected]
    )


def test_a_resolved_method_is_the_function_with_the_frame_filled_in():
    table = nbstats.datasets.load("demsar2006")
    assert table.compare.friedman() == nbstats.friedman(table)
    assert table.compare.wilcoxon("C4.5", "C4.5+m") == nbstats.wilcoxon(
        table["C4.5"], table["C4.5+m"]
    )
