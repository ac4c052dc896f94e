r"""What a ``.tex`` report writes goes into a paper unchanged (issue 27, item 2).

Three published benchmark tables, each reported once per module as LaTeX:

- m = 2 with folds: HC2 against MR-Hydra, 30 resamples of 142 data sets
  (``tsc_bakeoff2024_folds``);
- m = 13 with long names and missing cells: the MultiBoostAB classifiers of
  Fernández-Delgado et al. (2014) (``fernandez_delgado2014_multiboost``);
- m = 50 with missing cells (``fernandez_delgado2014_top50``).

Every table written beside the report (``<stem>_tables/*.tex`` and
``<stem>_core/summary.tex``) is ``\input`` into the article of
``tests/reporting/test_latex_input.py`` (10 pt, 5.5 in text width, only the
packages a journal allows) and xelatex must leave a clean log: no Overfull
\hbox over 1 pt, no "Float too large", no missing glyph, no error. The report's
own ``.tex`` is a plain article -- none of nbconvert's notebook boilerplate --
that xelatex compiles as it is, with a clean log.

Skipped without xelatex or pandoc, unless NBSTATS_REQUIRE_ORACLES=1 (CI). The
compiled ``\input`` tables at m = 13 go to
``tests/artifacts/paper-files-13-<n>.png``.
"""

from __future__ import annotations

import html
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

import nbstats
import nbstats.reporting
from nbstats.reporting import export
from tests.conftest import require_executable
from tests.reporting.test_latex_input import ERRORS, PREAMBLE
from tests.reporting.typesetting_helpers import latex_log_problems, render_pages

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

#: data set: (the report's keywords, m)
DATASETS = {
    "tsc_bakeoff2024_folds": (
        {
            "case": "dataset",
            "algorithm": "classifier",
            "score": "accuracy",
            "fold": "resample",
        },
        2,
    ),
    "fernandez_delgado2014_multiboost": ({"nan_policy": "omit"}, 13),
    "fernandez_delgado2014_top50": ({"nan_policy": "omit"}, 50),
}

#: What nbconvert's own LaTeX template writes and a paper's does not.
BOILERPLATE = (
    "Remove in nbconvert 6.0",
    "tcolorbox",
    "\\prompt",
    "Oldincludegraphics",
    "ansi-black",
    "PYZsq",
    "Pygments",
    "\\usepackage{parskip}",
)


@pytest.fixture(scope="module", params=list(DATASETS))
def executed(request, tmp_path_factory) -> tuple[str, int, object]:
    """(data set, m, the executed report notebook)."""
    name = request.param
    options, m = DATASETS[name]
    table = nbstats.datasets.load(name)
    out = tmp_path_factory.mktemp(name) / "report.ipynb"
    path = nbstats.reporting.report(table, out, **options)
    return name, m, nbformat.read(path, as_version=4)


@pytest.fixture(scope="module")
def tex_report(executed, tmp_path_factory) -> tuple[str, int, Path]:
    """(data set, m, the ``.tex`` report written with its companion files)."""
    require_executable("pandoc", "apt-get install pandoc")
    name, m, nb = executed
    folder = tmp_path_factory.mktemp(f"tex-{name}")
    return name, m, export.write_report(nb, folder / "report.tex", "tex")


