"""dashboard(scores, kind=...): picks the dashboard, validates kind and scores first."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import ipywidgets
import matplotlib.pyplot as plt
import numpy as np
import pytest

import nbstats
from nbstats.widgets.dashboard import KINDS, dashboard
from nbstats.widgets.frequentist import FrequentistDashboard
from nbstats.widgets.ranks import RankDashboard

#: The dashboards of a score table ("folds" takes long per-fold data).
TABLE_KINDS = [kind for kind in KINDS if kind != "folds"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_kinds():
    assert list(KINDS) == ["bayes", "frequentist", "ranks", "folds"]


def test_frequentist(table6):
    board = dashboard(table6, kind="frequentist")
    assert isinstance(board, FrequentistDashboard)
    assert board.result["posthoc"] == nbstats.posthoc(table6)
    board.controls["alpha"].value = 0.10
    assert len(board.result["posthoc"].groups) == 2


def test_ranks_forwards_keywords(table6):
    board = dashboard(-table6, kind="ranks", higher_is_better=False, random_state=5)
    assert isinstance(board, RankDashboard)
    board.controls["methods"].value = ("bootstrap",)
    assert board.result["rank_ci"]["bootstrap"] == nbstats.rank_ci(
        table6, method="bootstrap", random_state=5
    )


def test_frequentist_forwards_keywords(table6):
    board = dashboard(-table6, kind="frequentist", higher_is_better=False)
    assert board.result["omnibus"] == nbstats.friedman(table6)


def test_unknown_keyword_is_a_type_error(table6):
    with pytest.raises(TypeError, match="n_samples"):
        dashboard(table6, kind="frequentist", n_samples=100)


@pytest.mark.parametrize("kind", ["frequentist", "ranks"])
def test_displays_as_a_widget(table6, kind):
    board = dashboard(table6, kind=kind)
    assert callable(board._ipython_display_)
    assert isinstance(board.widget, ipywidgets.Widget)
    assert (
        "application/vnd.jupyter.widget-view+json" in board.widget._repr_mimebundle_()
    )
    for control in board.controls.values():
        assert isinstance(control, ipywidgets.ValueWidget)


@pytest.mark.parametrize("kind", ["Bayes", "freq", "rank", "", None, 3])
def test_bad_kind_lists_the_kinds(table6, kind):
    with pytest.raises(ValueError, match="unknown kind") as info:
        dashboard(table6, kind=kind)
    for name in ("'bayes'", "'frequentist'", "'ranks'"):
        assert name in str(info.value)


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_bad_scores_fail_before_any_dashboard(table6, kind):
    # even kind="bayes" (whose module may be missing): score_table speaks first
    broken = table6.copy()
    broken.iloc[0, 0] = np.nan
    with pytest.raises(ValueError, match="missing"):
        dashboard(broken, kind=kind)
    with pytest.raises(TypeError, match="numeric"):
        dashboard(table6.assign(notes="x"), kind=kind)
    with pytest.raises(ValueError, match="2-D"):
        dashboard(np.ones(5), kind=kind)


def test_bayes(table6):
    if importlib.util.find_spec("nbstats.widgets.bayes") is None:
        pytest.skip("nbstats.widgets.bayes not written yet")
    from nbstats.widgets.bayes import BayesDashboard

    board = dashboard(table6, kind="bayes", n_samples=2000, random_state=1)
    assert isinstance(board, BayesDashboard)
    assert board.error is None
    assert isinstance(board.widget, ipywidgets.Widget)
    assert dashboard(table6).__class__ is BayesDashboard  # the default kind


def test_importing_builds_nothing_heavy():
    code = (
        "import sys, nbstats.widgets.dashboard; "
        "print(sorted(m for m in ('ipywidgets', 'matplotlib') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


LONG = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500)",
    "LogisticRegression(C=1.0)",
    "SVC(kernel='rbf')",
]


@pytest.mark.parametrize("kind", sorted(TABLE_KINDS))
def test_nan_policy_omit_names_the_dropped_cases(table6, kind):
    holes = table6.copy()
    holes.iloc[2, 1] = np.nan
    holes.iloc[5, 0] = np.nan
    with pytest.raises(ValueError, match="missing"):
        dashboard(holes, kind=kind)
    board = dashboard(holes, kind=kind, nan_policy="omit")
    assert board.error is None
    assert board.dropped_cases == [str(holes.index[2]), str(holes.index[5])]
    text = " ".join(
        child.value for child in board.widget.children if hasattr(child, "value")
    )
    assert "dropped 2 cases" in text and str(holes.index[5]) in text
    assert "12 cases remain" in text
    with pytest.raises(ValueError, match="nan_policy"):
        dashboard(table6, kind=kind, nan_policy="drop")


@pytest.mark.parametrize("kind", sorted(TABLE_KINDS))
def test_long_names_get_aliases_and_a_legend(table6, kind):
    scores = table6.set_axis(LONG, axis=1)
    board = dashboard(scores, kind=kind)
    # letters for the names over 20 characters only (make_aliases("auto"))
    assert board.aliases == {
        **dict(zip(LONG[:3], "ABC", strict=True)),
        LONG[3]: LONG[3],
    }
    legend = board.alias_view.value
    assert "<b>A</b> = HistGradientBoostingClassifier(max_iter=300, lr=0.05)" in legend
    assert board.alias_view in board.widget.children
    off = dashboard(scores, kind=kind, aliases=False)
    assert off.aliases == {name: name for name in LONG}
    assert not hasattr(off, "alias_view")
    mine = dashboard(scores, kind=kind, aliases={LONG[0]: "HGB"})
    assert mine.aliases[LONG[0]] == "HGB" and mine.aliases[LONG[3]] == LONG[3]
    assert len(mine.aliases[LONG[1]]) <= 20  # no long name is left
    with pytest.raises(ValueError, match="aliases"):
        dashboard(scores, kind=kind, aliases="on")
    with pytest.raises(ValueError, match="not in the table"):
        dashboard(scores, kind=kind, aliases={"XGB": "X"})


def test_aliases_in_the_views(table6):
    scores = table6.set_axis(LONG, axis=1)
    bayes = dashboard(scores, kind="bayes", n_samples=2000, random_state=0)
    matrix = bayes.matrix_view.value
    assert ">A</th>" in matrix and ">HistGradient" not in matrix
    assert bayes.controls["a"].label == f"A — {LONG[0]}"
    assert list(bayes.result["pairs"]["a"].unique()) == LONG[:3]  # full names
    freq = dashboard(scores, kind="frequentist")
    picture = freq.views["cd"].outputs[0]["data"]["image/svg+xml"]
    assert ">A<title>" in picture  # the alias, the full name in its tooltip
    assert f">{LONG[0]}<" not in picture
    assert "A vs " in freq.views["table"].value
    assert freq.result["posthoc"].mean_ranks.index.tolist() == LONG


def test_folds_kind_builds_the_fold_dashboard():
    from nbstats.widgets.dashboard import dashboard
    from nbstats.widgets.folds import FoldDashboard

    folds = nbstats.datasets.load("uci_accuracy_folds")
    keywords = {
        "case": "dataset",
        "algorithm": "classifier",
        "score": "accuracy",
        "fold": "fold",
        "runs": 10,
    }
    board = dashboard(folds, kind="folds", **keywords)
    assert isinstance(board, FoldDashboard)
    with pytest.raises(ValueError, match="kind='folds' needs every fold score"):
        dashboard(folds, kind="folds", nan_policy="omit", **keywords)
