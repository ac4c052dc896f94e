r"""Every name comes out of the LaTeX and the PDF as it went in (issue 34,
finding 4, and its questionable TeX points).

A row is written right after ``\midrule`` or ``\\``, so a first cell
``[2pt]Bracket`` was read as ``\\[2pt]`` and ``*Star`` as ``\\*``; ``k--NN``
came out as "k–NN", two backticks, ``!``` and ``?``` as quotes, "¡" and "¿";
CJK names vanished with only "Missing character" in xelatex's log.

Now :func:`~nbstats.results.formatting.escape_latex` braces ``[ ] *``, keeps
every pair of characters from forming one of TeX's ligatures and writes quotes
as commands; the report's fonts fall back to Noto Serif CJK for Chinese,
Japanese and Korean; and a PDF report whose fonts lack a character is refused,
naming it. The property is checked on generated names, in one xelatex run of
every result kind's ``to_latex()`` and in the ``.tex`` and PDF report: every
name is in the PDF's text layer (pdftotext) exactly as given.

Skipped without xelatex, pdftotext, pandoc or Noto Serif CJK, unless
NBSTATS_REQUIRE_ORACLES=1 (CI).
"""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nbformat import v4

import nbstats
import nbstats.reporting
from nbstats.reporting import export
from nbstats.reporting.errors import ReportError
from nbstats.results.formatting import escape_latex, visual_order
from tests.conftest import require_executable, unavailable
from tests.results.every_kind import every_result, score_table

TEMPLATES = Path(__file__).resolve().parents[2] / "report_templates"

#: What TeX reads specially at the start of a row, as a ligature, or as a
#: command, with CJK and right-to-left scripts: pieces of generated names.
HAZARDS = [
    "[2pt]",
    "[0]",
    "*",
    "--",
    "---",
    "``",
    "''",
    "!`",
    "?`",
    ",,",
    "<<",
    '"',
    "%",
    "&",
    "\\",
    "{",
    "}",
    "#",
    "$",
    "_",
    "~",
    "^",
    "–-",
]
WORDS = ["中文算法", "日本語モデル", "한국어", "עברית שלום", "نموذج العربية", "Ωmega"]


def generated_names(count: int) -> list[str]:
    """``count`` distinct names, each starting with a hazard and carrying
    others: every hazard starts a name, every word is in a name."""
    names = []
    for i in range(count):
        first = HAZARDS[i % len(HAZARDS)]
        inner = HAZARDS[(i * 7 + 3) % len(HAZARDS)]
        word = WORDS[i % len(WORDS)]
        names.append(f"{first}a{i}{inner}b {word}")
    return names


#: Two every-kind tables' worth of names: 8 algorithms of 12 cases. The
#: first eight start with [2pt], [0], *, --, ---, ``, '' and !`.
NAMES = generated_names(8)
#: The report's case names: hazards at the start of the rows of its scores.
CASES = [f"{h} ds{i}" for i, h in enumerate(HAZARDS)][:12]

#: The kinds the attack found losing a leading [ or * (issue 34, finding 4),
#: and the others that list every algorithm.
EVERY_NAME_KINDS = {
    "friedman",
    "friedman_aligned",
    "quade",
    "letters",
    "plackett_luce",
    "rank_ci",
    "bayes_friedman",
    "bayes_posthoc",
    "comparison_matrix",
    "nemenyi",
    "holm_control",
    "bayes_signrank_pairs",
    "correlated_pairs",
    "durbin",
    "skillings_mack",
}

#: What pdftotext writes around right-to-left text (embedding marks).
_BIDI_MARKS = re.compile("[\u202a-\u202e]")


def _flat(text: str) -> str:
    """pdftotext's text with the bidi marks gone and each run of white space
    (a name wrapped across lines, a no-break space) one space."""
    return re.sub(r"\s+", " ", _BIDI_MARKS.sub("", text))


def _pdftotext(pdf: Path, *options: str) -> str:
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    done = subprocess.run(
        [pdftotext, *options, pdf.name, "-"],
        cwd=pdf.parent,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout


def _texts(pdf: Path) -> tuple[str, str]:
    """The PDF's text in reading order and in the order it holds it."""
    return _flat(_pdftotext(pdf)), _flat(_pdftotext(pdf, "-raw"))


def _found(name: str, text: tuple[str, str]) -> bool:
    """Whether ``name`` is in a PDF's text as given: in pdftotext's reading
    order (right-to-left runs in logical order), or, for a name wrapped
    across lines in a table cell (whose lines pdftotext may read apart), in
    the order the PDF holds its text (``-raw``: right-to-left words in the
    order they are set, :func:`~nbstats.results.formatting.visual_order`)."""
    reading, raw = text
    return name in reading or visual_order(name).replace("\u00a0", " ") in raw


def _require_cjk_font() -> None:
    fc_list = require_executable("fc-list", "apt-get install fontconfig")
    fonts = subprocess.run(
        [fc_list, ":", "family"], capture_output=True, text=True
    ).stdout
    if "Noto Serif CJK SC" not in fonts:
        unavailable("Noto Serif CJK not installed (apt-get install fonts-noto-cjk)")


def _missing_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "Missing character" in line]


# ---------------------------------------------------------------- escaping


@given(st.text(max_size=40))
def test_escaped_text_has_no_option_star_or_ligature(text):
    """Whatever the text: ``[ ] *`` braced, no raw quote or backtick, no two
    characters TeX would join (outside math: ``<<`` is math there)."""
    latex = escape_latex(text)
    assert not re.search(r"(?<!\{)[\[\]*]|[\[\]*](?!\})", latex), latex
    outside_math = re.sub(r"\$[^$]*\$", "", latex.replace(r"\$", ""))
    for ligature in ("--", ",,", "'", "`", '"', "!`", "?`"):
        assert ligature not in outside_math, (text, latex)


