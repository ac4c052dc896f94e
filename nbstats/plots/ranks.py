"""Forest plot of confidence intervals for ranks (Foucart et al. 2025)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from nbstats.plots._common import quiet
from nbstats.plots.style import MUTED, PALETTE, WIDTHS, literal, new_axes, paper_style
from nbstats.results.ranking import RankCIResult

__all__ = ["METHOD_LABELS", "rank_intervals"]

#: Readable names of nbstats.rank_ci's methods, for titles and legends.
METHOD_LABELS = {
    "bootstrap": "bootstrap",
    "id-nemenyi": "Iman–Davenport + Nemenyi",
    "id-wilcoxon-2s": "Iman–Davenport + two-sided Wilcoxon, Holm",
    "id-wilcoxon-1s": "Iman–Davenport + one-sided Wilcoxon, Holm",
    "anova-tukey": "rank ANOVA + Tukey HSD",
}

#: One marker per method, so that methods stay apart in greyscale.
_MARKERS = ("o", "s", "D", "^", "v", "P", "X")
#: Height of one algorithm's row (inches): one method, then each extra method.
_ROW_IN = 0.15
_METHOD_IN = 0.05
#: Inches of the figure outside the rows (title, rank axis, legend).
_MARGIN_IN = 0.75
#: Above this many ranks, only every fifth rank is labelled (all are ticked).
_MAX_LABELLED_RANKS = 15


def rank_intervals(
    results: RankCIResult | Sequence[RankCIResult] | Mapping[str, RankCIResult],
    *,
    ax: Any = None,
    order: Sequence[str] | None = None,
    width: str = "single",
) -> Any:
    """Forest plot of confidence intervals for ranks, one row per algorithm.

    Each algorithm is a row, the best mean rank at the top; a horizontal line
    spans its rank interval ``[lower, upper]`` (ranks 1 … m, **1 = best** on
    the left) and a marker sits at its mean rank. Several results (methods,
    or confidence levels) are drawn side by side: each gets a small vertical
    offset within every row, its own colour and marker, and a legend entry.

    Parameters
    ----------
    results : RankCIResult, list of RankCIResult or dict of str to RankCIResult
        From :func:`nbstats.rank_ci`, all on the same algorithms. A list is
        labelled by each result's ``method`` (adding the confidence level
        where two share a method); a dict by its keys.
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure whose height grows with the
        number of algorithms, so that no two names overlap.
    order : sequence of str, optional
        Algorithms from top to bottom; by default by mean rank, best first
        (ties in the order of the score table).
    width : {"single", "double"}
        Width of a new figure: one or two columns of a paper.

    Returns
    -------
    matplotlib.axes.Axes
        Every interval is a ``Line2D`` with gid ``f"interval-{label}-{name}"``
        (its x data are ``[lower, upper]``), every mean-rank marker one with
        gid ``f"mean-{label}-{name}"``.

    Raises
    ------
    TypeError
        If ``results`` holds anything but :class:`RankCIResult` objects.
    ValueError
        If the results cover different algorithms, ``order`` is not a
        permutation of them, or there are no results.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.ranks import rank_intervals
    >>> scores = nbstats.datasets.load("demsar2006")
    >>> ax = rank_intervals(
    ...     [
    ...         nbstats.rank_ci(scores, method="id-wilcoxon-2s"),
    ...         nbstats.rank_ci(scores, method="bootstrap", random_state=0),
    ...     ]
    ... )
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> first = ax.get_lines()[0]
    >>> first.get_gid(), [int(x) for x in first.get_xdata()]
    ('interval-id-wilcoxon-2s-C4.5+m+cf', [1, 3])
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    from matplotlib.lines import Line2D

    labelled = _labelled_results(results)
    first = next(iter(labelled.values()))
    names = [str(name) for name in first.lower.index]
    for label, result in labelled.items():
        if sorted(map(str, result.lower.index)) != sorted(names):
            raise ValueError(
                f"The results cover different algorithms: {label!r} has "
                f"{sorted(map(str, result.lower.index))}, the first has "
                f"{sorted(names)}. Compare rank intervals of the same score table."
            )
    rows = _row_order(first, names, order)
    m, k = len(rows), len(labelled)

    with paper_style():
        if ax is None:
            if width not in WIDTHS:
                raise ValueError(
                    f"width must be one of {sorted(WIDTHS)}, got {width!r}."
                )
            height = m * (_ROW_IN + _METHOD_IN * (k - 1)) + _MARGIN_IN
            aspect = max(0.62, height / WIDTHS[width])
        else:
            aspect = 0.62
        _fig, ax = new_axes(ax, width=width, aspect=aspect)

        handles = []
        step = min(0.25, 0.7 / k) if k > 1 else 0.0
        offsets = [(j - (k - 1) / 2) * step for j in range(k)]
        for j, (label, result) in enumerate(labelled.items()):
            colour = PALETTE[j % len(PALETTE)]
            marker = _MARKERS[j % len(_MARKERS)]
            lower = {str(n): int(v) for n, v in result.lower.items()}
            upper = {str(n): int(v) for n, v in result.upper.items()}
            means = {str(n): float(v) for n, v in result.mean_ranks.items()}
            handles.append(
                Line2D(
                    [],
                    [],
                    color=colour,
                    linewidth=1.2,
                    marker=marker,
                    markersize=3.5,
                    markerfacecolor="white",
                    markeredgewidth=1.0,
                    label=literal(label),
                )
            )
            for i, name in enumerate(rows):
                y = i + offsets[j]
                ax.plot(
                    [lower[name], upper[name]],
                    [y, y],
                    color=colour,
                    linewidth=1.2,
                    marker="|",
                    markersize=4,
                    markeredgewidth=1.0,
                    solid_capstyle="butt",
                    gid=f"interval-{label}-{name}",
                )
                ax.plot(
                    [means[name]],
                    [y],
                    linestyle="none",
                    marker=marker,
                    markersize=3.5,
                    markerfacecolor="white",
                    markeredgecolor=colour,
                    markeredgewidth=1.0,
                    zorder=3,
                    gid=f"mean-{label}-{name}",
                )

        ax.set_yticks(range(m), [literal(name) for name in rows])
        ax.set_ylim(m - 0.5, -0.5)  # best at the top
        ax.tick_params(axis="y", length=0)
        ax.set_xlim(0.5, m + 0.5)
        ax.set_xticks(range(1, m + 1), minor=True)
        labelled_ranks = (
            range(1, m + 1) if m <= _MAX_LABELLED_RANKS else [1, *range(5, m + 1, 5)]
        )
        ax.set_xticks(list(labelled_ranks))
        ax.grid(axis="x", which="both", color=MUTED, linewidth=0.3, alpha=0.5)
        ax.set_axisbelow(True)
        ax.set_xlabel("rank (1 = best)")

        levels = {f"{r.confidence_level:.0%}" for r in labelled.values()}
        level = levels.pop() if len(levels) == 1 else None
        if k == 1:
            label = next(iter(labelled))
            readable = METHOD_LABELS.get(label, label)
            ax.set_title(f"{level} confidence intervals for ranks: {literal(readable)}")
        else:
            # the legend, titled, stands above the axes like a title
            legend = ax.legend(
                handles=handles,
                loc="lower center",
                bbox_to_anchor=(0.5, 1.0),
                ncol=k if k <= 3 else (2 if k == 4 else 3),
                frameon=False,
                handlelength=1.8,
                columnspacing=1.2,
                title=(
                    f"{level} confidence intervals for ranks"
                    if level
                    else "Confidence intervals for ranks"
                ),
                title_fontsize=8,
            )
            legend.set_gid("methods")
    return quiet(ax)


