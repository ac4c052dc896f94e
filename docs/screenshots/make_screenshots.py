"""Remake the report screenshots in this folder (for reviewers and the docs).

Run from the repository root: ``python docs/screenshots/make_screenshots.py``.
Needs Debian's chromium (driven by Playwright), xelatex, pandoc and pdftoppm.

Writes, for an experiment of 8 algorithms with long scikit-learn names (aliases
A–H with a legend) and one of 50 algorithms × 30 data sets (compact layout):
the HTML report in Chromium at 1280 px (the top of the page and the pairwise
section) and the first pages of the PDF report.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

import nbstats

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "benchmarks"))
from bench_report import suite  # noqa: E402  (the benchmark's own tables)

#: (name, table, HTML crops as (top, height) in CSS pixels, PDF pages)
CASES = [
    ("8-long-names", suite(8, long_names=True), [(0, 2600), (2600, 2600)], (1, 2, 3)),
    ("50-algorithms", suite(50), [(0, 2600), (2600, 2600)], (1, 2, 3)),
]


def html_shots(path: Path, name: str, crops: list[tuple[int, int]]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(path.as_uri())
        for k, (top, height) in enumerate(crops, start=1):
            page.screenshot(
                path=str(HERE / f"report-{name}-html-{k}.png"),
                full_page=True,
                clip={"x": 0, "y": top, "width": 1280, "height": height},
            )
        browser.close()


def pdf_shots(path: Path, name: str, pages: tuple[int, ...]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        prefix = Path(tmp) / "page"
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "90",
                "-f",
                str(pages[0]),
                "-l",
                str(pages[-1]),
                str(path),
                str(prefix),
            ],
            check=True,
        )
        images = [Image.open(p) for p in sorted(Path(tmp).glob("page-*.png"))]
        width = sum(im.width for im in images) + 10 * (len(images) - 1)
        sheet = Image.new("RGB", (width, max(im.height for im in images)), "white")
        x = 0
        for im in images:
            sheet.paste(im, (x, 0))
            x += im.width + 10
        sheet.save(HERE / f"report-{name}-pdf.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, table, crops, pages in CASES:
            html = nbstats.report(table, Path(tmp) / f"{name}.html", rope=0.01)
            html_shots(html, name, crops)
            pdf = nbstats.report(table, Path(tmp) / f"{name}.pdf", rope=0.01)
            pdf_shots(pdf, name, pages)
            print(f"{name}: done")


if __name__ == "__main__":
    main()
