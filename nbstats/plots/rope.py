"""(left, rope, right) pictures: a stacked bar, or the draws on a simplex."""

from __future__ import annotations

from typing import Any

import numpy as np

from nbstats.plots._common import (
    fit_texts,
    format_probability,
    legend,
    quiet,
    threshold_line,
)
from nbstats.plots.protocols import is_kind, kind_of
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SECOND,
    SHADE,
    figure_width,
    literal,
    new_axes,
    paper_style,
    titles_shown,
)

__all__ = ["rope_probabilities"]

_REGION_COLORS = {"left": SECOND, "rope": SHADE, "right": ACCENT}


def _region_input(
    result: object, names: tuple[str, str] | None, kind: str
) -> tuple[np.ndarray | None, tuple[float, float, float], tuple[str, str], str, Any]:
    """(region samples or None, shares, (name_a, name_b), rope label, result)."""
    if kind_of(result, ("sign", "signrank")) is not None:
        name_a, name_b = names if names is not None else (result.name_a, result.name_b)
        rope_label = f"rope ±{result.rope:g}" if result.rope > 0 else "rope"
        regions = getattr(result, "region_samples", None)
        if result.prob_rope is None:
            plot = (
                "signrank_posterior"
                if is_kind(result, "signrank")
                else "sign_posterior"
            )
            raise ValueError(
                f"this {type(result).__name__} has no rope (rope = 0): its "
                f"probabilities are P(θ > ½), not (left, rope, right). Rerun with "
                f"rope > 0, or draw it with "
                f"{plot}."
            )
        if kind == "simplex" and regions is None:
            raise ValueError(
                f"this {type(result).__name__} keeps no region samples "
                f"(no 'region_samples' attribute, or it is None), so there are no "
                f"posterior draws of (left, rope, right) to place on the simplex; "
                f"use kind='bar', or pass the (S × 3) array of draws."
            )
        shares = (result.prob_left, result.prob_rope, result.prob_right)
        return (
            None if regions is None else np.asarray(regions, dtype=float),
            shares,
            (str(name_a), str(name_b)),
            rope_label,
            result,
        )
    if isinstance(result, (np.ndarray, list, tuple)) or hasattr(result, "to_numpy"):
        array = np.asarray(result.to_numpy() if hasattr(result, "to_numpy") else result)
        if array.dtype.kind not in "iuf" or array.ndim != 2 or array.shape[1] != 3:
            raise ValueError(
                f"region samples must be a numeric (S × 3) array of per-draw "
                f"probabilities of (left, rope, right); got shape {array.shape} "
                f"and dtype {array.dtype}."
            )
        array = array.astype(float)
        if array.shape[0] == 0:
            raise ValueError("region samples must hold at least one draw (row).")
        if not np.all(np.isfinite(array)) or np.any(array < -1e-9):
            raise ValueError("region samples must be finite and non-negative.")
        if not np.allclose(array.sum(axis=1), 1.0, atol=1e-6):
            raise ValueError(
                "each row of the region samples must sum to 1 (the probabilities "
                "of left, rope and right in one posterior draw)."
            )
        winners = np.argmax(array, axis=1)
        counts = np.bincount(winners, minlength=3) / array.shape[0]
        name_a, name_b = names if names is not None else ("a", "b")
        return (
            array,
            (float(counts[0]), float(counts[1]), float(counts[2])),
            (str(name_a), str(name_b)),
            "rope",
            None,
        )
    raise TypeError(
        f"rope_probabilities draws a BayesSignedRankResult (from "
        f"nbstats.bayes_signrank), a BayesSignTestResult (from "
        f"nbstats.bayes_sign_test) or an (S × 3) array of region samples; got "
        f"{type(result).__name__}."
    )


