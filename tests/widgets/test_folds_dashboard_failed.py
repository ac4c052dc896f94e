"""The fold dashboard with failed folds (min_folds) against the functions
and a hand computation (scipy), on a real AutoML benchmark file."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.widgets.dashboard import dashboard
from nbstats.widgets.folds import FoldDashboard
from tests.real_tables import amlb_small_accuracy_folds

AMLB = dict(case="task", algorithm="framework", score="acc", fold="fold")


@pytest.fixture(scope="module")
def amlb() -> pd.DataFrame:
    return amlb_small_accuracy_folds()


def test_refusal_names_the_dashboard_min_folds(amlb):
    with pytest.raises(ValueError, match="min_folds=K to the fold dashboard"):
        dashboard(amlb, kind="folds", **AMLB, folds=10)
    with pytest.raises(ValueError, match="at least 2"):
        FoldDashboard(amlb, **AMLB, folds=10, min_folds=1)
    with pytest.raises(ValueError, match="exceeds the 10 folds"):
        FoldDashboard(amlb, **AMLB, folds=10, min_folds=11)
    with pytest.raises(TypeError, match="whole number"):
        FoldDashboard(amlb, **AMLB, folds=10, min_folds=8.5)


def test_min_folds_equals_correlated_pairs_and_the_hand_computation(amlb):
    board = dashboard(amlb, kind="folds", **AMLB, folds=10, min_folds=8)
    board.set(a="TPOT", b="oboe", dataset=None, rope=0.01)
    assert board.error is None
    pairs = nbstats.correlated_pairs(
        amlb, **AMLB, folds=10, min_folds=8, rope=0.01, pairs=[("TPOT", "oboe")]
    )
    shown = board.result["cases"].set_index("case")
    tested = pairs.table.set_index("case")
    assert list(shown.index) == list(tested.index)
    assert (shown["n"] == tested["n"]).all()
    np.testing.assert_allclose(shown["prob_right"], tested["prob_right"], rtol=1e-12)
    np.testing.assert_allclose(shown["prob_rope"], tested["prob_rope"], rtol=1e-12)
    assert (shown["decision"] == tested["decision"]).all()
    left = board.result["left_out"]
    assert (
        left.values.tolist() == pairs.left_out[["case", "folds", "of"]].values.tolist()
    )
    assert left["case"].tolist() == ["credit-g", "fabert", "kc1"]
    text = board.selected_view.value
    assert "All 13 data sets" in text and "credit-g (6 of 10)" in text
    # one data set with a failed fold: J = 9 folds, ρ = 1/10, by hand
    board.set(dataset="vehicle")
    res = board.result["selected"]
    wide = amlb[amlb["task"] == "vehicle"].pivot(
        index="fold", columns="framework", values="acc"
    )
    d = (wide["oboe"] - wide["TPOT"]).dropna().to_numpy()
    scale = np.sqrt((1 / d.size + 1 / 9) * d.var(ddof=1))
    posterior = stats.t(d.size - 1, d.mean(), scale)
    assert (res.n_folds, d.size) == (9, 9)
    assert res.prob_right == pytest.approx(posterior.sf(0.01), rel=1e-10)
    assert res.prob_left == pytest.approx(posterior.cdf(-0.01), rel=1e-10)
    # a data set left out of the pair is said so, not shown
    board.set(dataset="kc1")
    assert "3 of the 10 folds of kc1" in board.error
    assert board.report_settings()["min_folds"] == 8


def test_hierarchical_button_takes_min_folds(amlb):
    pytest.importorskip("numpyro")
    options = dict(n_samples=200, warmup=200, chains=2, random_state=0)
    board = FoldDashboard(amlb, **AMLB, folds=10, min_folds=8, hierarchical=options)
    board.set(a="TPOT", b="oboe", rope=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # R̂ at so few draws
        res = board.run_hierarchical(wait=True)
        direct = nbstats.bayes_hierarchical(
            "TPOT", "oboe", data=amlb, **AMLB, runs=1, rope=0.01, min_folds=8,
            loss=(1.0, board.controls["loss_ratio"].value), **options,
        )  # fmt: skip
    assert res is not None, board.hierarchical_error
    assert res.left_out["case"].tolist() == ["credit-g", "fabert", "kc1"]
    np.testing.assert_array_equal(res.region_samples, direct.region_samples)


def test_data_sets_left_out_of_the_pair_are_marked_in_the_list(amlb):
    # marked, not dropped: the chosen data set stays chosen when the pair
    # changes, and the list says which ones the pair leaves out and why
    board = FoldDashboard(amlb, **AMLB, folds=10, min_folds=8)
    board.set(a="TPOT", b="oboe")
    control = board.controls["dataset"]
    out = nbstats.correlated_pairs(
        amlb, **AMLB, folds=10, min_folds=8, pairs=[("TPOT", "oboe")]
    ).left_out
    marked = {
        case: f"{case} — left out ({folds} of {of} folds)"
        for case, folds, of in zip(out["case"], out["folds"], out["of"], strict=True)
    }
    assert marked == {
        "credit-g": "credit-g — left out (6 of 10 folds)",
        "fabert": "fabert — left out (0 of 10 folds)",
        "kc1": "kc1 — left out (3 of 10 folds)",
    }
    cases = list(pd.unique(amlb["task"]))
    assert list(control.options) == [("all data sets", None)] + [
        (marked.get(case, case), case) for case in cases
    ]
    # kc1 chosen: refused for this pair; another pair tests it, same choice
    board.set(dataset="kc1")
    assert "3 of the 10 folds of kc1" in board.error
    board.set(b="H2OAutoML")
    assert control.value == "kc1" and board.error is None
    assert board.result["selected"].n_folds == 10
    assert list(control.options) == [("all data sets", None)] + [
        (case, case) for case in cases
    ]
    board.set(b="oboe")
    assert control.value == "kc1" and "kc1" in board.error
    assert dict((v, k) for k, v in control.options)["kc1"] == marked["kc1"]


def test_without_min_folds_the_list_is_the_case_names():
    data = nbstats.datasets.load("uci_accuracy_folds")
    data = data[data.dataset.isin(data.dataset.unique()[:4])]
    board = FoldDashboard(
        data, case="dataset", algorithm="classifier", score="accuracy",
        fold="fold", runs=10,
    )  # fmt: skip
    cases = list(pd.unique(data["dataset"]))
    assert list(board.controls["dataset"].options) == [("all data sets", None)] + [
        (case, case) for case in cases
    ]
