"""The command's options (nbstats.cli.options): help texts, examples, types,
and that every option reaches :func:`nbstats.reporting.report` unchanged."""

from __future__ import annotations

import argparse
import inspect
import re
import shlex

import pandas as pd
import pytest

import nbstats
import nbstats.reporting
from nbstats.cli.commands import build_parser, main
from tests.cli_helpers import (  # noqa: F401  (fixtures)
    LONG,
    calls,
    folds_frame,
    run,
    subparsers,
    wide_csv,
)

# -- the parser: help and examples ----------------------------------------------


def test_every_option_of_every_command_has_a_help_text():
    commands = subparsers()
    assert set(commands) == {"demo", "report", "analyze", "dashboard", "coverage"}
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
        assert "a column named fold or folds, and one named run" in out
        assert "repetition, repeat or rep (any case)" in out
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
        "threshold": "--threshold",
        "s": "--s",
        "prior": "--prior",
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
        "min_folds": "--min-folds",
        "format": "--format",
        "layout": "--layout",
        "runs": "--runs",
        "hierarchical": "--hierarchical",
        "score_unit": "--score-unit",
        "core_only": "--core",
        "venue": "--venue",
    }
    keywords = set(inspect.signature(nbstats.reporting.report).parameters)
    assert keywords - {"scores", "path"} == set(keyword_options)
    assert set(keyword_options.values()) <= options


def test_the_defaults_in_the_help_are_those_of_report():
    defaults = {
        k: p.default
        for k, p in inspect.signature(nbstats.reporting.report).parameters.items()
    }
    helps = {a.dest: " ".join(a.help.split()) for a in subparsers()["report"]._actions}
    stated = {
        dest: re.search(r"\(default: ([^),]+)", text).group(1)
        for dest, text in helps.items()
        if "(default: " in text
    }
    assert float(stated["alpha"]) == defaults["alpha"]
    assert float(stated["threshold"]) == defaults["threshold"]
    assert float(stated["rope"]) == defaults["rope"]
    assert int(stated["seed"]) == defaults["random_state"]
    assert stated["loss"] == "{}:{}".format(*defaults["loss"])
    assert stated["layout"] == defaults["layout"] == "auto"
    assert "(default)" in helps["aliases"] and defaults["aliases"] == "auto"
    assert "auto gives them to each name of more than 20" in helps["aliases"]
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
    argv += ["--alpha", "0.1", "--threshold", "0.8", "--s", "0", "--rope", "0.01"]
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
        "threshold": 0.8,
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
        (
            ["--threshold", "0"],
            "argument --threshold: 0 is not strictly between 0 and 1",
        ),
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
        (["--case", "d", "--score", "s"], "argument --algorithm: long data needs"),
        (["--algorithm", "a", "--score", "s"], "argument --case: long data needs"),
        (["--runs", "5"], "argument --runs: applies to long data; also give"),
        (["--runs", "0"], "argument --runs: '0' is not a count; give an integer"),
        (["--detail", "frequentist", "--runs", "2"], "argument --runs: does not"),
        (["--sep", "ab"], "argument --sep: 'ab' is not a separator; give one"),
        (["--sep", '"'], "argument --sep: '\"' is not a separator"),
        (["--encoding", "utf-9"], "argument --encoding: unknown encoding 'utf-9'"),
        (["--case", "x", "--no-case-column"], "argument --no-case-column: not with"),
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
    assert f"nbstats: error: {tmp_path / 'none.csv'}: no such score file" in err


def test_analyze_bad_csv_says_why(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    path.write_text("case,A,B\nx,1,oops\ny,2,3\n")
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert "column(s) ['B'] are not numeric" in err
    assert "--case COL --algorithm COL --score COL" in err


def test_an_alias_file_that_is_not_utf_8_or_not_a_file(wide_csv, tmp_path, capsys):
    names = tmp_path / "aliases.txt"
    names.write_bytes("C4.5=A\nC4.5+m=\xe9\n".encode("latin-1"))
    code, _, err = run(["analyze", wide_csv, "--alias-file", names], capsys)
    assert code == 2
    assert f"--alias-file {names}, line 2: not utf-8 text; save it as UTF-8." in err
    code, _, err = run(["analyze", wide_csv, "--alias-file", tmp_path], capsys)
    assert code == 2
    assert f"--alias-file {tmp_path}: is a directory; give a text file" in err


def test_runs_reaches_the_report(tmp_path, calls, capsys):
    path = tmp_path / "folds.csv"
    folds_frame().to_csv(path, index=False)
    argv = ["report", path, *LONG, "--fold", "run,fold", "--runs", "2"]
    code, _, err = run([*argv, "-o", tmp_path / "r.html"], capsys)
    assert code == 0, err
    [(_, _, kwargs)] = calls
    assert kwargs["runs"] == 2
    assert kwargs["fold"] == ["run", "fold"]


def test_venue_is_a_report_option_with_the_venues():
    from nbstats.results.venues import VENUES

    report = subparsers()["report"]
    (action,) = [a for a in report._actions if "--venue" in a.option_strings]
    assert list(action.choices) == list(VENUES)
    assert "article (one column, 10 pt; default)" in " ".join(action.help.split())
