"""A :class:`~nbstats.plots.figure_model.Picture` drawn with matplotlib, for papers.

The matplotlib renderer of the figure model: one axes covering the figure,
its data coordinates the picture's points (x to the right, y down from the
top left corner), every item an artist placed where the geometry put it and
tagged with the item's ``gid`` (``artist.get_gid()``), so a figure is
searched the way its SVG is. Nothing is laid out here: the geometry was
measured, in the font the figure is set in, when the picture was made.
"""

from __future__ import annotations

import math
from typing import Any

from nbstats.plots.figure_model import (
    LEADING,
    Area,
    Dot,
    Item,
    Picture,
    Rect,
    Stroke,
    Text,
)

__all__ = ["RUN", "draw_picture", "picture_patches"]

_HA = {"start": "left", "middle": "center", "end": "right"}


def draw_picture(picture: Picture, ax: Any = None) -> Any:
    """Draw ``picture`` in ``ax`` (None: a new figure exactly its size);
    returns the axes.

    A run of at least :data:`RUN` consecutive plain rectangles (no outline:
    a heat map's cells) is one ``PolyCollection``, its ``gids`` attribute
    the items' gids; :func:`picture_patches` gives them back one patch per
    item.

    Examples
    --------
    >>> from nbstats.plots.figure_model import Picture, Rect, Text
    >>> pic = Picture(72.0, 36.0, (Rect(4, 4, 20, 20, "cell", fill="#0072B2"),
    ...                            Text(30, 14, ("a vs b",), 8.0, "label")))
    >>> ax = draw_picture(pic)
    >>> ax.figure.get_size_inches().tolist()
    [1.0, 0.5]
    >>> [a.get_gid() for a in ax.get_children() if a.get_gid()]
    ['cell', 'label']
    """
    if ax is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(picture.width / 72, picture.height / 72))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0.0, picture.width)
    ax.set_ylim(picture.height, 0.0)
    ax.set_axis_off()
    box = (picture.width, picture.height)
    items = picture.items
    step = 1.0 / max(len(items), 1)
    at = 0
    while at < len(items):
        run = _plain_run(items, at)
        if len(run) >= RUN:
            drawn = [(_rect_run(ax, run, 1.0 + at * step), run)]
        else:  # a short run, or any other item: one artist each
            run = run or [items[at]]
            drawn = [
                (_draw_item(ax, item, 1.0 + (at + k) * step), [item])
                for k, item in enumerate(run)
            ]
        for artist, shown in drawn:
            if artist is not None and all(_inside(item, box) for item in shown):
                # the geometry already fits the picture: measuring each of a
                # heat map's thousands of cells again for a tight bounding box
                # (every save, every fit to a page) would cost more than
                # drawing them
                artist.set_in_layout(False)
        at += len(run)
    return ax


#: The fewest consecutive plain rectangles drawn as one artist: one
#: collection draws, saves and measures in a fraction of the time of as many
#: patches (a heat map of 42 algorithms has 1,722 cells).
RUN = 100


def _plain_run(items: tuple[Item, ...], start: int) -> list[Rect]:
    """The plain (filled, no outline) rectangles from ``start`` on."""
    run: list[Rect] = []
    for item in items[start:]:
        if not isinstance(item, Rect) or item.edge is not None or item.fill == "none":
            break
        run.append(item)
    return run


def _rect_run(ax: Any, run: list[Rect], zorder: float) -> Any:
    """``run`` as one ``PolyCollection``, its ``gids`` the rectangles'."""
    from matplotlib.collections import PolyCollection

    verts = [
        [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height),
         (r.x, r.y + r.height)]
        for r in run
    ]  # fmt: skip
    artist = PolyCollection(
        verts,
        facecolors=[r.fill for r in run],
        edgecolors="none",
        linewidths=0.0,
        antialiaseds=False,  # as a patch without outline: no seams between cells
        clip_on=False,
        zorder=zorder,
        gid=_common_prefix([r.gid for r in run]),
    )
    artist.gids = tuple(r.gid for r in run)  # what picture_patches reads
    return ax.add_collection(artist, autolim=False)


def _common_prefix(gids: list[str]) -> str:
    """The first gid's beginning up to its first "-" (``fill-``) when every
    gid starts so, else ""."""
    head = gids[0].split("-", 1)[0] + "-" if "-" in gids[0] else ""
    return head if head and all(g.startswith(head) for g in gids) else ""


def picture_patches(ax: Any) -> list[Any]:
    """The axes' patches, each rectangle of a run drawn as one collection
    as a ``Rectangle`` of its own (its gid, place and fill): a figure searched
    item by item, however it was drawn.

    Examples
    --------
    >>> from nbstats.plots.figure_model import Picture, Rect
    >>> cells = tuple(Rect(k, 0, 1, 1, f"fill-{k}", fill="#0072B2")
    ...               for k in range(RUN))
    >>> ax = draw_picture(Picture(float(RUN), 1.0, cells))
    >>> len(ax.patches), len(ax.collections)
    (0, 1)
    >>> patch = picture_patches(ax)[7]
    >>> patch.get_gid(), patch.get_x(), patch.get_width()
    ('fill-7', 7.0, 1.0)
    """
    from matplotlib.patches import Rectangle

    found = list(ax.patches)
    for collection in ax.collections:
        gids = getattr(collection, "gids", ())
        if not gids:
            continue
        colours = collection.get_facecolors()
        for k, (gid, path) in enumerate(zip(gids, collection.get_paths(), strict=True)):
            (x0, y0), (x1, y1) = (
                path.vertices.min(axis=0).tolist(),
                path.vertices.max(axis=0).tolist(),
            )
            colour = colours[k % len(colours)]
            box = ((x0, y0), x1 - x0, y1 - y0)
            found.append(Rectangle(*box, gid=gid, facecolor=colour))
    return found


