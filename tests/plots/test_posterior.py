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
from matplotlib.collections import PolyCollection
from matplotlib.lines import Line2D
from plot_helpers import NASTY, by_gid, gids, has_region_samples

import nbstats
from nbstats.plots._common import (
    format_probability,
    legend_texts,
    probability_relation,
)
from nbstats.plots.friedman import friedman_posterior
from nbstats.plots.posterior import signrank_posterior
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.sign import sign_posterior
from nbstats.plots.style import WIDTHS


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ------------------------------------------------------------ signed-rank


def test_signrank_idp_draws_lower_and_upper_curves(idp):
    ax = signrank_posterior(idp)
    lower = by_gid(ax, "posterior-lower", Line2D)
    upper = by_gid(ax, "posterior-upper", Line2D)
    for line, samples in ((lower, idp.samples_lower), (upper, idp.samples_upper)):
        x, y = line.get_xdata(), line.get_ydata()
        assert x[0] == 0 and x[-1] == 1 and np.all(np.diff(x) > 0)
        assert np.all(y >= 0)
        # a density over [0, 1], from the drawn line's own data
        assert np.trapezoid(y, x) == pytest.approx(1.0, abs=2e-3)
        # its mean is the draws' mean
        assert np.trapezoid(x * y, x) == pytest.approx(np.mean(samples), abs=2e-3)
    # the upper posterior lies to the right of the lower one
    mean = [
        np.trapezoid(ln.get_xdata() * ln.get_ydata(), ln.get_xdata())
        for ln in (lower, upper)
    ]
    assert mean[0] < mean[1]
    assert upper.get_linestyle() != lower.get_linestyle()  # apart in greyscale too


def test_signrank_shaded_area_is_beyond_half_under_the_lower_curve(idp):
    ax = signrank_posterior(idp)
    shade = by_gid(ax, "beyond-half", PolyCollection)
    vertices = np.concatenate([p.vertices for p in shade.get_paths()])
    assert vertices[:, 0].min() == 0.5
    assert np.all(vertices[:, 0] >= 0.5)
    # its top edge is the lower curve, and its area P(θ > ½) under that curve
    lower = by_gid(ax, "posterior-lower", Line2D)
    x, y = lower.get_xdata(), lower.get_ydata()
    right = x >= 0.5
    top = np.interp(vertices[:, 0], x, y)
    assert np.all(vertices[:, 1] <= top + 1e-9)
    area = np.trapezoid(y[right], x[right])
    assert area == pytest.approx(idp.prob_lower, abs=0.01)
    # the printed probabilities are the result's
    expected = (
        f"P(θ > ½): lower {format_probability(idp.prob_lower)} / "
        f"upper {format_probability(idp.prob_upper)}"
    )
    assert shade.get_label() == expected
    assert expected in legend_texts(ax)
    assert re.fullmatch(r"P\(θ > ½\): lower 0\.\d{3} / upper 0\.\d{3}", expected)


def test_signrank_half_line_interval_and_decision(idp):
    ax = signrank_posterior(idp)
    half = by_gid(ax, "half", Line2D)
    assert list(half.get_xdata()) == [0.5, 0.5]
    interval = by_gid(ax, "credible-interval", Line2D)
    assert tuple(interval.get_xdata()) == pytest.approx(idp.credible_interval)
    assert "95% credible interval" in interval.get_label()
    title = ax.get_title()
    assert "nbc vs j48" in title
    assert idp.decision == "undecided"  # P(j48 better) 0.73 to 0.81: below 0.95
    assert "threshold 0.95 → undecided: neither j48 nor nbc reaches the threshold" in (
        title.replace("\n", " ")
    )
    assert "threshold" not in signrank_posterior(idp, show_threshold=False).get_title()
    # the view holds ½, the interval and the visible mass
    low, high = ax.get_xlim()
    assert low <= min(0.5, idp.credible_interval[0])
    assert high >= idp.credible_interval[1]


def test_signrank_indeterminate_decision_is_shown(uci):
    res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], threshold=0.8, random_state=0)
    assert res.decision == "indeterminate"
    assert "threshold 0.8 → indeterminate" in signrank_posterior(res).get_title()


def test_signrank_single_posterior_prints_prob_right(bb):
    ax = signrank_posterior(bb)
    line = by_gid(ax, "posterior", Line2D)
    assert "posterior-lower" not in gids(ax)
    assert np.trapezoid(line.get_ydata(), line.get_xdata()) == pytest.approx(
        1, abs=2e-3
    )
    label = by_gid(ax, "beyond-half", PolyCollection).get_label()
    assert label == f"P(θ > ½) {probability_relation(bb.prob_right)}"
    assert bb.decision == "b"
    assert "threshold 0.95 → aode better than nbc" in ax.get_title()


def test_signrank_histogram_density(bb):
    ax = signrank_posterior(bb, bins=40)
    line = by_gid(ax, "posterior", Line2D)
    x, y = line.get_xdata(), line.get_ydata()
    density, edges = np.histogram(bb.samples, bins=40, range=(0, 1), density=True)
    assert np.array_equal(np.unique(x), edges)
    assert np.array_equal(y[::2], density)
    assert np.trapezoid(y, x) == pytest.approx(1.0, abs=1e-12)
    # odd bin count: ½ inside a bin, the shading still starts at ½
    ax = signrank_posterior(bb, bins=41)
    vertices = by_gid(ax, "beyond-half", PolyCollection).get_paths()[0].vertices
    assert vertices[:, 0].min() == 0.5


def test_signrank_point_mass(uci):
    # every difference positive: under the Bayesian bootstrap θ = 1 in every draw
    a = uci["nbc"].to_numpy()
    res = nbstats.bayes_signrank(a, a + 0.01, prior="bb", random_state=0)
    assert np.ptp(res.samples) == 0
    ax = signrank_posterior(res)
    stem = by_gid(ax, "posterior-point-mass", Line2D)
    assert list(stem.get_xdata()) == [1.0, 1.0]
    assert "posterior" not in gids(ax)
    assert "every draw at 1" in stem.get_label()
    assert ax.get_xlim()[1] == 1.0


def test_signrank_with_rope_states_the_region_shares(rope_point):
    ax = signrank_posterior(rope_point)
    title = ax.get_title().replace("\n", " ")  # wrapped to the axes' width
    # the published (0.000, 0.125, 0.875): P(nbc better) is no draw, "< 0.001"
    assert "rope ±0.01: nbc < 0.001 · rope" in title
    assert (
        f"rope ±0.01: nbc {format_probability(rope_point.prob_left)} · rope "
        f"{format_probability(rope_point.prob_rope)} · aode "
        f"{format_probability(rope_point.prob_right)}"
    ) in title
    # the shaded area is P(θ > ½) from the draws, not the region share
    label = by_gid(ax, "beyond-half", PolyCollection).get_label()
    assert (
        label == f"P(θ > ½) {probability_relation(np.mean(rope_point.samples > 0.5))}"
    )


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
    assert right.get_legend() is not None
    assert not fig.legends
    assert not left.lines


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
