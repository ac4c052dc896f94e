"""The nbstats command line.

Most tests check what the command passes to the library with a recording
stand-in of :func:`nbstats.report.report` / :func:`~nbstats.report.report_text`
whose signature is the real one (so an unknown keyword fails); the analyses
themselves run for real in a few tests only (a report needs a kernel).
"""

from __future__ import annotations

import argparse
import html
import inspect
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
import nbstats.report
from nbstats.cli import FOLD_COLUMNS, build_parser, main, read_scores

LONG = ["--case", "data", "--algorithm", "algo", "--score", "acc"]


# -- fixtures and helpers ---------------------------------------------------------


@pytest.fixture
def wide_csv(tmp_path, table6):
    path = tmp_path / "scores.csv"
    table6.to_csv(path)
    return path


@pytest.fixture
def calls(monkeypatch):
    """Record the calls of report() and report_text() instead of running them."""
    recorded: list[tuple[str, pd.DataFrame, dict]] = []
    signature = inspect.signature(nbstats.report.report)

    def recorder(name):
        def fake(scores, *args, **kwargs):
            # report_text takes report's keywords except path and format
            path = args or ("report.html",)
            signature.bind(scores, *path, **kwargs)
            recorded.append((name, scores, kwargs))
            return Path(args[0]).absolute() if args else f"{name} text"

        return fake

    for name in ("report", "report_text"):
        monkeypatch.setattr(nbstats.report, name, recorder(name))
    return recorded


def run(argv, capsys):
    """``(status, stdout, stderr)`` of ``nbstats argv``; argparse exits count."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def folds_frame(seed=1, n_cases=8, runs=2, folds=3) -> pd.DataFrame:
    """Long scores, one row per (case, algorithm, run, fold)."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"d{i}", algo, r, f, rng.uniform(0.5, 0.9) + 0.05 * j)
        for i in range(n_cases)
        for j, algo in enumerate(["A", "B", "C"])
        for r in range(runs)
        for f in range(folds)
    ]
    return pd.DataFrame(rows, columns=["data", "algo", "run", "fold", "acc"])


# -- the parser: help and examples ----------------------------------------------


def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(
        a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
    )
    return dict(action.choices)


def test_every_option_of_every_command_has_a_help_text():
    commands = subparsers()
    assert set(commands) == {"demo", "report", "analyze", "dashboard"}
    for name, command in commands.items():
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help and action.help.strip(), (name, action.dest)


@pytest.mark.parametrize("name", ["demo", "report", "analyze", "dashboard"])
def test_every_command_help_shows_examples(name, capsys):
    code, out, _ = run([name, "--help"], capsys)
    assert code == 0
    assert "examples:" in out
    assert f"  nbstats {name}" in out
    if name in ("report", "analyze"):
        assert "fold, folds, run, repetition or repeat" in out
        assert "l1/(l0+l1)" in out


@pytest.mark.parametrize("name", ["demo", "report", "analyze", "dashboard"])
def test_the_examples_of_the_help_are_valid_commands(name):
    epilog = subparsers()[name].epilog.replace("\\\n", " ")
    examples = [line.split("#")[0] for line in epilog.splitlines()]
    examples = [line for line in examples if line.startswith("  nbstats ")]
    assert len(examples) >= 3
    for example in examples:
        argv = shlex.split(example)
        assert build_parser().parse_args(argv[1:]).command == name


def test_the_report_options_cover_every_keyword_of_report():
    report = subparsers()["report"]
    options = {o for a in report._actions for o in a.option_strings}
    keyword_options = {
        "title": "--title",
        "analyses": "--analyses",
        "higher_is_better": "--lower-is-better",
        "alpha": "--alpha",
        "gamma": "--gamma",
        "s": "--s",
        "rope": "--rope",
        "loss": "--loss",
        "random_state": "--seed",
        "nan_policy": "--nan-policy",
        "aliases": "--aliases",
        "case": "--case",
        "algorithm": "--algorithm",
        "score": "--score",
        "fold": "--fold",
        "aggregate": "--aggregate",
        "format": "--format",
        "layout": "--layout",
    }
    keywords = set(inspect.signature(nbstats.report.report).parameters)
    assert keywords - {"scores", "path"} == set(keyword_options)
    assert set(keyword_options.values()) <= options


