"""The df.compare accessor: pandas' method still works, nbstats' methods mirror."""

from __future__ import annotations

import inspect
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.accessor import CompareAccessor, _pandas_compare


@pytest.fixture
def pair():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["a", "b", "c"]})
    other = df.copy()
    other.loc[1, "x"] = 9.0
    other.loc[2, "y"] = "z"
    return df, other


def test_calling_it_is_pandas_compare(pair):
    df, other = pair
    pd.testing.assert_frame_equal(df.compare(other), _pandas_compare(df, other))
    pd.testing.assert_frame_equal(
        df.compare(other, align_axis=0, keep_shape=True, keep_equal=True),
        _pandas_compare(df, other, align_axis=0, keep_shape=True, keep_equal=True),
    )
    pd.testing.assert_frame_equal(
        df.compare(other, result_names=("left", "right")),
        _pandas_compare(df, other, result_names=("left", "right")),
    )


def test_pandas_errors_are_pandas_errors(pair):
    df, _ = pair
    with pytest.raises(ValueError, match="identically-labeled"):
        df.compare(df.iloc[:2])


def test_call_keeps_pandas_signature_and_docstring(table6):
    assert "other" in inspect.signature(table6.compare).parameters
    assert CompareAccessor.__call__.__doc__ == _pandas_compare.__doc__


def test_import_shows_no_warning():
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import nbstats"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == ""


def test_import_does_not_load_display_libraries():
    code = (
        "import sys, nbstats; "
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'nbconvert', 'seaborn', 'scipy.stats') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]"


def test_accessor_is_stateless(table6):
    acc = table6.compare
    assert vars(acc) == {"_obj": table6}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table6.compare.friedman()


@pytest.mark.parametrize(
    ("method", "function", "kwargs"),
    [
        ("friedman", nbstats.friedman, {"tie_correction": True}),
        ("rm_anova", nbstats.rm_anova, {"rank_transform": True}),
        ("posthoc", nbstats.posthoc, {"method": "holm", "control": "C4.5"}),
        ("posthoc", nbstats.posthoc, {"method": "wilcoxon", "adjust": "shaffer"}),
        ("rank_ci", nbstats.rank_ci, {"method": "id-nemenyi", "alpha": 0.1}),
        ("bayes_friedman", nbstats.bayes_friedman, {"s": 0.5}),
        ("bayes_posthoc", nbstats.bayes_posthoc, {"random_state": 0}),
    ],
)
def test_frame_methods_mirror_functions(table6, method, function, kwargs):
    assert getattr(table6.compare, method)(**kwargs) == function(table6, **kwargs)


@pytest.mark.parametrize(
    ("method", "function", "kwargs"),
    [
        ("wilcoxon", nbstats.wilcoxon, {"zero_method": "pratt"}),
        ("sign_test", nbstats.sign_test, {"alternative": "greater"}),
        ("ttest", nbstats.ttest, {}),
    ],
)
def test_pair_methods_mirror_functions(table6, method, function, kwargs):
    got = getattr(table6.compare, method)("C4.5", "C4.5+m", **kwargs)
    assert got == function(table6["C4.5"], table6["C4.5+m"], **kwargs)


def test_table_methods(table6):
    pd.testing.assert_frame_equal(table6.compare.ranks(), nbstats.ranks(table6))
    pd.testing.assert_series_equal(
        table6.compare.mean_ranks(higher_is_better=False),
        nbstats.mean_ranks(table6, higher_is_better=False),
    )
    assert table6.compare.critical_difference(0.10) == nbstats.critical_difference(
        4, 14, 0.10
    )


def test_long_data_through_accessor():
    folds = nbstats.datasets.load("uci_accuracy_folds")
    wide = folds.compare.score_table(
        case="dataset", algorithm="classifier", score="accuracy", aggregate="mean"
    )
    assert wide.shape == (54, 5)


def test_unknown_column_names_the_columns(table6):
    with pytest.raises(
        ValueError, match=r"no algorithm \(column\) named 'C5.0'.*C4.5\+m"
    ):
        table6.compare.wilcoxon("C4.5", "C5.0")
    with pytest.raises(TypeError, match="one column name"):
        table6.compare.wilcoxon(["C4.5"], "C4.5+m")


def test_duplicated_column_name_is_refused():
    df = pd.DataFrame(np.arange(6.0).reshape(3, 2), columns=["A", "A"])
    with pytest.raises(ValueError, match="more than once"):
        df.compare.wilcoxon("A", "A")


def test_integer_column_names():
    df = pd.DataFrame(np.random.default_rng(0).normal(size=(8, 3)))
    assert df.compare.wilcoxon(0, 1) == nbstats.wilcoxon(df[0], df[1])
    assert df.compare.posthoc(control="0", method="holm").control == "0"
    assert df.compare.posthoc(control=0, method="holm").control == "0"
