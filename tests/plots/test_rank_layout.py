"""The rank-interval plot's one geometry (rank_layout) and its two renderers.

Oracles: an affine map of the ranks computed here from the drawn axis' ends
(ranks 0.5 and m + 0.5), places from scipy's rankdata of the mean ranks, text
boxes from the one width measure, the SVG parsed back with xml.etree, and
matplotlib's own text extents.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import rankdata

import nbstats
from nbstats.plots.figure_model import Area, Dot, Stroke, Text
from nbstats.plots.labels import text_width
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.picture_svg import picture_svg
from nbstats.plots.rank_layout import rank_layout
from nbstats.plots.ranks import rank_intervals
from nbstats.plots.style import paper_style, save
from nbstats.results.venues import get_venue
from nbstats.widgets.rank_svg import intervals_svg

SVG = "{http://www.w3.org/2000/svg}"
LONG = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@dataclass
class Fake:
    """What rank_layout reads of a RankCIResult."""

    lower: pd.Series
    upper: pd.Series
    mean_ranks: pd.Series
    method: str = "id-nemenyi"
    omnibus_pvalue: float = 0.01
    level: float = 0.95


@st.composite
def fakes(draw):
    m = draw(st.integers(2, 60))
    k = draw(st.integers(1, 3))
    long = draw(st.booleans())
    names = [f"{LONG[: 10 + (j % 40)] if long else 'alg'}-{j}" for j in range(m)]
    means = pd.Series(
        draw(st.lists(st.floats(1, m), min_size=m, max_size=m)), index=names
    )
    results = {}
    for j in range(k):
        lows = draw(st.lists(st.integers(1, m), min_size=m, max_size=m))
        spans = draw(st.lists(st.integers(0, m), min_size=m, max_size=m))
        lower = pd.Series(lows, index=names)
        upper = pd.Series(
            [min(m, lo + s) for lo, s in zip(lows, spans, strict=True)], index=names
        )
        results[f"method {j}"] = Fake(lower, upper, means)
    width = draw(st.sampled_from([237.6, 241.0, 252.0, 496.8]))
    return results, width, draw(st.booleans())


def _box(text: Text) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a text, measured with the one width measure."""
    w = text_width("\n".join(text.lines), text.size)
    h = 1.2 * text.size * len(text.lines)
    x0 = {"start": text.x, "middle": text.x - w / 2, "end": text.x - w}[text.anchor]
    y0 = {"top": text.y, "center": text.y - h / 2, "bottom": text.y - h}[text.valign]
    return x0, y0, x0 + w, y0 + h


def _apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def _check_geometry(layout, results) -> None:
    picture = layout.picture
    texts = [item for item in picture.items if isinstance(item, Text)]
    # no text below 7 pt (8 pt here), every text inside the picture, none overlap
    assert min(t.size for t in texts) >= 8.0
    boxes = [_box(t) for t in texts]
    for x0, y0, x1, y1 in boxes:
        assert x0 >= -0.01 and x1 <= picture.width + 0.01
        assert y0 >= -0.01 and y1 <= picture.height + 0.01
    for (ta, a), (tb, b) in itertools.combinations(zip(texts, boxes, strict=True), 2):
        assert _apart(a, b), (ta.gid, ta.lines, tb.gid, tb.lines)
    axes = [i for i in picture.items if i.gid == "axis"]
    first = next(iter(results.values()))
    m = len(first.lower)
    places = dict(zip(first.mean_ranks.index, rankdata(first.mean_ranks), strict=True))
    for panel, axis in zip(layout.panels, axes, strict=True):
        (left, _), _, (right, _axis_y) = axis.points

        def x_of(rank, left=left, right=right):
            return left + (rank - 0.5) * (right - left) / m

        assert right <= picture.width
        for name, y in zip(panel.rows, panel.row_y, strict=True):
            for label, result in results.items():
                gid = f"interval-{label}-{name}"
                (line,) = [i for i in picture.items if i.gid == gid]
                (x0, y0), (x1, y1) = line.points
                assert y0 == y1 and abs(y0 - y) < 0.5 * (panel.row_y[-1] - panel.top)
                assert x0 == pytest.approx(x_of(result.lower[name]), abs=1e-9)
                assert x1 == pytest.approx(x_of(result.upper[name]), abs=1e-9)
                cx, cy = layout.markers[f"rank-{label}-{name}"]
                assert cx == pytest.approx(x_of(places[name]), abs=1e-9)
                assert cy == y0


@settings(max_examples=40, deadline=None)
@given(fakes())
def test_intervals_sit_on_an_affine_map_of_the_ranks_and_texts_never_overlap(case):
    results, width, key = case
    with paper_style():
        layout = rank_layout(results, width, key=key)
    assert layout.picture.width == width
    keys = layout.picture.items_of("key")
    if key:  # the key of letters in the picture: none left for a renderer
        assert not layout.key
        assert len(keys) == len(layout.aliases or {})
    else:
        assert not keys and len(layout.key) == len(layout.aliases or {})
    _check_geometry(layout, results)


