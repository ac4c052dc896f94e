"""Names that fit: measured widths, wrapping at natural breaks, letter aliases.

Real experiments name algorithms after their configuration, e.g.
``HistGradientBoostingClassifier(max_iter=300, lr=0.05)``. A plot that has
``width`` points for a name tries, in this order (:func:`fit_names`):

1. the names as they are, at the preferred font size or up to 1 pt smaller;
2. the names wrapped onto at most ``max_lines`` lines at natural breaks
   (after ``(``, ``,``, ``_``, ``-``, ``=``, ``/`` and spaces), from the
   preferred size down to 8 pt (:data:`MIN_FONT`);
3. letter aliases ``A``, ``B``, … for the names that still do not fit, the
   others as they are (wrapped), with a key (:func:`add_key`) under the plot
   that lists each letter with its full name.

Widths are measured with matplotlib's font metrics in points (no figure
needed), in the fonts of :func:`~nbstats.plots.style.paper_style`.
Importing this module imports matplotlib.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from nbstats.plots.style import font_families, literal
from nbstats.scores.aliases import AliasOption, make_aliases

__all__ = [
    "MIN_FONT",
    "Fitted",
    "add_key",
    "advance_width",
    "fit_names",
    "text_width",
    "text_width_in",
    "wrap_text",
]

#: No text of a figure is set smaller than this (points): 8 pt is the
#: smallest size journals accept in figures at their printed size.
MIN_FONT = 8.0
#: Break opportunities: a piece ends after one of these (or before a space).
_PIECES = re.compile(r"[^(,_\-=/\s]*(?:[(,_\-=/]+|\s+|$)")


@functools.lru_cache(maxsize=64)
def _font_files(weight: str, family: tuple[str, ...]) -> tuple[str, ...]:
    """The font files of ``family`` that exist here, in order: the first for
    most text, the next for the characters it lacks (θ, ′ in Latin Modern
    Roman come from Latin Modern Math), as matplotlib draws them. Resolved one
    family at a time, so a family missing here (Arial) is skipped without
    matplotlib's "findfont" message on stderr."""
    from matplotlib.font_manager import FontProperties, findfont

    files: list[str] = []
    for name in family:
        try:
            path = findfont(
                FontProperties(family=name, weight=weight), fallback_to_default=False
            )
        except ValueError:
            continue
        if path not in files:
            files.append(path)
    if not files:
        files.append(findfont(FontProperties(weight=weight)))
    return tuple(files)


@functools.lru_cache(maxsize=4096)
def _width(line: str, fontsize: float, weight: str, family: tuple[str, ...]) -> float:
    from matplotlib.font_manager import get_font
    from matplotlib.ft2font import LoadFlags

    # measured as matplotlib's TextToPath measures (72 dpi, no hinting), on
    # the same fallback chain the text is drawn with
    font = get_font(list(_font_files(weight, family)))
    font.set_size(fontsize, 72)
    font.set_text(line.replace(r"\$", "$"), 0.0, flags=LoadFlags.NO_HINTING)
    width, _ = font.get_width_height()
    return width / 64.0


def text_width(text: str, fontsize: float, *, weight: str = "normal") -> float:
    """Width in points of ``text`` (its longest line) at ``fontsize``.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> with paper_style():
    ...     round(text_width("C4.5+m+cf", 10) / text_width("C4.5+m+cf", 5), 6)
    2.0
    """
    family = font_families()
    return max(
        (
            _width(line, float(fontsize), weight, family)
            for line in str(text).split("\n")
        ),
        default=0.0,
    )


#: (weight, family) -> {character: advance in ems}, filled as characters come.
_ADVANCES: dict[tuple[str, tuple[str, ...]], dict[str, float]] = {}


