"""A report figure is narrowed to the page, never to a negative size."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from nbstats.reporting.display import PAGE_HEIGHT, PAGE_WIDTH, _fit_page


def test_a_figure_that_fits_is_left_alone():
    fig = plt.figure(figsize=(4, 3))
    fig.text(0.5, 0.5, "short", fontsize=8)
    _fit_page(fig)
    assert tuple(fig.get_size_inches()) == (4, 3)
    plt.close(fig)


def test_a_wide_figure_is_narrowed_to_the_page():
    fig = plt.figure(figsize=(PAGE_WIDTH + 1.0, 3), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([0, 1])
    ax.set_ylabel("a label")
    _fit_page(fig)
    assert fig.get_size_inches()[0] < PAGE_WIDTH
    plt.close(fig)


def test_text_no_figure_can_hold_does_not_crash():
    # rows of labels taller than the page (as a 100-algorithm panel at one
    # column's width was): the figure is left for the page to scale
    fig = plt.figure(figsize=(3.3, 4.0))
    fig.text(0.5, 0.5, "\n".join(f"name {i}" for i in range(120)), fontsize=8)
    _fit_page(fig)
    width, height = fig.get_size_inches()
    assert width > 0 and height > 0
    assert height <= 4.0 and PAGE_HEIGHT > 1
    plt.close(fig)