@pytest.mark.parametrize(
    ("name", "latex"),
    [
        ("[2pt]Bracket", "{[}2pt{]}Bracket"),
        ("*Star", "{*}Star"),
        ("k--NN", "k-{}-NN"),
        ("!`a ?`b", r"!\textasciigrave{}a ?\textasciigrave{}b"),
        ("a–-b", r"a\textendash{}-b"),
    ],
)
def test_issue_reproducers_escaped(name, latex):
    assert escape_latex(name) == latex


# ---------------------------------------------------------------- to_latex()


@pytest.fixture(scope="module")
def tables_text(
    tmp_path_factory,
) -> tuple[dict[str, object], dict[str, tuple[str, str]]]:
    """Every result kind on the generated names, every ``to_latex()`` in one
    document with the report's fonts, one xelatex run: (results, the PDF text
    of each kind)."""
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex")
    _require_cjk_font()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = every_result(len(NAMES), names=NAMES)
    fonts = (TEMPLATES / "nbstats-paper-latex" / "fonts.tex.j2").read_text()
    fonts = fonts.split("-=))", 1)[1]
    parts = [
        f"\\clearpage\\noindent KIND{k}KIND\n\n{res.to_latex()}"
        for k, res in enumerate(results.values())
    ]
    folder = tmp_path_factory.mktemp("latex-names")
    (folder / "t.tex").write_text(
        "\\documentclass[10pt]{article}\n"
        "\\usepackage{fontspec,amsmath,booktabs,tabularx,longtable}\n"
        f"{fonts}\n\\begin{{document}}\n" + "\n".join(parts) + "\n\\end{document}\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    log = (folder / "t.log").read_text(encoding="utf-8", errors="replace")
    assert _missing_lines(log) == []
    kinds = list(results)
    text: dict[str, tuple[str, str]] = {}
    for order in _texts(folder / "t.pdf"):
        chunks = re.split(r"KIND(\d+)KIND", order)
        for i in range(1, len(chunks), 2):
            text[kinds[int(chunks[i])]] = (
                *text.get(kinds[int(chunks[i])], ()),
                chunks[i + 1],
            )
    return results, text


def _bare(latex: str) -> str:
    """LaTeX without break points and empty groups (a name wrapped in a
    table cell is broken into pieces escaped one by one)."""
    return re.sub(r"\\allowbreak|\\hspace\{0pt\}|\{\}", "", latex)


def _shown(latex: str) -> list[str]:
    """The names a table's LaTeX holds."""
    plain = _bare(latex)
    return [name for name in NAMES if _bare(escape_latex(name)) in plain]


def test_every_kind_shows_every_name_as_given(tables_text):
    results, text = tables_text
    assert set(text) == set(results)
    lost = {}
    for kind, res in results.items():
        shown = _shown(res.to_latex())
        if kind in EVERY_NAME_KINDS:
            assert shown == NAMES, (kind, sorted(set(NAMES) - set(shown)))
        missing = [name for name in shown if not _found(name, text[kind])]
        if missing:
            lost[kind] = missing
    assert lost == {}


# ---------------------------------------------------------------- the report


@pytest.fixture(scope="module")
def report_nb(tmp_path_factory):
    """The report on the generated names and case names, executed once."""
    require_executable("pandoc", "apt-get install pandoc")
    _require_cjk_font()
    table = score_table(len(NAMES), n_cases=len(CASES), names=NAMES)
    table.index = pd.Index(CASES, name="case")
    out = tmp_path_factory.mktemp("names-report") / "report.ipynb"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = nbstats.reporting.report(
            table, out, aliases=False, analyses=("frequentist", "ranks")
        )
    return nbformat.read(path, as_version=4)


def _assert_every_name(pdf: Path) -> None:
    text = _texts(pdf)
    assert [n for n in NAMES if not _found(n, text)] == []
    assert [c for c in CASES if not _found(c, text)] == []


def test_pdf_report_shows_every_name(report_nb, tmp_path):
    require_executable("xelatex", "apt-get install texlive-xetex")
    pdf = export.write_report(report_nb, tmp_path / "report.pdf", "pdf")
    _assert_every_name(pdf)


def test_tex_report_compiles_and_shows_every_name(report_nb, tmp_path):
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex")
    tex = export.write_report(report_nb, tmp_path / "report.tex", "tex")
    # compiled where a font is missing, it stops rather than lose a name
    assert "\\tracinglostchars=3" in tex.read_text(encoding="utf-8")
    done = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", tex.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    log = tex.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    assert _missing_lines(log) == []
    _assert_every_name(tex.with_suffix(".pdf"))


def test_pdf_report_refuses_characters_no_font_has(tmp_path):
    """Devanagari is in none of the report's fonts: the PDF is refused with
    the characters named and a fix, and nothing is written."""
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    cell = v4.new_code_cell("", metadata={"tags": ["remove-input"]})
    latex = escape_latex("मॉडल k--NN")
    cell.outputs = [
        v4.new_output("display_data", data={"text/latex": latex, "text/plain": ""})
    ]
    target = tmp_path / "report.pdf"
    with pytest.raises(ReportError, match=r"'म' \(U\+092E\).*fonts-noto-cjk.*HTML"):
        export.write_report(v4.new_notebook(cells=[cell]), target, "pdf")
    assert not target.exists()
