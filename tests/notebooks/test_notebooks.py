"""Every notebook in notebooks/ runs top to bottom (quick mode) without an error.

NBSTATS_QUICK=1 shrinks repetitions; the reproduction notebooks assert, in
visible cells, that nbstats' values equal the papers' within stated
tolerances, so a drift fails here. Kernels run this interpreter (the same
helper the report builder uses).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from nbstats.reporting import export

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 1


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_in_quick_mode(path, monkeypatch):
    monkeypatch.setenv("NBSTATS_QUICK", "1")
    nb = nbformat.read(path, as_version=4)
    # raises ReportError naming the failing cell's error; in a kernel, as a
    # user runs them (magics, widgets)
    executed = export.execute_notebook(nb, timeout=900, kernel=True)
    errors = [
        out
        for cell in executed.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors
