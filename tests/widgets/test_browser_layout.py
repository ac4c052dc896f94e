"""Every dashboard fits the page in Chromium, for 2, 8 (long names) and 50 algorithms.

One Voilà server (what ``nbstats dashboard`` runs, here on a directory of the
notebooks :func:`nbstats.app.server.build_notebook` writes) serves the
nine pages: kinds × sizes, locked as ``nbstats dashboard`` locks them (a
token, at most three kernels: each page is closed as a user closes a tab,
which shuts its kernel down). Python Playwright drives Debian's Chromium (never
a downloaded browser) through them one after another and checks, once each
dashboard has drawn:

- no element of the dashboard is wider than its box (``scrollWidth >
  clientWidth``) except inside the designated scroll boxes (class
  ``nbstats-scroll``: the heat map, long tables, wide pictures) — form
  controls excepted, whose text the browser clips by design (a closed
  dropdown shows the start of a long name, the open list all of it), and
  the sliders' handles, which stick out of their track by design;
- the page itself has no horizontal scroll bar;
- no dashboard error and no page error.

Screenshots go to ``tests/artifacts/dashboards/{kind}-{m}.png`` for a human
to look at. Skipped without Chromium, Voilà or Playwright, unless
NBSTATS_REQUIRE_ORACLES=1 (CI), where it must run.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nbstats.app import server as serve
from tests.conftest import CHROMIUM_ARGS
from tests.widgets.test_browser import require_module

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "dashboards"
URL_LINE = re.compile(r"^\s*(http://127\.0\.0\.1:\d+/)\S*\s*$", re.M)
DASHBOARD = ".nbstats-dashboard"
#: The served dashboards of wide score tables (the fold dashboard, of long
#: per-fold data, has its own layout test in test_folds_dashboard.py).
LAYOUT_KINDS = tuple(kind for kind in serve.KINDS if kind != "folds")
#: NBSTATS_DASHBOARD_SIZES="2 8 50 100" adds sizes (100 is slow for CI).
SIZES = tuple(
    int(m) for m in os.environ.get("NBSTATS_DASHBOARD_SIZES", "2 8 50").split()
)

#: Real-looking configuration names, longer than any column can show.
LONG_NAMES = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    "LogisticRegression(C=1.0, penalty='l2', solver='lbfgs')",
    "SVC(kernel='rbf', C=10, gamma='scale')",
    "KNeighborsClassifier(n_neighbors=15, weights='distance')",
    "ExtraTreesClassifier(n_estimators=1000)",
    "MLPClassifier(hidden_layer_sizes=(256, 128), alpha=1e-4)",
    "GaussianNB()",
]

#: Elements wider than their box, outside the scroll boxes (form controls and
#: zero-width inline boxes excepted), and whether the page scrolls sideways.
OVERFLOW = """dashboard => {
    const root = document.querySelector(dashboard);
    const boxes = [...root.querySelectorAll('.nbstats-scroll')];
    const controls = 'select, option, input, textarea, button, .noUi-target';
    const bad = [];
    for (const el of root.querySelectorAll('*')) {
        if (boxes.some(box => box.contains(el))) continue;
        if (el.matches(controls) || el.closest(controls)) continue;
        if (el.clientWidth === 0) continue;
        if (el.scrollWidth > el.clientWidth + 1) {
            bad.push(el.tagName.toLowerCase() + '.' + [...el.classList].join('.')
                     + ' ' + el.scrollWidth + '>' + el.clientWidth + ' '
                     + (el.textContent || '').trim().slice(0, 50));
        }
    }
    const page = document.scrollingElement;
    return {bad, pageScroll: [page.scrollWidth, page.clientWidth]};
}"""


def scores(m: int) -> pd.DataFrame:
    """30 cases of m algorithms whose effects grow with the column."""
    rng = np.random.default_rng(m)
    names = LONG_NAMES if m == 8 else [f"model_{j:02d}" for j in range(m)]
    base = rng.uniform(0.6, 0.9, size=(30, 1))
    values = base + np.linspace(0, 0.04, m) + rng.normal(0, 0.02, size=(30, m))
    return pd.DataFrame(values, index=[f"set{i:02d}" for i in range(30)], columns=names)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One Voilà server for every page; its process group is stopped after."""
    from tests.conftest import require_executable

    chromium = require_executable("chromium", "apt-get install chromium")
    require_module("playwright", "pip install playwright")
    require_module("voila", "pip install 'nbstats[dashboard]'")
    import nbformat

    folder = tmp_path_factory.mktemp("dashboards")
    for m in SIZES:
        csv = folder / f"scores{m}.csv"
        scores(m).to_csv(csv)
        for kind in LAYOUT_KINDS:
            nb = serve.build_notebook(csv, kind=kind)
            nbformat.write(nb, folder / f"{kind}-{m}.ipynb")
    log = folder / "voila.log"
    token = secrets.token_urlsafe(16)
    env = dict(os.environ, PYTHONUNBUFFERED="1", JUPYTER_TOKEN=token)
    env.pop("MPLBACKEND", None)
    # the voila.py with which closing a page shuts its kernel down
    config = serve.write_voila_config(folder / "config").parent
    command = serve.voila_command(
        folder,
        port=serve.free_port(),
        port_retries=10,
        connection_dir=folder,
        config_dir=config,
    )
    with log.open("w") as sink:
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while not (match := URL_LINE.search(log.read_text(errors="replace"))):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Voilà did not start:\n{log.read_text()}")
            time.sleep(0.1)
        yield chromium, match.group(1), token
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    chromium, _, _ = server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.mark.parametrize("m", SIZES)
@pytest.mark.parametrize("kind", LAYOUT_KINDS)
def test_dashboard_fits_the_page(server, browser, kind, m):
    _, url, token = server
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(
            f"{url}voila/render/{kind}-{m}.ipynb?token={token}",
            wait_until="domcontentloaded",
            timeout=90_000,
        )
        failed = (
            "[data-mime-type='application/vnd.jupyter.stderr']:has-text('Traceback')"
        )
        page.locator(f"{DASHBOARD}, {failed}").first.wait_for(timeout=90_000)
        if not page.locator(DASHBOARD).count():
            pytest.fail(f"the notebook failed:\n{page.inner_text('body')}")
        # drawn: the first picture of the dashboard is in the page
        page.locator(f"{DASHBOARD} img").first.wait_for(timeout=60_000)
        page.wait_for_timeout(500)  # let the layout settle
        text = page.inner_text(DASHBOARD)
        found = page.evaluate(OVERFLOW, DASHBOARD)
        # Voilà scrolls inside the page: a viewport as tall as the dashboard
        # puts all of it in the screenshot
        bottom = page.evaluate(
            f"document.querySelector('{DASHBOARD}').getBoundingClientRect().bottom"
        )
        page.set_viewport_size({"width": 1280, "height": int(bottom) + 40})
        page.wait_for_timeout(300)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        shot = ARTIFACTS / f"{kind}-{m}.png"
        page.screenshot(path=shot)
    finally:  # leaving the page, Voilà's page shuts its kernel down
        with contextlib.suppress(Exception):
            page.goto("about:blank", timeout=10_000)
        page.close()
    assert "Could not update" not in text, text
    assert not errors, errors
    assert not found["bad"], f"elements wider than their box (see {shot}): {found}"
    width, visible = found["pageScroll"]
    assert width <= visible, f"the page scrolls sideways ({width} > {visible}): {shot}"
    if m == 8:  # long names: aliases and their legend
        assert "Aliases" in text and "HistGradientBoostingClassifier" in text
