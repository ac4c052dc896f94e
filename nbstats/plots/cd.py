"""Critical-difference diagrams (Demšar 2006, §3.2.4, Figure 1).

The diagram is drawn from a post-hoc result and never recomputes significance:
the lines joining algorithms are the result's own ``groups``, the marks are its
``reject``, the bars its ``critical_difference``, so the picture and the table
cannot disagree.

Layout: the x axis is in mean-rank units (so every artist's x data are mean
ranks); y runs downwards from the top of the axes, one unit being one point
in a figure made here (its height follows the number of algorithms and
groups). Everything stays inside the axes vertically; the names sit outside
its data area, next to its left and right edges (a figure made here uses
constrained layout, which leaves room for them).

Artists carry stable ``gid`` values: ``"cd-bar"`` and ``"cd-text"``,
``"control-band"``, ``"group-<i>"`` (i indexes ``result.groups``),
``"stem-<j>"``, ``"label-<j>"`` and ``"significant-<j>"`` (j indexes
``result.mean_ranks``), ``"caption"``. Importing this module imports
matplotlib.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.transforms import blended_transform_factory, offset_copy

from nbstats.names import AliasOption
from nbstats.plots._cd_caption import cd_caption
from nbstats.plots._common import quiet
from nbstats.plots._rank_axis import TICK_FONT, RankLocator, rank_label
from nbstats.plots.labels import MIN_FONT, add_key, fit_names, text_width, wrap_text
from nbstats.plots.protocols import is_kind, kind_of
from nbstats.plots.style import (
    INK,
    MUTED,
    WIDTHS,
    figure_width,
    literal,
    new_axes,
    paper_style,
    titles_shown,
)

__all__ = ["cd_diagram"]

# Vertical layout: y units below the top of the axes (points in a figure made here).
_PAD = 2.0
_TICK_LENGTH = 3.0
_TICK_PAD = 1.5
_TICK_FONT = TICK_FONT
_SMALL_FONT = MIN_FONT
_GROUP_WIDTH = 2.2  # line width of group lines and of the control band
_ROW_STEP = 4.6  # distance between rows of group lines
_MARK = 4.5  # marker size (points) of "significant" marks and group members
_TITLE_FONT = 8.0


def cd_diagram(
    result: Any,
    *,
    ax: Any = None,
    reverse: bool = False,
    width: str = "single",
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
    width : {"single", "double"}
        Width of a new figure: one column (3.3 in) or two (6.9 in).
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
        :func:`nbstats.names.make_aliases`): those aliases, with a key;
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
    if width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    if label_fontsize is not None and (
        isinstance(label_fontsize, bool)
        or not isinstance(label_fontsize, numbers.Real)
        or not label_fontsize > 0
    ):
        raise ValueError(
            f"label_fontsize must be a positive number of points, got "
            f"{label_fontsize!r}."
        )
    with paper_style():
        ax = _Diagram(result, reverse=bool(reverse), show_cd=bool(show_cd)).draw(
            ax,
            width=width,
            label_fontsize=label_fontsize,
            title=title,
            aliases=aliases,
        )
    return quiet(ax)


class _Diagram:
    """What to draw (from the result) and where (in rank units and points)."""

    def __init__(
        self,
        result: Any,
        *,
        reverse: bool,
        show_cd: bool,
    ) -> None:
        self.result = result
        self.reverse = reverse
        ranks = result.mean_ranks
        self.names = [str(a) for a in ranks.index]
        self.ranks = np.asarray(ranks, dtype=float)
        self.m = len(self.names)
        if self.m < 2:
            raise ValueError("a CD diagram needs at least two algorithms.")
        self.index = {name: j for j, name in enumerate(self.names)}
        is_posthoc = is_kind(result, "posthoc")
        self.control = result.control if is_posthoc else None
        cd = result.critical_difference if is_posthoc else None
        self.cd = None if cd is None or not math.isfinite(cd) else float(cd)
        self.show_cd = show_cd and self.cd is not None
        self.band = self.control is not None and self.cd is not None
        self.marks = self.control is not None and self.cd is None
        self.groups = [] if self.control is not None else list(result.groups)
        self.first, self.last = self._axis_range()
        self.group_rows = self._group_rows()

    # -- what -------------------------------------------------------------

    def _axis_range(self) -> tuple[int, int]:
        """Whole ranks around the observed mean ranks, holding the CD bar."""
        first = max(1, math.floor(float(self.ranks.min()) + 1e-9))
        last = min(self.m, math.ceil(float(self.ranks.max()) - 1e-9))
        need = max(1, math.ceil(self.cd - 1e-9)) if self.show_cd else 1
        while last - first < need and (last < self.m or first > 1):
            if last < self.m:
                last += 1
            if last - first < need and first > 1:
                first -= 1
        return first, last

    def _span(self, group: tuple[str, ...]) -> tuple[float, float]:
        values = [self.ranks[self.index[str(a)]] for a in group]
        return min(values), max(values)

    def _group_rows(self) -> list[int | None]:
        """Row of each group line: greedy interval colouring with a margin."""
        margin = 0.025 * (self.last - self.first)
        order = sorted(
            (i for i, g in enumerate(self.groups) if len(g) > 1),
            key=lambda i: (self._span(self.groups[i]), i),
        )
        rows: list[list[tuple[float, float]]] = []
        assigned: list[int | None] = [None] * len(self.groups)
        for i in order:
            lo, hi = self._span(self.groups[i])
            for r, taken in enumerate(rows):
                if all(lo > b + margin or hi < a - margin for a, b in taken):
                    taken.append((lo, hi))
                    assigned[i] = r
                    break
            else:
                rows.append([(lo, hi)])
                assigned[i] = len(rows) - 1
        return assigned

    def _caption(self, control_label: str | None = None) -> str:
        """The test and α in words; ``control_label`` names the control
        (default: its name as written)."""
        return cd_caption(self.result, self.control, self.marks, control_label)

    # -- where ------------------------------------------------------------

    def _layout(self, fontsize: float) -> None:
        """Vertical positions, in y units (points) below the top of the axes."""
        tick_block = _TICK_FONT * 1.2 + _TICK_PAD + _TICK_LENGTH
        if self.show_cd:
            self.y_cd = _PAD + _SMALL_FONT * 1.2 + 2.5
            self.y_axis = self.y_cd + 4.0 + tick_block
        else:
            self.y_axis = _PAD + tick_block
        first = self.y_axis + 5.5
        n_rows = max((r + 1 for r in self.group_rows if r is not None), default=0)
        if self.band:
            n_rows = 1
        self.y_rows = [first + r * _ROW_STEP for r in range(n_rows)]
        below = self.y_rows[-1] + 5.5 if n_rows else self.y_axis + 7.0
        lead = 0.35 if self.label_lines > 1 else 0.1  # a line of text is ~1.2 em
        self.spacing = (1.2 * self.label_lines + lead) * fontsize
        self.n_best = math.ceil(self.m / 2)
        self.y_labels = [
            below + 0.6 * fontsize + i * self.spacing
            for i in range(max(self.n_best, self.m - self.n_best))
        ]
        last = self.y_labels[-1] + 0.6 * self.label_lines * fontsize
        self.y_caption = last + 4.0
        caption_lines = self.caption.count("\n") + 1 if self.caption else 0
        self.height = self.y_caption + _SMALL_FONT * 1.2 * caption_lines + _PAD

    def draw(
        self,
        ax: Any,
        *,
        width: str,
        label_fontsize: float | None,
        title: str | None,
        aliases: AliasOption,
    ) -> Any:
        own = ax is None
        if own:
            total = figure_width(width) * 72
        else:
            total = ax.get_position().width * ax.figure.get_figwidth() * 72
        fontsize = self._fit_labels(total, label_fontsize, aliases)
        control = None
        if self.control is not None:
            control = literal(self.control)
            if self.fitted.aliases and self.control in self.fitted.aliases:
                control = self.fitted.label(self.control).replace("\n", " ")
        self.caption = ""
        if titles_shown():
            caption = self._caption(control)
            self.caption = str(wrap_text(caption, total - 8, _SMALL_FONT, force=True))
        else:
            title = None
        self._layout(fontsize)
        if own:
            height_in = self.height / 72 + 0.08 + (0.25 if title is not None else 0)
            aspect = height_in / figure_width(width)
            fig, ax = new_axes(None, width=width, aspect=aspect)
        else:
            fig, ax = new_axes(ax)
        self.ax = ax
        self._setup_axes(fig)
        self._draw_stems_and_labels(fontsize)
        if self.show_cd:
            self._draw_cd()
        self._draw_groups()
        if self.band:
            self._draw_band()
        if self.marks:
            self._draw_marks()
        if self.caption:
            ax.text(
                0.5,
                self.y_caption,
                self.caption,
                transform=self.trans_axes,
                ha="center",
                va="top",
                fontsize=_SMALL_FONT,
                color="#4D4D4D",
                gid="caption",
            )
        if title is not None:
            ax.set_title(wrap_text(literal(title), total - 8, _TITLE_FONT, force=True))
        if self.fitted.aliases:
            add_key(fig, self.fitted.key(), fig.get_figwidth() * 72 - 8, grow=own)
        return ax

    def _fit_labels(
        self, total: float, label_fontsize: float | None, aliases: AliasOption
    ) -> float:
        """Labels (names, wrapped names or letters) that fit beside the axis.

        The rank axis keeps at least 40% of the width; each side gets half
        of the rest, less the gap between a stem's end and its name.
        """
        preferred = float(label_fontsize if label_fontsize is not None else 8.0)
        side = 0.3 * total - 3.0 - 5.0
        weight = "bold" if self.control is not None else "normal"
        self.fitted = fit_names(
            self.names,
            side,
            fontsize=preferred,
            min_fontsize=min(MIN_FONT, preferred),
            # many names: one line each (a long one gets a letter), since one
            # wrapped name would double the height of every row
            max_lines=2 if self.m <= 20 else 1,
            weight=weight,
            aliases=aliases,
        )
        self.label_lines = self.fitted.lines
        self.label_width = max(
            text_width(label, self.fitted.fontsize, weight=weight)
            for label in self.fitted.labels
        )
        return self.fitted.fontsize

    def _setup_axes(self, fig: Any) -> None:
        ax, first, last = self.ax, self.first, self.last
        pad = 0.06 * (last - first) + 0.15
        lo, hi = first - pad, last + pad
        # best on the right: the x axis runs from m (left) down to 1 (right)
        self.left, self.right = (lo, hi) if self.reverse else (hi, lo)
        ax.set_xlim(self.left, self.right)
        # y grows downwards, one unit ≈ one point in a figure made here
        ax.set_ylim(self.height, 0)
        ax.patch.set_visible(False)
        for side in ("left", "right", "bottom"):
            ax.spines[side].set_visible(False)
        top = ax.spines["top"]
        top.set_visible(True)
        top.set_bounds(first, last)
        top.set_position(("data", self.y_axis))
        top.set_color(INK)
        ax.yaxis.set_visible(False)
        ax.xaxis.tick_top()
        ax.xaxis.set_major_locator(RankLocator(last, major=True, first=first))
        ax.xaxis.set_minor_locator(RankLocator(last, major=False, first=first))
        ax.xaxis.set_major_formatter(rank_label)
        ax.tick_params(
            axis="x",
            which="both",
            direction="out",
            colors=INK,
            labelsize=_TICK_FONT,
            pad=_TICK_PAD,
            bottom=False,
            labelbottom=False,
            top=True,
            labeltop=True,
        )
        ax.tick_params(axis="x", which="major", length=_TICK_LENGTH)
        ax.tick_params(axis="x", which="minor", length=_TICK_LENGTH / 2)
        self.trans = ax.transData
        self.trans_axes = blended_transform_factory(ax.transAxes, ax.transData)

    def _line(self, x: Any, y: Any, *, transform: Any = None, **kwargs: Any) -> Any:
        kwargs.setdefault("color", INK)
        kwargs.setdefault("solid_capstyle", "butt")
        line = Line2D(x, y, transform=transform or self.trans, clip_on=False, **kwargs)
        self.ax.add_line(line)
        return line

    def _draw_stems_and_labels(self, fontsize: float) -> None:
        fig = self.ax.figure
        self.ends: dict[int, tuple[float, float, bool]] = {}
        order = sorted(range(self.m), key=lambda j: (self.ranks[j], j))
        best, worst = order[: self.n_best], order[self.n_best :][::-1]
        # the best side is the right unless reversed; outermost name on top
        for side, members in (("best", best), ("worst", worst)):
            on_right = (side == "best") != self.reverse
            edge = self.right if on_right else self.left
            shift = offset_copy(
                self.trans, fig=fig, x=3 if on_right else -3, units="points"
            )
            for row, j in enumerate(members):
                y = self.y_labels[row]
                self.ends[j] = (edge, y, on_right)
                x = self.ranks[j]
                self._line(
                    [x, x, edge],
                    [self.y_axis, y, y],
                    linewidth=0.7 if self.m <= 12 else 0.55,
                    zorder=2,
                    gid=f"stem-{j}",
                )
                self.ax.text(
                    edge,
                    y,
                    self.fitted.labels[j],
                    transform=shift,
                    ha="left" if on_right else "right",
                    va="center_baseline" if self.label_lines == 1 else "center",
                    multialignment="left" if on_right else "right",
                    fontsize=fontsize,
                    fontweight="bold" if self.names[j] == self.control else "normal",
                    color=INK,
                    gid=f"label-{j}",
                )

    def _draw_cd(self) -> None:
        assert self.cd is not None
        # starts at the visual left end of the axis, as in Figure 1
        start = float(self.last) if not self.reverse else float(self.first)
        end = start - self.cd if not self.reverse else start + self.cd
        y = self.y_cd
        self._line([start, end], [y, y], linewidth=1.0, gid="cd-bar", zorder=3)
        for x in (start, end):
            self._line([x, x], [y - 2, y + 2], linewidth=0.7, gid="cd-bar-end")
        self.ax.text(
            (start + end) / 2,
            y - 2.5,
            f"CD = {self.cd:.2f}",
            transform=self.trans,
            ha="center",
            va="bottom",
            fontsize=_SMALL_FONT,
            color=INK,
            gid="cd-text",
        )

    def _draw_groups(self) -> None:
        for i, group in enumerate(self.groups):
            xs = sorted(self.ranks[self.index[str(a)]] for a in group)
            row = self.group_rows[i]
            if row is None:  # a group of one: nothing to join
                line = self._line(xs, [0.0] * len(xs), gid=f"group-{i}")
                line.set_visible(False)
                continue
            lo, hi = xs[0], xs[-1]
            members = {str(a) for a in group}
            skips = any(
                lo <= r <= hi and name not in members
                for name, r in zip(self.names, self.ranks, strict=True)
            )
            y = self.y_rows[row]
            self._line(
                xs,
                [y] * len(xs),
                linewidth=_GROUP_WIDTH,
                solid_capstyle="projecting",
                marker="o" if skips or hi == lo else None,
                markersize=_MARK,
                markerfacecolor=INK,
                markeredgewidth=0,
                zorder=4,
                gid=f"group-{i}",
            )

    def _draw_band(self) -> None:
        assert self.cd is not None
        assert self.control is not None
        centre = self.ranks[self.index[self.control]]
        y = self.y_rows[0]
        band = self._line(
            [centre - self.cd, centre + self.cd],
            [y, y],
            linewidth=_GROUP_WIDTH + 0.8,
            color=MUTED,
            zorder=1,
            gid="control-band",
        )
        # draw only over the axis; the x data keep the true extent
        clip = Rectangle(
            (float(self.first), -1.0),
            float(self.last - self.first),
            3.0,
            transform=blended_transform_factory(self.ax.transData, self.ax.transAxes),
        )
        band.set_clip_path(clip)
        band.set_clip_on(True)

    def _draw_marks(self) -> None:
        """A dot on the line of each algorithm the result rejects, by its name."""
        for name, rejected in self.result.reject.items():
            if not bool(rejected):
                continue
            j = self.index[str(name)]
            edge, y, on_right = self.ends[j]
            inward = offset_copy(
                self.trans, fig=self.ax.figure, x=-5 if on_right else 5, units="points"
            )
            self._line(
                [edge],
                [y],
                transform=inward,
                linestyle="none",
                marker="o",
                markersize=_MARK,
                markerfacecolor=INK,
                markeredgecolor=INK,
                zorder=5,
                gid=f"significant-{j}",
            )
