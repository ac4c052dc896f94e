"""rank_ci gives the same answer whatever the order of the rows and columns.

The attack (issue 30, finding 4): permuting the rows changed the bootstrap
rank intervals for the same seed (the resampled case indices pointed at other
cases). The bootstrap now draws from the table in a canonical order, so the
same seed gives bit-identical intervals under any permutation of the rows
and of the columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import nbstats
from nbstats.stats.ranking import RANK_CI_METHODS

SETTINGS = settings(max_examples=60, deadline=None)

#: few distinct values (ties between cases and within them, zeros, negatives)
#: or any finite floats
ELEMENTS = st.one_of(
    st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0]),
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
)


@st.composite
def _permuted_tables(draw):
    n = draw(st.integers(2, 12))
    m = draw(st.integers(2, 11))  # 11: "10" sorts before "2" by name
    values = draw(hnp.arrays(np.float64, (n, m), elements=ELEMENTS))
    names = [f"alg{j}" for j in range(m)]
    table = pd.DataFrame(values, index=[f"case{i}" for i in range(n)], columns=names)
    rows = draw(st.permutations(range(n)))
    columns = draw(st.permutations(range(m)))
    return table, table.iloc[list(rows), list(columns)]


def _same(a, b) -> None:
    """Bit-identical Series, matched by algorithm name."""
    pd.testing.assert_series_equal(a, b.loc[a.index], check_exact=True)


@SETTINGS
@given(
    tables=_permuted_tables(),
    seed=st.integers(0, 2**32 - 1),
    higher_is_better=st.booleans(),
    alpha=st.sampled_from([0.05, 0.2]),
)
def test_bootstrap_intervals_do_not_depend_on_the_order(
    tables, seed, higher_is_better, alpha
):
    table, permuted = tables
    options = {
        "method": "bootstrap",
        "n_resamples": 200,
        "random_state": seed,
        "alpha": alpha,
        "higher_is_better": higher_is_better,
    }
    before = nbstats.rank_ci(table, **options)
    after = nbstats.rank_ci(permuted, **options)
    _same(before.lower, after.lower)
    _same(before.upper, after.upper)


def test_attack_rows_reversed():
    # the attack's shape: the same table with its rows in another order (this
    # seed's table is one where the old draws gave another interval)
    rng = np.random.default_rng(6)
    table = pd.DataFrame(
        rng.normal(size=(15, 5)) + [0, 0.05, 0.1, 0.15, 0.2],
        columns=list("ABCDE"),
    )
    options = {"method": "bootstrap", "random_state": 0}
    before = nbstats.rank_ci(table, **options)
    for permuted in (table.iloc[::-1], table[list("EDCBA")], table.iloc[::-1, ::-1]):
        after = nbstats.rank_ci(permuted, **options)
        _same(before.lower, after.lower)
        _same(before.upper, after.upper)


@pytest.mark.parametrize("method", [m for m in RANK_CI_METHODS if m != "bootstrap"])
@settings(max_examples=20, deadline=None)
@given(tables=_permuted_tables())
def test_test_based_intervals_do_not_depend_on_the_order(method, tables):
    table, permuted = tables
    before = nbstats.rank_ci(table, method=method)
    after = nbstats.rank_ci(permuted, method=method)
    _same(before.lower, after.lower)
    _same(before.upper, after.upper)


@settings(max_examples=40, deadline=None)
@given(
    shape=st.tuples(st.integers(3, 30), st.integers(2, 12)),
    seed=st.integers(0, 2**32 - 1),
)
def test_nemenyi_pvalues_are_the_posthocs(shape, seed):
    # rank_ci computes Nemenyi's p-values itself (the post-hoc result's
    # effect sizes take gigabytes at thousands of algorithms): the same numbers
    # (up to the integral's floor of 1e-16 far in the tail)
    n, m = shape
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, m)) + np.linspace(0, 3 * m, m)  # the same order
    res = nbstats.rank_ci(x, method="id-nemenyi", alpha=0.5)
    assert res.omnibus_rejected
    reference = nbstats.posthoc(x, method="nemenyi").adjusted
    np.testing.assert_allclose(
        res.pvalues.to_numpy(), reference.to_numpy(), rtol=1e-12, atol=1e-15
    )
