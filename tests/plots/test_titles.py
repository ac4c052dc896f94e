"""Figures in a report carry no title: the caption says it (issue 27, item 3).

``set_typography(titles=False)`` (what a report sets) removes the in-figure
title of every Bayesian two-sample figure; a plot drawn on its own keeps it.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

import nbstats
from nbstats.plots.style import set_typography


@pytest.fixture(scope="module")
def pair():
    table = nbstats.datasets.load("demsar2006")
    return table["C4.5"], table["C4.5+m"]


def _figures(pair):
    a, b = pair
    signrank = nbstats.bayes_signrank(a, b, rope=0.01, random_state=0)
    sign = nbstats.bayes_sign_test(a, b, random_state=0)
    return {
        "posterior": lambda: signrank.plot(kind="posterior"),
        "simplex": lambda: signrank.plot(kind="simplex"),
        "sign": lambda: sign.plot(),
    }


def _title(ax) -> str:
    """The axes' title, or a figure-model picture's text of gid "title"."""
    drawn = [t.get_text() for t in ax.texts if t.get_gid() == "title"]
    return ax.get_title() + "\n".join(drawn)


@pytest.mark.parametrize("name", ["posterior", "simplex", "sign"])
def test_a_report_figure_has_no_title_and_a_plot_on_its_own_has_one(pair, name):
    draw = _figures(pair)[name]
    alone = draw()
    assert _title(alone).strip()
    plt.close(alone.figure)
    before = set_typography(titles=False)
    try:
        in_report = draw()
        assert _title(in_report) == ""
        plt.close(in_report.figure)
    finally:
        set_typography(titles=before.titles)
