"""Names that fit: measured widths, wrapping at natural breaks, letter aliases.

Real experiments name algorithms after their configuration, e.g.
``HistGradientBoostingClassifier(max_iter=300, lr=0.05)``. A plot that has
``width`` points for a name tries, in this order (:func:`fit_names`):

1. the names as they are, at the preferred font size or up to 1 pt smaller;
2. the names wrapped onto at most ``max_lines`` lines at natural breaks
   (after ``(``, ``,``, ``_``, ``-``, ``=``, ``/`` and spaces), from the
   preferred size down to 6 pt;
3. letter aliases ``A``, ``B``, … (:func:`nbstats.names.make_aliases`) at the
   preferred size, with a key (:func:`add_key`) that lists every letter with
   its full name under the plot.

Widths are measured with matplotlib's font metrics in points (no figure
needed), in the fonts of :func:`~nbstats.plots.style.paper_style`.
Importing this module imports matplotlib.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from nbstats.names import make_aliases

__all__ = [
    "MIN_FONT",
    "Fitted",
    "add_key",
    "fit_names",
    "text_width",
    "wrap_text",
]

#: No text of a figure is set smaller than this (points).
MIN_FONT = 6.0
#: Break opportunities: a piece ends after one of these (or before a space).
_PIECES = re.compile(r"[^(,_\-=/\s]*(?:[(,_\-=/]+|\s+|$)")


@functools.lru_cache(maxsize=4096)
def _width(line: str, fontsize: float, weight: str, family: tuple[str, ...]) -> float:
    from matplotlib.font_manager import FontProperties, findfont
    from matplotlib.textpath import TextToPath

    # the font file text of this family and weight is drawn in (resolved once
    # by matplotlib's cache, without a warning per missing fallback family)
    path = findfont(FontProperties(family=list(family), weight=weight))
    prop = FontProperties(fname=path, size=fontsize, weight=weight)
    width, _, _ = TextToPath().get_text_width_height_descent(
        line.replace(r"\$", "$"), prop, ismath=False
    )
    return float(width)


def text_width(text: str, fontsize: float, *, weight: str = "normal") -> float:
    """Width in points of ``text`` (its longest line) at ``fontsize``.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> with paper_style():
    ...     round(text_width("C4.5+m+cf", 10) / text_width("C4.5+m+cf", 5), 6)
    2.0
    """
    import matplotlib

    family = tuple(matplotlib.rcParams["font.sans-serif"])
    return max(
        (
            _width(line, float(fontsize), weight, family)
            for line in str(text).split("\n")
        ),
        default=0.0,
    )


#: Preferred breaks: after ``(`` or ``,`` and at spaces (between parameters).
_STRONG = re.compile(r"[^(,\s]*(?:[(,]+\s*|\s+|$)")


def _lines(text: str, width: float, fontsize: float, weight: str, pattern) -> list[str]:
    """Greedy line filling with the pieces ``pattern`` cuts ``text`` into."""
    out: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for piece in (p for p in pattern.findall(paragraph) if p):
            candidate = line + piece
            fits = text_width(candidate.rstrip(), fontsize, weight=weight) <= width
            if not line or fits:
                line = candidate
                continue
            out.append(line.rstrip())
            line = piece.lstrip()
        out.append(line.rstrip())
    return out


def wrap_text(
    text: str,
    width: float,
    fontsize: float,
    *,
    max_lines: int | None = None,
    weight: str = "normal",
    force: bool = False,
) -> str | None:
    """``text`` with line breaks so that no line is wider than ``width`` points.

    Lines break after ``(`` or ``,`` and at spaces (dropped at the break)
    where that is enough, else also after ``_``, ``-``, ``=`` or ``/``;
    existing line breaks are kept. Returns ``None`` when it cannot be done
    (a piece wider than ``width``, or more than ``max_lines`` lines), unless
    ``force``, which also cuts inside pieces and ignores ``max_lines``.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> name = "HistGradientBoostingClassifier(max_iter=300, lr=0.05)"
    >>> with paper_style():
    ...     print(wrap_text(name, 120, 7))
    HistGradientBoostingClassifier(
    max_iter=300, lr=0.05)
    >>> with paper_style():
    ...     wrap_text(name, 60, 7) is None
    True
    """

    def fits(lines: list[str]) -> bool:
        return all(text_width(line, fontsize, weight=weight) <= width for line in lines)

    def short(lines: list[str]) -> bool:
        return max_lines is None or len(lines) <= max_lines

    for pattern in (_STRONG, _PIECES):
        lines = _lines(text, width, fontsize, weight, pattern)
        if fits(lines) and short(lines):
            return "\n".join(lines)
    if not force:
        return None
    cut: list[str] = []
    for line in lines:
        if text_width(line, fontsize, weight=weight) <= width:
            cut.append(line)
        else:
            cut.extend(_cut(line, width, fontsize, weight))
    return "\n".join(cut)


def _cut(line: str, width: float, fontsize: float, weight: str) -> list[str]:
    """A line too long for ``width`` cut between characters."""
    pieces, current = [], ""
    for char in line:
        if current and text_width(current + char, fontsize, weight=weight) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    return [*pieces, current]


class Fitted(NamedTuple):
    """Labels that fit: the texts to draw and how."""

    labels: list[str]
    #: Font size of the labels (points).
    fontsize: float
    #: Most lines of any label.
    lines: int
    #: ``{name: alias}`` when letters replace the names (draw a key), else None.
    aliases: dict[str, str] | None

    def key(self) -> list[str]:
        """Entries of the key: ``"A: full name"`` (empty without aliases)."""
        if not self.aliases:
            return []
        return [f"{alias}: {name}" for name, alias in self.aliases.items()]


def fit_names(
    names: Sequence[str],
    width: float,
    *,
    fontsize: float,
    min_fontsize: float = MIN_FONT,
    max_lines: int = 2,
    weight: str = "normal",
) -> Fitted:
    """Labels for ``names`` no wider than ``width`` points (see module notes).

    ``names`` are shown as given (pass them through
    :func:`~nbstats.plots.style.literal` first); the sizes tried go from
    ``fontsize`` down to ``min_fontsize`` in half points.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> long = ["HistGradientBoostingClassifier(max_iter=300, lr=0.05)", "SVC()"]
    >>> with paper_style():
    ...     fit_names(["RF", "SVC"], 100, fontsize=8).labels
    ...     fit_names(long, 150, fontsize=8).lines
    ...     fit_names(long, 40, fontsize=8).labels
    ['RF', 'SVC']
    2
    ['A', 'B']
    """
    names = [str(name) for name in names]
    sizes = [fontsize]
    while sizes[-1] - 0.5 >= min_fontsize - 1e-9:
        sizes.append(sizes[-1] - 0.5)
    for size in sizes:
        if size < fontsize - 1 - 1e-9:  # rather two lines than a tiny font
            break
        if all(text_width(n, size, weight=weight) <= width for n in names):
            return Fitted(names, size, max(n.count("\n") + 1 for n in names), None)
    for size in sizes:
        wrapped = [
            wrap_text(n, width, size, max_lines=max_lines, weight=weight) for n in names
        ]
        if all(w is not None for w in wrapped):
            labels = [str(w) for w in wrapped]
            return Fitted(labels, size, max(w.count("\n") + 1 for w in labels), None)
    aliases = make_aliases(names, True)
    return Fitted([aliases[n] for n in names], fontsize, 1, aliases)


def add_key(
    fig: Any,
    entries: Sequence[str],
    width: float,
    *,
    fontsize: float = MIN_FONT,
    grow: bool = True,
) -> Any:
    """A legend under the figure listing ``entries`` (e.g. ``"A: full name"``).

    Entries are wrapped to fit one column; as many columns as fit in
    ``width`` points. With ``grow`` the figure is made taller by the key's
    height, so the plot above keeps its size (the figure must use
    constrained layout, which places the key below everything). Returns the
    legend, gid ``"key"``.
    """
    from matplotlib.lines import Line2D

    widest = max(text_width(entry, fontsize) for entry in entries)
    gap = 1.2 * fontsize
    ncol = max(1, min(len(entries), int((width + gap) // (widest + gap))))
    column = (width + gap) / ncol - gap
    texts = [str(wrap_text(entry, column, fontsize, force=True)) for entry in entries]
    # matplotlib fills the columns one after the other, as a reader scans
    handles = [Line2D([], [], linestyle="none") for _ in texts]
    key = fig.legend(
        handles,
        texts,
        loc="outside lower center",
        ncol=ncol,
        fontsize=fontsize,
        frameon=False,
        handlelength=0,
        handletextpad=0,
        columnspacing=gap / fontsize,
        labelspacing=0.25,
        borderaxespad=0.2,
        alignment="left",
    )
    key.set_gid("key")
    if grow:
        # the key's size does not depend on the layout: measure it at once
        renderer = fig.canvas.get_renderer()
        height = key.get_window_extent(renderer).height / fig.dpi
        fig.set_figheight(fig.get_figheight() + height)
    return key
