"""JupyterLab 4, the dashboards' first host, driven in a real browser.

The test starts ``jupyter lab`` from this venv (127.0.0.1, a free port, a
random token, every Jupyter directory private to the test: see
``jupyterlab_helpers``) on a copy of notebook 07 without its outputs, opens it
in Debian's Chromium under Playwright (never a downloaded browser), runs all
cells from the Run menu, and moves the Bayesian dashboard's prior-strength
slider with the keyboard: the posterior plot and the decision matrix must
change as the theory says, then the server is shut down through its API and
no kernel may outlive it. The screenshot after the move is kept at
``tests/artifacts/dashboards/jupyterlab-07.png`` for a human to look at.

Skipped without Chromium, Playwright or JupyterLab, unless
NBSTATS_REQUIRE_ORACLES=1 (CI), where it must run.
"""

from __future__ import annotations

import collections
import importlib.util
import re
import shutil
import time
import urllib.parse
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM_ARGS, REQUIRE_ORACLES, require_executable
from tests.widgets.jupyterlab_helpers import jupyter_lab

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "07-teaching-dashboards.ipynb"
ARTIFACT = Path(__file__).parents[1] / "artifacts" / "dashboards" / "jupyterlab-07.png"
#: The brief's flags: nothing fetched, no QUIC (the conftest's list plus it).
ARGS = CHROMIUM_ARGS
#: A cell's decision: "<algorithm> better" (naming it), or one of the words.
DECISION = re.compile(r"(\S+ better|indeterminate|equivalent|undecided)\b")
BOARD = ".nbstats-board"
#: The s a view was computed with, as the matrix's caption and the plot's
#: title name it (the kernel updates the views one message at a time).
MATRIX_S = re.compile(r"signed-rank, IDP, s = ([\d.]+);")
PLOT_S = re.compile(r"\(IDP, s = ([\d.]+)\)")
#: Output areas a failed cell writes to (an error's traceback is stderr).
ERRORS = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
PLOT = ".widget-output [data-mime-type='image/svg+xml'] img"
#: The code cells' prompts: "[12]:" once run, "[*]:" while running.
PROMPTS = """() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim())"""
FINISHED = re.compile(r"\[\d+\]:")
#: PageUp moves a noUiSlider by 5 steps; 11 take s = 10^-0.25 to 10^0.30 ≈ 2.
PAGES = 11


def require_module(name: str, install_hint: str) -> None:
    if importlib.util.find_spec(name) is None:
        reason = f"Python package {name} not installed ({install_hint})"
        if REQUIRE_ORACLES:
            pytest.fail(f"JupyterLab browser test unavailable in CI: {reason}")
        pytest.skip(reason)


@pytest.fixture
def chromium() -> str:
    """Debian's Chromium, Playwright and JupyterLab (checked before any server)."""
    path = require_executable("chromium", "apt-get install chromium")
    require_module("playwright", "pip install playwright")
    require_module("jupyterlab", "pip install 'jupyterlab>=4'")
    require_module("jupyterlab_widgets", "pip install ipywidgets")
    return path


def _decisions(board) -> collections.Counter:
    """The decision words of the matrix cells (not of the legend)."""
    cells = board.locator("td").all_inner_texts()
    return collections.Counter(
        match.group(1) for cell in cells if (match := DECISION.match(cell.strip()))
    )


def _plot(board) -> str:
    """The posterior plot's SVG source (JupyterLab shows it as a data URI)."""
    images = board.locator(PLOT)
    src = images.first.get_attribute("src") if images.count() else None
    if not src or not src.startswith("data:image/svg+xml,"):
        return ""
    return urllib.parse.unquote(src.split(",", 1)[1])


def _drawn_at(board) -> tuple[float | None, float | None]:
    """The s of the matrix and of the plot shown (None before they show)."""
    found = MATRIX_S.search(board.inner_text()), PLOT_S.search(_plot(board))
    return tuple(float(match.group(1)) if match else None for match in found)


