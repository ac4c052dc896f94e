"""Measurements of a typeset report: HTML boxes in Chromium, PDF characters,
the LaTeX log. Used by ``tests/reporting/test_typesetting.py``.

Each function returns the problems it finds (empty when there are none), so
that a failing assertion names them.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

#: The boxes of the nbstats-paper template that may scroll sideways.
SCROLL_BOXES = ".nbstats-table-wrap"

#: For every element: does its content overflow its own box (scrollWidth >
#: clientWidth, for a box that does not scroll), and does it reach past the
#: text column (``main``) when it is not inside a scroll box? Inline elements
#: have no box of their own; SVG internals are the figure's business.
_OVERFLOW_JS = """
(scrollBoxes) => {
  const problems = [];
  const main = document.querySelector('main') || document.body;
  const column = main.getBoundingClientRect();
  const describe = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += '#' + el.id;
    if (typeof el.className === 'string' && el.className.trim())
      name += '.' + el.className.trim().split(/\\s+/).join('.');
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim();
    return name + ' "' + text.slice(0, 60) + '"';
  };
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const scroller = el.closest(scrollBoxes);
    if (!scroller && box.right > column.right + 1)
      problems.push('past the column by ' + Math.round(box.right - column.right)
                    + ' px: ' + describe(el));
    if (!scroller && box.left < column.left - 1)
      problems.push('left of the column by ' + Math.round(column.left - box.left)
                    + ' px: ' + describe(el));
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    if (style.display !== 'inline' && !scrolls && el.clientWidth > 0
        && el.scrollWidth > el.clientWidth + 1)
      problems.push('content ' + (el.scrollWidth - el.clientWidth)
                    + ' px wider than its box: ' + describe(el));
  }
  const root = document.scrollingElement || document.documentElement;
  if (root.scrollWidth > root.clientWidth)
    problems.push('the page scrolls sideways: ' + root.scrollWidth + ' > '
                  + root.clientWidth + ' px');
  const scrolling = [...document.querySelectorAll(scrollBoxes)]
    .filter((el) => el.scrollWidth > el.clientWidth + 1).length;
  return {problems, scrolling};
}
"""


def html_overflow(page: Any) -> tuple[list[str], int]:
    """Overflow problems of the page loaded in a Playwright ``page``, and how
    many scroll boxes actually scroll."""
    found = page.evaluate(_OVERFLOW_JS, SCROLL_BOXES)
    return list(found["problems"]), int(found["scrolling"])


def char_size(char: dict[str, Any]) -> float:
    """The font size of a pdfplumber character, in pt, as it is printed.

    pdfplumber's ``size`` is the height of the character's box, which for
    text turned by a quarter (a figure's vertical axis label) is the glyph's
    advance; its font size is then the box's width. Text at other angles
    keeps ``size`` (the larger of the two would overstate nothing).
    """
    a, b, c, d = (float(v) for v in char["matrix"][:4])
    if abs(a) < 1e-6 and abs(d) < 1e-6 and abs(b) > 0 and abs(c) > 0:
        return float(char["width"])
    return float(char["size"])


def pdf_char_problems(pdf: Path, *, min_size: float = 6.0) -> tuple[list, list, int]:
    """Characters of the PDF's text layer outside their page's box, and
    characters smaller than ``min_size`` pt (:func:`char_size`); also how
    many characters there are."""
    import pdfplumber

    outside, small, count = [], [], 0
    with pdfplumber.open(pdf) as document:
        for number, page in enumerate(document.pages, start=1):
            x0, top, x1, bottom = page.bbox
            for char in page.chars:
                if not char["text"].strip():
                    continue
                count += 1
                where = (
                    f"page {number}: {char['text']!r} "
                    f"at ({char['x0']:.0f}, {char['top']:.0f})"
                )
                if (
                    char["x0"] < x0 - 0.5
                    or char["x1"] > x1 + 0.5
                    or char["top"] < top - 0.5
                    or char["bottom"] > bottom + 0.5
                ):
                    outside.append(where)
                size = char_size(char)
                if size < min_size - 0.05:
                    small.append(f"{where}, {size:.2f} pt")
    return outside, small, count


_OVERFULL = re.compile(r"Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)[^\n]*")
_MISSING = re.compile(r"Missing character: There is no (.+?) in font ([^\n!]+)")


def latex_log_problems(log: str, *, tolerance: float = 1.0) -> tuple[list, list]:
    """From a LaTeX log: the Overfull \\hbox messages over ``tolerance`` pt,
    and the characters no font had ("Missing character")."""
    overfull = [
        m.group(0) for m in _OVERFULL.finditer(log) if float(m.group(1)) > tolerance
    ]
    missing = sorted(
        {f"{m.group(1)} ({m.group(2).strip()})" for m in _MISSING.finditer(log)}
    )
    return overfull, missing


def render_pages(
    pdf: Path, prefix: Path, *, pages: int = 3, dpi: int = 70
) -> list[Path]:
    """The first ``pages`` pages as PNG files ``<prefix>-<n>.png`` (pdftoppm)."""
    for old in prefix.parent.glob(prefix.name + "-*.png"):
        old.unlink()
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            str(dpi),
            "-f",
            "1",
            "-l",
            str(pages),
            str(pdf),
            str(prefix),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return sorted(prefix.parent.glob(prefix.name + "-*.png"))
