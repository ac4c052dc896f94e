"""The reports as a reader gets them: a real browser offline, a PDF viewer, nbconvert.

- Debian's Chromium (driven by Python Playwright, never a downloaded browser)
  opens the HTML report of Demšar's Table 6 from ``file://`` with every
  request routed: all but the file itself are aborted and recorded, and none
  may happen. The CD diagram must be decoded and the tables visible. The
  screenshot is kept at ``/tmp/report_browser.png`` for a human to look at.
- Hostile algorithm names (``<img src=x onerror=alert(1)>``, ``a_b & 50% $x$``)
  are shown literally in the browser and no script runs (no dialog, no
  injected element); the PDF typesets them literally (``pdftotext``), page 1
  is kept at ``/tmp/report_pdf-1.png``.
- ``jupyter nbconvert --to nbstats_html --execute`` honours the
  ``remove-input`` and ``remove-cell`` tags of a user's notebook.

Each report executes a notebook in a fresh kernel (seconds), so each is written
once per module. Skipped without Chromium, Playwright or TeX, unless
NBSTATS_REQUIRE_ORACLES=1 (CI), where they must run.
"""

from __future__ import annotations

import html
import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from nbformat import v4

import nbstats
import nbstats.reporting
from nbstats.results.number_policy import format_number
from tests.conftest import (
    require_executable,
    unavailable,
)

SCREENSHOT = Path("/tmp/report_browser.png")
PDF_PAGE = Path("/tmp/report_pdf-1.png")
TITLE_T6 = "Demšar (2006), Table 6"
HOSTILE = ["<img src=x onerror=alert(1)>", "a_b & 50% $x$", "forest"]
HOSTILE_TITLE = "Hostile names & 100% $z$"
#: The report's tables and figures (the DOM hooks of the nbstats-paper template).
TABLES = "figure.nbstats-table-float"
FIGURES = ("#fig-cd", "#fig-joint", "#fig-plackett-luce", "#fig-ranks")
#: Tables that name every algorithm (the omnibus table names none).
EVERY_NAME = ("#tab-scores", "#tab-nemenyi", "#tab-signrank", "#tab-ranks")


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------- the reports


@pytest.fixture(scope="module")
def table6() -> pd.DataFrame:
    return nbstats.datasets.load("demsar2006")


@pytest.fixture(scope="module")
def hostile_table() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    return pd.DataFrame(
        rng.random((12, 3)) + [0.2, 0.1, 0.0],
        index=[f"case{i:02d}" for i in range(12)],
        columns=HOSTILE,
    )


@pytest.fixture(scope="module")
def table6_html(tmp_path_factory, table6) -> Path:
    out = tmp_path_factory.mktemp("table6") / "demsar.html"
    return nbstats.reporting.report(table6, out, title=TITLE_T6)


@pytest.fixture(scope="module")
def hostile_html(tmp_path_factory, hostile_table) -> Path:
    out = tmp_path_factory.mktemp("hostile_html") / "hostile.html"
    return nbstats.reporting.report(hostile_table, out, title=HOSTILE_TITLE)


@pytest.fixture(scope="module")
def hostile_pdf(tmp_path_factory, hostile_table) -> Path:
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    out = tmp_path_factory.mktemp("hostile_pdf") / "hostile.pdf"
    return nbstats.reporting.report(hostile_table, out, title=HOSTILE_TITLE)


# ---------------------------------------------------------------- the browser


