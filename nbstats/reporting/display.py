"""The report's floats and words: numbered tables and figures, cross-references,
paragraphs, and how numbers are written, in every output format at once.

Each helper displays one output with ``text/html`` (escaped HTML; figures as SVG
``data:`` URIs inside ``<figure>``), ``text/latex`` (escaped LaTeX floats),
``application/pdf`` for figures and ``text/plain``. Table and figure numbers are
assigned by :func:`start`, in display order, so HTML and LaTeX agree.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import html
import io
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from nbstats.reporting.inprocess import capture
from nbstats.reporting.methods import Alt, Paragraph
from nbstats.reporting.paste_later import paste_files
from nbstats.results import table_model
from nbstats.results.render import (
    format_pvalue,
    format_value,
    table_html,
    to_html,
    to_latex,
)
from nbstats.results.render_latex import REPORT_PAGE
from nbstats.results.render_latex import latex as render_latex
from nbstats.results.table_model import Table
from nbstats.results.venues import Venue, get_venue


class _Numbers:
    """Table and figure numbers, assigned in display order by :func:`start`."""

    def __init__(self) -> None:
        self.tables: list[str] = []
        self.figures: list[str] = []

    def number(self, label: str) -> int:
        kind = self.tables if label.startswith("tab:") else self.figures
        if label not in kind:
            kind.append(label)
        return kind.index(label) + 1


_NUMBERS = _Numbers()

#: Each term a report defines once (e.g. ``"r"``, the effect size) and the
#: label of the float whose caption defines it: the first to ask, in display
#: order (reset by :func:`start`).
_DEFINED: dict[str, str] = {}

#: Pointers a caption holds in the report ("r (effect size) as in Table 5")
#: and what each stands for: the files a paper pastes carry the definition,
#: since the report's Table 5 is not in the paper (reset by :func:`start`).
_STANDS_FOR: dict[str, str] = {}

#: The formats each report figure is saved in (set by :func:`start`): SVG for
#: HTML, PDF for LaTeX; a report exports to one of them, the notebook to both.
_FIGURE_FORMATS: list[str] = ["svg", "pdf"]

#: The venue the report's tables are set for (by :func:`start`): the PDF
#: report, ``<stem>_tables/`` and ``<stem>_core/`` take the same LaTeX.
_VENUE: list[Venue] = [get_venue("article")]


@contextlib.contextmanager
def kept_state() -> Iterator[None]:
    """Run a report's cells in this process and put back, after, what
    :func:`start` sets: float numbers, defined terms, figure formats, the
    venue and the figures' typography (a kernel's would die with it).

    Examples
    --------
    >>> from nbstats.plots.style import TYPOGRAPHY
    >>> with kept_state():
    ...     start(tables=["tab:a"])
    ...     TYPOGRAPHY.titles
    False
    >>> TYPOGRAPHY.titles
    True
    """
    from nbstats.plots.style import typography_as

    numbers = (list(_NUMBERS.tables), list(_NUMBERS.figures))
    defined, formats, venue = dict(_DEFINED), list(_FIGURE_FORMATS), list(_VENUE)
    stands_for = dict(_STANDS_FOR)
    try:
        with typography_as():
            yield
    finally:
        _NUMBERS.tables, _NUMBERS.figures = numbers
        _DEFINED.clear()
        _DEFINED.update(defined)
        _STANDS_FOR.clear()
        _STANDS_FOR.update(stands_for)
        _FIGURE_FORMATS[:] = formats
        _VENUE[:] = venue


def start(
    *,
    tables: Sequence[str] = (),
    figures: Sequence[str] = (),
    figure_formats: Sequence[str] = ("svg", "pdf"),
    venue: str = "article",
) -> None:
    """First cell of a report: number the floats; vector figure formats.

    ``figure_formats``: what :func:`figure` writes, ``"svg"`` (the HTML
    report) and/or ``"pdf"`` (LaTeX); a report writes only what its export
    uses, since saving large figures costs seconds. ``venue``: the venue
    every table is set for (:func:`nbstats.results.venues.get_venue`), in the
    report and in the files beside it.
    """
    import warnings

    from nbstats.plots.style import set_typography

    _NUMBERS.tables = list(tables)
    _NUMBERS.figures = list(figures)
    _DEFINED.clear()
    _STANDS_FOR.clear()
    _FIGURE_FORMATS[:] = list(figure_formats)
    _VENUE[:] = [get_venue(venue)]
    # figures in the LaTeX document's font (Latin Modern) when they go into
    # one, without titles (the report captions them), laid out at the width
    # they are printed at
    set_typography(
        document_font="pdf" in _FIGURE_FORMATS,
        titles=False,
        page_width=FIGURE_WIDTH,
        page_height=FIGURE_HEIGHT,
    )
    # library deprecation notices are no part of a report
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", category=PendingDeprecationWarning)
    if capture() is not None:  # run in this process: no kernel's inline backend
        return
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # pragma: no cover - ipykernel ships matplotlib-inline
        return
    # any figure shown the ordinary way is vector too (SVG for HTML, PDF for
    # LaTeX); the report's own figures are displayed by figure() below
    set_matplotlib_formats("svg", "pdf")


def ref(label: str) -> Alt:
    """A cross-reference: "Table 3" in text and HTML, ``Table~\\ref{...}`` in LaTeX."""
    kind = "Table" if label.startswith("tab:") else "Figure"
    n = _NUMBERS.number(label)
    anchor = label.replace(":", "-")
    return Alt(
        text=f"{kind} {n}",
        html=f'<a href="#{anchor}">{kind} {n}</a>',
        latex=f"{kind}~\\ref{{{label}}}",
    )


def defined_at(term: str, label: str) -> str | None:
    """Where this report defines ``term``: None when the float ``label`` is
    the one to define it (the first to ask since :func:`start`, in display
    order), else the label of that float, for a caption to refer to.

    Examples
    --------
    >>> from nbstats.reporting.display import defined_at, kept_state, start
    >>> with kept_state():  # as a report's first cell would
    ...     start(tables=["tab:a", "tab:b"], figure_formats=())
    ...     print(defined_at("r", "tab:a"), defined_at("r", "tab:b"))
    ...     print(defined_at("r", "tab:a"))  # asked again: still defines it
    None tab:a
    None
    """
    first = _DEFINED.setdefault(term, label)
    return None if first == label else first


def pointer(text: str, definition: str) -> str:
    """``text``, a caption's pointer to where the report defines a term; the
    files beside the report (pasted into a paper without the report's
    numbering) carry ``definition`` in its place.

    Examples
    --------
    >>> with kept_state():
    ...     start(figure_formats=())
    ...     pointer("; r as in Table 1.", "; r: the effect size.")
    '; r as in Table 1.'
    """
    _STANDS_FOR[text] = definition
    return text


def _standalone(model: Table) -> Table:
    """``model`` with its caption's pointers (:func:`pointer`) written out."""
    caption = model.caption
    if not isinstance(caption, str):
        return model
    for text, definition in _STANDS_FOR.items():
        caption = caption.replace(text, definition)
    return (
        model
        if caption == model.caption
        else dataclasses.replace(model, caption=caption)
    )


