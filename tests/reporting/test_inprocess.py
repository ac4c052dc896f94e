"""The report's cells run in this process (nbstats.reporting.inprocess): the
notebook stays reproducible -- re-executed in a fresh kernel it gives the
report's numbers -- and the run leaves the caller's process as it was."""

from __future__ import annotations

import json
import os
import re
import warnings

import matplotlib
import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.reporting import ReportError, export
from nbstats.reporting.imports import nbformat
from nbstats.reporting.inprocess import capture, run_cells
from tests.real_tables import TABZILLA


def tabzilla_excerpt() -> pd.DataFrame:
    """A real table with holes: 8 TabZilla algorithms on 40 data sets."""
    table = pd.read_csv(TABZILLA, index_col=0)
    columns = ["CatBoost", "XGBoost", "LightGBM", "RandomForest", "MLP", "SVM",
               "TabNet", "KNN"]  # fmt: skip
    return table[columns].iloc[:40]


_DATA_URI = re.compile(r"data:[a-z/+]+;base64,[A-Za-z0-9+/=]+")


def _outputs(nb) -> list[tuple[int, str, str, str]]:
    """Every output a reader sees, figures' bytes left out (their files carry
    creation dates and random ids, not numbers): (cell, type, MIME, text)."""
    found = []
    for at, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            kind = output["output_type"]
            if kind == "stream":
                found.append((at, kind, output["name"], output["text"]))
                continue
            for mime, value in output.get("data", {}).items():
                if mime in ("application/pdf", "image/svg+xml", "image/png"):
                    continue
                text = value if isinstance(value, str) else "".join(value)
                found.append((at, kind, mime, _DATA_URI.sub("data:…", text)))
            meta = dict(output.get("metadata", {}).get("nbstats", {}))
            meta.pop("core_binary", None)
            found.append((at, kind, "metadata", json.dumps(meta, sort_keys=True)))
    return found


def test_reexecuted_notebook_gives_the_report_numbers(tmp_path):
    """The .ipynb report (run in this process) re-executed in a fresh kernel:
    the same outputs, number for number, on a real table with holes."""
    path = nbstats.reporting.report(
        tabzilla_excerpt(), tmp_path / "r.ipynb", nan_policy="pairwise", rope=0.005
    )
    report = nbformat().read(path, as_version=4)
    again = export.execute_notebook(report, kernel=True)
    ours, theirs = _outputs(report), _outputs(again)
    assert len(ours) > 20
    assert [o[:3] for o in ours] == [o[:3] for o in theirs]
    for mine, kernel in zip(ours, theirs, strict=True):
        assert mine == kernel
    # and the numbers are the analyses' own, not only self-consistent
    text = "\n".join(o[3] for o in ours)
    assert "pairwise" in text


def test_run_leaves_the_process_as_it_was():
    nb = nbformat().v4.new_notebook(
        cells=[
            nbformat().v4.new_code_cell(
                "import warnings, matplotlib, os\n"
                "warnings.simplefilter('error')\n"
                "matplotlib.rcParams['font.size'] = 3\n"
                "progress = os.environ.get('NBSTATS_PROGRESS')"
            ),
            nbformat().v4.new_code_cell("progress"),
        ]
    )
    before_filters = list(warnings.filters)
    before_size = matplotlib.rcParams["font.size"]
    before_progress = os.environ.get("NBSTATS_PROGRESS")
    done = run_cells(nb)
    # progress bars are off inside (a bar would be captured as an output)
    assert done.cells[1].outputs[0]["data"]["text/plain"] == "'0'"
    assert warnings.filters == before_filters
    assert matplotlib.rcParams["font.size"] == before_size
    assert os.environ.get("NBSTATS_PROGRESS") == before_progress
    assert capture() is None


def test_outputs_in_order_as_a_kernel_records_them():
    v4 = nbformat().v4
    nb = v4.new_notebook(
        cells=[
            v4.new_markdown_cell("# title"),
            v4.new_code_cell(
                "from nbstats.reporting import display\n"
                "print('one')\n"
                "display._display({'text/plain': 'shown'}, {'nbstats': {'k': 1}})\n"
                "import warnings\n"
                "warnings.warn('careful')\n"
                "None"
            ),
            v4.new_code_cell("x = 2\nx * 21"),
        ]
    )
    done = run_cells(nb)
    first = done.cells[1].outputs
    assert [o["output_type"] for o in first] == ["stream", "display_data", "stream"]
    assert first[0]["text"] == "one\n"
    assert first[1]["data"] == {"text/plain": "shown"}
    assert first[1]["metadata"] == {"nbstats": {"k": 1}}
    assert first[2]["name"] == "stderr" and "UserWarning: careful" in first[2]["text"]
    second = done.cells[2]
    assert second.execution_count == 2
    assert second.outputs[0]["output_type"] == "execute_result"
    assert second.outputs[0]["data"]["text/plain"] == "42"


def test_a_failing_cell_is_a_report_error():
    v4 = nbformat().v4
    nb = v4.new_notebook(cells=[v4.new_code_cell("1 / 0")])
    with pytest.raises(ReportError, match="ZeroDivisionError: division by zero"):
        run_cells(nb)
    assert capture() is None


def test_figures_left_open_are_shown_and_closed():
    import matplotlib.pyplot as plt

    v4 = nbformat().v4
    nb = v4.new_notebook(
        cells=[v4.new_code_cell("import matplotlib.pyplot as plt\nplt.plot([1, 2])")]
    )
    before = plt.get_fignums()
    done = run_cells(nb)
    shown = [o for o in done.cells[0].outputs if o["output_type"] == "display_data"]
    assert len(shown) == 1 and "<svg" in shown[0]["data"]["image/svg+xml"]
    assert plt.get_fignums() == before