def _table(m: int, long: bool = False, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    names = [f"{LONG[:30]}-{j}" if long else f"algorithm-{j:03d}" for j in range(m)]
    return pd.DataFrame(rng.normal(size=(30, m)) + np.linspace(0, 2, m), columns=names)


@pytest.mark.parametrize("venue", ["twocolumn", "ieee", "acm"])
def test_fifty_algorithms_fit_a_venue_column_at_8_pt(venue, tmp_path):
    result = nbstats.rank_ci(_table(50, long=True), method="id-nemenyi")
    column = get_venue(venue).column_width_pt
    ax = rank_intervals(result, width=venue)
    layout = ax.layout
    with paper_style(venue):
        _check_geometry(layout, {"id-nemenyi": result})
    # the file a paper includes: no wider than the column
    assert layout.picture.width == pytest.approx(column * 72 / 72.27)
    save(ax.figure, tmp_path / "ranks.pdf", pad_inches=0)
    box = ax.figure.get_tightbbox(ax.figure.canvas.get_renderer())
    assert box.width * 72 <= column + 0.5
    sizes = [t.get_fontsize() for t in ax.texts]
    assert min(sizes) >= 7.0


def test_renderers_put_every_item_at_the_same_place():
    table = _table(8, long=True)
    results = {
        "id-nemenyi": nbstats.rank_ci(table, method="id-nemenyi"),
        "bootstrap": nbstats.rank_ci(
            table, method="bootstrap", random_state=0, n_resamples=200
        ),
    }
    with paper_style():
        layout = rank_layout(results, 496.8)
    picture = layout.picture
    ax = draw_picture(picture)
    root = ET.fromstring(picture_svg(picture))
    drawn = {a.get_gid(): a for a in ax.get_children() if a.get_gid()}
    for item in picture.items:
        if not item.gid.startswith(("interval-", "rank-", "name-")):
            continue
        (element,) = root.findall(f".//*[@data-role='{item.gid}']")
        artist = drawn[item.gid]
        if isinstance(item, Stroke):
            drawn_svg = [
                float(v) for p in element.get("points").split() for v in p.split(",")
            ]
            assert drawn_svg == pytest.approx(
                [v for p in item.points for v in p], abs=0.006
            )
            assert list(artist.get_xdata()) == [x for x, _ in item.points]
            assert list(artist.get_ydata()) == [y for _, y in item.points]
        elif isinstance(item, Dot):
            assert float(element.get("cx")) == pytest.approx(item.x, abs=0.006)
            assert (artist.get_xdata()[0], artist.get_ydata()[0]) == (item.x, item.y)
        elif isinstance(item, Area):
            corners = artist.get_xy()[: len(item.points)].ravel().tolist()
            assert corners == pytest.approx([v for p in item.points for v in p])
        elif isinstance(item, Text):
            assert float(element.get("x")) == pytest.approx(item.x, abs=0.006)
            assert artist.get_position() == (item.x, item.y)
            assert artist.get_text() == "\n".join(item.lines)


def test_dashboard_svg_keeps_its_roles_ranks_and_tooltips():
    table = _table(25)  # names too long for a row each: letters and a key
    table.columns = [f"{LONG} #{j}" for j in range(25)]
    result = nbstats.rank_ci(table, method="id-wilcoxon-2s")
    root = ET.fromstring(intervals_svg({"id-wilcoxon-2s": result}))
    found = {
        e.get("data-role"): e.get("data-ranks")
        for e in root.iter()
        if (e.get("data-role") or "").startswith("interval-")
    }
    assert found == {
        f"interval-id-wilcoxon-2s-{name}": f"{result.lower[name]:g} {result.upper[name]:g}"
        for name in table.columns
    }
    titles = [
        e.find(f"{SVG}title").text
        for e in root.iter(f"{SVG}text")
        if (e.get("data-role") or "").startswith("name-")
    ]
    assert sorted(t.split(": mean rank ")[0] for t in titles) == sorted(table.columns)
    # names shown by letters: the key under the axis gives them in full
    keys = [
        " ".join(t.text or "" for t in e.iter(f"{SVG}tspan")) or e.text
        for e in root.iter(f"{SVG}text")
        if e.get("data-role") == "key"
    ]
    letters = {
        e.text
        for e in root.iter(f"{SVG}text")
        if (e.get("data-role") or "").startswith("name-") and len(e.text or "") <= 2
    }
    assert letters
    assert {k.split(": ", 1)[0] for k in keys} == letters
    for entry in keys:
        assert "".join(entry.split(": ", 1)[1].split()) in {
            "".join(n.split()) for n in table.columns
        }


def test_dashboard_svg_escapes_names():
    names = ["a & b", 'say "x"', "<c>"]
    table = _table(3)
    table.columns = names
    svg = intervals_svg(
        {
            "bootstrap": nbstats.rank_ci(
                table, method="bootstrap", random_state=0, n_resamples=100
            )
        }
    )
    root = ET.fromstring(svg)  # well-formed
    roles = {e.get("data-role") for e in root.iter()}
    assert {f"interval-bootstrap-{n}" for n in names} <= roles
