"""The CD diagram's one geometry (cd_layout) and its three renderers."""

from __future__ import annotations

import itertools
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
from nbstats.plots.cd import cd_diagram
from nbstats.plots.cd_layout import cd_layout, rank_ticks
from nbstats.plots.cd_svg import layout_svg
from nbstats.plots.labels import text_width
from nbstats.plots.style import paper_style
from nbstats.plots.tikz import tikz_picture


@settings(max_examples=200, deadline=None)
@given(
    first=st.integers(1, 60),
    span=st.integers(1, 80),
    per_rank=st.floats(0.5, 60.0),
)
def test_tick_labels_never_collide_and_both_ends_are_labelled(first, span, per_rank):
    last = first + span

    def x_of(rank):
        return 10.0 + per_rank * (last - rank)  # best on the right

    with paper_style():
        majors, minors = rank_ticks(first, last, x_of, 8.0)
        half = {r: text_width(str(r), 8.0) / 2 for r in majors}
    assert majors == sorted(set(majors))
    assert majors[-1] == last
    assert majors[0] == first or len(majors) == 1
    for a, b in itertools.pairwise(majors):
        # an em (8 pt) at least between two labels' ink boxes
        assert abs(x_of(a) - x_of(b)) >= half[a] + half[b] + 8.0 - 1e-9
    assert not set(majors) & set(minors)


def test_the_36_37_collision_of_issue_36():
    # cd_tikz's old ticks: range(first, last + 1, step) plus last, so "36"
    # beside "37"; now the step's multiple next to an end gives way
    with paper_style():
        majors, _ = rank_ticks(13, 37, lambda r: 6.0 * r, 8.0)
    assert 37 in majors and 36 not in majors and 35 not in majors


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(7)
    table = pd.DataFrame(
        rng.normal(size=(40, 9)) + np.linspace(0, 2.5, 9),
        columns=[f"algorithm-{k}" for k in range(9)],
    )
    return nbstats.posthoc(table, method="nemenyi", alpha=0.10)


def test_three_renderers_draw_the_same_points(result):
    """Each name's stem ends and label anchor, the group lines and the CD bar
    are where the layout put them in matplotlib (in points from the top
    left), TikZ and SVG alike."""
    with paper_style():
        layout = cd_layout(result, 300.0)
    tikz = tikz_picture(layout)
    svg = layout_svg(layout, "test")
    # matplotlib, drawn at 300 pt: transform its artists to points
    fig = plt.figure(figsize=(300 / 72, layout.body_height / 72))
    mpl_ax = fig.add_axes((0, 0, 1, 1))
    cd_diagram(result, ax=mpl_ax)
    to_points = mpl_ax.transData
    height_px = fig.bbox.height
    scale = 72 / fig.dpi
    checked = 0
    drawn_lines: dict[str, list] = {}
    for artist in mpl_ax.lines:
        drawn_lines.setdefault(artist.get_gid(), []).append(artist)
    for stroke in layout.strokes:
        line = drawn_lines[stroke.gid].pop(0)  # in the layout's order
        if not stroke.visible:
            continue
        drawn = to_points.transform(np.column_stack(line.get_data()))
        drawn_pt = [(x * scale, (height_px - y) * scale) for x, y in drawn]
        for (x, y), (dx, dy) in zip(stroke.points, drawn_pt, strict=True):
            assert dx == pytest.approx(x, abs=0.05) and dy == pytest.approx(y, abs=0.05)
        path = " -- ".join(f"({x:.2f},{y:.2f})" for x, y in stroke.points)
        assert path in tikz, stroke.gid
        assert " ".join(f"{x:.2f},{y:.2f}" for x, y in stroke.points) in svg
        checked += 1
    assert checked >= 9 + 2 + 1  # the stems, the group lines, the CD bar
    plt.close(fig)
    for text in layout.texts:
        if text.gid.startswith("label-"):
            assert f"at ({text.x:.2f}," in tikz
            assert f'x="{text.x:.2f}"' in svg
    assert re.search(r'data-role="cd">CD = 1\.\d\d<', svg)
