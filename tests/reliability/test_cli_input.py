"""What the command line refuses before pandas can guess (nbstats.io.csv),
and where it may write: every error names the file (and line) and the fix, is
one line on stderr, exits with status 2, and starts no analysis."""

# ruff: noqa: F811  (the fixtures of tests/cli_helpers.py are parameters)
from __future__ import annotations

import codecs
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.cli.commands import read_scores
from nbstats.reporting import export
from tests.cli_helpers import LONG, calls, run  # noqa: F401  (fixtures)

WIDE = "case,A,B,C\nx,0.8,0.7,0.6\ny,0.9,0.6,0.5\nz,0.7,0.8,0.4\n"


def refused(capsys, path, argv=(), command="analyze"):
    """stderr of a refused command: one line, status 2, nothing on stdout."""
    code, out, err = run([command, path, *argv], capsys)
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1, err
    assert err.startswith(f"nbstats: error: {path}"), err
    return err


def write(tmp_path, text, name="scores.csv", **kwargs):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, **kwargs)
    return path


# -- headers ----------------------------------------------------------------------


def test_a_duplicated_algorithm_column_is_refused(tmp_path, calls, capsys):
    path = write(tmp_path, "case,A,A,C\nx,1,2,3\ny,2,3,4\nz,3,1,2\n")
    err = refused(capsys, path)
    assert "line 1: duplicated column name 'A' (columns 2 and 3)" in err
    assert "rename or remove the duplicates" in err
    assert "A.1" not in err
    assert calls == []
    with pytest.raises(ValueError, match="duplicated column name 'A'"):
        read_scores(str(path))


def test_every_duplicated_name_is_listed(tmp_path, calls, capsys):
    path = write(tmp_path, "case,A,B,A,B,B\nx,1,2,3,4,5\n")
    err = refused(capsys, path)
    assert "duplicated column names 'A' (columns 2 and 4); 'B' (columns 3 and 5" in err


def test_duplicated_columns_of_long_data_are_refused(tmp_path, calls, capsys):
    path = write(tmp_path, "data,algo,acc,acc\nd1,A,0.5,0.5\nd1,B,0.6,0.6\n")
    err = refused(capsys, path, LONG)
    assert "duplicated column name 'acc' (columns 3 and 4)" in err
    assert calls == []


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("case,A,,C", "column 3 has no name; name every column."),
        ("case,A,B,", "column 4 has no name (a separator at the end of the header?)"),
    ],
)
def test_unnamed_columns_are_refused(header, expected, tmp_path, calls, capsys):
    path = write(tmp_path, f"{header}\nx,1,2,3\ny,2,3,4\n")
    assert f"line 1: {expected}" in refused(capsys, path)


# -- the column of cases ---------------------------------------------------------


def test_a_named_numeric_first_column_needs_case_or_no_case_column(
    tmp_path, calls, capsys
):
    path = write(tmp_path, "A,B,C\n1,2,3\n2,3,5\n3,4,4\n4,1,2\n")
    err = refused(capsys, path)
    assert "the first column 'A' holds numbers" in err
    assert "Pass --case A if that column names the cases" in err
    assert "or --no-case-column if every column is an algorithm" in err
    assert calls == []


def test_no_case_column_reads_every_column_as_an_algorithm(tmp_path, calls, capsys):
    path = write(tmp_path, "A,B,C\n1,2,3\n2,3,5\n3,4,4\n4,1,2\n")
    code, _, err = run(["analyze", path, "--no-case-column"], capsys)
    assert code == 0, err
    [(_, scores, _)] = calls
    assert list(scores.columns) == ["A", "B", "C"]
    assert list(scores.index) == [1, 2, 3, 4]
    np.testing.assert_array_equal(scores["A"], [1, 2, 3, 4])


def test_case_names_a_numeric_column_of_case_numbers(tmp_path, calls, capsys):
    path = write(tmp_path, "id,A,B,C\n7,1,2,3\n007,2,3,5\n9,3,4,4\n")
    code, _, err = run(["analyze", path, "--case", "id"], capsys)
    assert code == 0, err
    [(_, scores, _)] = calls
    assert list(scores.index) == ["7", "007", "9"]  # as the file spells them
    assert scores.index.name == "id"
    assert list(scores.columns) == ["A", "B", "C"]


def test_case_may_name_any_column(tmp_path, calls, capsys):
    path = write(tmp_path, "A,B,data set,C\n1,2,x,3\n2,3,y,5\n3,4,z,4\n")
    code, _, err = run(["analyze", path, "--case", "data set"], capsys)
    assert code == 0, err
    [(_, scores, _)] = calls
    assert list(scores.index) == ["x", "y", "z"]
    assert list(scores.columns) == ["A", "B", "C"]


def test_case_must_be_a_column(tmp_path, calls, capsys):
    path = write(tmp_path, WIDE)
    err = refused(capsys, path, ["--case", "dataset"])
    assert "--case 'dataset': no such column; the columns are ['case', 'A'" in err


