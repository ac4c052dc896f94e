"""The comparison matrix figure: one annotated cell per ordered pair."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from nbstats.plots._common import quiet
from nbstats.plots.labels import MIN_FONT, add_key, fit_names, text_width, wrap_text
from nbstats.plots.style import INK, WIDTHS, figure_width, paper_style, titles_shown
from nbstats.results.number_policy import format_relation
from nbstats.results.procedure_names import adjustment_name
from nbstats.scores.aliases import AliasOption

__all__ = ["CELL_LINES", "comparison_matrix_plot"]

#: What a cell can say, in the order written: the mean difference, the
#: record (wins/ties/losses), the adjusted p-value, the effect size.
CELL_LINES = ("difference", "record", "pvalue", "effect")
#: Largest annotation font (points); the smallest is MIN_FONT.
_FONT_MAX = MIN_FONT
#: Share of a cell the text block may take (inside the significance frame).
_TEXT_SHARE = 0.8
#: Largest cell of a new figure (points): two algorithms need no full page.
_CELL_MAX = 56.0
#: Effect sizes bounded in [-1, 1] (Vargha–Delaney's A in [0, 1]).
_BOUNDED = {"cliff": (-1.0, 1.0), "rank-biserial": (-1.0, 1.0),
            "vargha-delaney": (0.0, 1.0)}  # fmt: skip
#: Points kept for the colorbar, its ticks and its label, right of the map.
_COLORBAR = 46.0
#: Share of the width the row names may take.
_LABEL_SHARE = 0.3
_EFFECT_SYMBOLS = {
    "cliff": "δ",
    "vargha-delaney": "A",
    "cohen-d": "d",
    "hedges-g": "g",
    "rank-biserial": "r",
    "hodges-lehmann": "HL",
}


def comparison_matrix_plot(
    result: Any,
    *,
    ax: Any = None,
    lines: str | Sequence[str] = "auto",
    color: str = "effect",
    width: str = "double",
    aliases: AliasOption = "auto",
) -> Any:
    """Annotated matrix of every pair: row against column.

    Rows and columns are the algorithms by mean rank, best first. Each cell
    is coloured by the row's effect size over the column (or by the mean
    difference), blue where the row is better and red where it is worse,
    and says -- as far as the cell has room -- the mean difference, the
    record (wins/ties/losses of the row), the adjusted p-value and the
    effect. Pairs significant after the correction are framed, their text
    in bold.

    Parameters
    ----------
    result : ComparisonMatrixResult
        From :func:`nbstats.comparison_matrix` (anything with its attributes).
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure.
    lines : "auto" or sequence of {"difference", "record", "pvalue", "effect"}
        What each cell says. ``"auto"``: all four when they fit at 8 points,
        else the first lines that fit of (p-value, effect, record,
        difference) -- the p-value first -- else none (from about 20
        algorithms: the colours and frames remain). Every row and column is
        named, as in :func:`nbstats.plots.pairwise_heatmap` (numbered
        columns when names do not fit under them); the title is left out in
        a report, which captions the figure.
    color : {"effect", "difference"}
        What the colour shows: the effect size (bounded kinds on their whole
        range) or the mean difference (symmetric around 0).
    width : {"single", "double"}
        Width of a new figure, one or two columns of a paper (four lines of
        text need the double width from about 6 algorithms).
    aliases : "auto", bool or mapping
        As in :func:`nbstats.plots.pairwise_heatmap`: letters with a key
        under the figure when the names do not fit.

    Returns
    -------
    matplotlib.axes.Axes
        The cells' texts have gid ``f"cell-{row}-{column}"``, the frames
        ``f"significant-{row}-{column}"``.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.comparison import comparison_matrix_plot
    >>> res = nbstats.comparison_matrix(nbstats.datasets.load("demsar2006"))
    >>> ax = comparison_matrix_plot(res)
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cell-C4.5+m-C4.5"]
    ['+0.0155\\n10/2/2\\np = 0.047\\nr +0.77']
    >>> sorted(p.get_gid() for p in ax.patches if p.get_gid())
    ['significant-C4.5+m-C4.5', 'significant-C4.5-C4.5+m']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle
    from seaborn.utils import relative_luminance

    names = [str(name) for name in result.names]
    m = len(names)
    wanted = _check_lines(lines)
    if color not in ("effect", "difference"):
        raise ValueError(f"color must be 'effect' or 'difference', got {color!r}.")
    own = ax is None
    if own and width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    values = (
        result.effect_sizes if color == "effect" else result.mean_difference
    ).to_numpy(dtype=float, copy=True)
    np.fill_diagonal(values, np.nan)
    texts = _cell_texts(result, names)
    with paper_style():
        total = (
            figure_width(width) * 72
            if own
            else ax.get_position().width * ax.figure.get_figwidth() * 72
        )
        layout = _Layout(names, names, names, total, one_row=False, aliases=aliases)
        if own and layout.cell > _CELL_MAX:  # few algorithms: a narrower figure
            total -= (layout.cell - _CELL_MAX) * m
            layout = _Layout(names, names, names, total, one_row=False,
                             aliases=aliases)  # fmt: skip
        chosen, fontsize = _fit_lines(texts, wanted, layout.cell, lines == "auto")
        title = ""
        if titles_shown():  # centred over the map, which the names push right
            centre = layout.label_width + 10.0 + layout.map_width / 2
            room = 2 * min(centre, layout.total - centre) - 16.0  # layout moves it
            title = str(wrap_text(_title(result, chosen), room, MIN_FONT, force=True))
        if own:
            height = layout.map_height + layout.below
            height += 11.5 * (title.count("\n") + 1) if title else 0.0
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots(
                figsize=(layout.total / 72, (height + 10.0) / 72),
                layout="constrained",
            )
        else:
            fig = ax.figure
        low, high = _limits(result, values, color)
        norm = Normalize(vmin=low, vmax=high)
        mesh = ax.pcolormesh(
            np.ma.masked_invalid(values),
            cmap="RdBu",
            norm=norm,
            edgecolors="white",
            linewidth=0.5 if layout.cell >= 8 else 0.0,
        )
        ax.set_xlim(0, m)
        ax.set_ylim(m, 0)  # the best first, at the top
        ax.set_aspect("auto" if layout.numbered else "equal")
        for side in ("top", "right", "bottom", "left"):
            ax.spines[side].set_visible(False)
        reject = result.reject.to_numpy(dtype=bool)
        fills = mesh.cmap(norm(np.nan_to_num(values)))
        for i in range(m):
            for j in range(m):
                if i == j:
                    continue
                dark = relative_luminance(fills[i, j]) < 0.408  # as seaborn
                ink = "white" if dark else INK
                if chosen:
                    ax.text(
                        j + 0.5,
                        i + 0.5,
                        "\n".join(texts[line][i][j] for line in chosen),
                        ha="center",
                        va="center",
                        fontsize=fontsize,
                        linespacing=1.15,
                        color=ink,
                        fontweight="bold" if reject[i, j] else "normal",
                        gid=f"cell-{names[i]}-{names[j]}",
                    )
                if reject[i, j] and layout.cell >= 5:
                    ax.add_artist(
                        Rectangle(
                            (j + 0.06, i + 0.06),
                            0.88,
                            0.88,
                            fill=False,
                            edgecolor=ink,
                            linewidth=min(1.0, layout.cell / 8),
                            gid=f"significant-{names[i]}-{names[j]}",
                        )
                    )
        _label_axes(ax, layout)
        bar = fig.colorbar(mesh, cax=ax.inset_axes([1.03, 0.0, 0.04, 1.0]))
        bar.outline.set_visible(False)
        bar.ax.tick_params(labelsize=MIN_FONT)
        bar.set_label(_colorbar_label(result, color), fontsize=MIN_FONT)
        if title:
            ax.set_title(title)
        if layout.fitted.aliases:
            add_key(fig, layout.fitted.key(), fig.get_figwidth() * 72 - 8, grow=own)
        if own:
            _grow_to_fit(fig)
    return quiet(ax)


