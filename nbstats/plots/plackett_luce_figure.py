"""The Bayesian Plackett–Luce ranking: rank intervals beside P(best) bars."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from nbstats.names import AliasOption
from nbstats.plots._common import quiet
from nbstats.plots._rank_axis import draw_rank_interval
from nbstats.plots.labels import MIN_FONT, add_key, fit_names, text_width
from nbstats.plots.style import (
    MUTED,
    PALETTE,
    WIDTHS,
    figure_width,
    page_height,
    paper_style,
)
from nbstats.results.number_policy import format_number

__all__ = ["plackett_luce"]

#: Height of one algorithm's row (points) up to 30 algorithms.
_ROW_PT = 10.8
#: Points of the figure outside the rows (axis labels, ticks).
_MARGIN_PT = 40.0
#: Shares of the width: the names, and the P(best) panel.
_LABEL_SHARE = 0.32
_BARS_SHARE = 0.28


def plackett_luce(
    result: Any,
    *,
    ax: Any = None,
    width: str = "single",
    aliases: AliasOption = "auto",
    order: Sequence[Any] | None = None,
) -> Any:
    """Each algorithm's rank interval, and beside it its probability of being best.

    One row per algorithm, best expected rank at the top (or in ``order``).
    Left: the credible interval of the algorithm's rank among the worths
    (1 = best) with a marker at the posterior median rank, which always lies
    inside it. Right, sharing the rows: a bar of P(best), the posterior
    probability that its worth is the largest, with its value.

    Parameters
    ----------
    result : PlackettLuceResult
        From :func:`nbstats.bayes_plackett_luce`; anything with its
        ``ranking`` table (``prob_best``, ``expected_rank``, ``median_rank``,
        ``rank_lower``, ``rank_upper``) and ``level`` will do.
    ax : matplotlib Axes, optional
        Where to draw the intervals; the bars go in a panel appended on its
        right. By default a new figure, as tall as the rows need.
    width : {"single", "double"}
        Width of a new figure: one or two columns of a paper.
    aliases : "auto", bool or mapping
        As in :func:`nbstats.plots.rank_intervals`.
    order : sequence of algorithm names, optional
        The rows, top to bottom: every algorithm of ``result.ranking`` once
        (e.g. the order of a report's other tables, by mean rank). By default
        by expected rank, ties by P(best).

    Returns
    -------
    matplotlib.axes.Axes
        The intervals' Axes; the bars' Axes is ``ax.bars_axes``. Every
        interval is a ``Line2D`` with gid ``f"interval-{name}"``, every
        median marker ``f"median-{name}"``, every bar a ``Rectangle`` with
        gid ``f"best-{name}"``. Rows taller than the page of
        :func:`nbstats.plots.style.set_typography` (a report's) are set side
        by side in panels, ``ax.panels`` (the first is ``ax``); otherwise
        ``ax.panels == [ax]``.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.plackett_luce_figure import plackett_luce
    >>> res = nbstats.bayes_plackett_luce(
    ...     nbstats.datasets.load("demsar2006"), random_state=0
    ... )
    >>> ax = plackett_luce(res)
    >>> [label.get_text() for label in ax.get_yticklabels()][0]
    'C4.5+m'
    >>> ax2 = plackett_luce(res, order=["C4.5", "C4.5+m", "C4.5+m+cf", "C4.5+cf"])
    >>> [label.get_text() for label in ax2.get_yticklabels()][0]
    'C4.5'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure); plt.close(ax2.figure)
    """
    import matplotlib.pyplot as plt

    ranking = result.ranking
    names = [str(name) for name in ranking.index]
    rows = _rows(ranking, names, order)
    m = len(names)
    own = ax is None
    if own and width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    with paper_style():
        total = (
            figure_width(width) * 72
            if own
            else ax.get_position().width * ax.figure.get_figwidth() * 72
        )
        fitted, row, panels = _panels(names, total, m, aliases, own)
        per = -(-m // panels)
        if own:
            height = max(0.45 * total, per * row + _MARGIN_PT)
            fig, axes = plt.subplots(
                1, panels, figsize=(total / 72, height / 72), layout="constrained",
                squeeze=False,
            )  # fmt: skip
            axes = list(axes[0])
        else:
            fig, axes = ax.figure, [ax]
        for p, each in enumerate(axes):
            _draw_panel(
                each, result, rows[p * per : (p + 1) * per], per, fitted,
                total / panels,
            )  # fmt: skip
        ax = axes[0]
        ax.panels = axes
        if fitted.aliases:
            add_key(fig, fitted.key(), fig.get_figwidth() * 72 - 8, grow=own)
    return quiet(ax)


def _rows(ranking: Any, names: list[str], order: Sequence[Any] | None) -> list[str]:
    """The rows top to bottom: ``order``, or by expected rank then P(best)."""
    if order is None:
        by_rank = np.lexsort(
            (-ranking["prob_best"].to_numpy(), ranking["expected_rank"].to_numpy())
        )
        return [names[i] for i in by_rank]
    if isinstance(order, str):
        raise TypeError("order must be a sequence of algorithm names, not one name.")
    rows = [str(name) for name in order]
    if sorted(rows) != sorted(names):
        missing = sorted(set(names) - set(rows))
        extra = sorted(set(rows) - set(names))
        raise ValueError(
            "order must name every algorithm of the result exactly once; "
            f"missing {missing}, unknown {extra}"
            + (", repeated names" if len(rows) != len(set(rows)) else "")
            + "."
        )
    return rows


def _fit_rows(names: list[str], width: float, m: int, aliases: AliasOption):
    """Labels no wider than ``width`` and the height of a row (points)."""
    fitted = fit_names(
        names,
        width,
        fontsize=MIN_FONT,
        max_lines=2 if m <= 20 else 1,  # one wrapped name: every row taller
        aliases=aliases,
    )
    lead = 0.35 if fitted.lines > 1 else 0.1  # a line of text is ~1.2 em
    need = (1.2 * fitted.lines + lead) * fitted.fontsize
    return fitted, max(need, _ROW_PT if m <= 30 else 0.0)


def _panels(
    names: list[str], total: float, m: int, aliases: AliasOption, own: bool
) -> tuple[Any, float, int]:
    """Labels, row height and side-by-side panels: more than one only when
    the rows would be taller than the page (:func:`set_typography`)."""
    fitted, row = _fit_rows(names, _LABEL_SHARE * total, m, aliases)
    limit = page_height()
    # the key of letters (when names are replaced) counts: it is under the rows
    one = m * row + _MARGIN_PT + _key_height(fitted, total)
    if not own or limit is None or one <= limit * 72:
        return fitted, row, 1
    for panels in range(2, 6):
        fitted, row = _fit_rows(names, 0.4 * total / panels, m, aliases)
        if -(-m // panels) * row + _MARGIN_PT + _key_height(fitted, total) <= (
            limit * 72
        ):
            break
    return fitted, row, panels


def _key_height(fitted: Any, total: float) -> float:
    if not fitted.aliases:
        return 0.0
    entries = fitted.key()
    widest = max(text_width(entry, MIN_FONT) for entry in entries)
    columns = max(1, int((total + 1.2 * MIN_FONT) // (widest + 1.2 * MIN_FONT)))
    return -(-len(entries) // columns) * 1.45 * MIN_FONT + 8.0


def _draw_panel(
    ax: Any, result: Any, rows: list[str], per: int, fitted: Any, total: float
) -> None:
    """Intervals of ``rows`` in ``ax``, their P(best) bars in a panel on its
    right (``ax.bars_axes``); ``total``: the panel's width in points."""
    from mpl_toolkits.axes_grid1 import make_axes_locatable

    ranking = result.ranking
    m = len(ranking)
    fs = fitted.fontsize
    bars = make_axes_locatable(ax).append_axes(
        "right",
        size=f"{_BARS_SHARE / (1 - _LABEL_SHARE - _BARS_SHARE) * 100:.0f}%",
        pad=0.22,
        sharey=ax,
    )
    ranking_by_name = {str(n): i for i, n in enumerate(ranking.index)}
    medians = ranking["median_rank"].to_numpy()
    colour = PALETTE[0]
    for y, name in enumerate(rows):
        i = ranking_by_name[name]
        low, high = ranking["rank_lower"].iloc[i], ranking["rank_upper"].iloc[i]
        draw_rank_interval(
            ax,
            y,
            (low, high),
            medians[i],
            colour=colour,
            marker="o",
            gids=(f"interval-{name}", f"median-{name}"),
        )
        p = float(ranking["prob_best"].iloc[i])
        (bar,) = bars.barh(y, p, height=0.6, color=PALETTE[1], linewidth=0)
        bar.set_gid(f"best-{name}")
        bars.text(
            min(p, 1.0) + 0.03,
            y,
            format_number(p, "probability"),
            va="center",
            ha="left",
            fontsize=fs,
            clip_on=False,
        )
    ax.set_yticks(range(len(rows)), [fitted.label(name) for name in rows])
    ax.set_ylim(per - 0.5, -0.5)  # panels' rows line up
    ax.tick_params(axis="y", length=0, labelsize=fs)
    ax.set_xlim(0.5, m + 0.5)
    ax.set_xticks(range(1, m + 1), minor=True)
    label_width = max(text_width(label, fs) for label in fitted.labels)
    axis_length = (1 - _BARS_SHARE) * total - label_width - 24.0
    ax.set_xticks(labelled_ranks(m, axis_length))
    # a line at every rank while they are 3 pt apart; closer, they would
    # grey the panel over: lines at the labelled ranks only
    which = "both" if axis_length >= 3.0 * m else "major"
    ax.grid(axis="x", which=which, color=MUTED, linewidth=0.3, alpha=0.5)
    ax.set_axisbelow(True)
    label = f"rank, {result.level:.0%} credible interval"
    # a narrow panel (many algorithms) would run it into "P(best)": the
    # caption names the interval
    ax.set_xlabel(label if text_width(label, fs) <= axis_length else "rank")
    bars.set_xlim(0, 1.45)
    bars.set_xticks([0, 0.5, 1])
    bars.set_xticklabels(["0", "0.5", "1"])
    bars.tick_params(axis="y", left=False, labelleft=False)
    bars.spines[["right", "top"]].set_visible(False)
    bars.set_xlabel("P(best)")
    ax.bars_axes = bars


def labelled_ranks(m: int, length: float) -> list[int]:
    """Ranks to label on an axis ``length`` points long: 1, then every step."""
    if m <= 15 and m * (len(str(m)) * 4.8 + 6.0) <= length:
        return list(range(1, m + 1))
    for step in (2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        count = m // step + 1
        if count * (len(str(m)) * 4.8 + 8.0) <= length:
            break
    return [1, *range(step, m + 1, step)]
