"""HTML tables at 7 and 12 algorithms with 40-character names, in Chromium.

Two HTML reports (``aliases=False``: every table names the algorithms in
full, the score table's headers included) and one page of every result's
``_repr_html_`` (with the results' stylesheet, at a JupyterLab-like 13 px),
at 1280 and 800 px. For every table cell it asserts

- no cell cut: its content is no wider and no taller than the cell
  (``scrollWidth <= clientWidth``; a table wider than the column scrolls
  in its own box, whole);
- no word broken: every word of a name (the text between spaces, hyphens
  and the renderer's ``<wbr>`` break points) lies on one line.

Screenshots: ``tests/artifacts/html-tables-{m}-{width}.png``. Skipped without
Chromium or Playwright, unless NBSTATS_REQUIRE_ORACLES=1 (CI).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import nbstats.reporting
from nbstats.results.render import html_block
from tests.results.every_kind import every_result, score_table

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
WIDTHS = (1280, 800)

#: For each cell: its content overflows it (cut), or one of its words is
#: set on more than one line (broken). Words are the pieces of each text
#: node between spaces: a <wbr> ends a text node.
CHECK = r"""
() => {
  const cut = [], broken = [];
  for (const cell of document.querySelectorAll('table th, table td')) {
    if (cell.scrollWidth > cell.clientWidth + 1 ||
        cell.scrollHeight > cell.clientHeight + 1) {
      cut.push(cell.textContent.slice(0, 60));
    }
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const re = /[^\s\-\u2013]+[\-\u2013]?/g;  // a line may end after a dash
      let match;
      while ((match = re.exec(text)) !== null) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter(r => r.width > 0);
        const lines = new Set(rects.map(r => Math.round(
          getComputedStyle(node.parentElement).writingMode.startsWith('vertical')
            ? r.left : r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return {cut, broken, cells: document.querySelectorAll('table td').length};
}
"""


def check_page(browser, path: Path, name: str) -> None:
    for width in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": 900})
        try:
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            found = page.evaluate(CHECK)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        finally:
            page.close()
        assert found["cells"] > 0
        assert not found["cut"], (width, found["cut"][:10])
        assert not found["broken"], (width, sorted(set(found["broken"]))[:10])


@pytest.mark.parametrize("m", [7, 12])
def test_report_tables_cut_no_cell_and_break_no_word(browser, tmp_path, m):
    path = nbstats.reporting.report(
        score_table(m), tmp_path / f"report-{m}.html", aliases=False
    )
    check_page(browser, path, f"html-tables-report-{m}")


@pytest.mark.parametrize("m", [7, 12])
def test_result_tables_cut_no_cell_and_break_no_word(browser, tmp_path, m):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = every_result(m)
    blocks = "".join(
        html_block(
            res._title(),
            res._scalars(),
            res._table(),
            names=res._names(),
            kinds=res._kinds(),
        )
        for res in results.values()
    )
    page = tmp_path / f"results-{m}.html"
    page.write_text(
        "<!doctype html><meta charset='utf-8'><body style='font: 13px sans-serif;"
        f"max-width: 900px'>{blocks}</body>",
        encoding="utf-8",
    )
    check_page(browser, page, f"html-tables-results-{m}")