def _advance(char: str, weight: str, family: tuple[str, ...]) -> float:
    """A character's advance in ems (measured at 100 pt, as :func:`_width`);
    a character no font of ``family`` has (a control character) is measured
    as the font's empty box, silently."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return _width(char, 100.0, weight, family) / 100.0


def advance_width(
    text: str,
    fontsize: float,
    *,
    family: tuple[str, ...] | None = None,
    weight: str = "normal",
) -> float:
    """Width in points of ``text`` (one line) at ``fontsize``: the sum of its
    characters' advances in ``family`` (default: the current one), read
    from the font file with FreeType -- the same metrics as
    :func:`text_width`, without kerning, each character measured once: fast
    enough for a dashboard that measures thousands of candidate labels.

    Examples
    --------
    >>> w = advance_width("C4.5+m+cf", 10, family=("DejaVu Sans",))
    >>> abs(w - text_width_in("C4.5+m+cf", 10, ("DejaVu Sans",))) < 0.05 * w
    True
    """
    chosen = font_families() if family is None else tuple(family)
    table = _ADVANCES.setdefault((weight, chosen), {})
    total = 0.0
    for char in str(text):
        em = table.get(char)
        if em is None:
            em = table[char] = _advance(char, weight, chosen)
        total += em
    return fontsize * total


def text_width_in(
    text: str, fontsize: float, family: tuple[str, ...], *, weight: str = "normal"
) -> float:
    """:func:`text_width` in a given font ``family`` (not the current one)."""
    return max(
        (
            _width(line, float(fontsize), weight, tuple(family))
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


@dataclasses.dataclass(frozen=True)
class Fitted:
    """Labels that fit: the texts to draw and how."""

    #: The names given, as strings.
    names: list[str]
    #: Their labels, in the same order (``$`` escaped for matplotlib).
    labels: list[str]
    #: Font size of the labels (points).
    fontsize: float
    #: ``{name: alias}`` of the names shown by an alias (draw a key), or None.
    aliases: dict[str, str] | None = None

    @property
    def lines(self) -> int:
        """Most lines of any label."""
        return max(label.count("\n") + 1 for label in self.labels)

    def label(self, name: object) -> str:
        """The label of one of the names given."""
        return self.labels[self.names.index(str(name))]

    def key(self) -> list[str]:
        """Entries of the key: ``"A: full name"`` (empty without aliases)."""
        if not self.aliases:
            return []
        return [
            f"{literal(alias)}: {literal(name)}" for name, alias in self.aliases.items()
        ]


def fit_names(
    names: Sequence[object],
    width: float,
    *,
    fontsize: float,
    min_fontsize: float = MIN_FONT,
    max_lines: int = 2,
    weight: str = "normal",
    aliases: AliasOption = "auto",
) -> Fitted:
    """Labels for ``names`` no wider than ``width`` points (see module notes).

    Parameters
    ----------
    names : sequence
        The algorithm names, in the order letters are handed out (a table's
        column order keeps the letters of every figure and table alike).
    width : float
        Points a label may take.
    fontsize, min_fontsize : float
        The preferred size and the smallest tried (half points between).
    max_lines : int
        Most lines of a wrapped name.
    weight : str
        Font weight the labels are drawn in.
    aliases : "auto", bool, None or mapping
        ``"auto"``: letters only for the names that fit neither as written
        nor wrapped at ``min_fontsize``, the others as they are; the key
        lists only the letters. ``True``: letters;
        a mapping ``{name: alias}``: those aliases (e.g. a report's, from
        :func:`nbstats.scores.aliases.make_aliases`), the other names as they are;
        either way with a key. ``False`` or ``None``: never letters, the
        names cut to fit at ``min_fontsize`` if they must.

    Returns
    -------
    Fitted
        The labels, escaped for matplotlib (``$`` shows as written).

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> long = ["HistGradientBoostingClassifier(max_iter=300, lr=0.05)", "SVC()"]
    >>> with paper_style():
    ...     fit_names(["RF", "SVC"], 100, fontsize=8).labels
    ...     fit_names(long, 150, fontsize=8).lines
    ...     fit_names(long, 40, fontsize=8).labels
    ...     fit_names(long, 40, fontsize=8).key()
    ...     fit_names(["RF", "SVC()"], 150, fontsize=8, aliases={"SVC()": "S"}).key()
    ['RF', 'SVC']
    2
    ['A', 'SVC()']
    ['A: HistGradientBoostingClassifier(max_iter=300, lr=0.05)']
    ['S: SVC()']
    """
    names = [str(name) for name in names]
    chosen: dict[str, str] | None = None
    if aliases is True or isinstance(aliases, Mapping):
        mapping = make_aliases(names, aliases)
        chosen = {n: a for n, a in mapping.items() if a != n} or None
        shown = [mapping[n] for n in names]
        aliases = False  # the aliases themselves must fit as they are
    elif aliases is None or aliases is False or aliases == "auto":
        shown = names
    else:
        raise ValueError(
            f"aliases must be 'auto', True, False or a mapping {{name: alias}}, "
            f"got {aliases!r}."
        )
    texts = [literal(n) for n in shown]
    sizes = [fontsize]
    while sizes[-1] - 0.5 >= min_fontsize - 1e-9:
        sizes.append(sizes[-1] - 0.5)
    for size in sizes:
        if size < fontsize - 1 - 1e-9:  # rather two lines than a tiny font
            break
        if all(text_width(t, size, weight=weight) <= width for t in texts):
            return Fitted(names, texts, size, chosen)
    for size in sizes:
        wrapped = [
            wrap_text(t, width, size, max_lines=max_lines, weight=weight) for t in texts
        ]
        if all(w is not None for w in wrapped):
            return Fitted(names, [str(w) for w in wrapped], size, chosen)
    if aliases == "auto":
        return _some_letters(names, texts, width, sizes[-1], max_lines, weight)
    size = sizes[-1]
    cut = [str(wrap_text(t, width, size, weight=weight, force=True)) for t in texts]
    return Fitted(names, cut, size, chosen)


def _some_letters(
    names: list[str],
    texts: list[str],
    width: float,
    size: float,
    max_lines: int,
    weight: str,
) -> Fitted:
    """Letters for the names that fit neither as written nor wrapped at
    ``size``; the others as written (wrapped if they must be)."""
    shown: list[str | None] = [
        text
        if text_width(text, size, weight=weight) <= width
        else wrap_text(text, width, size, max_lines=max_lines, weight=weight)
        for text in texts
    ]
    long = [name for name, label in zip(names, shown, strict=True) if label is None]
    # A, B, …, Z, AA, … skipping any letter that is an algorithm's name
    free = (c for c in map(_letters, itertools.count()) if c not in set(names))
    letters = {name: next(free) for name in long}
    labels = [
        letters[name] if label is None else label
        for name, label in zip(names, shown, strict=True)
    ]
    return Fitted(names, labels, size, letters)


def _letters(k: int) -> str:
    """The k-th letter label: A … Z, AA, AB, …

    Examples
    --------
    >>> [_letters(k) for k in (0, 25, 26, 27, 701, 702)]
    ['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']
    """
    label = ""
    k += 1
    while k:
        k, rest = divmod(k - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


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
    constrained layout, which places the key below everything). A figure
    that already has this key (another panel of the same algorithms) keeps
    its one. Returns the legend, gid ``"key"``.
    """
    from matplotlib.lines import Line2D

    entries = [str(entry) for entry in entries]
    for existing in fig.legends:  # panels of one table share one key
        if getattr(existing, "_nbstats_entries", None) == entries:
            return existing
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
    key._nbstats_entries = entries
    if grow:
        # the key's size does not depend on the layout: measure it at once
        renderer = fig.canvas.get_renderer()
        height = key.get_window_extent(renderer).height / fig.dpi
        fig.set_figheight(fig.get_figheight() + height)
    return key
