"""Critical-difference diagrams as TikZ, for LaTeX papers.

The diagram of :func:`nbstats.plots.cd_diagram` -- its geometry from
:func:`nbstats.plots.cd_layout.cd_layout`, every line, dot and text where
matplotlib puts them -- written as a ``tikzpicture`` that a paper typesets in
its own fonts. Nothing is recomputed: the lines are the result's ``groups``.
"""

from __future__ import annotations

import math
from typing import Any

from nbstats.plots.cd_layout import SMALL, TICK_LENGTH, TICK_PAD, CDLayout, Text
from nbstats.plots.protocols import kind_of
from nbstats.results.formatting import escape_latex
from nbstats.scores.aliases import AliasOption

__all__ = ["cd_key_latex", "cd_tikz"]

#: The narrowest column of the venues nbstats knows (article twocolumn): the
#: default width, so that the picture fits a column wherever it goes.
DEFAULT_WIDTH = "twocolumn"
_CM = 72.27 / 2.54  # TeX points per cm


def cd_tikz(
    result: Any,
    *,
    reverse: bool = False,
    width: Any = DEFAULT_WIDTH,
    wide: bool = False,
    show_cd: bool = True,
    aliases: AliasOption = "auto",
    standalone: bool = True,
) -> str:
    r"""A critical-difference diagram as TikZ source.

    Parameters
    ----------
    result : PosthocResult or BayesPosthocResult
        From :func:`nbstats.posthoc` or :func:`nbstats.bayes_posthoc`.
    reverse : bool
        False: the best rank on the right (as Demšar's figure and
        :func:`~nbstats.plots.cd_diagram`); True: on the left.
    width : venue name, Venue or float
        The picture's whole width: a venue's column (``"article"``,
        ``"twocolumn"``, ``"ieee"``, ``"acm"`` or a
        :class:`~nbstats.results.venues.Venue`; default ``"twocolumn"``, the
        narrowest column, 229.5 pt), or a length in cm. Names, ticks and the
        key are measured in that venue's font (Latin Modern; Times for
        IEEE) at 8 pt, the size they are set in (``\fontsize{8}``).
    wide : bool
        With a venue: its full text width (``figure*``).
    show_cd : bool
        Draw the critical-difference bar (when the result has a CD).
    aliases : "auto", bool or mapping
        As in :func:`~nbstats.plots.cd_diagram`: letters A, B, … for the names
        that fit neither as written nor wrapped (``"auto"``), always, never,
        or your own ``{name: alias}``; a key under the caption lists the full
        names -- unless the picture would then be taller than a float may be
        in the venue (80 % of its text height), when the key is left out
        (listed in a comment at the top) for :func:`cd_key_latex`.
    standalone : bool
        True: a complete ``standalone`` document (compiles with pdflatex,
        lualatex or xelatex; names with characters beyond Latin-1, e.g.
        Greek, need xelatex or lualatex, and are set in DejaVu Serif);
        False: the ``tikzpicture`` only, for ``\input`` in a paper that
        loads ``tikz``.

    Returns
    -------
    str

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"),
    ...                       method="nemenyi", alpha=0.10)
    >>> tikz = cd_tikz(res, standalone=False)
    >>> tikz.splitlines()[0]
    '\\begin{tikzpicture}[x=1pt, y=-1pt, inner sep=0pt]'
    >>> "CD = 1.12" in tikz, r"\useasboundingbox (0,0) rectangle (229.50" in tikz
    (True, True)
    """
    from nbstats.plots.cd_layout import cd_layout, float_room
    from nbstats.plots.style import paper_style

    if kind_of(result, ("posthoc", "bayes_posthoc")) is None:
        raise TypeError(
            "cd_tikz draws a PosthocResult (from nbstats.posthoc) or a "
            f"BayesPosthocResult (from nbstats.bayes_posthoc); got "
            f"{type(result).__name__}."
        )
    points, venue = _width(width, wide)
    names = [str(name) for name in result.mean_ranks.index]
    # Latin Modern has no Greek or Cyrillic: a standalone picture with such
    # names is set in DejaVu Serif under xelatex/lualatex (pdflatex cannot set
    # them at all), and measured in it
    beyond = standalone and any(ord(ch) > 0xFF for name in names for ch in name)
    with (
        paper_style(venue or "article"),
        _measured_in("DejaVu Serif" if beyond else None),
    ):
        layout = cd_layout(
            result,
            points,
            reverse=bool(reverse),
            show_cd=bool(show_cd),
            aliases=aliases,
            max_height=None if venue is None else float_room(venue),
        )
    body = tikz_picture(layout)
    if layout.key_outside:
        # too tall for a float with its key: the key is for the caption or
        # a table of its own (cd_key_latex); here as a comment, so that the
        # names are never lost
        note = [
            "% The letters' key did not fit the column with the picture: put",
            "% it in the caption or a table (nbstats.plots.cd_key_latex).",
            *(f"% {line}" for line in layout.key),
        ]
        body = "\n".join(note) + "\n" + body
    if not standalone:
        return body
    font = (
        "\\IfFontExistsTF{DejaVu Serif}{\\setmainfont{DejaVu Serif}}{}"
        if beyond
        else ""
    )
    return (
        "\\documentclass[tikz,border=0pt]{standalone}\n"
        "\\usepackage{iftex}\n"
        "\\ifPDFTeX\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}"
        f"\\usepackage{{lmodern}}\\else\\usepackage{{fontspec}}{font}\\fi\n"
        "\\begin{document}\n" + body + "\\end{document}\n"
    )