def _labelled_results(results: object) -> dict[str, RankCIResult]:
    """``{label: result}``, checking every item is a RankCIResult."""
    accepted = (
        "rank_intervals expects a RankCIResult (from nbstats.rank_ci), or a "
        "list or dict of RankCIResult objects"
    )
    if isinstance(results, RankCIResult):
        return {results.method: results}
    if isinstance(results, Mapping):
        items = [(str(key), value) for key, value in results.items()]
    elif isinstance(results, Sequence) and not isinstance(results, (str, bytes)):
        items = [(getattr(value, "method", ""), value) for value in results]
    else:
        raise TypeError(f"{accepted}; got {type(results).__name__}.")
    for _, value in items:
        if not isinstance(value, RankCIResult):
            raise TypeError(f"{accepted}; got an item of type {type(value).__name__}.")
    if not items:
        raise ValueError(f"{accepted}; got an empty {type(results).__name__}.")
    if isinstance(results, Mapping):
        return dict(items)
    labels = [label for label, _ in items]
    if len(set(labels)) < len(labels):  # same method twice: add the level
        labels = [f"{label}, {value.confidence_level:.0%}" for label, value in items]
    if len(set(labels)) < len(labels):
        raise ValueError(
            "Two results share a method and a confidence level; pass a dict "
            "{label: result} to tell them apart."
        )
    return dict(zip(labels, (value for _, value in items), strict=True))


def _row_order(
    result: RankCIResult, names: list[str], order: Sequence[str] | None
) -> list[str]:
    """Algorithms from top to bottom."""
    if order is None:
        means = {str(n): float(v) for n, v in result.mean_ranks.items()}
        return sorted(names, key=lambda name: means[name])  # stable on ties
    rows = [str(name) for name in order]
    if sorted(rows) != sorted(names):
        raise ValueError(
            f"order must list every algorithm exactly once: expected a "
            f"permutation of {names}, got {rows}."
        )
    return rows
