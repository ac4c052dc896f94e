"""Attack cases on score values and table shapes (issue 30: findings 5, 6, 14, 18).

- 5: integers beyond 2**53 were rounded to float64 without a word, so
  ``b = a + 1`` became a tie on every case (``wilcoxon`` p = 1, "10 zeros").
  Integers are now exact or refused, naming the column and the cells.
- 6: ``np.timedelta64`` values in object columns counted as integers (a
  nanosecond duration was a number, a second one an unnamed TypeError).
  Durations and dates are refused for every unit, naming the conversion.
- 14: an algorithm named ``"case"`` in a table with an unnamed index clashed
  with the default index name, and the report blamed "an empty name".
- 18: the accessor refused tuple column names.

The oracle of the integer cases is SciPy on the exact differences (the
suggested fix, an integer offset, keeps every difference).
"""

from __future__ import annotations

import datetime
import fractions

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import nbstats
from nbstats.cli.commands import main
from nbstats.reporting.notebook import read_scores, scores_csv
from nbstats.scores.dtypes import EXACT_INTEGER_LIMIT, real_scores

N = 10
OFFSET = 2**60
A_SMALL = [7 * i for i in range(N)]  # a; b = a + 1 on every case


def pair_frame(offset: int = OFFSET, dtype: object = "int64") -> pd.DataFrame:
    a = [offset + v for v in A_SMALL]
    index = pd.Index([f"d{i}" for i in range(N)], name="case")
    return pd.DataFrame(
        {
            "a": pd.Series(a, dtype=dtype, index=index),
            "b": pd.Series([v + 1 for v in a], dtype=dtype, index=index),
        }
    )


# ---------------------------------------------------------------- finding 5


def with_na(frame: pd.DataFrame) -> pd.DataFrame:
    frame.loc["d9", "a"] = pd.NA
    return frame


BIG_KINDS = {
    "int64": lambda: pair_frame(),
    "uint64": lambda: pair_frame(2**63, "uint64"),
    "Int64": lambda: pair_frame(dtype="Int64"),
    "Int64 with NA": lambda: with_na(pair_frame(dtype="Int64")),
    "UInt64": lambda: pair_frame(2**63, "UInt64"),
    "object Python ints": lambda: pair_frame(dtype=object),
    "object beyond int64": lambda: pair_frame(2**70, object),
    "negative int64": lambda: -pair_frame(),
}


@pytest.mark.parametrize("make", BIG_KINDS.values(), ids=BIG_KINDS)
@pytest.mark.parametrize(
    "entry",
    ["wilcoxon", "ttest", "sign_test", "friedman", "accessor", "list", "long"],
)
def test_integers_beyond_2_53_are_refused_naming_the_cells(make, entry):
    frame = make()
    calls = {
        "wilcoxon": lambda: nbstats.wilcoxon(frame["a"], frame["b"]),
        "ttest": lambda: nbstats.ttest(frame["a"], frame["b"]),
        "sign_test": lambda: nbstats.sign_test(frame["a"], frame["b"]),
        "friedman": lambda: nbstats.friedman(frame),
        "accessor": lambda: frame.compare.wilcoxon("a", "b"),
        "list": lambda: nbstats.wilcoxon(list(frame["a"]), list(frame["b"])),
        "long": lambda: nbstats.score_table(
            frame.reset_index().melt(id_vars="case", var_name="algo", value_name="s"),
            case="case",
            algorithm="algo",
            score="s",
        ),
    }
    with pytest.raises(ValueError, match="float64 cannot hold exactly") as info:
        calls[entry]()
    message = str(info.value)
    assert "offset" in message and "2**53" in message
    if entry in ("friedman", "accessor", "wilcoxon", "ttest", "sign_test"):
        assert "'a'" in message and "case 'd1'" in message
    elif entry == "long":
        assert "score column 's'" in message


def test_the_suggested_offset_gives_scipys_answer():
    frame = pair_frame()
    shifted = frame - frame.min().min()  # integer arithmetic: exact
    res = nbstats.wilcoxon(shifted["a"], shifted["b"])
    # b = a + 1 on all 10 cases: every difference is +1
    ref = stats.wilcoxon(np.ones(N), method="exact")
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.pvalue == pytest.approx(2 / 2**N, rel=1e-12)


