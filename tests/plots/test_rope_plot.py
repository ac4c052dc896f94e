"""(left, rope, right) pictures: the bar and the simplex."""

from __future__ import annotations

import dataclasses
import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from plot_helpers import by_gid, has_region_samples

import nbstats
from nbstats.plots._common import MAX_POINTS, format_probability, legend_texts
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.sign import sign_posterior


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


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


def test_rope_bar_under_idp_shows_every_interval(uci):
    """Issue 26: the title mixed "lower prior" with an upper probability."""
    res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], rope=0.01, random_state=0)
    for kind in ("bar", "simplex"):
        ax = rope_probabilities(res, kind=kind)
        drawn = [t.get_text() for t in ax.texts if t.get_gid() == "title"]
        title = " ".join((ax.get_title() + "\n".join(drawn)).split())  # wrapped
        assert "lower prior" not in title and "upper P(" not in title
        assert "lower to upper over the prior set" in title
        labels = {" ".join(t.split()) for t in legend_texts(ax)}
        for name, key in (("nbc", "left"), ("j48", "right")):
            low, high = res.bounds()[key]
            text = f"{format_probability(low)} to {format_probability(high)}"
            assert f"{name} better: {text}" in labels
    bar = rope_probabilities(res)
    widths = [
        by_gid(bar, f"region-{k}", Rectangle).get_width()
        for k in ("left", "rope", "right", "prior")
    ]
    assert widths[:3] == [res.prob_left_lower, res.prob_rope_lower, res.prob_right]
    assert sum(widths) == pytest.approx(1.0)


def test_rope_needs_a_rope(idp, sign):
    with pytest.raises(ValueError, match="no rope"):
        rope_probabilities(idp)
    with pytest.raises(ValueError, match="sign_posterior"):
        rope_probabilities(sign)
    with pytest.raises(ValueError, match="kind"):
        rope_probabilities(idp, kind="pie")


# --------------------------------------------------------------- simplex


def _corners(ax) -> np.ndarray:
    """The drawn triangle's corners (bottom left, bottom right, top), in points."""
    return by_gid(ax, "simplex-edges", Line2D).get_xydata()[:3]


def _regions_of(collection, ax) -> np.ndarray:
    """Points back to (left, rope, right) by the drawn triangle's corners."""
    (lx, ly), (rx, _), (_, ty) = _corners(ax)
    x, y = np.asarray(collection.get_offsets()).T
    rope = (ly - y) / (ly - ty)
    right = (x - lx) / (rx - lx) - rope / 2
    return np.column_stack([1 - rope - right, rope, right])


def test_simplex_from_an_array_places_and_colours_each_draw():
    rng = np.random.default_rng(0)
    draws = rng.dirichlet([3, 2, 5], size=1500)
    ax = rope_probabilities(draws, kind="simplex", names=("nbc", "aode"))
    total = 0
    keys = legend_texts(ax)
    for k, key in enumerate(("left", "rope", "right")):
        points = by_gid(ax, f"simplex-{key}", PathCollection)
        regions = _regions_of(points, ax)
        total += len(regions)
        if len(regions):
            assert np.all(regions >= -1e-9)  # inside the triangle
            assert np.all(np.argmax(regions, axis=1) == k)  # coloured by winner
        share = np.mean(np.argmax(draws, axis=1) == k)
        assert keys[k].endswith(format_probability(share))
    assert total == len(draws)
    # the drawn points are the draws themselves
    shown = np.concatenate(
        [
            _regions_of(by_gid(ax, f"simplex-{k}", PathCollection), ax)
            for k in ("left", "rope", "right")
        ]
    )
    order = np.lexsort(shown.T)
    assert shown[order] == pytest.approx(draws[np.lexsort(draws.T)], abs=1e-9)
    # an equilateral triangle, closed
    (lx, ly), (rx, ry), (tx, ty) = _corners(ax)
    assert ly == ry and tx == pytest.approx((lx + rx) / 2)
    assert ly - ty == pytest.approx((rx - lx) * math.sqrt(3) / 2)
    texts = [" ".join(t.get_text().split("\n")) for t in ax.texts]
    assert "nbc better" in texts and "aode better" in texts and "rope" in texts
    # region boundaries meet at the centre
    centre = ((lx + rx + tx) / 3, (ly + ry + ty) / 3)
    for gid in ("boundary-left-right", "boundary-rope-right", "boundary-left-rope"):
        line = by_gid(ax, gid, Line2D)
        assert (line.get_xdata()[0], line.get_ydata()[0]) == pytest.approx(centre)


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
    assert "rope ±0.01" in [
        t.get_text() for t in ax.texts if t.get_gid() == "corner-rope"
    ]


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
