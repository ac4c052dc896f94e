"""The LaTeX report's font in figures: Latin Modern, registered as TrueType.

A report typesets its figures in Latin Modern, the font of its LaTeX
document (Debian: fonts-lmodern), in the 8-pt design that LaTeX itself uses
at 8 pt (:func:`document_font`). Two things stand in the way of simply
naming the installed font:

- the installed optical sizes (5 to 17 pt) all call themselves "Latin
  Modern Roman", and matplotlib would pick any of them (it picked the 17-pt
  design): the 8-pt files are registered under a family name of their own;
- they are OpenType fonts with CFF outlines, which matplotlib embeds in a PDF
  as TrueType fonts (``pdf.fonttype`` 42): the PDF declares one kind of font
  and carries another (poppler: "Mismatch between font type and embedded
  font file"), which preflight checks may reject. So the fonts are converted
  to TrueType outlines once (fontTools, which matplotlib requires; cubic to
  quadratic curves within one unit of the 1000-unit em) and kept in
  matplotlib's cache directory.

Latin Modern Math sets what the text font lacks (Greek, ≤, ●), a subset of
it converted the same way; DejaVu Serif the rest, and Noto Serif CJK
(Debian: fonts-noto-cjk, the LaTeX report's fallback too) Chinese, Japanese
and Korean names where it is installed — without it they would print as
empty boxes. It is embedded as it is (CFF outlines: too many glyphs to
convert on the fly), so a PDF with such a name carries the font-type
mismatch described above.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import tempfile
from pathlib import Path

__all__ = [
    "DOCUMENT_FONT",
    "MATH_FONT",
    "TIMES_FONT",
    "cjk_font",
    "document_font",
    "times_font",
    "venue_font",
]

#: Family names of the registered fonts.
DOCUMENT_FONT = "nbstats Latin Modern Roman 8"
MATH_FONT = "nbstats Latin Modern Math"
TIMES_FONT = "nbstats Nimbus Roman"
#: Where Debian, TeX Live and fonts-lmodern install the OpenType files.
_DIRS = (
    "/usr/share/texmf/fonts/opentype/public",
    "/usr/share/texlive/texmf-dist/fonts/opentype/public",
    "/usr/local/texlive/texmf-dist/fonts/opentype/public",
)
_TEXT_FILES = (
    "lm/lmroman8-regular.otf",
    "lm/lmroman8-bold.otf",
    "lm/lmroman8-italic.otf",
)
_MATH_FILE = "lm-math/latinmodern-math.otf"
#: What the math font is kept for: Greek, punctuation, letter-like symbols,
#: arrows, mathematical operators, technical symbols, geometric shapes.
_MATH_RANGES = ((0x370, 0x3FF), (0x2000, 0x206F), (0x2100, 0x214F),
                (0x2190, 0x23FF), (0x25A0, 0x25FF))  # fmt: skip
#: Bump when the conversion changes (a new name in the cache).
_VERSION = 2


def _find(relative: str) -> Path | None:
    for directory in _DIRS:
        path = Path(directory) / relative
        if path.is_file():
            return path
    return None


def _to_truetype(font) -> None:
    """Replace a CFF font's outlines by quadratic TrueType ones, in place."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                  "maxInstructionDefs", "maxStackElements",
                  "maxSizeOfInstructions", "maxComponentElements"):  # fmt: skip
        setattr(maxp, field, 0)
    font["maxp"] = maxp
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    font.sfntVersion = "\x00\x01\x00\x00"


def _converted(source: Path, *, subset: bool = False) -> Path:
    """The TrueType version of ``source``, made once and cached."""
    import matplotlib
    from fontTools.ttLib import TTFont

    stat = source.stat()
    folder = Path(matplotlib.get_cachedir()) / "nbstats-fonts"
    target = (
        folder / f"{source.stem}-{stat.st_size}-{int(stat.st_mtime)}-v{_VERSION}.ttf"
    )
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    font = TTFont(str(source))
    if subset:
        from fontTools import subset as subsetting

        options = subsetting.Options()
        options.layout_features = []
        options.name_IDs = ["*"]
        options.drop_tables += ["MATH", "FFTM"]
        subsetter = subsetting.Subsetter(options)
        subsetter.populate(
            unicodes=[u for low, high in _MATH_RANGES for u in range(low, high + 1)]
        )
        subsetter.subset(font)
    _to_truetype(font)
    # written beside and renamed: a report running at the same time reads
    # either no file or a whole one
    handle, temporary = tempfile.mkstemp(suffix=".ttf", dir=folder)
    os.close(handle)
    try:
        font.save(temporary)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    return target


