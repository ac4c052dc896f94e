"""Forest plot of confidence intervals for ranks (Foucart et al. 2025)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from nbstats.names import AliasOption
from nbstats.plots._common import quiet
from nbstats.plots._rank_axis import draw_rank_interval
from nbstats.plots.labels import MIN_FONT, add_key, fit_names, text_width, wrap_text
from nbstats.plots.protocols import is_kind
from nbstats.plots.style import (
    MUTED,
    PALETTE,
    WIDTHS,
    figure_width,
    literal,
    page_height,
    paper_style,
    titles_shown,
)

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
#: Height of one algorithm's row (points) up to 30 algorithms, and what each
#: extra method adds; beyond 30 rows shrink to what their names need.
_ROW_PT = 10.8
_METHOD_PT = 3.6
#: Points of the figure outside the rows (title, rank axis, legend).
_MARGIN_PT = 54.0
#: Share of the width the names may take.
_LABEL_SHARE = 0.35


def rank_intervals(
    results: Any,
    *,
    ax: Any = None,
    order: Sequence[str] | None = None,
    width: str = "single",
    aliases: AliasOption = "auto",
) -> Any:
    """Forest plot of confidence intervals for ranks, one row per algorithm.

    Each algorithm is a row, the best mean rank at the top; a horizontal line
    spans its rank interval ``[lower, upper]`` (ranks 1 … m, **1 = best** on
    the left) and a marker sits at its rank: its place in the order of mean
    ranks (ties share the average place), a quantity on the same scale as
    the interval. The mean ranks themselves are averages of ranks, not
    places: they are not drawn (``result.mean_ranks``, the report's tables).
    Several results (methods, or confidence levels) are drawn side by side:
    each gets a small vertical offset within every row, its own colour and
    marker, and a legend entry.

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
        Width of a new figure: one or two columns of a paper. Its height
        grows with the number of algorithms (about 10.8 pt a row up to 30,
        then what an 8-pt name needs: some 15 inches for 100 algorithms).
    aliases : "auto", bool or mapping
        ``"auto"`` (default): letters ``A``, ``B``, … (in the order of the
        score table's columns) only when the names fit neither as written
        nor wrapped, with a key under the figure. ``True``: always letters;
        a mapping ``{name: alias}`` (e.g. a report's, from
        :func:`nbstats.names.make_aliases`): those aliases, with a key;
        ``False``: never letters.

    Returns
    -------
    matplotlib.axes.Axes
        Every interval is a ``Line2D`` with gid ``f"interval-{label}-{name}"``
        (its x data are ``[lower, upper]``), every rank marker one with gid
        ``f"rank-{label}-{name}"``.

    Notes
    -----
    Names take at most 35% of the width: wrapped onto two lines at ``(``,
    ``,`` or spaces when needed, else replaced by letters ``A``, ``B``, …
    with a key under the plot listing the full names. No text is set below
    8 points; the rank axis labels as many ranks as fit (all are ticked).
    The title (one method) is left out in a report, which captions the
    figure (:func:`nbstats.plots.style.set_typography`).

    The place lies inside its interval when every algorithm found
    significantly better has the better mean rank (always with Nemenyi's
    test on mean ranks). The bootstrap ranks mean scores, whose order can
    differ from the mean ranks' by a place or two.

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
    import matplotlib.pyplot as plt

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
    own = ax is None
    if own and width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")

    with paper_style():
        if own:
            total = figure_width(width) * 72
        else:
            total = ax.get_position().width * ax.figure.get_figwidth() * 72
        extra = _MARGIN_PT + (12.0 * (k > 1) * ((k + 2) // 3))
        fitted, row, panels = _panels(names, total, m, k, extra, aliases, own)
        per = math.ceil(m / panels)
        if own:
            height = per * row + extra
            fig, axes = plt.subplots(
                1, panels, figsize=(total / 72, max(0.62 * total, height) / 72),
                layout="constrained", squeeze=False,
            )  # fmt: skip
            axes = list(axes[0])
        else:
            fig, axes = ax.figure, [ax]
        label_width = max(text_width(label, fitted.fontsize) for label in fitted.labels)
        axis_length = total / panels - label_width - 24.0
        for p, each in enumerate(axes):
            handles = _draw_panel(
                each, rows[p * per : (p + 1) * per], per, m, labelled, fitted,
                axis_length,
            )  # fmt: skip
        ax = axes[0]
        ax.panels = axes
        _title_or_legend(ax, labelled, handles, axis_length)
        if fitted.aliases:
            add_key(fig, fitted.key(), fig.get_figwidth() * 72 - 8, grow=own)
    return quiet(ax)


def _panels(
    names: list[str],
    total: float,
    m: int,
    k: int,
    extra: float,
    aliases: AliasOption,
    own: bool,
) -> tuple[Any, float, int]:
    """Labels, row height and number of side-by-side panels: one, unless the
    rows (and the key of letters) would be taller than the page
    (:func:`~nbstats.plots.style.set_typography`)."""
    fitted, row = _fit_rows(names, _LABEL_SHARE * total, m, k, aliases)
    limit = page_height()
    if not own or limit is None or _height(fitted, row, m, total, extra) <= limit * 72:
        return fitted, row, 1
    for panels in range(2, 6):
        # a narrow panel: the names may take a little more of it
        fitted, row = _fit_rows(names, 0.45 * total / panels, m, k, aliases)
        rows = math.ceil(m / panels)
        if _height(fitted, row, rows, total, extra) <= limit * 72:
            break
    return fitted, row, panels


def _height(fitted: Any, row: float, rows: int, total: float, extra: float) -> float:
    """Points a figure of ``rows`` rows takes, with the key of its letters."""
    key = 0.0
    if fitted.aliases:
        entries = fitted.key()
        widest = max(text_width(entry, MIN_FONT) for entry in entries)
        columns = max(1, int((total + 1.2 * MIN_FONT) // (widest + 1.2 * MIN_FONT)))
        key = math.ceil(len(entries) / columns) * 1.45 * MIN_FONT + 8.0
    return rows * row + extra + key


def _fit_rows(
    names: list[str], width: float, m: int, k: int, aliases: AliasOption
) -> tuple[Any, float]:
    """Labels no wider than ``width`` and the height of a row (points)."""
    fitted = fit_names(
        names,  # the score table's order: the letters' order
        width,
        fontsize=MIN_FONT,
        # many rows: one line each (a long name gets a letter), since one
        # wrapped name would double the height of every row
        max_lines=2 if m <= 20 else 1,
        aliases=aliases,
    )
    fs = fitted.fontsize
    need = (1.2 * fitted.lines + (0.35 if fitted.lines > 1 else 0.1)) * fs
    return fitted, max(need, _ROW_PT if m <= 30 else 0.0) + _METHOD_PT * (k - 1)


def _draw_panel(
    ax: Any,
    rows: list[str],
    per: int,
    m: int,
    labelled: dict[str, Any],
    fitted: Any,
    axis_length: float,
) -> list[Any]:
    """The intervals and markers of ``rows`` (top to bottom) in ``ax``, its
    names and rank axis; returns the legend handles of the results."""
    from matplotlib.lines import Line2D

    k = len(labelled)
    handles = []
    step = min(0.25, 0.7 / k) if k > 1 else 0.0
    offsets = [(j - (k - 1) / 2) * step for j in range(k)]
    for j, (label, result) in enumerate(labelled.items()):
        colour = PALETTE[j % len(PALETTE)]
        marker = _MARKERS[j % len(_MARKERS)]
        lower = {str(n): int(v) for n, v in result.lower.items()}
        upper = {str(n): int(v) for n, v in result.upper.items()}
        places = result.mean_ranks.rank(method="average")
        places = {str(n): float(v) for n, v in places.items()}
        handles.append(
            Line2D([], [], color=colour, linewidth=1.2, marker=marker,
                   markersize=3.5, markerfacecolor="white", markeredgewidth=1.0,
                   label=literal(label))
        )  # fmt: skip
        for i, name in enumerate(rows):
            draw_rank_interval(
                ax,
                i + offsets[j],
                (lower[name], upper[name]),
                places[name],
                colour=colour,
                marker=marker,
                gids=(f"interval-{label}-{name}", f"rank-{label}-{name}"),
            )
    ax.set_yticks(range(len(rows)), [fitted.label(name) for name in rows])
    ax.set_ylim(per - 0.5, -0.5)  # best at the top; panels' rows line up
    ax.tick_params(axis="y", length=0, labelsize=fitted.fontsize)
    ax.set_xlim(0.5, m + 0.5)
    ax.set_xticks(range(1, m + 1), minor=True)
    ax.set_xticks(labelled_ranks(m, axis_length))
    # a line at every rank while they are 3 pt apart; closer, they would
    # grey the panel over: lines at the labelled ranks only
    which = "both" if axis_length >= 3.0 * m else "major"
    ax.grid(axis="x", which=which, color=MUTED, linewidth=0.3, alpha=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel("rank (1 = best)")
    return handles


def _title_or_legend(
    ax: Any, labelled: dict[str, Any], handles: list[Any], axis_length: float
) -> None:
    """One result: a title (not in a report); several: a legend above."""
    k = len(labelled)
    levels = {f"{r.confidence_level:.0%}" for r in labelled.values()}
    level = levels.pop() if len(levels) == 1 else None
    if k == 1 and titles_shown():
        label = next(iter(labelled))
        readable = METHOD_LABELS.get(label, label)
        title = f"{level} confidence intervals for ranks: {literal(readable)}"
        # centred over the axes, right of the names
        ax.set_title(wrap_text(title, axis_length, MIN_FONT, force=True))
    elif k > 1:
        # the legend, titled, stands above the axes like a title
        legend = ax.legend(
            handles=handles,
            loc="lower center",
            bbox_to_anchor=(0.5, 1.0),
            ncol=_legend_columns(labelled, k, axis_length),
            frameon=False,
            handlelength=1.8,
            columnspacing=1.2,
            title=(
                None
                if not titles_shown()
                else f"{level} confidence intervals for ranks"
                if level
                else "Confidence intervals for ranks"
            ),
            title_fontsize=MIN_FONT,
        )
        legend.set_gid("methods")


def labelled_ranks(m: int, length: float) -> list[int]:
    """Ranks to label on an axis ``length`` points long: 1, then every step.

    Every rank up to 15 when they fit, else the first step of 2, 5, 10,
    20, 25, 50 … whose labels (8-pt digits and a gap) fit.
    """
    if m <= 15 and m * (len(str(m)) * 4.8 + 6.0) <= length:
        return list(range(1, m + 1))
    for step in (2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        count = m // step + 1
        if count * (len(str(m)) * 4.8 + 8.0) <= length:
            break
    return [1, *range(step, m + 1, step)]


def _legend_columns(labelled: dict[str, Any], k: int, length: float) -> int:
    """Columns of the methods' legend: up to 3, as many as fit over the axes."""
    # an entry: handle (1.8 em), gap (0.8 em), text; columns 1.2 em apart
    size = MIN_FONT
    entry = max(text_width(literal(label), size) for label in labelled) + 2.6 * size
    fits = max(1, int((length + 1.2 * size) // (entry + 1.2 * size)))
    return min(k if k <= 3 else (2 if k == 4 else 3), fits)


def _labelled_results(results: object) -> dict[str, Any]:
    """``{label: result}``, checking every item is a RankCIResult."""
    accepted = (
        "rank_intervals expects a RankCIResult (from nbstats.rank_ci), or a "
        "list or dict of RankCIResult objects"
    )
    if is_kind(results, "rank_ci"):
        return {results.method: results}
    if isinstance(results, Mapping):
        items = [(str(key), value) for key, value in results.items()]
    elif isinstance(results, Sequence) and not isinstance(results, (str, bytes)):
        items = [(getattr(value, "method", ""), value) for value in results]
    else:
        raise TypeError(f"{accepted}; got {type(results).__name__}.")
    for _, value in items:
        if not is_kind(value, "rank_ci"):
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


def _row_order(result: Any, names: list[str], order: Sequence[str] | None) -> list[str]:
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
