"""The paste-ready figures a LaTeX report writes in ``<stem>_tables/`` follow
its venue (issue 36, item 2): a column wide in the venue, and a ``-wide``
variant for ``figure*`` in a two-column one."""

from __future__ import annotations

import re
import subprocess

import pytest

import nbstats
from nbstats.results.venues import get_venue
from tests.conftest import require_executable
from tests.real_tables import tabzilla_accuracy


def _width_pt(pdf) -> float:
    info = subprocess.run(
        ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    return float(re.search(r"Page size:\s+([\d.]+)", info).group(1)) * 72.27 / 72


@pytest.mark.parametrize("venue", ["ieee", "article"])
def test_two_algorithm_report_writes_its_posterior_for_the_venue(tmp_path, venue):
    require_executable("pandoc", "apt-get install pandoc")
    require_executable("pdfinfo", "apt-get install poppler-utils")
    table = tabzilla_accuracy().iloc[:, :2].dropna()
    nbstats.reporting.report(table, tmp_path / "two.tex", venue=venue)
    folder = tmp_path / "two_tables"
    spec = get_venue(venue)
    names = sorted(p.name for p in folder.glob("figure-*"))
    expected = ["figure-posterior.pdf"]
    if spec.two_column:
        expected = ["figure-posterior-wide.pdf", *expected]
    assert names == expected
    assert _width_pt(folder / "figure-posterior.pdf") <= spec.column_width_pt
    if spec.two_column:
        wide = _width_pt(folder / "figure-posterior-wide.pdf")
        assert spec.column_width_pt < wide <= spec.text_width_pt
