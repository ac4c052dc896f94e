r"""Paste-ready figure files for a paper venue.

:func:`venue_figures` writes a result's figure as the files a paper
includes at their natural size (``\includegraphics{figure-1}``, no
``width=``): one column wide, its text in the document's font at 8 pt (7 pt
is the least a venue's figure may print), and for a two-column venue a
variant as wide as the text block, for ``figure*``, whose name says
``wide``. The critical-difference diagram (``kind="cd"``) also comes as
TikZ; the other figures (heat map, rank intervals, Plackett–Luce P(best),
posteriors) are the result's ``plot()`` drawn at the venue's width, in its
font. A report writes the CD diagram in ``<stem>_core/`` and the others in
``<stem>_tables/``.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Iterator
from typing import Any

from nbstats.scores.aliases import AliasOption

__all__ = ["key_tabular", "venue_figures"]


def _saved(ax: Any, fmt: str, *, close: bool = True) -> bytes:
    """The figure of ``ax`` as ``fmt`` bytes, exactly its size (no padding:
    a column-wide figure stays as wide as the column)."""
    import matplotlib.pyplot as plt

    from nbstats.plots.style import figure_of, save

    buffer = io.BytesIO()
    save(ax, buffer, format=fmt, pad_inches=0)
    if close:
        plt.close(figure_of(ax))
    return buffer.getvalue()


def venue_figures(
    result: Any,
    venue: Any = "article",
    *,
    kind: str | None = "cd",
    stem: str = "figure-1",
    aliases: AliasOption = "auto",
    formats: tuple[str, ...] = ("pdf", "svg"),
    **plot_kw: Any,
) -> dict[str, bytes]:
    r"""A result's figure as paste-ready files for ``venue``.

    Parameters
    ----------
    result : result object
        For ``kind="cd"`` a PosthocResult or BayesPosthocResult; otherwise
        any result whose ``plot()`` draws the figure (a post-hoc or joint
        result's heat map, rank intervals, a Plackett–Luce ranking, a
        signed-rank posterior).
    venue : str or Venue
        ``"article"``, ``"twocolumn"``, ``"ieee"``, ``"acm"`` or a
        :class:`~nbstats.results.venues.Venue`.
    kind : str or None
        ``"cd"``: the critical-difference diagram (with its TikZ); any other
        string is passed as ``result.plot(kind=...)`` (``"heatmap"``,
        ``"posterior"``, ``"simplex"``); None calls ``result.plot()`` (rank
        intervals, Plackett–Luce).
    stem : str
        The files' name before the suffix.
    aliases : "auto", bool or mapping
        As in :func:`~nbstats.plots.cd_diagram` (a report passes its own).
    formats : tuple of str
        The column figure's formats; the wide one is PDF.
    **plot_kw
        Passed on to ``result.plot`` (not for ``kind="cd"``), e.g. ``order=``.

    Returns
    -------
    dict
        ``{file name: bytes}``: ``<stem>.pdf`` (and the other ``formats``) at
        the column's width; for a two-column venue ``<stem>-wide.pdf`` at
        the text width (``figure*``, at most 6.9 in). For ``kind="cd"`` also
        ``<stem>.tex``, the same diagram as TikZ for ``\input``, and
        ``<stem>-key.tex`` when the letters' key is too tall to go in the
        figure (a float may take 80 % of the page).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    >>> sorted(venue_figures(res, "ieee", formats=("pdf",)))
    ['figure-1-wide.pdf', 'figure-1.pdf', 'figure-1.tex']
    >>> sorted(venue_figures(res, "article", formats=("pdf",)))
    ['figure-1.pdf', 'figure-1.tex']
    >>> sorted(venue_figures(res, "acm", kind="heatmap", stem="heat", formats=("pdf",)))
    ['heat-wide.pdf', 'heat.pdf']
    """
    if kind != "cd":
        return _plot_files(result, venue, kind, stem, aliases, formats, plot_kw)
    from nbstats.plots.cd import cd_diagram
    from nbstats.plots.tikz import cd_key_latex, cd_tikz
    from nbstats.results.venues import get_venue

    chosen = get_venue(venue)
    files: dict[str, bytes] = {}
    for fmt in formats:
        ax = cd_diagram(result, width=chosen, aliases=aliases)
        files[f"{stem}.{fmt}"] = _saved(ax, fmt)
    if chosen.two_column:
        ax = cd_diagram(result, width=chosen, wide=True, aliases=aliases)
        files[f"{stem}-wide.pdf"] = _saved(ax, "pdf")
    tikz = cd_tikz(result, width=chosen, aliases=aliases, standalone=False)
    files[f"{stem}.tex"] = tikz.encode("utf-8")
    if tikz.startswith("% The letters' key"):
        key = cd_key_latex(result, width=chosen, aliases=aliases)
        files[f"{stem}-key.tex"] = key.encode("utf-8")
    return files


@contextlib.contextmanager
def _typeset_for(
    venue: Any, width_in: float, height_in: float | None = None
) -> Iterator[None]:
    """Figures drawn inside are laid out ``width_in`` inches wide and
    ``height_in`` tall at most (None: any height), in the venue's font,
    without titles."""
    from nbstats.plots.style import set_typography

    before = set_typography(
        titles=False, page_width=width_in, page_height=height_in, venue=venue
    )
    try:
        yield
    finally:
        set_typography(
            titles=before.titles,
            page_width=before.page_width,
            page_height=before.page_height,
            venue=before.venue,
        )


#: Tries at narrowing a figure whose text sticks out of its box.
_FIT_TRIES = 3


def _drawn_at(
    result: Any,
    venue: Any,
    width_in: float,
    kw: dict[str, Any],
    height_in: float | None = None,
) -> Any:
    """``result.plot(**kw)`` laid out so that its saved box (text sticking
    out included) is no wider than ``width_in``: drawn again narrower by
    what it exceeds, never scaled (scaling would shrink its text)."""
    import matplotlib.pyplot as plt

    from nbstats.plots.style import figure_of

    room = width_in
    before = None
    for attempt in range(_FIT_TRIES):
        with _typeset_for(venue, room, height_in):
            figure = figure_of(result.plot(width="double", **kw))
            width = _box(figure)[0]
        over = width - width_in
        # done: it fits, or narrower room no longer narrows it (its labels
        # and cells at their least), or the last try
        stuck = before is not None and width >= before - 0.005
        if over <= 0.005 or stuck or attempt == _FIT_TRIES - 1:
            return figure
        plt.close(figure)
        before = width
        room = max(room - over - 0.01, 0.5 * width_in)
    raise AssertionError("unreachable")  # pragma: no cover


def _plot_files(
    result: Any,
    venue: Any,
    kind: str | None,
    stem: str,
    aliases: AliasOption,
    formats: tuple[str, ...],
    plot_kw: dict[str, Any],
) -> dict[str, bytes]:
    """:func:`venue_figures` for a figure drawn by ``result.plot``."""
    from nbstats.plots.figure_model import TEXT_HEIGHTS, float_room
    from nbstats.results.venues import get_venue

    chosen = get_venue(venue)
    kw = dict(plot_kw)
    if kind is not None:
        kw["kind"] = kind
    if aliases != "auto":
        kw["aliases"] = aliases
    widths = {stem: chosen.column_width_in}
    if chosen.two_column:
        widths[f"{stem}-wide"] = chosen.text_width_in
    room = float_room(chosen)
    files: dict[str, bytes] = {}
    for name, width in widths.items():
        # as tall as its rows need; a key of names too tall for the float
        # goes into a table of its own; rows still too tall go side by side
        figure = _drawn_at(result, chosen, width, kw)
        entries = _key_out(figure, room)
        if room is not None and _box(figure)[1] * 72 > room:
            import matplotlib.pyplot as plt

            plt.close(figure)
            # rows in side-by-side panels, the key (if any) under them
            figure = _drawn_at(result, chosen, width, kw, room / 72)
            entries = _key_out(figure, room)
        if entries:
            files[f"{name}-key.tex"] = key_tabular(entries).encode("utf-8")
        if (
            name == stem
            and chosen.two_column
            and _box(figure)[0] * 72 > chosen.column_width_pt + 0.5
        ):
            # its text would print below 7 pt in a column: figure* only
            import matplotlib.pyplot as plt

            plt.close(figure)
            files.pop(f"{name}-key.tex", None)
            continue
        wide, height = (72 * side for side in _box(figure))
        if name == stem and wide > chosen.column_width_pt + 0.5:
            warnings.warn(
                f"{name}.pdf is {wide:.0f} pt wide, more than the "
                f"{chosen.column_width_pt:.0f} pt column of {chosen.name!r} (its "
                "labels and cells at their least at 8 pt); show fewer algorithms.",
                UserWarning,
                stacklevel=3,
            )
        # a page's text height less three lines of caption: LaTeX's
        # "Float too large"
        page = TEXT_HEIGHTS.get(chosen.name)
        most = None if page is None else page - 3.6 * chosen.font_size_pt
        if most is not None and height > most:
            warnings.warn(
                f"{name}.pdf is {height:.0f} pt tall, more than the {most:.0f} pt "
                f"a float of {chosen.name!r} can hold with its caption (one row "
                "per algorithm at 8 pt); show fewer algorithms.",
                UserWarning,
                stacklevel=3,
            )
        wanted = formats if name == stem else ("pdf",)
        for fmt in wanted:
            with _typeset_for(chosen, width):
                files[f"{name}.{fmt}"] = _saved(figure, fmt, close=fmt == wanted[-1])
    return files


def _box(figure: Any) -> tuple[float, float]:
    """The saved (tight) box of ``figure``: width and height in inches."""
    from nbstats.plots.style import paper_style

    with paper_style():
        figure.draw_without_rendering()
        box = figure.get_tightbbox(figure.canvas.get_renderer())
    return box.width, box.height


def _key_out(figure: Any, room: float | None) -> list[str]:
    """Take the key of names out of a figure taller than ``room`` points
    (a venue's float), shortening the figure by its height; its entries
    (``"A: full name"``), or ``[]`` when it stays."""
    if room is None or _box(figure)[1] * 72 <= room:
        return []
    for key in list(figure.legends):
        if key.get_gid() != "key":
            continue
        renderer = figure.canvas.get_renderer()
        height = key.get_window_extent(renderer).height / figure.dpi
        entries = [str(text.get_text()).replace("\n", " ") for text in key.texts]
        key.remove()
        figure.set_figheight(max(figure.get_figheight() - height, 1.0))
        return entries
    return []


def key_tabular(entries: list[str]) -> str:
    r"""A figure's key of names (``"A: full name"`` entries) as a LaTeX
    ``tabular`` a paper puts in the caption or a table of its own (needs
    only the ``array`` package).

    Examples
    --------
    >>> print(key_tabular(["A: C4.5", "B: C4.5+m"]))
    \begin{tabular}{@{}l>{\raggedright\arraybackslash}p{0.85\columnwidth}@{}}
    \hline
    A & C4.5 \\
    B & C4.5+m \\
    \hline
    \end{tabular}
    <BLANKLINE>
    """
    from nbstats.results.formatting import escape_latex

    rows = [[*entry.split(": ", 1), ""] for entry in entries]
    body = "\n".join(
        f"{escape_latex(row[0])} & {escape_latex(row[1])} \\\\" for row in rows
    )
    return (
        "\\begin{tabular}{@{}l>{\\raggedright\\arraybackslash}p{0.85\\columnwidth}@{}}\n"
        "\\hline\n" + body + "\n\\hline\n\\end{tabular}\n"
    )
