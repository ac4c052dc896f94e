"""The frequentist and rank dashboards' pictures, as SVG at every number of algorithms.

Drawn by the dashboards' one renderer (:mod:`nbstats.widgets.svg`, which says
why SVG), from 2 algorithms to 100 and more. Both pictures have one row per
algorithm, best mean rank at the top, on a common axis of ranks 1 … m
(1 = best, on the left), so they read the same at 2 names and at 100:

- :func:`cd_svg` — the critical-difference diagram of a post-hoc result:
  the paper's (:func:`nbstats.plots.cd_diagram`), its geometry computed once
  by :func:`nbstats.plots.cd_layout.cd_layout` and written as SVG by
  :func:`nbstats.plots.cd_svg.layout_svg`.
- :func:`intervals_svg` — the forest plot of confidence intervals for ranks:
  the paper's (:func:`nbstats.plots.rank_intervals`), its geometry computed
  once by :func:`nbstats.plots.rank_layout.rank_layout` and written as SVG
  by :func:`nbstats.plots.picture_svg.picture_svg`.

A name too long for its column is wrapped or replaced by a letter, as in
the paper, and given in full in its tooltip. The elements a reader (or a
test) looks for carry a ``data-role``: ``cd`` (the critical difference),
``group-<k>`` (a group's bar), ``control-band``, ``significant-<j>`` (an
algorithm significantly different from the control, j its column),
``interval-<method>-<name>`` (with ``data-ranks="lower upper"``; an interval
of one rank also has a ``tick``), ``rank-<method>-<name>`` (its marker),
``name-<name>``. Every text is escaped; the SVG has a ``<title>`` and uses
no ``id``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nbstats.results.number_policy import format_number
from nbstats.widgets.base import number_html

__all__ = ["cd_svg", "intervals_svg"]


def _rank(value: float) -> str:
    return number_html(float(value), "rank")


#: Width of the dashboards' CD diagram (points): a paper's two columns.
CD_WIDTH = 6.9 * 72


def cd_svg(result: Any, shown: Mapping[str, str] | None = None) -> str:
    """The critical-difference diagram of a post-hoc result, as SVG: the
    paper's diagram (:func:`nbstats.plots.cd_layout.cd_layout`, drawn by
    :func:`nbstats.plots.cd_svg.layout_svg`), two columns wide.

    ``shown`` maps names to display names (aliases), listed in a key.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    >>> svg = cd_svg(res)
    >>> svg.startswith("<svg") and "C4.5+m+cf" in svg
    True
    """
    from nbstats.plots.cd_layout import cd_layout
    from nbstats.plots.cd_svg import layout_svg
    from nbstats.plots.style import paper_style

    aliases: Any = dict(shown) if shown else "auto"
    with paper_style():
        layout = cd_layout(result, CD_WIDTH, aliases=aliases)
    tooltips = {
        j: f"{name}: mean rank {_rank(rank)}"
        for j, (name, rank) in enumerate(result.mean_ranks.items())
    }
    m = len(tooltips)
    return layout_svg(
        layout, f"critical-difference diagram of {m} algorithms", tooltips=tooltips
    )


def _interval_ranks(layout: Any) -> Any:
    """An interval's ranks as ``data-ranks="lower upper"``."""

    def data(gid: str) -> dict[str, str] | None:
        if gid not in layout.intervals:
            return None
        low, high = layout.intervals[gid]
        return {"ranks": f"{low:g} {high:g}"}

    return data


def intervals_svg(
    results: Mapping[str, Any], shown: Mapping[str, str] | None = None
) -> str:
    """The forest plot of :class:`RankCIResult` (one per method), as SVG: the
    paper's (:func:`nbstats.plots.rank_layout.rank_layout`, drawn by
    :func:`nbstats.plots.picture_svg.picture_svg`), two columns wide.

    ``shown`` maps names to display names (aliases), listed in a key under
    the axis (as are the letters of names too long to show); every name's
    tooltip gives it in full with its mean rank.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.rank_ci(nbstats.datasets.load("demsar2006"))
    >>> svg = intervals_svg({"id-wilcoxon-2s": res})
    >>> 'data-role="interval-id-wilcoxon-2s-C4.5" data-ranks="3 4"' in svg
    True
    """
    from nbstats.plots.picture_svg import picture_svg
    from nbstats.plots.rank_layout import rank_layout
    from nbstats.plots.style import paper_style

    first = next(iter(results.values()))
    tooltips = {
        str(name): f"{name}: mean rank {format_number(float(rank), 'rank')}"
        for name, rank in first.mean_ranks.items()
    }
    aliases: Any = dict(shown) if shown else "auto"
    with paper_style():
        layout = rank_layout(
            results, CD_WIDTH, aliases=aliases, tooltips=tooltips, key=True
        )
    return picture_svg(layout.picture, data=_interval_ranks(layout))
