"""The fold dashboard's pictures and the correlated t-test's figure: one
geometry (issue 36), drawn by matplotlib and written as SVG.

Oracles: scipy's Student t (density and tail probabilities, computed here),
the number policy applied here, matplotlib's own text extents
(tests/plots/readability.py) for overlap, size and fit. Data: a seeded
10-fold pair; the fold dashboard's tests cover the real per-fold data.
"""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pytest
import scipy.stats
from matplotlib.lines import Line2D
from matplotlib.patches import Polygon
from plot_helpers import assert_renderers_agree, by_gid, picture_axes, text_of

import nbstats
from nbstats.plots._common import legend_texts
from nbstats.plots.chart_layout import DASHBOARD, PAPER
from nbstats.plots.figure_model import Rect, Text
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.student import correlated_posterior, regions_layout, student_layout
from nbstats.plots.style import paper_style
from nbstats.results.number_policy import format_number, format_relation

LONG_A = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
LONG_B = "RandomForestClassifier(n_estimators=500, max_depth=None)"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def results():
    rng = np.random.default_rng(0)
    a = 0.8 + 0.01 * rng.standard_normal(10)
    b = a + 0.004 + 0.006 * rng.standard_normal(10)
    rope = nbstats.bayes_correlated_ttest(a, b, rope=0.005, folds=10)
    return {
        "rope": rope,
        "no-rope": nbstats.bayes_correlated_ttest(a, b, folds=10),
        "long": dataclasses.replace(rope, name_a=LONG_A, name_b=LONG_B),
        "point": nbstats.bayes_correlated_ttest(a, a + 0.01, rope=0.005, folds=10),
    }


def test_curve_and_areas_are_scipys_student_t(results):
    result = results["rope"]
    ax = correlated_posterior(result)
    to_x, to_y = picture_axes(ax)
    t = scipy.stats.t(result.df, loc=result.mean, scale=result.scale)
    points = by_gid(ax, "posterior", Line2D).get_xydata()
    x, y = to_x(points[:, 0]), to_y(points[:, 1])
    np.testing.assert_allclose(y, t.pdf(x), atol=1e-6 * t.pdf(result.mean))
    # the view: the central 99.9 % of the posterior
    assert x[0] == pytest.approx(t.ppf(0.0005)) and x[-1] == pytest.approx(
        t.ppf(0.9995)
    )
    for gid, inside in (
        ("left", lambda v: v <= -0.005 + 1e-9),
        ("right", lambda v: v >= 0.005 - 1e-9),
    ):
        corners = by_gid(ax, gid, Polygon).get_xy()
        assert np.all(inside(to_x(corners[:, 0])))
        top = to_y(corners[:, 1])
        # under the curve (its cut ends linearly interpolated on the grid)
        assert np.all(top <= t.pdf(to_x(corners[:, 0])) + 1e-3 * top.max())
    band = to_x(by_gid(ax, "rope", Polygon).get_xy()[:, 0])
    assert band.min() == pytest.approx(-0.005) and band.max() == pytest.approx(0.005)


@pytest.mark.parametrize("name", ["rope", "no-rope", "point"])
def test_legend_prints_scipys_probabilities_as_the_number_policy(results, name):
    result = results[name]
    with paper_style():
        legend = student_layout(result, ("a", "b"), "", 237.6).legend
    rope = float(result.rope)
    if result.scale > 0:
        t = scipy.stats.t(result.df, loc=result.mean, scale=result.scale)
        left, right = t.cdf(-rope), t.sf(rope)
    else:  # all the mass at the mean
        left, right = float(result.mean < -rope), float(result.mean > rope)
    assert left == pytest.approx(result.prob_left, abs=1e-12)
    assert f"P(a better) {format_relation(float(left), 'probability')}" in legend
    assert f"P(b better) {format_relation(float(right), 'probability')}" in legend
    if rope > 0:
        middle = format_relation(float(1 - left - right), "probability")
        assert f"P(rope ±{rope:g}) {middle}" in legend
    assert all(" = 1" not in text and " = 0\u0020" not in text for text in legend)


def test_a_sure_difference_reads_above_0999(results):
    with paper_style():
        legend = student_layout(results["point"], ("a", "b"), "", 237.6).legend
    assert "P(b better) > 0.999" in legend and "P(a better) < 0.001" in legend


