r"""The core of a report stays within its two pages at many algorithms
(issue 36): ``core_only=True`` at m = 42 (the real TabZilla table, 171 data
sets with 1,040 missing cells), 50 and 100 (40-character names), in every
venue.

Above :data:`nbstats.reporting.core.CORE_ROWS` algorithms Table 1 lists the
best-ranked ones and every algorithm is in ``<stem>_tables/summary-all.tex``
and ``.csv`` beside the report. Checked: the PDF's page count (pdfinfo), its
text layer (pdftotext) on the first page -- Table 1 with the best-ranked
algorithms, by an independent pandas ranking --, Figure 1 within the two
pages, the full table's rows and mean ranks, and ``summary.tex`` and
``summary-all.tex`` compiled in a document of the venue (pdflatex, clean
log). The first pages at m = 42 in IEEEtran and m = 100 go to
``tests/artifacts/core-pages-<case>-<n>.png``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.reporting.core import CORE_ROWS
from nbstats.results.venues import VENUES
from tests.real_tables import tabzilla_accuracy
from tests.reporting.typesetting_helpers import render_pages
from tests.results.every_kind import score_table
from tests.venues.test_venues_latex import assert_clean, compile_tables

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

needs_latex = pytest.mark.skipif(
    shutil.which("xelatex") is None
    or shutil.which("pandoc") is None
    or shutil.which("pdftotext") is None
    or shutil.which("pdfinfo") is None,
    reason="xelatex and pandoc typeset the PDF, pdfinfo and pdftotext read it",
)

CASES = [("tabzilla42", venue) for venue in VENUES]
CASES += [("m50", venue) for venue in VENUES]
CASES += [("m100", "article"), ("m100", "ieee")]


def _table(name: str) -> tuple[pd.DataFrame, dict]:
    if name == "tabzilla42":
        return tabzilla_accuracy(), {"nan_policy": "omit"}
    return score_table(int(name[1:])), {}


def _oracle_ranks(table: pd.DataFrame) -> pd.Series:
    """Mean ranks (1 = best, higher is better, ties averaged) over the
    complete cases, by pandas alone."""
    complete = table.dropna()
    ranks = complete.rank(axis=1, ascending=False, method="average").mean()
    return ranks.sort_values(kind="stable")


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _pages(pdf: Path) -> list[str]:
    """The text layer of each page (pdfinfo counts them, pdftotext reads)."""
    info = subprocess.run(
        ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    n = int(re.search(r"^Pages:\s+(\d+)", info, flags=re.M).group(1))
    return [
        subprocess.run(
            ["pdftotext", "-f", str(k), "-l", str(k), "-layout", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for k in range(1, n + 1)
    ]


@needs_latex
@pytest.mark.parametrize(("name", "venue"), CASES)
def test_the_core_fits_two_pages_with_the_answer_first(tmp_path, name, venue):
    table, options = _table(name)
    m = table.shape[1]
    assert m > CORE_ROWS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the cases dropped: stated
        path = nbstats.reporting.report(
            table, tmp_path / "core.pdf", core_only=True, venue=venue, **options
        )
    pages = _pages(path)
    assert len(pages) <= 2, f"{len(pages)} pages"
    first = _squeezed(pages[0])
    # the answer on the first page: Table 1 and its best-ranked algorithms,
    # in the oracle's order
    assert "Table1:" in first
    assert f"The{CORE_ROWS}best-rankedofthe{m}algorithms" in first
    oracle = _oracle_ranks(table)
    where = [first.index(_squeezed(str(n))) for n in oracle.index[:3]]
    assert where == sorted(where)
    assert any("Figure1:" in _squeezed(p) for p in pages)
    # the full table beside the report: every algorithm, the oracle's ranks
    folder = tmp_path / "core_tables"
    full = pd.read_csv(folder / "summary-all.csv", index_col=0)
    by_name = full.set_index("name") if "name" in full else full
    assert list(by_name.index) == list(oracle.index)
    assert by_name["mean rank"].to_numpy() == pytest.approx(oracle.to_numpy())
    everything = (folder / "summary-all.tex").read_text(encoding="utf-8")
    core = (tmp_path / "core_core" / "summary.tex").read_text(encoding="utf-8")
    assert everything.count("\\\\") > core.count("\\\\")  # more rows
    if VENUES[venue].two_column:
        assert "longtable" not in everything and "longtable" not in core
    # both \input into a paper of the venue: a clean log
    paper = tmp_path / "paper"
    paper.mkdir()
    log = compile_tables(paper, venue, {"summary": core, "summary-all": everything})
    assert_clean(log)
    if (name, venue) in (("tabzilla42", "ieee"), ("m100", "article")):
        ARTIFACTS.mkdir(exist_ok=True)
        render_pages(path, ARTIFACTS / f"core-pages-{name}", pages=2)


@needs_latex
def test_at_most_core_rows_the_table_lists_every_algorithm(tmp_path):
    """Table 1 of CORE_ROWS algorithms is whole, with no file of all."""
    table = score_table(CORE_ROWS)
    path = nbstats.reporting.report(table, tmp_path / "core.pdf", core_only=True)
    assert not (tmp_path / "core_tables" / "summary-all.csv").exists()
    text = _squeezed(" ".join(_pages(path)))
    assert f"The{CORE_ROWS}algorithmsbymeanrank" in text
    assert "summary-all" not in text