@pytest.mark.parametrize(
    ("value", "exact"),
    [
        (2**53, True),
        (-(2**53), True),
        (2**53 + 1, False),
        (-(2**53) - 1, False),
        (2**53 + 2, True),  # even: float64 holds it
        (2**62, True),
        (2**63 - 1, False),  # the largest int64 would become 2**63
        (-(2**63), True),
    ],
)
def test_the_boundary_is_exactness_not_size(value, exact):
    for column in (np.array([value, 0], dtype=np.int64), [value, 0]):
        if exact:
            out = real_scores(column, "b")
            assert int(out[0]) == value
        else:
            with pytest.raises(ValueError, match=str(value)):
                real_scores(column, "b")


def test_uint64_boundary():
    assert int(real_scores(np.array([2**64 - 2**11], dtype=np.uint64), "b")[0]) == (
        2**64 - 2**11
    )
    with pytest.raises(ValueError, match="cannot hold exactly"):
        real_scores(np.array([2**64 - 1], dtype=np.uint64), "b")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.integers(min_value=-(2**63), max_value=2**63 - 1), min_size=1, max_size=6
    ),
    st.sampled_from(["int64", "Int64", "object"]),
)
def test_integers_are_exact_or_refused(values, dtype):
    """Property: every integer comes out as itself, or the column is refused."""
    column = pd.Series(values, dtype=dtype)
    representable = all(int(float(v)) == v for v in values)
    if representable:
        out = real_scores(column, "b")
        assert [int(v) for v in out] == values
    else:
        with pytest.raises(ValueError, match="cannot hold exactly"):
            real_scores(column, "b")


@pytest.mark.parametrize(
    "column",
    [
        np.array([OFFSET + 1, 3], dtype=np.longdouble),
        [fractions.Fraction(OFFSET + 1), 3],
        pd.Series([np.longdouble(OFFSET + 1), 3.0], dtype=object),
        [np.uint64(2**63 + 1), 3],
    ],
    ids=["long double", "Fraction", "object long double", "object uint64"],
)
def test_whole_numbers_of_other_types_follow_the_rule(column):
    if np.finfo(np.longdouble).nmant <= 52 and "long" in repr(column):
        pytest.skip("long double is float64 on this platform")
    with pytest.raises(ValueError, match=f"{OFFSET + 1}|{2**63 + 1}"):
        real_scores(column, "b")


def test_fractions_and_long_doubles_that_are_not_whole_are_rounded_as_usual():
    # 1/3 and 0.1 have no float64 form: rounding them is what any decimal gets
    out = real_scores([fractions.Fraction(1, 3), np.longdouble("0.1")], "b")
    assert out.tolist() == [1 / 3, 0.1]


def test_small_integers_are_unchanged():
    frame = pair_frame(offset=0)
    res = nbstats.wilcoxon(frame["a"], frame["b"])
    assert res.pvalue == pytest.approx(2 / 2**N, rel=1e-12)


def test_cli_refuses_integers_float64_would_round(tmp_path, capsys):
    rows = ["case,a,b,c"] + [
        f"d{i},{OFFSET + v},{OFFSET + v + 1},{OFFSET + v + 3}"
        for i, v in enumerate(A_SMALL)
    ]
    path = tmp_path / "big.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code = main(["analyze", str(path), "--case", "case"])
    err = capsys.readouterr().err
    assert code == 2
    assert "cannot hold exactly" in err and "case 'd1'" in err


# ---------------------------------------------------------------- finding 6

UNITS = ["ns", "us", "ms", "s", "m", "h", "D", "W"]


