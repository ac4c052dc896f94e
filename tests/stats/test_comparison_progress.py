"""The comparison matrix's pairwise tests show their progress (issue 34: every
long computation shows progress and can be stopped). At hundreds of
algorithms ``comparison_matrix(test="wilcoxon")`` runs one signed-rank test
per pair: minutes."""

from __future__ import annotations

import numpy as np
import pytest

import nbstats
from nbstats.stats.frequentist import pairwise_tests as pairwise_module
from tests.progress_helpers import record_bars


@pytest.fixture
def bars(monkeypatch):
    return record_bars(monkeypatch, [pairwise_module])


@pytest.mark.parametrize("method", ["wilcoxon", "sign", "ttest"])
def test_every_pair_is_counted_and_the_bar_closed(bars, method):
    table = np.random.default_rng(0).normal(size=(12, 7))
    res = nbstats.comparison_matrix(table, test=method, progress=True)
    ((desc, unit, bar),) = bars
    assert (desc, unit) == ("comparison_matrix", "pair")
    assert bar.n == bar.total == 21 and bar.closed
    quiet = nbstats.comparison_matrix(table, test=method)  # the bar changes nothing
    assert np.array_equal(
        res.pvalues.to_numpy(), quiet.pvalues.to_numpy(), equal_nan=True
    )


def test_a_real_bar_when_asked_none_under_pytest(capsys):
    table = np.random.default_rng(1).normal(size=(10, 5))
    nbstats.comparison_matrix(table)
    assert "comparison_matrix" not in capsys.readouterr().err
    nbstats.comparison_matrix(table, progress=True)
    err = capsys.readouterr().err
    assert "comparison_matrix" in err and "10/10" in err


def test_an_interrupt_stops_the_pairs_and_closes_the_bar(bars, monkeypatch):
    table = np.random.default_rng(2).normal(size=(10, 6))
    calls = []

    def interrupted(d, **options):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return 1.0, 0.5, 1.0

    monkeypatch.setitem(pairwise_module.PAIRWISE_TESTS, "ttest", interrupted)
    with pytest.raises(KeyboardInterrupt):
        nbstats.comparison_matrix(table, test="ttest", progress=True)
    ((_, _, bar),) = bars
    assert bar.n == 3 and bar.closed and len(calls) == 4


def test_progress_must_be_a_bool_or_none():
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        nbstats.comparison_matrix(
            np.zeros((5, 3)) + np.arange(3), test="sign", progress=1
        )
