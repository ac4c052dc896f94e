r"""Every table nbstats writes compiles in the venues papers are written in.

For each venue of :mod:`nbstats.results.venues` -- article one column 10 pt,
article two columns, IEEEtran conference and acmart sigconf, the real classes
of TeX Live (texlive-publishers) -- one document ``\input``\ s, with only the
packages the tables may need (booktabs, array, multirow, makecell, tabularx,
xltabular, supertabular, threeparttable, caption, graphicx, xcolor, amsmath,
rotating; siunitx when installed):

- ``to_latex(venue=...)`` of one result of every class at m = 2, 7, 12, 42
  and 50 algorithms with 40-character names (LaTeX specials, camel case, a
  long word with no break point, accents);
- the same for the real TabZilla table (42 algorithms, 171 data sets, 1,040
  missing cells; tests/data/tabzilla/README.md names its source);

and pdflatex must compile it with a clean log: no error, no Overfull \hbox
over 1 pt, no "Float too large", no missing character; in a two-column
venue no ``longtable`` (it stops the document there). Tables are batched
into one document per venue, so that the test stays fast.

The report's files (``<stem>_tables/*.tex``, ``<stem>_core/*.tex``) are
compiled the same way in ``test_venues_report.py``.
"""

from __future__ import annotations

import re
import subprocess
import warnings
from functools import cache
from pathlib import Path

import pandas as pd
import pytest

import nbstats
from nbstats.results.venues import VENUES
from tests.conftest import require_executable
from tests.real_tables import tabzilla_accuracy
from tests.reporting.typesetting_helpers import latex_log_problems
from tests.results.every_kind import every_result

DATA = Path(__file__).resolve().parents[1] / "data"

#: The packages a table may need (the issue's list, siunitx only if present),
#: and tikz for the critical-difference diagram's ``figure-1.tex``.
PACKAGES = (
    "booktabs,array,multirow,makecell,tabularx,xltabular,supertabular,"
    "threeparttable,caption,graphicx,xcolor,amsmath,rotating,tikz"
)

#: Log lines that mean a broken source or a lost table.
ERRORS = re.compile(
    r"^! |LaTeX Error|Undefined control sequence|Float too large|"
    r"Too many unprocessed floats",
    re.M,
)

SIZES = (2, 7, 12, 42, 50)


#: What a class needs before a page can be set (acmart: a title, an author;
#: and scalable fonts: without Libertine, from texlive-fonts-extra, it falls
#: back to Computer Modern in T1, bitmap fonts that its microtype refuses
#: to expand, unless Latin Modern's are loaded).
TOP_MATTER = {
    "acm": (
        "\\usepackage{lmodern}\\title{Tables}\\author{nbstats}\\settopmatter{printacmref=false}"
        "\\setcopyright{none}\n",
        "\\maketitle\n",
    )
}


def preamble(venue: str) -> str:
    return (
        VENUES[venue].documentclass
        + "\n"
        + f"\\usepackage{{{PACKAGES}}}\n"
        + "\\IfFileExists{siunitx.sty}{\\usepackage{siunitx}}{}\n"
        + TOP_MATTER.get(venue, ("", ""))[0]
    )


def document(venue: str, body: str) -> str:
    """A document of the venue around ``body``."""
    start = TOP_MATTER.get(venue, ("", ""))[1]
    return preamble(venue) + "\\begin{document}\n" + start + body + "\\end{document}\n"


def tabzilla() -> pd.DataFrame:
    """The real TabZilla accuracy table: 171 data sets x 42 algorithms."""
    return tabzilla_accuracy()


@cache
def results_at(m: int) -> dict[str, object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return every_result(m)


@cache
def tabzilla_results() -> dict[str, object]:
    """What a user gets from the real table with its holes: the complete
    cases for the all-algorithm tests, each pair on its own cases."""
    table = tabzilla()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        complete = nbstats.score_table(table, nan_policy="omit")
        a, b = "XGBoost", "CatBoost"
        return {
            "friedman": nbstats.friedman(complete),
            "nemenyi": nbstats.posthoc(complete, method="nemenyi"),
            "holm": nbstats.posthoc(complete, method="holm", control=a),
            "letters": nbstats.letters(nbstats.posthoc(complete, method="nemenyi")),
            "rank_ci": nbstats.rank_ci(complete, random_state=0),
            "plackett_luce": nbstats.bayes_plackett_luce(
                complete, n_samples=400, random_state=0
            ),
            "wilcoxon": nbstats.wilcoxon(table[a], table[b], nan_policy="omit"),
            "skillings_mack": nbstats.skillings_mack(table.iloc[:, :12]),
        }


def compile_tables(folder: Path, venue: str, tables: dict[str, str]) -> str:
    """``\\input`` every table (name -> LaTeX) in one document of the venue,
    compile it twice with pdflatex; the log."""
    pdflatex = require_executable(
        "pdflatex", "apt-get install texlive-latex-extra texlive-publishers"
    )
    inputs = []
    for name, latex in tables.items():
        (folder / f"{name}.tex").write_text(latex, encoding="utf-8")
        if "\\begin{tikzpicture}" in latex:  # a figure's picture: in its float
            inputs.append(
                f"\\begin{{figure}}\\centering\\input{{{name}}}\\end{{figure}}"
                "\n\\clearpage"
            )
            continue
        inputs.append(f"\\input{{{name}}}\n\\clearpage")
    source = document(venue, "\n".join(inputs) + "\n")
    (folder / "paper.tex").write_text(source, encoding="utf-8")
    for _ in range(2):
        done = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "paper.tex"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=900,
        )
    log = (folder / "paper.log").read_text(encoding="utf-8", errors="replace")
    assert (folder / "paper.pdf").exists(), log[-3000:]
    del done
    return log


def assert_clean(log: str) -> None:
    errors = [line for line in log.splitlines() if ERRORS.search(line)]
    assert not errors, errors[:10]
    overfull, missing = latex_log_problems(log, tolerance=1.0)
    assert not overfull, overfull[:10]
    assert not missing, missing


def venue_tables(venue: str) -> dict[str, str]:
    tables = {}
    for m in SIZES:
        for name, res in results_at(m).items():
            tables[f"m{m}-{name}"] = res.to_latex(label=f"tab:{m}-{name}", venue=venue)
    for name, res in tabzilla_results().items():
        tables[f"tabzilla-{name}"] = res.to_latex(label=f"tab:tz-{name}", venue=venue)
    return tables


@pytest.mark.parametrize("venue", list(VENUES))
def test_every_table_compiles_clean_in_the_venue(venue, tmp_path):
    tables = venue_tables(venue)
    if VENUES[venue].two_column:
        long = [name for name, latex in tables.items() if "longtable" in latex]
        assert not long, long[:10]
    assert_clean(compile_tables(tmp_path, venue, tables))
