"""MultiIndex and tuple names in every public function (issue 34, finding 6).

With 2- or 3-level MultiIndex columns, ``bayes_plackett_luce`` and ``analyze``
failed with pandas' "Names should be list-like for a MultiIndex" and
``comparison_matrix`` with a ``KeyError`` (integer column names too): results
built ``pd.Index(names)``, which makes a MultiIndex of a list of tuples, and
several results kept ``str(name)`` instead of the name.

The property, over every public function (``nbstats.__all__`` and every
``df.compare`` method, enumerated: a function added later fails
:func:`test_every_public_function_and_method_is_covered` until it is listed
here with its arguments):

- it runs on MultiIndex columns of 2 and 3 levels, on a flat Index of tuples,
  on integer names and on a MultiIndex of cases ``(dataset, fold)``;
- its result carries the names as given: each tuple is one name, equal to the
  input's, in the result's attributes and in ``to_frame()``, and never its
  text ``"('RF', 100)"`` in their place;
- ``repr``, ``_repr_html_`` and ``to_latex`` work and show each name by the
  one display rule, ``str(name)`` (``('RF', 100)``, escaped for HTML and
  LaTeX), never pandas' quote-less ``(RF, 100)`` beside it; a figure shows it
  too.

Decisions: a MultiIndex (columns or index) becomes the flat Index of its
tuples at the boundary (``score_table``; :func:`nbstats.scores.names.name_index`),
named by the tuple of its level names, so every function sees one kind of
name axis. A MultiIndex of cases such as ``(dataset, fold)`` is allowed: its
tuples are case names like any other (a score table cannot know that the
second level is a fold; per-fold data has its own functions). Racing names
its candidates ``str(candidate)`` (a candidate need not be hashable); the
winner is the candidate itself.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import inspect
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given as given_
from hypothesis import settings
from hypothesis import strategies as st

import nbstats
from nbstats.accessor import CompareAccessor
from nbstats.results.formatting import escape_latex
from nbstats.scores.names import lookalike_key

matplotlib.use("Agg")

N_CASES = 10

NAME_KINDS: dict[str, pd.Index] = {
    "MultiIndex, 2 levels": pd.MultiIndex.from_tuples(
        [("RF", 100), ("RF", 500), ("SVM", 1), ("SVM", 10)], names=["model", "param"]
    ),
    "MultiIndex, 3 levels": pd.MultiIndex.from_tuples(
        [("RF", 100, "gini"), ("RF", 500, "gini"), ("SVM", 1, "rbf"), ("kNN", 5, "l2")]
    ),
    "tuples": pd.Index(
        [("RF", 100), ("RF", 500), ("SVM", 1), ("SVM", 10)], tupleize_cols=False
    ),
    "integers": pd.Index([0, 1, 2, 3]),
}

CASE_KINDS: dict[str, pd.Index] = {
    "plain cases": pd.Index([f"data{i}" for i in range(N_CASES)], name="case"),
    "MultiIndex cases": pd.MultiIndex.from_tuples(
        [(f"data{i // 2}", i % 2) for i in range(N_CASES)], names=["dataset", "fold"]
    ),
}


def frame(names: str = "MultiIndex, 2 levels", cases: str = "plain cases"):
    rng = np.random.default_rng(7)
    columns = NAME_KINDS[names]
    values = rng.normal(0.0, 0.05, (N_CASES, len(columns))) + np.linspace(
        0.7, 0.9, len(columns)
    )
    return pd.DataFrame(values, index=CASE_KINDS[cases], columns=columns)


def given(index: pd.Index) -> list[object]:
    """The names as the user wrote them (a MultiIndex hands out np.int64)."""
    return [
        tuple(v.item() if isinstance(v, np.generic) else v for v in name)
        if isinstance(name, tuple)
        else name
        for name in index
    ]


DRAWS = {"n_samples": 2000, "random_state": 0}

#: Functions of a score table: df.compare.<name>(**args) is nbstats.<name>(df, **args).
TABLE_ARGS: dict[str, dict[str, Any]] = {
    "score_table": {},
    "ranks": {},
    "mean_ranks": {},
    "friedman": {},
    "rm_anova": {},
    "quade": {},
    "friedman_aligned": {},
    "durbin": {},
    "skillings_mack": {},
    "posthoc": {},
    "comparison_matrix": {},
    "conover": {},
    "coverage": {},
    "analyze": DRAWS,
    "bayes_signrank_pairs": DRAWS,
    "bayes_friedman": DRAWS,
    "bayes_posthoc": DRAWS,
    "bayes_plackett_luce": {"n_samples": 400, "random_state": 0},
    "rank_ci": {"n_resamples": 50, "random_state": 0},
    "letters": {},  # df.compare.letters() is letters(posthoc(df))
}

#: Two-sample functions: df.compare.<name>(a, b) is nbstats.<name>(df[a], df[b]).
PAIR_ARGS: dict[str, dict[str, Any]] = {
    "sign_test": {},
    "wilcoxon": {},
    "ttest": {},
    "effect_size": {},
    "bayes_sign_test": {"random_state": 0},
    "bayes_signrank": DRAWS,
    "correlated_ttest": {"runs": 1},
    "bayes_correlated_ttest": {"runs": 1},
}

#: Functions of long data (one row per case, algorithm, fold): tuple values
#: in the algorithm and case columns.
LONG = {"correlated_pairs", "fold_summary", "bayes_hierarchical"}

#: The rest, each with its own test below.
OTHER = {
    "adjust_pvalues": "takes p-values: a Series indexed by the names",
    "race": "tuple candidates",
    "critical_difference": "the accessor reads the frame's shape",
    "nemenyi_min_cases": "the accessor reads the frame's width",
    "cd_diagram": "a figure of posthoc",
    "dashboard": "widgets",
    "report": "a report: runs a kernel",
    "report_text": "the same report as text: runs a kernel",
}

#: Results that name no algorithm (their table is about something else).
NAMES_NOTHING = {"rm_anova": "its table's rows are the sources of variance"}

NOT_APPLICABLE = {
    "memory_ceiling": "a setting: no names",
    "set_memory_ceiling": "a setting: no names",
}


def public_functions() -> set[str]:
    return {
        name
        for name in nbstats.__all__
        if callable(value := getattr(nbstats, name))
        and not inspect.isclass(value)
        and not inspect.ismodule(value)
    }


def accessor_methods() -> set[str]:
    return {name for name in dir(CompareAccessor) if not name.startswith("_")}


def test_every_public_function_and_method_is_covered():
    covered = set(TABLE_ARGS) | set(PAIR_ARGS) | LONG | set(OTHER)
    covered |= set(NOT_APPLICABLE)
    missing = (public_functions() | accessor_methods()) - covered
    assert missing == set(), (
        f"{sorted(missing)} are public but not tested with MultiIndex and tuple "
        "names: add them to this module with their required arguments."
    )


# ------------------------------------------------------- what a result carries


def _labels(value: Any, out: list[object], depth: int = 0) -> None:
    """Every hashable label ``value`` carries: index and column labels,
    object cells, scalars, and the same of nested results and containers."""
    if depth > 3:
        return
    if isinstance(value, pd.DataFrame):
        out.extend(value.index)
        out.extend(value.columns)
        for column in value.columns:
            if value[column].dtype == object:
                out.extend(value[column])
    elif isinstance(value, pd.Series):
        out.extend(value.index)
        if value.dtype == object:
            out.extend(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            _labels(getattr(value, field.name), out, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)) and not isinstance(
        value, np.ndarray
    ):
        out.append(value) if isinstance(value, tuple) else None
        for item in value:
            _labels(item, out, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.append(key)
            _labels(item, out, depth + 1)
    elif not isinstance(value, np.ndarray):
        out.append(value)


def carried(value: Any) -> set[object]:
    found: list[object] = []
    _labels(value, found)
    keep = set()
    for label in found:
        with contextlib.suppress(TypeError):  # unhashable: not a name
            keep.add(label)
    return keep


def pandas_text(name: object) -> str:
    """How pandas writes a tuple label: without the quotes."""
    return "(" + ", ".join(str(v) for v in name) + ")"  # type: ignore[union-attr]


def distinct_pandas_text(name: object) -> bool:
    """Whether pandas' form of a tuple name differs from ``str`` and cannot
    be read elsewhere in a text ("(1)" could be any parenthesis)."""
    return isinstance(name, tuple) and len(name) > 1 and pandas_text(name) != str(name)


def check_names(result: Any, names: list[object]) -> None:
    """``result`` carries ``names`` as given, never their text in their place."""
    found = carried(result)
    assert set(names) <= found, f"missing names: {set(names) - found}"
    texts = {str(n) for n in names if not isinstance(n, str)}
    assert not texts & {f for f in found if isinstance(f, str)}, (
        "a name was replaced by its text"
    )
    if hasattr(result, "to_frame"):
        frame = result.to_frame()
        labels = carried(frame)
        assert not texts & {f for f in labels if isinstance(f, str)}


def flat(text: str) -> str:
    return " ".join(text.split())


def check_display(result: Any, names: list[object]) -> None:
    """``repr``, HTML and LaTeX work and write each name as ``str(name)``."""
    if isinstance(result, (pd.DataFrame, pd.Series)):
        return  # pandas' own frames: pandas displays them
    outputs = {"text": flat(repr(result)), "html": result._repr_html_()}
    if hasattr(result, "to_latex"):
        outputs["latex"] = flat(result.to_latex())
    if hasattr(result, "to_frame"):
        result.to_frame()
    shown = {  # whitespace collapsed, as in the outputs (and in HTML)
        "text": [flat(str(n)) for n in names],
        "html": [html.escape(str(n)) for n in names],
        "latex": [flat(escape_latex(str(n))) for n in names],
    }
    for kind, text in outputs.items():
        for name in names:
            if distinct_pandas_text(name):
                assert pandas_text(name) not in text, (kind, name)  # pandas' form
        # (a coverage summary names only the algorithms with holes)
        lists_some = type(result).__name__ == "CoverageResult"
        if kind == "text" and not lists_some and any(w in text for w in shown[kind]):
            # a result that shows its algorithms shows every one of them
            missing = [w for w in shown[kind] if w not in text]
            assert not missing, (kind, missing)


def check_figure(result: Any, names: list[object]) -> None:
    """Where the result draws itself, its figure names the algorithms by
    ``str(name)`` (a label may wrap)."""
    own = [c for c in type(result).__mro__ if c.__module__.startswith("nbstats.")]
    if not any("plot" in vars(c) for c in own):
        return  # pandas' own .plot of a frame, or no picture
    import matplotlib.pyplot as plt

    from nbstats.plots.style import figure_of

    if type(result).__name__ == "BayesFriedmanResult" and len(names) != 3:
        with pytest.raises(ValueError, match="m = 3"):  # a teaching picture
            result.plot()
        return
    drawn = result.plot()
    try:
        texts = [
            flat(t.get_text())
            for t in figure_of(drawn).findobj(matplotlib.text.Text)
            if t.get_text()
        ]
        text = " | ".join(texts)
        labelled = [str(n) for n in names if str(n) in text]
        assert labelled, f"no algorithm named in the figure: {texts}"
        for name in names:
            if distinct_pandas_text(name):
                assert pandas_text(name) not in text
    finally:
        plt.close("all")


# -------------------------------------------------------------- the functions


@pytest.mark.parametrize("kind", list(NAME_KINDS))
@pytest.mark.parametrize("name", sorted(TABLE_ARGS))
def test_table_functions_keep_the_names(name, kind):
    table = frame(kind)
    names = given(table.columns)
    result = getattr(table.compare, name)(**TABLE_ARGS[name])
    if name == "letters":
        assert result == nbstats.letters(nbstats.posthoc(table))
    else:
        assert_equal(result, getattr(nbstats, name)(table, **TABLE_ARGS[name]))
    if isinstance(result, pd.DataFrame):  # score_table, ranks
        assert list(result.columns) == names
        assert not isinstance(result.columns, pd.MultiIndex)
        levels = table.columns.names
        if any(level is not None for level in levels):  # the level names
            assert result.columns.name == tuple(levels)
    elif isinstance(result, pd.Series):  # mean_ranks
        assert list(result.index) == names
    elif name in NAMES_NOTHING:
        assert not {str(n) for n in names} & carried(result)
    else:
        check_names(result, names)
    check_display(result, names)
    check_figure(result, names)


def assert_equal(got: Any, expected: Any) -> None:
    if isinstance(got, (pd.DataFrame, pd.Series)):
        assert got.equals(expected)
    else:
        assert got == expected


@pytest.mark.parametrize("kind", list(NAME_KINDS))
@pytest.mark.parametrize("name", sorted(PAIR_ARGS))
def test_two_sample_functions_keep_the_names(name, kind):
    table = frame(kind)
    a, b = table.columns[0], table.columns[2]
    result = getattr(table.compare, name)(a, b, **PAIR_ARGS[name])
    assert result == getattr(nbstats, name)(table[a], table[b], **PAIR_ARGS[name])
    names = given(pd.Index([a, b], tupleize_cols=False))
    assert (result.name_a, result.name_b) == tuple(names)
    if isinstance(names[0], tuple):
        assert type(result.name_a) is tuple
    check_names(result, names)
    check_display(result, names)
    check_figure(result, names)


@pytest.mark.parametrize("name", sorted(TABLE_ARGS))
def test_multiindex_cases_are_case_names(name):
    table = frame("MultiIndex, 3 levels", "MultiIndex cases")
    result = getattr(table.compare, name)(**TABLE_ARGS[name])
    if isinstance(result, pd.DataFrame):
        assert list(result.index) == given(table.index)
        assert result.index.name == ("dataset", "fold")
    else:
        check_display(result, given(table.columns))
    if name == "score_table":
        assert np.array_equal(result.to_numpy(), table.to_numpy())


def test_multiindex_cases_in_pair_functions_stay_paired():
    table = frame("tuples", "MultiIndex cases")
    a, b = table.columns[:2]
    shuffled = table[b].iloc[::-1]  # paired by case name, not position
    assert nbstats.wilcoxon(table[a], shuffled) == nbstats.wilcoxon(table[a], table[b])


def test_issue_reproducer():
    """The attack's calls: 2- and 3-level MultiIndex columns."""
    for kind in ("MultiIndex, 2 levels", "MultiIndex, 3 levels"):
        table = frame(kind)
        names = given(table.columns)
        result = nbstats.bayes_plackett_luce(table, n_samples=400, random_state=0)
        assert list(result.prob_best.index) == names
        assert list(table.compare.analyze(**DRAWS).ranking.prob_best.index) == names
        assert nbstats.analyze(table, **DRAWS) == table.compare.analyze(**DRAWS)
        matrix = nbstats.comparison_matrix(table)
        assert sorted(matrix.wins.index) == sorted(names)


