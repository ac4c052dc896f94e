r"""Paste-ready figure files for a paper venue.

:func:`venue_figures` writes a critical-difference diagram as the files a
paper includes at their natural size (``\includegraphics{figure-1}``, no
``width=``): one column wide, its text in the document's font at 8 pt (7 pt
is the least a venue's figure may print), and for a two-column venue a
variant as wide as the text block, for ``figure*``, whose name says
``wide``. A report writes them in ``<stem>_core/``.
"""

from __future__ import annotations

import io
from typing import Any

from nbstats.names import AliasOption

__all__ = ["venue_figures"]


def _saved(ax: Any, fmt: str) -> bytes:
    """The figure of ``ax`` as ``fmt`` bytes, exactly its size (no padding:
    a column-wide figure stays as wide as the column)."""
    import matplotlib.pyplot as plt

    from nbstats.plots.style import save

    buffer = io.BytesIO()
    save(ax, buffer, format=fmt, pad_inches=0)
    plt.close(ax.figure)
    return buffer.getvalue()


def venue_figures(
    result: Any,
    venue: Any = "article",
    *,
    stem: str = "figure-1",
    aliases: AliasOption = "auto",
    formats: tuple[str, ...] = ("pdf", "svg"),
) -> dict[str, bytes]:
    r"""A post-hoc result's CD diagram as paste-ready files for ``venue``.

    Parameters
    ----------
    result : PosthocResult or BayesPosthocResult
    venue : str or Venue
        ``"article"``, ``"twocolumn"``, ``"ieee"``, ``"acm"`` or a
        :class:`~nbstats.results.venues.Venue`.
    stem : str
        The files' name before the suffix.
    aliases : "auto", bool or mapping
        As in :func:`~nbstats.plots.cd_diagram` (a report passes its own).
    formats : tuple of str
        The column figure's formats; the wide one is PDF.

    Returns
    -------
    dict
        ``{file name: bytes}``: ``<stem>.pdf`` (and the other ``formats``) at
        the column's width; for a two-column venue ``<stem>-wide.pdf`` at
        the text width (``figure*``); ``<stem>.tex``, the same diagram as
        TikZ for ``\input``; and ``<stem>-key.tex`` when the letters' key is
        too tall to go in the figure (a float may take 80 % of the page).

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    >>> sorted(venue_figures(res, "ieee", formats=("pdf",)))
    ['figure-1-wide.pdf', 'figure-1.pdf', 'figure-1.tex']
    >>> sorted(venue_figures(res, "article", formats=("pdf",)))
    ['figure-1.pdf', 'figure-1.tex']
    """
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
