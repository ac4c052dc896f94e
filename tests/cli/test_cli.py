"""The nbstats command line.

Most tests check what the command passes to the library with a recording
stand-in of :func:`nbstats.reporting.report` / :func:`~nbstats.reporting.report_text`
whose signature is the real one (so an unknown keyword fails); the analyses
themselves run for real in a few tests only (a report needs a kernel).
"""

from __future__ import annotations

import html
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.cli.commands import FOLD_COLUMNS, main, read_scores
from tests.cli_helpers import (  # noqa: F401  (fixtures)
    LONG,
    calls,
    folds_frame,
    run,
    wide_csv,
)

# -- missing scores ---------------------------------------------------------------


@pytest.fixture
def holes_csv(tmp_path, table6):
    holes = table6.copy()
    holes.loc["breast cancer", "C4.5+m"] = np.nan
    holes.loc["iris", "C4.5"] = np.nan
    path = tmp_path / "holes.csv"
    holes.to_csv(path)
    return path


def test_missing_scores_are_refused_by_default(holes_csv, calls, capsys):
    code, out, err = run(["analyze", holes_csv], capsys)
    assert (code, out) == (2, "")
    assert (
        "missing scores at (case, algorithm) ('breast cancer', 'C4.5+m'), ('iris'"
        in err
    )
    assert "pass --nan-policy omit to drop every incomplete case" in err
    assert calls == []


def test_nan_policy_omit_says_which_cases_are_dropped(holes_csv, calls, capsys):
    code, _, err = run(["analyze", holes_csv, "--nan-policy", "omit"], capsys)
    assert code == 0
    assert (
        "nbstats: note: --nan-policy omit dropped 2 of 14 cases with missing "
        "scores: 'breast cancer', 'iris'." in err
    )
    [(_, scores, kwargs)] = calls
    assert kwargs == {"nan_policy": "omit"}
    assert scores.isna().sum().sum() == 2  # the library drops them itself


def test_nan_policy_omit_in_long_data_counts_absent_rows(tmp_path, calls, capsys):
    frame = folds_frame(runs=1, folds=1).drop(columns=["run", "fold"])
    frame = frame.drop(index=[4, 10])  # d1's B and d3's B are absent
    path = tmp_path / "long.csv"
    frame.to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG, "--nan-policy", "omit"], capsys)
    assert code == 0, err
    assert "dropped 2 of 8 cases with missing scores: 'd1', 'd3'." in err


def test_read_scores_drops_incomplete_cases(holes_csv, table6):
    with pytest.warns(UserWarning, match="dropped 2 of 14 cases"):
        table = read_scores(str(holes_csv), nan_policy="omit")
    expected = table6.drop(index=["breast cancer", "iris"])
    pd.testing.assert_frame_equal(table, expected, check_names=False)


# -- folds ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fold", "by"),
    [("fold", ["data", "algo", "run"]), ("run,fold", ["data", "algo"])],
)
def test_fold_option_averages_per_case(fold, by, tmp_path, calls, capsys):
    frame = folds_frame()
    if fold == "fold":  # one run: fold alone identifies the rows
        frame = frame[frame["run"] == 0].drop(columns="run")
        by = ["data", "algo"]
    path = tmp_path / "folds.csv"
    frame.to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG, "--fold", fold], capsys)
    assert code == 0, err
    assert "note" not in err
    folds = fold.split(",")
    assert calls[0][2] == {
        "case": "data",
        "algorithm": "algo",
        "score": "acc",
        "fold": folds[0] if len(folds) == 1 else folds,
    }
    # the table read for the report: pandas' own mean per case and algorithm
    expected = frame.groupby(by)["acc"].mean().unstack("algo")
    table = read_scores(
        str(path), case="data", algorithm="algo", score="acc", fold=folds
    )
    pd.testing.assert_frame_equal(
        table, expected.loc[table.index, table.columns], check_names=False
    )


@pytest.mark.parametrize("column", ["fold", "Folds", "run", "REPETITION", "repeat"])
def test_fold_column_is_recognised(column, tmp_path, calls, capsys):
    frame = folds_frame(runs=1).drop(columns="run").rename(columns={"fold": column})
    path = tmp_path / "folds.csv"
    frame.to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG], capsys)
    assert code == 0, err
    assert err == (
        f"nbstats: note: repeated (data, algo) rows: taking {column!r} as the "
        f"fold column (the mean of each algorithm's scores per case, as --fold "
        f"{column}; --fold none turns this off).\n"
    )
    assert calls[0][2]["fold"] == column
    assert column.lower() in FOLD_COLUMNS


