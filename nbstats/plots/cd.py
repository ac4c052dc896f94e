"""Critical-difference diagrams (Demšar 2006, §3.2.4, Figure 1), drawn with matplotlib.

The diagram is drawn from a post-hoc result and never recomputes significance:
the lines joining algorithms are the result's own ``groups``, the marks are its
``reject``, the bars its ``critical_difference``, so the picture and the table
cannot disagree. Its geometry is :func:`nbstats.plots.cd_layout.cd_layout`'s,
the one TikZ (:func:`nbstats.plots.cd_tikz`) and the dashboards' SVG draw too;
this module only hands it to matplotlib.

Layout: the x axis is in mean-rank units (so every artist's x data are mean
ranks); y runs downwards from the top of the axes, one unit being one point
in a figure made here (its height follows the number of algorithms and
groups). In a figure made here the axes fill the figure; on given axes the
whole diagram is drawn inside them.

Artists carry stable ``gid`` values: ``"cd-bar"`` and ``"cd-text"``,
``"control-band"``, ``"group-<i>"`` (i indexes ``result.groups``),
``"stem-<j>"``, ``"label-<j>"`` and ``"significant-<j>"`` (j indexes
``result.mean_ranks``), ``"caption"``. Importing this module imports
matplotlib.
"""

from __future__ import annotations

import numbers
from typing import Any

from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter
from matplotlib.transforms import blended_transform_factory

from nbstats.plots._common import quiet
from nbstats.plots.cd_layout import (
    SMALL,
    TICK_LENGTH,
    TICK_PAD,
    CDLayout,
    Text,
    cd_layout,
    float_room,
)
from nbstats.plots.labels import MIN_FONT, add_key, wrap_text
from nbstats.plots.protocols import kind_of
from nbstats.plots.style import (
    INK,
    WIDTHS,
    figure_width,
    literal,
    paper_style,
    titles_shown,
)
from nbstats.scores.aliases import AliasOption

__all__ = ["cd_diagram", "diagram_width"]

_TITLE_FONT = 8.0


