"""The fold dashboard's pictures as SVG: the paper figures' geometry.

:func:`student_svg` writes the posterior of the Bayesian correlated t-test
(:func:`nbstats.bayes_correlated_ttest`) laid out by
:func:`nbstats.plots.student.student_layout` -- the picture
:func:`nbstats.plots.correlated_posterior` draws with matplotlib -- and
:func:`regions_svg` every data set's three probabilities as one stacked bar
(:func:`nbstats.plots.student.regions_layout`), both through the figure
model's SVG renderer (:func:`nbstats.plots.picture_svg.picture_svg`), in
DejaVu Sans at the dashboard's width. Every text is escaped and no ``id`` is
used, so several pictures can share a page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from nbstats.results.number_policy import format_number

__all__ = ["format_probability", "regions_svg", "student_svg"]

#: The dashboard pictures' width (points).
WIDTH = 374.4


def format_probability(p: float | None) -> str:
    """As the report prints a probability (the number policy: three decimals,
    never a false 0 or 1); "–" for a missing probability.

    Examples
    --------
    >>> format_probability(0.8154), format_probability(0.99991)
    ('0.815', '> 0.999')
    >>> format_probability(1.0), format_probability(None)
    ('> 0.999', '–')
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return format_number(float(p), "probability")


def student_svg(result: Any, *, labels: tuple[str, str], title: str) -> str:
    """The Student posterior of a Bayesian correlated t-test, as SVG.

    Parameters
    ----------
    result : BayesCorrelatedTTestResult or alike
        Needs ``mean``, ``scale``, ``df``, ``rope``, ``prob_left``,
        ``prob_rope``, ``prob_right``.
    labels : (str, str)
        Display names of a and b.
    title : str
        The title line (e.g. "nbc vs aode on anneal").

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.bayes_correlated_ttest(
    ...     [0.80, 0.82, 0.79, 0.81, 0.80], [0.82, 0.83, 0.80, 0.84, 0.80],
    ...     rope=0.005, folds=5)
    >>> svg = student_svg(res, labels=("a", "b"), title="a vs b")
    >>> svg.startswith("<svg") and "P(rope ±0.005) = " in svg
    True
    """
    from nbstats.plots.chart_layout import DASHBOARD
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.student import student_layout
    from nbstats.plots.style import paper_style

    alt = f"posterior of the mean difference {labels[1]} − {labels[0]}"
    with paper_style():
        geometry = student_layout(
            result, labels, title, WIDTH, style=DASHBOARD, alt=alt
        )
    return picture_svg(geometry.picture)


def regions_svg(
    cases: Sequence[str],
    left: np.ndarray,
    rope: np.ndarray | None,
    right: np.ndarray,
    *,
    labels: tuple[str, str],
    threshold: float,
    title: str,
) -> str:
    """Every data set's P(a better), P(rope), P(b better) as one stacked bar.

    The bars are sorted from "a better" to "b better"; dotted lines mark the
    threshold from either end. Long data set names are shortened (the full
    name and the three probabilities are each bar's tooltip).

    Examples
    --------
    >>> import numpy as np
    >>> svg = regions_svg(["x", "y"], np.array([0.9, 0.1]), None,
    ...                   np.array([0.1, 0.9]), labels=("a", "b"),
    ...                   threshold=0.95, title="a vs b")
    >>> svg.count("<rect") > 4
    True
    """
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.student import regions_layout
    from nbstats.plots.style import paper_style

    alt = f"posterior probabilities of {labels[0]} vs {labels[1]} on each data set"
    with paper_style():
        geometry = regions_layout(
            cases,
            left,
            rope,
            right,
            labels=labels,
            threshold=threshold,
            title=title,
            width=WIDTH,
            alt=alt,
        )
    return picture_svg(geometry.picture)
