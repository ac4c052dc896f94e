"""Pairwise maps: adjusted p-values or posterior probabilities as a heatmap."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from nbstats.names import AliasOption
from nbstats.plots._common import quiet
from nbstats.plots.labels import MIN_FONT, add_key, fit_names, text_width, wrap_text
from nbstats.plots.protocols import is_kind
from nbstats.plots.style import (
    INK,
    WIDTHS,
    figure_width,
    literal,
    new_axes,
    paper_style,
    titles_shown,
)
from nbstats.results.procedure_names import (
    adjustment_clause,
    adjustment_name,
    posthoc_name,
)

__all__ = ["cell_text", "pairwise_heatmap"]
from nbstats.plots.pairwise_data import (
    check_kind,
    equivalent_cells,
    heatmap_matrix,
)

#: Darkest colour of the p-value map: smaller p-values look the same.
_P_FLOOR = 1e-3
#: Annotation font size bounds (points).
_FONT_MAX, _FONT_MIN = MIN_FONT, MIN_FONT
#: Share of a cell's width its text may take (inside the 84% frame).
_TEXT_SHARE = 0.8
#: Points kept for the colorbar, its ticks and its label, right of the map.
_COLORBAR = 46.0
#: Share of the width the row names may take.
_LABEL_SHARE = 0.3


def cell_text(value: float, *, probability: bool = False) -> str:
    """A p-value or probability in at most four characters, for a cell.

    Two decimals without the leading zero; three below 0.1 (where the
    decisions are made: ``.047`` and ``.056`` differ) and above 0.995;
    ``"<.001"`` and
    ``">.999"`` at the extremes; exact 0 and 1 as ``"0"`` and ``"1"`` for a
    p-value (an adjusted p-value can be 1), but as ``"<.001"`` and ``">.999"``
    for a posterior ``probability`` (an estimate, never certain; the number
    policy); NaN as an empty string.

    Examples
    --------
    >>> [cell_text(v) for v in (0.0004, 0.0042, 0.0469, 0.5, 0.996)]
    ['<.001', '.004', '.047', '.50', '.996']
    >>> [cell_text(v) for v in (0.9996, 1.0, 0.0, float("nan"))]
    ['>.999', '1', '0', '']
    >>> [cell_text(v, probability=True) for v in (1.0, 0.0)]
    ['>.999', '<.001']
    """
    value = float(value)
    if math.isnan(value):
        return ""
    if value in (0.0, 1.0) and not probability:
        return f"{value:.0f}"
    if value < 0.001:
        return "<.001"
    if value > 0.999:
        return ">.999"
    digits = 2 if 0.1 <= value < 0.995 else 3
    return f"{value:.{digits}f}".removeprefix("0")


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
    are framed and their annotations set in bold.

    Parameters
    ----------
    result : PosthocResult, BayesPosthocResult or BayesSignedRankPairsResult
        From :func:`nbstats.posthoc`, :func:`nbstats.bayes_posthoc` or
        :func:`nbstats.bayes_signrank_pairs` (cells above its threshold are
        framed). A comparison against a control is drawn as one row (the
        control) of p-values against every other algorithm.
    ax : matplotlib Axes, optional
        Where to draw (the colorbar takes space from it); by default a new
        figure.
    annotate : bool
        Write each cell's value in it: two decimals without the leading zero,
        ``"<.001"`` and ``">.999"`` at the extremes (see
        :func:`cell_text`), in a font shrunk to fit the cells; the
        values are left out when they would need less than 8 points (from
        about 10 algorithms in one column, 20 in two: the colours remain).
    kind : {"pvalues", "unadjusted", "probabilities"}, optional
        What the cells hold. ``"pvalues"`` (the default for a PosthocResult):
        the adjusted p-values ``result.adjusted``, coloured on a log scale
        (all below 0.001 darkest); ``"unadjusted"``: ``result.pvalues``, still
        framed by the adjusted decisions; ``"probabilities"`` (the only kind,
        and the default, for a BayesPosthocResult): cell (row i, column j) is
        the posterior probability that column j is better than row i.
    width : {"single", "double"}
        Width of a new figure: one or two columns of a paper. Its height
        follows from the number of algorithms and the length of their names.
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
        The heatmap's axes. Its ``QuadMesh`` holds the values drawn (masked
        diagonal); each annotation has gid ``f"cell-{row}-{column}"`` and each
        significance frame gid ``f"significant-{row}-{column}"``.

    Notes
    -----
    Readable from 2 to 100 algorithms, every row and column named: names
    take at most 30% of the width, wrapped onto two lines at ``(``, ``,`` or
    spaces if needed, the names that fit neither way replaced by letters
    ``A``, ``B``, … with a key under the map listing them. When a cell is
    narrower than a line of text the columns are numbered by rank (the
    number also follows each row's name), alternating between the bottom
    and the top of the map, and the cells are as tall as a line; a map
    whose numbers still do not fit is made wider than ``width``. Cells
    under 5 points lose their frames and the grid lines; no text is set
    below 8 points. The title (the test and what a frame means) is left
    out in a report, which captions the figure.

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
    >>> ax = pairwise_heatmap(nbstats.posthoc(scores, method="wilcoxon"))
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> sorted(a.get_gid() for a in ax.patches if a.get_gid())
    ['significant-C4.5+m-C4.5', 'significant-C4.5-C4.5+m']
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cell-C4.5-C4.5+m"]
    ['.047']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    kind = check_kind(result, kind)
    values, marked, control = heatmap_matrix(result, kind)
    rows, cols = list(values.index), list(values.columns)
    n_rows = values.shape[0]

    own = ax is None
    if own and width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    with paper_style():
        if own:
            total = figure_width(width) * 72
        else:
            total = ax.get_position().width * ax.figure.get_figwidth() * 72
        layout = _Layout(
            [str(name) for name in result.mean_ranks.index],  # letters' order
            [str(name) for name in cols],
            [str(name) for name in rows],
            total,
            one_row=n_rows == 1,
            aliases=aliases,
        )
        title = ""
        if titles_shown():  # a report captions the figure instead
            # centred over the map, which the names push right
            centre = layout.label_width + 10.0 + layout.map_width / 2
            room = 2 * min(centre, layout.total - centre) - 8.0
            title = _title(result, kind, control)
            title = str(wrap_text(title, room, MIN_FONT, force=True))
        if own:
            lines = title.count("\n") + 1 if title else 0
            height = (
                layout.map_height
                + layout.below
                + 11.5 * lines
                + (40.0 if n_rows == 1 else 10.0)
            )
            fig, ax = new_axes(None, width=width, aspect=height / total)
            fig.set_figwidth(layout.total / 72)  # wider when the map must grow
        else:
            fig, ax = new_axes(ax)
        data = values.to_numpy(dtype=float)
        _draw_map(ax, result, kind, data, layout, annotate)
        _mark_cells(ax, result, data, marked, rows, cols, layout)
        _label_axes(ax, layout)
        if control is not None:
            ax.set_ylabel("control")
        if title:
            ax.set_title(title)
        _fit_annotations(fig, ax)
        if layout.fitted.aliases:
            add_key(fig, layout.fitted.key(), fig.get_figwidth() * 72 - 8, grow=own)
    return quiet(ax)


def _draw_map(
    ax: Any, result: Any, kind: str, data: np.ndarray, layout: _Layout, annotate: bool
) -> None:
    """The coloured cells (seaborn), their texts and the colorbar."""
    import seaborn as sns
    from matplotlib.colors import LogNorm, Normalize

    is_p = kind != "probabilities"
    one_row = data.shape[0] == 1
    if is_p:
        norm = LogNorm(vmin=_P_FLOOR, vmax=1.0, clip=True)
        cmap = "Blues_r"  # small p-values dark
    else:
        norm = Normalize(vmin=0.0, vmax=1.0)
        cmap = "Blues"  # probable statements dark
    annotations = _annotations(data, probability=not is_p) if annotate else None
    if annotations is not None:
        # the widest cell text, at the smallest size, inside a cell's frame
        widest = max(
            text_width(t, _FONT_MIN, weight="bold") for t in set(annotations.ravel())
        )
        if _TEXT_SHARE * layout.cell < widest:
            annotations = None
    if kind == "probabilities":
        label = "P(column better than row)"
    elif kind == "pvalues":
        label = f"adjusted p-value ({adjustment_name(result.adjust)})"
    else:
        label = "unadjusted p-value"
    sns.heatmap(
        data,
        mask=np.isnan(data),
        ax=ax,
        cmap=cmap,
        norm=norm,
        square=not one_row and not layout.numbered,
        linewidths=0.5 if layout.cell >= 8 else 0.0,  # no grid in tiny cells
        linecolor="white",
        annot=annotations if annotations is not None else False,
        fmt="",
        annot_kws={"fontsize": _FONT_MAX},
        xticklabels=False,
        yticklabels=False,
        **_colorbar_placement(ax, label, one_row=one_row),
    )
    colorbar = ax.collections[0].colorbar
    colorbar.outline.set_visible(False)
    if is_p:
        ticks = [0.001, 0.01, 0.05, 0.1, 1.0]
        if one_row:  # a short horizontal bar: fewer labels
            ticks = [0.001, 0.05, 1.0]
        if is_kind(result, "posthoc") and result.alpha not in ticks:
            ticks = sorted([*ticks, result.alpha])
        colorbar.set_ticks(ticks, labels=[f"{t:g}" for t in ticks])
        colorbar.ax.minorticks_off()
        line = colorbar.ax.axvline if one_row else colorbar.ax.axhline
        line(result.alpha, color=INK, linewidth=1.0)
    colorbar.ax.tick_params(labelsize=MIN_FONT)


def _mark_cells(
    ax: Any,
    result: Any,
    data: np.ndarray,
    marked: np.ndarray,
    rows: list,
    cols: list,
    layout: _Layout,
) -> None:
    """Name the cell texts, set the marked ones bold, frame the marked cells."""
    from matplotlib.patches import Rectangle
    from seaborn.utils import relative_luminance

    for text in ax.texts:
        x, y = text.get_position()
        i, j = int(y), int(x)
        text.set_gid(f"cell-{rows[i]}-{cols[j]}")
        if marked[i, j]:
            text.set_fontweight("bold")
    mesh = ax.collections[0]
    fills = mesh.cmap(mesh.norm(np.where(marked, data, np.nan)))
    # cells under 5 pt get no frame: it would hide the colour
    framed = marked if layout.cell >= 5 else np.zeros_like(marked)
    # accepted "practically equivalent" statements: dashed, in both cells
    # of the pair (neither is better)
    equivalent = equivalent_cells(result, rows, cols) & (layout.cell >= 5)
    width = min(1.0, layout.cell / 8)
    for mask, kind, style in (
        (framed, "significant", "solid"),
        (equivalent, "equivalent", (0, (2, 1.5))),
    ):
        for i, j in zip(*np.nonzero(mask), strict=True):
            # black on light cells, white on dark ones (as seaborn's text);
            # add_artist: the map already sets the data limits
            light = kind == "equivalent" or relative_luminance(fills[i, j]) > 0.408
            ax.add_artist(
                Rectangle(
                    (j + 0.08, i + 0.08),
                    0.84,
                    0.84,
                    fill=False,
                    edgecolor=INK if light else "white",
                    linestyle=style,
                    linewidth=width,
                    gid=f"{kind}-{rows[i]}-{cols[j]}",
                )
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


def _colorbar_placement(ax: Any, label: str, *, one_row: bool) -> dict[str, Any]:
    """seaborn keywords: a colorbar right of a square map, below a single row."""
    if one_row:
        return {
            "cbar_kws": {
                "label": label,
                "location": "bottom",
                "shrink": 0.7,
                "aspect": 30,
                "pad": 0.05,
            }
        }
    # an inset follows the map's own box, which square cells shrink
    return {
        "cbar_ax": ax.inset_axes([1.04, 0.0, 0.05, 1.0]),
        "cbar_kws": {"label": label},
    }


def _annotations(data: np.ndarray, *, probability: bool = False) -> np.ndarray:
    return np.vectorize(
        lambda value: cell_text(value, probability=probability), otypes=[object]
    )(data)


def _fit_annotations(fig: Any, ax: Any) -> None:
    """Shrink the cell texts to fit the cells, or drop them below 4 points."""
    if not ax.texts:
        return
    fig.draw_without_rendering()  # runs the layout: the cells' final size
    renderer = fig.canvas.get_renderer()
    cell = ax.transData.transform([[0, 0], [1, 1]])
    cell_px = float(np.min(np.abs(cell[1] - cell[0])))
    widest = max(text.get_window_extent(renderer).width for text in ax.texts)
    size = _FONT_MAX * min(1.0, _TEXT_SHARE * cell_px / widest)  # inside a frame
    for text in list(ax.texts):
        if size < _FONT_MIN:
            text.remove()
        else:
            text.set_fontsize(size)


def _title(result: Any, kind: str, control: str | None) -> str:
    if is_kind(result, "signrank_pairs"):
        return (
            f"Bayesian signed-rank test ({result.prior}, s = {result.s:.3g})\n"
            f"framed: probability > {result.threshold:g}"
        )
    if is_kind(result, "bayes_posthoc"):
        rope = getattr(result, "rope", 0.0)
        if rope > 0:
            return (
                f"Bayesian {result.test_name} test, s = {result.s:.3g}, "
                f"rope ±{rope:g}\n"
                f"framed: accepted jointly at {1 - result.gamma:g}\n"
                "dashed: accepted as practically equivalent"
            )
        return (
            f"Bayesian {result.test_name} test, s = {result.s:.3g}\n"
            f"framed: accepted jointly at {1 - result.gamma:g}"
        )
    how = f"{posthoc_name(result.method)} post-hoc tests" + adjustment_clause(
        result.method, result.adjust
    )
    against = f" vs {literal(control)}" if control is not None else ""
    return f"{how}{against}\nframed: significant at α = {result.alpha:g}"
