"""Write nbstats/results/font_widths.json: advance widths (em) of the
characters tables print, read from the fonts TeX Live sets them in.

Computer Modern / Latin Modern (article, twocolumn, acm without Libertine,
and the PDF report): the Latin Modern OpenType fonts at 8, 9 and 10 pt
(their optical sizes), regular and bold. Times (IEEEtran): URW Nimbus
Roman's AFM metrics (utmr8a, utmb8a), which pdflatex uses for ``ptm``.

Run: python benchmarks/make_font_widths.py (needs TeX Live's lm and urw fonts).
"""

import contextlib
import json
import subprocess
from pathlib import Path

from matplotlib import ft2font
from matplotlib._afm import AFM

CHARS = "".join(chr(c) for c in range(32, 127)) + (
    "−×⁰¹²³⁴⁵⁶⁷⁸⁹⁻–—…≤≥±·°½αβγδεθκλμνπρσχψωΔΣΦΩé"
)


def kpse(name: str) -> str:
    return subprocess.run(
        ["kpsewhich", name], capture_output=True, text=True, check=True
    ).stdout.strip()


def otf(path: str) -> dict[str, float]:
    font = ft2font.FT2Font(path)
    font.set_size(1000, 72)
    out = {}
    for ch in CHARS:
        if font.get_char_index(ord(ch)):
            glyph = font.load_char(ord(ch), flags=ft2font.LoadFlags.NO_HINTING)
            out[ch] = round(glyph.linearHoriAdvance / 65536 / 1000, 4)
    return out


def afm(path: str) -> dict[str, float]:
    with open(path, "rb") as fh:
        metrics = AFM(fh)
    out = {}
    for ch in CHARS:
        with contextlib.suppress(KeyError):
            out[ch] = round(metrics.get_width_char(ord(ch)) / 1000, 4)
    return out


def main() -> None:
    fonts = {}
    for size in (8, 9, 10):
        fonts[f"computer-modern/{size}"] = otf(kpse(f"lmroman{size}-regular.otf"))
        fonts[f"computer-modern/{size}/bold"] = otf(kpse(f"lmroman{size}-bold.otf"))
    fonts["times"] = afm(kpse("utmr8a.afm"))
    fonts["times/bold"] = afm(kpse("utmb8a.afm"))
    target = Path(__file__).parents[1] / "nbstats" / "results" / "font_widths.json"
    target.write_text(json.dumps(fonts, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
