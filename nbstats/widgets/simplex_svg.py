"""The hierarchical test's simplex as SVG: the paper figure's geometry.

The picture :func:`nbstats.plots.hierarchical_simplex` draws (as baycomp's
``plot_simplex``): each posterior draw's probabilities (left, rope, right)
for the next data set as a point of the triangle whose corners are the three
regions -- a better bottom left, b better bottom right, the rope at the top
--, coloured by its most probable region, with the boundaries between the
regions dashed and a legend of each region's share of the draws. Its layout
is :func:`nbstats.plots.hierarchical.simplex_picture`'s, in DejaVu Sans at
the dashboard's size, written by
:func:`nbstats.plots.picture_svg.picture_svg`. Every text is escaped; no
``id``.
"""

from __future__ import annotations

from typing import Any

from nbstats.plots.simplex import MAX_POINTS

__all__ = ["MAX_POINTS", "simplex_svg"]

#: The picture's width (points).
WIDTH = 308.0


def simplex_svg(result: Any, labels: tuple[str, str] | None = None) -> str:
    """The simplex of a :class:`BayesHierarchicalResult` with a rope, as SVG.

    ``labels`` (a, b) are the display names (default: the result's names).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> draws = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    >>> res = SimpleNamespace(region_samples=draws, prob_left=1 / 3,
    ...     prob_rope=1 / 3, prob_right=1 / 3, rope=0.01, name_a="nbc",
    ...     name_b="aode", datasets=[1, 2, 3])
    >>> svg = simplex_svg(res)
    >>> regions = ("left", "rope", "right")
    >>> dots = sum(svg.count(f'data-role="simplex-{k}"') for k in regions)
    >>> dots, "nbc better" in svg  # one dot a draw
    (3, True)
    """
    from nbstats.plots.chart_layout import DASHBOARD
    from nbstats.plots.hierarchical import simplex_picture
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.style import paper_style

    if result.prob_rope is None:
        raise ValueError("the simplex needs a rope (rope > 0): rerun with one.")
    name_a, name_b = labels or (str(result.name_a), str(result.name_b))
    alt = f"simplex of the next data set: {name_a} vs {name_b}"
    with paper_style():
        layout = simplex_picture(
            result, WIDTH, labels=(name_a, name_b), style=DASHBOARD, alt=alt
        )
    return picture_svg(layout.picture)
