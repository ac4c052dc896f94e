"""The report typeset at every size: HTML in Chromium, PDF through xelatex.

Three reports, each executed once per module and exported to HTML and PDF:

- m = 2 (two-sample layout) with a long name and one full of LaTeX and HTML
  specials, aliased (the default);
- m = 8 with ``aliases=False``: long names (``HistGradientBoostingClassifier(
  max_iter=300, lr=0.05)``), specials and unicode (``Müller–Ⅱ λ-SVM``, Greek,
  Cyrillic) in every table, paragraph and caption;
- m = 50 algorithms × 30 cases (seeded scores; the compact layout).

The assertions are properties, not content, so they hold while the layouts
change: in Chromium at 1280 and 800 px no element is wider than its box or
reaches past the text column, except inside the designated scroll boxes
(``.nbstats-table-wrap``), and the page never scrolls sideways; in the PDF
every character lies inside its page and none is smaller than 6 pt; the
LaTeX log has no Overfull \\hbox over 1 pt and no "Missing character"; no
e-notation, hyphen for minus or stray escape in the text a reader sees.
Screenshots go to ``tests/artifacts/report-{m}.png`` (1280 px, full page) and
``report-{m}-800.png``; the first pages of each PDF to
``tests/artifacts/report-{m}-page-{n}.png``.

The LaTeX tables (the table model's renderer,
:func:`nbstats.results.render_latex.latex`) are also compiled on their own for
every shape, and the template's fonts with the
symbols and scripts nbstats promises. Skipped without Chromium, Playwright,
xelatex, pandoc or pdfplumber, unless NBSTATS_REQUIRE_ORACLES=1 (CI).
"""

from __future__ import annotations

import html
import importlib.util
import re
import subprocess
import unicodedata
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from nbformat import v4

import nbstats
import nbstats.reporting
from nbstats.reporting import data as report_data
from nbstats.reporting import display, export
from nbstats.results.render import format_value, html_table, latex_table
from nbstats.results.render_latex import REPORT_PAGE
from nbstats.results.render_latex import latex as render_latex
from nbstats.results.table_model import Cell, Table
from tests.conftest import (
    require_executable,
    unavailable,
)
from tests.reporting.typesetting_helpers import (
    html_overflow,
    latex_log_problems,
    pdf_char_problems,
    render_pages,
)

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
TEMPLATES = Path(__file__).resolve().parents[2] / "report_templates"
LONG = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
SPECIAL = "a_b & <c> 50% $x$ #1 {y}"
UNICODE = "Müller–Ⅱ λ-SVM"
NAMES_8 = [
    LONG,
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    SPECIAL,
    UNICODE,
    "Ελληνικά-kNN",
    "Кириллица_LR",
    "LogisticRegression(C=1.0, penalty='l2', solver='lbfgs')",
    "SVC",
]
#: The symbols a report writes, which every font setup must have.
SYMBOLS = "α ≈ ± − R⁺ R⁻ γ χ² θ ≤ ≥ → × …"
WIDTHS = (1280, 800)
SIZES = (2, 8, 50)


def _scores(m: int) -> pd.DataFrame:
    rng = np.random.default_rng(1000 + m)
    if m == 2:
        names, n = [LONG, SPECIAL], 20
    elif m == 8:
        names, n = NAMES_8, 20
    else:
        names, n = [f"algorithm_{i:02d}" for i in range(m)], 30
    # a gentle trend, so that some pairs differ and some do not
    values = 0.7 + 0.2 * rng.random((n, m)) + np.linspace(0.05, 0.0, m)
    return pd.DataFrame(values, index=[f"dataset {i}" for i in range(n)], columns=names)


# ---------------------------------------------------------------- the reports


@pytest.fixture(scope="module", params=SIZES, ids=[f"m{m}" for m in SIZES])
def executed(request, tmp_path_factory):
    """(m, the executed report notebook), one per size."""
    m = request.param
    options = {"aliases": False} if m == 8 else {}
    out = tmp_path_factory.mktemp(f"typeset{m}") / "report.ipynb"
    path = nbstats.reporting.report(_scores(m), out, **options)
    return m, nbformat.read(path, as_version=4)


