"""``nbstats dashboard folds.csv --kind folds`` in a real browser.

The command (``python -m nbstats.app.server``) reads a long per-fold CSV,
recognises its fold column and serves the fold dashboard with Voilà; Chromium
(Debian's, through Playwright) opens the page, and choosing another data set
must redraw that data set's correlated t-test. The screenshot is kept in
``tests/artifacts/dashboards/served-folds.png`` for a human to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CHROMIUM_ARGS
from tests.widgets.test_browser import (  # noqa: F401 (chromium: a fixture)
    DASHBOARD,
    TRACEBACK,
    chromium,
    serving,
)

ARTIFACT = Path(__file__).parents[2] / "artifacts" / "dashboards" / "served-folds.png"
LONG_NAME = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"


@pytest.fixture
def fold_csv(tmp_path):
    """3 UCI data sets x 3 classifiers x 100 folds; one classifier renamed long."""
    import nbstats

    data = nbstats.datasets.load("uci_accuracy_folds")
    keep = data.dataset.isin(["iris", "wine", "glass"]) & data.classifier.isin(
        ["nbc", "aode", "hnb"]
    )
    data = data[keep].replace({"classifier": {"hnb": LONG_NAME}})
    path = tmp_path / "uci folds.csv"
    data.to_csv(path, index=False)
    return path


def test_served_fold_dashboard_redraws_the_chosen_data_set(
    chromium,  # noqa: F811 (the fixture imported above)
    fold_csv,
    tmp_path,
):
    from playwright.sync_api import sync_playwright

    options = ["--kind", "folds", "--case", "dataset", "--algorithm", "classifier"]
    options += ["--score", "accuracy", "--runs", "10"]
    with serving(tmp_path, fold_csv, *options) as url:
        log = (tmp_path / "serve.log").read_text()
        assert "taking fold as the fold column(s)" in log
        assert "folds dashboard of 3 algorithms on 3 data sets (100 folds each)" in log
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, args=CHROMIUM_ARGS, headless=True
            )
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto(url, wait_until="domcontentloaded", timeout=60_000)
                page.locator(f"{DASHBOARD}, {TRACEBACK}").first.wait_for(timeout=90_000)
                if not page.locator(DASHBOARD).count():
                    pytest.fail(f"the notebook failed:\n{page.inner_text('body')}")
                page.locator(f"{DASHBOARD} img").first.wait_for(timeout=60_000)
                dataset = page.locator(".nbstats-control-dataset select")
                shown = dataset.input_value()
                other = "wine" if shown != "wine" else "iris"
                before = page.locator(f"{DASHBOARD} img").first.get_attribute("src")
                dataset.select_option(other)
                deadline = 200
                while deadline and (
                    page.locator(f"{DASHBOARD} img").first.get_attribute("src")
                    == before
                ):
                    page.wait_for_timeout(100)
                    deadline -= 1
                assert deadline, f"the plot was not redrawn for {other!r}"
                text = page.inner_text(DASHBOARD)
                ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=ARTIFACT, full_page=True)
            finally:
                browser.close()
    assert not errors, errors
    assert other in text and "Traceback" not in text
    # the long name is shown by its alias, with the legend to the full name
    assert LONG_NAME in text
