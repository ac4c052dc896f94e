"""nbstats.coverage: holes per algorithm and case, and the trade-off between
algorithms kept and complete cases, checked against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import nbstats
from nbstats.stats import coverage_search
from nbstats.stats.coverage_search import best_left_out, complete_count
from tests.real_tables import tabzilla_accuracy


def tabzilla() -> pd.DataFrame:
    return tabzilla_accuracy()


def brute_force(missing: np.ndarray) -> dict[int, int]:
    """The most complete rows for each number d of columns left out (any set
    of at most d columns), by trying every set: no code under test."""
    m = missing.shape[1]
    best = {}
    for d in range(m - 1):
        best[d] = max(
            int((~np.delete(missing, list(drop), axis=1).any(axis=1)).sum())
            for drop in itertools.combinations(range(m), d)
        )
    return best


def frontier_of(best: dict[int, int]) -> list[tuple[int, int]]:
    """(d, count) where count beats every smaller d."""
    out, top = [], -1
    for d in sorted(best):
        if best[d] > top:
            out.append((d, best[d]))
            top = best[d]
    return out


holes = arrays(
    bool,
    st.tuples(st.integers(2, 9), st.integers(2, 6)),
    elements=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(holes)
def test_exact_methods_match_brute_force(missing: np.ndarray) -> None:
    expected = frontier_of(brute_force(missing))
    subset = best_left_out(missing)
    assert subset.search.startswith("exact")
    assert list(zip(map(len, subset.left_out), subset.n_cases, strict=True)) == expected
    # every stated set keeps the count it states
    for drop, count in zip(subset.left_out, subset.n_cases, strict=True):
        assert complete_count(missing, drop) == count


@settings(max_examples=60, deadline=None)
@given(holes)
def test_integer_programme_matches_brute_force(missing: np.ndarray) -> None:
    expected = frontier_of(brute_force(missing))
    old = coverage_search.SUBSET_SUM_MAX
    coverage_search.SUBSET_SUM_MAX = -1  # force the integer programme
    try:
        found = best_left_out(missing)
    finally:
        coverage_search.SUBSET_SUM_MAX = old
    assert all(found.exact)
    assert list(zip(map(len, found.left_out), found.n_cases, strict=True)) == expected
    for drop, count in zip(found.left_out, found.n_cases, strict=True):
        assert complete_count(missing, drop) == count


@settings(max_examples=100, deadline=None)
@given(holes)
def test_greedy_never_claims_more_than_the_best(missing: np.ndarray) -> None:
    best = brute_force(missing)
    found = best_left_out(missing, method="greedy")
    assert not any(found.exact)
    assert "greedy" in found.search
    for drop, count in zip(found.left_out, found.n_cases, strict=True):
        assert complete_count(missing, drop) == count <= best[len(drop)]
    assert found.n_cases == sorted(set(found.n_cases))  # strictly better each row


def test_greedy_can_miss_what_the_exact_search_finds() -> None:
    # two cases each need two algorithms left out; one case needs only C:
    # greedy takes C first (it completes a case) and then needs two more
    missing = np.array(
        [
            [1, 1, 0, 0, 0],
            [1, 1, 0, 0, 0],
            [0, 0, 1, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        dtype=bool,
    )
    exact = best_left_out(missing)
    greedy = best_left_out(missing, method="greedy")
    assert dict(zip(map(len, exact.left_out), exact.n_cases, strict=True)) == {
        0: 1,
        1: 2,
        2: 3,
        3: 4,
    }
    found = dict(zip(map(len, greedy.left_out), greedy.n_cases, strict=True))
    assert found == {0: 1, 1: 2, 3: 4}  # with two left out, still 2 cases


def test_tabzilla_leaving_out_algorithms_keeps_many_more_cases() -> None:
    # issue 35: 16 of 171 data sets complete; leaving out the algorithms with
    # the most holes keeps most of them for the others
    table = tabzilla()
    res = nbstats.coverage(table)
    assert (res.n_cases, res.n_algorithms) == (171, 42)
    assert res.n_missing == int(table.isna().sum().sum()) == 1040
    assert res.n_complete == len(table.dropna()) == 16
    assert res.search.startswith("exact: integer programme")
    t = res.tradeoff
    assert t["exact"].all()
    assert t["n_algorithms"].iloc[0] == 42 and t["n_cases"].iloc[0] == 16
    # each row's set, left out with pandas, keeps the cases it states
    for row in t.itertuples():
        kept = table.drop(columns=list(row.left_out)).dropna()
        assert len(kept) == row.n_cases
        assert table.shape[1] - len(row.left_out) == row.n_algorithms
    by_kept = dict(zip(t["n_algorithms"], t["n_cases"], strict=True))
    assert by_kept[25] == 142  # 17 left out: 142 complete data sets
    assert by_kept[41] == 24  # TabPFN alone (the most holes)
    assert by_kept[41] == len(table.drop(columns="TabPFNModel").dropna())
    # greedy is stated as such and finds no more than the exact search
    greedy = nbstats.coverage(table, method="greedy").tradeoff
    exact = dict(zip(t["n_left_out"], t["n_cases"], strict=True))
    for row in greedy.itertuples():
        best = max(c for d, c in exact.items() if d <= row.n_left_out)
        assert row.n_cases <= best
    assert not greedy["exact"].any()


def test_tabzilla_holes_per_algorithm_and_case() -> None:
    table = tabzilla()
    res = nbstats.coverage(table)
    per_algorithm = res.per_algorithm
    pd.testing.assert_series_equal(
        per_algorithm["missing"].sort_index(),
        table.isna().sum().sort_index().rename("missing"),
        check_names=False,
        check_index_type=False,
    )
    assert per_algorithm.index[0] == "TabPFNModel"  # the most holes first
    assert per_algorithm["missing"].is_monotonic_decreasing
    assert per_algorithm.loc["TabPFNModel", "complete_if_left_out"] == 24
    per_case = res.per_case
    assert per_case["missing"].sum() == 1040
    assert per_case.loc["openml__CIFAR_10__167124", "missing"] == 24
    row = table.loc["openml__CIFAR_10__167124"]
    assert per_case.loc["openml__CIFAR_10__167124", "missing_algorithms"] == tuple(
        row.index[row.isna()]
    )


def test_analyses_state_the_cases_each_uses() -> None:
    table = tabzilla()
    res = nbstats.coverage(table)
    a = res.analyses.set_index("analysis")
    counts = table.notna().astype(int)
    shared = counts.T @ counts
    low = int(shared.to_numpy()[np.triu_indices(42, k=1)].min())
    assert f"{low}–171 of 171" in a.loc["pairwise tests (Wilcoxon, sign, t)", "cases"]
    assert "171 of 171" in a.loc["Skillings–Mack test", "cases"]
    assert "not this table" in a.loc["Durbin test", "cases"]
    calls = " ".join(a["call"])
    for name in ("skillings_mack", "durbin", "bayes_signrank_pairs",
                 "bayes_plackett_luce", "comparison_matrix", "rank_ci"):  # fmt: skip
        assert f"nbstats.{name}(" in calls
        assert callable(getattr(nbstats, name))


def test_named_calls_run_on_the_table() -> None:
    # every call the result names accepts the incomplete table as written
    table = pd.DataFrame(
        {
            "A": [0.9, 0.8, 0.7, 0.6, 0.5, np.nan, 0.3, 0.2],
            "B": [0.8, np.nan, 0.6, 0.5, 0.4, 0.35, 0.2, 0.1],
            "C": [0.7, 0.6, 0.5, np.nan, 0.3, 0.25, 0.1, 0.0],
        }
    )
    res = nbstats.coverage(table)
    for call in res.analyses["call"]:
        if "durbin" in call:
            continue  # not a balanced design: refused, as the row says
        if "plackett_luce" in call:
            call = call[:-1] + ", n_samples=400, random_state=0)"
        eval(call, {"nbstats": nbstats, "scores": table})


def test_durbin_row_on_a_balanced_design() -> None:
    # a BIBD: 3 algorithms, each case scores 2, each pair shares 2 cases
    nan = np.nan
    table = pd.DataFrame(
        [
            [1.0, 2, nan],
            [2, 1, nan],
            [1, nan, 2],
            [2, nan, 1],
            [nan, 1, 2],
            [nan, 2, 1],
        ],
        columns=list("ABC"),
    )
    res = nbstats.coverage(table)
    row = res.analyses.set_index("analysis").loc["Durbin test", "cases"]
    assert row.startswith("all 6 cases")
    nbstats.durbin(table)  # and Durbin's test takes it
    assert res.tradeoff["n_cases"].tolist() == [0, 2]


def test_complete_table_has_one_row() -> None:
    res = nbstats.coverage(nbstats.datasets.load("demsar2006"))
    assert res.n_missing == 0 and res.n_complete == 14
    assert res.tradeoff[["n_algorithms", "n_cases"]].values.tolist() == [[4, 14]]
    assert "0 of 56 scores missing" in res.summary()


def test_accessor_is_the_function() -> None:
    table = tabzilla().iloc[:40, :8]
    assert table.compare.coverage() == nbstats.coverage(table)


@pytest.mark.parametrize(
    ("data", "kw", "error", "words"),
    [
        ([[1.0, 2.0]], {}, ValueError, "at least 2 cases"),
        ([[1.0], [2.0]], {}, ValueError, "at least 2 algorithms"),
        ([[1.0, np.inf], [2.0, 3.0]], {}, ValueError, "finite"),
        ([["a", 1.0], [2.0, 3.0]], {}, TypeError, "column"),
        ([[1.0, 2.0], [2.0, 3.0]], {"method": "fast"}, ValueError, "method='fast'"),
    ],
)
def test_bad_input(data, kw, error, words) -> None:
    with pytest.raises(error, match=words):
        nbstats.coverage(data, **kw)


def test_displays() -> None:
    res = nbstats.coverage(tabzilla())
    text = res.summary()
    assert "16 cases complete" in text
    assert "Which algorithms to leave out" in text
    assert "nbstats.skillings_mack(scores)" in text
    html = res._repr_html_()
    assert "<script" not in html and "TabPFNModel" in html
    latex = res.to_latex()
    assert r"\begin{table}" in latex or r"\begin{longtable}" in latex
    assert "integer programme" in latex
    assert res.to_frame().equals(res.tradeoff)
    advice = res.advice()
    assert advice.startswith("16 of 171 cases are complete for all 42 algorithms;")
    assert "keeps 106 complete cases for the other 33" in advice


def test_analyze_with_omit_carries_the_coverage() -> None:
    table = tabzilla()[["CatBoost", "LightGBM", "XGBoost", "TabPFNModel", "SVM"]]
    with pytest.warns(UserWarning, match="nan_policy='omit'"):
        res = nbstats.analyze(table, nan_policy="omit", bayes=False)
    complete = len(table.dropna())
    assert res.n_cases == complete
    assert res.coverage == nbstats.coverage(table)
    step = res.log.iloc[0]
    assert step["step"] == "missing scores"
    assert step["choice"] == f"the {complete} complete cases of 171"
    assert "biased subset" in step["reason"]  # more than half left out
    assert res.coverage.summary() in res.summary()
    assert "Which algorithms to leave out" in res._repr_html_()


def test_analyze_without_holes_has_no_coverage() -> None:
    res = nbstats.analyze(nbstats.datasets.load("demsar2006"), bayes=False)
    assert res.coverage is None
    assert "missing scores" not in res.log["step"].tolist()


def test_refusal_points_to_coverage() -> None:
    table = tabzilla()
    with pytest.raises(ValueError, match="missing scores at") as info:
        nbstats.friedman(table)
    message = str(info.value)
    assert "1,040 missing scores in 155 of 171 cases" in message
    assert "nan_policy='omit' would drop 155 of the 171 cases and keep 16" in message
    assert "biased subset" in message
    assert "nbstats.coverage(scores)" in message
    for name in ("skillings_mack", "bayes_plackett_luce", "bayes_signrank_pairs"):
        assert name in message
    # less than half incomplete: no warning of bias
    small = nbstats.datasets.load("demsar2006")
    small.iloc[0, 0] = np.nan
    with pytest.raises(ValueError, match="keep 13\\. nbstats.coverage"):
        nbstats.friedman(small)
    # two algorithms: a pair's complete cases are its own; no coverage advice
    with pytest.raises(ValueError, match="missing scores") as info:
        nbstats.wilcoxon(small.iloc[:, 0], small.iloc[:, 1])
    assert "coverage" not in str(info.value)


def test_node_limit_keeps_stated_counts_true(monkeypatch) -> None:
    # past the node limit a row keeps the best set found, marked not proven;
    # every stated count is still what its set keeps
    rng = np.random.default_rng(3)
    missing = rng.random((120, 30)) < 0.06
    missing[:, :4] |= rng.random((120, 4)) < 0.4
    exact = best_left_out(missing, method="exact")
    assert all(exact.exact)
    monkeypatch.setattr(coverage_search, "NODE_LIMIT", 1)
    limited = best_left_out(missing)
    best = dict(zip(map(len, exact.left_out), exact.n_cases, strict=True))
    for drop, count, proven in zip(
        limited.left_out, limited.n_cases, limited.exact, strict=True
    ):
        assert complete_count(missing, drop) == count
        top = max(c for d, c in best.items() if d <= len(drop))
        assert count <= top
        if proven:
            assert count == top
    if not all(limited.exact):
        assert "greedy" in limited.search or "not" in limited.search


def test_time_budget_keeps_stated_counts_true(monkeypatch) -> None:
    # out of time, a row keeps the best set found, marked not proven (a row
    # every case of which is within reach needs no proof); every stated
    # count is what its set keeps, and none beats the exact frontier
    rng = np.random.default_rng(5)
    missing = rng.random((80, 40)) < 0.05
    exact = best_left_out(missing, method="exact")
    monkeypatch.setattr(coverage_search, "TIME_BUDGET", 0.0)
    rushed = best_left_out(missing)
    assert not all(rushed.exact)
    assert "0 s in all" in rushed.search
    best = dict(zip(map(len, exact.left_out), exact.n_cases, strict=True))
    for drop, count in zip(rushed.left_out, rushed.n_cases, strict=True):
        assert complete_count(missing, drop) == count
        assert count <= max(c for d, c in best.items() if d <= len(drop))


def test_greedy_takes_the_algorithm_that_completes_most() -> None:
    # brute force of each greedy step: leave each remaining algorithm out in
    # turn and count complete cases (ties: most holes among open cases, then
    # the first column)
    rng = np.random.default_rng(2)
    for _ in range(50):
        n, m = rng.integers(2, 25), rng.integers(3, 12)
        missing = rng.random((n, m)) < rng.uniform(0.05, 0.5)
        steps = min(int(missing.any(axis=0).sum()), m - 2)
        keep = np.ones(m, dtype=bool)
        expected = [((), complete_count(missing, ()))]
        for _ in range(steps):
            open_rows = missing[:, keep].any(axis=1)
            keys = []
            for j in np.flatnonzero(keep):
                drop = [k for k in range(m) if not keep[k]] + [j]
                holes = int(missing[open_rows, j].sum())
                keys.append((complete_count(missing, drop), holes, -j))
            count, _, j = max(keys)
            keep[-j] = False
            expected.append((tuple(int(k) for k in np.flatnonzero(~keep)), count))
        got = coverage_search._greedy(missing, steps)
        assert [(tuple(sorted(d)), c) for d, c in got] == expected
