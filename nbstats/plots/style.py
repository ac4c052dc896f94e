"""One look for every nbstats figure: fonts, greyscale-safe colours, paper sizes.

Figures are drawn inside :func:`paper_style` so the user's global matplotlib
settings are never changed. Sizes follow common two-column journal layouts
(one column ≈ 3.3 in, both ≈ 6.9 in). No text is smaller than 8 pt.

A report typesets figures like its document (:func:`set_typography`): in
Latin Modern, the font of the LaTeX report, and without in-figure titles
(the report captions every figure).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator
from typing import Any

from nbstats.plots.fonts import DOCUMENT_FONT, MATH_FONT, cjk_font
from nbstats.plots.fonts import document_font as load_document_font

#: Okabe–Ito colours ordered so that neighbours also differ in lightness,
#: which keeps them apart when printed in greyscale.
PALETTE = ("#000000", "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")
#: Roles used across the plots.
INK = "#000000"  # text, axes, group bars
ACCENT = "#0072B2"  # the main curve or the control
SECOND = "#D55E00"  # a second curve (e.g. the upper posterior)
MUTED = "#8C8C8C"  # reference lines, bands
SHADE = "#BFD7EA"  # filled areas (light enough to print grey, not black)

#: Figure widths in inches.
WIDTHS = {"single": 3.3, "double": 6.9}

#: The matplotlib settings of the paper style (``axes.prop_cycle`` is filled
#: in by :func:`rc_params`); the dashboards' SVGs take their fonts from here.
PAPER_RC = {
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica", "sans-serif"],
    "font.size": 8,
    "axes.titlesize": 8,
    "axes.labelsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 8,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.0,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": None,  # filled in below (needs cycler)
    "svg.fonttype": "none",  # text stays text in SVG
    # a fixed salt for the SVG's element ids (random by default): the same
    # figure gives the same bytes
    "svg.hashsalt": "nbstats",
    "pdf.fonttype": 42,  # TrueType in PDF: editable, no Type 3 fonts
    "savefig.dpi": 300,
    "savefig.bbox": "tight",
    "figure.dpi": 100,
    "text.usetex": False,
}


@dataclasses.dataclass
class Typography:
    """How figures are typeset; :func:`set_typography` changes it."""

    #: Latin Modern (the LaTeX report's font) instead of DejaVu Sans.
    document_font: bool = False
    #: In-figure titles and captions (off in a report: it captions figures).
    titles: bool = True
    #: The widest a figure may be (inches), e.g. a page's text width; None:
    #: the paper widths of :data:`WIDTHS` as they are.
    page_width: float | None = None
    #: The tallest a figure may be (inches); a plot of many rows that would
    #: be taller sets them side by side in panels. None: no limit.
    page_height: float | None = None
    #: The paper venue (name or Venue) whose document font figures are set
    #: in (:func:`~nbstats.plots.fonts.venue_font`); None: as
    #: ``document_font`` says.
    venue: Any = None


TYPOGRAPHY = Typography()


#: "Leave this setting as it is" in :func:`set_typography`.
_KEEP: Any = object()


def set_typography(
    *,
    document_font: bool = _KEEP,
    titles: bool = _KEEP,
    page_width: float | None = _KEEP,
    page_height: float | None = _KEEP,
    venue: Any = _KEEP,
) -> Typography:
    """Typeset the figures drawn from now on like a document (a report does).

    ``document_font``: Latin Modern, the font of the LaTeX report, if it is
    installed (else the figures keep DejaVu Sans). ``titles``: False drops
    in-figure titles and captions that repeat a report's caption.
    ``page_width``: the widest figure (inches), so that a two-column figure
    is laid out at the width it is printed at; ``page_height``: the tallest
    (a forest plot of many rows then sets them side by side); None: no
    limit. ``venue``: a venue name or
    :class:`~nbstats.results.venues.Venue` whose document font the figures
    take (None: as ``document_font`` says). A setting not
    given is left as it is. Returns the settings before the call (to restore
    them).

    Examples
    --------
    >>> before = set_typography(titles=False, page_width=6.1)
    >>> TYPOGRAPHY.titles, TYPOGRAPHY.page_width, before.titles, before.page_width
    (False, 6.1, True, None)
    >>> _ = set_typography(**dataclasses.asdict(before))
    >>> TYPOGRAPHY.titles, TYPOGRAPHY.page_width
    (True, None)
    """
    before = dataclasses.replace(TYPOGRAPHY)
    if document_font is not _KEEP:
        TYPOGRAPHY.document_font = bool(document_font) and bool(load_document_font())
    if titles is not _KEEP:
        TYPOGRAPHY.titles = bool(titles)
    if page_width is not _KEEP:
        TYPOGRAPHY.page_width = None if page_width is None else float(page_width)
    if page_height is not _KEEP:
        TYPOGRAPHY.page_height = None if page_height is None else float(page_height)
    if venue is not _KEEP:
        TYPOGRAPHY.venue = venue
    return before


@contextlib.contextmanager
def typography_as(settings: Typography | None = None) -> Iterator[None]:
    """Figures drawn inside are typeset with ``settings`` (a
    :class:`Typography`, as :func:`set_typography` returns it; None: as they
    are now); the settings before are put back after, whatever was set
    inside.

    Examples
    --------
    >>> with typography_as():
    ...     _ = set_typography(titles=False)
    >>> TYPOGRAPHY.titles
    True
    >>> with typography_as(Typography(titles=False)):
    ...     TYPOGRAPHY.titles
    False
    """
    before = dataclasses.replace(TYPOGRAPHY)
    if settings is not None:
        _assign(settings)
    try:
        yield
    finally:
        _assign(before)


def _assign(settings: Typography) -> None:
    # field by field into the one TYPOGRAPHY every module reads (the font
    # was loaded when these settings were made)
    for field in dataclasses.fields(Typography):
        setattr(TYPOGRAPHY, field.name, getattr(settings, field.name))


def page_height() -> float | None:
    """The tallest a figure may be (inches; :func:`set_typography`), or None."""
    return TYPOGRAPHY.page_height


def figure_width(width: str) -> float:
    """Inches of a new figure ``"single"`` or ``"double"`` column wide (no
    wider than the page of :func:`set_typography`).

    Examples
    --------
    >>> figure_width("single"), figure_width("double")
    (3.3, 6.9)
    """
    if width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    page = TYPOGRAPHY.page_width
    return WIDTHS[width] if page is None else min(WIDTHS[width], page)


def titles_shown() -> bool:
    """Whether plots draw their own titles and captions (not in a report)."""
    return TYPOGRAPHY.titles


def _document_rc(family: str = DOCUMENT_FONT) -> dict[str, Any]:
    """Latin Modern for text and mathtext; SVG text as paths (a browser has
    no Latin Modern, and another font would not fit the layout).

    Why the font is embedded rather than set by TeX (matplotlib's PGF
    backend, which runs xelatex for every figure): on the report's figures
    embedding saves a PDF faster, for somewhat larger files
    (``benchmarks/bench_figures.py``); PGF would
    also need TeX to write a LaTeX or notebook report (today only a PDF
    needs it), and a character Latin Modern lacks would be dropped where
    matplotlib falls back to Latin Modern Math or DejaVu Serif. Both put
    the document's font, at the sizes the figure sets, in the PDF.
    """
    return {
        # the families by name, not "serif": a text keeps them when it is
        # drawn outside paper_style()
        "font.family": [family, MATH_FONT, "DejaVu Serif"]
        + ([cjk] if (cjk := cjk_font()) else []),
        "mathtext.fontset": "custom",
        "mathtext.rm": family,
        "mathtext.it": f"{family}:italic",
        "mathtext.bf": f"{family}:bold",
        "mathtext.sf": family,
        "mathtext.tt": family,
        "mathtext.cal": f"{family}:italic",
        "svg.fonttype": "path",
    }


def font_families() -> tuple[str, ...]:
    """The font families text is set in now (generic names resolved)."""
    import matplotlib

    families: list[str] = []
    for family in matplotlib.rcParams["font.family"]:
        key = f"font.{family}"
        families += (
            list(matplotlib.rcParams[key]) if key in matplotlib.rcParams else [family]
        )
    return tuple(families)


def rc_params(venue: Any = None) -> dict[str, Any]:
    """The matplotlib settings of :func:`paper_style` (``venue``: set in
    that venue's document font, :func:`~nbstats.plots.fonts.venue_font`)."""
    from cycler import cycler  # matplotlib dependency; imported lazily

    params = dict(PAPER_RC)
    params["axes.prop_cycle"] = cycler(color=list(PALETTE))
    if venue is None:
        venue = TYPOGRAPHY.venue
    if venue is not None:
        from nbstats.plots.fonts import venue_font
        from nbstats.results.venues import get_venue

        family = venue_font(get_venue(venue).name)
        if family:
            params.update(_document_rc(family))
    elif TYPOGRAPHY.document_font and load_document_font():
        params.update(_document_rc())
    return params


@contextlib.contextmanager
def paper_style(venue: Any = None) -> Iterator[None]:
    """Context in which nbstats draws; leaves global settings untouched.

    ``venue`` (a name or :class:`~nbstats.results.venues.Venue`): text in
    that venue's document font (Latin Modern; Times for ``"ieee"``).
    """
    import matplotlib

    interactive = None
    try:
        with matplotlib.rc_context(rc_params(venue)):
            try:
                yield
            finally:
                # a backend loaded inside the context (Jupyter's inline one, on
                # the first figure of a session) switches interactive mode on;
                # leaving the context must not switch it off again
                interactive = matplotlib.is_interactive()
    finally:
        if interactive is not None:
            matplotlib.interactive(interactive)


def new_axes(
    ax: Any = None, *, width: str = "single", aspect: float = 0.62
) -> tuple[Any, Any]:
    """``(figure, axes)``: the given axes, or a new figure of a paper width."""
    if ax is not None:
        return ax.figure, ax
    import matplotlib.pyplot as plt

    w = figure_width(width)
    fig, ax = plt.subplots(figsize=(w, w * aspect), layout="constrained")
    return fig, ax


def literal(text: object) -> str:
    """Text that matplotlib shows as written: ``$`` would start mathtext.

    Examples
    --------
    >>> literal("cost in $ and $x$")
    'cost in \\\\$ and \\\\$x\\\\$'
    """
    return str(text).replace("$", r"\$")


def figure_of(obj: Any) -> Any:
    """The matplotlib Figure behind what a plot returned.

    Accepts a Figure (a subfigure gives its whole figure), an Axes, an
    array, list or tuple of Axes of one figure (``plt.subplots`` returns
    one), or an object with a ``figure`` attribute (a seaborn grid).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, axes = plt.subplots(1, 2)
    >>> figure_of(axes) is fig, figure_of(axes[1]) is fig, figure_of(fig) is fig
    (True, True, True)
    >>> plt.close(fig)
    """
    from matplotlib.artist import Artist
    from matplotlib.figure import Figure, FigureBase

    if isinstance(obj, FigureBase):
        return obj if isinstance(obj, Figure) else obj.get_figure(root=True)
    if isinstance(obj, Artist):  # an Axes, or any artist of a figure
        figure = obj.get_figure(root=True)
        if figure is None:
            raise ValueError(
                f"this {type(obj).__name__} belongs to no figure; draw it first."
            )
        return figure
    if hasattr(obj, "ravel") or isinstance(obj, (list, tuple)):
        import numpy as np

        items = list(np.asarray(obj, dtype=object).ravel())
        if not items:
            raise ValueError("got an empty collection of Axes: nothing to save.")
        figures = {id(figure_of(item)): figure_of(item) for item in items}
        if len(figures) > 1:
            raise ValueError(
                f"these {len(items)} Axes belong to {len(figures)} different "
                f"figures; save each figure (ax.figure) on its own."
            )
        return next(iter(figures.values()))
    figure = getattr(obj, "figure", None)
    if figure is not None and not callable(figure):
        return figure_of(figure)
    raise TypeError(
        f"expected a matplotlib Figure, an Axes, an array or list of Axes, or "
        f"an object with a .figure (e.g. a seaborn grid); got "
        f"{type(obj).__name__}."
    )


def save(figure: Any, path: str | os.PathLike[str], **kwargs: Any) -> None:
    """Save crisply: vector for .svg/.pdf, 300 dpi for raster formats.

    Parameters
    ----------
    figure : Figure, Axes, array or list of Axes, or a seaborn-like grid
        What a plot returned (every nbstats plot returns its Axes) or its
        figure; see :func:`figure_of`.
    path : str or path-like
        The format follows the suffix (``.pdf``, ``.svg``, ``.png``, …).
    **kwargs
        Passed on to :meth:`matplotlib.figure.Figure.savefig`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import matplotlib.pyplot as plt
    >>> import nbstats
    >>> ax = nbstats.posthoc(nbstats.datasets.load("demsar2006")).plot()
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cd.pdf"
    >>> save(ax, path)
    >>> path.read_bytes()[:4]
    b'%PDF'
    >>> plt.close(ax.figure)
    """
    target = figure_of(figure)
    fmt = kwargs.get("format")
    if fmt is None and isinstance(path, (str, os.PathLike)):
        fmt = os.path.splitext(os.fspath(path))[1][1:]
    # no time stamp: the same figure gives the same bytes (a report re-run,
    # a paper's files under version control)
    stamp = {"pdf": "CreationDate", "svg": "Date"}.get(str(fmt).lower())
    if stamp is not None and "metadata" not in kwargs:
        kwargs["metadata"] = {stamp: None}
    with paper_style():
        target.savefig(path, **kwargs)
