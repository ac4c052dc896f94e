"""One name per concept: the renamed arguments and the decorator that keeps
the old keywords working (``nbstats.util.arguments.renamed``).

For every renamed argument of the public API: the new name works; the old
name gives the same result bit for bit with a DeprecationWarning naming the
new one; both together are a TypeError; ``inspect.signature`` of the function
and of its ``df.compare`` method show the new name only.
"""

from __future__ import annotations

import inspect
import pickle
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.effect_size import hodges_lehmann
from nbstats.util.arguments import RENAMED_ATTRIBUTE, renamed

CONVENTIONS = Path(__file__).resolve().parents[2] / "docs" / "guide" / "conventions.md"

# -- the decorator --------------------------------------------------------------


@renamed(confidence_level="level", n_boot="n_resamples")
def _interval(x, level=0.95, *, n_resamples=10):
    """Docstring kept."""
    return x, level, n_resamples


def test_new_names_work_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _interval(1, level=0.9, n_resamples=3) == (1, 0.9, 3)
        assert _interval(1, 0.8) == (1, 0.8, 10)


def test_old_name_is_passed_on_with_a_warning_naming_the_new():
    with pytest.warns(DeprecationWarning, match="is deprecated") as caught:
        got = _interval(1, confidence_level=0.9, n_boot=3)
    assert got == (1, 0.9, 3)
    messages = sorted(str(w.message) for w in caught)
    assert messages == [
        "_interval(): confidence_level= is deprecated; use level= (same meaning).",
        "_interval(): n_boot= is deprecated; use n_resamples= (same meaning).",
    ]


def test_the_warning_points_at_the_caller():
    with pytest.warns(DeprecationWarning, match="n_boot=") as caught:
        _interval(1, n_boot=3)
    assert caught[0].filename == __file__


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1,), {"confidence_level": 0.9, "level": 0.9}),
        ((1, 0.9), {"confidence_level": 0.9}),  # the new name by position
        ((1,), {"n_boot": 3, "n_resamples": 3}),
    ],
)
def test_old_and_new_together_is_a_type_error(args, kwargs):
    old = next(k for k in kwargs if k in ("confidence_level", "n_boot"))
    new = {"confidence_level": "level", "n_boot": "n_resamples"}[old]
    with pytest.raises(TypeError, match=rf"both {old}= .* and {new}=; give only"):
        _interval(*args, **kwargs)


def test_signature_doc_and_name_are_the_functions():
    assert list(inspect.signature(_interval).parameters) == [
        "x",
        "level",
        "n_resamples",
    ]
    assert _interval.__doc__ == "Docstring kept."
    assert _interval.__name__ == "_interval"
    assert getattr(_interval, RENAMED_ATTRIBUTE) == {
        "confidence_level": "level",
        "n_boot": "n_resamples",
    }


def test_unknown_keywords_are_still_refused_by_the_function():
    with pytest.raises(TypeError, match="unexpected keyword argument 'confidence'"):
        _interval(1, confidence=0.9)


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({}, "at least one old=new pair"),
        ({"old": "missing"}, "'missing' is not one of its parameters"),
        ({"level": "x"}, "the old name 'level' is still a parameter"),
        ({"a": "level", "b": "level"}, "two old names for level"),
        ({"old": "kwargs"}, "'kwargs' cannot be given by keyword"),
    ],
)
def test_a_renaming_that_cannot_work_is_refused_at_decoration(mapping, message):
    def f(x, level=0.95, **kwargs):
        return x

    with pytest.raises(TypeError, match=re.escape(message)):
        renamed(**mapping)(f)


# -- the public API -------------------------------------------------------------

RNG = np.random.default_rng(20260127)
A = RNG.normal(0.80, 0.05, 30)
B = A + RNG.normal(0.01, 0.02, 30)
TABLE = pd.DataFrame(
    RNG.normal(0.0, 1.0, (12, 4)) + np.array([0.0, 0.3, 0.6, 0.9]),
    columns=["w", "x", "y", "z"],
)
FRAME = pd.DataFrame({"A": A, "B": B})

#: (function name, positional arguments, other keywords, old, new, value).
RENAMES = [
    ("ttest", (A, B), {}, "confidence_level", "level", 0.9),
    ("correlated_ttest", (A, B), {"folds": 10}, "confidence_level", "level", 0.8),
    ("effect_size", (A, B), {"effect": "hodges-lehmann"}, "confidence_level", "level", 0.9),
    ("effect_size", (A, B), {}, "kind", "effect", "cohen-d"),
    ("rank_ci", (TABLE,), {"method": "bootstrap", "random_state": 3}, "n_boot", "n_resamples", 40),
    ("nemenyi_min_cases", (), {"alpha": 0.1}, "m", "n_algorithms", 7),
]  # fmt: skip
IDS = [f"{name}-{old}" for name, _, _, old, _, _ in RENAMES]


