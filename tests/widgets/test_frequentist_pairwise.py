"""The frequentist dashboard's pairwise tests, run once per test
(nbstats.widgets.frequentist_pairwise).

Oracle: :func:`nbstats.comparison_matrix` run afresh (the re-adjustment
itself: tests/stats/test_comparison_readjust.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

import nbstats
from nbstats.widgets import frequentist_pairwise as module
from nbstats.widgets.frequentist import FrequentistDashboard
from nbstats.widgets.frequentist_pairwise import PairwiseTests

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


def test_each_test_runs_once(monkeypatch):
    calls = []
    computed = module.comparison_matrix

    def counting(*args, **kw):
        calls.append(kw["test"])
        return computed(*args, **kw)

    monkeypatch.setattr(module, "comparison_matrix", counting)
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
    assert calls == ["wilcoxon", "sign"]


def test_the_dashboard_shows_what_a_fresh_setting_shows(monkeypatch):
    """A new adjustment or α of a pairwise test: the same result and views
    as a dashboard whose tests were first run with that setting."""
    calls = []
    computed = module.comparison_matrix

    def counting(*args, **kw):
        calls.append(kw["test"])
        return computed(*args, **kw)

    monkeypatch.setattr(module, "comparison_matrix", counting)
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
    assert calls == ["wilcoxon"] * 4
