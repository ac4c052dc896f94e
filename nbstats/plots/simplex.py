"""The (left, rope, right) simplex's geometry, computed once for every renderer.

A posterior draw's probabilities (left, rope, right) are a point of the
triangle whose corners are the three regions: a better bottom left, b better
bottom right, the rope at the top (baycomp's ``plot_simplex``). The point is
coloured by its most probable region, and dashed lines from the centre
separate the regions. :func:`simplex_geometry` computes the points (in
triangle units: the base from (0, 0) to (1, 0), the top at (½, √3/2)), their
regions, the triangle, the boundaries and the corner labels; matplotlib
(:func:`nbstats.plots.rope_probabilities`,
:func:`nbstats.plots.hierarchical_simplex`) and the fold dashboard's SVG
(:func:`nbstats.widgets.simplex_svg.simplex_svg`) map them to their canvas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nbstats.plots.style import ACCENT, MUTED, SECOND

__all__ = ["MAX_POINTS", "REGIONS", "SimplexGeometry", "simplex_geometry"]

#: Draws shown at most (the draws are i.i.d.: an even subset will do).
MAX_POINTS = 4000
#: The regions, in the order of a draw's columns.
REGIONS = ("left", "rope", "right")
COLOURS = {"left": SECOND, "rope": MUTED, "right": ACCENT}
HEIGHT = math.sqrt(3) / 2


@dataclass(frozen=True)
class SimplexGeometry:
    """What the simplex draws, in triangle units.

    ``x``, ``y``: the shown draws; ``winner``: the index in :data:`REGIONS`
    of each one's most probable region; ``corners``: bottom left, bottom
    right, top; ``boundaries``: ``(gid, start, end)`` of the dashed lines
    between regions; ``corner_labels``: the text at each region's corner.
    """

    x: np.ndarray
    y: np.ndarray
    winner: np.ndarray
    corners: tuple[tuple[float, float], ...]
    boundaries: tuple[tuple[str, tuple[float, float], tuple[float, float]], ...]
    corner_labels: dict[str, str]
    colours: dict[str, str]


def simplex_geometry(
    regions: np.ndarray, name_a: str, name_b: str, rope_label: str
) -> SimplexGeometry:
    """The simplex of draws ``regions`` (n × 3: left, rope, right).

    Examples
    --------
    >>> g = simplex_geometry(np.array([[1.0, 0, 0], [0, 0, 1.0], [0, 1.0, 0]]),
    ...                      "a", "b", "rope ±0.01")
    >>> [(float(x), round(float(y), 3)) for x, y in zip(g.x, g.y)]
    [(0.0, 0.0), (1.0, 0.0), (0.5, 0.866)]
    >>> g.winner.tolist(), g.corner_labels["left"]
    ([0, 2, 1], 'a better')
    """
    regions = np.asarray(regions, dtype=float)
    if regions.shape[0] > MAX_POINTS:
        keep = np.linspace(0, regions.shape[0] - 1, MAX_POINTS).astype(np.intp)
        regions = regions[keep]
    centre = (0.5, HEIGHT / 3)
    return SimplexGeometry(
        x=regions[:, 2] + 0.5 * regions[:, 1],
        y=HEIGHT * regions[:, 1],
        winner=np.argmax(regions, axis=1),
        corners=((0.0, 0.0), (1.0, 0.0), (0.5, HEIGHT)),
        boundaries=(
            ("boundary-left-right", centre, (0.5, 0.0)),
            ("boundary-rope-right", centre, (0.75, HEIGHT / 2)),
            ("boundary-left-rope", centre, (0.25, HEIGHT / 2)),
        ),
        corner_labels={
            "left": f"{name_a} better",
            "right": f"{name_b} better",
            "rope": rope_label,
        },
        colours=dict(COLOURS),
    )