def cd_diagram(
    result: Any,
    *,
    ax: Any = None,
    reverse: bool = False,
    width: Any = "single",
    wide: bool = False,
    show_cd: bool = True,
    label_fontsize: float | None = None,
    title: str | None = None,
    aliases: AliasOption = "auto",
) -> Any:
    """Critical-difference diagram of a post-hoc result (Demšar 2006, Figure 1).

    The top line is the axis of mean ranks (1 = best). Each algorithm hangs
    from its mean rank by a stem that bends towards its name, the better half
    named on the best side, the worse half on the other, one row per name.

    - All-pairs results (``nbstats.posthoc`` without ``control``, or
      :func:`nbstats.bayes_posthoc`): thick lines join the algorithms of each
      group in ``result.groups`` -- the maximal sets with no significant
      difference inside, as the result computed them. Each line spans exactly
      from its best to its worst member's mean rank; lines share a row only
      when their spans are apart. A group that skips an algorithm ranked
      inside its span (possible with pairwise tests, never with Nemenyi) marks
      its members with dots, and so does a group of algorithms tied in mean
      rank, whose line has no length. With a critical difference (Nemenyi,
      Bonferroni–Dunn) the CD is drawn as a bar above the axis (Figure 1a).
    - Against a control: with Bonferroni–Dunn a thick band from the control's
      mean rank minus CD to plus CD (Figure 1b), anything outside it being
      significantly different; with Holm, Hochberg or Hommel (no single CD)
      a dot on the line of every algorithm the result rejects, next to its
      name. No group lines:
      the algorithms were not compared with one another. The control's name
      is bold.

    A small caption under the names states the test and α (or the Bayesian
    test and the joint probability).

    Parameters
    ----------
    result : PosthocResult or BayesPosthocResult
        From :func:`nbstats.posthoc` or :func:`nbstats.bayes_posthoc`.
    ax : matplotlib Axes, optional
        Axes to draw in. Its x axis becomes the rank axis; names are drawn
        outside its data area, so leave it side margins (or use constrained
        layout). The rows are spread over the height of ``ax``: give it about
        ``1.5 * label_fontsize`` points per name on the longer side plus
        about an inch. Without ``ax`` a new figure is made, its height set
        by the number of algorithms and groups.
    reverse : bool
        False (default): the best rank on the right, as in Demšar's figure.
        True: the best on the left.
    width : {"single", "double"}, venue name or Venue
        Width of a new figure: one column (3.3 in) or two (6.9 in); or a
        venue (``"article"``, ``"twocolumn"``, ``"ieee"``, ``"acm"``, or a
        :class:`~nbstats.results.venues.Venue`): exactly its column width,
        the text set in its document's font (Latin Modern; Times for
        IEEE), at its printed size when included at natural size.
    wide : bool
        With a venue: the full text width (for ``figure*`` in a two-column
        paper) instead of one column.
    show_cd : bool
        Draw the critical-difference bar (when the result has a CD).
    label_fontsize : float, optional
        Size of the names in points (default 8).
    title : str, optional
        Axes title, shown as written (not in a report, which captions its
        figures; nor is the small caption naming the test).
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

    Notes
    -----
    Names get at most 30% of the width on each side of the rank axis: as
    written (down to 1 pt below ``label_fontsize``, never below 8 pt), else
    wrapped onto two lines at ``(``, ``,`` or spaces (up to 20 algorithms),
    and the names that still do not fit are replaced by letters ``A``,
    ``B``, … with a key under the caption listing them
    (:mod:`nbstats.plots.labels`). The figure's height grows with the
    number of algorithms and the lines of their names; at 100 algorithms
    prefer ``width="double"``, which leaves the rank axis room.

    The rank axis covers the observed mean ranks (whole ranks around them,
    widened to hold the CD bar), not 1 to m: at 50 algorithms whose mean
    ranks span 13 to 33 the axis runs from 13 to 33, and the group lines
    are drawn that much longer. The control band's ``Line2D`` keeps its
    true extent in its x data (``mean rank ± CD``, possibly beyond the
    axis); only its drawing is clipped to the axis. The CD bar's x data are
    its two ends, so their difference is the critical difference. A group of a single
    algorithm is kept as an invisible zero-length line (its ``gid`` is
    still ``"group-<i>"``), so ``gid`` numbers follow ``result.groups``.

    Examples
    --------
    Demšar's Table 6 at α = 0.10: two groups and a CD of 1.12.

    >>> import matplotlib.pyplot as plt
    >>> import nbstats
    >>> from nbstats.plots.cd import cd_diagram
    >>> table = nbstats.datasets.load("demsar2006")
    >>> res = nbstats.posthoc(table, method="nemenyi", alpha=0.10)
    >>> ax = cd_diagram(res)
    >>> [line.get_gid() for line in ax.lines if line.get_gid().startswith("group")]
    ['group-0', 'group-1']
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cd-text"]
    ['CD = 1.12']
    >>> plt.close(ax.figure)
    """
    if kind_of(result, ("posthoc", "bayes_posthoc")) is None:
        raise TypeError(
            "cd_diagram draws a PosthocResult (from nbstats.posthoc) or a "
            "BayesPosthocResult (from nbstats.bayes_posthoc); got "
            f"{type(result).__name__}. For a score table, run "
            "nbstats.posthoc(table, method='nemenyi') first."
        )
    total, venue = diagram_width(width, wide=wide)
    if label_fontsize is not None and (
        isinstance(label_fontsize, bool)
        or not isinstance(label_fontsize, numbers.Real)
        or not label_fontsize > 0
    ):
        raise ValueError(
            f"label_fontsize must be a positive number of points, got "
            f"{label_fontsize!r}."
        )
    preferred = float(label_fontsize if label_fontsize is not None else 8.0)
    with paper_style(venue):
        if ax is not None:
            total = ax.get_position().width * ax.figure.get_figwidth() * 72
        layout = cd_layout(
            result,
            total,
            reverse=bool(reverse),
            show_cd=bool(show_cd),
            fontsize=preferred,
            min_fontsize=min(MIN_FONT, preferred),
            aliases=aliases,
            caption=titles_shown(),
            max_height=None if venue is None else float_room(venue),
        )
        ax = _draw(layout, ax, None if not titles_shown() else title)
    return quiet(ax)


def diagram_width(width: Any, *, wide: bool = False) -> tuple[float, Any]:
    """Points a new diagram is wide, and the venue it is set for (or None).

    Examples
    --------
    >>> diagram_width("single"), round(diagram_width("ieee")[0], 2)
    ((237.6, None), 251.07)
    >>> round(diagram_width("twocolumn", wide=True)[0], 2)
    467.25
    """
    if isinstance(width, str) and width in WIDTHS:
        if wide:
            raise ValueError(
                'wide=True needs a venue as width (e.g. width="ieee"); for a '
                'figure across a page without one, use width="double".'
            )
        return figure_width(width) * 72, None
    from nbstats.results.venues import Venue, get_venue

    if not isinstance(width, (str, Venue)):
        raise ValueError(
            f"width must be one of {sorted(WIDTHS)} or a venue ('article', "
            f"'twocolumn', 'ieee', 'acm' or a Venue), got {width!r}."
        )
    try:
        venue = get_venue(width)
    except ValueError:
        raise ValueError(
            f"width must be one of {sorted(WIDTHS)} or a venue ('article', "
            f"'twocolumn', 'ieee', 'acm' or a Venue), got {width!r}."
        ) from None
    # matplotlib's points are 1/72 in, TeX's 1/72.27 in
    return 72 * (venue.text_width_in if wide else venue.column_width_in), venue


_HA = {"start": "left", "middle": "center", "end": "right"}


