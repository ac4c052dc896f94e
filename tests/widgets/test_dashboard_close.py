"""Dashboard.close(): the dashboard's widgets closed, its memory let go.

ipywidgets keeps every widget until it is closed, and the controls' handlers
keep the dashboard with its draws and caches; the oracle is Python's own
garbage collector (a weak reference to the dashboard).
"""

from __future__ import annotations

import gc
import weakref

import matplotlib.pyplot as plt
import pytest

import nbstats
from nbstats.widgets import bayes_pairs
from nbstats.widgets.base import _widget_tree
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.dashboard import dashboard


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def folds_board():
    folds = nbstats.datasets.load("uci_accuracy_folds")
    return dashboard(
        folds, kind="folds", case="dataset", algorithm="classifier",
        score="accuracy", fold="fold", runs=10,
    )  # fmt: skip


def board_of(kind: str, table):
    if kind == "folds":
        return folds_board()
    return dashboard(table, kind=kind)


@pytest.mark.parametrize("kind", ["bayes", "frequentist", "ranks", "folds"])
def test_a_closed_dashboard_is_let_go(kind, table6):
    board = board_of(kind, table6)
    widgets = _widget_tree(board.widget) + list(board.controls.values())
    assert all(widget.comm is not None for widget in widgets)
    # held weakly: a widget's handlers would keep the dashboard
    widgets = [weakref.ref(widget) for widget in widgets]
    gone = weakref.ref(board)
    del board
    gc.collect()
    assert gone() is not None  # the widgets' handlers keep it
    gone().close()
    gc.collect()
    assert gone() is None
    assert all(w() is None or w().comm is None for w in widgets)


def test_close_waits_for_the_background(table6, monkeypatch):
    monkeypatch.setattr(bayes_pairs, "QUICK_PLACEMENTS", -1)
    board = BayesDashboard(table6, n_samples=2_000, joint_in_background=True)
    board.set(prior="idp", s=20.0, rope=0.01)
    board.close()
    assert not board._bounds_runner.busy and not board._joint_runner.busy
    assert board.result == {}
