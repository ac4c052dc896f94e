"""``nbstats coverage``, ``--min-folds`` and the refusals' words on the command
line (real public tables: TabZilla, the AutoML benchmark)."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest

import nbstats
from tests.cli_helpers import calls, run  # noqa: F401  (fixtures)
from tests.real_tables import TABZILLA, amlb_small_accuracy_folds

AMLB = ["--case", "task", "--algorithm", "framework", "--score", "acc"]


@pytest.fixture
def tabzilla_csv(tmp_path):
    path = tmp_path / "tabzilla.csv"
    shutil.copy(TABZILLA, path)
    return path


@pytest.fixture
def amlb_csv(tmp_path):
    path = tmp_path / "amlb.csv"
    amlb_small_accuracy_folds().to_csv(path, index=False)
    return path


def test_coverage_command_prints_the_tradeoff(tabzilla_csv, capsys, tmp_path):
    out_html = tmp_path / "coverage.html"
    code, out, err = run(["coverage", tabzilla_csv, "-o", out_html], capsys)
    assert code == 0, err
    table = pd.read_csv(tabzilla_csv, index_col=0)
    expected = nbstats.coverage(table)
    assert out.startswith(expected.summary())
    assert "16 of 171 cases are complete for all 42 algorithms; leaving out" in out
    assert "keeps 106 complete cases for the other 33" in out
    page = out_html.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert "TabPFNModel" in page and "Which algorithms to leave out" in page


def test_coverage_command_writes_csv_and_latex(tabzilla_csv, capsys, tmp_path):
    table = pd.read_csv(tabzilla_csv, index_col=0)
    csv = tmp_path / "tradeoff.csv"
    code, _, err = run(["coverage", tabzilla_csv, "-o", csv], capsys)
    assert code == 0, err
    written = pd.read_csv(csv)
    for row in written.itertuples():
        left = [] if pd.isna(row.left_out) else row.left_out.split("; ")
        assert len(table.drop(columns=left).dropna()) == row.n_cases
    tex = tmp_path / "tradeoff.tex"
    code, _, err = run(["coverage", tabzilla_csv, "-o", tex], capsys)
    assert code == 0, err
    assert "\\toprule" in tex.read_text(encoding="utf-8")


def test_coverage_command_greedy(tabzilla_csv, capsys):
    code, out, _ = run(["coverage", tabzilla_csv, "--method", "greedy"], capsys)
    assert code == 0
    assert "greedy (one algorithm at a time; not proven optimal)" in out
    assert "proven best" in out


def test_coverage_command_on_failed_folds(amlb_csv, capsys):
    code, out, err = run(["coverage", amlb_csv, *AMLB], capsys)
    assert code == 0, err
    assert "6 cells have failed folds: " in err
    assert "('fabert', 'TPOT'): 9 of 10 folds" in err
    assert "they count as missing (--min-folds K" in err
    assert "6 of 80 scores missing" in out
    code, out, err = run(["coverage", amlb_csv, *AMLB, "--min-folds", "8"], capsys)
    assert code == 0, err
    assert "3 with fewer than --min-folds 8 count as missing" in err
    assert "3 of 80 scores missing, 13 cases complete" in out


def test_failed_folds_refusal_in_the_options_words(amlb_csv, capsys, calls):
    code, out, err = run(["analyze", amlb_csv, *AMLB], capsys)
    assert (code, out, calls) == (2, "", [])
    assert "failed folds: 6 (case, algorithm) cells" in err
    assert "('credit-g', 'oboe'): 6 of 10 folds" in err
    assert "Pass --min-folds K to average" in err and "--min-folds 9" in err
    assert "min_folds" not in err


def test_min_folds_reaches_the_report(amlb_csv, capsys, calls):
    code, _, err = run(
        ["analyze", amlb_csv, *AMLB, "--min-folds", "8", "--nan-policy", "omit"],
        capsys,
    )
    assert code == 0, err
    ((_, _, keywords),) = calls
    assert keywords["min_folds"] == 8 and keywords["fold"] == "fold"
    assert "dropped 3 of 16 cases" in err


def test_missing_cells_refusal_points_to_coverage(tabzilla_csv, capsys, calls):
    code, out, err = run(["analyze", tabzilla_csv], capsys)
    assert (code, out) == (2, "")
    assert "1,040 missing scores in 155 of 171 cases" in err
    assert "--nan-policy omit would drop 155 of the 171 cases and keep 16" in err
    assert "biased subset" in err
    assert "nbstats coverage (on this file, with the same options)" in err
    assert "a report with --nan-policy pairwise" in err
    assert "nan_policy" not in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["-o", "x.pdf"], "give a file ending in .html, .tex or .csv"),
        (["--method", "fast"], "invalid choice: 'fast'"),
        (["--min-folds", "0"], "give an integer >= 1"),
        (["--min-folds", "8"], "argument --min-folds: applies to long data"),
    ],
)
def test_coverage_command_bad_options(tabzilla_csv, capsys, argv, words):
    code, out, err = run(["coverage", tabzilla_csv, *argv], capsys)
    assert code == 2 and out == ""
    assert words in err


def test_min_folds_without_folds_is_refused(tmp_path, capsys, calls):
    long = pd.DataFrame(
        {"task": ["a", "a", "b", "b"], "framework": ["X", "Y", "X", "Y"],
         "acc": [0.1, 0.2, 0.3, 0.4]}
    )  # fmt: skip
    path = tmp_path / "long.csv"
    long.to_csv(path, index=False)
    code, _, err = run(["analyze", path, *AMLB, "--min-folds", "3"], capsys)
    assert code == 2
    assert "argument --min-folds: applies to per-fold data" in err