def _grow_to_fit(fig: Any) -> None:
    """Make a new figure taller until everything drawn lies inside it: the
    square map keeps its size, so an estimate too short would cut the title."""
    for _ in range(3):
        fig.draw_without_rendering()
        box = fig.get_tightbbox()  # inches
        height = fig.get_figheight()
        if box.y1 <= height + 0.01 and box.y0 >= -0.01:
            return
        fig.set_figheight(height + max(box.y1 - height, 0) + max(-box.y0, 0) + 0.05)


def _check_lines(lines: str | Sequence[str]) -> list[str]:
    if isinstance(lines, str):
        if lines != "auto":
            raise ValueError(
                f"lines must be 'auto' or a list of {list(CELL_LINES)}, got {lines!r}."
            )
        return list(CELL_LINES)
    chosen = list(lines)
    unknown = [line for line in chosen if line not in CELL_LINES]
    if unknown:
        raise ValueError(
            f"unknown cell lines {unknown}; choose from {list(CELL_LINES)}."
        )
    return chosen


def _cell_texts(result: Any, names: list[str]) -> dict[str, list[list[str]]]:
    """Every line a cell can show, per cell."""
    m = len(names)
    symbol = _EFFECT_SYMBOLS[result.effect]
    diff = result.mean_difference.to_numpy(dtype=float)
    effect = result.effect_sizes.to_numpy(dtype=float)
    adjusted = result.adjusted.to_numpy(dtype=float)
    wins, ties, losses = (
        frame.to_numpy() for frame in (result.wins, result.n_ties, result.losses)
    )
    # the differences share one number of decimals: 3 significant figures of
    # the largest, so that the cells line up and compare
    largest = np.nanmax(np.abs(diff)) if m > 1 else 0.0
    decimals = (
        2
        if not largest or not math.isfinite(largest)
        else max(0, 2 - math.floor(math.log10(largest)))
    )
    texts: dict[str, list[list[str]]] = {line: [] for line in CELL_LINES}
    for i in range(m):
        rows = {line: [] for line in CELL_LINES}
        for j in range(m):
            rows["difference"].append(f"{diff[i, j]:+.{decimals}f}".replace("-", "−"))
            rows["record"].append(f"{wins[i, j]}/{ties[i, j]}/{losses[i, j]}")
            # as the tables and the text print it (the number policy)
            rows["pvalue"].append(f"p {format_relation(adjusted[i, j], 'pvalue')}")
            rows["effect"].append(f"{symbol} {effect[i, j]:+.2f}".replace("-", "−"))
        for line in CELL_LINES:
            texts[line].append(rows[line])
    return texts