#: A name element: short visible text or an integer.
_ELEMENT = st.one_of(
    st.text(alphabet="abcXYZ019_-+.() ", min_size=1, max_size=5).filter(
        lambda t: t.strip() == t and t.strip()
    ),
    st.integers(-5, 500),
)


@st.composite
def tuple_columns(draw: Any) -> pd.Index:
    """MultiIndex columns (2 or 3 levels) or a flat Index of tuples of any
    lengths, 3 to 5 distinct names."""
    levels = draw(st.integers(2, 3))
    multi = draw(st.booleans())
    size = st.just(levels) if multi else st.integers(1, 3)
    names = draw(
        st.lists(
            size.flatmap(lambda k: st.tuples(*[_ELEMENT] * k)),
            min_size=3,
            max_size=5,
            unique_by=lambda t: lookalike_key(str(t)),
        )
    )
    if multi:
        return pd.MultiIndex.from_tuples(names)
    return pd.Index(names, tupleize_cols=False)


@settings(max_examples=20, deadline=None)
@given_(columns=tuple_columns(), seed=st.integers(0, 2**16))
def test_generated_tuple_names_are_kept(columns, seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(8, len(columns))) + np.arange(len(columns))
    table = pd.DataFrame(values, columns=columns)
    names = given(columns)
    for name in ("posthoc", "comparison_matrix", "bayes_plackett_luce"):
        kwargs = {"n_samples": 400, "random_state": 0} if "bayes" in name else {}
        result = getattr(table.compare, name)(**kwargs)
        check_names(result, names)
        check_display(result, names)
    a, b = table.columns[:2]
    result = table.compare.wilcoxon(a, b)
    assert (result.name_a, result.name_b) == tuple(names[:2])


