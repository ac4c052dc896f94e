"""Posterior plots: the drawn artists, not just that a figure exists.

Data: the bundled UCI accuracies (nbc vs aode/j48, Benavoli et al.'s
tutorial data); every posterior uses a fixed random_state.
"""

from __future__ import annotations

import dataclasses
import math
import re

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import scipy.stats
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

import nbstats
from nbstats.plots._common import MAX_POINTS, format_probability, legend_texts
from nbstats.plots.posterior import (
    friedman_posterior,
    reflected_kde,
    sign_posterior,
    signrank_posterior,
)
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.style import WIDTHS

NASTY = ("a_b & $x$", "50% Ωmega")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def uci() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy")


@pytest.fixture(scope="module")
def idp(uci):
    """IDP posterior of nbc vs j48: lower 0.737 / upper 0.816 (cf. 2014 Fig. 1)."""
    return nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)


@pytest.fixture(scope="module")
def bb(uci):
    return nbstats.bayes_signrank(uci["nbc"], uci["aode"], prior="bb", random_state=1)


@pytest.fixture(scope="module")
def rope_point(uci):
    """The published figure: (0.000, 0.125, 0.875) for nbc vs aode, rope 0.01."""
    return nbstats.bayes_signrank(
        uci["nbc"], uci["aode"], prior="point", rope=0.01, random_state=0
    )


@pytest.fixture(scope="module")
def sign(uci):
    return nbstats.bayes_sign_test(uci["nbc"], uci["j48"], random_state=0)


@pytest.fixture(scope="module")
def friedman3(uci):
    return nbstats.bayes_friedman(uci[["nbc", "aode", "j48"]])


def by_gid(ax, gid, kind=None):
    found = [a for a in ax.get_children() if a.get_gid() == gid]
    if kind is not None:
        found = [a for a in found if isinstance(a, kind)]
    assert len(found) == 1, (gid, found)
    return found[0]


def gids(ax) -> set[str]:
    return {a.get_gid() for a in ax.get_children() if a.get_gid()}


def has_region_samples(result) -> bool:
    return getattr(result, "region_samples", None) is not None


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
    assert idp.decision == "a"
    assert "threshold 0.95 → keep nbc" in title
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
    assert label == f"P(θ > ½) = {format_probability(bb.prob_right)}"
    assert "threshold 0.95 → prefer aode" in ax.get_title()


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
    title = ax.get_title()
    assert (
        f"rope ±0.01: nbc {format_probability(rope_point.prob_left)} · rope "
        f"{format_probability(rope_point.prob_rope)} · aode "
        f"{format_probability(rope_point.prob_right)}"
    ) in title
    # the shaded area is P(θ > ½) from the draws, not the region share
    label = by_gid(ax, "beyond-half", PolyCollection).get_label()
    assert (
        label == f"P(θ > ½) = {format_probability(np.mean(rope_point.samples > 0.5))}"
    )


def test_signrank_picture_reuses_the_density_of_equal_draws(idp):
    from nbstats.plots.posterior import _signrank_picture

    first = _signrank_picture(idp, None, True)
    again = _signrank_picture(
        dataclasses.replace(idp, threshold=0.8), None, True, previous=first
    )
    assert all(a.xy is b.xy for a, b in zip(again.curves, first.curves, strict=True))
    assert again.title != first.title
    histogram = _signrank_picture(idp, 20, True, previous=first)
    assert histogram.curves[0].xy[0].size == 2 * 20


def test_reflected_kde_matches_scipy_with_reflection():
    draws = np.random.default_rng(3).beta(12, 2, size=3000)  # piles against 1
    grid, density = reflected_kde(draws)
    kde = scipy.stats.gaussian_kde(draws)  # Scott's rule, as ours
    reference = kde(grid) + kde(-grid) + kde(2 - grid)
    assert np.max(np.abs(density - reference)) < 0.01 * reference.max()
    assert np.trapezoid(density, grid) == pytest.approx(1.0, abs=1e-3)
    assert 0.5 in grid
    with pytest.raises(ValueError, match="two distinct draws"):
        reflected_kde(np.full(10, 0.7))


