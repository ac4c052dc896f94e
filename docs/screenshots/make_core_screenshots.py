"""Remake the screenshots of a report's core (``core_only=True``) in this folder.

Run from the repository root: ``python docs/screenshots/make_core_screenshots.py
[m2 m12 m50 m100]``. Needs Debian's chromium (driven by Playwright), xelatex,
pandoc and pdftoppm.

Real published tables: the 2024 time-series bake-off's two classifiers with
per-fold scores (m2), the 13 MultiBoost classifiers (m12) and the top 50 of
Fernández-Delgado et al. (2014) with missing cells (m50), and the 100
classifiers of that study that have every score (m100). Writes
``core-<case>-html.png`` (the page in Chromium at 1280 px) and
``core-<case>-pdf.png`` / ``core-<case>-pdf-2.png`` (the PDF's pages).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbstats

HERE = Path(__file__).parent


def _complete_100():
    table = nbstats.datasets.load("fernandez_delgado2014")
    return table[table.isna().sum().sort_values(kind="stable").index[:100]]


PERCENT = {"nan_policy": "omit", "rope": 1, "score_unit": "percentage points"}
CASES = {
    "m2": (
        lambda: nbstats.datasets.load("tsc_bakeoff2024_folds"),
        {
            "case": "dataset",
            "algorithm": "classifier",
            "score": "accuracy",
            "fold": "resample",
            "rope": 0.01,
        },
    ),
    "m12": (lambda: nbstats.datasets.load("fernandez_delgado2014_multiboost"), PERCENT),
    "m50": (lambda: nbstats.datasets.load("fernandez_delgado2014_top50"), PERCENT),
    "m100": (_complete_100, PERCENT),
}


def main(which: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        out = Path(tmp)
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for name in which:
            load, options = CASES[name]
            table = load()
            report = dict(core_only=True, random_state=0, **options)
            html = nbstats.report(table, out / f"{name}.html", **report)
            pdf = nbstats.report(table, out / f"{name}.pdf", **report)
            page = browser.new_page(viewport={"width": 1280, "height": 1600})
            page.goto(Path(html).as_uri())
            page.wait_for_timeout(500)
            page.screenshot(path=str(HERE / f"core-{name}-html.png"), full_page=True)
            stem = out / f"core-{name}-pdf"
            command = ["pdftoppm", "-r", "80", "-png", str(pdf), str(stem)]
            subprocess.run(command, check=True)
            pages = sorted(out.glob(f"core-{name}-pdf-*.png"))
            for k, png in enumerate(pages, start=1):
                suffix = "" if k == 1 else f"-{k}"
                shutil.copyfile(png, HERE / f"core-{name}-pdf{suffix}.png")
            print(name, len(pages), "PDF pages")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:] or list(CASES))
