"""The Bayesian dashboard's posterior plot as SVG.

:func:`signrank_svg` writes the picture of
:func:`nbstats.plots.posterior.signrank_layout` -- the geometry
:func:`nbstats.plots.signrank_posterior` draws with matplotlib -- through
the figure model's SVG renderer (:func:`nbstats.plots.picture_svg.picture_svg`),
laid out in DejaVu Sans at the dashboard's width in its style
(:data:`nbstats.plots.chart_layout.DASHBOARD`: the axes stay in place
between redraws, the legend below them).
"""

from __future__ import annotations

from typing import Any

__all__ = ["signrank_svg"]

#: The dashboard pictures' width (points).
WIDTH = 374.4


def signrank_svg(picture: Any, alt: str) -> str:
    """SVG of a :func:`~nbstats.plots.posterior.signrank_picture`.

    The geometry is the paper figure's
    (:func:`~nbstats.plots.posterior.signrank_layout`), laid out in DejaVu
    Sans at the dashboard's width and style
    (:data:`~nbstats.plots.chart_layout.DASHBOARD`: the axes stay in place
    between redraws, the legend below them), written by
    :func:`~nbstats.plots.picture_svg.picture_svg`. ``alt`` becomes the
    SVG's ``<title>`` (its accessible name).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.posterior import signrank_picture
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    >>> svg = signrank_svg(signrank_picture(res, None, True), "nbc vs j48")
    >>> 'data-role="posterior-lower"' in svg and "upper 0.814" in svg
    True
    """
    from nbstats.plots.chart_layout import DASHBOARD
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.posterior import signrank_layout
    from nbstats.plots.style import paper_style

    with paper_style():
        geometry = signrank_layout(picture, WIDTH, style=DASHBOARD, alt=alt)
    return picture_svg(geometry.picture)
