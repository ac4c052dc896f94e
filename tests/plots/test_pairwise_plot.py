"""Pairwise heatmaps: cell values, blank diagonal and marks come from the result."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots.pairwise import pairwise_heatmap
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


def _by_gid(artists, prefix: str) -> dict:
    return {a.get_gid(): a for a in artists if (a.get_gid() or "").startswith(prefix)}


def _cells(ax):
    """{gid: text} of the cells' numbers."""
    return _by_gid(ax.texts, "cell-")


def _fills(ax):
    """{"row-column": patch} of the coloured cells."""
    return {g.removeprefix("fill-"): p for g, p in _by_gid(ax.patches, "fill-").items()}


def _framed(ax):
    return {g.removeprefix("significant-") for g in _by_gid(ax.patches, "significant-")}


def _names(ax, prefix: str) -> list[str]:
    """The labels of rows (or columns) top to bottom (left to right), their
    lines joined."""
    found: dict[int, list[str]] = {}
    for t in ax.texts:
        gid = t.get_gid() or ""
        if gid.startswith(prefix):
            number = gid.removeprefix(prefix) or "0"
            found.setdefault(int(number), []).append(t.get_text())
    return ["\n".join(found[k]) for k in sorted(found)]


def _bar_label(ax) -> str:
    texts = [t for t in ax.texts if t.get_gid() == "colorbar-label"]
    return " ".join(t.get_text() for t in texts)


def _title(ax) -> str:
    return "\n".join(t.get_text() for t in ax.texts if t.get_gid() == "title")


def _colour(value: float, *, probability: bool) -> np.ndarray:
    """The old seaborn map's colour of a value: Blues (probabilities) or
    Blues_r on a log scale floored at 0.001 (p-values)."""
    from matplotlib import colormaps
    from matplotlib.colors import LogNorm, Normalize

    if probability:
        return np.asarray(colormaps["Blues"](Normalize(0.0, 1.0)(value)))
    return np.asarray(colormaps["Blues_r"](LogNorm(1e-3, 1.0, clip=True)(value)))


def _check_matrix(
    ax, values: pd.DataFrame, marked: pd.DataFrame, *, probability: bool = False
):
    """The map shows ``values`` ordered by mean rank and marks ``marked``;
    every number printed is the number policy's, every cell on one grid."""
    from nbstats.results.number_policy import format_column

    one_column = len(values.index) == 1  # a control: drawn as one column
    rows = _names(ax, "row-")
    expected_rows = values.columns if one_column else values.index
    assert rows == [literal(n) for n in expected_rows]
    if not one_column:
        assert _names(ax, "column-") == rows
    expected = values.to_numpy(dtype=float)
    diagonal = np.isnan(expected)
    kind = "probability" if probability else "pvalue"
    printed = np.array(format_column(list(expected.ravel()), kind).cells).reshape(
        expected.shape
    )
    cells, fills = _cells(ax), _fills(ax)
    assert len(cells) == len(fills) == (~diagonal).sum()
    bold = set()
    for i, a in enumerate(values.index):
        for j, b in enumerate(values.columns):
            if diagonal[i, j]:
                assert f"cell-{a}-{b}" not in cells and f"{a}-{b}" not in fills
                continue
            text, fill = cells[f"cell-{a}-{b}"], fills[f"{a}-{b}"]
            assert text.get_text() == printed[i, j]
            np.testing.assert_allclose(
                fill.get_facecolor(),
                _colour(expected[i, j], probability=probability),
                atol=0.5 / 255 + 1e-9,  # a colour is written in 8 bits a channel
            )
            # the number at its cell's centre
            x, y = text.get_position()
            assert x == pytest.approx(fill.get_x() + fill.get_width() / 2)
            assert y == pytest.approx(fill.get_y() + fill.get_height() / 2)
            if text.get_fontweight() == "bold":
                bold.add(f"{a}-{b}")
    wanted = {
        f"{a}-{b}" for a in marked.index for b in marked.columns if marked.loc[a, b]
    }
    assert bold == wanted
    assert _framed(ax) == wanted


