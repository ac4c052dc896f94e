"""A comparison matrix adjusted again (nbstats.stats.comparison.readjusted_matrix).

Oracle: :func:`nbstats.comparison_matrix` itself, run afresh. A re-adjusted
matrix must equal a fresh call with that adjustment and α in every field
(p-values, decisions, groups, records), raise the same error and give the
same warning; the adjustments themselves are tested against R and the papers
in ``tests/stats/frequentist``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.comparison import readjusted_matrix
from nbstats.stats.frequentist.adjust import ADJUSTMENTS

TESTS = ("wilcoxon", "sign", "ttest")


def scores(m: int, n: int = 14, seed: int = 11) -> pd.DataFrame:
    """Rounded scores (ties within cases and between p-values), the best
    columns last."""
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n, m)) + np.linspace(0.0, 1.2, m)
    return pd.DataFrame(np.round(values, 1), columns=[f"alg{j}" for j in range(m)])


def fresh(table, test, adjust, alpha, higher_is_better=True):
    """comparison_matrix, or the error it raises, with its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = nbstats.comparison_matrix(
                table, test=test, adjust=adjust, alpha=alpha,
                higher_is_better=higher_is_better,
            )  # fmt: skip
        except ValueError as error:
            got = error
    return got, [str(w.message) for w in caught]


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("higher_is_better", [True, False])
def test_every_adjustment_equals_a_fresh_comparison_matrix(test, higher_is_better):
    table = scores(7)
    base = nbstats.comparison_matrix(
        table, test=test, adjust="holm", higher_is_better=higher_is_better
    )
    for adjust in ADJUSTMENTS:
        for alpha in (0.05, 0.2):
            want, _ = fresh(table, test, adjust, alpha, higher_is_better)
            got = readjusted_matrix(base, list(table.columns), adjust, alpha)
            assert got == want, (adjust, alpha)
            # the kept parts are the tests', not copies
            assert got.pvalues is base.pvalues and got.wins is base.wins


def test_errors_and_warnings_are_those_of_a_fresh_call():
    # Rom's procedure refuses more than 120 p-values (17 algorithms: 136);
    # Bergmann–Hommel falls back to Shaffer's, with a warning, beyond 12
    table = scores(17, n=20)
    base = nbstats.comparison_matrix(table, adjust="holm")
    want, _ = fresh(table, "wilcoxon", "rom", 0.05)
    assert isinstance(want, ValueError)
    with pytest.raises(ValueError, match="Rom's procedure") as caught:
        readjusted_matrix(base, list(table.columns), "rom", 0.05)
    assert str(caught.value) == str(want)
    want, told = fresh(table, "wilcoxon", "bergmann-hommel", 0.05)
    assert told and "Shaffer" in told[0]
    with pytest.warns(UserWarning, match="Shaffer") as record:
        got = readjusted_matrix(base, list(table.columns), "bergmann-hommel", 0.05)
    assert [str(w.message) for w in record] == told
    assert got == want


def test_the_order_of_the_columns_is_the_tables():
    """A table whose columns are not in mean-rank order (the matrix's): the
    p-values are read back in the table's order."""
    table = scores(6)[["alg5", "alg0", "alg3", "alg1", "alg4", "alg2"]]
    base = nbstats.comparison_matrix(table, adjust="none")
    assert list(base.names) != list(table.columns)
    for adjust in ("shaffer", "bergmann-hommel", "hommel"):
        want, _ = fresh(table, "wilcoxon", adjust, 0.1)
        assert readjusted_matrix(base, list(table.columns), adjust, 0.1) == want


def test_bad_settings_are_refused_by_name():
    table = scores(4)
    base = nbstats.comparison_matrix(table)
    with pytest.raises(ValueError, match="columns must name the matrix's algorithms"):
        readjusted_matrix(base, ["alg0", "alg1", "alg2"], "holm", 0.05)
    with pytest.raises(ValueError, match="adjust"):
        readjusted_matrix(base, list(table.columns), "bonferoni", 0.05)
    with pytest.raises(ValueError, match="alpha"):
        readjusted_matrix(base, list(table.columns), "holm", 1.5)
