"""Paste-ready figures drawn while xelatex runs (nbstats.reporting.paste_later):
the same bytes as when drawn at once, in the same places."""

from __future__ import annotations

import base64
import threading

import pytest

import nbstats
from nbstats.reporting import (
    _REPORT_DEFAULTS,
    FIGURE_FORMATS,
    _executed,
    _prepare,
    export,
    paste_later,
)
from tests.conftest import require_executable
from tests.real_tables import tabzilla_accuracy


def _table():
    """A real table with holes: 6 TabZilla algorithms on 30 data sets."""
    return tabzilla_accuracy().iloc[:30, :6]


def _pasted(nb) -> dict[str, dict[str, str]]:
    found = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            meta = output.get("metadata", {}).get("nbstats", {})
            if meta.get("kind") == "figure" and "tables_binary" in meta:
                found[meta["label"]] = dict(meta["tables_binary"])
    return found


def test_kept_drawings_are_the_bytes_drawn_at_once():
    table, settings = _prepare(
        _table(), **{**_REPORT_DEFAULTS, "nan_policy": "pairwise"}
    )
    at_once = _pasted(_executed(table, settings, FIGURE_FORMATS["pdf"]))
    with paste_later.collected() as pending:
        nb = _executed(table, settings, FIGURE_FORMATS["pdf"])
    assert _pasted(nb) == {}  # nothing drawn yet
    assert [one.label for one in pending] == list(at_once)
    assert len(at_once) >= 3  # heat map, Plackett-Luce, rank intervals
    # drawn outside the run, under other settings: the same bytes
    import matplotlib

    with matplotlib.rc_context({"font.size": 3, "lines.linewidth": 9}):
        later = paste_later.draw_all(pending)
    assert later == at_once
    for files in later.values():
        for data in files.values():
            assert base64.b64decode(data).startswith(b"%PDF")


def test_outside_a_collection_or_a_run_they_are_drawn_at_once():
    # a kernel (no capture) or a caller that collects nothing: the files come
    # back at once
    res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    with paste_later.collected() as pending:
        files = paste_later.paste_files("fig:ranks", res, "heatmap", {}, "article")
    assert pending == [] and sorted(files) == ["figure-ranks.pdf"]


def test_pdf_report_draws_them_beside_xelatex_and_writes_them(tmp_path, monkeypatch):
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")
    # while the drawings are made, the export runs in another thread
    seen = []
    original = paste_later.draw_all

    def watched(pending):
        exporting = [t.name for t in threading.enumerate() if "export" in t.name]
        seen.append(exporting)
        return original(pending)

    monkeypatch.setattr(paste_later, "draw_all", watched)
    options = {"nan_policy": "pairwise"}
    nbstats.reporting.report(_table(), tmp_path / "r.pdf", **options)
    nbstats.reporting.report(_table(), tmp_path / "t.tex", **options)
    assert seen and seen[0]  # the export thread was there
    pdf = sorted((tmp_path / "r_tables").glob("figure-*"))
    tex = sorted((tmp_path / "t_tables").glob("figure-*"))
    assert [p.name for p in pdf] == [p.name for p in tex]
    assert len(pdf) >= 3
    for a, b in zip(pdf, tex, strict=True):
        assert a.read_bytes() == b.read_bytes()


def test_a_failed_drawing_waits_for_the_export_and_leaves_no_report(
    tmp_path, monkeypatch
):
    require_executable("xelatex", "apt-get install texlive-xetex")
    require_executable("pandoc", "apt-get install pandoc")

    def broken(pending):
        raise RuntimeError("drawing failed")

    finished = []
    original = export.export_notebook

    def exported(*args, **kwargs):
        done = original(*args, **kwargs)
        finished.append(True)
        return done

    monkeypatch.setattr(paste_later, "draw_all", broken)
    monkeypatch.setattr(export, "export_notebook", exported)
    with pytest.raises(RuntimeError, match="drawing failed"):
        nbstats.reporting.report(_table(), tmp_path / "r.pdf", nan_policy="pairwise")
    assert finished == [True]  # xelatex had ended when the error came out
    assert sorted(p.name for p in tmp_path.iterdir()) == []