@pytest.fixture(scope="module")
def html_report(executed, tmp_path_factory) -> tuple[int, Path]:
    m, nb = executed
    out = tmp_path_factory.mktemp(f"html{m}") / "report.html"
    return m, export.write_report(nb, out, "html")


@pytest.fixture(scope="module")
def pdf_report(executed, tmp_path_factory) -> tuple[int, Path, str]:
    """(m, the PDF, the log of xelatex's last pass): the PDF exporter the
    reports use, kept to read its log."""
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    from traitlets.config import Config

    from nbstats.reporting.exporters import NbstatsPDFExporter

    m, nb = executed
    folder = tmp_path_factory.mktemp(f"pdf{m}")
    config = Config(
        {
            "TemplateExporter": {
                "exclude_input": True,
                "exclude_input_prompt": True,
                "exclude_output_prompt": True,
            }
        }
    )
    exporter = NbstatsPDFExporter(config=config)
    exporter.latex_command = list(export.LATEX_COMMAND)
    pdf, _ = exporter.from_notebook_node(
        nb, resources={"metadata": {"name": "report", "path": str(folder)}}
    )
    path = folder / "report.pdf"
    path.write_bytes(pdf)
    return m, path, exporter.latex_log


def _pdfplumber() -> None:
    if importlib.util.find_spec("pdfplumber") is None:
        unavailable("Python package pdfplumber not installed (the test extra)")


def _pdf_text(pdf: Path) -> str:
    import pdfplumber

    with pdfplumber.open(pdf) as document:
        return "\n".join(page.extract_text() or "" for page in document.pages)


#: What a reader must never see: e-notation, a hyphen as minus before a
#: number, LaTeX escapes, HTML entities.
_E_NOTATION = re.compile(r"\d(?:\.\d+)?e[-+]?\d", re.IGNORECASE)
_HYPHEN_MINUS = re.compile(r"(?<![\w\-–)\]])-\d")
_ESCAPES = ("\\", "textbackslash", "&amp;", "&lt;", "&gt;", "&#")


def _reader_text_problems(text: str) -> list[str]:
    problems = [f"e-notation {m.group(0)!r}" for m in _E_NOTATION.finditer(text)]
    problems += [
        f"hyphen as minus: {text[max(0, m.start() - 20) : m.end() + 5]!r}"
        for m in _HYPHEN_MINUS.finditer(text)
    ]
    problems += [f"stray {escape!r}" for escape in _ESCAPES if escape in text]
    return problems


# ---------------------------------------------------------------- HTML


@pytest.mark.parametrize("width", WIDTHS)
def test_html_nothing_overflows(html_report, browser, width):
    """No element wider than its box or past the column, outside the scroll
    boxes; no sideways scroll of the page; every figure decoded and scaled to
    the column."""
    m, path = html_report
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        problems, _ = html_overflow(page)
        # every link inside the report leads to an element of it
        dead = page.evaluate(
            """() => [...document.querySelectorAll('a[href^="#"]')]
                .map((a) => a.getAttribute('href').slice(1))
                .filter((id) => id && !document.getElementById(id))"""
        )
        figures = page.evaluate(
            """() => [...document.querySelectorAll('figure.nbstats-figure img')]
                .map((img) => ({complete: img.complete, natural: img.naturalWidth,
                                width: img.getBoundingClientRect().width,
                                column: img.closest('figure').clientWidth}))"""
        )
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = f"report-{m}.png" if width == WIDTHS[0] else f"report-{m}-{width}.png"
        page.screenshot(path=str(ARTIFACTS / name), full_page=True)
        text = page.inner_text("main")
    finally:
        page.close()
    assert problems == []
    assert dead == []
    assert figures, "the report shows no figure"
    for figure in figures:
        assert figure["complete"] and figure["natural"] > 0
        assert figure["width"] <= figure["column"] + 0.5
    assert _reader_text_problems(text) == []