def test_format_probability_never_rounds_to_certainty():
    assert format_probability(0.99996) == "> 0.999"
    assert format_probability(0.00001) == "< 0.001"
    assert format_probability(1.0) == "1"
    assert format_probability(0.0) == "0"
    assert format_probability(0.7368) == "0.737"


# -------------------------------------------------------------- rope bar


def test_rope_bar_widths_are_the_probabilities(rope_point):
    ax = rope_probabilities(rope_point)
    rects = [by_gid(ax, f"region-{k}", Rectangle) for k in ("left", "rope", "right")]
    widths = [r.get_width() for r in rects]
    assert widths == [rope_point.prob_left, rope_point.prob_rope, rope_point.prob_right]
    assert sum(widths) == pytest.approx(1.0)
    # stacked left to right, starting at 0
    starts = [r.get_x() for r in rects]
    assert starts == pytest.approx([0, widths[0], widths[0] + widths[1]])
    assert {r.get_y() + r.get_height() / 2 for r in rects} == {0.0}
    assert widths == pytest.approx([0.0, 0.125, 0.875], abs=0.01)
    labels = [r.get_label() for r in rects]
    assert labels[0].startswith("nbc better")
    assert labels[1].startswith("rope ±0.01")
    assert labels[2] == f"aode better: {format_probability(rope_point.prob_right)}"
    assert legend_texts(ax) == labels
    # the wide segment carries its value
    assert by_gid(ax, "value-right").get_text() == format_probability(
        rope_point.prob_right
    )


def test_rope_bar_for_sign_test_and_delegation(uci):
    res = nbstats.bayes_sign_test(uci["nbc"], uci["j48"], rope=0.01, random_state=0)
    for ax in (rope_probabilities(res), sign_posterior(res)):
        widths = [
            by_gid(ax, f"region-{k}", Rectangle).get_width()
            for k in ("left", "rope", "right")
        ]
        assert widths == [res.prob_left, res.prob_rope, res.prob_right]


def test_rope_bar_under_idp_says_lower_prior(uci):
    res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], rope=0.01, random_state=0)
    title = rope_probabilities(res).get_title()
    assert "IDP, lower prior" in title
    assert f"upper P(j48 better) = {format_probability(res.prob_upper)}" in title


def test_rope_needs_a_rope(idp, sign):
    with pytest.raises(ValueError, match="no rope"):
        rope_probabilities(idp)
    with pytest.raises(ValueError, match="sign_posterior"):
        rope_probabilities(sign)
    with pytest.raises(ValueError, match="kind"):
        rope_probabilities(idp, kind="pie")


# --------------------------------------------------------------- simplex


def _regions_of(collection) -> np.ndarray:
    x, y = np.asarray(collection.get_offsets()).T
    rope = y / (math.sqrt(3) / 2)
    right = x - rope / 2
    return np.column_stack([1 - rope - right, rope, right])


def test_simplex_from_an_array_places_and_colours_each_draw():
    rng = np.random.default_rng(0)
    draws = rng.dirichlet([3, 2, 5], size=1500)
    ax = rope_probabilities(draws, kind="simplex", names=("nbc", "aode"))
    total = 0
    for k, key in enumerate(("left", "rope", "right")):
        points = by_gid(ax, f"simplex-{key}", PathCollection)
        regions = _regions_of(points)
        total += len(regions)
        if len(regions):
            assert np.all(regions >= -1e-12)  # inside the triangle
            assert np.all(np.argmax(regions, axis=1) == k)  # coloured by winner
        share = np.mean(np.argmax(draws, axis=1) == k)
        assert points.get_label().endswith(format_probability(share))
    assert total == len(draws)
    # the drawn points are the draws themselves
    shown = np.concatenate(
        [
            _regions_of(by_gid(ax, f"simplex-{k}", PathCollection))
            for k in ("left", "rope", "right")
        ]
    )
    order = np.lexsort(shown.T)
    assert shown[order] == pytest.approx(draws[np.lexsort(draws.T)], abs=1e-12)
    edges = by_gid(ax, "simplex-edges", Line2D)
    assert list(edges.get_ydata()) == pytest.approx([0, 0, math.sqrt(3) / 2, 0])
    texts = [t.get_text() for t in ax.texts]
    assert "nbc better" in texts and "aode better" in texts and "rope" in texts
    # region boundaries meet at the centre
    for gid in ("boundary-left-right", "boundary-rope-right", "boundary-left-rope"):
        line = by_gid(ax, gid, Line2D)
        assert (line.get_xdata()[0], line.get_ydata()[0]) == pytest.approx(
            (0.5, math.sqrt(3) / 6)
        )


