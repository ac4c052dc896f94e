"""Paste-ready figures in real venue classes (issue 36, item 2, the figure half).

Every paste-ready figure nbstats writes -- the CD diagram at a column's width
(``figure-1.pdf``), its full-width variant (``figure-1-wide.pdf``, two-column
venues), its TikZ (``figure-1.tex``) and, when the letters' key does not fit
beside it, the key (``figure-1-key.tex``) -- is included at its natural size in
the four venue classes (article 10 pt, article twocolumn, IEEEtran conference,
acmart sigconf) at 2, 7, 12, 42 and 50 algorithms with 40-character names:
TabZilla's real table with its holes up to 42 algorithms
(``tests/data/tabzilla/README.md``), a synthetic one at 50. Checked: no LaTeX
error, no overfull box over 1 pt, no "Float too large", no missing
character; the column figure and the TikZ no wider than the column; the
smallest printed character of the page at least 7 pt, read from the PDF's
text layer by pdfminer (a character's extent across its writing direction,
which is its font size times the page's scale, rotated text included).
"""

from __future__ import annotations

import math
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots.venue_files import venue_figures
from nbstats.results.venues import get_venue
from tests.conftest import require_executable
from tests.real_tables import TABZILLA

DATA = TABZILLA
VENUES = ("article", "twocolumn", "ieee", "acm")
SIZES = (2, 7, 12, 42, 50)
NAME_LENGTH = 40
#: The least size (points) any printed character may have.
LEAST_PRINTED = 7.0


def long_names(names: list[str]) -> list[str]:
    """Each name made exactly 40 characters: its configuration spelled out."""
    out = []
    for k, name in enumerate(names):
        text = f"{name}(tuned=yes, folds=10, seed={k:03d}, lr=0.05)"
        out.append(text[:NAME_LENGTH].ljust(NAME_LENGTH, "_"))
    assert len(set(out)) == len(out)
    return out


def table_of(m: int) -> pd.DataFrame:
    """m algorithms of TabZilla (its holes dropped case-wise), or synthetic at
    more algorithms than it has."""
    if m <= 42:
        wide = pd.read_csv(DATA, index_col=0)
        chosen = wide.iloc[:, :m].dropna()
        assert len(chosen) >= 16  # the table's complete rows at least
        chosen.columns = long_names([str(c) for c in chosen.columns])
        return chosen
    rng = np.random.default_rng(m)
    data = rng.normal(0, 1, (60, m)) + np.linspace(0, 3, m)
    return pd.DataFrame(data, columns=long_names([f"alg{j:02d}" for j in range(m)]))


def smallest_printed(pdf: Path) -> float:
    """The smallest character of a PDF, as printed (points)."""
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTContainer

    least = math.inf

    def visit(item) -> None:
        nonlocal least
        if isinstance(item, LTChar):
            if not item.get_text().strip():
                return
            a, b = item.matrix[0], item.matrix[1]
            # its bbox spans the font size across the writing direction
            across = item.height if abs(a) >= abs(b) else item.width
            least = min(least, across)
        elif isinstance(item, LTContainer):
            for child in item:
                visit(child)

    for page in extract_pages(str(pdf)):
        visit(page)
    return least


def document(venue: str, files: dict[str, bytes], m: int) -> str:
    """A page of ``venue`` that includes every figure file at its size."""
    spec = get_venue(venue)
    top = ""
    if venue == "acm":
        # acmart's first page holds the permission block, set after the
        # floats are placed (a float there can overflow it): from page two
        top = (
            "\\settopmatter{printacmref=false}\\title{Figures}\\maketitle\n"
            "The first page.\\clearpage\n"
        )
    parts = [
        spec.documentclass,
        "\\usepackage{graphicx}\\usepackage{tikz}\\usepackage{array}",
        "\\begin{document}",
        top,
        "\\sbox0{\\includegraphics{figure-1.pdf}}\\typeout{FIGURE=\\the\\wd0}",
        "\\sbox0{\\input{figure-1.tex}}\\typeout{TIKZ=\\the\\wd0}",
        "\\typeout{COLUMN=\\the\\columnwidth;TEXT=\\the\\textwidth}",
        "\\begin{figure}[!t]\\centering\\includegraphics{figure-1.pdf}",
        f"\\caption{{The CD diagram of {m} algorithms, column width.}}\\end{{figure}}",
        "\\begin{figure}[!t]\\centering\\input{figure-1.tex}",
        "\\caption{The same diagram as TikZ.}\\end{figure}",
    ]
    if "figure-1-wide.pdf" in files:
        parts += [
            "\\begin{figure*}[!t]\\centering\\includegraphics{figure-1-wide.pdf}",
            "\\caption{The same diagram across the page.}\\end{figure*}",
        ]
    if "figure-1-key.tex" in files:
        parts += [
            # a page of its own after the figures (three large floats of one
            # column would not share it)
            "\\clearpage",
            "\\begin{table}[tbp]\\centering\\footnotesize",
            "\\caption{The letters of the diagram.}\\input{figure-1-key.tex}",
            "\\end{table}",
        ]
    parts += ["Text of the paper.", "\\end{document}"]
    return "\n".join(parts) + "\n"


