r"""How wide text prints: advance widths read from the fonts tables are set in.

The one width measure of the LaTeX tables (:mod:`nbstats.results.render_latex`).
``font_widths.json`` holds the advance width, in em, of every character the
tables print in the fonts TeX Live sets them in: Computer Modern (Latin
Modern's OpenType fonts at their optical sizes 8, 9 and 10 pt, regular and
bold) for ``article``, ``twocolumn``, ``acm`` (acmart falls back to it where
Libertine is not installed; Libertine is narrower) and the PDF report; Times
(URW Nimbus Roman, the font IEEEtran's ``ptm`` loads) for ``ieee``. It was
written by ``benchmarks/make_font_widths.py`` from the fonts themselves.

A character the font has no width for (Greek letters set in math, CJK, …)
counts as wide as the font's ``M``: an estimate that errs wide, never narrow.

Examples
--------
>>> text_width_em("0.500", "computer-modern")
2.278
>>> text_width_em("0.500", "times", bold=True)
2.25
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

__all__ = ["FONTS", "font_of", "quad_pt", "text_width_em", "text_width_pt"]

#: The fonts with measured widths.
FONTS = ("computer-modern", "times")

#: The font a venue's tables are set in (others: Computer Modern, the wider).
_VENUE_FONTS = {"ieee": "times"}


def font_of(venue_name: str) -> str:
    """The font tables of the venue named ``venue_name`` are measured in.

    Examples
    --------
    >>> font_of("ieee"), font_of("acm")
    ('times', 'computer-modern')
    """
    return _VENUE_FONTS.get(venue_name, "computer-modern")


#: Computer Modern's em (``\fontdimen6``, the quad) at its optical sizes:
#: an ``em`` in LaTeX is the quad of the current font, not its size.
_CM_QUAD = {8: 8.5, 9: 9.25, 10: 10.0}


def quad_pt(font: str, size_pt: float) -> float:
    """What ``1em`` is in LaTeX (pt) in ``font`` at ``size_pt``.

    Examples
    --------
    >>> quad_pt("computer-modern", 8), quad_pt("times", 8)
    (8.5, 8)
    """
    if font == "times":
        return size_pt
    size = min(max(round(size_pt), 8), 10)
    return _CM_QUAD[size] * size_pt / size


@cache
def _widths() -> dict[str, dict[str, float]]:
    text = resources.files("nbstats.results").joinpath("font_widths.json").read_text()
    return json.loads(text)


def _table(font: str, size_pt: float, bold: bool) -> dict[str, float]:
    if font not in FONTS:
        raise ValueError(f"font must be one of {FONTS}, not {font!r}")
    widths = _widths()
    if font == "times":
        key = "times"
    else:  # Latin Modern's optical sizes: the nearest of 8, 9 and 10 pt
        key = f"computer-modern/{min(max(round(size_pt), 8), 10)}"
    return widths[key + "/bold" if bold else key]


def text_width_em(
    text: str, font: str, *, size_pt: float = 10.0, bold: bool = False
) -> float:
    """The advance width of ``text`` in em of its size (its kerning aside).

    Parameters
    ----------
    text : str
        What prints (not LaTeX source).
    font : {"computer-modern", "times"}
    size_pt : float
        The size it is set at (picks Computer Modern's optical size).
    bold : bool

    Returns
    -------
    float
        Rounded to 1/1000 em.
    """
    table = _table(font, size_pt, bold)
    wide = table["M"]
    return round(sum(table.get(ch, wide) for ch in text), 3)


def text_width_pt(
    text: str, font: str, *, size_pt: float = 10.0, bold: bool = False
) -> float:
    """The advance width of ``text`` set at ``size_pt`` points, in points.

    Examples
    --------
    >>> text_width_pt("mean rank", "computer-modern", size_pt=10)
    46.42
    """
    return round(text_width_em(text, font, size_pt=size_pt, bold=bold) * size_pt, 3)