def _measured_in(family: str | None) -> Any:
    """A context in which text is measured in ``family`` (None: as it is)."""
    import contextlib

    import matplotlib

    if family is None:
        return contextlib.nullcontext()
    return matplotlib.rc_context({"font.family": [family]})


def _width(width: Any, wide: bool) -> tuple[float, Any]:
    """The picture's width in points, and its venue (None for a length)."""
    from nbstats.results.venues import Venue, get_venue

    if isinstance(width, (str, Venue)):
        venue = get_venue(width)
        return (venue.text_width_pt if wide else venue.column_width_pt), venue
    if isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0:
        raise ValueError(
            f"width must be a venue ('article', 'twocolumn', 'ieee', 'acm') or "
            f"a positive length in cm, got {width!r}."
        )
    if wide:
        raise ValueError("wide=True needs a venue as width (e.g. width='ieee').")
    return float(width) * _CM, None


def _colour(hex_colour: str) -> str:
    red, green, blue = (int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))
    return f"{{rgb,255:red,{red};green,{green};blue,{blue}}}"


def _plain(text: str) -> str:
    """A layout's text (escaped for matplotlib) as LaTeX."""
    return escape_latex(text.replace(r"\$", "$"))


_ANCHOR = {
    ("start", "center"): "west",
    ("end", "center"): "east",
    ("middle", "center"): "center",
    ("start", "top"): "north west",
    ("end", "top"): "north east",
    ("middle", "top"): "north",
    ("start", "bottom"): "south west",
    ("end", "bottom"): "south east",
    ("middle", "bottom"): "south",
}


def _node(text: Text) -> str:
    """A text of the layout as a node: its size, its lines, its anchor."""
    lines = [_plain(line) for line in text.lines]
    if text.bold:
        lines = [f"\\textbf{{{line}}}" for line in lines]
    size = f"\\fontsize{{{text.size:g}}}{{{1.2 * text.size:.1f}}}\\selectfont"
    align = {"start": "left", "middle": "center", "end": "right"}[text.anchor]
    colour = "" if text.color == "#000000" else f", color={_colour(text.color)}"
    y = text.y
    anchor = _ANCHOR[(text.anchor, text.valign)]
    if len(lines) == 1 and text.valign == "center":
        # one line: its baseline a third of an em below the middle, as
        # matplotlib's "center_baseline" puts it (descenders do not move it)
        anchor = "base " + anchor if anchor != "center" else "base"
        y += 0.33 * text.size
    joined = " \\\\ ".join(lines)
    return (
        f"\\node[anchor={anchor}, align={align}, font={size}{colour}] "
        f"at ({text.x:.2f},{y:.2f}) {{{joined}}};"
    )