def test_run_and_fold_columns_are_both_recognised(tmp_path, calls, capsys):
    path = tmp_path / "folds.csv"
    folds_frame().to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG, "--aggregate", "median"], capsys)
    assert code == 0, err
    assert (
        "taking 'run' as the runs and 'fold' as the folds within a run (by "
        "their names: 'run' counts the runs) (the median"
    ) in err
    assert calls[0][2]["fold"] == ["run", "fold"]
    assert calls[0][2]["aggregate"] == "median"


def test_no_recognition_without_repeated_rows(tmp_path, calls, capsys):
    frame = folds_frame(runs=1, folds=1)  # a constant fold column: no repeats
    path = tmp_path / "long.csv"
    frame.to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG], capsys)
    assert (code, err) == (0, "")
    assert "fold" not in calls[0][2]


def test_repeated_rows_without_a_fold_column(tmp_path, calls, capsys):
    frame = folds_frame(runs=1).drop(columns="run")
    frame = frame.rename(columns={"fold": "split"})
    path = tmp_path / "folds.csv"
    frame.to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG], capsys)
    assert code == 2
    assert "duplicated (data, algo) rows" in err
    assert "--fold COLUMN(S) (e.g. --fold fold) or --aggregate mean|median" in err
    assert calls == []
    # --fold none refuses a recognisable column too
    frame.rename(columns={"split": "fold"}).to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG, "--fold", "none"], capsys)
    assert code == 2
    assert "duplicated (data, algo) rows" in err


def test_fold_column_not_found(tmp_path, calls, capsys):
    path = tmp_path / "folds.csv"
    folds_frame().to_csv(path, index=False)
    code, _, err = run(["analyze", path, *LONG, "--fold", "run,split"], capsys)
    assert code == 2
    assert (
        f"nbstats: error: {path}: --fold: column(s) ['split'] not found; the columns"
        in err
    )


# -- analyze: the report's decisions, the frequentist detail ---------------------


def paragraphs(html_text: str) -> list[str]:
    """The report's paragraphs as plain text (tags dropped, entities decoded)."""
    found = re.findall(r"<p\b[^>]*>(.*?)</p>", html_text, flags=re.DOTALL)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", p)).split()) for p in found]


DECISIONS = (
    "The Friedman test",
    "The Bayesian Friedman test",
    "Significantly different",
    "No two algorithms differ",
    "Against the best-ranked algorithm",
    "Of the ",  # every Bayesian pair's outcome counted (and the cases)
    "Jointly, the accepted statements",
    "No joint statement is accepted",
    "The best-ranked algorithm,",
)


def plain(text: str) -> str:
    """One line; χ²_F and F_F as HTML shows them without its tags (χ2F, FF)."""
    return re.sub(r"[²_]|(?<=χ)2", "", " ".join(text.split()))


def test_analyze_states_every_paragraph_of_the_report(wide_csv, tmp_path, capsys):
    options = ["--alpha", "0.1", "--rope", "0.01", "--loss", "1:9", "--seed", "5"]
    code, out, err = run(["analyze", wide_csv, *options], capsys)
    assert code == 0, err
    report = tmp_path / "report.html"
    code, _, err = run(["report", wide_csv, "-o", report, *options], capsys)
    assert code == 0, err
    found = paragraphs(report.read_text())
    decisions = [
        s
        for p in found
        for s in re.split(r"(?<=\.) (?=[A-Z])", p)
        if s.startswith(DECISIONS)
    ]
    assert len(found) >= 5
    assert len(decisions) >= 6, decisions
    # the same words, numbers and decisions, under the same options
    assert "at α = 0.1" in decisions[0]
    assert "a threshold of 0.9" in plain(out)
    for paragraph in found:
        assert plain(paragraph) in plain(out), paragraph