def _fit_lines(
    texts: dict[str, list[list[str]]], wanted: list[str], cell: float, auto: bool
) -> tuple[list[str], float]:
    """The lines written and their font size: as many as fit at MIN_FONT."""
    orders = [wanted]
    if auto:  # fewer lines, the p-value first
        orders = [wanted, ["pvalue", "effect", "record"], ["pvalue", "effect"],
                  ["pvalue"]]  # fmt: skip
    for lines in orders:
        widest = max(
            text_width(texts[line][i][j], _FONT_MAX, weight="bold")
            for line in lines
            for i in range(len(texts[line]))
            for j in range(len(texts[line]))
            if i != j
        )
        size = min(_FONT_MAX, _FONT_MAX * _TEXT_SHARE * cell / widest)
        size = min(size, _TEXT_SHARE * cell / (1.15 * len(lines)))
        if size >= MIN_FONT:
            return lines, size
    return [], 0.0


def _limits(result: Any, values: np.ndarray, color: str) -> tuple[float, float]:
    if color == "effect" and result.effect in _BOUNDED:
        return _BOUNDED[result.effect]
    centre = 0.5 if color == "effect" and result.effect == "vargha-delaney" else 0
    finite = np.abs(values[np.isfinite(values)] - centre)
    half = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    return centre - half, centre + half


def _colorbar_label(result: Any, color: str) -> str:
    if color == "difference":
        return "mean difference, row − column"
    return f"{result.effect_name}, row over column"


def _title(result: Any, lines: list[str]) -> str:
    says = {
        "difference": "mean difference",
        "record": "wins/ties/losses",
        "pvalue": (
            "unadjusted p"
            if result.adjust == "none"
            else f"adjusted p ({adjustment_name(result.adjust)})"
        ),
        "effect": _EFFECT_SYMBOLS[result.effect],
    }
    cell = (
        "cell: row vs column — " + ", ".join(says[line] for line in lines)
        if lines
        else "colour: row vs column"
    )
    return (
        f"{result.test_name} tests; framed: significant at α = {result.alpha:g}\n{cell}"
    )


def _label_axes(ax: Any, layout: _Layout) -> None:
    """Every row and column named: columns alternate between the bottom and
    the top of the map when a label is wider than a cell."""
    ax.tick_params(axis="both", length=0, labelsize=layout.fontsize)
    n_cols, n_rows = len(layout.x_labels), len(layout.y_labels)
    rotated = {
        "rotation": layout.rotation,
        "ha": "right" if layout.rotation == 45 else "center",
        "rotation_mode": "anchor" if layout.rotation == 45 else "default",
        # lines hang from the map
        "multialignment": "right" if layout.rotation else "center",
    }
    ticks = np.arange(n_cols) + 0.5
    if layout.alternate:
        ax.set_xticks(ticks[0::2], layout.x_labels[0::2], va="top", **rotated)
        top = ax.secondary_xaxis("top")
        top.set_xticks(ticks[1::2], layout.x_labels[1::2], va="bottom", **rotated)
        top.tick_params(length=0, labelsize=layout.fontsize)
        top.spines["top"].set_visible(False)
        top.set_gid("top-labels")
    else:
        ax.set_xticks(ticks, layout.x_labels, va="top", **rotated)
    ax.set_yticks(
        np.arange(n_rows) + 0.5, layout.y_labels, rotation=0, multialignment="right"
    )