@pytest.mark.parametrize(
    "text",
    [
        ",A,B,C\n0,1,2,3\n1,2,3,5\n2,3,4,4\n",  # pandas' unnamed index
        "case,A,B,C\nx,1,2,3\n2,2,3,5\n3,3,4,4\n",  # a name that is no number
    ],
)
def test_the_first_column_is_the_cases_when_unnamed_or_not_all_numbers(
    text, tmp_path, calls, capsys
):
    path = write(tmp_path, text)
    code, _, err = run(["analyze", path], capsys)
    assert code == 0, err
    [(_, scores, _)] = calls
    assert list(scores.columns) == ["A", "B", "C"]
    assert len(scores) == 3


def test_an_empty_case_name_is_refused_with_its_line(tmp_path, calls, capsys):
    path = write(tmp_path, "case,A,B,C\nx,1,2,3\n\n,2,3,5\nz,3,4,4\n")
    err = refused(capsys, path)
    assert "line 4: no case name in column 'case'; name every case" in err


def test_an_empty_algorithm_name_of_long_data_is_refused(tmp_path, calls, capsys):
    path = write(tmp_path, "data,algo,acc\nd1,A,0.5\nd1,,0.6\n")
    err = refused(capsys, path, LONG)
    assert "line 3: no algorithm name in column 'algo'" in err


def test_long_names_are_kept_as_spelled(tmp_path, calls, capsys):
    pairs = [(d, a) for d in ["007", "7", "x"] for a in ["01", "1", "B"]]
    rows = [f"{d},{a},0.{i}" for i, (d, a) in enumerate(pairs, 1)]
    path = write(tmp_path, "data,algo,acc\n" + "\n".join(rows) + "\n")
    code, _, err = run(["analyze", path, *LONG], capsys)
    assert code == 0, err
    [(_, scores, kwargs)] = calls
    table = nbstats.score_table(scores, **kwargs)
    assert sorted(table.index) == ["007", "7", "x"]
    assert sorted(table.columns) == ["01", "1", "B"]


# -- rows -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("y,2,3", "line 3: 3 fields where the header has 4; leave a missing score"),
        ("y,2,3,4,5", "line 3: 5 fields where the header has 4; a separator inside"),
    ],
)
def test_a_ragged_row_is_refused_with_its_line(row, expected, tmp_path, calls, capsys):
    path = write(tmp_path, f"case,A,B,C\nx,1,2,3\n{row}\nz,3,4,4\n")
    assert expected in refused(capsys, path)


def test_a_broken_quote_is_refused_with_its_line(tmp_path, calls, capsys):
    path = write(tmp_path, 'case,A,B\nx,1,2\n"y"z,2,3\n')
    err = refused(capsys, path)
    assert "line 3:" in err and "quote" in err


def test_a_missing_score_stays_missing(tmp_path, calls, capsys):
    path = write(tmp_path, "case,A,B,C\nx,1,,3\ny,2,3,4\nz,3,4,5\n")
    err = refused(capsys, path)  # the library refuses missing scores
    assert "missing scores" in err and "--nan-policy omit" in err


# -- files ------------------------------------------------------------------------


def test_a_missing_file(tmp_path, calls, capsys):
    err = refused(capsys, tmp_path / "none.csv")
    assert "no such score file; check the path" in err


def test_a_directory(tmp_path, calls, capsys):
    err = refused(capsys, tmp_path)
    assert "is a directory, not a file; give the path of the score CSV" in err


@pytest.mark.parametrize("text", ["", "\n\n", "   \n"])
def test_an_empty_file(text, tmp_path, calls, capsys):
    path = write(tmp_path, text)
    assert "the file is empty; a score CSV has a header row" in refused(capsys, path)


def test_a_header_only_file(tmp_path, calls, capsys):
    path = write(tmp_path, "case,A,B,C\n")
    err = refused(capsys, path)
    assert "only a header row ('case,A,B,C'), no scores; add one row" in err


def test_a_latin_1_file_needs_its_encoding(tmp_path, calls, capsys):
    path = write(
        tmp_path, "case,A,B,C\ncafé,1,2,3\ny,2,3,5\nz,3,4,4\n", encoding="latin-1"
    )
    err = refused(capsys, path)
    assert "line 2: not utf-8 text (byte 0xe9 at offset 14)" in err
    assert "--encoding latin-1" in err
    code, _, err = run(["analyze", path, "--encoding", "latin-1"], capsys)
    assert code == 0, err
    assert "café" in list(calls[0][1].index)


def test_a_utf_16_file(tmp_path, calls, capsys):
    path = write(tmp_path, WIDE.encode("utf-16"))
    assert "--encoding utf-16" in refused(capsys, path)
    code, _, err = run(["analyze", path, "--encoding", "utf-16"], capsys)
    assert code == 0, err
    assert list(calls[0][1].columns) == ["A", "B", "C"]


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path, calls, capsys):
    path = write(tmp_path, codecs.BOM_UTF8 + WIDE.encode())
    code, _, err = run(["analyze", path], capsys)
    assert code == 0, err
    assert calls[0][1].index.name == "case"


