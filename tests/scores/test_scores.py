"""Score tables (nbstats/scores/table.py): input forms, ranks and refused input."""

from __future__ import annotations

import dataclasses
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

import nbstats
from nbstats.stats.comparison import COMPARISON_TESTS
from nbstats.stats.frequentist.posthoc import POSTHOC_METHODS

# --- input forms ----------------------------------------------------------------


def wide_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {"A": [0.8, 0.7, 0.9], "B": [0.85, 0.6, 0.9], "C": [1, 0, 1]},
        index=pd.Index(["iris", "wine", "zoo"], name="data set"),
    )


def test_wide_dataframe():
    df = wide_frame()
    before = df.copy()
    table = nbstats.score_table(df)
    assert table is not df
    assert list(table.index) == ["iris", "wine", "zoo"]
    assert table.index.name == "data set"
    assert list(table.columns) == ["A", "B", "C"]
    assert table.columns.name == "algorithm"
    assert (table.dtypes == np.float64).all()
    np.testing.assert_array_equal(table.to_numpy(), df.to_numpy(dtype=float))
    # the input is not modified, not even its axis names or int column
    pd.testing.assert_frame_equal(df, before)
    table.iloc[0, 0] = -1.0
    pd.testing.assert_frame_equal(df, before)


def test_wide_dataframe_without_names_gets_default_axis_names():
    df = pd.DataFrame({"x": [1.0, 2.0], "y": [3.0, 4.0]}, index=["p", "q"])
    table = nbstats.score_table(df)
    assert table.index.name == "case"
    assert table.columns.name == "algorithm"
    assert df.index.name is None
    assert df.columns.name is None


@pytest.mark.parametrize(
    "data",
    [
        np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        np.array([[1, 2, 3], [4, 5, 6]]),
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
    ],
    ids=["float-array", "int-array", "nested-list"],
)
def test_two_dimensional_array(data):
    table = nbstats.score_table(data)
    assert list(table.index) == ["case1", "case2"]
    assert list(table.columns) == ["alg1", "alg2", "alg3"]
    assert table.index.name == "case"
    assert table.columns.name == "algorithm"
    assert (table.dtypes == np.float64).all()
    np.testing.assert_array_equal(table.to_numpy(), [[1, 2, 3], [4, 5, 6]])


def long_frame() -> pd.DataFrame:
    """Three folds per (case, algorithm); names deliberately not sorted."""
    rng = np.random.default_rng(0)
    cases = ["zoo", "adult", "iris"]
    algorithms = ["SVM", "CART", "NB"]
    rows = [
        {"data": c, "algo": a, "fold": f, "acc": float(rng.uniform(0.5, 1.0))}
        for c in cases
        for f in range(3)
        for a in algorithms
    ]
    return pd.DataFrame(rows)


def test_long_data_without_aggregate_keeps_first_appearance_order():
    df = pd.DataFrame(
        {
            "data": ["zoo", "zoo", "adult", "adult", "iris", "iris"],
            "algo": ["SVM", "CART", "CART", "SVM", "SVM", "CART"],
            "acc": [0.9, 0.8, 0.7, 0.75, 0.6, 0.65],
        }
    )
    before = df.copy()
    table = nbstats.score_table(df, case="data", algorithm="algo", score="acc")
    expected = pd.DataFrame(
        [[0.9, 0.8], [0.75, 0.7], [0.6, 0.65]],
        index=pd.Index(["zoo", "adult", "iris"], name="data"),
        columns=pd.Index(["SVM", "CART"], name="algo"),
    )
    pd.testing.assert_frame_equal(table, expected)
    pd.testing.assert_frame_equal(df, before)


@pytest.mark.parametrize("aggregate", ["mean", "median"])
def test_long_data_aggregate(aggregate):
    df = long_frame()
    before = df.copy()
    table = nbstats.score_table(
        df, case="data", algorithm="algo", score="acc", aggregate=aggregate
    )
    expected = (
        df.groupby(["data", "algo"])["acc"]
        .agg(aggregate)
        .unstack("algo")
        .reindex(index=["zoo", "adult", "iris"], columns=["SVM", "CART", "NB"])
    )
    pd.testing.assert_frame_equal(table, expected)
    assert table.index.name == "data"
    assert table.columns.name == "algo"
    pd.testing.assert_frame_equal(df, before)


