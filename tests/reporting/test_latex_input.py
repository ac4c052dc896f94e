r"""Every result's ``to_latex()`` goes into a paper unchanged (issue 27, item 2).

An article as a journal sets it -- ``\documentclass[10pt]{article}``, a 5.5 in
text width, and only fontspec, amsmath, booktabs, siunitx (when installed),
longtable, array, multirow, makecell, graphicx, xcolor, caption and rotating --
``\input``\ s the ``to_latex()`` of one result of every class at m = 2, 12
and 50 algorithms with 40-character names (LaTeX specials, camel case, a long
word with no break point, accents). xelatex must compile it with a clean log:
no Overfull \hbox over 1 pt, no "Float too large", no missing glyph, no
error. The tables' headers are words, not code names, and no table shows a
bare 0, 1, 2 … index.

Skipped without xelatex, unless NBSTATS_REQUIRE_ORACLES=1 (CI). The first
pages at m = 12 go to ``tests/artifacts/latex-input-12-<n>.png``.
"""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path

import pytest

import nbstats
import nbstats.results
from nbstats.results import render
from tests.conftest import require_executable
from tests.reporting.typesetting_helpers import latex_log_problems, render_pages
from tests.results.every_kind import every_result, score_table

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage{fontspec}
\usepackage{amsmath}
\usepackage{booktabs}
\IfFileExists{siunitx.sty}{\usepackage{siunitx}}{}
\usepackage{xltabular}
\usepackage{array}
\usepackage{multirow}
\usepackage{makecell}
\usepackage{graphicx}
\usepackage{xcolor}
\usepackage{caption}
\usepackage{rotating}
\setlength{\textwidth}{5.5in}
\setlength{\oddsidemargin}{0.5in}
\setlength{\evensidemargin}{0.5in}
"""

#: Code names that must not reach a displayed table.
CODE_NAMES = re.compile(
    r"prob_rope|prob_left|prob_right|prob_best|mean_difference|pvalue|"
    r"ci_low|ci_high|sum_sq|mean_sq|n_cases|\b[a-z]+_[a-z]+\b"
)

#: Log lines that mean a broken source or a lost table.
ERRORS = re.compile(r"^! |LaTeX Error|Undefined control sequence|Float too large", re.M)


@pytest.fixture(scope="module", params=[2, 12, 50])
def results(request) -> tuple[int, dict[str, object]]:
    with warnings.catch_warnings():
        # small samples at m = 2 (few cases, one pair) warn, as they should
        warnings.simplefilter("ignore")
        return request.param, every_result(request.param)


def _compile(folder: Path, results: dict[str, object]) -> str:
    """Write every ``to_latex()`` to its own file, ``\\input`` them all in the
    article and compile it twice (longtable settles its columns); the log."""
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex lmodern")
    inputs = []
    for name, res in results.items():
        (folder / f"{name}.tex").write_text(
            res.to_latex(label=f"tab:{name}"), encoding="utf-8"
        )
        inputs.append(f"\\input{{{name}}}\n\\clearpage")
    source = (
        PREAMBLE + "\\begin{document}\n" + "\n".join(inputs) + "\n\\end{document}\n"
    )
    (folder / "article.tex").write_text(source, encoding="utf-8")
    for _ in range(2):
        done = subprocess.run(
            [xelatex, "-interaction=nonstopmode", "-halt-on-error", "article.tex"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout[-3000:]
    return (folder / "article.log").read_text(encoding="utf-8", errors="replace")


def test_every_result_class_is_covered(results):
    m, made = results
    classes = {
        getattr(nbstats.results, name)
        for name in nbstats.results.__all__
        if name not in ("Result", "TestResult")
    }
    missing = classes - {type(res) for res in made.values()}
    if m < 3:  # Mauchly's test needs three algorithms
        missing.discard(nbstats.results.SphericityResult)
    assert not missing, sorted(c.__name__ for c in missing)


def test_inputs_compile_with_a_clean_log(results, tmp_path):
    m, made = results
    log = _compile(tmp_path, made)
    assert not ERRORS.findall(log), [
        line for line in log.splitlines() if ERRORS.search(line)
    ][:10]
    overfull, missing = latex_log_problems(log, tolerance=1.0)
    assert not overfull, overfull[:10]
    assert not missing, missing
    if m == 12:
        ARTIFACTS.mkdir(exist_ok=True)
        pages = render_pages(
            tmp_path / "article.pdf", ARTIFACTS / "latex-input-12", pages=12
        )
        assert pages


def _header_rows(latex: str) -> list[str]:
    """The header row of every tabular and longtable (the line after
    ``\\toprule``)."""
    lines = latex.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines[:-1]) if line == r"\toprule"]


def test_headers_are_words_and_no_bare_index(results):
    _, made = results
    for name, res in made.items():
        latex = res.to_latex()
        for row in _header_rows(latex):
            plain = row.replace(r"\_", "_")
            assert not CODE_NAMES.search(plain), (name, row)
        markup = res._repr_html_()
        for head in re.findall(r"<thead>.*?</thead>", markup, re.S):
            text = re.sub(r"<[^>]+>", "", head)
            assert not CODE_NAMES.search(text), (name, text)
        table = res._table()
        bare = (
            table is not None
            and table.index.name is None
            and list(table.index) == list(range(len(table)))
        )
        if bare:  # a bare 0, 1, 2 … carries nothing: not shown
            assert '<th scope="row">' not in markup, name


def test_posthoc_fits_the_text_width_by_default_and_with_fit(tmp_path):
    """posthoc(...).to_latex() was 313 pt too wide, fit=True wider still."""
    res = nbstats.posthoc(score_table(12), method="nemenyi")
    log = _compile(tmp_path, {"default": res, "fitted": _Fitted(res)})
    overfull, _ = latex_log_problems(log, tolerance=1.0)
    assert not overfull, overfull[:5]
    assert not ERRORS.findall(log)


class _Fitted:
    """A result whose ``to_latex`` is the result's ``to_latex(fit=True)``."""

    def __init__(self, res: object) -> None:
        self.res = res

    def to_latex(self, **kwargs: object) -> str:
        return self.res.to_latex(fit=True, **kwargs)


def test_a_wide_table_is_split_into_parts_that_fit(tmp_path):
    """A 12 × 12 matrix with 40-character names as headers: too wide at 8 pt,
    it is split into parts of columns that each fit, repeating the names."""
    table = score_table(12)
    matrix = nbstats.comparison_matrix(table).adjusted
    latex = render.latex_table(
        matrix, caption="Adjusted p-values of every pair.", label="tab:p", fit=True
    )
    assert latex.count("\\toprule") >= 2  # blocks of columns, or halves
    log = _compile(tmp_path, {"matrix": _Text(latex)})
    overfull, missing = latex_log_problems(log, tolerance=1.0)
    assert not overfull and not missing, (overfull[:5], missing)
    assert not ERRORS.findall(log)
    for name in matrix.columns:  # every column is in some part, headers intact
        plain = latex.replace(r"\allowbreak{}", "").replace(r"\penalty300{}", "")
        assert render.escape_latex(name)[:8] in plain


class _Text:
    """Given LaTeX as a result's ``to_latex``."""

    def __init__(self, latex: str) -> None:
        self.latex = latex

    def to_latex(self, **_: object) -> str:
        return self.latex
