"""Pairwise heatmaps: cell values, blank diagonal and marks come from the result."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import QuadMesh

import nbstats
from nbstats.plots.pairwise import cell_text, pairwise_heatmap
from nbstats.plots.style import literal, save

NASTY = ["a_b", "x & y", "$5", "50%", "Ærø"]
DEMSAR_ORDER = ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]  # by mean rank


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def spread():
    """Six algorithms far enough apart that many pairs are significant."""
    rng = np.random.default_rng(7)
    names = ["f", "e", "d", "c", "b", "a"]
    scores = rng.normal(size=(30, 6)) + np.array([0.0, 0.1, 0.9, 1.0, 1.8, 1.9])
    return pd.DataFrame(scores, columns=names)


def _mesh(ax):
    (mesh,) = [c for c in ax.collections if isinstance(c, QuadMesh)]
    return mesh


def _cells(ax):
    """{gid: text} of the annotations."""
    return {t.get_gid(): t for t in ax.texts if (t.get_gid() or "").startswith("cell-")}


def _framed(ax):
    return {
        p.get_gid().removeprefix("significant-")
        for p in ax.patches
        if (p.get_gid() or "").startswith("significant-")
    }


def _check_matrix(
    ax, values: pd.DataFrame, marked: pd.DataFrame, *, probability: bool = False
):
    """The map shows ``values`` ordered by mean rank and marks ``marked``."""
    names = list(values.index)
    assert [t.get_text() for t in ax.get_yticklabels()] == [literal(n) for n in names]
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        literal(n) for n in values.columns
    ]
    array = _mesh(ax).get_array()
    assert array.shape == values.shape
    expected = values.to_numpy(dtype=float)
    diagonal = np.isnan(expected)
    assert np.array_equal(np.ma.getmaskarray(array), diagonal)
    np.testing.assert_allclose(array.filled(np.nan), expected, equal_nan=True)
    cells = _cells(ax)
    assert len(cells) == (~diagonal).sum()
    bold = set()
    for i, a in enumerate(values.index):
        for j, b in enumerate(values.columns):
            if diagonal[i, j]:
                assert f"cell-{a}-{b}" not in cells
                continue
            text = cells[f"cell-{a}-{b}"]
            wanted = cell_text(expected[i, j], probability=probability)
            assert text.get_text() == wanted
            assert text.get_position() == (j + 0.5, i + 0.5)
            if text.get_fontweight() == "bold":
                bold.add(f"{a}-{b}")
    wanted = {
        f"{a}-{b}" for a in marked.index for b in marked.columns if marked.loc[a, b]
    }
    assert bold == wanted
    assert _framed(ax) == wanted


def test_adjusted_pvalues_by_mean_rank(table6):
    result = nbstats.posthoc(table6, method="wilcoxon")
    ax = pairwise_heatmap(result)
    values = result.adjusted.loc[DEMSAR_ORDER, DEMSAR_ORDER]
    _check_matrix(ax, values, result.reject.loc[DEMSAR_ORDER, DEMSAR_ORDER])
    # Holm-adjusted Wilcoxon: only C4.5 vs C4.5+m is significant at 0.05
    assert _framed(ax) == {"C4.5+m-C4.5", "C4.5-C4.5+m"}
    assert _cells(ax)["cell-C4.5-C4.5+m"].get_text() == ".047"
    colorbar = _mesh(ax).colorbar
    assert colorbar.ax.get_ylabel() == "adjusted p-value (Holm)"
    assert "significant at α = 0.05" in ax.get_title()


def test_many_rejections(spread):
    for method in ["nemenyi", "holm", "wilcoxon", "ttest"]:
        result = nbstats.posthoc(spread, method=method)
        order = list(result.mean_ranks.sort_values().index)
        assert order[:2] == ["a", "b"]  # the best first
        ax = pairwise_heatmap(result, width="double")  # values at 8 pt
        _check_matrix(
            ax,
            result.adjusted.loc[order, order],
            result.reject.loc[order, order],
        )
        assert len(_framed(ax)) == int(result.reject.to_numpy().sum()) > 4
        plt.close(ax.figure)


def test_unadjusted_kind_is_framed_by_the_adjusted_decisions(spread):
    result = nbstats.posthoc(spread, method="wilcoxon")
    order = list(result.mean_ranks.sort_values().index)
    ax = pairwise_heatmap(result, kind="unadjusted", width="double")
    _check_matrix(ax, result.pvalues.loc[order, order], result.reject.loc[order, order])
    assert _mesh(ax).colorbar.ax.get_ylabel() == "unadjusted p-value"


def test_control_result_is_one_row(table6):
    result = nbstats.posthoc(table6, method="holm", control="C4.5")
    ax = pairwise_heatmap(result)
    others = [n for n in DEMSAR_ORDER if n != "C4.5"]
    values = result.adjusted.loc[others].to_frame("C4.5").T
    _check_matrix(ax, values, result.reject.loc[others].to_frame("C4.5").T)
    # Demšar's Holm example: C4.5+m+cf and C4.5+m differ from C4.5
    assert _framed(ax) == {"C4.5-C4.5+m+cf", "C4.5-C4.5+m"}
    assert ax.get_ylabel() == "control"
    assert "vs C4.5" in ax.get_title()


def test_bayes_probabilities(table6):
    result = nbstats.bayes_posthoc(table6, n_samples=4000, random_state=1)
    ax = pairwise_heatmap(result)
    accepted = result.statements[result.statements["accepted"]]
    assert len(accepted) >= 2
    marked = pd.DataFrame(False, index=DEMSAR_ORDER, columns=DEMSAR_ORDER)
    for better, worse in zip(accepted["better"], accepted["worse"], strict=True):
        marked.loc[worse, better] = True  # row worse, column better
    values = result.probabilities.loc[DEMSAR_ORDER, DEMSAR_ORDER]
    _check_matrix(ax, values, marked, probability=True)
    colorbar = _mesh(ax).colorbar
    assert colorbar.ax.get_ylabel() == "P(column better than row)"
    assert colorbar.norm.vmin == 0 and colorbar.norm.vmax == 1


def test_annotate_false_keeps_the_frames(table6):
    result = nbstats.posthoc(table6, method="wilcoxon")
    ax = pairwise_heatmap(result, annotate=False)
    assert not _cells(ax)
    assert _framed(ax) == {"C4.5+m-C4.5", "C4.5-C4.5+m"}


def test_annotations_fit_their_cells(spread):
    ax = pairwise_heatmap(nbstats.posthoc(spread, method="nemenyi"))
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    corner = ax.transData.transform([[0, 0], [1, 1]])
    cell = np.abs(corner[1] - corner[0])
    for text in _cells(ax).values():
        box = text.get_window_extent(renderer)
        assert box.width < cell[0] and box.height < cell[1]
        assert text.get_fontsize() >= 4


def test_compact_format():
    assert cell_text(0.0004) == "<.001"
    assert cell_text(0.03) == ".030"
    assert cell_text(0.23) == ".23"
    assert cell_text(0.0469) == ".047"
    assert cell_text(1.0) == "1"
    # a posterior probability is an estimate: never printed as 0 or 1
    assert cell_text(1.0, probability=True) == ">.999"
    assert cell_text(0.0, probability=True) == "<.001"
    assert cell_text(0.9999) == ">.999"
    assert cell_text(np.nan) == ""
    assert cell_text(0.0) == "0"


def test_nasty_names_render_literally(tmp_path):
    rng = np.random.default_rng(2)
    scores = pd.DataFrame(rng.normal(size=(20, 5)) + np.arange(5) * 0.5, columns=NASTY)
    ax = pairwise_heatmap(nbstats.posthoc(scores, method="holm", control="$5"))
    assert ax.get_yticklabels()[0].get_text() == literal("$5")
    assert "vs \\$5" in ax.get_title()
    plt.close(ax.figure)
    ax = pairwise_heatmap(nbstats.posthoc(scores, method="wilcoxon"))
    save(ax.figure, tmp_path / "nasty.svg")
    svg = (tmp_path / "nasty.svg").read_text(encoding="utf-8")
    for name in ["a_b", "x &amp; y", "$5", "50%", "Ærø"]:
        assert f">{name}<" in svg
    assert "\\$" not in svg


def test_saves_png_and_svg(tmp_path, table6):
    results = {
        "pvalues": nbstats.posthoc(table6, method="nemenyi"),
        "control": nbstats.posthoc(table6, method="holm", control="C4.5"),
        "bayes": nbstats.bayes_posthoc(table6, n_samples=2000, random_state=0),
    }
    for name, result in results.items():
        ax = pairwise_heatmap(result)
        for suffix in ("png", "svg"):
            path = tmp_path / f"{name}.{suffix}"
            save(ax.figure, path)
            assert path.stat().st_size > 1000
        plt.close(ax.figure)


def test_draws_on_a_given_axes(table6):
    _fig, (left, right) = plt.subplots(1, 2)
    assert pairwise_heatmap(nbstats.posthoc(table6), ax=right) is right
    assert not left.collections


def test_bad_input(table6):
    with pytest.raises(TypeError, match="PosthocResult.*BayesPosthocResult"):
        pairwise_heatmap(nbstats.rank_ci(table6, method="id-nemenyi"))
    with pytest.raises(TypeError, match="PosthocResult"):
        pairwise_heatmap(table6)
    with pytest.raises(ValueError, match="kind"):
        pairwise_heatmap(nbstats.posthoc(table6), kind="probabilities")
    bayes = nbstats.bayes_posthoc(table6, n_samples=1000, random_state=0)
    with pytest.raises(ValueError, match="kind"):
        pairwise_heatmap(bayes, kind="pvalues")