# ---------------------------------------------------------------- long data


def long_table() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    algorithms = [("RF", 100), ("RF", 500), ("SVM", 1)]
    cases = [("uci", "iris"), ("uci", "wine"), ("kaggle", "titanic")]
    rows = [
        (case, algorithm, fold, 0.8 + 0.02 * k + rng.normal(0, 0.02))
        for case in cases
        for k, algorithm in enumerate(algorithms)
        for fold in range(5)
    ]
    return pd.DataFrame(rows, columns=["case", "algorithm", "fold", "score"])


LONG_COLUMNS = {"case": "case", "algorithm": "algorithm", "fold": "fold"}


def test_long_score_table_keeps_tuple_values():
    long = long_table()
    table = nbstats.score_table(long, score="score", **LONG_COLUMNS)
    assert list(table.columns) == [("RF", 100), ("RF", 500), ("SVM", 1)]
    assert list(table.index) == [
        ("uci", "iris"),
        ("uci", "wine"),
        ("kaggle", "titanic"),
    ]


def test_fold_summary_takes_tuple_values():
    summary = nbstats.fold_summary(long_table(), **LONG_COLUMNS)
    assert summary["min_folds"] == summary["max_folds"] == 5
    assert long_table().compare.fold_summary(**LONG_COLUMNS) == summary