def test_analyze_detail_frequentist(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    nbstats.datasets.load("demsar2006").mul(-1).to_csv(path)
    argv = ["analyze", path, "--detail", "frequentist", "--lower-is-better"]
    code, out, _ = run([*argv, "--alpha", "0.1", "--control", "C4.5"], capsys)
    assert code == 0
    assert "χ²_F               : 9.28" in out
    assert "lower scores are better" in out
    assert "Step-down and step-up procedures against C4.5 (α = 0.1)" in out


def test_analyze_detail_auto_prints_the_automatic_analysis(tmp_path, capsys):
    path = tmp_path / "errors.csv"
    errors = nbstats.datasets.load("demsar2006").rsub(1)  # error rates
    errors.to_csv(path)
    argv = ["analyze", path, "--detail", "auto", "--lower-is-better"]
    code, out, _ = run([*argv, "--alpha", "0.1", "--seed", "3"], capsys)
    assert code == 0
    expected = nbstats.analyze(
        errors, alpha=0.1, higher_is_better=False, random_state=3
    )
    assert out.strip() == expected.summary().strip()
    # the choice and its reason, and the paragraph for a paper
    assert "omnibus" in out and "Shapiro–Wilk" in out
    assert expected.text in out
    for option in (["--loss", "1:9"], ["--control", "C4.5"], ["--layout", "compact"]):
        code, _, err = run([*argv, *option], capsys)
        assert code == 2
        assert f"argument {option[0]}: does not apply to --detail auto" in err
    code, _, err = run([*argv, "--nan-policy", "pairwise"], capsys)
    assert code == 2 and "--nan-policy omit" in err


def test_demo_text_prints_the_full_analysis(capsys):
    assert main(["demo", "--text"]) == 0
    out = capsys.readouterr().out
    for expected in [
        "R+ / R−          : 93 / 12",
        "zero differences : ranked, their ranks split evenly between the two sums",
        "wins / losses / ties : 10 / 2 / 2",
        "χ²_F               : 9.28",
        "Iman–Davenport F_F : 3.69",
        "critical difference : 1.25",  # Demšar (2006): 1.25 at α = 0.05
        "critical difference : 1.12",  # and 1.12 at α = 0.10
        "{C4.5+m+cf, C4.5+m, C4.5+cf}; {C4.5+cf, C4.5}",
        "Hommel adj. p",
        "C4.5+m     2.34  0.019     0.047 *         0.038 *       0.038 *",
        "Post-hoc comparisons (Shaffer)",
    ]:
        assert expected in out, expected


def test_demo_text_writes_the_scores_with_one_number_of_decimals(capsys):
    assert main(["demo", "--text"]) == 0
    out = capsys.readouterr().out
    table = out.split("Scores with ranks\n-----------------\n", 1)[1].split("\n\n")[0]
    rows = table.splitlines()[2:]
    scores = [
        cell for row in rows[:-1] for cell in re.findall(r"(\S+) \(\d(?:\.5)?\)", row)
    ]
    assert len(scores) == 14 * 4
    # Table 6's scores, every one with the table's four decimals (was "0.59",
    # "1", "0.94" beside "0.763": printf's %g)
    assert all(re.fullmatch(r"[01]\.\d{4}", cell) for cell in scores), scores
    assert "0.5900 (3)" in table and "1.0000 (2.5)" in table
    # the mean ranks as every rank column (Friedman's table prints 3.14 too)
    assert rows[-1].split() == ["mean", "rank", "3.14", "2.00", "2.89", "1.96"]


# -- real reports (a kernel each: keep them few) -----------------------------------


def test_demo_writes_the_html_report(tmp_path):
    # the README's main job, as a user runs it: a fresh process, in a directory
    done = subprocess.run(
        [sys.executable, "-m", "nbstats.cli", "demo"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    report = tmp_path / "nbstats-demo.html"
    assert done.stdout.strip() == f"nbstats: wrote {report}"
    html_text = report.read_text()
    # Friedman's chi-square as Demšar (2006, §3.2.2) prints it: 9.28
    for expected in ["C4.5+m+cf", "9.28", "Methods", "Demšar"]:
        assert expected in html_text, expected
    assert "<script src" not in html_text


def test_report_from_a_long_csv(tmp_path, capsys):
    folds = nbstats.datasets.load("uci_accuracy_folds")
    small = folds[folds["dataset"].isin(folds["dataset"].unique()[:12])]
    path = tmp_path / "folds.csv"
    small.to_csv(path, index=False)
    assert main(["report", str(path)]) == 2
    assert "--case COL --algorithm COL --score COL" in capsys.readouterr().err
    argv = ["report", path, "--format", "ipynb", "--case", "dataset"]
    argv += ["--algorithm", "classifier", "--score", "accuracy"]
    code, out, err = run([*argv, "--analyses", "frequentist"], capsys)
    assert code == 0, err
    assert "taking 'fold' as the fold column" in err
    assert out.strip() == f"nbstats: wrote {tmp_path / 'folds.ipynb'}"
    notebook = (tmp_path / "folds.ipynb").read_text()
    assert re.search(r"\b100 [^.]{0,30}fold scores", notebook)  # the report says


def test_the_iri_grammar_is_skipped_and_notebooks_still_validate():
    # run in a fresh interpreter: the skip must precede any jsonschema import
    code = (
        "import sys\n"
        "from nbstats.cli.commands import _skip_iri_grammar\n"
        "_skip_iri_grammar()\n"
        "import nbformat\n"
        "from nbformat import v4\n"
        "nbformat.validate(v4.new_notebook(cells=[v4.new_code_cell('1')]))\n"
        "assert sys.modules['rfc3987_syntax'] is None\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "ok", done.stderr