def _register(path: Path, family: str, *, weights: tuple[int, ...] = ()) -> None:
    """Add ``path`` to matplotlib's fonts as ``family``; ``weights``: also
    under these weights (the math font has no bold: bold text falls back to
    it without a warning)."""
    from matplotlib import font_manager

    entry = font_manager.ttfFontProperty(font_manager.get_font(str(path)))
    for weight in (entry.weight, *weights):
        font_manager.fontManager.ttflist.append(
            dataclasses.replace(entry, name=family, weight=weight)
        )


@functools.cache
def document_font() -> str | None:
    """Register Latin Modern with matplotlib; the text font's family name.

    None when the fonts are not installed (figures then keep DejaVu Sans) or
    cannot be converted. The first call on a machine converts them; later
    ones read the cache.

    Examples
    --------
    >>> document_font() in (DOCUMENT_FONT, None)
    True
    """
    from matplotlib import font_manager

    sources = [_find(name) for name in _TEXT_FILES]
    if sources[0] is None:
        return None
    try:
        for source in sources:
            if source is not None:
                _register(_converted(source), DOCUMENT_FONT)
        math = _find(_MATH_FILE)
        if math is not None:
            _register(_converted(math, subset=True), MATH_FONT, weights=(700,))
    except (ImportError, OSError, ValueError, KeyError, AssertionError):
        return None  # a font fontTools cannot convert: the default font
    font_manager.fontManager._findfont_cached.cache_clear()
    return DOCUMENT_FONT


#: URW's Nimbus Roman, the Times that IEEEtran's documents are set in
#: (``ptm``: NimbusRomNo9L), as OpenType (Debian: fonts-urw-base35).
_TIMES_DIRS = ("/usr/share/fonts/opentype/urw-base35",)
_TIMES_FILES = (
    "NimbusRoman-Regular.otf",
    "NimbusRoman-Bold.otf",
    "NimbusRoman-Italic.otf",
)


@functools.cache
def times_font() -> str | None:
    """Register Nimbus Roman (Times) with matplotlib, converted to TrueType
    as Latin Modern is; its family name, or None where it is not installed.

    Examples
    --------
    >>> times_font() in (TIMES_FONT, None)
    True
    """
    from matplotlib import font_manager

    sources = [
        path
        for name in _TIMES_FILES
        for directory in _TIMES_DIRS
        if (path := Path(directory) / name).is_file()
    ]
    if not sources:
        return None
    try:
        for source in sources:
            _register(_converted(source), TIMES_FONT)
        document_font()  # Latin Modern Math for what Times lacks
    except (ImportError, OSError, ValueError, KeyError, AssertionError):
        return None
    font_manager.fontManager._findfont_cached.cache_clear()
    return TIMES_FONT


def venue_font(venue: str) -> str | None:
    """The family a venue's figures are set in: the document's own font.

    ``ieee`` (IEEEtran sets Times): Nimbus Roman, the Times clone TeX itself
    embeds; ``article`` and ``twocolumn``: Latin Modern; ``acm``: Latin Modern
    too — acmart asks for Linux Libertine, which TeX Live's basic schemes
    lack (the class then falls back to Computer Modern, which Latin Modern
    matches), and nbstats does not ship it. None when the font is not
    installed (figures keep DejaVu Sans).

    Examples
    --------
    >>> venue_font("article") in (DOCUMENT_FONT, None)
    True
    """
    if venue == "ieee":
        return times_font() or document_font()
    return document_font()


#: The CJK family, and where Debian installs it.
CJK_FONT = "Noto Serif CJK SC"
_CJK_FILES = (
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
)


@functools.cache
def cjk_font() -> str | None:
    """The family that sets Chinese, Japanese and Korean text in figures, or
    None where no such font is installed (the text then shows as boxes, and
    matplotlib warns of the missing glyphs).

    Examples
    --------
    >>> cjk_font() in (CJK_FONT, None)
    True
    """
    from matplotlib import font_manager

    known = {entry.name for entry in font_manager.fontManager.ttflist}
    if CJK_FONT not in known:
        # installed after matplotlib built its font list: added now
        for path in _CJK_FILES:
            if Path(path).is_file():
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    return None
        known = {entry.name for entry in font_manager.fontManager.ttflist}
    return CJK_FONT if CJK_FONT in known else None
