"""The Bayesian dashboard's decision matrix of many algorithms: an SVG heat map.

Beyond FULL_MATRIX_MAX algorithms the matrix is one coloured square per pair
(row a, column b after it), drawn by picture_svg from matrix_picture's
geometry. Oracles: the dashboard's own pairs table (decision, probabilities)
written here by the number policy; the grid computed here; text boxes
intersected by hand.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from nbstats.plots.figure_model import Text
from nbstats.plots.matrix_layout import matrix_picture, text_box
from nbstats.plots.picture_mpl import draw_picture, picture_patches
from nbstats.plots.style import paper_style
from nbstats.results.number_policy import format_column
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.bayes_views import DECISIONS, FULL_MATRIX_MAX
from nbstats.widgets.vocabulary import bayes_decision

SVG = "{http://www.w3.org/2000/svg}"
M = 12


def _scores(names: list[str]) -> pd.DataFrame:
    rng = np.random.default_rng(5)
    m = len(names)
    values = rng.normal(size=(30, m)) * 0.02 + np.linspace(0.0, 0.05, m) + 0.8
    return pd.DataFrame(values, columns=names)


def _svg(view: str) -> ET.Element:
    return ET.fromstring(re.search(r"<svg.*</svg>", view, re.S).group(0))


@pytest.fixture(scope="module")
def board():
    names = [f"alg<{j}> & co" if j == 3 else f"alg{j:02d}" for j in range(M)]
    return BayesDashboard(_scores(names), n_samples=2000, random_state=0)


def test_one_square_per_pair_coloured_by_its_decision(board):
    assert M > FULL_MATRIX_MAX
    root = _svg(board.matrix_view.value)
    pairs = board.result["pairs"]
    names = list(board.names)
    rects = [
        r for r in root.iter(f"{SVG}rect") if r.get("data-role", "")[:9] == "decision-"
    ]
    assert len(rects) == len(pairs) == M * (M - 1) // 2
    lower = pairs["prob_lower"].to_numpy(dtype=float)
    upper = pairs["prob_upper"].to_numpy(dtype=float)
    low = format_column(list(lower), "probability").cells
    high = format_column(list(upper), "probability").cells
    by_tip = {r.find(f"{SVG}title").text: r for r in rects}
    x0 = min(float(r.get("x")) for r in rects)
    y0 = min(float(r.get("y")) for r in rects)
    for k, row in enumerate(pairs.itertuples(index=False)):
        said = bayes_decision(row.decision, row.a, row.b)
        shown = low[k] if lower[k] == upper[k] else f"{low[k]} to {high[k]}"
        rect = by_tip[f"{row.a} vs {row.b}: {said}; P({row.b} better) {shown}"]
        assert rect.get("fill") == DECISIONS[row.decision][1]
        assert rect.get("data-role") == f"decision-{row.decision}"
        # row a's index, column b's after the first
        i, j = names.index(row.a), names.index(row.b) - 1
        assert float(rect.get("x")) == pytest.approx(x0 + 9.75 * j, abs=0.006)
        assert float(rect.get("y")) == pytest.approx(y0 + 9.75 * i, abs=0.006)


def test_names_beside_and_above_escaped(board):
    view = board.matrix_view.value
    assert "alg<3> & co" not in view and "alg&lt;3&gt; &amp; co" in view
    root = _svg(view)
    texts = {t.get("data-role"): t.text for t in root.iter(f"{SVG}text")}
    names = list(board.names)
    assert [texts[f"row-{i}"] for i in range(M - 1)] == names[:-1]
    assert [texts[f"column-{j}"] for j in range(M - 1)] == names[1:]


@pytest.mark.parametrize("m", [11, 50, 100])
def test_no_name_overlaps_and_the_renderers_agree(m):
    names = [f"RandomForest(n_estimators={10 * j})" for j in range(m)]
    cells = {
        (i, j - 1): ("#b9e3bb", f"{names[i]} vs {names[j]}", "decision-b")
        for i, j in itertools.combinations(range(m), 2)
    }
    with paper_style():
        pic = matrix_picture(names[:-1], names[1:], cells)
        texts = [item for item in pic.items if isinstance(item, Text)]
        boxes = [text_box(t) for t in texts]
    assert len(texts) == 2 * (m - 1)
    assert all(t.size >= 7 for t in texts)
    for x0, y0, x1, y1 in boxes:
        assert x0 >= 0 and y0 >= 0 and x1 <= pic.width and y1 <= pic.height
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    ax = draw_picture(pic)
    patches = {(p.get_x(), p.get_y()) for p in picture_patches(ax)}
    assert patches == {(r.x, r.y) for r in pic.items if r.gid.startswith("decision")}
    plt.close(ax.figure)