def _inside(item: Item, box: tuple[float, float]) -> bool:
    """Whether a shape's points (and half its line) lie inside the picture."""
    if isinstance(item, Rect):
        half = item.edge_width / 2 if item.edge is not None else 0.0
        points = [
            (item.x - half, item.y - half),
            (item.x + item.width + half, item.y + item.height + half),
        ]
    elif isinstance(item, Stroke):
        half = item.width / 2
        points = [(x + d, y + d) for x, y in item.points for d in (-half, half)]
    elif isinstance(item, Dot):
        half = item.size / 2
        points = [(item.x - half, item.y - half), (item.x + half, item.y + half)]
    elif isinstance(item, Area):
        points = list(item.points)
    else:
        return False
    width, height = box
    return all(0.0 <= x <= width and 0.0 <= y <= height for x, y in points)


def _draw_item(ax: Any, item: Item, zorder: float) -> Any:
    """Add ``item``'s artist to ``ax``; returns it (None for a text, set as
    one artist per line).

    Shapes are added with ``add_artist``, not ``add_patch``/``add_line``: the
    axes' limits are the picture's, so updating them item by item is waste.
    """
    if isinstance(item, Stroke):
        return _stroke(ax, item, zorder)
    if isinstance(item, Text):
        _text(ax, item, zorder)
        return None
    if isinstance(item, Rect):
        from matplotlib.patches import Rectangle

        return ax.add_artist(
            Rectangle(
                (item.x, item.y),
                item.width,
                item.height,
                facecolor=item.fill,
                edgecolor=item.edge if item.edge is not None else "none",
                linewidth=item.edge_width,
                clip_on=False,
                zorder=zorder,
                gid=item.gid,
            )
        )
    if isinstance(item, Dot):
        from matplotlib.lines import Line2D

        return ax.add_artist(
            Line2D(
                [item.x],
                [item.y],
                linestyle="none",
                marker="o",
                markersize=item.size,
                markerfacecolor=item.color,
                markeredgewidth=0.0,
                clip_on=False,
                zorder=zorder,
                gid=item.gid,
            )
        )
    if isinstance(item, Area):
        from matplotlib.patches import Polygon

        return ax.add_artist(
            Polygon(
                list(item.points),
                closed=True,
                facecolor=item.fill,
                edgecolor="none",
                alpha=item.opacity,
                clip_on=False,
                zorder=zorder,
                gid=item.gid,
            )
        )
    raise TypeError(f"a picture cannot hold {type(item).__name__} items.")


def _stroke(ax: Any, stroke: Stroke, zorder: float) -> Any:
    import matplotlib as mpl
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    line = Line2D(
        [x for x, _ in stroke.points],
        [y for _, y in stroke.points],
        color=stroke.color,
        linewidth=stroke.width,
        solid_capstyle=stroke.cap,
        dash_capstyle=stroke.cap,
        clip_on=False,
        zorder=zorder,
        gid=stroke.gid,
        visible=stroke.visible,
    )
    if stroke.dash:
        # matplotlib scales dash patterns by the line width when asked to;
        # the model's lengths are in points, so undo that scaling
        scale = stroke.width if mpl.rcParams["lines.scale_dashes"] else 1.0
        line.set_dashes([d / max(scale, 1e-9) for d in stroke.dash])
    ax.add_artist(line)
    if stroke.clip is not None:
        lo, hi = stroke.clip
        box = Rectangle((lo, 0.0), hi - lo, ax.get_ylim()[0], transform=ax.transData)
        line.set_clip_path(box)
        line.set_clip_on(True)
    return line


def _text(ax: Any, text: Text, zorder: float) -> None:
    """One text; its lines set one by one, LEADING font sizes apart as the SVG
    renderer sets them (matplotlib's own spacing depends on the font)."""
    from matplotlib.transforms import offset_copy

    n = len(text.lines)
    step = LEADING * text.size
    if text.valign == "top":
        offsets = [k * step for k in range(n)]
        va = "top"
    elif text.valign == "bottom":  # the last line's baseline
        offsets = [(k - n + 1) * step for k in range(n)]
        va = "baseline"
    else:
        offsets = [(k - (n - 1) / 2) * step for k in range(n)]
        va = "center_baseline"
    turn = math.radians(text.rotation)
    down = (math.sin(turn), math.cos(turn))  # y grows downwards
    for line, offset in zip(text.lines, offsets, strict=True):
        # the offset in points, not in data units: axes given by a caller
        # need not be one point per unit, and lines stay LEADING apart
        place = offset_copy(
            ax.transData,
            fig=ax.figure,
            x=offset * down[0],
            y=-offset * down[1],
            units="points",
        )
        ax.text(
            text.x,
            text.y,
            line,
            transform=place,
            ha=_HA[text.anchor],
            va=va,
            rotation=text.rotation,
            rotation_mode="anchor",
            fontsize=text.size,
            fontweight="bold" if text.bold else "normal",
            color=text.color,
            clip_on=False,
            zorder=zorder,
            gid=text.gid,
        )
