"""The dashboard's posterior plot as SVG: well-formed, escaped, and showing the
same numbers as the result and the matplotlib picture (one geometry,
:func:`nbstats.plots.posterior.signrank_layout`, written by
:func:`nbstats.plots.picture_svg.picture_svg`).

Data: the bundled UCI accuracies; every posterior uses a fixed random_state.
Curve points are mapped back to data by the affine map the SVG's own tick
marks and tick labels show.
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from matplotlib.ticker import MaxNLocator

import nbstats
from nbstats.plots._common import format_probability, probability_relation
from nbstats.plots.chart_layout import DASHBOARD
from nbstats.plots.chart_marks import curve_points
from nbstats.plots.figure_model import nice_ticks
from nbstats.plots.labels import text_width
from nbstats.plots.posterior import signrank_layout, signrank_picture
from nbstats.plots.style import ACCENT, SECOND, SHADE, paper_style
from nbstats.widgets.posterior_svg import WIDTH, signrank_svg

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE_A = "<b>x</b> & \"q\" 'r' $x$"
HOSTILE_B = "y</text><script>alert(1)</script>\x01"


@pytest.fixture(scope="module")
def uci() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy")


def draw(result, bins=None):
    picture = signrank_picture(result, bins, True)
    svg = signrank_svg(
        picture, alt=f"posterior of θ: {result.name_a} vs {result.name_b}"
    )
    return picture, svg, ET.fromstring(svg)


def _lines(element) -> list[str]:
    spans = element.findall(f"{SVG}tspan")
    return [s.text or "" for s in spans] if spans else [element.text or ""]


def texts(root) -> list[str]:
    """Every text, its lines joined by spaces (a wrapped line reads whole)."""
    return [" ".join(_lines(t)) for t in root.iter(f"{SVG}text")]


def role(root, name):
    (found,) = [e for e in root.iter() if e.get("data-role") == name]
    return found


def points(element) -> np.ndarray:
    numbers = element.get("points").replace(",", " ").split()
    return np.array(numbers, dtype=float).reshape(-1, 2)


def axes(root):
    """pt → data, from each tick mark's position and its label's number."""
    fits = []
    for axis, coord in (("x", 0), ("y", 1)):
        pairs, k = [], 0
        while any(e.get("data-role") == f"{axis}tick-{k}" for e in root.iter()):
            mark = points(role(root, f"{axis}tick-{k}"))[0, coord]
            label = role(root, f"{axis}tick-label-{k}").text.replace("\u2212", "-")
            pairs.append((float(label), mark))
            k += 1
        values, marks = np.array(pairs).T
        scale, offset = np.polyfit(values, marks, 1)
        np.testing.assert_allclose(offset + scale * values, marks, atol=0.006)
        fits.append((offset, scale))
    (x0, xs), (y0, ys) = fits
    return (lambda p: (np.asarray(p) - x0) / xs), (lambda p: (np.asarray(p) - y0) / ys)


@pytest.mark.parametrize(
    "kw",
    [
        {},  # IDP
        {"prior": "bb"},
        {"prior": "point", "s": 1.0},
        {"rope": 0.01},
        {"prior": "bb", "rope": 0.01},
    ],
    ids=["idp", "bb", "point", "idp-rope", "bb-rope"],
)
def test_variants_render_the_results_numbers(uci, kw):
    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0, **kw)
    picture, svg, root = draw(result)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == "posterior of θ: nbc vs j48"
    shown = texts(root)
    # the legend's probabilities, formatted as the result's (matplotlib's too)
    if "rope" in kw:
        probs = [np.mean(c.samples > 0.5 + 1e-12) for c in picture.curves]
        values = [
            format_probability(p)
            for p in (result.prob_left, result.prob_rope, result.prob_right)
        ]
        if result.prior == "idp":  # each an interval over the prior set
            values = [
                f"{format_probability(lo)} to {format_probability(hi)}"
                for lo, hi in result.bounds().values()
            ]
        line = f"rope ±0.01: nbc {values[0]} · rope {values[1]} · j48 {values[2]}"
        assert line in " ".join(shown)
    elif result.prior == "idp":
        probs = [result.prob_lower, result.prob_upper]
    else:
        probs = [result.prob_right]
    if result.prior == "idp":
        label = (
            f"P(θ > ½): lower {format_probability(probs[0])} / "
            f"upper {format_probability(probs[1])}"
        )
    else:
        label = f"P(θ > ½) {probability_relation(probs[0])}"
    assert label == picture.shade_label and label in shown
    assert picture.interval_label in shown
    low, high = result.credible_interval
    assert f"[{low:.2f}, {high:.2f}]" in picture.interval_label
    assert picture.xlabel in shown and "posterior density" in shown
    assert " ".join(picture.title.split("\n")) in " ".join(shown)
    # the shaded area in the paper style's colour, one or two curves
    assert role(root, "beyond-half").get("fill") == SHADE
    curves = ["posterior-lower", "posterior-upper"]
    if result.prior != "idp":
        curves = ["posterior"]
    for gid, color in zip(curves, (ACCENT, SECOND), strict=False):
        assert role(root, gid).get("stroke") == color
    assert "nan" not in svg and " id=" not in svg


def test_curve_points_are_the_density(uci):
    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    picture, _, root = draw(result)
    to_x, to_y = axes(root)
    spine = points(role(root, "spines"))
    low, high = to_x(spine[:, 0].min()), to_x(spine[:, 0].max())
    for c, gid in zip(
        picture.curves, ("posterior-lower", "posterior-upper"), strict=True
    ):
        drawn = points(role(root, gid))
        x, y = to_x(drawn[:, 0]), to_y(drawn[:, 1])
        grid, density = c.xy
        # the curve spans the axes, cut at the limits
        assert x[0] == pytest.approx(low, abs=1e-4)
        assert x[-1] == pytest.approx(high, abs=1e-4)
        # every point on the density, to the SVG's two decimals of a point
        # (in both coordinates: a steep slope turns x's rounding into y's)
        to_pt_x = (drawn[-1, 0] - drawn[0, 0]) / (x[-1] - x[0])
        to_pt_y = (drawn[:, 1].max() - drawn[:, 1].min()) / (y.max() - y.min())
        slope = np.abs(np.interp(x, grid, np.gradient(density, grid)))
        slope_pt = slope * to_pt_y / to_pt_x
        expected = np.interp(x, grid, density)
        assert np.all(np.abs(y - expected) * to_pt_y <= 0.011 + 0.011 * slope_pt)


def test_a_fine_grid_is_thinned_but_keeps_its_peak():
    from nbstats.plots.chart_layout import Frame

    rng = np.random.default_rng(0)
    x = np.linspace(0.0, 1.0, 20_001)
    y = np.exp(-0.5 * ((x - 0.7) / 0.01) ** 2) + 1e-3 * rng.random(x.size)
    frame = Frame(0.0, 0.0, 250.0, 100.0, (0.0, 1.0), (0.0, 1.1))
    drawn = np.array(curve_points(x, y, frame))
    assert len(drawn) <= 2 * 250 + 10 and drawn[0, 0] == 0 and drawn[-1, 0] == 250
    assert drawn[:, 1].min() == pytest.approx(frame.y(y.max()))


def test_hostile_names_are_escaped(uci):
    # a control character never gets past score_table (nbstats.scores.names refuses
    # it), but the picture must stay valid XML for any result handed to it
    clean = HOSTILE_B.replace("\x01", "")
    table = uci[["nbc", "j48"]].set_axis([HOSTILE_A, clean], axis=1)
    result = nbstats.bayes_signrank(table[HOSTILE_A], table[clean], random_state=0)
    result = dataclasses.replace(result, name_b=HOSTILE_B)
    _, svg, root = draw(result)
    assert "<script" not in svg and "<b>" not in svg
    assert not list(root.iter(f"{SVG}script")) and not list(root.iter("script"))
    clean_b = HOSTILE_B.replace("\x01", "\ufffd")  # not allowed in XML
    title = root.find(f"{SVG}title").text
    assert title == f"posterior of θ: {HOSTILE_A} vs {clean_b}"
    # "$" as written (matplotlib's escape of mathtext is undone)
    shown = " ".join(texts(root))
    assert f"{HOSTILE_A} vs {clean_b}" in shown
    assert f"Z = {clean_b} − {HOSTILE_A}" in shown


def test_long_lines_are_wrapped_to_the_figure(uci):
    """No text is shrunk or squeezed: long lines wrap, every line inside."""
    name = "a rather long algorithm name with its settings " * 2
    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    result = dataclasses.replace(result, name_a=name)
    _, _, root = draw(result)
    width = float(root.get("viewBox").split()[2])
    assert width == WIDTH
    assert "textLength" not in ET.tostring(root, encoding="unicode")
    title = role(root, "title")
    assert len(_lines(title)) >= 3
    for text in root.iter(f"{SVG}text"):
        size = float(text.get("font-size"))
        assert size >= 7.0
        if text.get("transform"):
            continue  # the rotated y label, checked by the layout tests
        for line in _lines(text):
            with paper_style():
                w = text_width(line, size)
            x = float(text.get("x"))
            start = {"start": x, "middle": x - w / 2, "end": x - w}[
                text.get("text-anchor")
            ]
            assert start >= 0 and start + w <= width, (line, start, w)


def test_point_mass_and_histogram_render(uci):
    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], prior="bb", random_state=0)
    # every draw at θ = 1 (all differences positive, no rounding)
    result = dataclasses.replace(result, samples=np.ones(1000))
    picture, _, root = draw(result)
    assert picture.curves[0].point == 1.0
    shown = texts(root)
    assert "posterior of θ: every draw at 1" in shown
    assert "point mass (no density)" in shown
    assert picture.shade_label in shown
    # the stem and its arrow head
    assert role(root, "posterior-point-mass").get("stroke") == ACCENT
    assert role(root, "posterior-arrow").get("fill") == ACCENT

    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    picture, _, root = draw(result, bins=30)
    _, to_y = axes(root)
    y = to_y(points(role(root, "posterior-lower"))[:, 1])
    _, density = picture.curves[0].xy
    assert y.max() == pytest.approx(density.max(), rel=1e-3)


@pytest.mark.parametrize(
    ("low", "high"),
    [(0.27, 0.91), (0.0, 5.35), (0.0, 1.0), (0.494, 0.506), (0.0, 412.7), (0.3, 0.55)],
)
def test_ticks_are_matplotlibs(low, high):
    locator = MaxNLocator(nbins=9, steps=[1, 2, 2.5, 5, 10])
    expected = [
        t for t in locator.tick_values(low, high) if low - 1e-9 <= t <= high + 1e-9
    ]
    ticks, decimals = nice_ticks(low, high)
    np.testing.assert_allclose(ticks, expected, atol=1e-12)
    labels = [f"{t:.{decimals}f}" for t in ticks]
    assert len(set(labels)) == len(labels)  # told apart
    for tick in ticks:  # exact, and no needless digit
        assert float(f"{tick:.{decimals}f}") == pytest.approx(tick, abs=1e-12)
    assert decimals == 0 or any(abs(round(t, decimals - 1) - t) > 1e-12 for t in ticks)


@pytest.mark.parametrize("kw", [{}, {"rope": 0.004}, {"prior": "point", "s": 1.0}])
def test_legend_stays_inside_the_figure(kw):
    """Every legend text ends left of the figure's right edge (the credible
    interval's label, the longest, once ran past it)."""
    table = nbstats.datasets.load("demsar2006")
    result = nbstats.bayes_signrank(
        table["C4.5"], table["C4.5+m"], random_state=0, **kw
    )
    picture, _, root = draw(result)
    width = float(root.get("viewBox").split()[2])
    with paper_style():
        legend = signrank_layout(picture, WIDTH, style=DASHBOARD).legend
    shown = [
        t
        for t in root.iter(f"{SVG}text")
        if t.get("data-role").startswith("legend-text-")
    ]
    assert [" ".join(_lines(t)) for t in shown] == list(legend)
    for text in shown:
        with paper_style():
            end = float(text.get("x")) + max(
                text_width(line, float(text.get("font-size"))) for line in _lines(text)
            )
        assert end <= width - 3.9, (legend, end, width)


@pytest.mark.parametrize("kw", [{}, {"rope": 0.004}, {"prior": "idp"}])
def test_matplotlib_and_the_svg_draw_the_same_ticks(kw):
    """One geometry (issue 36): the picture's ticks, in both renderers."""
    import matplotlib.pyplot as plt

    from nbstats.plots.posterior import signrank_posterior

    table = nbstats.datasets.load("demsar2006")
    result = nbstats.bayes_signrank(
        table["C4.5"], table["C4.5+m"], random_state=0, **kw
    )
    picture = signrank_picture(result, None, True)
    ticks, digits = picture.xticks
    assert len(ticks) >= 3
    ax = signrank_posterior(result)
    labels = [f"{t:.{digits}f}" for t in ticks]
    drawn = sorted(
        (t.get_gid(), t.get_text())
        for t in ax.texts
        if (t.get_gid() or "").startswith("xtick-label-")
    )
    assert [text for _, text in drawn] == labels
    plt.close(ax.figure)
    svg = signrank_svg(picture, "alt")
    for label in labels:
        assert f">{label}</text>" in svg
