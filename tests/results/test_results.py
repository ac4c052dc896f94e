"""Result objects: unpacking, immutability, equality, text/HTML/LaTeX, frames."""

from __future__ import annotations

import dataclasses
import subprocess

import pandas as pd
import pytest

import nbstats
from nbstats.results.render import escape_latex
from tests.conftest import require_executable

NASTY = "<b>x_1 & 50% #$ {y}</b>"


@pytest.fixture
def nasty_table(table6):
    return table6.rename(columns={"C4.5": NASTY})


def all_results(table):
    a, b = table.columns[:2]
    return [
        nbstats.sign_test(table[a], table[b]),
        nbstats.wilcoxon(table[a], table[b]),
        nbstats.wilcoxon(table[a], table[b], method="approx"),
        nbstats.ttest(table[a], table[b]),
        nbstats.friedman(table),
        nbstats.rm_anova(table),
        nbstats.posthoc(table, method="nemenyi"),
        nbstats.posthoc(table, method="holm", control=a),
        nbstats.comparison_matrix(table),
    ]


def test_frequentist_results_unpack_to_statistic_and_pvalue(table6):
    for res in all_results(table6)[:6]:
        statistic, pvalue = res
        assert (statistic, pvalue) == (res.statistic, res.pvalue)
        with pytest.raises(ValueError, match="too many values|not enough values"):
            _a, _b, _c = res


def test_results_are_frozen(table6):
    res = nbstats.friedman(table6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.statistic = 0.0


def test_equality_compares_fields_including_frames(table6):
    assert nbstats.friedman(table6) == nbstats.friedman(table6)
    assert nbstats.friedman(table6) != nbstats.friedman(table6, tie_correction=True)
    assert nbstats.posthoc(table6) == nbstats.posthoc(table6)


def test_text_summary_names_the_numbers(table6):
    text = repr(nbstats.friedman(table6))
    # Demšar (2006): χ²_F = 9.28, F_F = 3.69
    assert "Friedman" in text and "9.28" in text and "3.69" in text
    assert "C4.5+m+cf" in text


def test_html_is_escaped_and_self_contained(nasty_table):
    for res in all_results(nasty_table):
        out = res._repr_html_()
        assert "<b>x_1" not in out
        if NASTY in res.summary():
            assert "&lt;b&gt;x_1 &amp; 50% #$ {y}&lt;/b&gt;" in out
        assert "<script" not in out and "http" not in out and "<link" not in out


def test_latex_is_escaped(nasty_table):
    for res in all_results(nasty_table):
        out = res.to_latex()
        assert res._repr_latex_() == out
        assert r"\toprule" in out and r"\bottomrule" in out
        assert "x_1" not in out and "50%" not in out
        if NASTY in res.summary():  # break points are invisible
            assert escape_latex(NASTY) in out.replace(r"\allowbreak{}", "")


def test_escape_latex_all_specials():
    assert escape_latex("a_b%c&d#e$f{g}h~i^j\\") == (
        r"a\_b\%c\&d\#e\$f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}"
    )


def test_to_frame_is_tidy(table6):
    frame = nbstats.posthoc(table6, method="nemenyi").to_frame()
    assert len(frame) == 6
    assert list(frame.columns) == [
        "a",
        "b",
        "mean_rank_a",
        "mean_rank_b",
        "statistic",
        "pvalue",
        "adjusted",
        "reject",
        "effect",
        "magnitude",
    ]
    assert (
        nbstats.wilcoxon(table6["C4.5"], table6["C4.5+m"]).to_frame().loc[0, "r_plus"]
        == 93
    )
    friedman = nbstats.friedman(table6).to_frame()
    assert friedman.shape == (1, 10)
    assert friedman.loc[0, "f_df2"] == 39


def test_summary_of_every_result_is_text(table6):
    for res in all_results(table6):
        assert isinstance(res.summary(), str) and res.summary() == repr(res)


def test_latex_caption_and_label(table6):
    out = nbstats.friedman(table6).to_latex(caption="My caption", label="tab:friedman")
    assert r"\caption{My caption}" in out and r"\label{tab:friedman}" in out


def test_latex_tables_compile_with_booktabs_and_tabularx(tmp_path, nasty_table):
    """booktabs, and tabularx / xltabular for the tables whose names wrap or
    that are long (the renderer's only packages in a one-column venue)."""
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex")
    body = "\n".join(res.to_latex() for res in all_results(nasty_table))
    source = (
        "\\documentclass{article}\\usepackage{booktabs,tabularx,xltabular}\n"
        "\\begin{document}\n" + body + "\n\\end{document}\n"
    )
    (tmp_path / "t.tex").write_text(source)
    done = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert "Missing character" not in (tmp_path / "t.log").read_text()


def test_posthoc_groups_in_summary(table6):
    text = nbstats.posthoc(table6, alpha=0.10).summary()
    assert "{C4.5+m+cf, C4.5+m, C4.5+cf}; {C4.5+cf, C4.5}" in text
    assert isinstance(nbstats.posthoc(table6).to_frame(), pd.DataFrame)
