r"""The paper venues that tables and figures are set for.

A venue is a document class with its options, and the geometry that class
gives: the width of one column, of the whole text block, and the size of
its body text. Tables choose their layout from it (one column, or both
columns of a two-column page) and figures their size; every width here was
read from the class itself (``\the\columnwidth`` and ``\the\textwidth``
after ``\begin{document}``, TeX Live 2024).

Examples
--------
>>> venue = get_venue("ieee")
>>> venue.column_width_pt, venue.two_column
(252.0, True)
>>> get_venue("article").column_width_pt == get_venue("article").text_width_pt
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["VENUES", "Venue", "get_venue"]

PT_PER_INCH = 72.27


@dataclass(frozen=True)
class Venue:
    r"""One document class and the geometry it gives.

    Attributes
    ----------
    name : str
        The name users pass as ``venue=`` (``"article"``, ``"ieee"`` ...).
    documentclass : str
        The ``\documentclass[options]{class}`` line of a document in it.
    column_width_pt, text_width_pt : float
        ``\columnwidth`` and ``\textwidth`` in TeX points (1/72.27 inch).
    font_size_pt : float
        The body text size.
    two_column : bool
        Whether the page has two columns (no ``longtable`` there; a table
        or figure wider than a column spans both with ``table*`` /
        ``figure*``).
    """

    name: str
    documentclass: str
    column_width_pt: float
    text_width_pt: float
    font_size_pt: float
    two_column: bool

    @property
    def column_width_in(self) -> float:
        """The column width in inches (matplotlib's unit)."""
        return self.column_width_pt / PT_PER_INCH

    @property
    def text_width_in(self) -> float:
        """The text block's width in inches."""
        return self.text_width_pt / PT_PER_INCH


VENUES: dict[str, Venue] = {
    venue.name: venue
    for venue in (
        Venue("article", r"\documentclass[10pt]{article}", 345.0, 345.0, 10.0, False),
        Venue(
            "twocolumn",
            r"\documentclass[10pt,twocolumn]{article}",
            229.5,
            469.0,
            10.0,
            True,
        ),
        Venue(
            "ieee", r"\documentclass[conference]{IEEEtran}", 252.0, 516.0, 10.0, True
        ),
        Venue("acm", r"\documentclass[sigconf]{acmart}", 241.14749, 506.295, 9.0, True),
    )
}


def get_venue(venue: str | Venue) -> Venue:
    """Return the :class:`Venue` named ``venue`` (or ``venue`` itself).

    Parameters
    ----------
    venue : str or Venue
        One of ``"article"`` (one column, 10 pt), ``"twocolumn"`` (article,
        two columns), ``"ieee"`` (IEEEtran conference) and ``"acm"``
        (acmart sigconf), or a :class:`Venue` of your own.

    Returns
    -------
    Venue

    Raises
    ------
    ValueError
        For a name that is not a known venue; the message lists them.

    Examples
    --------
    >>> get_venue("twocolumn").column_width_pt
    229.5
    """
    if isinstance(venue, Venue):
        return venue
    if not isinstance(venue, str):
        raise TypeError(
            f"venue must be a venue name or a Venue, not {type(venue).__name__}; "
            f"use one of {', '.join(repr(name) for name in VENUES)}"
        )
    try:
        return VENUES[venue.lower()]
    except KeyError:
        raise ValueError(
            f"venue {venue!r} is not known; use one of "
            f"{', '.join(repr(name) for name in VENUES)}"
        ) from None