def _same(x, y) -> bool:
    """Bit for bit: the pickled results are the same bytes."""
    return pickle.dumps(x) == pickle.dumps(y)


@pytest.mark.parametrize(
    ("name", "args", "other", "old", "new", "value"), RENAMES, ids=IDS
)
def test_old_name_gives_the_same_result_bit_for_bit(name, args, other, old, new, value):
    function = getattr(nbstats, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = function(*args, **other, **{new: value})
    with pytest.warns(DeprecationWarning, match=rf"{old}= is deprecated; use {new}="):
        got = function(*args, **other, **{old: value})
    assert _same(got, expected)
    default = inspect.signature(function).parameters[new].default
    if default is not inspect.Parameter.empty:  # the value was used, not the default
        assert not _same(function(*args, **other), expected)


@pytest.mark.parametrize(
    ("name", "args", "other", "old", "new", "value"), RENAMES, ids=IDS
)
def test_old_and_new_name_together_is_a_type_error(name, args, other, old, new, value):
    function = getattr(nbstats, name)
    with pytest.raises(TypeError, match=rf"both {old}= \(its old name\) and {new}="):
        function(*args, **other, **{old: value, new: value})


@pytest.mark.parametrize(
    ("name", "args", "other", "old", "new", "value"), RENAMES, ids=IDS
)
def test_signature_shows_the_new_name_only(name, args, other, old, new, value):
    parameters = inspect.signature(getattr(nbstats, name)).parameters
    assert new in parameters
    assert old not in parameters


ACCESSOR = [(name, old, new) for name, _, _, old, new, _ in RENAMES]
ACCESSOR = [r for r in ACCESSOR if r[0] != "nemenyi_min_cases"]  # takes the frame's m


@pytest.mark.parametrize(("name", "old", "new"), ACCESSOR)
def test_accessor_signature_shows_the_new_name_only(name, old, new):
    parameters = inspect.signature(getattr(FRAME.compare, name)).parameters
    assert new in parameters
    assert old not in parameters


def test_accessor_passes_an_old_name_on_with_the_warning():
    expected = FRAME.compare.ttest("A", "B", level=0.9)  # names A and B
    with pytest.warns(DeprecationWarning, match="use level="):
        got = FRAME.compare.ttest("A", "B", confidence_level=0.9)
    assert _same(got, expected)
    with pytest.warns(DeprecationWarning, match="use n_resamples="):
        got = TABLE.compare.rank_ci(method="bootstrap", n_boot=40, random_state=3)
    assert _same(
        got, nbstats.rank_ci(TABLE, method="bootstrap", n_resamples=40, random_state=3)
    )


def test_hodges_lehmann_takes_level_too():
    d = B - A
    expected = hodges_lehmann(d, level=0.9)
    with pytest.warns(DeprecationWarning, match="use level="):
        assert _same(hodges_lehmann(d, confidence_level=0.9), expected)
    assert expected.confidence_level == 0.9  # the result's attribute keeps its name


# -- one name per concept --------------------------------------------------------

#: The old names of each concept's one name (docs/guide/conventions.md).
OLD_NAMES = {"confidence_level": "level", "n_boot": "n_resamples", "kind": "effect"}


def _public_functions():
    out = {}
    for name in nbstats.__all__:
        value = getattr(nbstats, name)
        if callable(value) and not isinstance(value, type) and name != "report":
            out[name] = value
    out["report"] = nbstats.reporting.report
    return out


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_no_public_function_takes_an_old_name(old):
    allowed = {"dashboard"} if old == "kind" else set()  # kind: which dashboard
    takers = {
        name
        for name, f in _public_functions().items()
        if old in inspect.signature(f).parameters
    }
    assert takers <= allowed


def test_every_renaming_is_in_the_conventions_table():
    text = CONVENTIONS.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    for name, f in _public_functions().items():
        for old, new in getattr(f, RENAMED_ATTRIBUTE, {}).items():
            assert any(f"`{new}`" in row and f"`{old}`" in row for row in rows), (
                f"{name}: {old} -> {new} is not in a row of {CONVENTIONS.name}"
            )


def test_the_module_sits_below_every_room():
    from tests.architecture_helpers import imports_of, read_package

    package = read_package(Path(nbstats.__file__).parent)
    assert imports_of(package, "nbstats.util.arguments", "nbstats") == []