def _draw(layout: CDLayout, ax: Any, title: str | None) -> Any:
    """Draw ``layout`` in ``ax`` (None: a new figure of its size)."""
    own = ax is None
    # the key is matplotlib's legend (panels of one table share it)
    width, height = layout.width, layout.body_height
    if own:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(width / 72, height / 72))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    fig = ax.figure
    x_of = layout.rank_of
    # x in mean ranks over the whole width of the picture, y in points
    ax.set_xlim(x_of(0.0), x_of(width))
    ax.set_ylim(height, 0)
    ax.patch.set_visible(False)
    for side in ("left", "right", "bottom"):
        ax.spines[side].set_visible(False)
    top = ax.spines["top"]
    top.set_visible(True)
    top.set_bounds(layout.first, layout.last)
    top.set_position(("data", layout.axis_y))
    top.set_color(INK)
    ax.yaxis.set_visible(False)
    ax.xaxis.tick_top()
    ax.xaxis.set_major_locator(FixedLocator([float(t) for t in layout.ticks]))
    ax.xaxis.set_major_formatter(FixedFormatter([str(t) for t in layout.ticks]))
    ax.xaxis.set_minor_locator(FixedLocator(list(layout.minor_ticks)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.tick_params(
        axis="x",
        which="both",
        direction="out",
        colors=INK,
        labelsize=SMALL,
        pad=TICK_PAD,
        bottom=False,
        labelbottom=False,
        top=True,
        labeltop=True,
    )
    ax.tick_params(axis="x", which="major", length=TICK_LENGTH)
    ax.tick_params(axis="x", which="minor", length=TICK_LENGTH / 2)
    for stroke in layout.strokes:
        ranks = stroke.ranks or (None,) * len(stroke.points)
        xs = [
            x_of(x) if r is None else float(r)
            for (x, _), r in zip(stroke.points, ranks, strict=True)
        ]
        ys = [y for _, y in stroke.points]
        line = Line2D(
            xs,
            ys,
            color=stroke.color,
            linewidth=stroke.width,
            solid_capstyle=stroke.cap,
            clip_on=False,
            zorder=1 if stroke.gid == "control-band" else 2,
            gid=stroke.gid,
            visible=stroke.visible,
        )
        if stroke.gid.startswith("group-"):
            line.set_zorder(4)
            dots = [d for d in layout.dots if d.gid == f"{stroke.gid}-member"]
            if dots:
                line.set_marker("o")
                line.set_markersize(dots[0].size)
                line.set_markerfacecolor(stroke.color)
                line.set_markeredgewidth(0)
        ax.add_line(line)
        if stroke.clip is not None:  # drawn over the axis only; data kept
            lo, hi = stroke.clip
            clip = Rectangle(
                (min(x_of(lo), x_of(hi)), -1.0),
                abs(x_of(hi) - x_of(lo)),
                3.0,
                transform=blended_transform_factory(ax.transData, ax.transAxes),
            )
            line.set_clip_path(clip)
            line.set_clip_on(True)
    for dot in layout.dots:
        if dot.gid.endswith("-member"):
            continue  # drawn as the group line's markers
        ax.add_line(
            Line2D(
                [x_of(dot.x)],
                [dot.y],
                linestyle="none",
                marker="o",
                markersize=dot.size,
                markerfacecolor=dot.color,
                markeredgecolor=dot.color,
                clip_on=False,
                zorder=5,
                gid=dot.gid,
            )
        )
    for text in layout.texts:
        _text(ax, text, x_of)
    extra_top = 0.0
    if title is not None:
        ax.set_title(
            wrap_text(literal(title), width - 8, _TITLE_FONT, force=True),
            fontsize=_TITLE_FONT,
        )
        extra_top = 18.0 * (ax.title.get_text().count("\n") + 1)
    if layout.key and not layout.key_outside:
        key = add_key(fig, layout.key, fig.get_figwidth() * 72 - 8, grow=own)
        if own:
            key.set_loc("lower center")
    if own:
        total = fig.get_figheight() * 72 + extra_top
        fig.set_figheight(total / 72)
        below = total - height - extra_top
        ax.set_position((0.0, below / total, 1.0, height / total))
    return ax


def _text(ax: Any, text: Text, x_of: Any) -> None:
    """One text of the layout, its lines joined (matplotlib sets the lines)."""
    one_line = len(text.lines) == 1
    va = {
        "center": "center_baseline" if one_line else "center",
        "top": "top",
        "bottom": "bottom",
    }[text.valign]
    ax.text(
        x_of(text.x),
        text.y,
        "\n".join(text.lines),
        ha=_HA[text.anchor],
        va=va,
        multialignment=_HA[text.anchor] if text.anchor != "middle" else "center",
        fontsize=text.size,
        fontweight="bold" if text.bold else "normal",
        color=text.color,
        clip_on=False,
        gid=text.gid,
    )
