"""nbstats.conover: Conover's t-tests on Friedman's rank sums
(issue 18, item 2), against scikit-posthocs' posthoc_conover_friedman and
Conover's (1999, §5.8) formula computed here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats


def _tables() -> list[pd.DataFrame]:
    rng = np.random.default_rng(1999)
    tables = [nbstats.datasets.load("demsar2006")]
    for n, k in [(10, 3), (25, 6), (40, 8)]:
        values = rng.normal(size=(n, k)) + np.linspace(0, 1, k)
        tables.append(pd.DataFrame(values, columns=[f"alg{j}" for j in range(k)]))
    # integer scores: ties within cases
    tables.append(pd.DataFrame(rng.integers(0, 4, size=(15, 4)), columns=list("abcd")))
    return tables


@pytest.mark.parametrize("table", _tables(), ids=lambda t: f"{t.shape[0]}x{t.shape[1]}")
@pytest.mark.parametrize("adjust", ["none", "holm", "bonferroni"])
def test_equals_scikit_posthocs(table, adjust):
    theirs = sp.posthoc_conover_friedman(
        table.to_numpy(dtype=float), p_adjust=None if adjust == "none" else adjust
    ).to_numpy()
    ours = nbstats.conover(table, adjust=adjust)
    off = ~np.eye(table.shape[1], dtype=bool)
    np.testing.assert_allclose(ours.adjusted.to_numpy(dtype=float)[off], theirs[off],
                               rtol=1e-10)  # fmt: skip


def test_conovers_formula_and_direction():
    table = _tables()[2]
    n, k = table.shape
    ranks = stats.rankdata(-table.to_numpy(), axis=1)  # 1 = best
    sums = ranks.sum(axis=0)
    a = np.sum(ranks**2)
    se = np.sqrt(2 * (n * a - np.sum(sums**2)) / ((n - 1) * (k - 1)))
    res = nbstats.conover(table, adjust="none")
    first, second = table.columns[0], table.columns[-1]
    t = (sums[0] - sums[-1]) / se  # > 0: the last (shifted up) is better
    assert t > 0
    assert res.statistics.loc[first, second] == pytest.approx(t, rel=1e-12)
    assert res.pvalues.loc[first, second] == pytest.approx(
        2 * stats.t.sf(abs(t), (n - 1) * (k - 1)), rel=1e-12
    )


def test_against_a_control_and_perfect_agreement():
    table = _tables()[1]
    res = nbstats.conover(table, control="alg0", adjust="finner")
    assert list(res.pvalues.index) == ["alg1", "alg2"]
    agree = pd.DataFrame({"a": [1.0, 2, 3], "b": [2.0, 3, 4], "c": [2.0, 3, 4]})
    certain = nbstats.conover(agree, adjust="none")
    assert certain.pvalues.loc["a", "b"] == 0.0
    assert certain.pvalues.loc["b", "c"] == 1.0


@pytest.mark.parametrize("ranks", ["friedman", "quade"])
def test_missing_cells_are_refused_naming_both_ways_out(ranks):
    table = pd.DataFrame({"a": [1.0, np.nan, 3], "b": [2.0, 3, 4], "c": [0.0, 1, 2]})
    with pytest.raises(
        ValueError, match=r"missing scores.*ranks='durbin'.*nan_policy='omit'"
    ):
        nbstats.conover(table, ranks=ranks)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nan_policy'"):
        nbstats.conover(table, nan_policy="omit")  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"adjust": "fdr"}, ValueError, "unknown adjust='fdr'"),
        ({"adjust": None}, ValueError, "unknown adjust=None"),
        ({"alpha": "0.05"}, TypeError, "alpha must be a number"),
        ({"higher_is_better": 1}, TypeError, "higher_is_better must be True"),
        ({"control": "zz"}, ValueError, "control='zz' is not one of"),
    ],
)
def test_bad_arguments_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        nbstats.conover(_tables()[1], **kwargs)


@pytest.mark.parametrize("adjust", ["shaffer", "bergmann-hommel"])
@pytest.mark.parametrize("ranks", ["friedman", "quade"])
def test_all_pairs_adjustments_against_a_control_are_holm(adjust, ranks):
    table = _tables()[2]
    res = nbstats.conover(table, ranks=ranks, adjust=adjust, control="alg2")
    assert res.method == "conover" and res.adjust == "holm"
    assert "any combination" in res.note
    reject, holm, _, _ = multipletests(res.pvalues.to_numpy(), 0.05, "holm")
    np.testing.assert_allclose(res.adjusted.to_numpy(), holm, rtol=1e-12)
    np.testing.assert_array_equal(res.reject.to_numpy(), reject)


@pytest.mark.parametrize("table", _tables(), ids=lambda t: f"{t.shape[0]}x{t.shape[1]}")
def test_quade_scores_equal_scikit_posthocs_posthoc_quade(table):
    # Conover's t-tests on Quade's weighted scores (scikit-posthocs' default,
    # dist="t"); its dist="normal" variant puts n·k where García et al. put
    # the number of cases n, so nbstats' z-tests on Quade ranks
    # (posthoc(ranks="quade")) follow scmamp instead
    theirs = sp.posthoc_quade(table.to_numpy(dtype=float)).to_numpy()
    ours = nbstats.conover(table, ranks="quade", adjust="none")
    off = ~np.eye(table.shape[1], dtype=bool)
    np.testing.assert_allclose(ours.pvalues.to_numpy(dtype=float)[off], theirs[off],
                               rtol=1e-10)  # fmt: skip


def test_conover_takes_no_aligned_ranks():
    with pytest.raises(ValueError, match="unknown ranks='aligned'"):
        nbstats.conover(_tables()[1], ranks="aligned")
