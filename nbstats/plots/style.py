"""One look for every nbstats figure: fonts, greyscale-safe colours, paper sizes.

Figures are drawn inside :func:`paper_style` so the user's global matplotlib
settings are never changed. Sizes follow common two-column journal layouts
(one column ≈ 3.3 in, both ≈ 6.9 in).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

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
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "legend.fontsize": 7,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.0,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": None,  # filled in below (needs cycler)
    "svg.fonttype": "none",  # text stays text in SVG
    "pdf.fonttype": 42,  # TrueType in PDF: editable, no Type 3 fonts
    "savefig.dpi": 300,
    "savefig.bbox": "tight",
    "figure.dpi": 100,
    "text.usetex": False,
}


def rc_params() -> dict[str, Any]:
    """The matplotlib settings of :func:`paper_style`."""
    from cycler import cycler  # matplotlib dependency; imported lazily

    params = dict(PAPER_RC)
    params["axes.prop_cycle"] = cycler(color=list(PALETTE))
    return params


@contextlib.contextmanager
def paper_style() -> Iterator[None]:
    """Context in which nbstats draws; leaves global settings untouched."""
    import matplotlib

    interactive = None
    try:
        with matplotlib.rc_context(rc_params()):
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

    if width not in WIDTHS:
        raise ValueError(f"width must be one of {sorted(WIDTHS)}, got {width!r}.")
    w = WIDTHS[width]
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
    with paper_style():
        target.savefig(path, **kwargs)