def test_correlated_pairs_keeps_tuple_names():
    long = long_table()
    result = long.compare.correlated_pairs(score="score", folds=5, **LONG_COLUMNS)
    names = [("RF", 100), ("RF", 500), ("SVM", 1)]
    check_names(result, names)
    cases = set(result.to_frame()["case"])
    assert cases == {("uci", "iris"), ("uci", "wine"), ("kaggle", "titanic")}
    check_display(result, names)
    # a pair may be chosen by the names or by their text
    chosen = nbstats.correlated_pairs(
        long, score="score", folds=5, pairs=[(names[0], "('SVM', 1)")], **LONG_COLUMNS
    )
    assert list(chosen.by_pair["b"]) == [names[2]]


def test_correlated_pairs_reads_the_runs_of_tuple_cases():
    long = long_table()
    long["run"] = long["fold"] // 3  # runs 0 and 1: folds 0-2 and 3-4
    long["fold"] = long["fold"] % 3
    long = long[long["run"] == 0].assign(run=0)
    repeated = pd.concat([long, long.assign(run=1)], ignore_index=True)
    result = nbstats.correlated_pairs(
        repeated, case="case", algorithm="algorithm", score="score",
        fold=["run", "fold"],
    )  # fmt: skip
    assert set(result.to_frame()["n"]) == {6}
    assert set(result.to_frame()["case"]) == {
        ("uci", "iris"), ("uci", "wine"), ("kaggle", "titanic"),
    }  # fmt: skip