def test_long_data_median_differs_from_mean():
    df = pd.DataFrame(
        {
            "c": ["x"] * 6 + ["y"] * 2,
            "a": ["A", "A", "A", "B", "B", "B", "A", "B"],
            "s": [0.0, 0.1, 0.9, 0.5, 0.5, 0.5, 0.2, 0.3],
        }
    )
    mean = nbstats.score_table(df, case="c", algorithm="a", score="s", aggregate="mean")
    median = nbstats.score_table(
        df, case="c", algorithm="a", score="s", aggregate="median"
    )
    assert mean.loc["x", "A"] == pytest.approx(1.0 / 3)
    assert median.loc["x", "A"] == pytest.approx(0.1)


# --- ranks ----------------------------------------------------------------------


HAND = [
    [0.9, 0.8, 0.9, 0.7],
    [0.5, 0.7, 0.6, 0.7],
    [0.3, 0.3, 0.3, 0.3],
    [0.1, 0.2, 0.3, 0.4],
]


def test_ranks_one_is_best_with_average_ties():
    r = nbstats.ranks(HAND)
    expected = [
        [1.5, 3.0, 1.5, 4.0],
        [4.0, 1.5, 3.0, 1.5],
        [2.5, 2.5, 2.5, 2.5],
        [4.0, 3.0, 2.0, 1.0],
    ]
    np.testing.assert_array_equal(r.to_numpy(), expected)
    np.testing.assert_array_equal(
        r.to_numpy(), rankdata(-np.array(HAND), method="average", axis=1)
    )
    assert list(r.columns) == ["alg1", "alg2", "alg3", "alg4"]
    pd.testing.assert_series_equal(
        nbstats.mean_ranks(HAND),
        pd.Series(
            np.mean(expected, axis=0),
            index=pd.Index(["alg1", "alg2", "alg3", "alg4"], name="algorithm"),
            name="mean rank",
        ),
    )


def test_ranks_lower_is_better():
    r = nbstats.ranks(HAND, higher_is_better=False)
    np.testing.assert_array_equal(
        r.to_numpy(), rankdata(np.array(HAND), method="average", axis=1)
    )
    assert r.iloc[3].tolist() == [1.0, 2.0, 3.0, 4.0]
    pd.testing.assert_frame_equal(r, nbstats.ranks(-np.array(HAND)))


def test_ranks_keep_labels():
    df = wide_frame()
    r = nbstats.ranks(df)
    assert list(r.index) == list(df.index)
    assert list(r.columns) == list(df.columns)
    assert r.loc["zoo"].tolist() == [2.5, 2.5, 1.0]


# --- bad score tables -----------------------------------------------------------


def with_nan() -> pd.DataFrame:
    return pd.DataFrame(
        {"A": [0.8, 0.7, 0.9], "B": [0.85, np.nan, 0.9]},
        index=pd.Index(["d1", "d2", "d3"], name="case"),
    )


TABLE_FUNCTIONS = {
    "score_table": nbstats.score_table,
    "ranks": nbstats.ranks,
    "mean_ranks": nbstats.mean_ranks,
    "friedman": nbstats.friedman,
    "rm_anova": nbstats.rm_anova,
    "posthoc": nbstats.posthoc,
}


@pytest.fixture(params=list(TABLE_FUNCTIONS))
def table_function(request):
    """Every function reading a score table refuses bad input the same way."""
    return TABLE_FUNCTIONS[request.param]


def test_nan_names_the_cell(table_function):
    with pytest.raises(ValueError, match=re.escape("missing scores at")) as info:
        table_function(with_nan())
    assert "('d2', 'B')" in str(info.value)
    assert "nan_policy='omit'" in str(info.value)


def test_nan_in_array_names_the_cell(table_function):
    with pytest.raises(ValueError, match=re.escape("('case2', 'alg1')")):
        table_function([[1.0, 2.0], [np.nan, 3.0], [4.0, 5.0]])