def test_the_defaults_in_the_help_are_those_of_report():
    defaults = {
        k: p.default
        for k, p in inspect.signature(nbstats.report.report).parameters.items()
    }
    helps = {a.dest: " ".join(a.help.split()) for a in subparsers()["report"]._actions}
    stated = {
        dest: re.search(r"\(default: ([^),]+)", text).group(1)
        for dest, text in helps.items()
        if "(default: " in text
    }
    assert float(stated["alpha"]) == defaults["alpha"]
    assert float(stated["gamma"]) == defaults["gamma"]
    assert float(stated["rope"]) == defaults["rope"]
    assert int(stated["seed"]) == defaults["random_state"]
    assert stated["loss"] == "{}:{}".format(*defaults["loss"])
    assert stated["layout"] == defaults["layout"] == "auto"
    assert "(default)" in helps["aliases"] and defaults["aliases"] == "auto"
    assert "auto when" in helps["aliases"]
    assert "(default)" in helps["nan_policy"] and defaults["nan_policy"] == "raise"
    assert "raise refuses" in helps["nan_policy"]
    assert "(default: all three)" in helps["analyses"]
    assert len(defaults["analyses"]) == 3
    # the decision threshold the help states: l1 / (l0 + l1)
    l0, l1 = defaults["loss"]
    assert f"i.e. {l1 / (l0 + l1):g}" in helps["loss"]


# -- options reach report() and report_text() -----------------------------------


def test_report_passes_every_option(wide_csv, tmp_path, calls, capsys):
    argv = ["report", wide_csv, "-o", tmp_path / "out.ipynb", "--title", "T"]
    argv += ["--lower-is-better", "--analyses", "bayesian,ranks"]
    argv += ["--alpha", "0.1", "--gamma", "0.2", "--s", "0", "--rope", "0.01"]
    argv += ["--loss", "1:9", "--seed", "7", "--nan-policy", "omit"]
    argv += ["--aliases", "on", "--layout", "compact"]
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert out.strip() == f"nbstats: wrote {tmp_path / 'out.ipynb'}"
    [(name, scores, kwargs)] = calls
    assert name == "report"
    pd.testing.assert_frame_equal(
        scores, pd.read_csv(wide_csv, index_col=0), check_names=False
    )
    assert kwargs == {
        "format": None,
        "title": "T",
        "higher_is_better": False,
        "analyses": ("bayesian", "ranks"),
        "alpha": 0.1,
        "gamma": 0.2,
        "s": 0.0,
        "rope": 0.01,
        "loss": (1.0, 9.0),
        "random_state": 7,
        "nan_policy": "omit",
        "aliases": True,
        "layout": "compact",
    }


def test_analyze_passes_the_same_options_to_report_text(wide_csv, calls, capsys):
    code, out, _ = run(
        ["analyze", wide_csv, "--rope", "0.02", "--loss", "2,38", "--seed", "3"],
        capsys,
    )
    assert (code, out) == (0, "report_text text\n")
    [(name, _, kwargs)] = calls
    assert name == "report_text"
    assert kwargs == {"rope": 0.02, "loss": (2.0, 38.0), "random_state": 3}


def test_defaults_are_the_library_defaults(wide_csv, tmp_path, calls, capsys):
    # nothing given, nothing passed: report() and report_text() decide
    assert run(["report", wide_csv], capsys)[0] == 0
    assert run(["analyze", wide_csv], capsys)[0] == 0
    assert [c[2] for c in calls] == [{"format": None}, {}]
    assert calls[0][1].shape == (14, 4)


