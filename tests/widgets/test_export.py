"""The dashboards' "Export report" button writes the report with their settings."""

from __future__ import annotations

import nbstats
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.frequentist import FrequentistDashboard


def test_bayes_dashboard_exports_its_current_settings(tmp_path, table6):
    dash = BayesDashboard(table6, n_samples=5_000, random_state=3)
    dash.controls["loss_ratio"].value = 4.0
    dash.controls["gamma"].value = 0.1
    dash.export_path.value = str(tmp_path / "report.ipynb")
    dash.export_button.click()
    assert "wrote" in dash.export_status.value
    text = (tmp_path / "report.ipynb").read_text()
    # the Methods paragraph states the dashboard's loss and gamma
    assert "losses (1, 4), so a threshold of 0.8" in text
    assert "= 0.1)" in text


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

    import nbstats.report

    calls = []

    def fake_report(scores, path, **kw):
        calls.append((scores, path, kw))
        return path

    monkeypatch.setattr(nbstats.report, "report", fake_report)
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

    def older(scores, path, *, higher_is_better, gamma, rope, loss, random_state, s):
        return scores

    monkeypatch.setattr(nbstats.report, "report", older)
    assert len(dash.export_report("x.html")) == len(holes) - 1  # the clean table
