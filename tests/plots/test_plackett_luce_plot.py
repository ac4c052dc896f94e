"""The Plackett–Luce figure: the drawn artists carry the result's numbers."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.plots.plackett_luce_figure import plackett_luce


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def result_for(m: int, seed: int = 0, names: list[str] | None = None):
    rng = np.random.default_rng(seed)
    table = pd.DataFrame(
        rng.normal(size=(30, m)) + np.linspace(0, 2, m),
        columns=names or [f"alg{j}" for j in range(m)],
    )
    return nbstats.bayes_plackett_luce(table, n_samples=1000, random_state=seed)


def _map(ax, gid, values):
    """Value at a drawn x: the affine map through the first and last labels
    of an axis (``tick-label``: ranks; ``bars-tick-label``: P(best)), read
    from the figure, in the panel whose rows hold ``x``."""
    labels = [t for t in ax.texts if t.get_gid() == gid]

    def value_of(x):
        # the axis of the panel left of x: its labels' nearest first label
        firsts = sorted(
            t.get_position()[0] for t in labels if float(t.get_text()) == values[0]
        )
        start = max([f for f in firsts if f <= x + 1e-6] or firsts[:1])
        ends = sorted(
            t.get_position()[0]
            for t in labels
            if float(t.get_text()) == values[1] and t.get_position()[0] > start
        )
        end = ends[0]
        return values[0] + (x - start) * (values[1] - values[0]) / (end - start)

    return value_of


def _row_names(ax):
    names = [t for t in ax.texts if (t.get_gid() or "").startswith("name-")]
    return [t.get_text() for t in sorted(names, key=lambda t: t.get_position()[::-1])]


def _by_gid(ax, gid):
    (artist,) = [a for a in ax.get_children() if a.get_gid() == gid]
    return artist


@pytest.mark.parametrize("m", [2, 8, 50, 100])
def test_markers_lie_inside_their_intervals_and_bars_are_p_best(m):
    res = result_for(m)
    ax = res.plot()
    ranking = res.ranking
    rank_of = _map(ax, "tick-label", (1, m))
    p_of = _map(ax, "bars-tick-label", (0, 1))
    for name in ranking.index:
        interval = _by_gid(ax, f"interval-{name}")
        median = _by_gid(ax, f"median-{name}")
        low, high = (round(rank_of(x), 9) for x in interval.get_xdata())
        assert (low, high) == (
            ranking.loc[name, "rank_lower"],
            ranking.loc[name, "rank_upper"],
        )
        assert low <= round(rank_of(median.get_xdata()[0]), 9) <= high
        bar = _by_gid(ax, f"best-{name}")
        assert p_of(bar.get_x()) == pytest.approx(0.0, abs=1e-9)
        assert p_of(bar.get_x() + bar.get_width()) == pytest.approx(
            ranking.loc[name, "prob_best"]
        )


@pytest.mark.parametrize("m", [50, 100])
def test_every_algorithm_is_labelled(m):
    res = result_for(m)
    ax = res.plot()
    ax.figure.canvas.draw()
    assert sorted(_row_names(ax)) == sorted(res.ranking.index)


def test_rows_are_best_first_by_expected_rank():
    res = result_for(6)
    ax = plackett_luce(res)
    expected = res.ranking.sort_values("expected_rank").index.tolist()
    assert _row_names(ax) == expected


@pytest.mark.parametrize("m", [3, 8, 50])
def test_rows_follow_a_given_order_with_their_own_numbers(m):
    """order= (a report's Table 1 order) sets the rows top to bottom; each
    row keeps its own algorithm's interval and P(best) bar."""
    res = result_for(m, seed=1)
    order = list(np.random.default_rng(m).permutation(list(res.ranking.index)))
    ax = plackett_luce(res, order=order)
    assert [n for panel in ax.layout.panels for n in panel.rows] == order
    p_of = _map(ax, "bars-tick-label", (0, 1))
    for name in order:
        (text,) = [t for t in ax.texts if t.get_gid() == f"name-{name}"]
        bar = _by_gid(ax, f"best-{name}")
        # on its name's row, in its name's panel
        assert bar.get_y() + bar.get_height() / 2 == pytest.approx(
            text.get_position()[1]
        )
        assert text.get_position()[0] < bar.get_x()
        assert p_of(bar.get_x() + bar.get_width()) == pytest.approx(
            res.ranking.loc[name, "prob_best"]
        )


def test_values_follow_the_number_policy():
    """No probability prints as 0 or 1: beyond 3 decimals it is "< 0.001"
    or "> 0.999" (two clearly apart algorithms give both)."""
    table = pd.DataFrame({"a": np.arange(30.0), "b": np.arange(30.0) + 5})
    res = nbstats.bayes_plackett_luce(table, n_samples=1000, random_state=0)
    ax = plackett_luce(res)
    values = {
        t.get_gid(): t.get_text() for t in ax.texts if t.get_gid().startswith("value-")
    }
    assert values == {"value-b": "> 0.999", "value-a": "< 0.001"}


@pytest.mark.parametrize(
    ("order", "match"),
    [
        (["alg0", "alg1"], "missing \\['alg2'\\]"),
        (["alg0", "alg1", "alg2", "alg9"], "unknown \\['alg9'\\]"),
        (["alg0", "alg1", "alg1", "alg2"], "repeated"),
    ],
)
def test_an_order_that_is_not_every_algorithm_once_is_refused(order, match):
    with pytest.raises(ValueError, match=match):
        plackett_luce(result_for(3), order=order)


def test_one_name_as_the_order_is_refused():
    with pytest.raises(TypeError, match="sequence of algorithm names"):
        plackett_luce(result_for(3), order="alg0")


def test_long_names_get_a_key():
    names = [
        f"HistGradientBoostingClassifier(max_iter={100 * j}, lr=0.05)" for j in range(8)
    ]
    res = result_for(8, names=names)
    ax = res.plot()
    # the key's entries wrap at 8 pt: compare without the line breaks
    texts = ["".join(t.get_text().split()) for t in ax.figure.findobj(plt.Text)]
    assert all(any("".join(name.split()) in text for text in texts) for name in names)


def test_an_unknown_width_is_refused():
    with pytest.raises(ValueError, match="width must be one of"):
        plackett_luce(result_for(3), width="triple")


@pytest.mark.parametrize("venue", ["twocolumn", "ieee", "acm"])
def test_fifty_algorithms_fit_a_venue_column_at_8_pt(venue):
    """Texts measured by matplotlib as drawn: none below 7 pt (8 here), none
    overlapping another, all inside a figure no wider than the column."""
    import itertools

    from nbstats.results.venues import get_venue

    res = result_for(50, names=[f"RandomForest(depth={j})" for j in range(50)])
    ax = plackett_luce(res, width=venue)
    fig = ax.figure
    assert fig.get_figwidth() * 72 <= get_venue(venue).column_width_pt * 72 / 72.27
    # as printed: at a screen's 100 dpi, hinting sets Times some 8 % wider
    fig.set_dpi(600)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_text()]
    assert min(t.get_fontsize() for t in texts) >= 8
    boxes = [t.get_window_extent(renderer).shrunk(0.98, 0.9) for t in texts]
    for box in boxes:
        assert fig.bbox.contains(box.x0, box.y0) and fig.bbox.contains(box.x1, box.y1)
    for (a, box_a), (b, box_b) in itertools.combinations(
        zip(texts, boxes, strict=True), 2
    ):
        assert not box_a.overlaps(box_b), (a.get_text(), b.get_text())