@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("form", ["list", "object Series", "array", "Series"])
def test_durations_are_refused_for_every_unit(unit, form):
    a = [np.timedelta64(v + 1, unit) for v in A_SMALL]
    b = [np.timedelta64(v + 2, unit) for v in A_SMALL]
    make = {
        "list": lambda x: x,
        "object Series": lambda x: pd.Series(x, dtype=object, name="b"),
        "array": lambda x: np.array(x),
        "Series": lambda x: pd.Series(np.array(x), name="b"),
    }[form]
    with pytest.raises(TypeError, match="durations") as info:
        nbstats.wilcoxon(make(a), make(b))
    message = str(info.value)
    assert message.startswith("a ")
    assert "pd.Timedelta(seconds=1)" in message
    with pytest.raises(TypeError, match="durations") as info:
        nbstats.friedman(pd.DataFrame({"x": make(a), "y": make(b)}))
    assert "column 'x'" in str(info.value)


DURATION_VALUES = {
    "np.timedelta64 NaT": np.timedelta64("NaT", "s"),
    "pd.Timedelta": pd.Timedelta(seconds=3),
    "datetime.timedelta": datetime.timedelta(seconds=3),
}
DATE_VALUES = {
    "np.datetime64": np.datetime64("2020-01-01", "s"),
    "np.datetime64 NaT": np.datetime64("NaT"),
    "pd.NaT": pd.NaT,
    "pd.Timestamp": pd.Timestamp("2020-01-01"),
    "datetime.date": datetime.date(2020, 1, 1),
    "pd.Period": pd.Period("2020-01", freq="M"),
}


@pytest.mark.parametrize(
    ("value", "word"),
    [(v, "durations") for v in DURATION_VALUES.values()]
    + [(v, "dates") for v in DATE_VALUES.values()],
    ids=[*DURATION_VALUES, *DATE_VALUES],
)
def test_one_time_value_in_an_object_column_is_refused(value, word):
    column = pd.Series([0.5, 0.6, value, 0.7], dtype=object)
    with pytest.raises(TypeError, match=word) as info:
        real_scores(column, "column 'B'")
    assert "pd.Timedelta(seconds=1)" in str(info.value)
    assert str(info.value).startswith("column 'B' holds")


@pytest.mark.parametrize("unit", ["ns", "s", "D"])
def test_the_suggested_conversion_works(unit):
    seconds = {"ns": 1e-9, "s": 1.0, "D": 86400.0}[unit]
    a = pd.Series(np.array(A_SMALL, dtype=f"timedelta64[{unit}]"))
    b = pd.Series(
        np.array([v + 1 + v % 3 for v in A_SMALL], dtype=f"timedelta64[{unit}]")
    )
    durations = pd.DataFrame({"a": a, "b": b})
    converted = durations / pd.Timedelta(seconds=1)
    res = nbstats.wilcoxon(converted["a"], converted["b"])
    d = (np.array([v + 1 + v % 3 for v in A_SMALL]) - np.array(A_SMALL)) * seconds
    ref = stats.wilcoxon(d)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_object_durations_convert_the_same_way():
    frame = pd.DataFrame(
        {
            "a": pd.Series([pd.Timedelta(seconds=v) for v in A_SMALL], dtype=object),
            "b": pd.Series(
                [pd.Timedelta(seconds=v + 1) for v in A_SMALL], dtype=object
            ),
        }
    )
    converted = frame / pd.Timedelta(seconds=1)
    assert nbstats.score_table(converted).to_numpy().tolist() == [
        [float(v), float(v + 1)] for v in A_SMALL
    ]


# ---------------------------------------------------------------- finding 14


@pytest.mark.parametrize(
    "taken", [["case"], ["case", "case_name"], ["case", "case_name", "case_name2"]]
)
def test_an_algorithm_named_case_keeps_its_name_in_the_report_csv(taken):
    rng = np.random.default_rng(1)
    columns = [*taken, "B"]
    frame = pd.DataFrame(rng.uniform(size=(6, len(columns))), columns=columns)
    table = nbstats.score_table(frame)
    assert table.index.name not in columns
    back = read_scores(scores_csv(table), index_name=table.index.name)
    assert list(back.columns) == columns
    np.testing.assert_array_equal(back.to_numpy(), table.to_numpy())


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["case", "case_name", "case_name2", "case_name3", "algorithm", "B", "C"]
        ),
        min_size=2,
        max_size=6,
        unique=True,
    )
)
def test_the_default_index_name_never_clashes(columns):
    """Property: whatever the algorithms are called, the CSV keeps them."""
    frame = pd.DataFrame(
        np.arange(3 * len(columns), dtype=float).reshape(3, -1), columns=columns
    )
    table = nbstats.score_table(frame)
    assert table.index.name not in columns
    assert table.columns.name != table.index.name
    back = read_scores(scores_csv(table), index_name=table.index.name)
    assert list(back.columns) == columns


