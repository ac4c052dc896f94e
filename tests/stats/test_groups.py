"""Non-significant groups: maximal cliques, bounded when they explode."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import nbstats
from nbstats.stats.groups import nonsignificant_groups


def _matching(n: int) -> tuple[pd.DataFrame, pd.Series]:
    """Only the pairs (0, 1), (2, 3), … differ: 2^(n/2) maximal groups."""
    names = [f"x{i:02d}" for i in range(n)]
    reject = np.zeros((n, n), dtype=bool)
    for i in range(0, n, 2):
        reject[i, i + 1] = reject[i + 1, i] = True
    ranks = pd.Series(np.arange(1.0, n + 1), index=names)
    return pd.DataFrame(reject, index=names, columns=names), ranks


def test_small_explosion_is_listed_in_full():
    reject, ranks = _matching(10)
    groups = nonsignificant_groups(reject, ranks)
    assert len(groups) == 2**5
    for group in groups:  # no rejected pair inside, and maximal
        assert not any(reject.loc[a, b] for a, b in itertools.combinations(group, 2))
        outside = set(reject.index) - set(group)
        assert all(any(reject.loc[o, g] for g in group) for o in outside)


def test_explosion_falls_back_to_rank_runs_with_a_warning():
    reject, ranks = _matching(60)  # 2^30 maximal groups
    with pytest.warns(UserWarning, match="runs of algorithms consecutive in mean rank"):
        groups = nonsignificant_groups(reject, ranks)
    pairs = [(f"x{i:02d}", f"x{i + 1:02d}") for i in range(1, 59, 2)]
    assert groups == [("x00",), *pairs, ("x59",)]
    covered = {name for g in groups for name in g}
    assert covered == set(reject.index)
    with pytest.raises(ValueError, match="too many to list"):
        nonsignificant_groups(reject, ranks, fallback=False)
    with pytest.raises(ValueError, match="pairwise_heatmap"):
        nbstats.letters(reject, ranks)


def test_a_race_of_200_candidates_stays_small():
    """200 candidates once made 22 GB of groups inside a race step."""

    def evaluate(candidate, instance):
        rng = np.random.default_rng(candidate * 1000 + instance)
        return float(rng.normal(0.5 + 0.0005 * candidate, 0.1))

    res = nbstats.race(
        evaluate, list(range(200)), range(12), method="bayes", first_test=10,
        n_samples=2000, random_state=0, progress=False,
    )  # fmt: skip
    assert 1 <= len(res.survivor_names) <= 200


def _brute_force_groups(reject: np.ndarray) -> set[frozenset[int]]:
    """Every maximal set of vertices with no rejected pair, by enumeration."""
    m = reject.shape[0]
    differ = reject | reject.T
    cliques = [
        set(c)
        for size in range(1, m + 1)
        for c in itertools.combinations(range(m), size)
        if not any(differ[a, b] for a, b in itertools.combinations(c, 2))
    ]
    return {frozenset(c) for c in cliques if not any(c < d for d in cliques)}


@st.composite
def _reject_matrices(draw):
    m = draw(st.integers(1, 9))
    kind = draw(st.sampled_from(["random", "interval"]))
    if kind == "interval":  # Nemenyi-like: differ when mean ranks are far apart
        ranks = np.array(draw(st.lists(st.integers(0, 12), min_size=m, max_size=m)))
        width = draw(st.integers(0, 12))
        reject = np.abs(ranks[:, None] - ranks[None, :]) > width
    else:
        upper = np.triu(draw(hnp.arrays(bool, (m, m))), 1)
        reject = upper | upper.T
        ranks = np.array(draw(st.permutations(range(m))))
    return reject, ranks.astype(float)


@settings(max_examples=300, deadline=None)
@given(case=_reject_matrices())
def test_groups_are_the_maximal_cliques(case):
    reject, ranks = case
    m = len(ranks)
    names = [f"a{i}" for i in range(m)]
    frame = pd.DataFrame(reject, index=names, columns=names)
    groups = nonsignificant_groups(frame, pd.Series(ranks, index=names))
    expected = _brute_force_groups(reject)
    assert {frozenset(names.index(a) for a in g) for g in groups} == expected
    assert len(groups) == len(expected)
    for group in groups:  # best rank first, ties in column order
        keys = [(ranks[names.index(a)], names.index(a)) for a in group]
        assert keys == sorted(keys)


def test_a_deep_group_needs_no_recursion():
    # 1500 algorithms, only (x0000, x0002) differ: two groups of 1499, found by
    # the clique search (not the runs: x0000's partners are not one run);
    # the recursive search hit the recursion limit at about 1000
    m = 1500
    names = [f"x{i:04d}" for i in range(m)]
    reject = np.zeros((m, m), dtype=bool)
    reject[0, 2] = reject[2, 0] = True
    frame = pd.DataFrame(reject, index=names, columns=names)
    ranks = pd.Series(np.arange(1.0, m + 1), index=names)
    groups = nonsignificant_groups(frame, ranks)
    everyone = set(names)
    assert [set(g) for g in groups] == [everyone - {"x0002"}, everyone - {"x0000"}]


def test_many_algorithms_in_one_group():
    # nothing rejected among 4000: one group (the recursive search: RecursionError)
    m = 4000
    names = [f"x{i:04d}" for i in range(m)]
    frame = pd.DataFrame(np.zeros((m, m), dtype=bool), index=names, columns=names)
    ranks = pd.Series(np.linspace(1, m, m)[::-1], index=names)
    assert nonsignificant_groups(frame, ranks) == [tuple(names[::-1])]
