"""The nbstats command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

import nbstats
from nbstats.cli import main


def test_demo_text_prints_the_full_analysis(capsys):
    assert main(["demo", "--text"]) == 0
    out = capsys.readouterr().out
    for expected in [
        "R+ / R−         : 93 / 12",
        "wins / losses / ties : 10 / 2 / 2",
        "χ²_F               : 9.279",
        "Iman–Davenport F_F : 3.686",
        "critical difference : 1.254",
        "critical difference : 1.118",
        "{C4.5+m+cf, C4.5+m, C4.5+cf}; {C4.5+cf, C4.5}",
        "hommel adj. p",
        "Post-hoc comparisons (shaffer)",
    ]:
        assert expected in out, expected


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
    html = report.read_text()
    for expected in ["C4.5+m+cf", "9.279", "Methods", "Demšar"]:
        assert expected in html, expected
    assert "<script src" not in html


def test_report_from_a_long_csv(tmp_path, capsys):
    folds = nbstats.datasets.load("uci_accuracy_folds")
    small = folds[folds["dataset"].isin(folds["dataset"].unique()[:12])]
    path = tmp_path / "folds.csv"
    small.to_csv(path, index=False)
    assert main(["report", str(path)]) == 2
    assert "--case COL --algorithm COL --score COL" in capsys.readouterr().err
    code = main(
        [
            "report",
            str(path),
            "--format",
            "ipynb",
            "--case",
            "dataset",
            "--algorithm",
            "classifier",
            "--score",
            "accuracy",
            "--aggregate",
            "mean",
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "folds.ipynb").exists()


def test_analyze_a_csv(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    nbstats.datasets.load("demsar2006").mul(-1).to_csv(path)
    assert main(["analyze", str(path), "--lower-is-better", "--alpha", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "χ²_F               : 9.279" in out
    assert "lower scores are better" in out


def test_analyze_bad_csv_says_why(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    path.write_text("case,A,B\nx,1,oops\ny,2,3\n")
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert "column(s) ['B'] are not numeric" in err
    assert "--case COL --algorithm COL --score COL" in err


def test_dashboard_options(capsys):
    with pytest.raises(SystemExit):
        main(["dashboard", "--help"])
    out = capsys.readouterr().out
    for option in ["--kind", "--port", "--lower-is-better", "--case", "--algorithm"]:
        assert option in out
    assert "{bayes,frequentist,ranks}" in out


def test_dashboard_reports_a_bad_csv_before_serving(tmp_path, capsys):
    assert main(["dashboard", str(tmp_path / "none.csv")]) == 2
    assert "nbstats: error: no such score file" in capsys.readouterr().err