@pytest.mark.filterwarnings("ignore:the hierarchical model's sampler reports")
def test_bayes_hierarchical_keeps_tuple_names():
    pytest.importorskip("numpyro")
    long = long_table()
    a, b = ("RF", 100), ("SVM", 1)
    result = long.compare.bayes_hierarchical(
        a, b, score="score", folds=5, n_samples=200, warmup=200, chains=2,
        random_state=0, **LONG_COLUMNS,
    )  # fmt: skip
    assert (result.name_a, result.name_b) == (a, b)
    check_display(result, [a, b])


# ------------------------------------------------------------------ the rest


def test_adjust_pvalues_keeps_the_index():
    index = NAME_KINDS["MultiIndex, 3 levels"]
    pvalues = pd.Series([0.01, 0.02, 0.03, 0.5], index=index)
    adjusted = nbstats.adjust_pvalues(pvalues, method="holm")
    assert adjusted.index.equals(index)
    flat_index = NAME_KINDS["tuples"]
    adjusted = nbstats.adjust_pvalues(pvalues.set_axis(flat_index), method="holm")
    assert list(adjusted.index) == list(flat_index)


def test_race_with_tuple_candidates():
    candidates = [("RF", 100), ("RF", 500), ("SVM", 1)]
    rng = np.random.default_rng(0)
    noise = rng.normal(0, 0.01, (60, 3))

    def evaluate(candidate: tuple, instance: int) -> float:
        return (
            0.1 * candidates.index(candidate)
            + noise[instance, candidates.index(candidate)]
        )

    result = nbstats.race(
        evaluate, candidates, range(60), method="frace-mr", random_state=0,
        progress=False,
    )  # fmt: skip
    assert result.winner == ("SVM", 1)
    assert result.winner is candidates[2]
    assert str(("SVM", 1)) in repr(result)
    result._repr_html_()
    result.to_frame()


