"""Forest plot of confidence intervals for ranks (Foucart et al. 2025).

The plot's geometry is :func:`nbstats.plots.rank_layout.rank_layout`'s (the
rank dashboard draws the same one as SVG); this module hands it to
matplotlib (:func:`nbstats.plots.picture_mpl.draw_picture`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nbstats.plots._common import quiet
from nbstats.plots.labels import add_key
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.rank_layout import METHOD_LABELS, rank_layout
from nbstats.plots.style import page_height, paper_style, titles_shown
from nbstats.scores.aliases import AliasOption

__all__ = ["METHOD_LABELS", "draw_layout", "rank_intervals"]

#: A new figure is at least this share of its width tall.
_ASPECT = 0.62


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
    width : {"single", "double"}, venue name or Venue
        Width of a new figure: one or two columns of a paper; or a venue's
        column (``"article"``, ``"twocolumn"``, ``"ieee"``, ``"acm"``), its
        text in the venue's document font. Its height grows with the number
        of algorithms (about 10.8 pt a row up to 30, then what an 8-pt name
        needs: some 15 inches for 100 algorithms).
    aliases : "auto", bool or mapping
        ``"auto"`` (default): letters ``A``, ``B``, … (in the order of the
        score table's columns) only when the names fit neither as written
        nor wrapped, with a key under the figure. ``True``: always letters;
        a mapping ``{name: alias}`` (e.g. a report's, from
        :func:`nbstats.scores.aliases.make_aliases`): those aliases, with a key;
        ``False``: never letters.

    Returns
    -------
    matplotlib.axes.Axes
        Its data coordinates are points of the picture
        (:func:`nbstats.plots.picture_mpl.draw_picture`); ``ax.layout`` is the
        :class:`~nbstats.plots.rank_layout.RankLayout` drawn. Every interval
        is a ``Line2D`` with gid ``f"interval-{label}-{name}"`` (its x data
        are the points of ``[lower, upper]``: ``ax.layout.intervals`` has the
        ranks, ``ax.layout.panels[p].rank_of`` maps back), every rank marker
        an artist with gid ``f"rank-{label}-{name}"``, every name a text
        with gid ``f"name-{name}"``. ``ax.panels == [ax]`` (rows taller than
        the page go side by side in ``ax.layout.panels``).

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
    >>> names = sorted((t for t in ax.texts if t.get_gid().startswith("name-")),
    ...                key=lambda t: t.get_position()[1])
    >>> [t.get_text() for t in names]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> ax.layout.intervals["interval-id-wilcoxon-2s-C4.5+m+cf"]
    (1.0, 3.0)
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    from nbstats.plots.cd import diagram_width

    total, venue = diagram_width(width) if ax is None else (0.0, None)
    with paper_style(venue):
        if ax is None:
            limit = page_height()
            layout = rank_layout(
                results,
                total,
                order=order,
                aliases=aliases,
                title=titles_shown(),
                min_height=_ASPECT * total,
                max_height=None if limit is None else 72 * limit,
            )
        else:
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            layout = rank_layout(
                results,
                box.width * size[0],
                order=order,
                aliases=aliases,
                title=titles_shown(),
                height=box.height * size[1],
            )
        ax = draw_layout(layout, ax)
    return quiet(ax)


class _TopLeft:
    """An axes locator: the axes exactly ``width`` × ``height`` inches at
    the top left of its figure, however tall the figure becomes (a key
    added under it, or taken out again)."""

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height

    def __call__(self, ax: Any, renderer: Any) -> Any:
        from matplotlib.transforms import Bbox

        fig_w, fig_h = ax.figure.get_size_inches()
        w, h = self.width / fig_w, self.height / fig_h
        return Bbox.from_bounds(0.0, 1.0 - h, w, h)


def draw_layout(layout: Any, ax: Any = None) -> Any:
    """Draw a rank figure's layout (anything with a ``picture`` and a
    ``key``) in ``ax`` (None: a new figure of its size, with the key of
    letters under it); returns the axes, ``ax.layout`` the layout.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.rank_layout import rank_layout
    >>> from nbstats.plots.style import paper_style
    >>> res = nbstats.rank_ci(nbstats.datasets.load("demsar2006"))
    >>> with paper_style():
    ...     ax = draw_layout(rank_layout(res, 238.0))
    >>> float(ax.figure.get_figwidth() * 72), ax.layout.methods
    (238.0, ('id-wilcoxon-2s',))
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    picture = layout.picture
    own = ax is None
    if own:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(picture.width / 72, picture.height / 72))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
        ax.set_axes_locator(_TopLeft(picture.width / 72, picture.height / 72))
    draw_picture(picture, ax)
    if layout.key:
        fig = ax.figure
        key = add_key(fig, list(layout.key), fig.get_figwidth() * 72 - 8, grow=own)
        if own:
            key.set_loc("lower center")
    ax.layout = layout
    ax.panels = [ax]
    return ax