def _display(bundle: dict[str, str], metadata: dict[str, Any] | None = None) -> None:
    sink = capture()  # the report run in this process (nbstats.reporting.inprocess)
    if sink is not None:
        sink.append((bundle, metadata or {}))
        return
    from IPython.display import display

    display(bundle, raw=True, metadata=metadata or {})


def paragraph(para: Paragraph, css_class: str = "nbstats-text") -> None:
    """Display a paragraph in every format."""
    _display(
        {
            "text/html": f'<p class="{css_class}">{para.html()}</p>',
            "text/latex": para.latex() + "\n",
            "text/plain": para.text(),
        }
    )


def table_latex(model: Table) -> str:
    """``model``'s LaTeX for the report's venue (set by :func:`start`): what
    the files beside the report hold, the ``to_latex(venue=...)`` of a
    result."""
    return render_latex(model, _VENUE[0])


def table(
    model: Table,
    *,
    html_table: str | None = None,
    files: dict[str, str | None] | None = None,
    core: dict[str, str | None] | None = None,
) -> None:
    """Display a numbered table with its caption (above it).

    ``model`` (:mod:`nbstats.results.table_model`; its label numbers it) is
    drawn by the renderers: HTML (:func:`~nbstats.results.render.table_html`,
    unless ``html_table`` gives the table's own), LaTeX (for the report's
    page, :data:`~nbstats.results.render_latex.REPORT_PAGE`, and for the
    venue of the files beside it, :func:`table_latex`) and text. The HTML
    goes in a box that scrolls sideways if the table is wider than the
    column. ``files``: the files a ``.tex`` export writes next to the report
    (default ``<label>.tex``: the table's LaTeX); ``core``: the files a PDF
    or LaTeX report writes in ``<report>_core/`` (the answer-first part, for
    a paper's ``\\input``); in both, a value of None stands for the table's
    LaTeX. A report that becomes no LaTeX document (HTML, text: figures
    saved without ``"pdf"``) renders no LaTeX, and keeps no files.
    """
    label = model.label or ""
    caption = model.caption
    # LaTeX only for what becomes a LaTeX document (a PDF or LaTeX report,
    # the notebook itself): an HTML or text report reads none of it
    into_latex = "pdf" in _FIGURE_FORMATS
    if into_latex:
        latex = table_latex(_standalone(model))  # the files a paper pastes
        # the PDF report is a document of its own (A4, 11 pt): the same
        # model by the same renderer, set for its page
        page = render_latex(model, REPORT_PAGE)
    n = _NUMBERS.number(label)
    anchor = label.replace(":", "-")
    inner = html_table if html_table is not None else table_html(model)
    markup = (
        f'<figure class="nbstats-float nbstats-table-float" id="{anchor}">'
        f'<figcaption><span class="nbstats-label">Table {n}.</span> '
        f"{to_html(caption)}</figcaption>"
        # the box scrolls sideways when the table is wider than the column;
        # focusable, so that a keyboard scrolls it too
        '<div class="nbstats-table-wrap" role="region" tabindex="0" '
        f'aria-label="Table {n}">{inner}</div>'
        "</figure>"
    )
    # HTML, LaTeX, text: the order a kernel's outputs keep too
    bundle = {"text/html": markup}
    core_files: dict[str, str] = {}
    if into_latex:
        bundle["text/latex"] = page
        name = label.split(":", 1)[1]
        files = files if files is not None else {f"{name}.tex": None}
        files = {k: latex if v is None else v for k, v in files.items()}
        core_files = {k: latex if v is None else v for k, v in (core or {}).items()}
    else:
        files = {}
    bundle["text/plain"] = f"Table {n}. {caption}\n{table_model.text(model)}"
    _display(
        bundle,
        {
            "nbstats": {
                "kind": "table",
                "label": label,
                "number": n,
                "files": files,
                **({"core_files": core_files} if core_files else {}),
            }
        },
    )