@pytest.mark.parametrize("kind", list(NAME_KINDS))
def test_accessor_shape_methods(kind):
    table = frame(kind)
    assert table.compare.critical_difference() == nbstats.critical_difference(
        4, N_CASES
    )
    assert table.compare.nemenyi_min_cases() == nbstats.nemenyi_min_cases(4)


@pytest.mark.parametrize("kind", ["MultiIndex, 3 levels", "tuples"])
def test_cd_diagram_names_the_algorithms(kind):
    import matplotlib.pyplot as plt

    table = frame(kind)
    ax = table.compare.cd_diagram()
    try:
        text = " | ".join(
            flat(t.get_text()) for t in ax.figure.findobj(matplotlib.text.Text)
        )
        for name in given(table.columns):
            assert str(name) in text
    finally:
        plt.close("all")


@pytest.mark.parametrize("kind", ["frequentist", "ranks"])
def test_dashboard_takes_multiindex_columns(kind):
    pytest.importorskip("ipywidgets")
    table = frame("MultiIndex, 3 levels", "MultiIndex cases")
    board = table.compare.dashboard(kind)
    assert board is not None


def test_report_of_a_multiindex_table(tmp_path):
    """One report (a kernel runs it): MultiIndex columns and cases, HTML."""
    table = frame("MultiIndex, 3 levels", "MultiIndex cases")
    path = table.compare.report(
        tmp_path / "report.html", analyses=("frequentist", "ranks"), random_state=0
    )
    # what the page shows: its text with the character references read
    # (the template writes ' as &#x27;, an attribute's " as &quot;)
    page = html.unescape(path.read_text(encoding="utf-8"))
    for name in given(table.columns):
        assert str(name) in page
        assert pandas_text(name) not in page
    assert "Traceback" not in page
    assert str(("dataset", "fold")) in page  # the cases' level names