def test_adjusted_pvalues_by_mean_rank(table6):
    result = nbstats.comparison_matrix(table6)
    ax = pairwise_heatmap(result)
    values = result.adjusted.loc[DEMSAR_ORDER, DEMSAR_ORDER]
    _check_matrix(ax, values, result.reject.loc[DEMSAR_ORDER, DEMSAR_ORDER])
    # Holm-adjusted Wilcoxon: only C4.5 vs C4.5+m is significant at 0.05
    assert _framed(ax) == {"C4.5+m-C4.5", "C4.5-C4.5+m"}
    assert _cells(ax)["cell-C4.5-C4.5+m"].get_text() == "0.047"
    assert _bar_label(ax) == "adjusted p-value (Holm)"
    assert "significant at α = 0.05" in _title(ax)


def test_many_rejections(spread):
    for method in ["nemenyi", "holm", "wilcoxon", "ttest"]:
        if method in ("wilcoxon", "ttest"):
            result = nbstats.comparison_matrix(spread, test=method)
        else:
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
    result = nbstats.comparison_matrix(spread)
    order = list(result.mean_ranks.sort_values().index)
    ax = pairwise_heatmap(result, kind="unadjusted", width="double")
    _check_matrix(ax, result.pvalues.loc[order, order], result.reject.loc[order, order])
    assert _bar_label(ax) == "unadjusted p-value"


def test_control_result_is_one_row(table6):
    result = nbstats.posthoc(table6, method="holm", control="C4.5")
    ax = pairwise_heatmap(result)
    others = [n for n in DEMSAR_ORDER if n != "C4.5"]
    values = result.adjusted.loc[others].to_frame("C4.5").T
    _check_matrix(ax, values, result.reject.loc[others].to_frame("C4.5").T)
    # Demšar's Holm example: C4.5+m+cf and C4.5+m differ from C4.5
    assert _framed(ax) == {"C4.5-C4.5+m+cf", "C4.5-C4.5+m"}
    assert _names(ax, "control") == ["control: C4.5"]
    assert "vs C4.5" in _title(ax)


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
    assert _bar_label(ax) == "P(column better than row)"
    # the bar's ends are 0 and 1 (its tick labels)
    ends = {t.get_text() for t in ax.texts if t.get_gid().startswith("colorbar-text")}
    assert {"0", "1"} <= ends


def test_annotate_false_keeps_the_frames(table6):
    result = nbstats.comparison_matrix(table6)
    ax = pairwise_heatmap(result, annotate=False)
    assert not _cells(ax)
    assert _framed(ax) == {"C4.5+m-C4.5", "C4.5-C4.5+m"}


def test_annotations_fit_their_cells(spread):
    ax = pairwise_heatmap(nbstats.posthoc(spread, method="nemenyi"), width="double")
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    fills = _fills(ax)
    assert _cells(ax)
    for gid, text in _cells(ax).items():
        box = text.get_window_extent(renderer)
        cell = fills[gid.removeprefix("cell-")].get_window_extent(renderer)
        assert cell.x0 < box.x0 and box.x1 < cell.x1
        assert cell.y0 < box.y0 and box.y1 < cell.y1
        assert text.get_fontsize() >= 8


def test_numbers_left_out_when_they_do_not_fit_a_cell(spread):
    # six algorithms in one column: "< 0.001" is wider than a cell
    ax = pairwise_heatmap(nbstats.posthoc(spread, method="nemenyi"))
    assert not _cells(ax)
    assert len(_fills(ax)) == 30 and _framed(ax)


def test_nasty_names_render_literally(tmp_path):
    rng = np.random.default_rng(2)
    scores = pd.DataFrame(rng.normal(size=(20, 5)) + np.arange(5) * 0.5, columns=NASTY)
    ax = pairwise_heatmap(nbstats.posthoc(scores, method="holm", control="$5"))
    assert _names(ax, "control") == [f"control: {literal('$5')}"]
    assert "vs \\$5" in _title(ax)
    plt.close(ax.figure)
    ax = pairwise_heatmap(nbstats.comparison_matrix(scores))
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
    assert not left.patches and not left.texts
    assert len(_fills(right)) == 12


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


def test_unadjusted_pvalues_say_so(table6):
    """adjust="none": the colour bar says "unadjusted p-value", as the
    post-hoc titles say "unadjusted", not "adjusted p-value (none)"."""
    result = nbstats.comparison_matrix(table6, adjust="none")
    ax = pairwise_heatmap(result)
    assert _bar_label(ax) == "unadjusted p-value"