def test_simplex_from_a_result(rope_point):
    if not has_region_samples(rope_point):
        pytest.skip("this result class keeps no region samples")
    ax = rope_probabilities(rope_point, kind="simplex")
    counts = [
        len(by_gid(ax, f"simplex-{k}", PathCollection).get_offsets())
        for k in ("left", "rope", "right")
    ]
    assert sum(counts) == min(MAX_POINTS, len(rope_point.region_samples))
    assert f"aode better: {format_probability(rope_point.prob_right)}" in legend_texts(
        ax
    )
    assert "rope ±0.01" in [t.get_text() for t in ax.texts]


def test_simplex_needs_region_samples(rope_point):
    fields = {f.name for f in dataclasses.fields(rope_point)}
    stripped = (
        dataclasses.replace(rope_point, region_samples=None)
        if "region_samples" in fields
        else rope_point
    )
    with pytest.raises(ValueError, match="keeps no region samples"):
        rope_probabilities(stripped, kind="simplex")
    # the bar needs only the shares
    rope_probabilities(stripped, kind="bar")


@pytest.mark.parametrize(
    ("array", "match"),
    [
        (np.ones((5, 2)) / 2, "S × 3"),
        (np.ones(3) / 3, "S × 3"),
        (np.empty((0, 3)), "at least one draw"),
        (np.full((4, 3), 0.5), "sum to 1"),
        (np.array([[np.nan, 0.5, 0.5]]), "finite"),
        (np.array([["a", "b", "c"]]), "numeric"),
    ],
)
def test_simplex_array_validation(array, match):
    with pytest.raises(ValueError, match=match):
        rope_probabilities(array, kind="simplex")


# --------------------------------------------------------------- sign test


def test_sign_posterior_is_the_beta_of_theorem_2(sign):
    ax = sign_posterior(sign)
    curve = by_gid(ax, "posterior", Line2D)
    x, y = curve.get_xdata(), curve.get_ydata()
    assert np.allclose(y, scipy.stats.beta.pdf(x, sign.wins, sign.losses))
    assert curve.get_label() == f"Beta({sign.wins}, {sign.losses})"
    shade = by_gid(ax, "beyond-half", PolyCollection)
    vertices = shade.get_paths()[0].vertices
    assert vertices[:, 0].min() == 0.5
    right = x >= 0.5
    assert np.trapezoid(y[right], x[right]) == pytest.approx(sign.prob_right, abs=1e-4)
    assert shade.get_label().endswith(f"= {format_probability(sign.prob_right)}")
    assert list(by_gid(ax, "half", Line2D).get_xdata()) == [0.5, 0.5]
    title = ax.get_title()
    assert f"{sign.wins} wins, {sign.losses} losses, {sign.ties} ties" in title
    assert "threshold 0.95 → keep nbc" in title


@pytest.mark.parametrize(("shift", "at"), [(0.01, 1.0), (-0.01, 0.0)])
def test_sign_posterior_degenerate_beta(uci, shift, at):
    a = uci["nbc"].to_numpy()[:8]
    res = nbstats.bayes_sign_test(a, a + shift, random_state=0)
    assert min(res.wins, res.losses) == 0
    ax = sign_posterior(res)
    stem = by_gid(ax, "posterior-point-mass", Line2D)
    assert list(stem.get_xdata()) == [at, at]
    assert f"point mass at {at:g}" in stem.get_label()
    assert "beyond-half" not in gids(ax)
    assert (
        f"P(θ′ > ½) = P(θ > ½) = {format_probability(res.prob_right)}"
        in legend_texts(ax)
    )


