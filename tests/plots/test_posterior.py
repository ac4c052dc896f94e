"""Signed-rank posterior plots, and what every posterior plot shares.

Data: the bundled UCI accuracies (nbc vs aode/j48, Benavoli et al.'s
tutorial data); every posterior uses a fixed random_state (fixtures in
conftest.py).
"""

from __future__ import annotations

import dataclasses
import re

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.lines import Line2D
from matplotlib.patches import Polygon
from plot_helpers import NASTY, by_gid, gids, has_region_samples, picture_axes, text_of

import nbstats
from nbstats.plots._common import (
    format_probability,
    legend_texts,
)
from nbstats.plots.friedman import friedman_posterior
from nbstats.plots.posterior import signrank_posterior
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.sign import sign_posterior
from nbstats.plots.style import WIDTHS
from nbstats.results.number_policy import format_number, format_relation


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------ signed-rank


def _curve(ax, gid):
    """A drawn curve mapped back to data by the axes its ticks show."""
    to_x, to_y = picture_axes(ax)
    points = by_gid(ax, gid, Line2D).get_xydata()
    return to_x(points[:, 0]), to_y(points[:, 1])


def _view(ax):
    """The x range the box shows: the bottom spine's ends, in data."""
    to_x, _ = picture_axes(ax)
    spine = by_gid(ax, "spines", Line2D).get_xydata()
    return float(to_x(spine[:, 0].min())), float(to_x(spine[:, 0].max()))


def test_signrank_idp_draws_lower_and_upper_curves(idp):
    ax = signrank_posterior(idp)
    low, high = _view(ax)
    curves = {}
    for gid, samples in (
        ("posterior-lower", idp.samples_lower),
        ("posterior-upper", idp.samples_upper),
    ):
        x, y = _curve(ax, gid)
        curves[gid] = (x, y)
        # the curve spans the view, cut at its ends
        assert x[0] == pytest.approx(low, abs=1e-6)
        assert x[-1] == pytest.approx(high, abs=1e-6)
        assert np.all(np.diff(x) > 0) and np.all(y >= -1e-6)
        # a density: the view holds all but a sliver of its mass
        assert np.trapezoid(y, x) == pytest.approx(1.0, abs=3e-3)
        # its mean is the draws' mean
        assert np.trapezoid(x * y, x) == pytest.approx(np.mean(samples), abs=3e-3)
    # the upper posterior lies to the right of the lower one
    mean = [np.trapezoid(x * y, x) for x, y in curves.values()]
    assert mean[0] < mean[1]
    lower = by_gid(ax, "posterior-lower", Line2D)
    upper = by_gid(ax, "posterior-upper", Line2D)
    assert upper.get_linestyle() != lower.get_linestyle()  # apart in greyscale too