def _wait(page, probe, done, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while not done(value := probe()):
        if time.monotonic() > deadline:
            prompts = page.evaluate(PROMPTS)
            pytest.fail(
                f"timed out waiting for {what} (last: {value!r}; prompts {prompts}):"
                f"\n{page.inner_text('body')}"
            )
        page.wait_for_timeout(100)
    return value


def _run_all(page) -> None:
    """Run > Run All Cells, as a user would; wait until every cell ran, or
    fail at the first error (JupyterLab runs no cell after it)."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    errors = page.locator(ERRORS).filter(has_text="Error")
    _wait(
        page,
        lambda: (page.evaluate(PROMPTS), errors.count()),
        lambda state: state[1] or all(map(FINISHED.fullmatch, state[0] or ["?"])),
        "all cells",
        90,
    )
    assert not errors.count(), errors.all_inner_texts()


def test_notebook_07_dashboard_moves_in_jupyterlab(chromium, tmp_path):
    from playwright.sync_api import sync_playwright

    # quick mode (5,000 posterior draws), as the notebooks' CI run
    env = {"NBSTATS_QUICK": "1"}
    with (
        jupyter_lab(tmp_path, NOTEBOOK, env) as lab,
        sync_playwright() as playwright,
    ):
        # launch (not a persistent context): a new empty profile every time
        browser = playwright.chromium.launch(
            executable_path=chromium, args=ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page_errors = []
            page.on("pageerror", lambda error: page_errors.append(str(error)))
            # offline: the page asks nothing of any server but the test's
            outside = []
            local = (lab.url, "data:", "blob:")
            page.on(
                "request",
                lambda r: None if r.url.startswith(local) else outside.append(r.url),
            )
            page.goto(
                lab.notebook_url(NOTEBOOK.name),
                wait_until="domcontentloaded",
                timeout=60_000,
            )
            # the kernel of the private spec (this venv's Python), ready: cells
            # run while it is still connecting are skipped, not queued
            page.locator(".jp-StatusBar-TextItem").filter(
                has_text="(nbstats venv) | Idle"
            ).wait_for(timeout=60_000)
            _run_all(page)
            # the widgets extension renders every dashboard
            boards = page.locator(BOARD)
            assert boards.count() == 3, page.inner_text("body")
            assert "Loading widget" not in page.inner_text(".jp-Notebook")
            board = boards.filter(has_text="loss ratio l1/l0")
            board.scroll_into_view_if_needed()
            at_start = _wait(page, lambda: _drawn_at(board), all, "the matrix, plot")
            before, plot_before = _decisions(board), _plot(board)
            board.screenshot(path=tmp_path / "before.png")

            # the prior strength s, with the keyboard: up ~0.55 in log10
            slider = board.locator(".widget-hslider").filter(has_text="s (IDP")
            readout = slider.locator(".widget-readout")
            start = float(readout.inner_text())
            slider.locator(".noUi-handle").focus()
            for _ in range(PAGES):
                shown = float(readout.inner_text())
                page.keyboard.press("PageUp")
                assert float(readout.inner_text()) > shown
            s = float(readout.inner_text())
            # every key press was a recompute: wait for the last one's views
            _wait(
                page,
                lambda: _drawn_at(board),
                lambda at: all(v == pytest.approx(s, 0.01) for v in at),
                f"the matrix and the plot at s = {s}",
            )
            after, plot_after = _decisions(board), _plot(board)
            assert "Could not update" not in board.inner_text()
            board.screenshot(path=tmp_path / "after.png")
            # one kernel ran the notebook; the shutdown below must end it
            assert len(lab.kernels()) == 1, lab.kernels()
            ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tmp_path / "after.png", ARTIFACT)
        finally:
            browser.close()

    assert start == pytest.approx(0.562, abs=1e-3)  # the IDP default
    assert at_start == (pytest.approx(start, 0.01), pytest.approx(start, 0.01))
    assert s == pytest.approx(10 ** (-0.25 + PAGES * 0.05), rel=1e-2)
    # a stronger prior widens [lower, upper] (Benavoli et al. 2014, §3.1):
    # more pairs become indeterminate at the 0.95 threshold, fewer decided
    assert after["indeterminate"] > before["indeterminate"]
    decided = {w for w in (*before, *after) if w.endswith(" better")}
    assert sum(after[w] for w in decided) < sum(before[w] for w in decided)
    assert sum(after.values()) == sum(before.values())
    # the same pair, drawn again for the new posterior
    title = re.compile(r"<title>(.*?)</title>")
    assert title.search(plot_after).group(1) == title.search(plot_before).group(1)
    assert plot_after != plot_before
    assert not page_errors, page_errors
    assert not outside, outside
