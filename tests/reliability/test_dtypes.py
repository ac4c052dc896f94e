"""One dtype rule for every entry point (docs/input-rules.md).

Each kind of column is given to every public function that reads scores:
table functions (the column ``"B"`` of a wide table), two-sample functions
(``b`` as a Series, and as a plain list or array), long data (the score
column) and the accessor. Accepted kinds must give the same result as the
same scores in float64; refused kinds a TypeError naming the column.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import fractions
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import nbstats

N = 8
A = [0.61, 0.72, 0.55, 0.80, 0.66, 0.71, 0.59, 0.77]
B = [0.65, 0.70, 0.58, 0.86, 0.69, 0.75, 0.58, 0.79]
C = [0.60, 0.74, 0.50, 0.81, 0.62, 0.70, 0.57, 0.78]
B_INT = [3, 5, 2, 8, 4, 6, 1, 7]  # integer-valued scores for integer kinds


def base(b: list[float] = B) -> pd.DataFrame:
    return pd.DataFrame(
        {"A": A, "B": b, "C": C},
        index=pd.Index([f"d{i}" for i in range(N)], name="case"),
    )


FAST = {"n_samples": 1000, "random_state": 0}

TABLE_FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "score_table": nbstats.score_table,
    "ranks": nbstats.ranks,
    "mean_ranks": nbstats.mean_ranks,
    "friedman": nbstats.friedman,
    "quade": nbstats.quade,
    "friedman_aligned": nbstats.friedman_aligned,
    "rm_anova": nbstats.rm_anova,
    "posthoc": nbstats.posthoc,
    "comparison_matrix[ttest]": lambda t: nbstats.comparison_matrix(t, test="ttest"),
    "conover": nbstats.conover,
    "conover[quade]": lambda t: nbstats.conover(t, ranks="quade"),
    "rank_ci": nbstats.rank_ci,
    "bayes_friedman": lambda t: nbstats.bayes_friedman(t, **FAST),
    "bayes_posthoc": lambda t: nbstats.bayes_posthoc(t, **FAST),
    "bayes_signrank_pairs": lambda t: nbstats.bayes_signrank_pairs(t, **FAST),
    "bayes_plackett_luce": lambda t: nbstats.bayes_plackett_luce(
        t, n_samples=400, random_state=0
    ),
    "accessor.friedman": lambda t: t.compare.friedman(),
    "analyze": lambda t: nbstats.analyze(t, bayes=False),
    "skillings_mack": nbstats.skillings_mack,
    "durbin": nbstats.durbin,
    "comparison_matrix": nbstats.comparison_matrix,
    "coverage": nbstats.coverage,
}

TWO_SAMPLE_FUNCTIONS: dict[str, Callable[[Any, Any], Any]] = {
    "ttest": nbstats.ttest,
    "wilcoxon": nbstats.wilcoxon,
    "sign_test": nbstats.sign_test,
    "effect_size[cohen-d]": lambda a, b: nbstats.effect_size(a, b, effect="cohen-d"),
    "effect_size[hodges-lehmann]": lambda a, b: nbstats.effect_size(
        a, b, effect="hodges-lehmann"
    ),
    "bayes_sign_test": lambda a, b: nbstats.bayes_sign_test(a, b, **FAST),
    "bayes_signrank": lambda a, b: nbstats.bayes_signrank(a, b, **FAST),
    "correlated_ttest": lambda a, b: nbstats.correlated_ttest(a, b, folds=N, runs=1),
    "bayes_correlated_ttest": lambda a, b: nbstats.bayes_correlated_ttest(
        a, b, folds=N, runs=1
    ),
}


#: Public callables that read no score column of their own.
NO_SCORES = {
    "RaceError",
    "adjust_pvalues",  # p-values
    "critical_difference",  # counts
    "nemenyi_min_cases",  # a count
    "fold_summary",  # counts folds
    "letters",  # a posthoc result
    "WilcoxonTest",  # the options of a test
    "race",  # scores returned by evaluate(): checked in the racing tests
    "correlated_pairs",  # long data: the score column path is tested below
    "dashboard",  # a table function: reads through score_table
    "report",  # idem: reads through score_table
    "report_text",  # idem
    "bayes_hierarchical",  # MCMC per call: its input checks in test_hierarchical
    "memory_ceiling",  # a setting, no scores
    "set_memory_ceiling",  # idem
}


def test_every_function_reading_scores_is_covered():
    """A new public function that reads scores must be added above."""
    public = {
        name
        for name in nbstats.__all__
        if callable(getattr(nbstats, name))
        and not isinstance(getattr(nbstats, name), type(nbstats))
    }
    covered = {name.split("[")[0] for name in [*TABLE_FUNCTIONS, *TWO_SAMPLE_FUNCTIONS]}
    missing = public - covered - NO_SCORES
    assert not missing, f"public functions without a dtype test: {missing}"


def _accessor_wilcoxon(a: pd.Series, b: pd.Series) -> Any:
    return pd.DataFrame({a.name: a, b.name: b}).compare.wilcoxon(a.name, b.name)


TWO_SAMPLE_FUNCTIONS["accessor.wilcoxon"] = _accessor_wilcoxon


@dataclasses.dataclass(frozen=True)
class Kind:
    name: str
    column: Callable[[], Any]  # the column B in this kind
    refused: str | None = None  # message fragment; None = accepted
    floats: list[float] | None = None  # the equivalent float64 scores
    missing: bool = False  # holds a missing score (nan_policy applies)


def _object(values: list[Any]) -> pd.Series:
    return pd.Series(values, dtype=object)


KINDS = [
    # accepted
    Kind("float32", lambda: pd.Series(B, dtype="float32"), floats=None),
    Kind("int64", lambda: pd.Series(B_INT), floats=[float(v) for v in B_INT]),
    Kind("uint8", lambda: pd.Series(B_INT, dtype="uint8"), floats=B_INT),
    Kind("Int64", lambda: pd.Series(B_INT, dtype="Int64"), floats=B_INT),
    Kind("Float64", lambda: pd.Series(B, dtype="Float64"), floats=B),
    Kind("object numbers", lambda: _object(B), floats=B),
    Kind(
        "object ints and floats",
        lambda: _object([int(v) if i % 2 else float(v) for i, v in enumerate(B_INT)]),
        floats=B_INT,
    ),
    Kind(
        "object fractions",
        lambda: _object([fractions.Fraction(v, 4) for v in B_INT]),
        floats=[v / 4 for v in B_INT],
    ),
    # missing values: nan_policy decides
    Kind(
        "Int64 with NA",
        lambda: pd.Series([*B_INT[:-1], None], dtype="Int64"),
        missing=True,
    ),
    Kind(
        "Float64 with NA",
        lambda: pd.Series([*B[:-1], pd.NA], dtype="Float64"),
        missing=True,
    ),
    Kind("object with None", lambda: _object([*B[:-1], None]), missing=True),
    # refused
    Kind("bool", lambda: pd.Series([v > 0.7 for v in B]), refused="booleans"),
    Kind(
        "boolean (nullable)",
        lambda: pd.Series([v > 0.7 for v in B], dtype="boolean"),
        refused="booleans",
    ),
    Kind("object bools", lambda: _object([v > 0.7 for v in B]), refused="booleans"),
    Kind("complex", lambda: pd.Series(B, dtype=complex), refused="complex"),
    Kind("object complex", lambda: _object([complex(v) for v in B]), refused="complex"),
    Kind("str", lambda: pd.Series([str(v) for v in B], dtype="str"), refused="strings"),
    Kind(
        "object numeric strings",
        lambda: _object([str(v) for v in B]),
        refused="strings",
    ),
    Kind("object mixed", lambda: _object([*B[:-1], "0.79"]), refused="strings"),
    Kind(
        "object decimals",
        lambda: _object([decimal.Decimal(str(v)) for v in B]),
        refused="Decimal",
    ),
    Kind("categorical", lambda: pd.Series(B, dtype="category"), refused="categorical"),
    Kind(
        "datetime",
        lambda: pd.Series(pd.date_range("2020", periods=N)),
        refused="holds dates",
    ),
    Kind(
        "timedelta",
        lambda: pd.Series(pd.to_timedelta(B_INT, unit="s")),
        refused="holds durations",
    ),
    Kind(
        "object timedelta",
        lambda: _object([datetime.timedelta(seconds=v) for v in B_INT]),
        refused="holds durations",
    ),
    Kind(
        "object np.timedelta64[ns]",
        lambda: _object([np.timedelta64(v, "ns") for v in B_INT]),
        refused="holds durations",
    ),
    Kind(
        "object np.timedelta64[s]",
        lambda: _object([np.timedelta64(v, "s") for v in B_INT]),
        refused="holds durations",
    ),
    Kind(
        "object dates",
        lambda: _object([datetime.date(2020, 1, v) for v in B_INT]),
        refused="holds dates",
    ),
]
B32 = np.asarray(B, dtype="float32").astype(float).tolist()
KINDS = [
    dataclasses.replace(k, floats=B32) if k.name == "float32" else k for k in KINDS
]


def _table_of(kind: Kind) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    table = base()
    table["B"] = kind.column().set_axis(table.index)
    reference = None
    if kind.floats is not None:
        reference = base([float(v) for v in kind.floats])
    return table, reference


def _quiet(function: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # e.g. nan_policy='omit'
        return function()


def _same(left: Any, right: Any) -> None:
    if isinstance(left, pd.DataFrame):
        pd.testing.assert_frame_equal(left, right)
    elif isinstance(left, pd.Series):
        pd.testing.assert_series_equal(left, right)
    else:
        assert repr(left) == repr(right)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
@pytest.mark.parametrize("function", TABLE_FUNCTIONS.values(), ids=TABLE_FUNCTIONS)
def test_table_entry_points(function, kind):
    table, reference = _table_of(kind)
    if kind.refused:
        with pytest.raises(TypeError, match=kind.refused) as info:
            function(table)
        assert "'B'" in str(info.value) or "'acc'" in str(info.value)
    elif kind.missing and function in (nbstats.skillings_mack, nbstats.coverage):
        # missing cells are its input: a NA is a missing cell, as NaN is
        as_nan = table.astype(object).where(table.notna(), np.nan).astype(float)
        _same(function(table), function(as_nan))
    elif kind.missing:
        with pytest.raises(ValueError, match="missing scores"):
            function(table)
    else:
        _same(function(table), function(reference))


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
@pytest.mark.parametrize(
    "function", TWO_SAMPLE_FUNCTIONS.values(), ids=TWO_SAMPLE_FUNCTIONS
)
def test_two_sample_entry_points(function, kind):
    table, reference = _table_of(kind)
    if kind.refused:
        with pytest.raises(TypeError, match=kind.refused) as info:
            function(table["A"], table["B"])
        assert "'B'" in str(info.value)
    elif kind.missing:
        with pytest.raises(ValueError, match="missing scores"):
            function(table["A"], table["B"])
    else:
        _same(
            function(table["A"], table["B"]),
            function(reference["A"], reference["B"]),
        )


def _has_numpy_form(kind: Kind) -> bool:
    return not isinstance(kind.column().dtype, pd.api.extensions.ExtensionDtype)


NUMPY_KINDS = [k for k in KINDS if _has_numpy_form(k)]


@pytest.mark.parametrize("kind", NUMPY_KINDS, ids=[k.name for k in NUMPY_KINDS])
def test_plain_arrays_follow_the_same_rule(kind):
    """b as a NumPy array and as a list: the same decision as the Series."""
    column = kind.column()
    for plain in (column.to_numpy(), column.tolist()):
        if kind.refused:
            with pytest.raises(TypeError, match=r"^b holds"):
                nbstats.wilcoxon(A, plain)
        elif kind.missing:
            with pytest.raises(ValueError, match="missing scores"):
                nbstats.wilcoxon(A, plain)
        else:
            _same(nbstats.wilcoxon(A, plain), nbstats.wilcoxon(A, kind.floats))


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_long_score_column(kind):
    """The score column of long data, every value of this kind."""
    values = kind.column()
    long = pd.DataFrame(
        {
            "case": [f"d{i}" for i in range(N)] * 2,
            "algo": ["X"] * N + ["Y"] * N,
            "acc": pd.concat([values, values.iloc[::-1]], ignore_index=True),
        }
    )

    def call(data: pd.DataFrame) -> pd.DataFrame:
        return nbstats.score_table(data, case="case", algorithm="algo", score="acc")

    if kind.refused:
        with pytest.raises(TypeError, match=kind.refused) as info:
            call(long)
        assert "score column 'acc'" in str(info.value)
    elif kind.missing:
        with pytest.raises(ValueError, match="missing scores"):
            call(long)
    else:
        floats = pd.Series([float(v) for v in kind.floats])
        reference = long.assign(
            acc=pd.concat([floats, floats.iloc[::-1]], ignore_index=True)
        )
        _same(call(long), call(reference))


@pytest.mark.parametrize("kind", [k for k in KINDS if k.missing], ids=lambda k: k.name)
def test_missing_values_follow_nan_policy(kind):
    table, _ = _table_of(kind)
    complete = base().iloc[:-1]
    res = _quiet(lambda: nbstats.friedman(table, nan_policy="omit"))
    expected = nbstats.friedman(complete.assign(B=table["B"].iloc[:-1].astype(float)))
    _same(res, expected)
    res = _quiet(lambda: nbstats.ttest(table["A"], table["B"], nan_policy="omit"))
    expected = nbstats.ttest(complete["A"], table["B"].iloc[:-1].astype(float))
    assert (res.statistic, res.pvalue) == (expected.statistic, expected.pvalue)


def test_a_list_keeps_its_booleans():
    # np.asarray([True, 2]) would be [1, 2]: a list is read value by value
    with pytest.raises(TypeError, match="booleans"):
        nbstats.ttest([True, 2.0, 3.0], [1.0, 2.0, 4.0])
    with pytest.raises(TypeError, match="booleans"):
        nbstats.friedman([[True, 2.0], [3.0, 4.0]])


def test_huge_python_integer_is_a_clear_error():
    with pytest.raises(ValueError, match="too large for float64"):
        nbstats.ttest([10**400, 1, 2], [1, 2, 3])