class _Layout:
    """Names that fit beside and under the map, and the map's size (points).

    The row names may take 30% of the width (wrapped onto two lines, or the
    names that fit neither way replaced by letters with a key); the map
    takes what is left beside the colorbar. Every row and column is named:

    - cells at least a line of text wide: square, the names under the
      columns (at 45° for up to 12 short names, else upright);
    - narrower cells of a square map: the columns are numbered 1, 2, …
      (the rows' ranks, also written after each row's name), the numbers
      alternating between the bottom and the top of the map when two would
      touch; the cells are as tall as a line of text;
    - one row (against a control): the names alternate under and over it.

    A map whose labels do not fit the width even so is made wider than
    ``total`` (``self.total``): never is a label left out.
    """

    def __init__(
        self,
        names: list[str],
        cols: list[str],
        rows: list[str],
        total: float,
        *,
        one_row: bool,
        aliases: AliasOption,
    ) -> None:
        n = len(cols)
        colorbar = 0.0 if one_row else _COLORBAR
        room = _LABEL_SHARE * total

        def fit(max_lines: int, suffix: str = "") -> tuple[Any, float, float, float]:
            """Names, their height (pitch), the widest row label, the cell."""
            fitted = fit_names(
                names,
                room - text_width(suffix, MIN_FONT),
                fontsize=MIN_FONT,
                max_lines=max_lines,
                aliases=aliases,
            )
            lead = 0.35 if fitted.lines > 1 else 0.1  # a line is ~1.2 em
            pitch = (1.2 * fitted.lines + lead) * fitted.fontsize
            width = max(text_width(fitted.label(r) + suffix, MIN_FONT) for r in rows)
            return fitted, pitch, width, max(total - width - 14.0 - colorbar, 1.0) / n

        fitted, pitch, width, cell = fit(2)
        if cell < pitch and fitted.lines > 1:  # one line each, letters for some
            fitted, pitch, width, cell = fit(1)
        self.numbered = not one_row and cell < pitch
        if self.numbered:  # one line a name, and its rank after it
            fitted, pitch, width, cell = fit(1, f" ({n})")
        self.fitted = fitted
        self.fontsize = fs = fitted.fontsize
        self.y_labels = [fitted.label(name) for name in rows]
        self.x_labels = [fitted.label(name) for name in cols]
        self.alternate = False
        if self.numbered:
            self.y_labels = [
                f"{label} ({k})" for k, label in enumerate(self.y_labels, 1)
            ]
            self.x_labels = [str(k) for k in range(1, n + 1)]
            width = max(text_width(label, fs) for label in self.y_labels)
            # a number and a gap, or two cells for it on alternating sides
            number = text_width(str(n), fs) + 0.25 * fs
            cell = max(total - width - 14.0 - colorbar, 1.0) / n
            self.alternate = cell < number
            cell = max(cell, number / 2 if self.alternate else number)
            self.map_height = n * max(cell, pitch)
            self.rotation = 0
        else:
            self.alternate = one_row and cell < pitch
            cell = max(cell, pitch / 2 if self.alternate else pitch)
            self.map_height = cell * len(rows)
            upright = n > 12 or fitted.lines > 1
            # labels as narrow as a cell (letters) stand upright; longer ones
            # read bottom to top
            widest = max(text_width(x, fs) for x in self.x_labels)
            flat = fitted.lines == 1 and widest + 0.3 * fs <= cell
            self.rotation = 0 if flat else (90 if upright else 45)
        self.cell = cell
        self.label_width = width
        self.map_width = cell * n
        self.total = max(total, width + 14.0 + colorbar + self.map_width)
        widest = max(text_width(label, fs) for label in self.x_labels)
        if self.rotation == 90:
            tall = widest
        elif self.rotation == 45:
            tall = 0.72 * (widest + fs)
        else:
            tall = 1.2 * fs
        self.below = tall * (2 if self.alternate else 1) + 6.0
