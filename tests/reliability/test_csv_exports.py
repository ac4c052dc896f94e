"""Every CSV nbstats writes passes one defusing function (issue 34, finding 5).

``<stem>_core/summary.csv`` wrote ``=1+1``, ``+SUM(1,2)``, ``@cmd`` and
``=HYPERLINK(...)`` as they were, while the other exports were defused. Now
every CSV file a report writes goes through
:func:`nbstats.reporting.csv_safety.defuse_files` (and the notebook's CSV outputs
through :func:`~nbstats.reporting.csv_safety.defuse_csv_outputs`). The test walks
every export of every report kind -- two algorithms, the standard layout,
the compact layout (CSV downloads) -- in every format (HTML download links,
the notebook's metadata, the files beside a LaTeX or PDF report) and reads
every cell with its own check (OWASP's list), not nbstats'.

Names with a tab or a carriage return never reach a CSV: they are refused as
control characters (:func:`nbstats.scores.names.check_names`).
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import io
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.cli.commands import main
from nbstats.reporting import _REPORT_DEFAULTS, _prepare, export
from nbstats.reporting.csv_safety import csv_text, defuse_files
from nbstats.reporting.notebook import build_notebook

#: What a spreadsheet reads as the start of a formula (OWASP), restated here.
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
ATTACKS = [
    "=1+1",
    "+SUM(1,2)",
    "@cmd",
    '=HYPERLINK("http://evil.example","x")',
    "-2+3",
    "=cmd|' /C calc'!A0",
]


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def formula(cell: str) -> bool:
    """Whether a spreadsheet would run ``cell`` as a formula."""
    return cell.startswith(TRIGGERS) and not _is_number(cell)


def unsafe(text: str) -> list[str]:
    """The cells of CSV text that a spreadsheet would run as a formula."""
    rows = csv.reader(io.StringIO(text, newline=""))
    return [cell for row in rows for cell in row if formula(cell)]


def table_of(columns, n=8, seed=0, cases=None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    index = cases or [f"c{i}" for i in range(n)]
    return pd.DataFrame(
        rng.uniform(0.5, 0.9, size=(len(index), len(columns)))
        + np.linspace(0, 0.2, len(columns)),
        index=pd.Index(index, name="=case"),
        columns=list(columns),
    )


KINDS = {
    "two": table_of(["=1+1", "@cmd"], cases=["=a", "@b", "-c", "+d", "e", "f"]),
    "standard": table_of(ATTACKS, cases=["=x", "@y", "-z", "+w", "v", "u", "t"]),
    "compact": table_of([f"{t}alg{j}" for j, t in enumerate("=+-@" * 4)]),
}


def executed(kind: str):
    table, report_settings = _prepare(KINDS[kind], **_REPORT_DEFAULTS)
    report_settings = dataclasses.replace(report_settings, n_samples=2000)
    nb = build_notebook(table, report_settings, figure_formats=("svg", "pdf"))
    return export.execute_notebook(nb)


def every_csv(folder: Path) -> dict[str, str]:
    """Every CSV in ``folder``: the files, the HTML reports' download links and
    the notebooks' CSV texts."""
    found: dict[str, str] = {}
    for path in folder.rglob("*"):
        if path.suffix == ".csv":
            found[str(path)] = path.read_text(encoding="utf-8")
        elif path.suffix == ".html":
            links = re.findall(
                r"data:text/csv;charset=utf-8;base64,([A-Za-z0-9+/=]+)",
                path.read_text(encoding="utf-8"),
            )
            for k, payload in enumerate(links):
                found[f"{path}#{k}"] = base64.b64decode(payload).decode("utf-8")
        elif path.suffix == ".ipynb":
            nb = json.loads(path.read_text(encoding="utf-8"))
            for cell in nb["cells"]:
                for output in cell.get("outputs", []):
                    meta = output.get("metadata", {}).get("nbstats", {})
                    if meta.get("kind") == "csv":
                        found[f"{path}:{meta['name']}"] = meta["csv"]
                    for name, text in meta.get("core_files", {}).items():
                        if name.endswith(".csv"):
                            found[f"{path}:{name}"] = text
    return found


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_no_export_of_any_report_holds_a_formula(kind, tmp_path):
    nb = executed(kind)
    # PDF writes the same files beside it as LaTeX (one code path); it is
    # typeset once, for the standard report, to keep the test's time down
    formats = ["html", "ipynb", "tex"] + (
        ["pdf"] if kind == "standard" and shutil.which("xelatex") else []
    )
    for fmt in formats:
        folder = tmp_path / fmt
        folder.mkdir()
        export.write_report(nb, folder / f"r.{fmt}", fmt)
    found = every_csv(tmp_path)
    assert any("_core" in name for name in found), sorted(found)
    if kind == "compact":
        assert any("_tables" in name for name in found), sorted(found)
        assert any("#" in name for name in found), "the HTML download links"
    for name, text in found.items():
        assert unsafe(text) == [], name
    summary = (tmp_path / "tex" / "r_core" / "summary.csv").read_text()
    cells = [c for row in csv.reader(io.StringIO(summary)) for c in row]
    for column in KINDS[kind].columns:  # every name is there, defused
        assert "'" + column in cells or any(
            c.startswith("'") and column in c for c in cells
        ), column


def test_the_core_summary_of_the_command_line_is_defused(tmp_path, capsys):
    # the reproducer: nbstats report scores.csv --format tex
    path = tmp_path / "scores.csv"
    KINDS["standard"].iloc[:, :4].to_csv(path)
    code = main(
        [
            "report",
            str(path),
            "--format",
            "tex",
            "--analyses",
            "frequentist",
            "-o",
            str(tmp_path / "r.tex"),
        ]
    )
    assert code == 0, capsys.readouterr().err
    text = (tmp_path / "r_core" / "summary.csv").read_text()
    assert unsafe(text) == []
    for attack in ["=1+1", "+SUM(1,2)", "@cmd"]:
        assert "'" + attack in text


@pytest.mark.parametrize("name", ["\tcmd", "\r=1+1", "a\tb"])
def test_names_with_a_tab_or_carriage_return_never_reach_a_csv(name, tmp_path):
    table = KINDS["standard"].rename(columns={"=1+1": name})
    with pytest.raises(ValueError, match="control character"):
        nbstats.reporting.report(table, tmp_path / "r.tex")
    assert list(tmp_path.iterdir()) == []


# -- the property: any text through the gate -------------------------------------

names = st.tuples(st.sampled_from(TRIGGERS + ("", "'", " ")), st.text()).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(names, min_size=1, max_size=6, unique=True), st.data())
def test_any_frame_through_csv_text_is_safe_and_keeps_its_text(columns, data):
    values = data.draw(
        st.lists(st.one_of(names, st.floats(allow_nan=False)), min_size=len(columns),
                 max_size=len(columns))
    )  # fmt: skip
    frame = pd.DataFrame([values], columns=columns)
    text = csv_text(frame)
    assert unsafe(text) == []
    back = next(iter(defuse_files({"x.csv": text.encode()}).values())).decode()
    assert back == text  # the gate is idempotent
    rows = list(csv.reader(io.StringIO(text, newline="")))
    original = list(csv.reader(io.StringIO(frame.to_csv(lineterminator="\n"),
                                           newline="")))  # fmt: skip
    for row, raw in zip(rows, original, strict=True):
        for cell, was in zip(row, raw, strict=True):
            # a defused cell is the original behind one quote; others unchanged
            assert cell == was or (cell == "'" + was and was.startswith(TRIGGERS))