def test_none_in_nested_list_is_a_missing_score():
    # None in a list of lists is a missing score, as it is for nbstats.wilcoxon
    # ([1.0, None] there is reported as a missing score); alg1 holds only
    # numbers and must not be called non-numeric
    with pytest.raises(ValueError, match=re.escape("missing scores at")) as info:
        nbstats.score_table([[1.0, None], [2.0, 3.0], [4.0, 5.0]])
    assert "('case1', 'alg2')" in str(info.value)
    with pytest.raises(ValueError, match=re.escape("missing scores at")):
        nbstats.wilcoxon([1.0, None, 4.0], [2.0, 3.0, 5.0])


def test_nan_omit_drops_incomplete_cases_and_warns():
    with pytest.warns(UserWarning, match="dropped 1 of 3 cases"):
        table = nbstats.score_table(with_nan(), nan_policy="omit")
    assert list(table.index) == ["d1", "d3"]
    with pytest.warns(UserWarning, match="dropped 1 of 3 cases"):
        res = nbstats.friedman(with_nan(), nan_policy="omit")
    assert res.n_cases == 2


def test_nan_omit_leaving_one_case_is_refused(table_function):
    df = with_nan()
    df.loc["d3", "A"] = np.nan
    with (
        pytest.warns(UserWarning, match="dropped 2 of 3 cases"),
        pytest.raises(
            ValueError,
            match=re.escape(
                "need at least 2 cases (rows) to compare algorithms, got 1 "
                "after dropping incomplete cases"
            ),
        ),
    ):
        table_function(df, nan_policy="omit")


@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_infinite(table_function, value):
    df = with_nan()
    df.loc["d2", "B"] = value
    with pytest.raises(ValueError, match=re.escape("scores must be finite")) as info:
        table_function(df)
    assert "('d2', 'B')" in str(info.value)


def test_non_numeric_column_is_named(table_function):
    df = wide_frame().reset_index()  # "data set" becomes a column of labels
    with pytest.raises(TypeError, match=re.escape("column 'data set' holds strings")):
        table_function(df)


def test_numeric_strings_are_refused(table_function):
    df = wide_frame()
    df["B"] = df["B"].astype(str)
    with pytest.raises(TypeError, match=re.escape("column 'B' holds strings")):
        table_function(df)


def test_bool_column_is_refused(table_function):
    df = wide_frame()
    df["C"] = df["C"].astype(bool)
    with pytest.raises(TypeError, match=re.escape("column 'C' holds booleans")):
        table_function(df)


def test_fewer_than_two_algorithms(table_function):
    with pytest.raises(ValueError, match="need at least 2 algorithms.*got 1"):
        table_function(wide_frame()[["A"]])


def test_fewer_than_two_cases(table_function):
    with pytest.raises(ValueError, match=r"need at least 2 cases.*got 1\."):
        table_function(wide_frame().iloc[:1])


def test_no_cases(table_function):
    with pytest.raises(ValueError, match="need at least 2 cases.*got 0"):
        table_function(wide_frame().iloc[:0])


def test_duplicated_algorithm_names(table_function):
    df = wide_frame()
    df.columns = ["A", "B", "A"]
    with pytest.raises(
        ValueError, match=re.escape("algorithm names must be unique, ['A']")
    ):
        table_function(df)


def test_duplicated_case_names(table_function):
    df = wide_frame()
    df.index = ["iris", "wine", "iris"]
    with pytest.raises(
        ValueError, match=re.escape("case names must be unique, ['iris']")
    ):
        table_function(df)


@pytest.mark.parametrize(
    ("data", "shape"),
    [
        ([0.1, 0.2, 0.3], "(3,)"),
        (np.zeros((2, 3, 2)), "(2, 3, 2)"),
        (np.float64(1.0), "()"),
    ],
    ids=["1-D", "3-D", "0-D"],
)
def test_wrong_dimensions(table_function, data, shape):
    with pytest.raises(ValueError, match=re.escape("must be 2-D")) as info:
        table_function(data)
    assert shape in str(info.value)


def test_series_is_not_a_table(table_function):
    with pytest.raises(ValueError, match="got a Series"):
        table_function(pd.Series([0.1, 0.2]))


def test_unknown_nan_policy(table_function):
    with pytest.raises(
        ValueError, match="unknown nan_policy='drop'; choose one of 'raise', 'omit'"
    ):
        table_function(wide_frame(), nan_policy="drop")


# --- bad long data --------------------------------------------------------------