def test_sign_posterior_all_ties(uci):
    a = uci["nbc"].to_numpy()[:6]
    res = nbstats.bayes_sign_test(a, a.copy(), random_state=0)
    ax = sign_posterior(res)
    assert "all 6 cases tie" in by_gid(ax, "all-ties").get_text()
    assert "posterior" not in gids(ax)


# ---------------------------------------------------------------- Friedman


def _quadratic_form(points, centre, cov):
    diff = points - centre[:, None]
    return np.einsum("ip,ij,jp->p", diff, np.linalg.inv(cov), diff)


def test_friedman_ellipse_is_the_credible_region(friedman3):
    ax = friedman_posterior(friedman3, n_points=120)
    ellipse = by_gid(ax, "credible-region", Line2D)
    points = np.vstack([ellipse.get_xdata(), ellipse.get_ydata()])
    assert points.shape == (2, 120)
    mu = friedman3.mean_ranks.to_numpy()[:2]
    cov = friedman3.covariance.to_numpy()[:2, :2]
    assert _quadratic_form(points, mu, cov) == pytest.approx(friedman3.rho, rel=1e-9)
    # in these two coordinates μ0's distance is the test's statistic
    null = np.array([[2.0], [2.0]])
    assert _quadratic_form(null, mu, cov)[0] == pytest.approx(
        friedman3.statistic, rel=1e-9
    )
    marker = by_gid(ax, "null-point", Line2D)
    assert (marker.get_xdata()[0], marker.get_ydata()[0]) == (2.0, 2.0)
    mean = by_gid(ax, "posterior-mean", Line2D)
    assert (mean.get_xdata()[0], mean.get_ydata()[0]) == pytest.approx(tuple(mu))
    assert "j48: 6 − x − y = " in mean.get_label()
    assert "posterior-samples" not in gids(ax)  # the ellipsoid method keeps none
    assert friedman3.reject
    assert ax.get_title().startswith("reject")
    assert "outside the 95% credible region" in ax.get_title()
    assert ax.get_xlabel().startswith("mean rank of nbc")
    assert ax.get_ylabel() == "mean rank of aode"
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    assert x0 < 2 < x1 and y0 < 2 < y1  # μ0 in view


def test_friedman_no_evidence(uci):
    res = nbstats.bayes_friedman(uci[["aode", "hnb", "j48"]])
    assert not res.reject
    title = friedman_posterior(res).get_title()
    assert title.startswith("no evidence")
    assert "inside" in title


def test_friedman_montecarlo_draws_and_sample_ellipse(uci):
    res = nbstats.bayes_friedman(
        uci[["hnb", "j48", "j48gr"]],
        method="montecarlo",
        n_samples=6000,
        random_state=2,
    )
    ax = friedman_posterior(res)
    scatter = by_gid(ax, "posterior-samples", PathCollection)
    offsets = np.asarray(scatter.get_offsets())
    assert len(offsets) == MAX_POINTS
    assert np.isin(offsets[:, 0], res.samples[:, 0]).all()
    # the Monte Carlo region uses the draws' mean and covariance, as the test
    centre = res.samples[:, :2].mean(axis=0)
    cov = np.cov(res.samples[:, :2], rowvar=False)
    ellipse = by_gid(ax, "credible-region", Line2D)
    points = np.vstack([ellipse.get_xdata(), ellipse.get_ydata()])
    assert _quadratic_form(points, centre, cov) == pytest.approx(res.rho, rel=1e-9)
    assert _quadratic_form(np.array([[2.0], [2.0]]), centre, cov)[0] == pytest.approx(
        res.statistic, rel=1e-9
    )
    assert "Monte Carlo" in ellipse.get_label()


def test_friedman_needs_three_algorithms(uci):
    res = nbstats.bayes_friedman(uci)
    with pytest.raises(ValueError, match="m = 3.*got m = 5"):
        friedman_posterior(res)
    with pytest.raises(ValueError, match="n_points"):
        friedman_posterior(nbstats.bayes_friedman(uci.iloc[:, :3]), n_points=3)


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
