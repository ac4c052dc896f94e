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
