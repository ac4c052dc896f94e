"""Every table function is on the accessor, with its own signature and help."""

from __future__ import annotations

import inspect
import pydoc

import pandas as pd
import pytest

import nbstats
from nbstats.accessor import CompareAccessor

#: Public functions that take no score table, and why they are not methods.
NOT_TABLE_FUNCTIONS = {
    "adjust_pvalues": "takes p-values",
    "critical_difference": "takes k and N (the accessor's reads the frame's shape)",
    "nemenyi_min_cases": "takes m (the accessor's reads the frame's width)",
    "letters": "takes a posthoc result (the accessor's runs posthoc first)",
    "race": "evaluates candidates on instances: it makes scores, it takes none",
    "memory_ceiling": "a setting",
    "set_memory_ceiling": "a setting",
}
#: Methods whose signature is the function's plus the long table's columns.
FOLD_PAIR_METHODS = {"correlated_ttest", "bayes_correlated_ttest"}


def public_functions() -> dict[str, object]:
    out = {}
    for name in nbstats.__all__:
        value = getattr(nbstats, name)
        if callable(value) and not isinstance(value, type):
            out[name] = value
    return out


def table_functions() -> dict[str, object]:
    return {
        name: f
        for name, f in public_functions().items()
        if next(iter(inspect.signature(f).parameters)) in {"scores", "data"}
    }


def pair_functions() -> dict[str, object]:
    return {
        name: f
        for name, f in public_functions().items()
        if list(inspect.signature(f).parameters)[:2] == ["a", "b"]
    }


def test_every_public_function_is_classified():
    classified = (
        set(table_functions()) | set(pair_functions()) | set(NOT_TABLE_FUNCTIONS)
    )
    assert set(public_functions()) - classified == set()


@pytest.mark.parametrize("name", sorted(table_functions()))
def test_table_functions_are_methods_with_their_own_signature(name):
    function = table_functions()[name]
    method = getattr(pd.DataFrame({"A": [1.0], "B": [2.0]}).compare, name)
    expected = inspect.signature(function)
    params = list(expected.parameters.values())[1:]
    assert inspect.signature(method) == expected.replace(parameters=params)


@pytest.mark.parametrize("name", sorted(pair_functions()))
def test_two_sample_functions_are_methods_on_column_names(name):
    function = pair_functions()[name]
    method = getattr(pd.DataFrame({"A": [1.0], "B": [2.0]}).compare, name)
    expected = inspect.signature(function)
    got = inspect.signature(method)
    if name == "bayes_hierarchical":  # the frame is data=
        params = [p for p in expected.parameters.values() if p.name != "data"]
        assert got == expected.replace(parameters=params)
    elif name in FOLD_PAIR_METHODS:  # plus the long table's columns
        assert set(expected.parameters) < set(got.parameters)
        assert {"on", "case", "algorithm", "score", "fold"} < set(got.parameters)
        assert got.return_annotation == expected.return_annotation
    else:
        assert got == expected


@pytest.mark.parametrize(
    "name", ["posthoc", "wilcoxon", "bayes_plackett_luce", "durbin"]
)
def test_help_shows_the_functions_documentation(name):
    method = getattr(pd.DataFrame({"A": [1.0]}).compare, name)
    text = pydoc.render_doc(method, renderer=pydoc.plaintext)
    function = getattr(nbstats, name)
    first_line = inspect.cleandoc(function.__doc__).splitlines()[0]
    assert first_line in text
    assert f"nbstats.{name}(" in text
    assert str(inspect.signature(method)).split(",")[0].strip("(") in text


def test_letters_takes_posthocs_arguments_but_control():
    got = inspect.signature(pd.DataFrame({"A": [1.0]}).compare.letters)
    expected = inspect.signature(nbstats.posthoc)
    assert list(got.parameters) == [
        p for p in expected.parameters if p not in {"scores", "control"}
    ]


@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("durbin", {}),
        ("skillings_mack", {}),
        ("bayes_plackett_luce", {"random_state": 0, "n_samples": 400}),
        ("friedman", {"tie_correction": True}),
    ],
)
def test_new_methods_equal_the_functions(name, kwargs):
    table = nbstats.datasets.load("demsar2006")
    assert getattr(table.compare, name)(**kwargs) == getattr(nbstats, name)(
        table, **kwargs
    )


def test_positional_arguments_still_reach_the_function():
    table = nbstats.datasets.load("demsar2006")
    assert table.compare.wilcoxon("C4.5", "C4.5+m") == nbstats.wilcoxon(
        table["C4.5"], table["C4.5+m"]
    )


def test_the_accessor_keeps_no_state_and_pandas_compare_still_works():
    left = pd.DataFrame({"A": [1, 2]})
    right = pd.DataFrame({"A": [1, 3]})
    assert left.compare(right).shape == (1, 2)
    assert vars(CompareAccessor(left)) == {"_obj": left}


def test_tab_completion_offers_the_keywords():
    pytest.importorskip("IPython")
    from IPython.core.completer import provisionalcompleter
    from IPython.core.interactiveshell import InteractiveShell

    # the process's shell if a test made one (a second, of a sibling class,
    # would be refused), else one of our own, cleared after
    ours = not InteractiveShell.initialized()
    shell = InteractiveShell.instance()
    try:
        shell.user_ns["table"] = nbstats.datasets.load("demsar2006")
        completer = shell.Completer
        for line, expected in [
            ("table.compare.posthoc(meth", "method="),
            ('table.compare.wilcoxon("C4.5", "C4.5+m", zero', "zero_method="),
            ("table.compare.bayes_plackett_luce(n_s", "n_samples="),
            ("table.compare.rank_ci(alp", "alpha="),
        ]:
            with provisionalcompleter():
                found = {c.text for c in completer.completions(line, len(line))}
            assert expected in found, line
    finally:
        shell.user_ns.pop("table", None)
        if ours:
            InteractiveShell.clear_instance()
