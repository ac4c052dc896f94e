"""The signed-rank posterior's one geometry (issue 36): what it shows, that it
is readable at every width, and that both renderers draw it in the same place.

Oracles: the number policy applied here to probabilities computed here from
the draws; matplotlib's own text extents (tests/plots/readability.py) for
overlap, size and fit; the SVG parsed back with xml.etree for the SVG
renderer. Data: the bundled UCI accuracies, fixed seeds.
"""

from __future__ import annotations

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pytest
from plot_helpers import assert_renderers_agree, drawn_items
from readability import problems

import nbstats
from nbstats.plots.chart_layout import DASHBOARD, PAPER
from nbstats.plots.figure_model import Stroke, Text
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.picture_svg import picture_svg
from nbstats.plots.posterior import signrank_layout, signrank_picture
from nbstats.plots.style import paper_style
from nbstats.results.number_policy import format_number, format_relation

SVG = "{http://www.w3.org/2000/svg}"
LONG_A = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
LONG_B = "RandomForestClassifier(n_estimators=500, max_depth=None)"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def results(uci):
    rope = nbstats.bayes_signrank(uci["nbc"], uci["j48"], rope=0.01, random_state=0)
    a = uci["nbc"].to_numpy()
    return {
        "idp": nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0),
        "bb": nbstats.bayes_signrank(
            uci["nbc"], uci["aode"], prior="bb", random_state=1
        ),
        "idp-rope": rope,
        "bb-rope": nbstats.bayes_signrank(
            uci["nbc"], uci["j48"], prior="bb", rope=0.01, random_state=0
        ),
        "long": dataclasses.replace(rope, name_a=LONG_A, name_b=LONG_B),
        "point": nbstats.bayes_signrank(a, a + 0.01, prior="bb", random_state=0),
    }


def layout(result, width=238.0, style=PAPER, **kw):
    with paper_style():
        return signrank_layout(
            signrank_picture(result, None, True), width, style=style, **kw
        )


def _p(value: float) -> str:
    return format_number(float(value), "probability")


@pytest.mark.parametrize("name", ["idp", "bb", "idp-rope", "bb-rope", "point"])
def test_legend_prints_the_probabilities_as_the_number_policy(results, name):
    result = results[name]
    legend = layout(result).legend
    if result.prob_rope is not None:  # P(θ > ½) of the draws, not a region share
        draws = [result.samples_lower, result.samples_upper]
        if result.prior != "idp":
            draws = [result.samples]
        probs = [np.mean(np.asarray(d) > 0.5 + 1e-12) for d in draws]
    elif result.prior == "idp":
        probs = [result.prob_lower, result.prob_upper]
    else:
        probs = [result.prob_right]
    if result.prior == "idp":
        expected = f"P(θ > ½): lower {_p(probs[0])} / upper {_p(probs[1])}"
    else:
        expected = f"P(θ > ½) {format_relation(float(probs[0]), 'probability')}"
    assert expected in legend
    low, high = result.credible_interval
    assert any(f"[{low:.2f}, {high:.2f}]" in text for text in legend)
    # no probability printed as a bare 0 or 1 anywhere in the picture
    for item in layout(result).picture.items:
        if isinstance(item, Text) and "P(" in " ".join(item.lines):
            words = " ".join(item.lines).replace(",", " ").split()
            assert "1" not in words and "0" not in words and "1.000" not in words


def test_a_sure_posterior_reads_above_0999(results):
    """θ = 1 in every draw: P(θ > ½) is "> 0.999", never "= 1" (as in tables)."""
    legend = layout(results["point"]).legend
    assert "P(θ > ½) > 0.999" in legend


@pytest.mark.parametrize("name", ["idp", "bb", "idp-rope", "long", "point"])
@pytest.mark.parametrize(
    ("width", "style", "smallest"),
    [(237.6, PAPER, 8.0), (496.8, PAPER, 8.0), (374.4, DASHBOARD, 7.0)],
    ids=["single", "double", "dashboard"],
)
def test_readable_at_every_width(results, name, width, style, smallest):
    """No text overlaps another or leaves the picture, none is below the
    style's size: measured by matplotlib's renderer, not by the layout."""
    geometry = layout(results[name], width, style)
    pic = geometry.picture
    assert pic.width == width
    sizes = [item.size for item in pic.items if isinstance(item, Text)]
    assert min(sizes) >= smallest
    with paper_style():
        ax = draw_picture(pic)
    import readability

    readability.MIN_FONT, before = smallest, readability.MIN_FONT
    try:
        assert problems(ax.figure) == []
    finally:
        readability.MIN_FONT = before
    # the data and the axes stay inside the picture
    for item in pic.items:
        points = getattr(item, "points", None)
        if points:
            xs, ys = np.array(points).T
            assert xs.min() >= -0.5 and xs.max() <= width + 0.5
            assert ys.min() >= -0.5 and ys.max() <= pic.height + 0.5


def test_dashboard_axes_stay_in_place(results, uci):
    """Between redraws (a new threshold, s, a rope) the box does not move."""
    frames = set()
    for kw in [{}, {"threshold": 0.8}, {"s": 4.0}, {"rope": 0.01}, {"prior": "bb"}]:
        res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0, **kw)
        frame = layout(res, 374.4, DASHBOARD).frame
        frames.add((frame.left, frame.top, frame.right, frame.bottom))
    assert len(frames) == 1


# -- the two renderers ----------------------------------------------------------


@pytest.mark.parametrize("name", ["idp", "bb", "idp-rope", "long", "point"])
@pytest.mark.parametrize("style", [PAPER, DASHBOARD], ids=["paper", "dashboard"])
def test_both_renderers_draw_the_same_picture(results, name, style):
    geometry = layout(results[name], 374.4 if style is DASHBOARD else 237.6, style)
    gids = [item.gid for item in geometry.picture.items]
    assert len(gids) == len(set(gids))  # each item found by its gid alone
    assert_renderers_agree(geometry.picture)


def test_paper_figure_and_dashboard_are_one_geometry(results):
    """signrank_posterior draws the layout's picture; signrank_svg writes it."""
    from nbstats.plots.posterior import signrank_posterior
    from nbstats.widgets.posterior_svg import signrank_svg

    result = results["idp"]
    ax = signrank_posterior(result)
    expected = layout(result, 237.6).picture
    drawn = drawn_items(ax)
    for item in expected.items:
        if isinstance(item, Stroke):
            np.testing.assert_allclose(drawn[item.gid], item.points, atol=1e-9)
    svg = signrank_svg(signrank_picture(result, None, True), "alt")
    assert svg == picture_svg(layout(result, 374.4, DASHBOARD, alt="alt").picture)
