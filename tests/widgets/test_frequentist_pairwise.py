"""The frequentist dashboard's pairwise tests, run once per test
(nbstats.widgets.frequentist_pairwise).

Oracle: :func:`nbstats.comparison_matrix` run afresh (the re-adjustment
itself: tests/stats/test_comparison_readjust.py).
"""

from __future__ import annotations

import pytest

from nbstats.widgets import frequentist_pairwise as module
from nbstats.widgets.frequentist import FrequentistDashboard
from nbstats.widgets.frequentist_pairwise import PairwiseTests
from tests.stats.test_comparison_readjust import fresh, scores


@pytest.fixture
def test_runs(monkeypatch) -> list[str]:
    """The paired test of every comparison_matrix the widgets call."""
    calls: list[str] = []
    computed = module.comparison_matrix

    def counting(*args, **kw):
        calls.append(kw["test"])
        return computed(*args, **kw)

    monkeypatch.setattr(module, "comparison_matrix", counting)
    return calls


def test_each_test_runs_once(test_runs):
    table = scores(6)
    tests = PairwiseTests(table, higher_is_better=True)
    for test, adjust, alpha in [
        ("wilcoxon", "holm", 0.05),
        ("wilcoxon", "hommel", 0.05),
        ("sign", "none", 0.1),
        ("wilcoxon", "none", 0.1),
        ("sign", "shaffer", 0.05),
        ("wilcoxon", "holm", 0.05),
    ]:
        got = tests.result(test, adjust, alpha)
        assert got == fresh(table, test, adjust, alpha)[0]
    assert test_runs == ["wilcoxon", "sign"]


def test_the_dashboard_shows_what_a_fresh_setting_shows(test_runs):
    """A new adjustment or α of a pairwise test: the same result and views
    as a dashboard whose tests were first run with that setting."""
    table = scores(8)
    board = FrequentistDashboard(table)
    board.set(method="wilcoxon", adjust="holm")
    for adjust, alpha in [("hommel", 0.05), ("none", 0.05), ("finner", 0.12)]:
        board.set(adjust=adjust, alpha=alpha)
        assert board.error is None, board.error
        other = FrequentistDashboard(table)
        other.set(method="wilcoxon", adjust=adjust, alpha=alpha)
        assert board.result["posthoc"] == other.result["posthoc"]
        for name in ("note", "verdict", "table"):
            assert board.views[name].value == other.views[name].value, name
        assert board.views["cd"].outputs == other.views["cd"].outputs
    # one run of the tests by the first dashboard, one by each fresh one
    assert test_runs == ["wilcoxon"] * 4