#: The widest and tallest a figure is saved, in inches: the report's text block
#: (A4 with 1 in margins: 6.27 in wide; figures at most 0.85 of its 9.69 in
#: height, see the LaTeX template) less the margin matplotlib's tight bounding
#: box adds (0.1 in a side: a figure whose texts reach its edges, as a figure
#: model picture's do, is then 6.25 in). A larger figure is resized to fit
#: before it is saved (its text keeps its size), instead of being scaled down
#: by LaTeX (text below 8 pt).
FIGURE_WIDTH = 6.05
FIGURE_HEIGHT = 8.0
#: The room the LaTeX template gives a figure (``max size={\linewidth}{0.85
#: \textheight}``), in inches: a saved figure (tight bounding box, padding
#: included) no larger than this is placed at its own size, so a character
#: set at 8 pt prints at 8 pt.
PAGE_WIDTH = 8.27 - 2.0
PAGE_HEIGHT = 0.85 * (11.69 - 2.0)


def figure(
    label: str,
    caption: str,
    fig: Any,
    *,
    core_files: bool = False,
    core_figures: Callable[[], dict[str, bytes]] | None = None,
    paste: tuple[Any, str | None, dict[str, Any]] | None = None,
    placement: str | None = None,
) -> None:
    """Display a numbered figure: SVG ``data:`` URI in HTML, vector PDF for LaTeX.

    A figure larger than :data:`FIGURE_WIDTH` × :data:`FIGURE_HEIGHT` is
    resized to fit first. ``core_files``: the figure is also saved as
    ``figure-<n>.pdf`` and ``.svg`` for ``<report>_core/`` (base64 in the
    output's metadata); ``core_figures``, if given, makes those files
    instead (e.g. :func:`nbstats.plots.venue_files.venue_figures`: set for
    the paper's venue, not for this report's page). ``paste``: ``(result,
    kind, plot keywords)`` of a figure a paper may include, written for the
    report's venue by :func:`nbstats.plots.venue_files.venue_figures` as
    ``figure-<name>.pdf`` (column width; ``-wide`` and ``-key.tex`` as it
    says) for ``<report>_tables/`` (PDF and LaTeX reports only).
    ``placement``: the LaTeX float's places (default ``"!htbp"``); ``"!ht"``
    keeps a figure taller than half a page off a page of floats alone, where
    LaTeX would put it when it cannot go here (it goes atop the next page,
    the text following it).
    """
    import matplotlib.pyplot as plt

    from nbstats.plots import save

    # wider or taller than the page's text block: narrowed to it here, so
    # that LaTeX need not shrink the plot's text below its own sizes
    width, height = fig.get_size_inches()
    if width > FIGURE_WIDTH or height > FIGURE_HEIGHT:
        fig.set_size_inches(min(width, FIGURE_WIDTH), min(height, FIGURE_HEIGHT))
    _lift_small_text(fig)
    box = _fit_page(fig)
    if box is not None:  # laid out and measured: each save draws only once
        fig.set_layout_engine("none")
    _rasterize_large_meshes(fig)
    saved = {}
    n = _NUMBERS.number(label)
    extra = {}
    formats = list(_FIGURE_FORMATS)
    # the core's files go beside PDF and LaTeX reports only (see export)
    core_files = core_files and "pdf" in _FIGURE_FORMATS
    if core_files and core_figures is not None:
        extra = {
            name: base64.b64encode(data).decode("ascii")
            for name, data in core_figures().items()
        }
        core_files = False  # the report's own figure is not one of them
    if core_files:
        formats += [f for f in ("pdf", "svg") if f not in formats]
    for fmt in formats:
        buffer = io.BytesIO()
        # 200 dpi for the rasterized parts only (text and lines stay vector)
        save(
            fig,
            buffer,
            format=fmt,
            dpi=200,
            bbox_inches="tight" if box is None else box,
        )
        encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
        if fmt in _FIGURE_FORMATS:
            saved[fmt] = encoded
        if core_files:
            extra[f"figure-{n}.{fmt}"] = encoded
        # the layout is settled by the first save: keep it for the others
        fig.set_layout_engine("none")
    plt.close(fig)
    tables_binary = None
    if paste is not None and "pdf" in _FIGURE_FORMATS:
        # None: drawn later, beside xelatex (nbstats.reporting.paste_later)
        tables_binary = paste_files(label, *paste, _VENUE[0])
    anchor = label.replace(":", "-")
    image = (
        f'<img src="data:image/svg+xml;base64,{saved["svg"]}" '
        f'alt="{html.escape(str(caption))}">'
        if "svg" in saved
        else ""
    )
    markup = (
        f'<figure class="nbstats-float nbstats-figure" id="{anchor}">{image}'
        f'<figcaption><span class="nbstats-label">Figure {n}.</span> '
        f"{to_html(caption)}</figcaption></figure>"
    )
    bundle = {"text/html": markup, "text/plain": f"Figure {n}. {caption}"}
    if "pdf" in saved:
        bundle["application/pdf"] = saved["pdf"]
    _display(
        bundle,
        {
            "nbstats": {
                "kind": "figure",
                "label": label,
                "number": n,
                "caption_latex": to_latex(caption),
                **({"placement": placement} if placement else {}),
                **({"core_binary": extra} if extra else {}),
                **({"tables_binary": tables_binary} if tables_binary else {}),
            }
        },
    )


