"""Pictures of the Bayesian hierarchical test: the simplex and the shrunk δ_i."""

from __future__ import annotations

from typing import Any

import numpy as np

from nbstats.plots._common import fit_texts, format_probability, legend, quiet
from nbstats.plots.chart_layout import paper_points
from nbstats.plots.simplex import draw_simplex, simplex_geometry, simplex_layout
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SHADE,
    figure_width,
    literal,
    new_axes,
    paper_style,
    titles_shown,
)

__all__ = ["hierarchical_datasets", "hierarchical_simplex", "simplex_picture"]


def _check(result: Any, needs: tuple[str, ...], plot: str) -> None:
    missing = [name for name in needs if not hasattr(result, name)]
    if missing:
        raise TypeError(
            f"{plot} draws a Bayesian hierarchical test (from "
            f"nbstats.bayes_hierarchical); {type(result).__name__} has no "
            f"{', '.join(missing)}."
        )


def hierarchical_simplex(result: Any, *, ax: Any = None, width: str = "single") -> Any:
    """The posterior draws of (left, rope, right) for the next data set.

    Each draw of (δ0, σ0, ν) gives the probabilities that the next data
    set's difference δ_new ~ Student-t(ν, δ0, σ0) lies left of −rope (a
    better), in the rope, or right of it (b better): a point of the triangle
    whose corners are the three regions, coloured by its most probable
    region, as baycomp's ``plot_simplex``. The legend gives the share of
    draws in each region (the result's ``prob_*``).

    Parameters
    ----------
    result : BayesHierarchicalResult
        With a rope (without one there is no middle corner).
    ax : matplotlib Axes, optional
    width : {"single", "double"}

    Returns
    -------
    matplotlib.axes.Axes
        The picture of :func:`simplex_picture` (the fold dashboard's
        geometry too): data coordinates are points, every artist carries its
        item's gid (each region's draws one scatter, ``simplex-<region>``).
        On a given ``ax`` the picture is laid out at that axes' size.
    """
    _check(result, ("region_samples", "prob_left", "prob_rope", "prob_right",
                    "rope", "name_a", "name_b"), "hierarchical_simplex")  # fmt: skip
    if result.prob_rope is None:
        raise ValueError(
            "this hierarchical test has no rope (rope = 0): the draws have no "
            "middle region to place on a simplex. Rerun with rope > 0, or draw "
            "the data sets (kind='datasets')."
        )
    with paper_style():
        if ax is None:
            layout = simplex_picture(
                result, paper_points(figure_width(width)), titles=titles_shown()
            )
            ax = draw_simplex(layout)
        else:  # laid out at the size of the given axes
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            layout = simplex_picture(
                result,
                box.width * size[0],
                height=box.height * size[1],
                titles=titles_shown(),
            )
            draw_simplex(layout, ax)
            ax.set_aspect("equal", adjustable="box")  # points stay square
    return quiet(ax)


def simplex_picture(
    result: Any,
    width: float,
    *,
    labels: tuple[str, str] | None = None,
    style: Any = None,
    height: float | None = None,
    titles: bool = True,
    alt: str = "",
) -> Any:
    """The geometry of :func:`hierarchical_simplex` (the fold dashboard's
    simplex too), ``width`` points wide: a
    :class:`~nbstats.plots.simplex.SimplexLayout` whose legend gives each
    region's share of the draws as the number policy prints a probability.
    ``labels`` (a, b): display names (default: the result's).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> draws = np.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]])
    >>> res = SimpleNamespace(region_samples=draws, prob_left=1 / 3,
    ...     prob_rope=1 / 3, prob_right=1.0, rope=0.01, name_a="nbc",
    ...     name_b="aode", datasets=[1, 2, 3])
    >>> with paper_style():
    ...     layout = simplex_picture(res, 238.0)
    >>> layout.legend
    ('nbc better: 0.333', 'rope ±0.01: 0.333', 'aode better: > 0.999')
    """
    name_a, name_b = labels or (str(result.name_a), str(result.name_b))
    rope_label = f"rope ±{result.rope:g}"
    a, b = literal(name_a), literal(name_b)
    legend = [
        f"{a} better: {format_probability(result.prob_left)}",
        f"{rope_label}: {format_probability(result.prob_rope)}",
        f"{b} better: {format_probability(result.prob_right)}",
    ]
    title = [
        f"{a} vs {b}: next data set",
        f"(hierarchical model, {len(result.datasets)} data sets)",
    ]
    geometry = simplex_geometry(result.region_samples, a, b, rope_label)
    return simplex_layout(
        geometry,
        legend,
        width,
        title=title if titles else (),
        style=style,
        height=height,
        alt=alt,
    )


def hierarchical_datasets(
    result: Any, *, ax: Any = None, width: str = "single", sort: bool = True
) -> Any:
    """Each data set's shrunk difference δ_i with its credible interval.

    Filled dots and bars: the posterior mean and interval of δ_i (b − a,
    score units) under the hierarchical model; open circles: the observed
    mean difference of the folds. The shaded band is the rope, the line the
    posterior mean of δ0. Shrinkage pulls the data sets whose folds say
    little towards δ0.

    Parameters
    ----------
    result : BayesHierarchicalResult
    ax : matplotlib Axes, optional
    width : {"single", "double"}
    sort : bool
        Order the data sets by their posterior mean (else as given).

    Returns
    -------
    matplotlib.axes.Axes
    """
    _check(result, ("datasets", "rope", "delta0", "level", "name_a", "name_b"),
           "hierarchical_datasets")  # fmt: skip
    table = result.datasets
    if sort:
        table = table.sort_values("mean", kind="stable")
    q = len(table)
    y = np.arange(q)
    own = ax is None
    with paper_style():
        # a row of 8-pt names every 10.5 pt
        tall = (10.5 * q + 72.0) / (figure_width(width) * 72)
        _, ax = new_axes(ax, width=width, aspect=max(0.8, tall))
        rope = float(result.rope)
        if rope > 0:
            ax.axvspan(-rope, rope, color=SHADE, alpha=0.5, linewidth=0, gid="rope",
                       label=f"rope ±{rope:g}")  # fmt: skip
        ax.axvline(0.0, color=MUTED, linewidth=0.6, zorder=1)
        # δ0, δi as the report's table heads them: a subscript would print
        # at 70 % of 8 pt, below the 7 pt a venue's figure may print
        delta0 = f"δ0 = {result.delta0:.3g}"
        ax.axvline(float(result.delta0), color=INK, linestyle="--", linewidth=0.8,
                   gid="delta0", label=delta0)  # fmt: skip
        ax.hlines(y, table["low"], table["high"], color=ACCENT, linewidth=1.0,
                  gid="intervals",
                  label=f"δi: {result.level:.0%} interval")  # fmt: skip
        ax.plot(table["mean"], y, "o", color=ACCENT, markersize=2.5, gid="means",
                label="δi: posterior mean")  # fmt: skip
        ax.plot(table["observed"], y, "o", markerfacecolor="none", color=MUTED,
                markersize=3, markeredgewidth=0.7, gid="observed",
                label="observed mean difference")  # fmt: skip
        ax.set_yticks(y)
        ax.set_yticklabels([literal(c) for c in table["case"]])
        ax.set_ylim(-0.7, q - 0.3)
        name_a, name_b = literal(result.name_a), literal(result.name_b)
        ax.set_xlabel(f"δ: {name_b} − {name_a} (score units)")
        if titles_shown():
            ax.set_title(f"{name_a} vs {name_b}: per data set (shrunk)")
        legend(ax, own)
        fit_texts(ax, own)
    return quiet(ax)
