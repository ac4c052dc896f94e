"""Pairwise maps: adjusted p-values or posterior probabilities as a heatmap.

The map's geometry is :func:`nbstats.plots.heatmap_layout.heatmap_layout`'s
(a :class:`~nbstats.plots.figure_model.Picture`); this module hands it to
matplotlib (:func:`~nbstats.plots.picture_mpl.draw_picture`) and adds the
key of letters as the figure's legend.
"""

from __future__ import annotations

from typing import Any

from nbstats.plots._common import quiet
from nbstats.plots.figure_model import float_room
from nbstats.plots.heatmap_layout import LEAST_FONT, heatmap_layout
from nbstats.plots.labels import add_key
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.style import (
    TYPOGRAPHY,
    WIDTHS,
    figure_width,
    page_height,
    paper_style,
    titles_shown,
)
from nbstats.scores.aliases import AliasOption

__all__ = ["pairwise_heatmap"]


def pairwise_heatmap(
    result: Any,
    *,
    ax: Any = None,
    annotate: bool = True,
    kind: str | None = None,
    width: str = "single",
    aliases: AliasOption = "auto",
) -> Any:
    """Annotated heatmap of pairwise comparisons, ordered by mean rank.

    Rows and columns are the algorithms by mean rank, best first; the
    diagonal is blank. Significant cells — pairs a
    :class:`~nbstats.results.frequentist.PosthocResult` rejects, or
    statements a :class:`~nbstats.results.bayes.BayesPosthocResult` accepts —
    are framed and their numbers set in bold.

    Parameters
    ----------
    result : PosthocResult, BayesPosthocResult or BayesSignedRankPairsResult
        From :func:`nbstats.posthoc`, :func:`nbstats.bayes_posthoc` or
        :func:`nbstats.bayes_signrank_pairs` (cells above its threshold are
        framed). A comparison against a control is drawn as one column (the
        control) of p-values, a row for every other algorithm.
    ax : matplotlib Axes, optional
        Where to draw (the map is laid out for its size); by default a new
        figure.
    annotate : bool
        Write each cell's value in it by the number policy (three decimals,
        ``"< 0.001"``; a posterior probability never as 0 or 1 but
        ``"> 0.999"``), when the widest value fits every cell at the
        figure's font size; otherwise the values are left out (the colours
        remain).
    kind : {"pvalues", "unadjusted", "probabilities"}, optional
        What the cells hold. ``"pvalues"`` (the default for a PosthocResult):
        the adjusted p-values ``result.adjusted``, coloured on a log scale
        (all below 0.001 darkest); ``"unadjusted"``: ``result.pvalues``, still
        framed by the adjusted decisions; ``"probabilities"`` (the only kind,
        and the default, for a BayesPosthocResult): cell (row i, column j) is
        the posterior probability that column j is better than row i.
    width : {"single", "double"}
        Width of a new figure: one or two columns of a paper (in a report or
        for a venue, no wider than its page or column). Its height follows
        from the number of algorithms and the length of their names, no
        taller than a venue's float (:func:`~nbstats.plots.figure_model.float_room`)
        when the figure is set for one.
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
        The heatmap's axes (data coordinates: points, y down). Its artists
        carry the gids of :mod:`nbstats.plots.heatmap_layout`: each cell's
        patch ``f"fill-{row}-{column}"``, its number (a text)
        ``f"cell-{row}-{column}"``, each significance frame (a patch)
        ``f"significant-{row}-{column}"``, the names ``"row-<k>"`` and
        ``"column-<k>"``.

    Notes
    -----
    Readable from 2 to 100 algorithms (the layout's rules are in
    :mod:`nbstats.plots.heatmap_layout`): names take at most 30% of the
    width, wrapped onto two lines at ``(``, ``,`` or spaces if needed, the
    names that fit neither way replaced by letters ``A``, ``B``, … with a key
    under the map. When a cell is narrower than a line of text each row's
    name ends in its rank and the columns are numbered by rank under the
    map (every k-th number when two would touch; the blank diagonal joins a
    column to its row). Cells under 5 points lose their frames. No text is
    set below 8 points (7 points in a figure set for a venue whose float
    would not otherwise hold one row per algorithm). The title (the test and
    what a frame means) is left out in a report, which captions the figure.

    Raises
    ------
    TypeError
        If ``result`` is none of those results.
    ValueError
        If ``kind`` does not fit the result.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.pairwise import pairwise_heatmap
    >>> scores = nbstats.datasets.load("demsar2006")
    >>> ax = pairwise_heatmap(nbstats.comparison_matrix(scores))
    >>> [t.get_text() for t in ax.texts if t.get_gid().startswith("row-")]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> sorted(a.get_gid() for a in ax.patches if "significant" in a.get_gid())
    ['significant-C4.5+m-C4.5', 'significant-C4.5-C4.5+m']
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cell-C4.5-C4.5+m"]
    ['0.047']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    own = ax is None
    if own and width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    with paper_style():
        least = None  # the least font size: 8 pt, 7 pt for a venue
        if own:
            total = figure_width(width) * 72
            most = None
            if TYPOGRAPHY.venue is not None:  # no taller than the venue's float
                least = LEAST_FONT
                most = float_room(TYPOGRAPHY.venue)
                tallest = page_height()
                if tallest is not None:
                    most = 72 * tallest if most is None else min(most, 72 * tallest)
        else:
            box = ax.get_position()
            total = box.width * ax.figure.get_figwidth() * 72
            most = box.height * ax.figure.get_figheight() * 72
        layout = heatmap_layout(
            result,
            total,
            kind=kind,
            max_height=most,
            annotate=annotate,
            aliases=aliases,
            title=titles_shown(),
            least_font=least,
        )
        picture = layout.picture
        ax = draw_picture(picture, ax)
        fig = ax.figure
        if not own:  # the picture at its own scale inside the given axes
            ax.set_aspect("equal", adjustable="datalim")
        if layout.key:
            key = add_key(fig, list(layout.key), fig.get_figwidth() * 72 - 8, grow=own)
            if own:  # the key under the picture, which keeps its size
                key.set_loc("lower center")
        if own:  # the picture at the top, at its size, whatever the figure's
            ax.set_axes_locator(_AtTop(picture.height))
    return quiet(ax)


class _AtTop:
    """Axes locator: the picture's axes at the top of the figure, exactly
    ``height`` points tall, when the figure grows (a key under it) or shrinks
    (a key taken out)."""

    def __init__(self, height: float) -> None:
        self.height = height

    def __call__(self, ax: Any, renderer: Any) -> Any:
        from matplotlib.transforms import Bbox

        total = ax.figure.get_figheight() * 72
        share = min(1.0, self.height / total)
        return Bbox.from_bounds(0.0, 1.0 - share, 1.0, share)
