"""HTML tables fit the report's column at up to 12 algorithms (issue 27, item 5).

The report's text column is 46rem (736 px) wide in a 1280 px window. Every
table sits in a box (``.nbstats-table-wrap``) that would scroll sideways if the
table were wider; in Chromium, no box may be scrolled -- its scrollWidth no
larger than its clientWidth -- except the appendix's, whose full tables may
scroll inside their own box. Three reports of the MultiBoostAB classifiers of
Fernández-Delgado et al. (2014), missing cells omitted:

- the 13 algorithms (the compact layout; twelve names over 20 characters get
  aliases, MultiBoostAB_weka keeps its name);
- the first 12 (the standard layout: the full score table with every rank);
- the first 12 renamed to names of 15--20 characters, which keep their names
  (no alias), so that the score table's header holds twelve long names.

Screenshots of the 12-algorithm score tables go to
``tests/artifacts/html-fit-<name>.png``. Skipped without Chromium or
Playwright, unless NBSTATS_REQUIRE_ORACLES=1 (CI).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import nbstats
import nbstats.reporting

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
COLUMN = 736  # px: 46rem of 16 px

#: The wrap boxes: figure id, scrollWidth, clientWidth, and whether the box is
#: in the appendix (after its heading, before the next one).
_BOXES_JS = """
() => {
  const heads = [...document.querySelectorAll('h1, h2')];
  const appendix = heads.find((h) => /appendix/i.test(h.textContent));
  const next = appendix ? heads[heads.indexOf(appendix) + 1] : null;
  const after = (a, el) =>
    a && (a.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return [...document.querySelectorAll('.nbstats-table-wrap')].map((box) => ({
    id: box.closest('figure').id,
    scroll: box.scrollWidth,
    client: box.clientWidth,
    appendix: Boolean(after(appendix, box) && !after(next, box)),
  }));
}
"""


def _multiboost():
    return nbstats.datasets.load("fernandez_delgado2014_multiboost")


def _renamed_12():
    table = _multiboost().iloc[:, :12]
    table.columns = [
        ("MB_" + c.replace("MultiBoostAB_", "").replace("_weka", "") + "_cfg")[:20]
        for c in table.columns
    ]
    return table


TABLES = {
    "multiboost-13": _multiboost,
    "multiboost-12": lambda: _multiboost().iloc[:, :12],
    "renamed-12": _renamed_12,
}


@pytest.fixture(scope="module", params=list(TABLES))
def report_html(request, tmp_path_factory) -> tuple[str, Path]:
    name = request.param
    out = tmp_path_factory.mktemp(name) / "report.html"
    return name, nbstats.reporting.report(TABLES[name](), out, nan_policy="omit")


def test_tables_fit_the_column_outside_the_appendix(report_html, browser):
    name, path = report_html
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(path.as_uri())
        boxes = page.evaluate(_BOXES_JS)
        assert boxes, "no table box found"
        assert {b["client"] for b in boxes} == {COLUMN}
        ids = {b["id"] for b in boxes}
        assert "tab-core" in ids
        if name != "multiboost-13":  # the standard layout: the full score table
            assert "tab-scores" in ids
        scrolling = [
            (b["id"], b["scroll"])
            for b in boxes
            if not b["appendix"] and b["scroll"] > b["client"] + 1
        ]
        assert not scrolling, scrolling
        if name != "multiboost-13":
            ARTIFACTS.mkdir(exist_ok=True)
            scores = page.locator("#tab-scores")
            box = scores.bounding_box()  # page coordinates: not scrolled
            page.screenshot(
                path=str(ARTIFACTS / f"html-fit-{name}.png"),
                clip={"x": 0, "y": box["y"], "width": 1280, "height": 700},
                full_page=True,
            )
    finally:
        page.close()