def test_long_missing_combination_names_the_cell():
    df = long_frame()
    df = df[~((df["data"] == "adult") & (df["algo"] == "NB"))]
    with pytest.raises(ValueError, match=re.escape("('adult', 'NB')")):
        nbstats.score_table(
            df, case="data", algorithm="algo", score="acc", aggregate="mean"
        )


def test_long_nan_fold_stays_visible():
    df = long_frame()
    df.loc[4, "acc"] = np.nan
    cell = (df.loc[4, "data"], df.loc[4, "algo"])
    for aggregate in ("mean", "median"):
        with pytest.raises(
            ValueError, match=re.escape(f"missing scores at (case, algorithm) {cell!r}")
        ):
            nbstats.score_table(
                df, case="data", algorithm="algo", score="acc", aggregate=aggregate
            )


def test_long_duplicates_without_aggregate():
    with pytest.raises(
        ValueError, match=re.escape("duplicated (data, algo) rows, e.g. ('zoo', 'SVM')")
    ) as info:
        nbstats.score_table(long_frame(), case="data", algorithm="algo", score="acc")
    assert "aggregate='mean'" in str(info.value)


def test_long_unknown_columns():
    with pytest.raises(
        ValueError, match=re.escape("case='dataset' is not a column of the table")
    ):
        nbstats.score_table(long_frame(), case="dataset", algorithm="algo", score="acc")


@pytest.mark.parametrize(
    ("given", "missing"),
    [
        ({"case": "data"}, "algorithm=, score="),
        ({"case": "data", "algorithm": "algo"}, "score="),
        ({"score": "acc"}, "case=, algorithm="),
    ],
)
def test_long_needs_all_three_columns(given, missing):
    with pytest.raises(ValueError, match=re.escape(f"missing: {missing}")):
        nbstats.score_table(long_frame(), **given)


def test_aggregate_without_long_columns():
    with pytest.raises(ValueError, match="aggregate= only applies to long data"):
        nbstats.score_table(wide_frame(), aggregate="mean")


def test_unknown_aggregate():
    with pytest.raises(
        ValueError,
        match=re.escape(
            "unknown aggregate='sum'; choose one of None, 'mean', 'median'"
        ),
    ):
        nbstats.score_table(
            long_frame(), case="data", algorithm="algo", score="acc", aggregate="sum"
        )


def test_long_non_numeric_score_column():
    df = long_frame()
    df["acc"] = df["acc"].astype(str)
    with pytest.raises(TypeError, match="score column 'acc' holds strings"):
        nbstats.score_table(
            df, case="data", algorithm="algo", score="acc", aggregate="mean"
        )


def test_long_bool_score_column():
    df = long_frame()
    df["acc"] = df["acc"] > 0.7
    with pytest.raises(TypeError, match="score column 'acc' holds booleans"):
        nbstats.score_table(
            df, case="data", algorithm="algo", score="acc", aggregate="mean"
        )


def test_long_infinite():
    df = long_frame()
    df.loc[0, "acc"] = np.inf
    with pytest.raises(
        ValueError,
        match=re.escape("infinite values at (case, algorithm) ('zoo', 'SVM')"),
    ):
        nbstats.score_table(
            df, case="data", algorithm="algo", score="acc", aggregate="mean"
        )


def test_long_data_must_be_a_frame():
    with pytest.raises(TypeError, match="must be a DataFrame, got ndarray"):
        nbstats.score_table(np.zeros((3, 3)), case="c", algorithm="a", score="s")


def test_long_single_algorithm_or_case():
    df = long_frame()
    with pytest.raises(ValueError, match="need at least 2 algorithms"):
        nbstats.score_table(
            df[df["algo"] == "NB"],
            case="data",
            algorithm="algo",
            score="acc",
            aggregate="mean",
        )
    with pytest.raises(ValueError, match="need at least 2 cases"):
        nbstats.score_table(
            df[df["data"] == "zoo"],
            case="data",
            algorithm="algo",
            score="acc",
            aggregate="mean",
        )


# --- bad two-sample input -------------------------------------------------------


TWO_SAMPLE = {
    "wilcoxon": nbstats.wilcoxon,
    "sign_test": nbstats.sign_test,
    "ttest": nbstats.ttest,
}
A = [0.8, 0.7, 0.9, 0.6, 0.75]
B = [0.85, 0.72, 0.88, 0.7, 0.8]


