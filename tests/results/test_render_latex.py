r"""The booktabs output of every result compiles under pdflatex and xelatex with
only ``\usepackage{booktabs}``, drops no glyph, and reads right in the PDF:
p-values "< 0.001", true minus signs, α, χ², R⁺ (pdftotext on the PDF).

Skipped without TeX or pdftotext, unless NBSTATS_REQUIRE_ORACLES=1 (CI).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

import nbstats
from tests.conftest import require_executable
from tests.results.conftest import LONG_NAMES, UNICODE_NAMES, every_result, scores

#: Log lines that mean a glyph was dropped or the source is broken.
LOG_PROBLEMS = re.compile(
    r"Missing character|Undefined control sequence|LaTeX Error|^! ", re.M
)


def _document(body: str, preamble: str = "") -> str:
    return (
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{xltabular}\n"
        + preamble
        + "\\begin{document}\n"
        + body
        + "\n\\end{document}\n"
    )


def _compile(engine: str, source: str, tmp_path: Path) -> str:
    """Compile ``source``; return the PDF's text (pdftotext, layout kept)."""
    program = require_executable(engine, "apt-get install texlive-xetex")
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    (tmp_path / "t.tex").write_text(source, encoding="utf-8")
    done = subprocess.run(
        [program, "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = (tmp_path / "t.log").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, done.stdout[-3000:]
    problems = LOG_PROBLEMS.findall(log)
    assert not problems, [
        line for line in log.splitlines() if LOG_PROBLEMS.search(line)
    ][:10]
    subprocess.run(
        [pdftotext, "-layout", "t.pdf", "t.txt"], cwd=tmp_path, check=True, timeout=60
    )
    return (tmp_path / "t.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def latin_results() -> dict[str, object]:
    return every_result(scores(LONG_NAMES))


def _body(results: dict[str, object]) -> str:
    # \clearpage: a float per page at most, so no table is lost to "too many
    # unprocessed floats" whatever its size
    return "\n\\clearpage\n".join(res.to_latex() for res in results.values())


def _assert_reads_right(text: str) -> None:
    # NFC: pdflatex's accents (OT1) come out as a letter and a combining mark
    flat = unicodedata.normalize("NFC", re.sub(r"\s+", " ", text))
    assert "< 0.001" in flat  # p-values below 0.001, from "$<$ 0.001"
    assert "α = 0.05" in flat  # the post-hoc caption's α, as a glyph
    assert "χ" in flat and "±" in flat  # χ²_F, rope ±0.01
    assert re.search(r"[−-]\d\.\d", flat)  # a negative statistic with its minus
    assert "R+ / R−" in flat or "R + / R −" in flat  # Wilcoxon's R⁺ / R⁻
    assert "e-0" not in flat and "e+0" not in flat
    assert "\\_F" not in flat and "_F" not in flat
    # pdflatex's \_ is a drawn rule, which pdftotext reads as a space
    assert "k-NN (k=5) & 50% #1" in flat
    assert "Café_crème über" in flat or "Café crème über" in flat


@pytest.mark.parametrize("engine", ["pdflatex", "xelatex"])
def test_every_result_compiles_and_reads_right(engine, latin_results, tmp_path):
    text = _compile(engine, _document(_body(latin_results)), tmp_path)
    _assert_reads_right(text)


@pytest.mark.parametrize("engine", ["pdflatex", "xelatex"])
def test_fit_keeps_long_names_inside_the_text_width(engine, latin_results, tmp_path):
    body = "\n\\clearpage\n".join(
        res.to_latex(fit=True) for res in latin_results.values()
    )
    text = _compile(engine, _document(body), tmp_path)
    _assert_reads_right(text)
    log = (tmp_path / "t.log").read_text(encoding="utf-8", errors="replace")
    overfull = [
        float(points)
        for points in re.findall(r"Overfull \\hbox \((\d+\.?\d*)pt too wide", log)
    ]
    assert all(points <= 1.0 for points in overfull), overfull


def test_unicode_names_pass_through_to_xelatex(tmp_path):
    """Greek and Cyrillic user names are left for xelatex and a font that has
    them (the report's template chooses one; here DejaVu Serif)."""
    fc_list = shutil.which("fc-list")
    fonts = (
        subprocess.run(
            [fc_list, ":lang=ru", "family"], capture_output=True, text=True
        ).stdout
        if fc_list
        else ""
    )
    if "DejaVu Serif" not in fonts:
        pytest.skip("no DejaVu Serif with Cyrillic (apt-get install fonts-dejavu-core)")
    table = scores([*LONG_NAMES[:2], *UNICODE_NAMES])
    results = {
        "friedman": nbstats.friedman(table),
        "nemenyi": nbstats.posthoc(table),
        "rank_ci": nbstats.rank_ci(table),
    }
    preamble = "\\usepackage{fontspec}\n\\setmainfont{DejaVu Serif}\n"
    text = _compile("xelatex", _document(_body(results), preamble), tmp_path)
    flat = re.sub(r"\s+", " ", text)
    for name in UNICODE_NAMES:
        assert name in flat, name


def test_captions_break_inside_names_but_not_after_an_open_parenthesis_or_a_relation():
    from nbstats.results.render_latex import breakable

    text = breakable(
        "expected rank (Bayesian model), α = 0.05, p < 0.001, f(max_iter=3)"
    )
    # "rank (" never ends a line; a name's own "(" still may
    assert "(\\allowbreak{}Bayesian" not in text
    assert "f(\\allowbreak{}max" in text
    # a relation keeps together
    assert "~=~0.05" in text and "p~$<$~0.001" in text