def test_signrank_curve_is_an_independent_density(idp):
    """Each drawn point is the density at its θ: a reflected Gaussian kernel
    sum over the draws (Scott's bandwidth), evaluated directly, mapped to
    points by the affine map the ticks show."""
    ax = signrank_posterior(idp)
    x, y = _curve(ax, "posterior-lower")
    draws = idp.samples_lower[::10]
    h = np.std(idp.samples_lower, ddof=1) * idp.samples_lower.size ** (-1 / 5)
    at = x[:: max(1, x.size // 60)]

    def kernel(u):
        return np.exp(-0.5 * ((at[:, None] - u[None, :]) / h) ** 2).sum(axis=1)

    direct = (kernel(draws) + kernel(-draws) + kernel(2 - draws)) / (
        draws.size * h * np.sqrt(2 * np.pi)
    )
    drawn = y[:: max(1, x.size // 60)]
    # a tenth of the draws: within a few percent of the peak
    np.testing.assert_allclose(drawn, direct, atol=0.04 * direct.max())


def test_signrank_shaded_area_is_beyond_half_under_the_lower_curve(idp):
    ax = signrank_posterior(idp)
    to_x, to_y = picture_axes(ax)
    shade = by_gid(ax, "beyond-half", Polygon).get_xy()
    sx, sy = to_x(shade[:, 0]), to_y(shade[:, 1])
    assert sx.min() == pytest.approx(0.5, abs=1e-9)
    assert np.all(sx >= 0.5 - 1e-9)
    # its top edge is the lower curve, and its area P(θ > ½) under that curve
    x, y = _curve(ax, "posterior-lower")
    assert np.all(sy <= np.interp(sx, x, y) + 1e-6)
    # the shaded polygon's own area (shoelace formula, in data units)
    area = 0.5 * abs(np.dot(sx, np.roll(sy, 1)) - np.dot(sy, np.roll(sx, 1)))
    assert area == pytest.approx(idp.prob_lower, abs=0.01)
    # the printed probabilities are the result's, as the number policy writes them
    expected = (
        f"P(θ > ½): lower {format_number(idp.prob_lower, 'probability')} / "
        f"upper {format_number(idp.prob_upper, 'probability')}"
    )
    assert expected in legend_texts(ax)
    assert re.fullmatch(r"P\(θ > ½\): lower 0\.\d{3} / upper 0\.\d{3}", expected)


def test_signrank_half_line_interval_and_decision(idp):
    ax = signrank_posterior(idp)
    to_x, _ = picture_axes(ax)
    half = by_gid(ax, "half", Line2D)
    assert to_x(half.get_xdata()) == pytest.approx([0.5, 0.5])
    interval = by_gid(ax, "credible-interval", Line2D)
    assert tuple(to_x(interval.get_xdata())) == pytest.approx(
        idp.credible_interval, abs=1e-6
    )
    assert any("95% credible interval" in text for text in legend_texts(ax))
    title = text_of(ax, "title")
    assert "nbc vs j48" in title
    assert idp.decision == "undecided"  # P(j48 better) 0.73 to 0.81: below 0.95
    assert "threshold 0.95 → undecided: neither j48 nor nbc reaches the threshold" in (
        title
    )
    bare = signrank_posterior(idp, show_threshold=False)
    assert "threshold" not in text_of(bare, "title")
    # the view holds ½, the interval and the visible mass
    low, high = _view(ax)
    assert low <= min(0.5, idp.credible_interval[0])
    assert high >= idp.credible_interval[1]


def test_signrank_indeterminate_decision_is_shown(uci):
    res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], threshold=0.8, random_state=0)
    assert res.decision == "indeterminate"
    assert "threshold 0.8 → indeterminate" in text_of(signrank_posterior(res), "title")


def test_signrank_single_posterior_prints_prob_right(bb):
    ax = signrank_posterior(bb)
    x, y = _curve(ax, "posterior")
    assert "posterior-lower" not in gids(ax)
    assert np.trapezoid(y, x) == pytest.approx(1, abs=3e-3)
    relation = format_relation(bb.prob_right, "probability")
    assert f"P(θ > ½) {relation}" in legend_texts(ax)
    assert bb.decision == "b"
    assert "threshold 0.95 → aode better than nbc" in text_of(ax, "title")


def test_signrank_histogram_density(bb):
    ax = signrank_posterior(bb, bins=40)
    x, y = _curve(ax, "posterior")
    density, edges = np.histogram(bb.samples, bins=40, range=(0, 1), density=True)
    low, high = _view(ax)
    inside = edges[(edges > low + 1e-9) & (edges < high - 1e-9)]
    # the outline steps at the bin edges in view, at each bin's density
    steps = np.unique(np.round(x[1:-1], 9))
    np.testing.assert_allclose(steps, inside, atol=1e-6)
    flat = np.isclose(y[:-1], y[1:], atol=1e-6) & (np.diff(x) > 1e-9)
    middles = (x[:-1] + x[1:])[flat] / 2
    bins = np.clip(np.searchsorted(edges, middles) - 1, 0, 39)
    np.testing.assert_allclose(y[:-1][flat], density[bins], atol=1e-6 * density.max())
    # odd bin count: ½ inside a bin, the shading still starts at ½
    ax = signrank_posterior(bb, bins=41)
    to_x, _ = picture_axes(ax)
    vertices = by_gid(ax, "beyond-half", Polygon).get_xy()
    assert to_x(vertices[:, 0]).min() == pytest.approx(0.5, abs=1e-9)


def test_signrank_point_mass(uci):
    # every difference positive: under the Bayesian bootstrap θ = 1 in every draw
    a = uci["nbc"].to_numpy()
    res = nbstats.bayes_signrank(a, a + 0.01, prior="bb", random_state=0)
    assert np.ptp(res.samples) == 0
    ax = signrank_posterior(res)
    to_x, _ = picture_axes(ax)
    stem = by_gid(ax, "posterior-point-mass", Line2D)
    assert to_x(stem.get_xdata()) == pytest.approx([1.0, 1.0])
    assert "posterior" not in gids(ax)
    assert any("every draw at 1" in text for text in legend_texts(ax))
    assert text_of(ax, "ylabel") == "point mass (no density)"
    assert _view(ax)[1] == pytest.approx(1.0)


def test_signrank_with_rope_states_the_region_shares(rope_point):
    ax = signrank_posterior(rope_point)
    title = text_of(ax, "title")  # wrapped to the picture's width
    # the published (0.000, 0.125, 0.875): P(nbc better) is no draw, "< 0.001"
    assert "rope ±0.01: nbc < 0.001 · rope" in title
    shares = [
        format_number(p, "probability")
        for p in (rope_point.prob_left, rope_point.prob_rope, rope_point.prob_right)
    ]
    assert f"rope ±0.01: nbc {shares[0]} · rope {shares[1]} · aode {shares[2]}" in (
        title
    )
    # the shaded area is P(θ > ½) from the draws, not the region share
    beyond = format_relation(np.mean(rope_point.samples > 0.5), "probability")
    assert f"P(θ > ½) {beyond}" in legend_texts(ax)


def test_signrank_picture_reuses_the_density_of_equal_draws(idp):
    from nbstats.plots.posterior import signrank_picture

    first = signrank_picture(idp, None, True)
    again = signrank_picture(
        dataclasses.replace(idp, threshold=0.8), None, True, previous=first
    )
    assert all(a.xy is b.xy for a, b in zip(again.curves, first.curves, strict=True))
    assert again.title != first.title
    histogram = signrank_picture(idp, 20, True, previous=first)
    assert histogram.curves[0].xy[0].size == 2 * 20


def test_format_probability_never_rounds_to_certainty():
    assert format_probability(0.99996) == "> 0.999"
    assert format_probability(0.00001) == "< 0.001"
    assert format_probability(1.0) == "> 0.999"
    assert format_probability(0.0) == "< 0.001"
    assert format_probability(0.7368) == "0.737"


# -------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("function", "accepted"),
    [
        (signrank_posterior, "BayesSignedRankResult"),
        (sign_posterior, "BayesSignTestResult"),
        (friedman_posterior, "BayesFriedmanResult"),
    ],
)
def test_wrong_result_type(function, accepted, friedman3, sign, idp):
    for wrong in (friedman3, sign, idp, {"prob": 0.5}):
        if type(wrong).__name__ == accepted:
            continue
        with pytest.raises(TypeError, match=accepted) as info:
            function(wrong)
        assert type(wrong).__name__ in str(info.value)


def test_rope_wrong_type(friedman3):
    with pytest.raises(
        TypeError, match="BayesSignedRankResult.*BayesSignTestResult.*array"
    ):
        rope_probabilities(friedman3)


def test_bins_and_width_validation(bb):
    with pytest.raises(ValueError, match="bins"):
        signrank_posterior(bb, bins=0)
    with pytest.raises(TypeError, match="bins"):
        signrank_posterior(bb, bins=2.5)
    with pytest.raises(ValueError, match="width"):
        signrank_posterior(bb, width="triple")


# --------------------------------------------------- axes, sizes, rendering


def test_draws_on_a_given_axes_with_the_legend_inside(idp):
    fig, (left, right) = plt.subplots(1, 2)
    returned = signrank_posterior(idp, ax=right)
    assert returned is right
    # the whole picture, legend included, in the given axes: laid out at its size
    assert len(legend_texts(right)) == 4
    assert right.get_xlim() == (0.0, pytest.approx(right.bbox.width * 72 / fig.dpi))
    assert not fig.legends
    assert not left.lines and not left.texts


def test_new_figures_have_paper_widths_and_leave_rcparams_alone(bb):
    before = dict(matplotlib.rcParams)
    ax = signrank_posterior(bb, width="double")
    assert ax.figure.get_figwidth() == pytest.approx(WIDTHS["double"])
    assert signrank_posterior(bb).figure.get_figwidth() == pytest.approx(
        WIDTHS["single"]
    )
    assert dict(matplotlib.rcParams) == before


@pytest.fixture(scope="module")
def nasty_results(uci):
    df = uci[["nbc", "aode"]].set_axis(list(NASTY), axis=1)
    a, b = df[NASTY[0]], df[NASTY[1]]
    return {
        "signrank": nbstats.bayes_signrank(a, b, random_state=0),
        "rope": nbstats.bayes_signrank(a, b, prior="point", rope=0.01, random_state=0),
        "sign": nbstats.bayes_sign_test(a, b, random_state=0),
        "friedman": nbstats.bayes_friedman(
            uci[["nbc", "aode", "j48"]].set_axis([*NASTY, "j48"], axis=1),
            method="montecarlo",
            n_samples=2000,
            random_state=0,
        ),
    }


PLOTS = {
    "signrank": lambda r: signrank_posterior(r["signrank"]),
    "signrank-rope": lambda r: signrank_posterior(r["rope"]),
    "rope-bar": lambda r: rope_probabilities(r["rope"]),
    "rope-simplex": lambda r: rope_probabilities(
        r["rope"].region_samples
        if has_region_samples(r["rope"])
        else np.full((3, 3), 1 / 3),
        kind="simplex",
        names=NASTY,
    ),
    "sign": lambda r: sign_posterior(r["sign"]),
    "friedman": lambda r: friedman_posterior(r["friedman"]),
}


@pytest.mark.parametrize("name", list(PLOTS))
def test_renders_png_and_svg_with_names_literal(name, nasty_results, tmp_path):
    ax = PLOTS[name](nasty_results)
    png, svg = tmp_path / f"{name}.png", tmp_path / f"{name}.svg"
    nbstats.plots.save(ax.figure, png)
    nbstats.plots.save(ax.figure, svg)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text(encoding="utf-8")
    # svg.fonttype "none": text stays text, so the names appear as written
    assert "a_b &amp; $x$" in text
    assert "50% Ωmega" in text
    # nothing went through mathtext: every visible string shows the dollars
    strings = [t.get_text() for t in ax.figure.findobj(matplotlib.text.Text)]
    shown = [s for s in strings if "$" in s]
    assert shown and all("\\$x\\$" in s for s in shown)