def tikz_picture(layout: CDLayout) -> str:
    """The ``tikzpicture`` of a :class:`~nbstats.plots.cd_layout.CDLayout`:
    x right and y down in points, its bounding box the layout's size."""
    out = [
        "\\begin{tikzpicture}[x=1pt, y=-1pt, inner sep=0pt]",
        # rounded down: a picture as wide as a column must not exceed it
        f"\\useasboundingbox (0,0) rectangle "
        f"({math.floor(100 * layout.width) / 100:.2f},{layout.height:.2f});",
    ]
    y = layout.axis_y
    x0, x1 = layout.x_of(layout.first), layout.x_of(layout.last)
    out.append(f"\\draw[line width=0.6pt] ({x0:.2f},{y:.2f}) -- ({x1:.2f},{y:.2f});")
    small = f"\\fontsize{{{SMALL:g}}}{{{1.2 * SMALL:.1f}}}\\selectfont"
    for rank in layout.ticks:
        x = layout.x_of(rank)
        out.append(
            f"\\draw[line width=0.6pt] ({x:.2f},{y:.2f}) -- "
            f"({x:.2f},{y - TICK_LENGTH:.2f}) node[anchor=south, font={small}, "
            f"yshift={TICK_PAD:g}pt] {{{rank}}};"
        )
    for rank in layout.minor_ticks:
        x = layout.x_of(rank)
        out.append(
            f"\\draw[line width=0.6pt] ({x:.2f},{y:.2f}) -- "
            f"({x:.2f},{y - TICK_LENGTH / 2:.2f});"
        )
    for stroke in layout.strokes:
        if not stroke.visible:
            continue
        cap = {"butt": "butt", "projecting": "rect"}.get(stroke.cap, "butt")
        path = " -- ".join(f"({x:.2f},{py:.2f})" for x, py in stroke.points)
        colour = "" if stroke.color == "#000000" else f", color={_colour(stroke.color)}"
        draw = f"\\draw[line width={stroke.width:g}pt, line cap={cap}{colour}] {path};"
        if stroke.clip is not None:
            lo, hi = stroke.clip
            draw = (
                f"\\begin{{scope}}\\clip ({lo:.2f},0) rectangle "
                f"({hi:.2f},{layout.height:.2f});\n{draw}\n\\end{{scope}}"
            )
        out.append(draw)
    for dot in layout.dots:
        out.append(f"\\fill ({dot.x:.2f},{dot.y:.2f}) circle ({dot.size / 2:g}pt);")
    out += [_node(text) for text in (*layout.texts, *layout.key_texts)]
    out.append("\\end{tikzpicture}%\n")  # "%": no space after it in a line
    return "\n".join(out)


def cd_key_latex(
    result: Any, *, width: Any = DEFAULT_WIDTH, aliases: AliasOption = "auto"
) -> str:
    r"""The key of the letters :func:`cd_tikz` (or
    :func:`~nbstats.plots.cd_diagram` at ``width``) uses, as a ``tabular`` of
    letter and full name, for a table of its own or a caption when the key
    does not fit beside the picture. Empty when no name is replaced by a
    letter.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"))
    >>> cd_key_latex(res)
    ''
    >>> print(cd_key_latex(res, aliases=True).splitlines()[2])
    A & C4.5 \\
    """
    from nbstats.plots.cd_layout import cd_layout
    from nbstats.plots.style import paper_style

    points, venue = _width(width, False)
    with paper_style(venue or "article"):
        layout = cd_layout(result, points, aliases=aliases, key=False)
    if not layout.key:
        return ""
    rows = [entry.split(": ", 1) for entry in layout.key]
    body = "\n".join(f"{_plain(letter)} & {_plain(name)} \\\\" for letter, name in rows)
    return (
        "\\begin{tabular}{@{}l>{\\raggedright\\arraybackslash}p{0.85\\columnwidth}@{}}\n"
        + "\\hline\n"
        + body
        + "\n\\hline\n\\end{tabular}\n"
    )
