"""Forest plot of rank confidence intervals: the drawn artists carry the result."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots.ranks import rank_intervals
from nbstats.plots.style import literal, save

NASTY = ["a_b", "x & y", "$5", "50%", "Ærø"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def nemenyi(table6):
    return nbstats.rank_ci(table6, method="id-nemenyi")


@pytest.fixture
def two_methods(table6):
    return [
        nbstats.rank_ci(table6, method="id-wilcoxon-2s"),
        nbstats.rank_ci(table6, method="bootstrap", random_state=0),
    ]


def _lines(ax, prefix):
    return {
        line.get_gid(): line
        for line in ax.get_lines()
        if (line.get_gid() or "").startswith(prefix)
    }


def _texts(ax, gid):
    return [t for t in ax.texts if (t.get_gid() or "").startswith(gid)]


def _rank_of(ax):
    """The rank at a drawn x: the affine map through the first and last
    labelled ticks, read from the figure (not from the layout)."""
    ticks = sorted(
        (int(t.get_text()), t.get_position()[0]) for t in _texts(ax, "tick-label")
    )
    (r0, x0), (r1, x1) = ticks[0], ticks[-1]
    return lambda x: r0 + (x - x0) * (r1 - r0) / (x1 - x0)


def _ranks(ax, line):
    rank_of = _rank_of(ax)
    return [round(rank_of(x), 9) for x in line.get_xdata()]


def _marker_x(ax, gid):
    """The centre x of a marker: a Line2D (a circle) or a symmetric polygon."""
    (artist,) = [a for a in ax.get_children() if a.get_gid() == gid]
    if hasattr(artist, "get_xdata"):
        return round(_rank_of(ax)(artist.get_xdata()[0]), 9)
    xs = artist.get_xy()[:, 0]
    return round(_rank_of(ax)((xs.min() + xs.max()) / 2), 9)


def _row_names(ax):
    """The names as drawn, top to bottom."""
    return [
        t.get_text()
        for t in sorted(_texts(ax, "name-"), key=lambda t: t.get_position()[1])
    ]


def _random_scores(m, n=25, names=None, seed=3):
    rng = np.random.default_rng(seed)
    columns = names if names is not None else [f"algorithm {i:02d}" for i in range(m)]
    return pd.DataFrame(rng.normal(size=(n, m)) + np.linspace(0, 1, m), columns=columns)


def test_interval_endpoints_are_the_result(table6):
    for method in ["id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s", "anova-tukey"]:
        result = nbstats.rank_ci(table6, method=method, alpha=0.10)
        ax = rank_intervals(result)
        lines = _lines(ax, "interval-")
        assert len(lines) == 4
        for name in table6.columns:
            xs = _ranks(ax, lines[f"interval-{method}-{name}"])
            assert xs == [result.lower[name], result.upper[name]]
            # the marker: the place in the mean-rank order (Demšar's Table 6
            # mean ranks 1.964, 2.000, 2.893, 3.143 -> places 1, 2, 3, 4)
            place = {"C4.5+m+cf": 1, "C4.5+m": 2, "C4.5+cf": 3, "C4.5": 4}[name]
            x = _marker_x(ax, f"rank-{method}-{name}")
            assert x == place
            assert xs[0] <= x <= xs[1]
        plt.close(ax.figure)


def test_markers_lie_inside_their_intervals_on_a_real_table():
    # Fernández-Delgado et al.'s 13 MultiBoost classifiers: the mean ranks
    # (4.10 …) drawn on the rank axis fell outside intervals like [1, 3]
    scores = nbstats.datasets.load("fernandez_delgado2014_multiboost").dropna()
    for method in ["id-nemenyi", "id-wilcoxon-2s", "id-wilcoxon-1s", "anova-tukey"]:
        result = nbstats.rank_ci(scores, method=method)
        ax = rank_intervals(result)
        intervals = _lines(ax, "interval-")
        assert len(intervals) == scores.shape[1]
        for name in scores.columns:
            lo, hi = _ranks(ax, intervals[f"interval-{method}-{name}"])
            x = _marker_x(ax, f"rank-{method}-{name}")
            assert lo <= x <= hi, (method, name, lo, x, hi)
        plt.close(ax.figure)


def test_rows_by_mean_rank_best_at_top(nemenyi):
    ax = rank_intervals(nemenyi)
    labels = _row_names(ax)
    # Demšar's Table 6 average ranks: 1.964, 2.000, 2.893, 3.143
    assert labels == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert labels == list(nemenyi.mean_ranks.sort_values().index)
    ys = [
        _lines(ax, "interval-")[f"interval-id-nemenyi-{name}"].get_ydata()[0]
        for name in labels
    ]
    # drawn top to bottom: the y axis runs down, so screen order = label order
    bottom, top = ax.get_ylim()
    assert bottom > top
    assert ys == sorted(ys)
    # each name on its row
    assert [t.get_position()[1] for t in _texts(ax, "name-")] == sorted(ys)


def test_rank_axis_is_one_to_m_with_every_rank_ticked(nemenyi):
    ax = rank_intervals(nemenyi)
    assert [int(t.get_text()) for t in _texts(ax, "tick-label")] == [1, 2, 3, 4]
    rank_of = _rank_of(ax)
    marks = sorted(
        round(rank_of(line.get_xdata()[0]), 9)
        for line in ax.get_lines()
        if line.get_gid() == "tick-mark"
    )
    assert marks == [1, 2, 3, 4]
    (axis,) = _lines(ax, "axis").values()
    lo, hi = rank_of(min(axis.get_xdata())), rank_of(max(axis.get_xdata()))
    assert lo < 1 < 4 < hi
    assert [t.get_text() for t in _texts(ax, "xlabel")] == ["rank (1 = best)"]
    # wrapped to the axes' width
    title = " ".join(t.get_text() for t in _texts(ax, "title"))  # one per line
    assert title == "95% confidence intervals for ranks: Iman–Davenport + Nemenyi"


def test_two_methods_side_by_side(two_methods):
    ax = rank_intervals(two_methods)
    lines = _lines(ax, "interval-")
    assert len(lines) == 2 * 4
    rows = dict(zip(ax.layout.panels[0].rows, ax.layout.panels[0].row_y, strict=True))
    row = abs(ax.layout.panels[0].row_y[1] - ax.layout.panels[0].row_y[0])
    for name in two_methods[0].lower.index:
        a = lines[f"interval-id-wilcoxon-2s-{name}"]
        b = lines[f"interval-bootstrap-{name}"]
        assert a.get_ydata()[0] != b.get_ydata()[0]
        assert abs(a.get_ydata()[0] - rows[name]) < row / 2  # same row
        assert abs(b.get_ydata()[0] - rows[name]) < row / 2
        assert a.get_color() != b.get_color()
        for result, line in zip(two_methods, (a, b), strict=True):
            assert _ranks(ax, line) == [result.lower[name], result.upper[name]]
    legend = sorted(_texts(ax, "legend-"), key=lambda t: t.get_gid())
    assert [t.get_text() for t in legend if t.get_gid() != "legend-title"] == [
        "id-wilcoxon-2s",
        "bootstrap",
    ]
    (title,) = _texts(ax, "legend-title")
    assert title.get_text() == "95% confidence intervals for ranks"
    # each method's offset from its row is the same in every row
    offsets = {
        method: {
            round(lines[f"interval-{method}-{name}"].get_ydata()[0] - y, 6)
            for name, y in rows.items()
        }
        for method in ("id-wilcoxon-2s", "bootstrap")
    }
    assert all(len(v) == 1 for v in offsets.values())


def test_dict_labels_and_duplicate_methods(table6):
    a = nbstats.rank_ci(table6, method="id-nemenyi", alpha=0.05)
    b = nbstats.rank_ci(table6, method="id-nemenyi", alpha=0.10)
    ax = rank_intervals({"α = .05": a, "α = .10": b})
    assert "interval-α = .10-C4.5" in _lines(ax, "interval-")
    assert _ranks(ax, _lines(ax, "interval-")["interval-α = .10-C4.5"]) == [
        b.lower["C4.5"],
        b.upper["C4.5"],
    ]
    # a list with the same method twice: the confidence level tells them apart
    ax = rank_intervals([a, b])
    texts = [
        t.get_text() for t in _texts(ax, "legend-") if t.get_gid() != "legend-title"
    ]
    assert texts == ["id-nemenyi, 95%", "id-nemenyi, 90%"]
    (title,) = _texts(ax, "legend-title")
    assert title.get_text() == "Confidence intervals for ranks"
    with pytest.raises(ValueError, match="pass a dict"):
        rank_intervals([a, a])


def test_order_option(nemenyi):
    order = ["C4.5", "C4.5+cf", "C4.5+m", "C4.5+m+cf"]
    ax = rank_intervals(nemenyi, order=order)
    assert _row_names(ax) == order
    with pytest.raises(ValueError, match="permutation"):
        rank_intervals(nemenyi, order=["C4.5", "C4.5+cf"])


def test_thirty_algorithms_labels_do_not_overlap():
    scores = _random_scores(30)
    results = [
        nbstats.rank_ci(scores, method="id-wilcoxon-2s"),
        nbstats.rank_ci(scores, method="bootstrap", random_state=0, n_resamples=200),
    ]
    ax = rank_intervals(results)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for labels in (_texts(ax, "name-"), _texts(ax, "tick-label")):
        boxes = [t.get_window_extent(renderer) for t in labels if t.get_text()]
        assert len(boxes) >= 7
        for a, b in itertools.combinations(boxes, 2):
            assert not a.overlaps(b)
    assert len(_texts(ax, "name-")) == 30
    # a tick at every rank
    rank_of = _rank_of(ax)
    ticks = {
        round(rank_of(line.get_xdata()[0]), 9)
        for line in ax.get_lines()
        if line.get_gid() == "tick-mark"
    }
    assert ticks == set(range(1, 31))
    # and no label leaves the figure
    figure_box = fig.bbox
    for t in _texts(ax, "name-"):
        box = t.get_window_extent(renderer)
        assert figure_box.contains(*box.p0) and figure_box.contains(*box.p1)


def test_nasty_names_render_literally(tmp_path):
    scores = _random_scores(5, names=NASTY)
    result = nbstats.rank_ci(
        scores, method="bootstrap", random_state=0, n_resamples=200
    )
    ax = rank_intervals(result)
    assert sorted(_row_names(ax)) == sorted(literal(n) for n in NASTY)
    assert "interval-bootstrap-$5" in _lines(ax, "interval-")
    save(ax.figure, tmp_path / "nasty.svg")
    svg = (tmp_path / "nasty.svg").read_text(encoding="utf-8")
    # text stays text (svg.fonttype none): each name appears as written
    for name in ["a_b", "x &amp; y", "$5", "50%", "Ærø"]:
        assert f">{name}<" in svg
    assert "\\$" not in svg


def test_saves_png_and_svg(tmp_path, two_methods):
    ax = rank_intervals(two_methods)
    for suffix in ("png", "svg"):
        path = tmp_path / f"ranks.{suffix}"
        save(ax.figure, path)
        assert path.stat().st_size > 1000
    assert (tmp_path / "ranks.png").read_bytes()[:4] == b"\x89PNG"


def test_draws_on_a_given_axes(nemenyi):
    _fig, (left, right) = plt.subplots(1, 2)
    assert rank_intervals(nemenyi, ax=right) is right
    assert not left.get_lines()


def test_bad_input(table6, nemenyi):
    with pytest.raises(TypeError, match="RankCIResult"):
        rank_intervals(nbstats.posthoc(table6))
    with pytest.raises(TypeError, match="RankCIResult"):
        rank_intervals([nemenyi, "bootstrap"])
    with pytest.raises(TypeError, match="RankCIResult"):
        rank_intervals("id-nemenyi")
    with pytest.raises(ValueError, match="empty"):
        rank_intervals([])
    other = nbstats.rank_ci(table6.iloc[:, :3], method="id-nemenyi")
    with pytest.raises(ValueError, match="different algorithms"):
        rank_intervals({"all": nemenyi, "three": other})
    with pytest.raises(ValueError, match="width"):
        rank_intervals(nemenyi, width="triple")