def test_index_named_algorithm_does_not_clash_with_the_columns_name():
    frame = pd.DataFrame(
        np.random.default_rng(2).uniform(size=(5, 3)),
        columns=["A", "B", "C"],
        index=pd.Index([f"d{i}" for i in range(5)], name="algorithm"),
    )
    table = nbstats.score_table(frame)
    assert table.index.name == "algorithm"
    assert table.columns.name != table.index.name
    long = table.reset_index().melt(
        id_vars=table.index.name, var_name=table.columns.name
    )
    assert len(long) == 15


def test_report_of_an_algorithm_named_case():
    # before: "some algorithm or case names cannot be stored in the report's
    # CSV unchanged (e.g. an empty name)"
    frame = pd.DataFrame(
        np.random.default_rng(3).uniform(size=(8, 3)), columns=["case", "B", "C"]
    )
    text = nbstats.reporting.report_text(frame, analyses=("frequentist",))
    assert "3 algorithms (case, B and C)" in text


# ---------------------------------------------------------------- finding 18

PAIR_METHODS = {
    "wilcoxon": nbstats.wilcoxon,
    "sign_test": nbstats.sign_test,
    "ttest": nbstats.ttest,
    "effect_size": nbstats.effect_size,
    "bayes_sign_test": lambda a, b: nbstats.bayes_sign_test(a, b, random_state=0),
    "bayes_signrank": lambda a, b: nbstats.bayes_signrank(
        a, b, n_samples=1000, random_state=0
    ),
}


def tuple_frames() -> dict[str, pd.DataFrame]:
    values = np.random.default_rng(4).uniform(size=(9, 3))
    labels = [("x", 1), ("y", 2), ("z", 3)]
    flat = pd.DataFrame(values, columns=pd.Index(labels, tupleize_cols=False))
    multi = pd.DataFrame(values, columns=pd.MultiIndex.from_tuples(labels))
    return {"flat tuples": flat, "MultiIndex": multi}


@pytest.mark.parametrize("kind", ["flat tuples", "MultiIndex"])
@pytest.mark.parametrize("method", PAIR_METHODS, ids=list(PAIR_METHODS))
def test_accessor_takes_tuple_column_names(kind, method):
    frame = tuple_frames()[kind]
    kwargs = {
        "bayes_sign_test": {"random_state": 0},
        "bayes_signrank": {"n_samples": 1000, "random_state": 0},
    }.get(method, {})
    got = getattr(frame.compare, method)(("x", 1), ("y", 2), **kwargs)
    expected = PAIR_METHODS[method](frame[("x", 1)], frame[("y", 2)])
    assert repr(got) == repr(expected)
    assert got == expected


def test_accessor_tuple_names_match_friedman_of_the_two_columns():
    frame = tuple_frames()["MultiIndex"]
    got = frame.compare.wilcoxon(("x", 1), ("z", 3))
    ref = stats.wilcoxon(frame[("z", 3)] - frame[("x", 1)])
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("name", [("x",), "x", ("x", 9)], ids=repr)
def test_partial_or_unknown_multiindex_key_names_the_columns(name):
    frame = tuple_frames()["MultiIndex"]
    with pytest.raises(ValueError, match="no algorithm") as info:
        frame.compare.wilcoxon(name, ("y", 2))
    assert "('x', 1)" in str(info.value)


def test_lists_are_still_not_column_names():
    frame = tuple_frames()["flat tuples"]
    with pytest.raises(TypeError, match="one column name"):
        frame.compare.wilcoxon(["x", 1], ("y", 2))


def test_exact_integer_limit_is_two_to_the_53():
    # closed form: the first integer float64 cannot hold is 2**53 + 1
    assert EXACT_INTEGER_LIMIT == 2**53
    assert float(2**53 + 1) == float(2**53)
    assert int(float(2**53 - 1)) == 2**53 - 1
