"""The dashboards' "Export report" button writes the report with their settings."""

from __future__ import annotations

import pandas as pd
import pytest

import nbstats
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.frequentist import FrequentistDashboard


def test_bayes_dashboard_exports_its_current_settings(tmp_path, table6):
    dash = BayesDashboard(table6, n_samples=5_000, random_state=3)
    dash.controls["loss_ratio"].value = 4.0
    dash.controls["threshold"].value = 0.9
    dash.export_path.value = str(tmp_path / "report.ipynb")
    dash.export_button.click()
    assert "wrote" in dash.export_status.value
    text = (tmp_path / "report.ipynb").read_text()
    # the Methods paragraph states the dashboard's loss and threshold
    assert "losses (1, 4), so a threshold of 0.8" in text
    assert "90% credible region" in text


def test_export_errors_are_shown_next_to_the_button(tmp_path, table6):
    dash = FrequentistDashboard(table6)
    dash.export_path.value = str(tmp_path / "report.docx")
    dash.export_button.click()
    assert "could not write the report" in dash.export_status.value
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_export_settings_of_the_frequentist_dashboard(table6):
    dash = nbstats.dashboard(table6, kind="frequentist")
    dash.controls["alpha"].value = 0.1
    assert dash.report_settings() == {"alpha": 0.1}


def test_export_passes_nan_policy_and_aliases(tmp_path, table6, monkeypatch):
    """The report gets the dashboard's nan_policy and aliases (and the scores
    as given, so that it names the dropped cases itself)."""
    import numpy as np

    import nbstats.reporting

    calls = []

    def fake_report(scores, path, **kw):
        calls.append((scores, path, kw))
        return path

    monkeypatch.setattr(nbstats.reporting, "report", fake_report)
    holes = table6.copy()
    holes.iloc[1, 2] = np.nan
    mapping = {str(table6.columns[0]): "first"}
    dash = BayesDashboard(
        holes, n_samples=2_000, random_state=3, nan_policy="omit", aliases=mapping
    )
    dash.export_path.value = str(tmp_path / "r.html")
    dash.export_button.click()
    assert "wrote" in dash.export_status.value
    ((scores, path, kw),) = calls
    assert scores is holes and path == str(tmp_path / "r.html")
    assert kw["nan_policy"] == "omit" and kw["aliases"] == mapping
    assert kw["random_state"] == 3 and kw["higher_is_better"] is True
    # a report without those keywords (an older one) gets neither

    def older(
        scores,
        path,
        *,
        higher_is_better,
        prior,
        threshold,
        rope,
        loss,
        random_state,
        s=None,
    ):
        return scores

    monkeypatch.setattr(nbstats.reporting, "report", older)
    assert len(dash.export_report("x.html")) == len(holes) - 1  # the clean table


def test_export_round_trip_with_every_control_changed(tmp_path, table6, monkeypatch):
    """Every Bayesian control reaches the report, and the report's pair table
    (recomputed here exactly as the report's notebook does) is the
    dashboard's: number for number without a rope; with one, the dashboard's
    region shares come from its own per-pair kernel (within Monte Carlo
    error, 0.005 at 50,000 draws)."""
    import nbstats.reporting

    dash = BayesDashboard(table6, random_state=11)  # 50,000 draws, as the report
    dash.set(
        prior="point",
        s=2.0,
        rope=0.005,
        loss_ratio=4.0,
        threshold=0.9,
        epsilon=0.1,
        a="C4.5+cf",
        b="C4.5",
    )
    assert dash.error is None, dash.error
    calls = []
    monkeypatch.setattr(
        nbstats.reporting, "report", lambda scores, path, **kw: calls.append(kw) or path
    )
    dash.export_path.value = str(tmp_path / "r.html")
    dash.export_button.click()
    ((kw,),) = [calls]
    assert kw["prior"] == "point" and kw["s"] == 2.0 and kw["rope"] == 0.005
    assert kw["loss"] == (1.0, 4.0) and kw["threshold"] == 0.9
    assert kw["random_state"] == 11 and kw["higher_is_better"] is True
    order = list(nbstats.mean_ranks(table6).sort_values(kind="stable").index)
    report_pairs = nbstats.bayes_signrank_pairs(
        table6[order[::-1]],
        rope=kw["rope"],
        loss=kw["loss"],
        n_samples=50_000,
        random_state=kw["random_state"],
        interval=False,
        prior="point",
        s=kw["s"],
    ).pairs.set_index(["a", "b"])
    shown = dash.result["pairs"]
    flip = {"a": "b", "b": "a"}
    for row in shown.itertuples(index=False):
        if (row.a, row.b) in report_pairs.index:
            other = report_pairs.loc[(row.a, row.b)]
            same = (other.prob_left, other.prob_rope, other.prob_right)
            assert other.decision == row.decision
        else:
            other = report_pairs.loc[(row.b, row.a)]
            same = (other.prob_right, other.prob_rope, other.prob_left)
            assert flip.get(other.decision, other.decision) == row.decision
        shown_probs = (row.prob_left, row.prob_rope, row.prob_right)
        assert same == pytest.approx(shown_probs, abs=0.005)
    # the joint statements, as the report's notebook makes them (the pairs'
    # signed-rank test, rope, s and threshold, on the same seed): number for
    # number
    l0, l1 = kw["loss"]
    report_joint = nbstats.bayes_posthoc(
        table6, test="signrank", rope=kw["rope"], s=kw["s"], prior="point",
        threshold=l1 / (l0 + l1),
        n_samples=50_000, random_state=kw["random_state"],
    ).statements  # fmt: skip
    pd.testing.assert_frame_equal(dash.result["joint"], report_joint)


def test_export_without_rope_is_exact(table6):
    dash = BayesDashboard(table6, random_state=11)
    dash.set(prior="point", s=2.0, loss_ratio=4.0)
    kw = dash.report_settings()
    pairs = nbstats.bayes_signrank_pairs(
        table6,
        loss=kw["loss"],
        n_samples=50_000,
        random_state=kw["random_state"],
        prior="point",
        s=kw["s"],
    ).pairs
    shown = dash.result["pairs"]
    for column in ("prob_lower", "prob_upper", "prob_left", "decision"):
        assert shown[column].tolist() == pairs[column].tolist(), column


def test_exported_report_states_every_setting(tmp_path, table6):
    dash = BayesDashboard(table6, random_state=11)
    dash.set(prior="point", s=2.0, rope=0.005, loss_ratio=4.0, threshold=0.9)
    dash.export_path.value = str(tmp_path / "report.ipynb")
    dash.export_button.click()
    assert "wrote" in dash.export_status.value
    text = (tmp_path / "report.ipynb").read_text()
    for stated in (
        "losses (1, 4)",
        "threshold of 0.8",
        "rope ±0.005",
        "90% credible region",
        "seed 11",
        "s = 2",
    ):
        assert stated in text, stated
    assert "1 : 4" in dash._loss_label.value