def rope_probabilities(
    result: Any,
    *,
    ax: Any = None,
    width: str = "single",
    kind: str = "bar",
    names: tuple[str, str] | None = None,
) -> Any:
    """Posterior probabilities of (left, rope, right): a bar or a simplex.

    For a test run with ``rope > 0``: *left* = a better by more than the
    rope, *rope* = practically equivalent, *right* = b better by more than
    the rope. The probabilities are the shares of posterior draws in which
    each region is the most probable (as baycomp reports them).

    Parameters
    ----------
    result : BayesSignedRankResult, BayesSignTestResult or array
        A result with a rope, or an ``(S × 3)`` array of posterior draws of
        the region probabilities (columns left, rope, right; rows sum to 1).
    ax : matplotlib Axes, optional
    width : {"single", "double"}
    kind : {"bar", "simplex"}
        ``"bar"``: one horizontal bar split into the three shares, labelled
        by the algorithms' names. ``"simplex"``: every posterior draw as a
        point of the triangle whose corners are the three regions (as
        baycomp's ``plot_simplex``), coloured by its most probable region;
        dashed lines separate the regions. It needs the draws: the result's
        ``region_samples``, or an array.
    names : (str, str), optional
        Names of a and b; default the result's (``"a"``, ``"b"`` for an array).

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Under the near-ignorance prior every probability is an interval over the
    prior set: the legend gives each as "lower to upper", the bar shows the
    lower bounds and hatches the rest ("depends on the prior"), and the
    simplex's points are the draws with the prior's pseudo-observation at
    −∞ (its title says so).

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.posterior import rope_probabilities
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["aode"], prior="point",
    ...                              rope=0.01, random_state=0)
    >>> ax = rope_probabilities(res)
    >>> [round(p.get_width(), 2) for p in ax.patches]
    [0.0, 0.12, 0.88]
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    if kind not in ("bar", "simplex"):
        raise ValueError(f"kind must be 'bar' or 'simplex', got {kind!r}.")
    regions, shares, (name_a, name_b), rope_label, res = _region_input(
        result, names, kind
    )
    idp = res is not None and is_kind(res, "signrank") and res.prior == "idp"
    values = [format_probability(share) for share in shares]
    if idp:  # every probability an interval over the prior set
        bounds = res.bounds()
        values = [
            f"{format_probability(bounds[key][0])} to "
            f"{format_probability(bounds[key][1])}"
            for key in ("left", "rope", "right")
        ]
    labels = {
        "left": f"{literal(name_a)} better: {values[0]}",
        "rope": f"{rope_label}: {values[1]}",
        "right": f"{literal(name_b)} better: {values[2]}",
    }
    title = [f"{literal(name_a)} vs {literal(name_b)}"]
    if res is not None:
        if idp:
            title[0] += " (IDP: lower to upper over the prior set)"
            if kind == "simplex":
                title.append("points: draws with the prior's atom at −∞")
        title.append(literal(threshold_line(res)))
    own = ax is None
    if kind == "simplex":
        assert regions is not None
        return quiet(
            _simplex(ax, width, regions, labels, (name_a, name_b), rope_label, title)
        )
    with paper_style():
        _, ax = new_axes(ax, width=width, aspect=0.62)
        _rope_bar(ax, shares, labels)
        if titles_shown():  # a report's caption says it instead
            ax.set_title("\n".join(title))
        legend(ax, own, handlelength=1.2)
        fit_texts(ax, own)
    return quiet(ax)


def _simplex(
    ax: Any,
    width: str,
    regions: np.ndarray,
    labels: dict[str, str],
    names: tuple[str, str],
    rope_label: str,
    title: list[str],
) -> Any:
    """The simplex as a figure-model picture
    (:func:`~nbstats.plots.simplex.simplex_layout`, the hierarchical
    simplex's geometry), laid out at the new figure's or the given axes'
    size."""
    from nbstats.plots.chart_marks import paper_points
    from nbstats.plots.simplex import draw_simplex, simplex_geometry, simplex_layout

    geometry = simplex_geometry(
        regions, literal(names[0]), literal(names[1]), rope_label
    )
    legend_texts = [labels[key] for key in ("left", "rope", "right")]
    shown = title if titles_shown() else []
    with paper_style():
        if ax is None:
            layout = simplex_layout(
                geometry, legend_texts, paper_points(figure_width(width)), title=shown
            )
            return draw_simplex(layout)
        box = ax.get_position()
        size = ax.figure.get_size_inches() * 72
        layout = simplex_layout(
            geometry,
            legend_texts,
            box.width * size[0],
            title=shown,
            height=box.height * size[1],
        )
        draw_simplex(layout, ax)
        ax.set_aspect("equal", adjustable="box")  # points stay square
    return ax


def _rope_bar(ax: Any, shares: tuple[float, ...], labels: dict[str, str]) -> None:
    start = 0.0
    for key, share in zip(("left", "rope", "right"), shares, strict=True):
        color = _REGION_COLORS[key]
        bars = ax.barh(
            0.0,
            share,
            left=start,
            height=0.6,
            color=color,
            edgecolor="white",
            linewidth=0.8,
        )
        bars.patches[0].set_width(float(share))  # exact (bar computes it)
        bars.patches[0].set_gid(f"region-{key}")
        bars.patches[0].set_label(labels[key])  # on the rectangle itself
        if share >= 0.15:
            ax.text(
                start + share / 2,
                0.0,
                format_probability(share),
                ha="center",
                va="center",
                color=INK if color == SHADE else "white",
                gid=f"value-{key}",
            )
        start += share
    if start < 1.0 - 1e-9:  # IDP: lower bounds; the rest depends on the prior
        gap = ax.barh(
            0.0,
            1.0 - start,
            left=start,
            height=0.6,
            color="none",
            hatch="///",
            edgecolor=MUTED,
            linewidth=0.0,
        )
        gap.patches[0].set_gid("region-prior")
        gap.patches[0].set_label("depends on the prior")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(-0.5, 0.5)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.set_xlabel("share of posterior draws in which the region is most probable")