@pytest.mark.parametrize("name", ["rope", "no-rope", "long", "point"])
@pytest.mark.parametrize(
    ("width", "style", "smallest"),
    [(237.6, PAPER, 8.0), (496.8, PAPER, 8.0), (374.4, DASHBOARD, 7.0)],
    ids=["single", "double", "dashboard"],
)
def test_readable_and_both_renderers_agree(results, name, width, style, smallest):
    import readability

    result = results[name]
    title = f"{result.name_a} vs {result.name_b} on anneal"
    with paper_style():
        pic = student_layout(
            result, (result.name_a, result.name_b), title, width, style=style
        ).picture
        ax = draw_picture(pic)
    assert min(i.size for i in pic.items if isinstance(i, Text)) >= smallest
    readability.MIN_FONT, before = smallest, readability.MIN_FONT
    try:
        assert readability.problems(ax.figure) == []
    finally:
        readability.MIN_FONT = before
    gids = [item.gid for item in pic.items]
    assert len(gids) == len(set(gids))
    assert_renderers_agree(pic)


def test_correlated_posterior_keeps_its_texts(results):
    ax = correlated_posterior(results["rope"])
    assert legend_texts(ax)[0].startswith("Student t(")
    assert text_of(ax, "title") == "A vs B: Bayesian correlated t-test" or (
        "Bayesian correlated t-test" in text_of(ax, "title")
    )
    _, (left, right) = plt.subplots(1, 2)
    assert correlated_posterior(results["rope"], ax=right) is right
    assert len(legend_texts(right)) == 4 and not left.texts


# -- the stacked bars of every data set -----------------------------------------


def _regions(q=12, rope=True, width=374.4, long=False):
    rng = np.random.default_rng(1)
    left, right = rng.uniform(0, 0.5, q), rng.uniform(0, 0.5, q)
    middle = 1 - left - right
    if not rope:  # two regions fill the bar
        right, middle = 1 - left, np.zeros(q)
    cases = [
        f"data set {k}" + (" with a long name" * 3 if long else "") for k in range(q)
    ]
    with paper_style():
        geometry = regions_layout(
            cases,
            left,
            middle if rope else None,
            right,
            labels=("nbc", "aode"),
            threshold=0.95,
            title="nbc vs aode: each data set",
            width=width,
        )
    return geometry, cases, left, middle, right


@pytest.mark.parametrize("rope", [True, False])
def test_bars_are_the_probabilities_sorted(rope):
    geometry, cases, left, middle, right = _regions(rope=rope)
    pic = geometry.picture
    order = np.lexsort((np.arange(len(cases)), right - left))
    axis = next(i for i in pic.items if i.gid == "axis").points
    x0, x1 = axis[0][0], axis[1][0]
    for row, k in enumerate(order):
        name = next(i for i in pic.items if i.gid == f"name-{row}")
        assert name.lines == (cases[k],)
        p = [format_number(v, "probability") for v in (left[k], middle[k], right[k])]
        if not rope:
            p[1] = "–"
        assert name.tooltip == (
            f"{cases[k]}: P(nbc better) {p[0]}, P(rope) {p[1]}, P(aode better) {p[2]}"
        )
        bars = {i.gid.rsplit("-", 1)[1]: i for i in pic.items_of(f"bar-{row}-")}
        assert isinstance(bars["left"], Rect)
        assert bars["left"].x == pytest.approx(x0)
        assert bars["left"].width == pytest.approx(left[k] * (x1 - x0))
        assert bars["right"].width == pytest.approx(right[k] * (x1 - x0))
        assert bars["right"].x + bars["right"].width == pytest.approx(x1)
        assert ("rope" in bars) == rope
    assert len(geometry.legend) == (4 if rope else 3)


@pytest.mark.parametrize("long", [False, True])
def test_bars_readable_and_both_renderers_agree(long):
    import readability

    geometry, *_ = _regions(long=long)
    with paper_style():
        ax = draw_picture(geometry.picture)
    readability.MIN_FONT, before = 7.0, readability.MIN_FONT
    try:
        assert readability.problems(ax.figure) == []
    finally:
        readability.MIN_FONT = before
    assert_renderers_agree(geometry.picture)