@pytest.fixture(params=list(TWO_SAMPLE))
def two_sample(request):
    return TWO_SAMPLE[request.param]


def test_two_sample_different_lengths(two_sample):
    with pytest.raises(ValueError, match="got 5 and 4 scores"):
        two_sample(A, B[:4])


@pytest.mark.parametrize("where", ["a", "b"])
def test_two_sample_nan(two_sample, where):
    bad = [0.8, np.nan, 0.9, 0.6, 0.75]
    a, b = (bad, B) if where == "a" else (A, bad)
    with pytest.raises(
        ValueError,
        match=re.escape(f"missing scores at (case, algorithm) (1, '{where}')"),
    ):
        two_sample(a, b)


def test_two_sample_nan_omit(two_sample):
    bad = [0.8, np.nan, 0.9, 0.6, 0.75]
    with pytest.warns(UserWarning, match="dropped 1 of 5 cases"):
        res = two_sample(bad, B, nan_policy="omit")
    keep = [0, 2, 3, 4]
    compact = two_sample([A[i] for i in keep], [B[i] for i in keep])
    # the same numbers; the cases are the positions kept in the input given
    assert list(res.cases) == keep and list(compact.cases) == [0, 1, 2, 3]
    assert res == dataclasses.replace(compact, cases=res.cases)


@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_two_sample_infinite(two_sample, value):
    with pytest.raises(
        ValueError,
        match=re.escape(
            "scores must be finite; infinite values at (case, algorithm) (2, 'b')"
        ),
    ):
        two_sample(A, [0.85, 0.72, value, 0.7, 0.8])


@pytest.mark.parametrize(
    "bad",
    [
        ["good", "bad", "ugly", "bad", "good"],
        ["0.8", "0.7", "0.9", "0.6", "0.75"],
        pd.Series(["0.8", "0.7", "0.9", "0.6", "0.75"]),
        np.array([True, False, True, True, False]),
    ],
    ids=["words", "numeric-strings", "numeric-strings-series", "bools"],
)
def test_two_sample_non_numeric(two_sample, bad):
    # the same rule as score tables: strings (even of digits) and bools are not
    # scores; convert them explicitly
    with pytest.raises(TypeError, match=r"^a .*holds (strings|booleans)"):
        two_sample(bad, B)


def test_two_sample_dataframe_as_a(two_sample):
    with pytest.raises(
        TypeError, match="a must be one column of scores, got a DataFrame"
    ):
        two_sample(pd.DataFrame({"A": A, "B": B}), B)


def test_two_sample_two_dimensional(two_sample):
    with pytest.raises(
        ValueError,
        match=re.escape("b must be 1-D (one score per case), got shape (1, 5)"),
    ):
        two_sample(A, [B])


def test_two_sample_one_case(two_sample):
    with pytest.raises(ValueError, match="need at least 2 cases"):
        two_sample([0.8], [0.9])


def test_two_sample_series_with_different_cases(two_sample):
    a = pd.Series(A, index=list("pqrst"), name="A")
    b = pd.Series(B, index=list("pqrsx"), name="B")
    with pytest.raises(ValueError, match="indexes name different cases"):
        two_sample(a, b)


def test_two_sample_series_are_aligned_by_case(two_sample):
    a = pd.Series(A, index=list("pqrst"), name="A")
    b = pd.Series(B, index=list("pqrst"), name="B")
    shuffled = b.iloc[[3, 0, 4, 2, 1]]
    assert not shuffled.index.equals(a.index)
    assert two_sample(a, shuffled) == two_sample(a, b)
    # and it is not what the unaligned values would give
    assert two_sample(a.to_numpy(), shuffled.to_numpy()) != two_sample(a, b)


def test_two_sample_unknown_nan_policy(two_sample):
    with pytest.raises(
        ValueError, match="unknown nan_policy='drop'; choose one of 'raise', 'omit'"
    ):
        two_sample(A, B, nan_policy="drop")


# --- unknown choices ------------------------------------------------------------


