"""A matrix of coloured squares with named rows and columns, as a Picture.

:func:`matrix_picture` lays out a grid of small squares -- one per cell that
has something to show, its colour and tooltip given -- with the rows' names
right-aligned on the left and the columns' names above, read bottom to top,
measured once with :func:`nbstats.plots.labels.text_width` in the font it
will be set in. The Bayesian dashboard draws its decision matrix of many
algorithms with it (:func:`nbstats.plots.picture_svg.picture_svg`); the
colours, tooltips and what a cell means are the caller's.

Two tools of every such layout: :func:`text_lines` sets a label's lines as one
:class:`~nbstats.plots.figure_model.Text` each, ``LEADING`` em apart (so
every renderer sets them alike), and :func:`text_box` is the box a text takes
by the layouts' rules (its measured width, ``BOX`` em a line), which no two
texts of a picture may share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nbstats.plots.figure_model import LEADING, Item, Picture, Rect, Text
from nbstats.plots.labels import text_width
from nbstats.plots.style import literal

__all__ = ["BOX", "LEADING", "matrix_picture", "text_box", "text_lines"]

PAD = 2.0  # around the picture
GAP = 3.0  # between the names and the grid
BOX = 1.0  # a line's height for the overlap rules, in ems


def matrix_picture(
    rows: Sequence[str],
    columns: Sequence[str],
    cells: Mapping[tuple[int, int], tuple[str, str, str]],
    *,
    cell: float = 9.0,
    spacing: float = 0.75,
    fontsize: float = 7.5,
    alt: str = "",
) -> Picture:
    """A grid of ``len(rows)`` × ``len(columns)`` squares of ``cell`` points,
    ``spacing`` apart.

    Parameters
    ----------
    rows, columns : sequence of str
        The names, as written (escaped here for the renderers).
    cells : mapping
        ``{(row, column): (fill, tooltip, gid)}`` of the cells drawn; the
        others are left blank.
    cell, spacing, fontsize : float
        A square's side, the white between two squares, the names' size
        (points).
    alt : str
        What the picture shows, in words.

    Returns
    -------
    Picture
        Row names have gid ``row-<i>``, column names ``column-<j>``; a cell
        the gid given.

    Examples
    --------
    >>> from nbstats.plots.style import paper_style
    >>> with paper_style():
    ...     pic = matrix_picture(["a", "b"], ["b", "c"],
    ...                          {(0, 0): ("#b9e3bb", "a vs b", "cell-b")})
    >>> [(item.gid, item.width) for item in pic.items if item.gid.startswith("cell")]
    [('cell-b', 9.0)]
    """
    shown_rows = [literal(name) for name in rows]
    shown_columns = [literal(name) for name in columns]
    across = max((text_width(name, fontsize) for name in shown_rows), default=0.0)
    above = max((text_width(name, fontsize) for name in shown_columns), default=0.0)
    x0, y0 = PAD + across + GAP, PAD + above + GAP
    step = cell + spacing
    items: list[Item] = []
    for (i, j), (fill, tooltip, gid) in cells.items():
        items.append(
            Rect(x0 + j * step, y0 + i * step, cell, cell, gid, fill=fill,
                 tooltip=tooltip)
        )  # fmt: skip
    for i, name in enumerate(shown_rows):
        items.append(
            Text(x0 - GAP, y0 + i * step + cell / 2, (name,), fontsize, f"row-{i}",
                 anchor="end")
        )  # fmt: skip
    for j, name in enumerate(shown_columns):
        items.append(
            Text(x0 + j * step + cell / 2, y0 - GAP, (name,), fontsize,
                 f"column-{j}", rotation=90.0)
        )  # fmt: skip
    width = x0 + len(shown_columns) * step - spacing + PAD
    height = y0 + len(shown_rows) * step - spacing + PAD
    return Picture(width, height, tuple(items), alt)


def text_box(text: Text) -> tuple[float, float, float, float]:
    """The box ``(x0, y0, x1, y1)`` a text takes by the layout's rules: its
    measured width, ``BOX`` em per line (``LEADING`` apart), turned by its
    rotation (0 or 90 degrees)."""
    size = text.size
    width = max(
        text_width(line, size, weight="bold" if text.bold else "normal")
        for line in text.lines
    )
    height = (LEADING * (len(text.lines) - 1) + BOX) * size
    across = {
        "start": (0.0, width),
        "middle": (-width / 2, width / 2),
        "end": (-width, 0.0),
    }[text.anchor]
    down = {
        "top": (0.0, height),
        "center": (-height / 2, height / 2),
        "bottom": (-height + 0.22 * size, 0.22 * size),
    }[text.valign]
    if abs(text.rotation) < 1e-9:
        return (
            text.x + across[0],
            text.y + down[0],
            text.x + across[1],
            text.y + down[1],
        )
    if abs(text.rotation - 90.0) < 1e-9:  # along the text is up the page
        return (
            text.x + down[0],
            text.y - across[1],
            text.x + down[1],
            text.y - across[0],
        )
    raise ValueError(f"text_box handles 0 and 90 degrees, got {text.rotation}.")


def text_lines(
    x: float,
    y: float,
    label: str,
    size: float,
    gid: str,
    *,
    anchor: str,
    rotation: float = 0.0,
    top: bool = False,
) -> list[Text]:
    """A label's lines as one text each, ``LEADING`` em apart (so that every
    renderer sets them alike), the block centred on (x, y) across its lines
    (``top``: its first line centred on y)."""
    lines = label.split("\n")
    first = 0.0 if top else -LEADING * (len(lines) - 1) * size / 2
    texts = []
    for k, line in enumerate(lines):
        offset = first + LEADING * k * size
        # rotated: later lines to the right
        at = (x + offset, y) if rotation else (x, y + offset)
        texts.append(Text(*at, (line,), size, gid, anchor=anchor, rotation=rotation))
    return texts