def test_a_workbook_is_not_a_csv(tmp_path, calls, capsys):
    path = write(tmp_path, b"PK\x03\x04\x14\x00\x06\x00", name="scores.xlsx")
    assert "not a CSV file but a zip archive (an Excel" in refused(capsys, path)


def test_an_unreadable_file(tmp_path, calls, capsys, monkeypatch):
    path = write(tmp_path, WIDE)

    def denied(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", denied)  # root reads any file
    assert "cannot read it (permission denied); make it readable" in refused(
        capsys, path
    )


# -- separators -------------------------------------------------------------------


SEMICOLONS = WIDE.replace(",", ";")


def test_a_wrong_separator_is_named(tmp_path, calls, capsys):
    path = write(tmp_path, SEMICOLONS)
    err = refused(capsys, path)
    assert "line 1: one column ('case;A;B;C') with the separator ','" in err
    assert "the separator looks like ';': pass --sep ';' (or --sep auto)" in err


@pytest.mark.parametrize(
    ("sep", "text"), [(";", SEMICOLONS), ("tab", WIDE.replace(",", "\t"))]
)
def test_sep_option(sep, text, tmp_path, calls, capsys):
    path = write(tmp_path, text)
    code, _, err = run(["analyze", path, "--sep", sep], capsys)
    assert (code, err) == (0, "")
    assert list(calls[0][1].columns) == ["A", "B", "C"]


def test_sep_auto_says_what_it_found(tmp_path, calls, capsys):
    path = write(tmp_path, SEMICOLONS)
    code, _, err = run(["analyze", path, "--sep", "auto"], capsys)
    assert code == 0
    assert err == f"nbstats: note: --sep auto: the separator of {path} is ';'.\n"
    pd.testing.assert_frame_equal(
        calls[0][1], pd.read_csv(path, sep=";", index_col=0).rename_axis("case")
    )


# -- where the report goes: checked before any work --------------------------------


@pytest.fixture
def no_kernel(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a notebook was executed")

    monkeypatch.setattr(export, "execute_notebook", refuse)


def _read_only_directory(tmp_path: Path) -> Path:
    directory = tmp_path / "read-only"
    directory.mkdir()
    directory.chmod(stat.S_IRUSR | stat.S_IXUSR)
    if os.access(directory, os.W_OK):  # root: permission bits do not stop it
        return Path("/sys")  # a directory no one can create files in
    return directory


@pytest.mark.parametrize("where", ["read-only", "missing", "directory", "file"])
def test_an_unwritable_report_is_refused_at_once(where, tmp_path, no_kernel, capsys):
    scores = write(tmp_path, WIDE)
    target = {
        "read-only": lambda: _read_only_directory(tmp_path) / "report.html",
        "missing": lambda: tmp_path / "no" / "report.html",
        "directory": lambda: tmp_path,
        "file": lambda: scores / "report.html",
    }[where]()
    start = time.perf_counter()
    code, out, err = run(["report", scores, "-o", target], capsys)
    assert time.perf_counter() - start < 2
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1
    expected = {
        "read-only": f"the directory '{target.parent}' is not writable",
        "missing": f"the directory '{target.parent}' does not exist; create it",
        "directory": f"cannot write '{target}': it is a directory; give a file name",
        "file": f"the directory '{target.parent}' is not a directory",
    }[where]
    assert expected in err
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["scores.csv"]


# -- through a real process ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "argv", "expected"),
    [
        ("case,A,A,C\nx,1,2,3\ny,2,3,4\n", [], "duplicated column name 'A'"),
        ("A,B,C\n1,2,3\n2,3,4\n", [], "Pass --case A if that column names"),
        (b"case,A,B\ncaf\xe9,1,2\n", [], "line 2: not utf-8 text"),
        (WIDE, ["-o", "/sys/report.html"], "'/sys' is not writable"),
    ],
)
def test_the_command_refuses_in_one_line(text, argv, expected, tmp_path):
    path = write(tmp_path, text)
    done = subprocess.run(
        [sys.executable, "-m", "nbstats.cli", "report", str(path), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("nbstats: error: "), line
    assert expected in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv"]


def test_a_failed_write_names_the_report(tmp_path, monkeypatch, capsys):
    scores = write(tmp_path, WIDE)
    (tmp_path / "scores.html").write_text("old")

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(nbstats.reporting, "report", full_disk)
    code, _, err = run(["report", scores], capsys)
    assert code == 2
    assert err == (
        f"nbstats: error: cannot write '{tmp_path / 'scores.html'}': No space left "
        "on device; the old report is unchanged.\n"
    )


def test_repeated_case_names_get_the_command_line_fix(tmp_path, calls, capsys):
    path = write(tmp_path, "case,A,B,C\nx,1,2,3\nx,2,3,5\nz,3,4,4\n")
    err = refused(capsys, path)
    assert "['x']" in err
    assert "reset_index" not in err  # a Python fix, replaced by the options
