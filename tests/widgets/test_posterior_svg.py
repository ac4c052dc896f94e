"""The dashboard's posterior plot as hand-written SVG: well-formed, escaped, and
showing the same numbers as the result and the matplotlib picture.

Data: the bundled UCI accuracies; every posterior uses a fixed random_state.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from matplotlib.ticker import MaxNLocator

import nbstats
from nbstats.plots._common import format_probability, probability_relation
from nbstats.plots.posterior import signrank_picture
from nbstats.plots.style import ACCENT, SECOND, SHADE
from nbstats.widgets import posterior_svg
from nbstats.widgets.posterior_svg import nice_ticks, signrank_svg

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


def texts(root) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def curve(root, color: str) -> np.ndarray:
    """The (x, y) points in pt of the curve path drawn in ``color``."""
    (path,) = (
        p
        for p in root.iter(f"{SVG}path")
        if p.get("stroke") == color and p.get("fill") == "none"
    )
    numbers = [float(v) for v in re.findall(r"-?\d+\.?\d*", path.get("d"))]
    return np.array(numbers).reshape(-1, 2)


def to_data(points: np.ndarray, picture) -> tuple[np.ndarray, np.ndarray]:
    """pt back to (θ, density), with the writer's axes."""
    x_low, x_high = picture.xlim
    top = 1.05 * max(float(c.xy[1].max()) for c in picture.curves)
    left, right = posterior_svg.LEFT, posterior_svg.RIGHT
    upper, bottom = posterior_svg.TOP, posterior_svg.BOTTOM
    x = x_low + (points[:, 0] - left) / (right - left) * (x_high - x_low)
    y = (bottom - points[:, 1]) / (bottom - upper) * top
    return x, y


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
        assert any(line in " ".join(text.split()) for text in shown) or line in (
            " ".join(" ".join(shown).split())
        )
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
    for line in picture.title.split("\n"):
        assert line in shown
    # the shaded area in the paper style's colour, one or two curves
    assert any(p.get("fill") == SHADE for p in root.iter(f"{SVG}path"))
    curve(root, ACCENT)
    if result.prior == "idp":
        assert curve(root, SECOND).size
    assert "nan" not in svg and " id=" not in svg


def test_curve_points_are_the_density(uci):
    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    picture, _, root = draw(result)
    width = posterior_svg.RIGHT - posterior_svg.LEFT
    height = posterior_svg.BOTTOM - posterior_svg.TOP
    for c, color in zip(picture.curves, (ACCENT, SECOND), strict=True):
        x, y = to_data(curve(root, color), picture)
        grid, density = c.xy
        # the curve spans the axes, cut at the limits
        low, high = picture.xlim
        assert x[0] == pytest.approx(low, abs=1e-4)
        assert x[-1] == pytest.approx(high, abs=1e-4)
        assert y[0] == pytest.approx(np.interp(low, grid, density), abs=1e-3)
        # in between: the density's grid points in view, to two decimals of a pt
        inside = (grid > low) & (grid < high)
        assert x.size == inside.sum() + 2
        pt_x = (high - low) / width
        pt_y = 1.05 * float(density.max()) / height
        np.testing.assert_allclose(x[1:-1], grid[inside], atol=0.0051 * pt_x)
        np.testing.assert_allclose(y[1:-1], density[inside], atol=0.0051 * pt_y)


def test_a_fine_grid_is_thinned_but_keeps_its_peak():
    rng = np.random.default_rng(0)
    x = np.linspace(0.0, 1.0, 20_001)
    y = np.exp(-0.5 * ((x - 0.7) / 0.01) ** 2) + 1e-3 * rng.random(x.size)
    xs, ys = posterior_svg._thin(x, y, 1000)
    assert xs.size <= 1100 and xs[0] == 0 and xs[-1] == 1
    assert ys.max() == y.max()


def test_hostile_names_are_escaped(uci):
    # a control character never gets past score_table (nbstats.names refuses
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
    assert any(f"{HOSTILE_A} vs {clean_b}" in text for text in texts(root))
    assert any(f"Z = {clean_b} − {HOSTILE_A}" in text for text in texts(root))


def test_long_lines_are_fitted_to_the_figure(uci):
    name = "a rather long algorithm name with its settings " * 2
    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    result = dataclasses.replace(result, name_a=name)
    _, _, root = draw(result)
    width = float(root.get("viewBox").split()[2])
    long = [t for t in root.iter(f"{SVG}text") if name in (t.text or "")]
    assert len(long) >= 2  # the title (and its threshold line) and the x label
    for text in long:
        assert float(text.get("font-size")) < posterior_svg.TITLE_SIZE
        assert float(text.get("textLength", "0")) <= width


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
    assert any(line.get("stroke") == ACCENT for line in root.iter(f"{SVG}line"))
    assert any(p.get("fill") == ACCENT for p in root.iter(f"{SVG}path"))

    result = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    picture, _, root = draw(result, bins=30)
    _, y = to_data(curve(root, ACCENT), picture)
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
    entries = set(posterior_svg._legend_entries(picture, False))
    legend = [t for t in root.iter(f"{SVG}text") if "".join(t.itertext()) in entries]
    assert len(legend) == len(entries)
    for text in legend:  # left-aligned, at the legend's size unless fitted
        content = "".join(text.itertext())
        font = float(text.get("font-size", posterior_svg.LEGEND_SIZE))
        end = float(text.get("x")) + min(
            posterior_svg.text_width(content, font),
            float(text.get("textLength", "inf")),
        )
        assert end <= width - 3.9, (content, end, width)


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
    np.testing.assert_allclose(ax.get_xticks(), ticks)
    assert [t.get_text() for t in ax.get_xticklabels()] == labels
    plt.close(ax.figure)
    svg = signrank_svg(picture, "alt")
    for label in labels:
        assert f">{label}</text>" in svg