def test_html_names_shown_literally(html_report, browser):
    """Every name the report shows in full appears literally (escaped once)."""
    m, path = html_report
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(path.as_uri())
        text = re.sub(r"\s+", " ", page.inner_text("main"))
    finally:
        page.close()
    for name in _scores(m).columns:
        assert name in text


# ---------------------------------------------------------------- PDF


def test_pdf_latex_log_clean(pdf_report):
    """No Overfull \\hbox over 1 pt, no missing glyph, longtables settled,
    every cross-reference defined (no "Table ??")."""
    _, _, log = pdf_report
    overfull, missing = latex_log_problems(log)
    assert overfull == []
    assert missing == []
    assert "Rerun LaTeX" not in log and "widths have changed" not in log
    undefined = re.findall(r"Reference `([^']+)' on page \d+ undefined", log)
    assert undefined == []


def test_pdf_characters_inside_pages_and_large_enough(pdf_report):
    """Every character of the text layer inside its page, none below 6 pt;
    the first pages rendered for a human to look at."""
    _pdfplumber()
    m, pdf, _ = pdf_report
    outside, small, count = pdf_char_problems(pdf, min_size=6.0)
    assert count > 1000
    assert outside == []
    assert small[:20] == []
    require_executable("pdftoppm", "apt-get install poppler-utils")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = render_pages(pdf, ARTIFACTS / f"report-{m}-page", pages=3)
    assert len(pages) == 3


def test_pdf_text_reads_right(pdf_report):
    """Names typeset literally (one escape, no LaTeX left), numbers in fixed
    notation with true minus signs."""
    _pdfplumber()
    m, pdf, _ = pdf_report
    text = _pdf_text(pdf)
    assert _reader_text_problems(text) == []
    if m == 8:
        # the lines a long name was broken across joined; math italic letters
        # (escape_latex sets λ as $\lambda$) and Ⅱ read as plain letters
        def flat(s: str) -> str:
            return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s))

        for name in (UNICODE, "Ελληνικά-kNN", "Кириллица_LR", SPECIAL, LONG):
            assert flat(name) in flat(text)


# ---------------------------------------------------------------- fonts


def _latex_notebook(latex: str) -> nbformat.NotebookNode:
    cell = v4.new_code_cell("", metadata={"tags": ["remove-input"]})
    cell.outputs = [
        v4.new_output("display_data", data={"text/latex": latex, "text/plain": ""})
    ]
    return v4.new_notebook(cells=[cell])


def test_template_fonts_have_every_promised_glyph(tmp_path):
    """The template's fonts set nbstats' symbols as raw characters (not only
    as escape_latex's math), accented Latin, Greek, Cyrillic and roman
    numerals, bold and italic, with no missing character."""
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    from nbstats.reporting.exporters import NbstatsPDFExporter

    words = f"{SYMBOLS} {UNICODE} Ελληνικά Кириллица Ærøskøbing Łódź Čapek ŞĞİ"
    latex = f"{words}\n\n\\textbf{{{words}}}\n\n\\emph{{{words}}}\n"
    exporter = NbstatsPDFExporter()
    exporter.latex_command = list(export.LATEX_COMMAND)
    pdf, _ = exporter.from_notebook_node(
        _latex_notebook(latex), resources={"metadata": {"path": str(tmp_path)}}
    )
    assert pdf.startswith(b"%PDF")
    overfull, missing = latex_log_problems(exporter.latex_log)
    assert missing == []
    assert overfull == []


def test_template_fonts_without_dejavu_italic(tmp_path):
    """CI installs fonts-dejavu-core only (no italic): the fallback slants
    the upright face, and italic Greek and Cyrillic still have every glyph."""
    _pdfplumber()
    fonts = (TEMPLATES / "nbstats-paper-latex" / "fonts.tex.j2").read_text()
    fonts = fonts.replace("DejaVu Serif Italic", "NoSuch Serif Italic")
    fonts = fonts.replace("DejaVu Sans Oblique", "NoSuch Sans Oblique")
    words = f"{UNICODE} Ελληνικά Кириллица"
    body = f"{words}\n\n\\emph{{{words}}} \\textbf{{\\emph{{{words}}}}}\n"
    log, pdf = _compile_tables(tmp_path, body, fonts=fonts)
    assert latex_log_problems(log)[1] == []
    import pdfplumber

    with pdfplumber.open(pdf) as document:
        used = {c["fontname"].split("+")[-1] for c in document.pages[0].chars}
    assert any(name.startswith("DejaVuSerif") for name in used)