def _lift_small_text(fig: Any) -> None:
    """No character of a report's figure below :data:`MIN_FONT` points.

    The plots draw at least that size; a figure drawn otherwise (a size
    passed by hand) is raised to it rather than printed unreadable.
    """
    from matplotlib.text import Text

    from nbstats.plots.labels import MIN_FONT

    for text in fig.findobj(Text):
        if text.get_text() and text.get_fontsize() < MIN_FONT:
            text.set_fontsize(MIN_FONT)


#: The smallest side (inches) :func:`_fit_page` shrinks a figure to.
MIN_FIT = 1.0


def _fit_page(fig: Any) -> Any:
    """Narrow (or shorten) a figure whose saved box exceeds the page's room.

    What is saved is the tight bounding box plus its padding, which text
    sticking out of the figure (a long name) can make wider than the figure;
    LaTeX would scale such a figure down, and every character with it.
    Returns that box (inches, padding included) once the figure fits, its
    layout run: a save given it draws the figure once, where savefig's
    "tight" first lays it out and measures it in a draw of its own. None
    when the figure is left for the page to scale (no smaller figure holds
    its text).
    """
    import matplotlib

    from nbstats.plots.style import paper_style

    pad = 2 * float(matplotlib.rcParams["savefig.pad_inches"])
    for _ in range(3):
        with paper_style():  # as it is saved
            fig.draw_without_rendering()  # runs the layout
            box = fig.get_tightbbox(fig.canvas.get_renderer())
        over_w = box.width + pad - PAGE_WIDTH
        over_h = box.height + pad - PAGE_HEIGHT
        if over_w <= 0.005 and over_h <= 0.005:
            return box.padded(pad / 2)
        width, height = fig.get_size_inches()
        narrower = width - max(over_w, 0.0) - 0.01
        shorter = height - max(over_h, 0.0) - 0.01
        if min(narrower, shorter) < MIN_FIT:
            # text that no smaller figure can hold (labels at their size):
            # left as it is, the page scales it down
            return None
        fig.set_size_inches(narrower, shorter)
    return None


def _rasterize_large_meshes(fig: Any) -> None:
    """Draw heat maps of many cells as one image inside the vector figure.

    A 50 × 50 map is 2,500 vector quads: slow to save and to display, and no
    sharper than pixels at 200 dpi. Text and lines stay vector.
    """
    from matplotlib.collections import QuadMesh

    for ax in fig.axes:
        for collection in ax.collections:
            if isinstance(collection, QuadMesh) and collection.get_array().size > 400:
                collection.set_rasterized(True)


def _and(names: Sequence[str]) -> str:
    names = [str(n) for n in names]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _n(value: object, digits: int = 4) -> str:
    """``digits`` significant figures, and no ".0" on whole numbers."""
    text = format_value(value, digits)
    return text[:-2] if text.endswith(".0") else text


def _p(value: float) -> str:
    """A p-value after "p": "= 0.0012" or "< 0.001" (never e-notation), as
    :func:`nbstats.results.render.format_pvalue` writes it.

    Examples
    --------
    >>> _p(0.0012345), _p(2e-7), _p(0.05)
    ('= 0.001', '< 0.001', '= 0.050')
    """
    text = format_pvalue(value)
    return text if text.startswith("<") else f"= {text}"