class OfflinePage:
    """A page that may load one file: every other request is aborted and recorded."""

    def __init__(self, browser, path: Path) -> None:
        self.url = path.as_uri()
        self.context = browser.new_context(
            viewport={"width": 1100, "height": 900}, service_workers="block"
        )
        self.page = self.context.new_page()
        self.routed: list[str] = []  # every request the router saw
        self.seen: list[str] = []  # every request the page issued
        self.aborted: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("request", lambda request: self.seen.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

        def dialog(d) -> None:
            self.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()

        self.page.on("dialog", dialog)

    def _route(self, route) -> None:
        url = route.request.url
        self.routed.append(url)
        if url == self.url:
            route.continue_()
        else:
            self.aborted.append(url)
            route.abort()

    def open(self):
        response = self.page.goto(self.url, wait_until="load", timeout=30_000)
        assert response is None or response.ok  # file:// gives no response
        # anything the page would start late (fonts, lazy images, timers)
        self.page.wait_for_load_state("networkidle", timeout=10_000)
        self.page.wait_for_timeout(300)
        return self.page

    def foreign(self) -> list[str]:
        """Every request the page made for anything but the file itself."""
        return sorted({u for u in [*self.routed, *self.seen] if u != self.url})

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def table6_page(browser, table6_html, tmp_path_factory):
    offline = OfflinePage(browser, table6_html)
    offline.open()
    shot = tmp_path_factory.mktemp("screenshot") / "report_browser.png"
    offline.page.screenshot(path=shot, full_page=True)
    shutil.copyfile(shot, SCREENSHOT)
    yield offline
    offline.close()


@pytest.fixture(scope="module")
def hostile_page(browser, hostile_html):
    offline = OfflinePage(browser, hostile_html)
    offline.open()
    yield offline
    offline.close()


def test_report_opens_offline_with_no_request(table6_page):
    offline = table6_page
    assert offline.seen == [offline.url]  # the file, once, and nothing else
    assert offline.routed == [offline.url]
    assert offline.foreign() == []
    assert not offline.errors, offline.errors
    assert offline.page.locator("script").count() == 0
    title = offline.page.locator("h1.nbstats-title")
    assert title.is_visible() and title.inner_text().strip() == TITLE_T6


def test_the_guard_would_see_a_request(table6_page):
    """The router is not vacuous: a fetch from the page is seen and aborted."""
    offline = table6_page
    before = [list(offline.routed), list(offline.seen), list(offline.aborted)]
    try:
        failed = offline.page.evaluate(
            "() => fetch('https://cdn.example/x.js').then(() => false, () => true)"
        )
        assert failed
        assert offline.aborted == [*before[2], "https://cdn.example/x.js"]
        assert "https://cdn.example/x.js" in offline.foreign()
    finally:  # the other tests see the page as it loaded
        offline.routed[:], offline.seen[:], offline.aborted[:] = before


def test_figures_are_decoded_and_visible(table6_page):
    page = table6_page.page
    for selector in FIGURES:
        image = page.locator(f"figure.nbstats-figure{selector} img")
        assert image.count() == 1, selector
        assert image.is_visible(), selector
        assert (image.get_attribute("src") or "").startswith("data:image/"), selector
        size = image.evaluate(
            "img => [img.complete, img.naturalWidth, img.naturalHeight]"
        )
        assert size[0] and size[1] > 0 and size[2] > 0, (selector, size)
        box = image.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 50, (selector, box)
    caption = page.locator("#fig-cd figcaption").inner_text()
    assert caption.startswith("Figure 1.") and "critical difference" in caption


def test_tables_are_visible_and_name_the_algorithms(table6_page, table6):
    page = table6_page.page
    names = [str(name) for name in table6.columns]
    floats = page.locator(TABLES)
    assert floats.count() >= 6
    for i in range(floats.count()):
        table = floats.nth(i).locator("table.nbstats-table")
        assert table.count() == 1 and table.is_visible(), floats.nth(i).inner_text()
    for selector in EVERY_NAME:
        text = page.locator(f"{TABLES}{selector} table.nbstats-table").inner_text()
        missing = [name for name in names if name not in text]
        assert not missing, (selector, missing)
    scores = page.locator("table.nbstats-scores")
    for case in table6.index:
        assert str(case) in scores.inner_text()
    # every table after the omnibus tests compares algorithms by name
    for i in range(floats.count()):
        if floats.nth(i).get_attribute("id") == "tab-omnibus":
            continue
        text = floats.nth(i).locator("table").inner_text()
        assert any(name in text for name in names), text
    references = page.locator("ol.nbstats-references li")
    assert references.count() >= 3
    assert "Demšar" in page.locator("ol.nbstats-references").inner_text()


def test_hostile_names_are_literal_and_run_nothing(hostile_page):
    offline = hostile_page
    page = offline.page
    assert offline.dialogs == []  # no alert(1)
    assert offline.foreign() == []  # no <img src=x> fetched either
    assert not offline.errors, offline.errors
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("[onerror]").count() == 0
    assert page.locator("script").count() == 0
    assert page.locator("img").count() == len(FIGURES)  # the figures only
    # the long hostile name gets an alias: literal in the legend table; the
    # shorter ones keep their names (aliases per name) and are not listed
    legend = page.inner_text("#tab-aliases")
    assert HOSTILE[0] in legend, legend
    assert HOSTILE[1] not in legend and HOSTILE[2] not in legend, legend
    body = page.inner_text("body")
    assert page.inner_text("h1.nbstats-title").strip() == HOSTILE_TITLE
    for name in HOSTILE:
        assert name in body


# ---------------------------------------------------------------- the PDF


def test_hostile_pdf_shows_title_statistic_and_names(hostile_pdf, hostile_table):
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    pdftoppm = require_executable("pdftoppm", "apt-get install poppler-utils")
    assert hostile_pdf.read_bytes().startswith(b"%PDF")
    done = subprocess.run(
        [pdftotext, "-enc", "UTF-8", str(hostile_pdf), "-"],
        capture_output=True,
        check=True,
    )
    text = _normalised(done.stdout.decode("utf-8"))
    assert _normalised(HOSTILE_TITLE) in text
    statistic = format_number(nbstats.friedman(hostile_table).statistic, "statistic")
    assert statistic in text, statistic
    for name in HOSTILE:
        assert _normalised(name) in text, name
    # page 1 as an image, for a human to look at
    prefix = hostile_pdf.parent / "page"
    subprocess.run(
        [pdftoppm, "-png", "-r", "80", "-f", "1", "-l", "1", str(hostile_pdf), prefix],
        check=True,
    )
    (page1,) = hostile_pdf.parent.glob("page-*1.png")  # page-1 or page-01
    shutil.copyfile(page1, PDF_PAGE)
    assert hostile_pdf.with_suffix(".bib").is_file()


# ---------------------------------------------------------------- nbconvert


def _jupyter() -> list[str]:
    script = Path(sys.executable).parent / "jupyter"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "jupyter"]