def test_fallback_ranges_cover_what_latin_modern_lacks():
    """Every character DejaVu Serif has and Latin Modern lacks falls back to
    DejaVu (fonts.tex.j2's ranges), read from the installed fonts."""
    kpsewhich = require_executable("kpsewhich", "apt-get install texlive-base")
    from fontTools.ttLib import TTFont

    def cmap(path: str) -> set[int]:
        return set(TTFont(path, fontNumber=0).getBestCmap())

    latin = []
    for name in ("lmroman10-regular.otf", "lmroman10-bold.otf", "lmroman10-italic.otf"):
        done = subprocess.run([kpsewhich, name], capture_output=True, text=True)
        latin.append(done.stdout.strip())
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    serif = [dejavu / "DejaVuSerif.ttf", dejavu / "DejaVuSerif-Bold.ttf"]
    if not all(latin) or not all(p.is_file() for p in serif):
        unavailable("Latin Modern (lmodern) or DejaVu (fonts-dejavu-core) missing")
    source = (TEMPLATES / "nbstats-paper-latex" / "fonts.tex.j2").read_text()
    covered: set[int] = set()
    for low, high in re.findall(r"\\nbstats@(?:serif|sans)\{(\w+)\}\{(\w+)\}", source):
        covered.update(range(int(low, 16), int(high, 16) + 1))
    # what DejaVu Serif has in regular and bold, and Latin Modern lacks in
    # any of regular, bold and italic: letters and symbols
    lacking = set.intersection(*(cmap(str(p)) for p in serif)) - set.intersection(
        *(cmap(p) for p in latin)
    )
    letters = {
        c
        for c in lacking
        if unicodedata.category(chr(c))[0] in "LS" or chr(c) in SYMBOLS
    }
    assert sorted(hex(c) for c in letters - covered) == []
    for ch in "αγχλθΕКⅡ≈⁺⁻":
        assert ord(ch) in covered


def test_the_cjk_font_is_opened_at_the_first_cjk_character(tmp_path):
    """Noto Serif CJK is opened only by a document that has a CJK character,
    and then at the scale and with the page it had when the preamble opened
    it: the first character here is small and bold, yet the page is the
    one the preamble's font gives, pixel for pixel."""
    require_executable("pdftoppm", "apt-get install poppler-utils")
    from nbstats.plots.fonts import cjk_font

    if cjk_font() is None:
        unavailable("no CJK font (apt-get install fonts-noto-cjk)")
    fonts = (TEMPLATES / "nbstats-paper-latex" / "fonts.tex.j2").read_text()
    in_preamble = fonts + "\\makeatletter\\nbstats@opencjk\\makeatother\n"
    words = "支持向量机 SVM, 決定木, 한국어, \\emph{日本語モデル}, Ελληνικά"
    body = f"Latin first. {{\\small\\bfseries {words}}} and {words}.\n"
    pages, scales = [], []
    for which, preamble in (("lazy", fonts), ("preamble", in_preamble)):
        folder = tmp_path / which
        folder.mkdir()
        log, pdf = _compile_tables(folder, body, fonts=preamble)
        assert latex_log_problems(log)[1] == []
        scales.append(re.findall(r"Noto Serif CJK SC scale = ([\d.]+)", log))
        subprocess.run(
            ["pdftoppm", "-r", "100", "-png", str(pdf), str(folder / "page")],
            check=True,
        )
        pages.append((folder / "page-1.png").read_bytes())
    assert scales[0] and set(scales[0]) == set(scales[1])
    assert pages[0] == pages[1]
    # a document without CJK never opens the font
    folder = tmp_path / "plain"
    folder.mkdir()
    log, _ = _compile_tables(folder, "Latin, Ελληνικά and Кириллица.\n", fonts=fonts)
    assert "Noto Serif CJK" not in log
    assert latex_log_problems(log)[1] == []