def _xelatex(folder: Path, source: str) -> str:
    """Compile ``source`` (a file in ``folder``) twice; its log."""
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex lmodern")
    for _ in range(2):
        done = subprocess.run(
            [xelatex, "-interaction=nonstopmode", "-halt-on-error", source],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout[-3000:]
    log = folder / Path(source).with_suffix(".log")
    return log.read_text(encoding="utf-8", errors="replace")


def _assert_clean(log: str) -> None:
    errors = [line for line in log.splitlines() if ERRORS.search(line)]
    assert not errors, errors[:10]
    overfull, missing = latex_log_problems(log, tolerance=1.0)
    assert not overfull, overfull[:10]
    assert not missing, missing


def test_every_written_table_inputs_into_a_journal_article(tex_report):
    _, m, report = tex_report
    folder = report.parent
    tables = sorted((folder / "report_tables").glob("*.tex"))
    # (figure-*.tex: the CD diagram's TikZ beside the tables)
    core = sorted(
        p
        for p in (folder / "report_core").glob("*.tex")
        if not p.name.startswith("figure")
    )
    assert core == [folder / "report_core" / "summary.tex"]
    names = {t.name for t in tables}
    # Table 1 and the compact layout's ranked summary are two files
    assert {"core.tex", "scores.tex"} <= names
    assert ("summary.tex" in names) == (m > 12)
    inputs = [
        f"\\input{{{path.relative_to(folder).as_posix()}}}\n\\clearpage"
        for path in [*tables, *core]
    ]
    (folder / "article.tex").write_text(
        PREAMBLE + "\\begin{document}\n" + "\n".join(inputs) + "\n\\end{document}\n",
        encoding="utf-8",
    )
    log = _xelatex(folder, "article.tex")
    for path in [*tables, *core]:  # every file was read
        assert path.relative_to(folder).as_posix() in log.replace("\n", "")
    _assert_clean(log)
    if m == 13:
        ARTIFACTS.mkdir(exist_ok=True)
        pages = render_pages(
            folder / "article.pdf", ARTIFACTS / "paper-files-13", pages=4, dpi=80
        )
        assert pages


def test_tex_report_is_a_plain_article_that_compiles(tex_report):
    _, _, report = tex_report
    source = report.read_text(encoding="utf-8")
    assert source.startswith("\\documentclass[11pt,a4paper]{article}")
    found = [text for text in BOILERPLATE if text in source]
    assert not found, found
    # no In[ ]/Out[ ] prompts, no code: the report shows outputs only
    assert not re.search(r"\\(?:begin|end)\{(?:Verbatim|tcolorbox)\}", source)
    log = _xelatex(report.parent, report.name)
    _assert_clean(log)
    assert (report.parent / "report.pdf").stat().st_size > 10_000


# ------------------------------------------- one value, printed the same everywhere


def _outputs(nb) -> list[tuple[str | None, dict]]:
    """(label or None, data) of every display output, in order."""
    found = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            label = out.get("metadata", {}).get("nbstats", {}).get("label")
            found.append((label, out.get("data", {})))
    return found


def _html_rows(markup: str) -> list[list[str]]:
    """The text of the cells of every row of an HTML table."""
    rows = []
    for row in re.findall(r"<tr\b[^>]*>(.*?)</tr>", markup, re.S):
        cells = re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
    return rows


def _column(markup: str, header: str, row_name: str) -> str:
    rows = _html_rows(markup)
    head = next(r for r in rows if header in r)
    row = next(r for r in rows if r and r[0] == row_name)
    return row[head.index(header)]


def _core_paragraph(outputs) -> str:
    """The results paragraph: the first unlabelled output after Table 1 (past
    the download of Table 1 in full, above CORE_ROWS algorithms)."""
    labels = [label for label, _ in outputs]
    after = labels.index("tab:core") + 1
    return next(
        d["text/plain"]
        for lab, d in outputs[after:]
        if lab is None and not d["text/plain"].startswith("summary-all.csv:")
    )


def _one(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found, (pattern, text[:600])
    return found.group(1)


def test_core_paragraph_prints_each_number_as_the_tables_do(executed):
    """P(best) 0.51 in the prose where the table printed 0.515, CD 1.254 in
    the prose where the tables printed 1.25 (issue 27, item 1): a value is
    written by the number policy with its table's kind, everywhere."""
    _, m, nb = executed
    outputs = _outputs(nb)
    by_label = {label: data for label, data in outputs if label}
    text = _core_paragraph(outputs)
    if m == 2:
        p = _one(r"\(p ([=<] [\d.]+)\)", text)
        two = by_label["tab:two-sample"]["text/html"]
        assert _column(two, "p-value", "Wilcoxon signed-ranks") == p
        return
    cd = _one(r"critical difference ([\d.]+) of mean ranks", text)
    assert _one(r"CD = ([\d.]+) at", by_label["fig:cd"]["text/plain"]) == cd
    nemenyi = next(
        d["text/plain"]
        for _, d in outputs
        if "the critical difference of mean" in d.get("text/plain", "")
    )
    assert _one(r"CD = ([\d.]+)\.", nemenyi) == cd
    f_value = _one(r"Iman–Davenport F = ([\d.]+),", text)
    p_value = _one(r"Iman–Davenport F = [\d.]+, p ([=<] [\d.]+)\)", text)
    omnibus = by_label["tab:omnibus"]["text/html"]
    assert _column(omnibus, "statistic", "Iman–Davenport F") == f_value
    assert _column(omnibus, "p-value / credibility", "Iman–Davenport F") == (
        f"p {p_value}"
    )
    top = _one(r"gives (\S+) the highest probability of being the best", text)
    best = _one(r"P\(best\) ([=<>] [\d.]+),", text).removeprefix("= ")
    rank = _one(r"with expected rank ([\d.]+)\.", text)
    core = by_label["tab:core"]["text/html"]
    # Table 1 and the prose name the algorithm in full; Table 1 adds the
    # letter the other tables and figures use for a name too long for them
    row = next(r[0] for r in _html_rows(core) if r and r[0].startswith(top))
    assert row in (top, f"{top} ({row[len(top) + 2 : -1]})")
    shown = row[len(top) + 2 : -1] if row != top else top
    assert _column(core, "P(best)", row) == best
    assert _column(core, "expected rank", row) == rank
    ranking = by_label["tab:plackett-luce"]["text/html"]
    assert _column(ranking, "P(best)", shown) == best
    assert _column(ranking, "expected rank", shown) == rank