@pytest.mark.parametrize(
    ("given", "passed"),
    [
        (["--analyses", "ranks"], ("ranks",)),
        (["--analyses", "ranks,frequentist"], ("frequentist", "ranks")),
        (["--analyses", "ranks", "--analyses", "Bayesian"], ("bayesian", "ranks")),
    ],
)
def test_analyses_comma_separated_or_repeated(given, passed, wide_csv, calls, capsys):
    assert run(["analyze", wide_csv, *given], capsys)[0] == 0
    assert calls[0][2]["analyses"] == passed


@pytest.mark.parametrize(
    ("given", "passed"),
    [
        ("1:19", (1.0, 19.0)),
        ("1,19", (1.0, 19.0)),
        (" 0.5 : 4.5 ", (0.5, 4.5)),
    ],
)
def test_loss_forms(given, passed, wide_csv, calls, capsys):
    assert run(["analyze", wide_csv, "--loss", given], capsys)[0] == 0
    assert calls[0][2]["loss"] == passed


@pytest.mark.parametrize(
    ("given", "passed"), [("0", 0), ("12345", 12345), ("random", None)]
)
def test_seed_forms(given, passed, wide_csv, calls, capsys):
    assert run(["analyze", wide_csv, "--seed", given], capsys)[0] == 0
    assert calls[0][2]["random_state"] == passed


@pytest.mark.parametrize(
    ("given", "passed"), [("auto", "auto"), ("on", True), ("off", False)]
)
def test_aliases_choices(given, passed, wide_csv, calls, capsys):
    assert run(["analyze", wide_csv, "--aliases", given], capsys)[0] == 0
    assert calls[0][2]["aliases"] == passed


def test_alias_pairs_inline_and_from_a_file(tmp_path, calls, capsys):
    long_name = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
    table = nbstats.datasets.load("demsar2006")
    table.columns = [long_name, "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    csv = tmp_path / "scores.csv"
    table.to_csv(csv)
    names = tmp_path / "aliases.txt"
    names.write_text(f"# short names\n\n{long_name}=HGB\nC4.5+m = M\n")
    argv = ["analyze", csv, "--alias-file", names, "--alias", "C4.5+m=m"]
    assert run([*argv, "--alias", "C4.5+cf=cf"], capsys)[0] == 0
    # the last '=' splits; inline pairs win over the file's
    assert calls[0][2]["aliases"] == {long_name: "HGB", "C4.5+m": "m", "C4.5+cf": "cf"}


# -- bad values: the option, the fix, status 2, no traceback --------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (["--loss", "19"], "argument --loss: '19' is not a pair; give two positive"),
        (["--loss", "1:0"], "argument --loss: '1:0' has a loss <= 0"),
        (["--loss", "a:b"], "argument --loss: 'a' is not a number"),
        (["--loss", "1:inf"], "argument --loss: 'inf' is not finite"),
        (["--alpha", "1.5"], "argument --alpha: 1.5 is not strictly between 0 and 1"),
        (["--alpha", "five"], "argument --alpha: 'five' is not a number"),
        (["--gamma", "0"], "argument --gamma: 0 is not strictly between 0 and 1"),
        (["--s", "-1"], "argument --s: -1 is negative; give a number >= 0"),
        (["--rope", "-0.01"], "argument --rope: -0.01 is negative"),
        (["--rope", "nan"], "argument --rope: 'nan' is not finite"),
        (["--seed", "-3"], "argument --seed: '-3' is not a seed; give an integer"),
        (["--seed", "1.5"], "argument --seed: '1.5' is not a seed"),
        (["--analyses", "bayes"], "argument --analyses: 'bayes': choose one or more"),
        (["--analyses", ","], "frequentist, bayesian, ranks"),
        (["--nan-policy", "drop"], "argument --nan-policy: invalid choice: 'drop'"),
        (["--aliases", "yes"], "argument --aliases: invalid choice: 'yes'"),
        (["--alias", "HGB"], "argument --alias: 'HGB' is not NAME=ALIAS"),
        (["--alias", "=A"], "argument --alias: '=A' is not NAME=ALIAS"),
        (["--alias", "C4.5=A", "--aliases", "on"], "argument --aliases: not with"),
        (["--fold", "fold"], "argument --fold: applies to long data; also give"),
        (["--aggregate", "mean"], "argument --aggregate: applies to long data"),
        (["--aggregate", "sum"], "argument --aggregate: invalid choice: 'sum'"),
        (["--case", "data", "--fold", ","], "argument --fold: give a column name"),
        (["--case", "data"], "argument --algorithm: long data needs --case, --algo"),
        (["--score", "x"], "missing: --case, --algorithm."),
        (["--control", "C4.5"], "argument --control: applies to --detail frequentist"),
        (["--detail", "frequentist", "--rope", "0.1"], "argument --rope: does not"),
        (["--detail", "frequentist", "--alias", "a=b"], "argument --alias: does not"),
        (["--detail", "all"], "argument --detail: invalid choice: 'all'"),
    ],
)
def test_bad_options_name_the_option_and_the_fix(given, expected, wide_csv, capsys):
    code, out, err = run(["analyze", wide_csv, *given], capsys)
    assert code == 2
    assert out == ""
    assert "usage: nbstats analyze" in err
    assert expected in err, err