# ---------------------------------------------------------------- LaTeX tables


def _compile_tables(
    tmp_path: Path, body: str, *, fonts: str | None = None
) -> tuple[str, Path]:
    """Typeset ``body`` on the report's page with its fonts (fonts.tex.j2,
    or ``fonts``, without the Jinja comment); the log and the PDF."""
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex")
    tex = tmp_path / "t.tex"
    if fonts is None:
        fonts = (TEMPLATES / "nbstats-paper-latex" / "fonts.tex.j2").read_text()
    fonts = fonts.split("-=))", 1)[1]
    tex.write_text(
        "\\documentclass[11pt,a4paper]{article}\n"
        "\\usepackage[margin=1in]{geometry}\n"
        "\\usepackage{fontspec,booktabs,xltabular}\n"
        f"{fonts}\n\\begin{{document}}\n{body}\\end{{document}}\n",
        encoding="utf-8",
    )
    for _ in range(3):
        done = subprocess.run(
            [xelatex, "-interaction=nonstopmode", "-halt-on-error", tex.name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout[-3000:]
    return (tmp_path / "t.log").read_text(errors="replace"), tmp_path / "t.pdf"


@pytest.mark.parametrize(
    ("n", "m", "long_names"),
    [(14, 4, False), (20, 10, True), (40, 5, False), (40, 10, False), (30, 50, False)],
)
def test_score_table_latex_fits_every_shape(tmp_path, n, m, long_names):
    """Few or many cases, few or many (or long-named) algorithms: one table
    that fits the line at 8 pt or more, across pages, in column blocks when
    it must, the blocks keeping the table's number."""
    _pdfplumber()
    rng = np.random.default_rng(n * m)
    names = [
        (LONG if long_names and j % 2 else f"algorithm $number$ {j}") + f" {j}"
        for j in range(m)
    ]
    scores = pd.DataFrame(
        rng.random((n, m)), index=[f"case_{i} & 50%" for i in range(n)], columns=names
    )
    ranks = nbstats.ranks(scores)
    cells = [
        [f"{format_value(v)} ({r:g})" for v, r in zip(row, rank_row, strict=True)]
        for row, rank_row in zip(scores.to_numpy(), ranks.to_numpy(), strict=True)
    ]
    model = report_data._scores_model(
        scores,
        names=names,
        index_name="case",
        cells=cells,
        bold=(scores.to_numpy() == scores.to_numpy().max(axis=1)[:, None]).tolist(),
        mean_cells=[f"{r:.3f}" for r in nbstats.mean_ranks(scores)],
        mean_bold=[False] * m,
        caption="Scores.",
        n_cases=n,
    )
    latex = render_latex(model, "article")
    assert "\\resizebox" not in latex and "adjustbox" not in latex
    log, pdf = _compile_tables(tmp_path, latex)
    overfull, missing = latex_log_problems(log)
    assert overfull == [] and missing == []
    outside, small, count = pdf_char_problems(pdf, min_size=6.0)
    assert outside == [] and small == []
    # the text itself is 8 pt or more; only super- and subscripts are smaller
    assert len(pdf_char_problems(pdf, min_size=7.9)[1]) < 0.02 * count
    text = _pdf_text(pdf)
    assert "Table 2" not in text  # column blocks and pages continue Table 1
    flat = text.replace("\n", " ")
    for name in names:  # every algorithm, in some block
        assert name.split()[0][:4] in flat, name


def test_a_results_table_of_long_names_wraps_within_the_line(tmp_path):
    """A results table with long comparisons and a text column: its name
    columns wrap (X columns, left to TeX) within the line, on the report's
    page too (the same LaTeX as the paper's)."""
    _pdfplumber()
    pairs = [f"{a} vs {b}" for a in NAMES_8[:4] for b in NAMES_8[4:]]
    frame = pd.DataFrame(
        {
            "mean rank a": np.linspace(1, 4, len(pairs)),
            "P(better), lower": np.linspace(0.01, 0.99, len(pairs)),
            "p-value": np.geomspace(1e-6, 0.9, len(pairs)),
            "decision": ["indeterminate"] * len(pairs),
        },
        index=pd.Index(pairs, name="comparison"),
    )
    fitted = latex_table(
        frame,
        caption="Pairs: χ² ≈ 3, α = 0.05, R⁺ − R⁻.",
        label="tab:pairs",
        fit=True,
        venue=REPORT_PAGE,  # as the PDF report sets it
    )
    assert "\\label{tab:pairs}" in fitted
    assert "tabularx" in fitted or "longtable" in fitted  # names wrap
    log, pdf = _compile_tables(tmp_path, fitted)
    overfull, missing = latex_log_problems(log)
    assert overfull == [] and missing == []
    outside, small, count = pdf_char_problems(pdf, min_size=6.0)
    assert outside == [] and small == []
    # the text itself is 9 pt on the report's page; only super- and
    # subscripts are smaller, and the Greek and Cyrillic of the fallback font,
    # which the template scales to Latin Modern's x-height (9 pt: 7.45 pt)
    small = pdf_char_problems(pdf, min_size=7.9)[1]
    latin = [c for c in small if c.split("'")[1].isascii()]
    assert len(latin) < 0.02 * count, latin[:5]
    assert _reader_text_problems(_pdf_text(pdf)) == []


def test_a_table_checks_its_rows():
    with pytest.raises(ValueError, match="every row needs 2 cells"):
        Table((Cell("a"), Cell("b")), ((Cell("1"),),))


@pytest.mark.parametrize(
    ("p", "text"),
    [(0.0012345, "= 0.001"), (0.05, "= 0.050"), (1e-5, "< 0.001"), (0.0, "< 0.001")],
)
def test_p_values_in_prose(p, text):
    """p-values in the text: four decimals or "< 0.001", never e-notation."""
    assert display._p(p) == text


def test_name_columns_marked_in_html():
    """A column of long names wraps flush left; number columns do not."""
    frame = pd.DataFrame(
        {"algorithm": [LONG, "SVC"], "score": [0.5, -1.25]},
        index=pd.Index(["A", "B"], name="alias"),
    )
    marked = html_table(frame)
    assert marked.count("nbstats-text") == 3  # the header and two names
    assert html.escape(LONG) in marked.replace("<wbr/>", "")


# ---------------------------------------------------------------- the checks


def test_overflow_check_sees_an_overflow(browser, tmp_path):
    """The HTML check itself: a wide element outside a scroll box is reported,
    the same inside one is not."""
    page_html = (
        "<html><body><main style='width:300px'>"
        "<div id='bad' style='width:200px'><span style='display:inline-block;"
        "width:500px'>x</span></div>"
        "<div class='nbstats-table-wrap' style='overflow-x:auto'>"
        "<table><tr><td style='min-width:900px'>wide</td></tr></table></div>"
        "</main></body></html>"
    )
    path = tmp_path / "bad.html"
    path.write_text(page_html, encoding="utf-8")
    page = browser.new_page(viewport={"width": 800, "height": 600})
    try:
        page.goto(path.as_uri())
        problems, scrolling = html_overflow(page)
    finally:
        page.close()
    assert any("div#bad" in p for p in problems)
    assert not any(
        p.split(":")[1].lstrip().startswith(("table", "td")) for p in problems
    )
    assert scrolling == 1


def test_log_check_reads_latex_messages():
    log = (
        "Overfull \\hbox (0.5pt too wide) in paragraph at lines 1--2\n"
        "Overfull \\hbox (12.3pt too wide) in alignment at lines 3--9\n"
        "Missing character: There is no λ (U+03BB) in font [lmroman10-regular]:mapping=tex-text;!\n"
    )
    overfull, missing = latex_log_problems(log)
    assert overfull == ["Overfull \\hbox (12.3pt too wide) in alignment at lines 3--9"]
    assert len(missing) == 1 and missing[0].startswith("λ (U+03BB)")