def _tagged_notebook() -> nbformat.NotebookNode:
    def code(source: str, *tags: str) -> nbformat.NotebookNode:
        cell = v4.new_code_cell(source)
        if tags:
            cell.metadata["tags"] = list(tags)
        return cell

    nb = v4.new_notebook(
        cells=[
            v4.new_markdown_cell("# A user's notebook\n\nSome MARKDOWN-TEXT."),
            code('print("VISIBLE-OUTPUT")', "remove-input"),
            code('print("HIDDEN-CELL")', "remove-cell"),
            code("x = 1"),
        ]
    )
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return nb


@pytest.fixture(scope="module")
def converted(tmp_path_factory) -> str:
    found = {
        ep.name
        for ep in importlib.metadata.entry_points(group="nbconvert.exporters")
        if ep.name.startswith("nbstats_")
    }
    if "nbstats_html" not in found:
        unavailable("the nbconvert.exporters entry points (pip install -e .)")
    work = tmp_path_factory.mktemp("nbconvert")
    nbformat.write(_tagged_notebook(), work / "nb.ipynb")
    done = subprocess.run(
        [*_jupyter(), "nbconvert", "--to", "nbstats_html", "--execute", "nb.ipynb"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=work,
    )
    assert done.returncode == 0, done.stderr
    return (work / "nb.html").read_text(encoding="utf-8")


def test_nbconvert_to_nbstats_html_honours_tags(converted):
    # the text a reader sees: highlighted code is split into spans and escaped
    text = html.unescape(re.sub(r"<[^>]+>", "", converted))
    assert "MARKDOWN-TEXT" in text
    assert "VISIBLE-OUTPUT" in text  # the output of the remove-input cell ...
    assert 'print("VISIBLE-OUTPUT")' not in text  # ... without its source
    assert "HIDDEN-CELL" not in converted and "HIDDEN-CELL" not in text
    assert "x = 1" in text  # untagged code is still shown
    assert "<script" not in converted.lower()
