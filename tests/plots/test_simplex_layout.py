"""The hierarchical test's simplex: one geometry (issue 36) for the paper
figure (matplotlib) and the fold dashboard (SVG).

Oracles: each draw's point computed here from its three probabilities by the
affine map the drawn triangle's corners give; the legend's shares counted
here from the draws and printed by the number policy; matplotlib's own text
extents for overlap, size and fit.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PathCollection
from plot_helpers import by_gid, text_of

from nbstats.plots.chart_layout import DASHBOARD, PAPER
from nbstats.plots.figure_model import Dot, Picture, Text
from nbstats.plots.hierarchical import hierarchical_simplex, simplex_picture
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.style import paper_style
from nbstats.results.number_policy import format_number
from nbstats.widgets.simplex_svg import simplex_svg

SVG = "{http://www.w3.org/2000/svg}"
LONG_A = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
LONG_B = "RandomForestClassifier(n_estimators=500, max_depth=None)"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def fake(a="nbc", b="aode", n=3000, sure=False):
    draws = np.random.default_rng(0).dirichlet([2, 3, 5], size=n)
    if sure:  # every draw in "b better"
        draws = np.tile([0.0, 0.05, 0.95], (n, 1))
    winner = draws.argmax(axis=1)
    shares = [float(np.mean(winner == k)) for k in range(3)]
    return SimpleNamespace(
        region_samples=draws,
        prob_left=shares[0],
        prob_rope=shares[1],
        prob_right=shares[2],
        rope=0.01,
        name_a=a,
        name_b=b,
        datasets=list(range(39)),
    )


def _expected_points(result, corners):
    (lx, ly), (rx, ry), (tx, ty) = corners
    d = np.asarray(result.region_samples)
    # barycentric: each corner weighted by its region's probability
    return np.c_[d @ [lx, tx, rx], d @ [ly, ty, ry]]


def test_dots_are_the_draws_barycentric_points():
    result = fake()
    with paper_style():
        layout = simplex_picture(result, 237.6)
    (lx, ly), (rx, ry), (tx, ty) = layout.corners
    assert ly == ry and tx == pytest.approx((lx + rx) / 2)
    assert ly - ty == pytest.approx((rx - lx) * np.sqrt(3) / 2)  # equilateral
    expected = _expected_points(result, layout.corners)
    winner = np.asarray(result.region_samples).argmax(axis=1)
    for k, key in enumerate(("left", "rope", "right")):
        dots = [i for i in layout.picture.items if i.gid == f"simplex-{key}"]
        got = np.array([(d.x, d.y) for d in dots])
        np.testing.assert_allclose(got, expected[winner == k], atol=1e-9)


@pytest.mark.parametrize("sure", [False, True])
def test_legend_gives_the_shares_as_the_number_policy(sure):
    result = fake(sure=sure)
    winner = np.asarray(result.region_samples).argmax(axis=1)
    shares = [
        format_number(float(np.mean(winner == k)), "probability") for k in range(3)
    ]
    with paper_style():
        legend = simplex_picture(result, 237.6).legend
    assert legend == (
        f"nbc better: {shares[0]}",
        f"rope ±0.01: {shares[1]}",
        f"aode better: {shares[2]}",
    )
    if sure:
        assert (
            legend[2] == "aode better: > 0.999" and legend[0] == "nbc better: < 0.001"
        )


@pytest.mark.parametrize(
    "names", [("nbc", "aode"), (LONG_A, LONG_B)], ids=["short", "long"]
)
@pytest.mark.parametrize(
    ("width", "style", "smallest"),
    [(237.6, PAPER, 8.0), (496.8, PAPER, 8.0), (308.0, DASHBOARD, 7.0)],
    ids=["single", "double", "dashboard"],
)
def test_readable_at_every_width(names, width, style, smallest):
    import readability

    with paper_style():
        pic = simplex_picture(fake(*names), width, style=style).picture
        ax = draw_picture(
            Picture(
                pic.width,
                pic.height,
                tuple(
                    i
                    for i in pic.items
                    if not i.gid.startswith("simplex-") or not isinstance(i, Dot)
                ),
            )
        )
    assert min(i.size for i in pic.items if isinstance(i, Text)) >= smallest
    readability.MIN_FONT, before = smallest, readability.MIN_FONT
    try:
        assert readability.problems(ax.figure) == []
    finally:
        readability.MIN_FONT = before


def test_both_renderers_place_every_dot_and_line_alike():
    result = fake(LONG_A, LONG_B)
    with paper_style():
        layout = simplex_picture(result, 237.6)
    ax = hierarchical_simplex(result)
    svg = ET.fromstring(simplex_svg(result))
    with paper_style():
        dashboard = simplex_picture(result, 308.0, style=DASHBOARD)
    for key in ("left", "rope", "right"):
        dots = [i for i in layout.picture.items if i.gid == f"simplex-{key}"]
        drawn = by_gid(ax, f"simplex-{key}", PathCollection).get_offsets()
        np.testing.assert_allclose(drawn, [(d.x, d.y) for d in dots], atol=1e-9)
        circles = [
            c
            for c in svg.iter(f"{SVG}circle")
            if c.get("data-role") == f"simplex-{key}"
        ]
        written = [(float(c.get("cx")), float(c.get("cy"))) for c in circles]
        board = [
            (d.x, d.y) for d in dashboard.picture.items if d.gid == f"simplex-{key}"
        ]
        np.testing.assert_allclose(written, board, atol=0.006)
    edges = by_gid(ax, "simplex-edges").get_xydata()
    np.testing.assert_allclose(edges[:3], layout.corners, atol=1e-9)
    assert text_of(ax, "legend-text-0") == layout.legend[0]


# -- the data-set figure (the report's, without a rope) ---------------------------


@pytest.mark.parametrize("width", [237.6, 496.8], ids=["single", "double"])
@pytest.mark.parametrize("q", [3, 30])
def test_datasets_readable_and_at_the_means(width, q):
    import pandas as pd
    import readability
    from plot_helpers import assert_renderers_agree, picture_axes

    from nbstats.plots.hierarchical import datasets_layout

    rng = np.random.default_rng(q)
    mean = rng.normal(0.01, 0.01, q)
    table = pd.DataFrame(
        {
            "case": [f"{LONG_A} on data set {k}" for k in range(q)],
            "mean": mean,
            "low": mean - 0.02,
            "high": mean + 0.02,
            "observed": mean + rng.normal(0, 0.005, q),
        }
    )
    res = SimpleNamespace(
        datasets=table, rope=0.01, delta0=0.01, level=0.95, name_a=LONG_A, name_b=LONG_B
    )
    with paper_style():
        pic = datasets_layout(res, width).picture
        ax = draw_picture(pic)
    assert min(i.size for i in pic.items if isinstance(i, Text)) >= 8.0
    assert readability.problems(ax.figure) == []
    to_x, _ = picture_axes(ax)
    shown = {}
    for k in range(q):
        name = text_of(ax, f"name-{k}")
        (dot,) = [line for line in ax.lines if line.get_gid() == f"mean-{k}"]
        # a wrapped name, its line breaks (and the spaces at them) taken out
        shown["".join(name.split())] = float(to_x(dot.get_xdata()[0]))
    for case, value in zip(table["case"], table["mean"], strict=True):
        assert shown["".join(case.split())] == pytest.approx(value, abs=1e-9)
    # the rows top down: the largest posterior mean first
    order = [shown[c] for c in sorted(shown, key=shown.get, reverse=True)]
    np.testing.assert_allclose(order, sorted(table["mean"], reverse=True))
    assert_renderers_agree(pic)
