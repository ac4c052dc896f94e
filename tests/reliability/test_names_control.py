"""Names no report can show are refused at every entry point.

A NUL in an algorithm name stopped xelatex; a newline splits a CSV row; a tab
or C1 control is invisible in HTML. Every entry point (functions, accessor,
long data, report, dashboard, CLI) reads scores through
``nbstats.score_table``, which refuses them naming the name by its ``repr``
and the fix (docs/input-rules.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.cli.commands import main

CONTROLS = ["\x00", "\x01", "\t", "\n", "\r", "\x1b", "\x1f", "\x7f", "\x80", "\x85", "\x9f", "\u2028", "\u2029"]  # fmt: skip


def table(columns: list[Any] | None = None, index: list[Any] | None = None):
    rng = np.random.default_rng(0)
    columns = columns or ["A", "B", "C"]
    index = index or [f"d{i}" for i in range(6)]
    return pd.DataFrame(
        rng.uniform(size=(len(index), len(columns))), index=index, columns=columns
    )


FAST = {"n_samples": 1000, "random_state": 0}
ENTRY_POINTS: dict[str, Callable[[pd.DataFrame], Any]] = {
    "score_table": nbstats.score_table,
    "friedman": nbstats.friedman,
    "rm_anova": nbstats.rm_anova,
    "posthoc": nbstats.posthoc,
    "rank_ci": nbstats.rank_ci,
    "bayes_signrank_pairs": lambda t: nbstats.bayes_signrank_pairs(t, **FAST),
    "accessor.friedman": lambda t: t.compare.friedman(),
    "long": lambda t: nbstats.score_table(
        t.rename_axis("case")
        .reset_index()
        .melt(id_vars="case", var_name="algo", value_name="acc"),
        case="case",
        algorithm="algo",
        score="acc",
    ),
}
TWO_SAMPLE: dict[str, Callable[[pd.Series, pd.Series], Any]] = {
    "ttest": nbstats.ttest,
    "wilcoxon": nbstats.wilcoxon,
    "sign_test": nbstats.sign_test,
    "bayes_signrank": lambda a, b: nbstats.bayes_signrank(a, b, **FAST),
}


@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
@pytest.mark.parametrize("function", ENTRY_POINTS.values(), ids=ENTRY_POINTS)
def test_control_character_in_algorithm_name(function, char):
    name = f"B{char}x"
    with pytest.raises(ValueError, match="control character") as info:
        function(table(["A", name, "C"]))
    message = str(info.value)
    assert repr(name) in message  # the name is shown escaped, by repr
    assert "rename" in message
    assert char not in message  # the error itself prints cleanly


@pytest.mark.parametrize("char", ["\x00", "\n", "\x85"], ids=repr)
@pytest.mark.parametrize("function", ENTRY_POINTS.values(), ids=ENTRY_POINTS)
def test_control_character_in_case_name(function, char):
    index = [f"d{i}" for i in range(6)]
    index[2] = f"d{char}2"
    with pytest.raises(ValueError, match="case name .* control character") as info:
        function(table(index=index))
    assert repr(index[2]) in str(info.value)


@pytest.mark.parametrize("function", TWO_SAMPLE.values(), ids=TWO_SAMPLE)
def test_two_sample_names(function):
    t = table(["A", "B\x00", "C"])
    with pytest.raises(ValueError, match=r"'B\\x00' contains a control character"):
        function(t["A"], t["B\x00"])


def test_index_and_axis_names():
    t = table()
    t.index.name = "data\x00set"
    with pytest.raises(ValueError, match="index name .* control character"):
        nbstats.friedman(t)
    t = table()
    t.columns.name = "algo\n"
    with pytest.raises(ValueError, match="columns name .* control character"):
        nbstats.friedman(t)


def test_printable_unicode_is_fine():
    names = ["Árbol", "SVM (γ=0.1)", "随机森林", "a b"]
    res = nbstats.friedman(table(names))
    assert list(res.mean_ranks.index) == names


@pytest.mark.parametrize(
    "name", ["", " ", "\u3000"], ids=["empty", "space", "ideographic"]
)
def test_blank_algorithm_name(name):
    with pytest.raises(ValueError, match="empty or blank"):
        nbstats.friedman(table(["A", name, "C"]))


@pytest.mark.parametrize(
    "pair", [("A", "A "), ("A", " A"), ("1", 1)], ids=["trailing", "leading", "type"]
)
def test_names_that_look_the_same(pair):
    with pytest.raises(ValueError, match="look the same"):
        nbstats.friedman(table([pair[0], pair[1], "C"]))
    with pytest.raises(ValueError, match="look the same"):
        nbstats.friedman(table(index=["x", "y", "z", "w", f"{pair[0]}", pair[1]]))


def test_index_named_like_a_column():
    # before: "cannot store ... in the report's CSV (e.g. an empty name)"
    t = table()
    t.index.name = "A"
    with pytest.raises(ValueError, match="index .* is named 'A', like the algorithm"):
        nbstats.score_table(t)
    with pytest.raises(ValueError, match="rename_axis"):
        nbstats.reporting.report_text(t)


def test_long_data_index_named_like_a_column():
    long = pd.DataFrame(
        {"data": ["x", "x", "y", "y"], "algo": list("ABAB"), "acc": [1.0, 2, 3, 4]}
    ).set_index("data", drop=False)
    with pytest.raises(ValueError, match="names both a column and the index"):
        nbstats.score_table(long, case="data", algorithm="algo", score="acc")


def test_report_refuses_before_any_work(tmp_path):
    target = tmp_path / "r.html"
    with pytest.raises(ValueError, match="control character"):
        nbstats.reporting.report(table(["A", "B\x00", "C"]), target)
    assert not target.exists()


def test_dashboard_refuses():
    with pytest.raises(ValueError, match="control character"):
        nbstats.dashboard(table(["A", "B\x00", "C"]))


def test_aliases_with_control_characters():
    from nbstats.scores.aliases import make_aliases

    with pytest.raises(ValueError, match="control character"):
        make_aliases(["A", "B"], {"A": "x\x00"})


@pytest.mark.parametrize("header", ["case,A,B\x01x,C", "case,A,B\u0085x,C"], ids=repr)
def test_cli(tmp_path, capsys, header):
    path = tmp_path / "scores.csv"
    rows = [header] + [f"d{i},{i % 3},{(i + 1) % 4},{i % 5}" for i in range(6)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code = main(["analyze", str(path), "--case", "case"])
    err = capsys.readouterr().err
    assert code == 2
    assert "control character" in err
    assert "\x01" not in err and "\x85" not in err
