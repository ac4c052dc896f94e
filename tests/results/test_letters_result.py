r"""The result of ``nbstats.letters`` (issue 27): a table in text, HTML and a
LaTeX that ``\input``\ s into a paper even when names hold ``_ & % $ #``, and
letters whose groups are those of R's multcompView."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.results.letters import LettersResult
from tests.conftest import require_executable, unavailable
from tests.reporting.test_latex_input import ERRORS, PREAMBLE
from tests.reporting.typesetting_helpers import latex_log_problems

NAMES = [
    "svm_rbf & co",
    "forest 100%",
    "$cost$ tree",
    "knn_#k{3}",
    "naive_bayes~^",
    "ridge\\lasso_" + "x" * 28,  # 40 characters
]


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    rng = np.random.default_rng(7)
    scores = rng.normal(size=(24, len(NAMES))) * 0.5 + np.linspace(0, 1.5, len(NAMES))
    return pd.DataFrame(scores, columns=NAMES)


@pytest.fixture(scope="module")
def result(table) -> LettersResult:
    return nbstats.letters(nbstats.posthoc(table, method="nemenyi"))


def test_to_latex_of_names_with_specials_compiles(result, tmp_path: Path):
    xelatex = require_executable("xelatex", "apt-get install texlive-xetex lmodern")
    latex = result.to_latex(label="tab:letters")
    assert r"svm\_rbf \& co" in latex and r"forest 100\%" in latex
    assert r"\$cost\$ tree" in latex and r"knn\_\#k\{3\}" in latex
    (tmp_path / "letters.tex").write_text(latex, encoding="utf-8")
    source = PREAMBLE + "\\begin{document}\n\\input{letters}\n\\end{document}\n"
    (tmp_path / "article.tex").write_text(source, encoding="utf-8")
    done = subprocess.run(
        [xelatex, "-interaction=nonstopmode", "-halt-on-error", "article.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    log = (tmp_path / "article.log").read_text(encoding="utf-8", errors="replace")
    assert not ERRORS.findall(log)
    overfull, missing = latex_log_problems(log, tolerance=1.0)
    assert not overfull, overfull
    assert not missing, missing


def test_groups_are_those_of_multcompview(result, table, run_r):
    probe = subprocess.run(
        ["Rscript", "-e", "quit(status = !requireNamespace('multcompView'))"],
        capture_output=True,
    )
    if probe.returncode != 0:
        unavailable("R package multcompView (apt-get install r-cran-multcompview)")
    reject = nbstats.posthoc(table, method="nemenyi").reject
    # multcompView splits "a-b" at "-": R sees the names as x0, x1, …
    alias = {name: f"x{i}" for i, name in enumerate(NAMES)}
    pairs = list(itertools.combinations(NAMES, 2))
    values = ", ".join("TRUE" if reject.loc[a, b] else "FALSE" for a, b in pairs)
    labels = ", ".join(f'"{alias[a]}-{alias[b]}"' for a, b in pairs)
    answer = run_r(
        f"v <- c({values}); names(v) <- c({labels})\n"
        "l <- multcompView::multcompLetters(v)$Letters\n"
        "cat(paste0('[\"', paste(names(l), l, sep = '=', collapse = ';'), '\"]'))\n"
    )
    theirs = {
        NAMES[int(key[1:])]: shown
        for key, shown in (item.split("=") for item in answer[0].split(";"))
    }
    r_groups = {
        frozenset(n for n, shown in theirs.items() if letter in shown)
        for letter in set("".join(theirs.values()))
    }
    assert {frozenset(g) for g in result.groups} == r_groups
    assert len(r_groups) == 4  # an overlapping display, not a trivial one
    for letter, group in zip("abcd", result.groups, strict=True):
        assert {n for n in NAMES if letter in result.letters[n]} == set(group)


def test_table_frame_and_html(result, table):
    # mean ranks of the scores (1 = best: the highest score), by pandas
    expected = table.rank(axis=1, ascending=False).mean().sort_values()
    frame = result.to_frame()
    assert list(frame.columns) == ["algorithm", "mean_rank", "letters"]
    assert list(frame["algorithm"]) == list(expected.index)
    np.testing.assert_allclose(frame["mean_rank"], expected.to_numpy())
    assert list(frame["letters"]) == list(result.letters)
    page = result._repr_html_()
    assert "svm_rbf &amp; co" in page and "svm_rbf & co" not in page
    assert f">{expected.iloc[0]:.2f}<" in page  # mean ranks: 2 decimals
    text = result.summary()
    assert "mean rank" in text and f"{expected.iloc[-1]:.2f}" in text


def test_what_a_series_of_letters_offered(result):
    best = result.letters.index[0]
    assert result[best] == result.letters[best] == "a"
    assert list(result) == list(result.letters.index)
    assert len(result) == len(NAMES) and best in result
    assert list(result.index) == list(result.letters.index)
    assert result.reindex(NAMES).tolist() == [result.letters[n] for n in NAMES]
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        result.no_such_thing


def test_letters_from_a_matrix_of_rejections_have_no_procedure():
    names = ["a_1", "b_2", "c_3"]
    reject = pd.DataFrame(~np.eye(3, dtype=bool), index=names, columns=names)
    res = nbstats.letters(reject, pd.Series([1.0, 2.0, 3.0], index=names))
    assert isinstance(res, LettersResult)
    assert res.method is None and res.alpha is None
    assert res.groups == (("a_1",), ("b_2",), ("c_3",))
    assert res.summary().splitlines()[0] == "Compact letter display"
    assert r"a\_1" in res.to_latex()


def test_letters_have_no_series_plot_and_say_where_the_picture_is():
    import nbstats

    res = nbstats.letters(
        nbstats.posthoc(nbstats.datasets.load("demsar2006"), method="nemenyi")
    )
    for name in ("plot", "hist"):
        with pytest.raises(AttributeError, match=r"posthoc\(\.\.\.\)\.plot\(\)"):
            getattr(res, name)
    assert not hasattr(res, "plot")
    assert res.tolist() == list(res.letters)  # other Series attributes still work
