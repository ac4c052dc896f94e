"""What ``nbstats dashboard`` refuses at start, before Voilà: the CSV is read
as ``nbstats report`` reads it (:mod:`nbstats.io.csv`), in the server and
in the code its page's kernels run. A refused file is one line on stderr
naming the file and the fix, status 2, and no Voilà; an accepted one is
served with the options that made it readable, and the kernel's read gives
the table the server checked.

Voilà is replaced by a recorder (the real server: test_server_lock.py), except
for one real ``python -m nbstats.cli dashboard bad.csv``, which must stop
before starting it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest

import nbstats
import nbstats.io.csv
from nbstats.app import process as serve_process
from nbstats.app import server as serve
from nbstats.cli.options import build_parser

WIDE = "case,A,B,C\nx,0.8,0.7,0.6\ny,0.9,0.6,0.5\nz,0.7,0.8,0.4\n"
#: a named first column of numbers: case numbers, or algorithm A's scores?
NUMERIC = "A,B,C\n0.8,0.7,0.6\n0.9,0.6,0.5\n0.7,0.8,0.4\n0.6,0.5,0.9\n"


@pytest.fixture
def voila(monkeypatch):
    """Voilà as a recorder: the notebook each start would serve."""
    served = []

    def fake_run_voila(command, *, cwd, env, out, log, token):
        (notebook,) = Path(cwd).glob("*.ipynb")
        served.append(nbformat.read(notebook, as_version=4))
        return 0

    monkeypatch.setattr(serve_process, "run_voila", fake_run_voila)
    find_spec = serve.importlib.util.find_spec  # Voilà need not be installed
    monkeypatch.setattr(
        serve.importlib.util,
        "find_spec",
        lambda name, *args: object() if name == "voila" else find_spec(name, *args),
    )
    return served


def write(tmp_path, content, name="scores.csv"):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def refused(capsys, path, argv=()):
    """The one line of a refused start through ``serve.main`` (status 2)."""
    assert serve.main([str(path), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"nbstats: error: {path}"), line
    return line


def kernel_scores(nb):
    """What the page's kernel reads: the served cell's imports and its
    ``scores = ...`` statement, run here."""
    tree = ast.parse(nb.cells[-1].source)
    reading = [
        node
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, ast.Assign) and "scores" in ast.unparse(node.targets[0]))
    ]
    namespace: dict = {}
    exec(compile(ast.Module(reading, []), "<kernel>", "exec"), namespace)
    return namespace["scores"]


def served_table(served):
    (nb,) = served
    return nbstats.score_table(kernel_scores(nb))


# -- refused at start, Voilà never started ---------------------------------------


def test_a_duplicated_column_is_refused_not_renamed(tmp_path, voila, capsys):
    path = write(tmp_path, "case,A,A,C\nx,1,2,3\ny,2,3,4\nz,3,1,2\n")
    line = refused(capsys, path)
    assert "line 1: duplicated column name 'A' (columns 2 and 3)" in line
    assert "rename or remove the duplicates" in line and "A.1" not in line
    assert voila == []
    # the library call the server makes says the same
    with pytest.raises(ValueError, match="duplicated column name 'A'"):
        serve.load_scores(path)


def test_a_named_numeric_first_column_needs_case_or_no_case_column(
    tmp_path, voila, capsys
):
    path = write(tmp_path, NUMERIC)
    line = refused(capsys, path)
    assert "the first column 'A' holds numbers" in line
    assert "--case A" in line and "--no-case-column" in line
    assert voila == []


@pytest.mark.parametrize(
    ("content", "argv", "message"),
    [
        (b"", (), "the file is empty"),
        (b"PK\x03\x04rest", (), "not a CSV file but a zip archive"),
        ("case,A,B\nx,1,2,3\ny,2,3\n", (), "line 2: 4 fields where the header has 3"),
        ("case,A,,C\nx,1,2,3\ny,2,3,4\n", (), "column 3 has no name"),
        ("case;A;B\nx;1;2\ny;2;3\n", (), "pass --sep ';' (or --sep auto)"),
        (WIDE, ("--case", "dataset"), "--case 'dataset': no such column"),
        (WIDE, ("--sep", "|"), "one column ('case,A,B,C') with the separator '|'"),
        ("case,A,B\nx,1,2\n,2,3\n", (), "line 3: no case name in column 'case'"),
    ],
    ids=["empty", "xlsx", "ragged", "unnamed", "semicolon", "case", "sep", "blank"],
)
def test_a_bad_file_is_one_line_naming_it(
    tmp_path, voila, capsys, content, argv, message
):
    line = refused(capsys, write(tmp_path, content), argv)
    assert message in line
    assert voila == []


def test_through_the_command_line_parser_too(tmp_path, voila, capsys):
    path = write(tmp_path, "case,A,A,C\nx,1,2,3\ny,2,3,4\n")
    args = build_parser().parse_args(["dashboard", str(path), "--kind", "ranks"])
    assert serve.run(args) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"nbstats: error: {path}, line 1: duplicated column")
    # options that do not go together: refused by the parser, as the report's
    numeric = write(tmp_path, NUMERIC, "numeric.csv")
    argv = ["dashboard", str(numeric), "--case", "A", "--no-case-column"]
    with pytest.raises(SystemExit) as stop:
        serve.run(build_parser().parse_args(argv))
    assert stop.value.code == 2
    assert "argument --no-case-column: not with --case" in capsys.readouterr().err
    assert voila == []


# -- accepted with the option that says what the file is ---------------------------


def test_no_case_column_makes_every_column_an_algorithm(tmp_path, voila, capsys):
    path = write(tmp_path, NUMERIC)
    assert serve.main([str(path), "--no-case-column"]) == 0
    assert "3 algorithms on 4 cases" in capsys.readouterr().err
    expected = pd.read_csv(path)  # every column is scores
    expected.index = pd.RangeIndex(1, 5)
    table = served_table(voila)
    assert list(table.columns) == ["A", "B", "C"]
    assert table.to_numpy().tolist() == expected.to_numpy().tolist()
    assert list(table.index) == [1, 2, 3, 4]
    assert table.equals(serve.load_scores(path, no_case_column=True))


def test_case_names_the_case_column_of_a_wide_file(tmp_path, voila, capsys):
    path = write(tmp_path, NUMERIC)
    assert serve.main([str(path), "--case", "A"]) == 0
    assert "2 algorithms on 4 cases" in capsys.readouterr().err
    table = served_table(voila)
    assert list(table.columns) == ["B", "C"]
    # the names as the file spells them ('0.8', not 0.8)
    assert list(table.index) == ["0.8", "0.9", "0.7", "0.6"]


def test_a_latin1_file_needs_its_encoding(tmp_path, voila, capsys):
    text = "jeu de données,Régression,Forêt\nété,0.8,0.7\nhiver,0.9,0.6\n"
    path = write(tmp_path, text.encode("latin-1"), "résultats.csv")
    line = refused(capsys, path)
    assert "not utf-8 text" in line and "--encoding latin-1" in line
    assert voila == []
    assert serve.main([str(path), "--encoding", "latin-1"]) == 0
    table = served_table(voila)
    assert list(table.columns) == ["Régression", "Forêt"]
    assert list(table.index) == ["été", "hiver"]
    assert table.index.name == "jeu de données"


def test_semicolons_with_sep_and_sep_auto(tmp_path, voila, capsys):
    # decimal points, ';' between fields: a European spreadsheet's export
    path = write(tmp_path, "case;A;B;C\nx;0.8;0.7;0.6\ny;0.9;0.6;0.5\nz;0.7;0.8;0.4\n")
    expected = serve.load_scores(write(tmp_path, WIDE, "comma.csv"))
    assert serve.main([str(path), "--sep", ";"]) == 0
    assert served_table(voila).equals(expected)
    voila.clear()
    capsys.readouterr()
    assert serve.main([str(path), "--sep", "auto"]) == 0
    err = capsys.readouterr().err
    assert f"nbstats: note: --sep auto: the separator of {path} is ';'." in err
    (nb,) = voila
    assert "sep=';'" in nb.cells[-1].source  # found once, by the server
    assert served_table(voila).equals(expected)


def test_the_kernel_reads_the_file_as_it_is_when_the_page_loads(tmp_path, voila):
    # the page reads the file at each load, with the same checks: a file
    # broken after the start is refused in the page, not misread
    path = write(tmp_path, WIDE)
    assert serve.main([str(path)]) == 0
    (nb,) = voila
    path.write_text("case,A,A,C\nx,1,2,3\ny,2,3,4\n")
    with pytest.raises(ValueError, match="duplicated column name 'A'"):
        kernel_scores(nb)


# -- the real command -------------------------------------------------------------


def test_the_command_refuses_a_bad_csv_in_one_line(tmp_path):
    path = write(tmp_path, "case,A,A,C\nx,1,2,3\ny,2,3,4\nz,3,1,2\n", "bad.csv")
    done = subprocess.run(
        [sys.executable, "-m", "nbstats.cli", "dashboard", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"nbstats: error: {path}, line 1: duplicated column")
    assert "Voil" not in line