def figures_only(files: dict[str, bytes]) -> str:
    """Each figure file alone on a page of its own (at natural size, so what
    it prints is what it would print in the paper): the venue classes print
    text of their own (acmart's 7-pt permission block, IEEEtran's small
    capitals) in sizes that are theirs to choose. The TikZ is set at the
    sizes it names (``\\fontsize{8}``) in whatever the document's font."""
    shown = ["\\includegraphics{figure-1.pdf}", "\\input{figure-1.tex}"]
    if "figure-1-wide.pdf" in files:
        shown.append("\\includegraphics{figure-1-wide.pdf}")
    return "\n".join(
        [
            "\\documentclass[10pt]{article}",
            "\\usepackage[paperwidth=600pt,paperheight=1000pt,margin=10pt]{geometry}",
            "\\usepackage{graphicx}\\usepackage{tikz}\\pagestyle{empty}",
            "\\begin{document}",
            "\\newpage\n".join(f"\\noindent{part}\n" for part in shown),
            "\\end{document}",
        ]
    )


def compile_tex(pdflatex: str, folder: Path, stem: str, source: str) -> str:
    """Typeset ``source``; its log (the run must succeed)."""
    (folder / f"{stem}.tex").write_text(source, encoding="utf-8")
    done = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", f"{stem}.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=240,
    )
    log = (folder / f"{stem}.log").read_text(errors="replace")
    assert done.returncode == 0, log[-3000:]
    return log


def _points(log: str, key: str) -> float:
    return float(re.search(rf"{key}=([\d.]+)pt", log).group(1))


@pytest.fixture(scope="module")
def pdflatex():
    require_executable("pdfinfo", "apt-get install poppler-utils")
    return require_executable("pdflatex", "apt-get install texlive-latex-base")


@pytest.mark.parametrize("m", SIZES)
@pytest.mark.parametrize("venue", VENUES)
def test_every_paste_ready_figure_fits_its_venue(tmp_path, pdflatex, venue, m):
    result = nbstats.posthoc(table_of(m), method="nemenyi")
    files = venue_figures(result, venue, formats=("pdf",))
    spec = get_venue(venue)
    assert ("figure-1-wide.pdf" in files) == spec.two_column
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    log = compile_tex(pdflatex, tmp_path, "page", document(venue, files, m))
    assert "Float too large" not in log
    assert "Missing character" not in log
    for amount in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log):
        assert float(amount) <= 1.0, f"overfull box of {amount} pt"
    # the column figure and its TikZ no wider than the column
    column = _points(log, "COLUMN")
    assert column == pytest.approx(spec.column_width_pt, abs=0.01)
    assert _points(log, "FIGURE") <= column
    assert _points(log, "TIKZ") <= column
    # the wide one exactly the text block's width (as the file says)
    if spec.two_column:
        info = subprocess.run(
            ["pdfinfo", str(tmp_path / "figure-1-wide.pdf")],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        width_bp = float(re.search(r"Page size:\s+([\d.]+)", info).group(1))
        assert width_bp * 72.27 / 72 <= spec.text_width_pt + 0.01
    # every character the figures print at 7 pt at least (at natural size)
    compile_tex(pdflatex, tmp_path, "alone", figures_only(files))
    assert smallest_printed(tmp_path / "alone.pdf") >= LEAST_PRINTED - 0.01
    # nothing lost: every name is in the figure or in the key beside it
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "page.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    def flat(t: str) -> str:  # pdflatex's OT1 underscore reads as a space
        return "".join(t.replace("_", " ").split())

    page = flat(text)
    for name in result.mean_ranks.index:
        assert flat(str(name)) in page, name


def test_smallest_printed_reads_rotated_text_by_its_font_size(tmp_path, pdflatex):
    # the measure itself: 7-pt text turned by 90 degrees is 7 pt, not the
    # length of its box; 6-pt text is 6 pt
    source = (
        "\\documentclass{article}\\usepackage{graphicx}\\begin{document}"
        "\\fontsize{7}{8}\\selectfont\\rotatebox{90}{a rotated line of text}"
        "\\quad{\\fontsize{12}{14}\\selectfont Big}\\end{document}\n"
    )
    (tmp_path / "r.tex").write_text(source)
    subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "r.tex"],
        cwd=tmp_path,
        capture_output=True,
        check=True,
        timeout=120,
    )
    assert smallest_printed(tmp_path / "r.pdf") == pytest.approx(7.0, abs=0.05)
    small = source.replace("\\fontsize{7}{8}", "\\fontsize{6}{7}")
    (tmp_path / "r.tex").write_text(small)
    subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "r.tex"],
        cwd=tmp_path,
        capture_output=True,
        check=True,
        timeout=120,
    )
    assert smallest_printed(tmp_path / "r.pdf") == pytest.approx(6.0, abs=0.05)