def test_bad_format_of_report(wide_csv, capsys):
    code, _, err = run(["report", wide_csv, "--format", "docx"], capsys)
    assert code == 2
    assert "argument --format: invalid choice: 'docx'" in err


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (["--alias", "C4.5+x=A"], "--alias: aliases names algorithms that are not"),
        (["--alias", "C4.5+m=C4.5"], "--alias: aliases must be unique"),
        (["--alias-file", "none.txt"], "--alias-file: no such file: 'none.txt'"),
    ],
)
def test_bad_aliases_are_refused_before_any_work(
    given, expected, wide_csv, calls, capsys
):
    code, _, err = run(["analyze", wide_csv, *given], capsys)
    assert code == 2
    assert f"nbstats: error: {expected}" in err
    assert calls == []


def test_bad_line_of_an_alias_file(wide_csv, tmp_path, calls, capsys):
    names = tmp_path / "aliases.txt"
    names.write_text("C4.5=A\nC4.5+m\n")
    code, _, err = run(["analyze", wide_csv, "--alias-file", names], capsys)
    assert code == 2
    assert f"--alias-file {names}, line 2: 'C4.5+m' is not NAME=ALIAS" in err


def test_report_into_a_missing_directory(wide_csv, tmp_path, capsys):
    # refused by report() before any kernel starts
    target = tmp_path / "no" / "report.html"
    code, out, err = run(["report", wide_csv, "-o", target], capsys)
    assert (code, out) == (2, "")
    assert "nbstats: error: cannot write 'report.html': the directory" in err
    assert "does not exist" in err


def test_missing_file(tmp_path, capsys):
    code, _, err = run(["analyze", tmp_path / "none.csv"], capsys)
    assert code == 2
    assert "nbstats: error: no such score file" in err


def test_analyze_bad_csv_says_why(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    path.write_text("case,A,B\nx,1,oops\ny,2,3\n")
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert "column(s) ['B'] are not numeric" in err
    assert "--case COL --algorithm COL --score COL" in err


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
    assert "taking 'run' and 'fold' as the fold columns (the median" in err
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
    assert "nbstats: error: --fold: column(s) ['split'] not found; the columns" in err


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
    "The better-ranked algorithm is decided",
    "No pair is decided",
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
    assert "χ²_F               : 9.279" in out
    assert "lower scores are better" in out
    assert "Step-down and step-up procedures against C4.5 (α = 0.1)" in out


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
    for expected in ["C4.5+m+cf", "9.279", "Methods", "Demšar"]:
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
