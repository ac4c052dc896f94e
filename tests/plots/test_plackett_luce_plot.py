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


@pytest.mark.parametrize("m", [2, 8, 50, 100])
def test_markers_lie_inside_their_intervals_and_bars_are_p_best(m):
    res = result_for(m)
    ax = res.plot()
    ranking = res.ranking
    for name in ranking.index:
        interval = next(
            line for line in ax.get_lines() if line.get_gid() == f"interval-{name}"
        )
        median = next(
            line for line in ax.get_lines() if line.get_gid() == f"median-{name}"
        )
        low, high = interval.get_xdata()
        assert (low, high) == (
            ranking.loc[name, "rank_lower"],
            ranking.loc[name, "rank_upper"],
        )
        assert low <= median.get_xdata()[0] <= high
        bar = next(p for p in ax.bars_axes.patches if p.get_gid() == f"best-{name}")
        assert bar.get_width() == pytest.approx(ranking.loc[name, "prob_best"])


@pytest.mark.parametrize("m", [50, 100])
def test_every_algorithm_is_labelled(m):
    res = result_for(m)
    ax = res.plot()
    ax.figure.canvas.draw()
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert sorted(labels) == sorted(res.ranking.index)


def test_rows_are_best_first_by_expected_rank():
    res = result_for(6)
    ax = plackett_luce(res)
    labels = [label.get_text() for label in ax.get_yticklabels()]
    expected = res.ranking.sort_values("expected_rank").index.tolist()
    assert labels == expected


@pytest.mark.parametrize("m", [3, 8, 50])
def test_rows_follow_a_given_order_with_their_own_numbers(m):
    """order= (a report's Table 1 order) sets the rows top to bottom; each
    row keeps its own algorithm's interval and P(best) bar."""
    res = result_for(m, seed=1)
    order = list(np.random.default_rng(m).permutation(list(res.ranking.index)))
    ax = plackett_luce(res, order=order)
    labels = [t.get_text() for panel in ax.panels for t in panel.get_yticklabels()]
    assert labels == order
    per = -(-m // len(ax.panels))
    for k, name in enumerate(order):
        panel = ax.panels[k // per]
        (bar,) = [p for p in panel.bars_axes.patches if p.get_gid() == f"best-{name}"]
        assert bar.get_y() + bar.get_height() / 2 == pytest.approx(k % per)
        assert bar.get_width() == pytest.approx(res.ranking.loc[name, "prob_best"])


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