TABLE = np.array(
    [[0.8, 0.85, 0.9], [0.7, 0.72, 0.6], [0.9, 0.88, 0.95], [0.6, 0.7, 0.65]]
)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: nbstats.posthoc(TABLE, method="tukey"),
            "unknown method='tukey'; choose one of 'nemenyi', 'bonferroni-dunn', "
            "'holm', 'hochberg', 'hommel', 'finner', 'li', 'rom', 'shaffer', "
            "'bergmann-hommel'",
        ),
        (
            lambda: nbstats.wilcoxon(A, B, method="asymptotic"),
            "unknown method='asymptotic'; choose one of 'auto', 'exact', 'approx'",
        ),
        (
            lambda: nbstats.wilcoxon(A, B, alternative="bigger"),
            "unknown alternative='bigger'; choose one of 'two-sided', 'greater', 'less'",
        ),
        (
            lambda: nbstats.sign_test(A, B, alternative="bigger"),
            "unknown alternative='bigger'; choose one of 'two-sided', 'greater', 'less'",
        ),
        (
            lambda: nbstats.ttest(A, B, alternative="bigger"),
            "unknown alternative='bigger'; choose one of 'two-sided', 'greater', 'less'",
        ),
        (
            lambda: nbstats.wilcoxon(A, B, zero_method="drop"),
            "unknown zero_method='drop'; choose one of 'zsplit', 'pratt', 'wilcox'",
        ),
        (
            lambda: nbstats.sign_test(A, B, ties="keep"),
            "unknown ties='keep'; choose one of 'split', 'drop'",
        ),
        (
            lambda: nbstats.comparison_matrix(TABLE, adjust="bh"),
            "unknown adjust='bh'; choose one of 'holm', 'hochberg', 'hommel', "
            "'bonferroni', 'finner', 'li', 'rom', 'shaffer', 'bergmann-hommel', 'none'",
        ),
        (
            lambda: nbstats.adjust_pvalues([0.01, 0.2], "bh"),
            "unknown method='bh'; choose one of 'holm', 'hochberg', 'hommel', "
            "'bonferroni', 'finner', 'li', 'rom', 'shaffer', 'bergmann-hommel', 'none'",
        ),
        (
            lambda: nbstats.posthoc(TABLE, method="holm", control="alg9"),
            "control='alg9' is not one of the algorithms ['alg1', 'alg2', 'alg3']",
        ),
        (
            lambda: nbstats.conover(TABLE, ranks="aligned"),
            "unknown ranks='aligned'; choose one of 'friedman', 'quade', 'durbin'",
        ),
    ],
    ids=[
        "posthoc-method",
        "wilcoxon-method",
        "wilcoxon-alternative",
        "sign-alternative",
        "ttest-alternative",
        "zero_method",
        "ties",
        "posthoc-adjust",
        "adjust_pvalues-method",
        "control",
        "conover-ranks",
    ],
)
def test_unknown_choice(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


# --- all-tied data: no signal, no warnings --------------------------------------


TIED_TABLES = {
    "constant": np.full((5, 4), 0.7),
    "case-effects-only": np.repeat([[0.1], [0.5], [0.9], [0.3], [0.7]], 4, axis=1),
}


@pytest.fixture(params=list(TIED_TABLES))
def tied(request):
    return TIED_TABLES[request.param]


def assert_no_warnings(record: list[warnings.WarningMessage]) -> None:
    assert [str(w.message) for w in record] == []


def test_all_tied_friedman(tied):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for tie_correction in (False, True):
            res = nbstats.friedman(tied, tie_correction=tie_correction)
            assert res.statistic == 0
            assert res.pvalue == 1
            assert res.f_statistic == 0
            assert res.f_pvalue == 1
            assert res.mean_ranks.tolist() == [2.5] * 4
    assert_no_warnings(record)


@pytest.mark.parametrize("rank_transform", [False, True])
def test_all_tied_rm_anova(tied, rank_transform):
    # the "constant" table is all 0.7, which is not a binary fraction: the
    # grand mean is off by round-off, and that dust must not count as an effect
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        res = nbstats.rm_anova(tied, rank_transform=rank_transform)
    assert_no_warnings(record)
    assert res.statistic == 0
    assert res.pvalue == 1
    assert res.pvalue_gg == 1


@pytest.mark.parametrize("method", [*POSTHOC_METHODS, "conover", *COMPARISON_TESTS])
def test_all_tied_posthoc(tied, method):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        if method == "conover":
            res = nbstats.conover(tied)
        elif method in COMPARISON_TESTS:
            res = nbstats.comparison_matrix(tied, test=method)
        else:
            res = nbstats.posthoc(tied, method=method)
    assert_no_warnings(record)
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_array_equal(res.adjusted.to_numpy()[off], 1.0)
    np.testing.assert_array_equal(res.pvalues.to_numpy()[off], 1.0)
    assert not res.reject.to_numpy().any()
    assert res.groups == [("alg1", "alg2", "alg3", "alg4")]


@pytest.mark.parametrize("method", ["bonferroni-dunn", "holm", "hochberg", "hommel"])
def test_all_tied_posthoc_control(tied, method):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        res = nbstats.posthoc(tied, method=method, control="alg2")
    assert_no_warnings(record)
    assert res.adjusted.tolist() == [1.0, 1.0, 1.0]
    assert not res.reject.any()


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize("method", ["auto", "exact", "approx"])
def test_all_tied_wilcoxon(zero_method, method):
    a = [0.1, 0.5, 0.9, 0.3, 0.7]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        res = nbstats.wilcoxon(a, a, zero_method=zero_method, method=method)
    assert_no_warnings(record)
    assert res.pvalue == 1
    assert res.r_plus == res.r_minus
    assert res.effect_size == 0


@pytest.mark.parametrize("ties", ["split", "drop"])
def test_all_tied_sign_test(ties):
    a = [0.1, 0.5, 0.9, 0.3, 0.7]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        res = nbstats.sign_test(a, a, ties=ties)
    assert_no_warnings(record)
    assert res.pvalue == 1
    assert (res.wins, res.losses, res.n_ties) == (0, 0, 5)


def test_all_tied_ttest():
    a = [0.1, 0.5, 0.9, 0.3, 0.7]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        res = nbstats.ttest(a, a)
    assert_no_warnings(record)
    assert res.statistic == 0
    assert res.pvalue == 1
    assert res.mean_difference == 0
    assert res.confidence_interval == (0.0, 0.0)


@pytest.mark.parametrize("flag", ["no", 0, None])
def test_higher_is_better_must_be_a_bool(flag):
    table = nbstats.datasets.load("demsar2006")
    with pytest.raises(TypeError, match="higher_is_better must be True or False"):
        nbstats.mean_ranks(table, higher_is_better=flag)
    with pytest.raises(TypeError, match="higher_is_better must be True or False"):
        nbstats.wilcoxon(table["C4.5"], table["C4.5+m"], higher_is_better=flag)
    with pytest.raises(TypeError, match="higher_is_better must be True or False"):
        nbstats.posthoc(table, method="holm", higher_is_better=flag)


def test_epsilon_is_one_without_variation_between_algorithms():
    assert nbstats.rm_anova([[1, 1, 1], [2, 2, 2], [5, 5, 5]]).epsilon == 1.0


# -- per-fold long data -----------------------------------------------------------


def test_fold_means_equal_the_published_means_table():
    # the authors' own per-data-set means (a separate file) are the oracle
    folds = nbstats.datasets.load("uci_accuracy_folds")
    means = nbstats.datasets.load("uci_accuracy")
    wide = nbstats.score_table(
        folds, case="dataset", algorithm="classifier", score="accuracy", fold="fold"
    )
    assert list(wide.columns) == list(means.columns)
    np.testing.assert_allclose(
        wide.loc[means.index].to_numpy(), means.to_numpy(), atol=1e-5
    )
    # ties of the published means survive the averaging: Friedman's statistic
    # with tie correction is the published 20.840496657 (see DESIGN oracles)
    stat = nbstats.friedman(wide, tie_correction=True).statistic
    assert stat == pytest.approx(20.840496657, abs=1e-8)
    info = nbstats.fold_summary(
        folds, case="dataset", algorithm="classifier", fold="fold"
    )
    assert info == {"columns": ["fold"], "min_folds": 100, "max_folds": 100}


def _cv(runs=2, k=3):
    rows = [
        {"ds": ds, "algo": algo, "run": r, "fold": f, "acc": 0.5 + 0.1 * j + 0.01 * f}
        for ds in ("d1", "d2")
        for j, algo in enumerate(("A", "B"))
        for r in range(runs)
        for f in range(k)
    ]
    return pd.DataFrame(rows)


def test_repeated_k_fold_with_run_and_fold_columns():
    data = _cv()
    wide = nbstats.score_table(
        data, case="ds", algorithm="algo", score="acc", fold=["run", "fold"]
    )
    # closed form: mean over f = 0, 1, 2 of 0.5 + 0.1 j + 0.01 f
    np.testing.assert_allclose(wide.to_numpy(), [[0.51, 0.61], [0.51, 0.61]])
    info = nbstats.fold_summary(data, case="ds", algorithm="algo", fold=["run", "fold"])
    assert (info["min_folds"], info["max_folds"], info["runs"]) == (6, 6, 2)
    med = nbstats.score_table(
        data,
        case="ds",
        algorithm="algo",
        score="acc",
        fold=["run", "fold"],
        aggregate="median",
    )
    np.testing.assert_allclose(med.to_numpy(), [[0.51, 0.61], [0.51, 0.61]])


def test_a_column_that_is_not_a_fold_is_refused():
    data = _cv()
    with pytest.raises(
        ValueError, match=r"does not identify a fold.*fold=\['run', 'fold'\]"
    ):
        nbstats.score_table(data, case="ds", algorithm="algo", score="acc", fold="fold")


def test_unequal_folds_between_algorithms_are_refused():
    data = _cv()
    data = data.drop(index=data.index[(data.algo == "A") & (data.ds == "d2")][:1])
    with pytest.raises(
        ValueError, match=r"failed folds: 1 .* \('d2', 'A'\): 5 of 6 folds"
    ):
        nbstats.score_table(
            data, case="ds", algorithm="algo", score="acc", fold=["run", "fold"]
        )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"fold": "nope"}, ValueError, "fold='nope' is not a column of the table"),
        ({"fold": "ds"}, ValueError, "also the case or algorithm"),
        ({"fold": 3}, TypeError, "fold must be a column name"),
        ({"fold": []}, TypeError, "fold must be a column name"),
    ],
)
def test_bad_fold_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        nbstats.score_table(_cv(), case="ds", algorithm="algo", score="acc", **kwargs)


