"""The dashboards' one renderer: SVG written by hand, at every number of algorithms.

Every dashboard picture — the critical-difference picture and the forest
plot of rank intervals (:mod:`nbstats.widgets.rank_svg`), the posterior of a
pair (:mod:`nbstats.widgets.posterior_svg`), the fold dashboard's posterior
and regions (:mod:`nbstats.widgets.folds_svg`) — is an SVG string shown in an
``ipywidgets.Output`` by :func:`show_svg`, from 2 algorithms to 100 and more.
The CD diagram and the posterior pictures are the paper figures' geometry
(a figure-model :class:`~nbstats.plots.figure_model.Picture`) written by
:func:`nbstats.plots.picture_svg.picture_svg`; the others are written here.
Text is measured one way only, :func:`text_width`: DejaVu Sans (the font
the pictures name first), its advances read from the font file with
FreeType (:func:`nbstats.plots.labels.advance_width`, the figures' measure).

Why SVG and not a widget library
--------------------------------
Weighed against ``benchmarks/bench_dashboard.py`` (m × 30 cases, median time
from a control change to the updated views) and the two exports every
dashboard has (``snapshot_html()`` and the notebook's ``text/html``):

- **Latency.** Writing an SVG string is a small fraction of what
  matplotlib spent laying out the same names; with it the dashboards answer
  a slider within their latency target at 50 and 100 algorithms, while
  matplotlib, which drew up to 12 algorithms until now, could not follow a
  drag of α even at 8 (figures: ``benchmarks/bench_dashboard.py``). ipympl
  is that same matplotlib behind a canvas, so no faster.
- **Static export.** An SVG string is already HTML: the snapshot, the
  exported notebook, Voilà and a notebook opened without its kernel show the
  same picture with no script. anywidget (a small ES module) and bqplot draw
  in the browser from the widget state: their pictures vanish from a static
  export unless a second, server-side renderer writes them, which is the
  SVG again.
- **Dependencies.** Nothing beyond ipywidgets. bqplot brings its own
  JavaScript bundle and a JupyterLab extension; anywidget a Python package
  and a JavaScript module to maintain, test and version against JupyterLab
  and Voilà; ipympl a lab extension and a live kernel for every redraw.

What the SVG does not do (zoom, pan, hover beyond ``<title>`` tooltips) the
dashboards do not need: the names are in the pictures and the numbers in the
tables beside them.

Examples
--------
>>> svg = svg_document(120, 40, "a <picture>", ['<text x="4" y="20">x</text>'])
>>> svg.startswith("<svg") and "<title>a &lt;picture&gt;</title>" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from nbstats.plots.labels import advance_width
from nbstats.plots.style import PAPER_RC
from nbstats.widgets.base import SCROLL_CLASS

__all__ = ["clip", "show_svg", "svg_document", "text_width"]

#: The font every dashboard picture asks for (the one text_width measures).
FONT_FAMILY = "DejaVu Sans, Arial, sans-serif"
_FAMILY = tuple(PAPER_RC["font.sans-serif"])


def text_width(text: str, size: float) -> float:
    """Width of ``text`` at ``size`` pt in DejaVu Sans: its characters'
    advances read from the font with FreeType
    (:func:`nbstats.plots.labels.advance_width`, the figures' one measure).

    Examples
    --------
    >>> round(text_width("1", 10), 2)
    6.36
    """
    return advance_width(text, size, family=_FAMILY)


def clip(label: str, width: float, size: float) -> str:
    """``label`` cut in the middle with an ellipsis to fit ``width`` px at
    ``size`` px: its start and its end stay, where the names of variants of
    one algorithm differ.

    Examples
    --------
    >>> clip("HistGradientBoostingClassifier(max_iter=300, lr=0.05)", 160, 11)
    'HistGradientB…00, lr=0.05)'
    >>> clip("SVM", 60, 11)
    'SVM'
    """
    width += 0.01  # a name measured for its column fits it despite rounding
    if width_of(label, size) <= width:
        return label
    head, tail = len(label) // 2, len(label) - len(label) // 2
    while head + tail > 1:
        if tail >= head:
            tail -= 1
        else:
            head -= 1
        text = label[:head] + "…" + label[len(label) - tail :]
        if width_of(text, size) <= width:
            return text
    return label[:1] + "…"


def width_of(label: str, size: float) -> float:
    """Width of ``label`` in px at ``size`` px (:func:`text_width` is in pt).

    Examples
    --------
    >>> round(width_of("1", 10), 2)
    6.36
    """
    return text_width(label, size * 0.75) / 0.75


def svg_document(width: float, height: float, title: str, body: Sequence[str]) -> str:
    """A complete ``<svg>`` (px units) with a ``<title>`` and no ``id``."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="{FONT_FAMILY}" '
        f'role="img"><title>{escape(title)}</title>{"".join(body)}</svg>'
    )


def show_svg(output: Any, svg: str, text: str) -> None:
    """Show an SVG picture in an ``ipywidgets.Output`` (in a scroll box when
    it is wider than the row)."""
    output.layout.width = None
    output.layout.max_width = "calc(100% - 4px)"  # its margins: 2px a side
    output.layout.overflow = "auto"
    output.add_class(SCROLL_CLASS)
    output.outputs = (
        {
            "output_type": "display_data",
            "data": {"image/svg+xml": svg, "text/plain": text},
            "metadata": {},
        },
    )
