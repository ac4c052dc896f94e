"""TikZ critical-difference diagrams: compiled by xelatex and pdflatex, and the
same drawing as the matplotlib diagram (groups, rows, sides, CD)."""

from __future__ import annotations

import itertools
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots import cd_diagram, cd_tikz
from nbstats.plots.cd_layout import cd_layout
from nbstats.plots.labels import text_width
from nbstats.plots.style import paper_style
from tests.conftest import require_executable


def _compile(tmp_path, source: str, engine: str = "xelatex") -> str:
    """Typeset ``source``; return the PDF's text (pdftotext -layout)."""
    tex = require_executable(engine, "apt-get install texlive-xetex")
    pdftotext = require_executable("pdftotext", "apt-get install poppler-utils")
    (tmp_path / "cd.tex").write_text(source, encoding="utf-8")
    done = subprocess.run(
        [tex, "-interaction=nonstopmode", "-halt-on-error", "cd.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    log = (tmp_path / "cd.log").read_text(errors="replace")
    assert "Missing character" not in log
    return subprocess.run(
        [pdftotext, "-layout", str(tmp_path / "cd.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@pytest.fixture(scope="module")
def table6():
    return nbstats.datasets.load("demsar2006")


def test_demsar_nemenyi_compiles_with_both_engines(tmp_path, table6):
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    source = cd_tikz(res)
    for engine in ("xelatex", "pdflatex"):
        text = _compile(tmp_path, source, engine)
        for name in table6.columns:
            assert name in text
        assert "CD = 1.12" in text
        assert "Nemenyi test" in text


def test_same_groups_rows_and_sides_as_the_matplotlib_diagram(table6):
    # one geometry: the TikZ strokes are the layout's, and the matplotlib
    # diagram's group lines (in mean ranks) land on the same points
    res = nbstats.posthoc(table6, method="nemenyi", alpha=0.10)
    source = cd_tikz(res, width="article", standalone=False)
    with paper_style("article"):
        layout = cd_layout(res, 345.0)
    groups = re.findall(
        r"line width=2.2pt, line cap=rect\] \(([-\d.]+),([-\d.]+)\) -- "
        r"\(([-\d.]+),",
        source,
    )
    ax = cd_diagram(res, width="article")
    lines = [line for line in ax.lines if (line.get_gid() or "").startswith("group-")]
    visible = [line for line in lines if line.get_visible()]
    assert len(groups) == len(visible) == 2
    for line in visible:
        lo_rank, hi_rank = min(line.get_xdata()), max(line.get_xdata())
        # best (rank 1) on the right: the worst member is the left end
        # the line's first point is its best member, at the right
        right = layout.x_of(lo_rank)
        assert any(abs(float(g[0]) - right) < 6e-3 for g in groups)
        assert layout.x_of(hi_rank) < right
    # the better half is named on the right (anchor west), the other on the left
    for name in ("C4.5+m+cf", "C4.5+m"):
        assert re.search(rf"anchor=base west[^\n]*\{{{re.escape(name)}\}}", source)
    for name in ("C4.5", "C4.5+cf"):
        assert re.search(rf"anchor=base east[^\n]*\{{{re.escape(name)}\}}", source)
    assert "CD = 1.12" in source
    import matplotlib.pyplot as plt

    plt.close(ax.figure)


def test_control_band_and_marks_compile(tmp_path, table6):
    band = nbstats.posthoc(table6, method="bonferroni-dunn", control="C4.5", alpha=0.1)
    source = cd_tikz(band)
    assert "red,140;green,140;blue,140" in source and r"\textbf{C4.5}" in source
    assert "\\clip" in source  # the band is drawn over the axis only
    assert "against C4.5" in _compile(tmp_path, source)
    uci = nbstats.datasets.load("uci_accuracy")
    holm = nbstats.posthoc(uci, method="holm", control="nbc")
    source = cd_tikz(holm)
    rejected = int(holm.reject.sum())
    assert source.count("circle (2.25pt)") == rejected
    assert "significantly different" in _compile(tmp_path, source)


def test_hostile_and_long_names_and_reverse(tmp_path):
    rng = np.random.default_rng(0)
    names = [
        "a_b & 50% #1 {x}",
        "Ünïcödé–αβγ",
        "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
        "$\\relax",
        "tilde~caret^",
    ]
    table = pd.DataFrame(rng.normal(0, 1, (20, 5)) + np.arange(5), columns=names)
    res = nbstats.posthoc(table, method="nemenyi")
    source = cd_tikz(res, reverse=True)  # long names: letters and a key
    text = " ".join(_compile(tmp_path, source).split())  # the key wraps
    assert "HistGradientBoostingClassifier(max_iter=300, lr=0.05)" in text
    assert "a_b & 50%" in text and "#1 {x}" in text  # wrapped at the space
    assert "Ünïcödé–αβγ" in text
    plain = cd_tikz(res, aliases=False)
    assert "A: " not in plain


def test_bayesian_and_many_algorithms_compile(tmp_path):
    table = nbstats.datasets.load("demsar2006")
    joint = nbstats.bayes_posthoc(table, n_samples=2000, random_state=0)
    assert "Bayesian sign test" in _compile(tmp_path, cd_tikz(joint))
    rng = np.random.default_rng(1)
    wide = pd.DataFrame(
        rng.normal(0, 1, (30, 50)) + np.linspace(0, 2, 50),
        columns=[f"alg{j:02d}" for j in range(50)],
    )
    text = _compile(tmp_path, cd_tikz(nbstats.posthoc(wide, method="nemenyi")))
    assert "alg00" in text and "alg49" in text


def test_bad_input(table6):
    with pytest.raises(TypeError, match="PosthocResult"):
        cd_tikz(nbstats.friedman(table6))
    res = nbstats.posthoc(table6, method="nemenyi")
    with pytest.raises(ValueError, match="width"):
        cd_tikz(res, width=0)
    with pytest.raises(ValueError, match="venue"):
        cd_tikz(res, width="letter")
    with pytest.raises(ValueError, match="wide"):
        cd_tikz(res, width=8.0, wide=True)


def test_axis_covers_the_observed_mean_ranks_at_8_pt():
    # Fernández-Delgado et al.'s top 50: mean ranks from about 14 to 35, so
    # the axis is labelled from there, not from 1 to 50 (issue 27), both ends
    # labelled, no label closer to an end's than an em (issue 36: "37" and
    # "36" collided)
    table = nbstats.score_table(
        nbstats.datasets.load("fernandez_delgado2014_top50").dropna()
    )
    res = nbstats.posthoc(table, method="nemenyi")
    tikz = cd_tikz(res, standalone=False)
    ticks = [
        int(t)
        for t in re.findall(
            r"node\[anchor=south, font=\\fontsize\{8\}\{9.6\}\\selectfont, "
            r"yshift=1.5pt\] \{(\d+)\}",
            tikz,
        )
    ]
    low = int(np.floor(res.mean_ranks.min()))
    high = int(np.ceil(res.mean_ranks.max()))
    assert low > 5 and high < 45
    assert min(ticks) == low and max(ticks) == max(
        high, low + int(np.ceil(res.critical_difference))
    )
    with paper_style("twocolumn"):
        layout = cd_layout(res, 229.5)
        half = {t: text_width(str(t), 8) / 2 for t in ticks}
    xs = sorted((layout.x_of(t), t) for t in ticks)
    for (xa, a), (xb, b) in itertools.pairwise(xs):
        assert xb - xa >= half[a] + half[b] + 8 - 1e-9
    sizes = {float(v) for v in re.findall(r"\\fontsize\{([\d.]+)\}", tikz)}
    assert min(sizes) >= 8  # no text under 8 pt
    assert "\\scriptsize" not in tikz