def test_fold_needs_long_data():
    with pytest.raises(ValueError, match="fold= only applies to long data"):
        nbstats.score_table(np.ones((3, 2)), fold="fold")


def test_missing_fold_score_follows_nan_policy():
    data = _cv()
    data.loc[0, "acc"] = np.nan  # d1, A, run 0, fold 0
    kw = {"case": "ds", "algorithm": "algo", "score": "acc", "fold": ["run", "fold"]}
    with pytest.raises(ValueError, match=r"failed folds: .*\('d1', 'A'\): 5 of 6"):
        nbstats.score_table(data, **kw)
    with (
        pytest.warns(UserWarning, match=r"failed folds: \('d1', 'A'\): 5 of 6"),
        pytest.warns(UserWarning, match="dropped 1 of 2 cases"),
        pytest.raises(ValueError, match="at least 2 cases"),
    ):
        nbstats.score_table(data, nan_policy="omit", **kw)


def test_fold_mean_does_not_depend_on_the_order_of_the_folds():
    # 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit when summed
    # left to right; equal multisets of fold scores must give equal means
    rows = [("d", "A", f, v) for f, v in enumerate([0.1, 0.2, 0.3])]
    rows += [("d", "B", f, v) for f, v in enumerate([0.3, 0.2, 0.1])]
    rows += [("e", a, f, 0.5) for a in "AB" for f in range(3)]
    data = pd.DataFrame(rows, columns=["case", "algo", "fold", "acc"])
    assert (0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1
    wide = nbstats.score_table(
        data, case="case", algorithm="algo", score="acc", fold="fold"
    )
    assert wide.loc["d", "A"] == wide.loc["d", "B"]
    assert list(nbstats.ranks(wide).loc["d"]) == [1.5, 1.5]


def test_power_of_two_scale_brackets_the_largest_magnitude():
    from nbstats.scores.frames import power_of_two_scale  # internal helper

    for largest in (5e-324, 2.2e-308, 0.3, 1.0, 3.0, 1e300, 1.7976931348623157e308):
        c = power_of_two_scale(np.array([0.0, -largest, largest / 3]))
        assert c <= largest < 2 * c
        assert np.frexp(c)[0] == 0.5  # a power of two
    assert power_of_two_scale(np.zeros(3)) == 1.0
