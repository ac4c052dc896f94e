"""Two-sample results record the cases they used (issue 35, item 1):
``wilcoxon``, ``sign_test``, ``ttest``, ``bayes_signrank`` and
``bayes_sign_test`` carry ``.cases``, the labels of the cases behind ``n``,
after the missing pairs and (where the method drops them) the zeros are
left out; checked against labels written out by hand, against pandas on
TabZilla's real table with holes (``tests/data/tabzilla/README.md``), and
against the table results' ``.cases``."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from tests.real_tables import tabzilla_accuracy

#: Six data sets: "wine" misses a's score; "yeast" and "glass" are ties
#: (zero differences), "iris", "heart" and "sonar" are not.
A = pd.Series(
    [0.80, np.nan, 0.70, 0.50, 0.60, 0.90],
    index=["iris", "wine", "yeast", "glass", "heart", "sonar"],
)
B = pd.Series([0.90, 0.60, 0.70, 0.50, 0.40, 0.95], index=A.index)
ALL = ["iris", "yeast", "glass", "heart", "sonar"]  # both scored
NONZERO = ["iris", "heart", "sonar"]


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return function(*args, **kwargs)


@pytest.mark.parametrize(
    ("zero_method", "expected"),
    [("zsplit", ALL), ("pratt", ALL), ("wilcox", NONZERO)],
)
def test_wilcoxon_cases_by_hand(zero_method, expected):
    res = _quiet(nbstats.wilcoxon, A, B, nan_policy="omit", zero_method=zero_method)
    assert list(res.cases) == expected
    assert res.n_cases == len(expected)


def test_sign_test_cases_by_hand():
    drop = _quiet(nbstats.sign_test, A, B, nan_policy="omit", ties="drop")
    assert list(drop.cases) == NONZERO and drop.n_cases == 3
    # two ties, an even number: both shared, every case used
    split = _quiet(nbstats.sign_test, A, B, nan_policy="omit", ties="split")
    assert list(split.cases) == ALL and split.n_cases == 5
    # three ties: one is left out, the last tied case in the table's order
    a = pd.Series([1.0, 2.0, 3.0, 4.0, 5.0], index=list("pqrst"))
    b = pd.Series([2.0, 2.0, 3.0, 3.0, 5.0], index=list("pqrst"))
    odd = nbstats.sign_test(a, b, ties="split")
    assert list(odd.cases) == ["p", "q", "r", "s"] and odd.n_cases == 4


def test_ttest_and_bayesian_tests_use_every_case_with_both_scores():
    assert list(_quiet(nbstats.ttest, A, B, nan_policy="omit").cases) == ALL
    signrank = _quiet(
        nbstats.bayes_signrank, A, B, nan_policy="omit", n_samples=1000,
        random_state=0,
    )  # fmt: skip
    assert list(signrank.cases) == ALL and signrank.n_cases == 5
    for rope in (0.0, 0.05):  # a tie or a difference within the rope counts
        sign = _quiet(nbstats.bayes_sign_test, A, B, nan_policy="omit", rope=rope)
        assert list(sign.cases) == ALL
        assert sign.wins + sign.losses + sign.n_ties == 5


def test_arrays_give_positions_as_a_table_does():
    a, b = [1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 4.0, 5.0]
    res = nbstats.wilcoxon(a, b, zero_method="wilcox")
    assert list(res.cases) == [0, 2, 3]
    table = nbstats.friedman(pd.DataFrame({"a": a, "b": b}))
    assert list(nbstats.ttest(a, b).cases) == list(table.cases)


def test_the_accessor_carries_the_cases():
    frame = pd.DataFrame({"A": A, "B": B})
    res = _quiet(frame.compare.wilcoxon, "A", "B", nan_policy="omit")
    assert list(res.cases) == ALL


@pytest.mark.parametrize(("a", "b"), [("CatBoost", "TabPFNModel"), ("KNN", "SAINT")])
def test_real_table_cases_are_the_shared_data_sets(a, b):
    table = tabzilla_accuracy()
    both = table.index[table[a].notna() & table[b].notna()]
    d = (table[b] - table[a])[both]
    assert len(both) < len(table)  # the pair has holes
    wilcoxon = _quiet(nbstats.wilcoxon, table[a], table[b], nan_policy="omit")
    assert wilcoxon.cases.equals(both) and wilcoxon.n_cases == len(both)
    wilcox = _quiet(
        nbstats.wilcoxon, table[a], table[b], nan_policy="omit", zero_method="wilcox"
    )
    assert wilcox.cases.equals(both[(d != 0).to_numpy()])
    assert wilcox.n_cases == int((d != 0).sum())
    drop = _quiet(nbstats.sign_test, table[a], table[b], nan_policy="omit", ties="drop")
    assert drop.cases.equals(both[(d != 0).to_numpy()])
    ttest = _quiet(nbstats.ttest, table[a], table[b], nan_policy="pairwise")
    assert ttest.cases.equals(both)
    # the same cases as the table results on the pair's columns
    friedman = _quiet(nbstats.friedman, table[[a, b]], nan_policy="omit")
    assert ttest.cases.equals(friedman.cases)
    pairs = _quiet(
        nbstats.bayes_signrank_pairs, table[[a, b]], nan_policy="pairwise",
        n_samples=1000, random_state=0,
    )  # fmt: skip
    assert int(pairs.pairs["n"].iloc[0]) == len(both)
    signrank = _quiet(
        nbstats.bayes_signrank, table[a], table[b], nan_policy="pairwise",
        n_samples=1000, random_state=0,
    )  # fmt: skip
    assert signrank.cases.equals(both) and signrank.n_cases == len(both)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(0, 4)),
            st.one_of(st.none(), st.integers(0, 4)),
        ),
        min_size=2,
        max_size=25,
    ),
    st.sampled_from(["zsplit", "pratt", "wilcox"]),
    st.sampled_from(["split", "drop"]),
)
def test_cases_are_the_n_cases_the_method_counts(pairs, zero_method, ties):
    index = [f"case{i}" for i in range(len(pairs))]
    a = pd.Series([np.nan if x is None else float(x) for x, _ in pairs], index=index)
    b = pd.Series([np.nan if y is None else float(y) for _, y in pairs], index=index)
    shared = [i for i, (x, y) in enumerate(pairs) if x is not None and y is not None]
    if len(shared) < 2:
        return  # a score table needs two cases
    labels = [index[i] for i in shared]
    nonzero = [index[i] for i in shared if pairs[i][0] != pairs[i][1]]
    tied = [index[i] for i in shared if pairs[i][0] == pairs[i][1]]
    w = _quiet(nbstats.wilcoxon, a, b, nan_policy="omit", zero_method=zero_method)
    assert list(w.cases) == (nonzero if zero_method == "wilcox" else labels)
    assert len(w.cases) == w.n_cases
    s = _quiet(nbstats.sign_test, a, b, nan_policy="omit", ties=ties)
    kept = set(nonzero) | (
        set(tied[: 2 * (len(tied) // 2)]) if ties == "split" else set()
    )
    assert list(s.cases) == [c for c in labels if c in kept]
    assert len(s.cases) == s.n_cases
    assert list(_quiet(nbstats.ttest, a, b, nan_policy="omit").cases) == labels
