"""The heat map's geometry (nbstats.plots.heatmap_layout) fits every venue.

At m = 2, 7, 12, 42 (TabZilla's real table, its holes dropped case-wise) and
50 (synthetic), with 40-character names, in each venue's column (and a
two-column venue's full width) no taller than its float: checked against
oracles computed here -- the cells on a grid computed from the result's mean
ranks, no two texts' boxes intersecting (box intersection by hand), every text
inside the picture and at least 7 pt; the numbers printed equal the number
policy's writing of the result's matrix, ordered here; matplotlib and SVG draw
every item where the layout put it.
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots.figure_model import Rect, Text, float_room
from nbstats.plots.heatmap_layout import LEAST_FONT, heatmap_layout, text_box
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.picture_svg import picture_svg
from nbstats.plots.style import paper_style
from nbstats.results.number_policy import format_column
from nbstats.results.venues import get_venue
from tests.plots.test_venue_figures import VENUES, table_of

SVG = "{http://www.w3.org/2000/svg}"
SIZES = (2, 7, 12, 42, 50)


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def nemenyi():
    return {m: nbstats.posthoc(table_of(m), method="nemenyi") for m in SIZES}


def _by_rank(result) -> list[str]:
    return list(result.mean_ranks.sort_values(kind="stable").index)


def _layout(result, venue: str, *, wide: bool = False, **kw):
    spec = get_venue(venue)
    width = 72 * (spec.text_width_in if wide else spec.column_width_in)
    with paper_style(venue):
        lay = heatmap_layout(
            result,
            width,
            max_height=float_room(venue),
            least_font=LEAST_FONT,
            **kw,
        )
    return lay, width


def _texts(picture) -> list[Text]:
    return [item for item in picture.items if isinstance(item, Text)]


def _intersect(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _check_geometry(lay, result, venue: str, width: float, height: float) -> None:
    pic = lay.picture
    assert pic.width <= width + 1e-6
    assert pic.height <= height + 1e-6
    texts = _texts(pic)
    assert min(t.size for t in texts) >= LEAST_FONT
    with paper_style(venue):  # measured in the venue's font
        boxes = [(t.gid, text_box(t)) for t in texts]
    for gid, (x0, y0, x1, y1) in boxes:
        assert x0 >= -1e-6 and x1 <= pic.width + 1e-6, gid
        assert y0 >= -1e-6 and y1 <= pic.height + 1e-6, gid
    clashes = [
        (a, b)
        for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
        if _intersect(box_a, box_b)
    ]
    assert not clashes, clashes[:5]
    # the cells on a grid: row i, column j by mean rank, all of one size
    names = _by_rank(result)
    fills = {r.gid: r for r in pic.items if r.gid.startswith("fill-")}
    assert len(fills) == len(names) * (len(names) - 1)
    x_0, y_0 = lay.origin
    w, h = lay.cell
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j:
                assert f"fill-{a}-{b}" not in fills
                continue
            cell = fills[f"fill-{a}-{b}"]
            inset = (w - cell.width) / 2
            assert cell.x - inset == pytest.approx(x_0 + j * w)
            assert cell.y - inset == pytest.approx(y_0 + i * h)
            assert cell.height == pytest.approx(h - 2 * inset)
    # every row named (one text at least per row), in rank order
    rows = sorted({int(t.gid[4:]) for t in texts if t.gid.startswith("row-")})
    assert rows == list(range(len(names)))


@pytest.mark.parametrize("m", SIZES)
@pytest.mark.parametrize("venue", VENUES)
def test_fits_every_venue(nemenyi, venue, m):
    result = nemenyi[m]
    for wide in (False, True) if get_venue(venue).two_column else (False,):
        lay, width = _layout(result, venue, wide=wide)
        _check_geometry(lay, result, venue, width, float_room(venue))
        # every name shown as written (maybe wrapped) or as a letter in the key
        for name in result.mean_ranks.index:
            label = lay.labels[name]
            assert f"{label}: {name}" in lay.key or label.replace("\n", "").replace(
                " ", ""
            ) == name.replace(" ", ""), (name, label)
        if m >= 42 and not wide:  # 40-character names in a column: letters
            assert len(lay.key) == m


def test_a_hundred_algorithms_fit_an_article_float():
    table = table_of(50)
    table = pd.concat([table, table.add_suffix("x").iloc[:, :50] + 0.01], axis=1)
    result = nbstats.posthoc(table, method="nemenyi")
    lay, width = _layout(result, "article")
    pic = lay.picture
    assert pic.width <= width and pic.height <= float_room("article")
    assert lay.fontsize == LEAST_FONT
    rows = [t for t in _texts(pic) if t.gid.startswith("row-")]
    assert 0 < len(rows) < 100  # every k-th row named
    with paper_style("article"):
        boxes = [text_box(t) for t in _texts(pic)]
    assert not any(_intersect(a, b) for a, b in itertools.combinations(boxes, 2))


def _printed(result, matrix: pd.DataFrame, kind: str) -> dict[str, str]:
    names = list(matrix.index)
    values = matrix.to_numpy(dtype=float)
    cells = format_column(list(values.ravel()), kind).cells
    out = {}
    for k, (i, j) in enumerate(itertools.product(range(len(names)), repeat=2)):
        if i != j:
            out[f"cell-{names[i]}-{names[j]}"] = cells[k]
    return out


def test_numbers_are_the_number_policys(table6):
    result = nbstats.comparison_matrix(table6)
    order = _by_rank(result)
    with paper_style():
        lay = heatmap_layout(result, 497.0)
    assert lay.numbers
    shown = {
        t.gid: t.lines[0] for t in _texts(lay.picture) if t.gid.startswith("cell-")
    }
    assert shown == _printed(result, result.adjusted.loc[order, order], "pvalue")
    assert shown["cell-C4.5-C4.5+m"] == "0.047"
    # the tooltip names the pair and says the same number
    fill = next(i for i in lay.picture.items if i.gid == "fill-C4.5-C4.5+m")
    assert fill.tooltip == "C4.5 vs C4.5+m: adjusted p = 0.047"


def test_a_probability_never_prints_as_0_or_1():
    rng = np.random.default_rng(3)
    table = pd.DataFrame(rng.normal(size=(40, 3)) * 0.01 + [0.0, 1.0, 2.0],
                         columns=["a", "b", "c"])  # fmt: skip
    result = nbstats.bayes_posthoc(table, n_samples=2000, random_state=0)
    order = _by_rank(result)
    assert set(result.probabilities.to_numpy().ravel()) & {0.0, 1.0}
    with paper_style():
        lay = heatmap_layout(result, 497.0)
    shown = {
        t.gid: t.lines[0] for t in _texts(lay.picture) if t.gid.startswith("cell-")
    }
    matrix = result.probabilities.loc[order, order]
    assert shown == _printed(result, matrix, "probability")
    assert set(shown.values()) <= {"> 0.999", "< 0.001"}


def test_numbers_left_out_when_the_widest_does_not_fit(nemenyi):
    lay, _ = _layout(nemenyi[12], "ieee")
    assert not lay.numbers
    assert not lay.picture.items_of("cell-")


def test_a_control_is_one_column_of_named_rows(table6):
    result = nbstats.posthoc(table6, method="holm", control="C4.5")
    with paper_style():
        lay = heatmap_layout(result, 238.0)
    assert lay.transposed and lay.rows == ("C4.5",)
    fills = [i for i in lay.picture.items if i.gid.startswith("fill-")]
    assert {f.x for f in fills} == {lay.origin[0] + 0.25}  # one column
    assert [t.lines for t in _texts(lay.picture) if t.gid == "control"] == [
        ("control: C4.5",)
    ]
    rows = [t.lines[0] for t in _texts(lay.picture) if t.gid.startswith("row-")]
    assert rows == [n for n in _by_rank(result) if n != "C4.5"]


def test_renderers_agree(nemenyi):
    lay, _ = _layout(nemenyi[7], "twocolumn", wide=True)
    pic = lay.picture
    with paper_style("twocolumn"):
        ax = draw_picture(pic)
        fig = ax.figure
        fig.set_dpi(300)  # hinting at low resolutions changes widths
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        drawn = {(t.get_gid(), t.get_position()): t for t in ax.texts}
        for text in _texts(pic):
            artist = drawn[(text.gid, (text.x, text.y))]
            assert artist.get_text() == text.lines[0]
            assert artist.get_fontsize() == text.size
            extent = artist.get_window_extent(renderer).transformed(
                fig.dpi_scale_trans.inverted()  # inches
            )
            x0, y0, x1, y1 = text_box(text)
            # matplotlib's extent (pixels = points here) is as long as the box
            along = 72 * (extent.width if not text.rotation else extent.height)
            wanted = (x1 - x0) if not text.rotation else (y1 - y0)
            assert along == pytest.approx(wanted, abs=1.0), text
    assert len(drawn) == len(_texts(pic))
    patches = {p.get_gid(): p for p in ax.patches}
    root = ET.fromstring(picture_svg(pic))
    rects = {r.get("data-role"): r for r in root.iter(f"{SVG}rect")}
    for item in pic.items:
        if isinstance(item, Rect):
            patch = patches[item.gid]
            assert (patch.get_x(), patch.get_y()) == (item.x, item.y)
            svg = rects[item.gid]
            assert float(svg.get("x")) == pytest.approx(item.x, abs=0.005)
            assert float(svg.get("y")) == pytest.approx(item.y, abs=0.005)
            if item.tooltip:
                assert svg.find(f"{SVG}title").text == item.tooltip
