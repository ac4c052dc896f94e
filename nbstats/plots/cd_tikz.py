"""Critical-difference diagrams as TikZ, for LaTeX papers.

The same diagram as :func:`nbstats.plots.cd_diagram` -- the same groups and
their rows, the same stems and sides, the CD bar, the control band or marks,
the caption -- written as a ``tikzpicture`` that a paper typesets in its own
fonts. Nothing is recomputed: the lines are the result's ``groups``.
"""

from __future__ import annotations

import math
from typing import Any

from nbstats.names import AliasOption, alias_legend, make_aliases
from nbstats.plots.cd import _Diagram
from nbstats.plots.protocols import kind_of
from nbstats.results.formatting import escape_latex

__all__ = ["cd_tikz"]

_ROW = 0.42  # cm between names
_GROUP_ROW = 0.17  # cm between rows of group lines
_NAME_GAP = 0.3  # cm from the axis ends to the names


def cd_tikz(
    result: Any,
    *,
    reverse: bool = False,
    width: float = 8.0,
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
    width : float
        Length of the rank axis in cm (the names are outside it).
    show_cd : bool
        Draw the critical-difference bar (when the result has a CD).
    aliases : "auto", bool or mapping
        As in :func:`~nbstats.plots.cd_diagram`: letters A, B, … for names
        longer than 20 characters (``"auto"``), always, never, or your own
        ``{name: alias}``; a key under the caption lists the full names.
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
    >>> from nbstats.plots import cd_tikz
    >>> res = nbstats.posthoc(nbstats.datasets.load("demsar2006"),
    ...                       method="nemenyi", alpha=0.10)
    >>> tikz = cd_tikz(res, standalone=False)
    >>> tikz.splitlines()[0]
    '\\begin{tikzpicture}[font=\\small]'
    >>> "CD = 1.12" in tikz
    True
    """
    if kind_of(result, ("posthoc", "bayes_posthoc")) is None:
        raise TypeError(
            "cd_tikz draws a PosthocResult (from nbstats.posthoc) or a "
            f"BayesPosthocResult (from nbstats.bayes_posthoc); got "
            f"{type(result).__name__}."
        )
    if isinstance(width, bool) or not isinstance(width, (int, float)) or width <= 0:
        raise ValueError(f"width must be a positive length in cm, got {width!r}.")
    d = _Diagram(result, reverse=bool(reverse), show_cd=bool(show_cd))
    mapping = make_aliases(d.names, aliases)
    shown = {name: mapping[name] for name in d.names}
    lines = _picture(d, float(width), shown)
    key = {name: alias for name, alias in shown.items() if alias != name}
    control = None if d.control is None else shown[str(d.control)]
    caption = escape_latex(d._caption(control))
    bottom = lines.pop()
    y = float(bottom)
    lines.append(
        f"\\node[anchor=north, font=\\footnotesize] at ({width / 2:.3f},{y:.3f}) "
        f"{{{caption}}};"
    )
    if key:
        legend = alias_legend(key)
        entries = " \\\\ ".join(
            f"{escape_latex(alias)}: {escape_latex(row.iloc[0])}"
            for alias, row in legend.iterrows()
        )
        lines.append(
            f"\\node[anchor=north, align=left, font=\\footnotesize] at "
            f"({width / 2:.3f},{y - 0.45:.3f}) {{{entries}}};"
        )
    body = "\\begin{tikzpicture}[font=\\small]\n" + "\n".join(lines)
    body += "\n\\end{tikzpicture}\n"
    if not standalone:
        return body
    # Latin Modern has no Greek or Cyrillic: names beyond Latin-1 are set in
    # DejaVu Serif under xelatex/lualatex (pdflatex cannot set them at all)
    texts = [*shown, *shown.values()]  # the key shows the full names
    wide = any(ord(ch) > 0xFF for text in texts for ch in text)
    font = (
        "\\IfFontExistsTF{DejaVu Serif}{\\setmainfont{DejaVu Serif}}{}" if wide else ""
    )
    return (
        "\\documentclass[tikz,border=4pt]{standalone}\n"
        "\\usepackage{iftex}\n"
        "\\ifPDFTeX\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}"
        f"\\else\\usepackage{{fontspec}}{font}\\fi\n"
        "\\begin{document}\n" + body + "\\end{document}\n"
    )


def _picture(d: _Diagram, width: float, shown: dict[str, str]) -> list[str]:
    """TikZ commands of the diagram; the last item is the y (cm) below it."""
    m, first, last = d.m, d.first, d.last

    # the axis covers the observed mean ranks, as the matplotlib diagram's
    def x(rank: float) -> float:
        share = (rank - first) / (last - first)
        return width * (share if d.reverse else 1 - share)

    out = [f"\\draw[thin] ({x(first):.3f},0) -- ({x(last):.3f},0);"]
    step = max(1, math.ceil((last - first + 1) / 12))
    ticks = sorted({*range(first, last + 1, step), last})
    for r in ticks:  # \footnotesize: 8 pt in a 10 pt paper
        out.append(
            f"\\draw[thin] ({x(r):.3f},0) -- ({x(r):.3f},0.12) "
            f"node[above, font=\\footnotesize] {{{r}}};"
        )
    if d.show_cd:
        start = float(last) if not d.reverse else float(first)
        end = start - d.cd if not d.reverse else start + d.cd
        y = 0.85
        out.append(
            f"\\draw[semithick, |-|] ({x(start):.3f},{y}) -- ({x(end):.3f},{y}) "
            f"node[midway, above, font=\\footnotesize] {{CD = {d.cd:.2f}}};"
        )
    rows = max((r + 1 for r in d.group_rows if r is not None), default=0)
    if d.band:
        rows = 1
    group_y = [-0.22 - r * _GROUP_ROW for r in range(rows)]
    for i, group in enumerate(d.groups):
        row = d.group_rows[i]
        if row is None:
            continue
        xs = sorted(x(d.ranks[d.index[str(a)]]) for a in group)
        lo, hi = min(xs), max(xs)
        members = {str(a) for a in group}
        span = sorted(d._span(group))
        skips = any(
            span[0] <= r <= span[1] and name not in members
            for name, r in zip(d.names, d.ranks, strict=True)
        )
        y = group_y[row]
        out.append(
            f"\\draw[line width=2pt, line cap=rect] ({lo - 0.05:.3f},{y:.3f}) -- "
            f"({hi + 0.05:.3f},{y:.3f});"
        )
        if skips or hi == lo:
            out += [f"\\fill ({px:.3f},{y:.3f}) circle (0.07);" for px in xs]
    if d.band:
        centre = d.ranks[d.index[str(d.control)]]
        a, b = sorted(
            (x(max(float(first), centre - d.cd)), x(min(float(last), centre + d.cd)))
        )
        out.append(
            f"\\draw[line width=3pt, gray!60] ({a:.3f},{group_y[0]:.3f}) -- "
            f"({b:.3f},{group_y[0]:.3f});"
        )
    top = (group_y[-1] if rows else 0.0) - 0.4
    order = sorted(range(m), key=lambda j: (d.ranks[j], j))
    n_best = math.ceil(m / 2)
    best, worst = order[:n_best], order[n_best:][::-1]
    rejected = set()
    if d.marks:
        rejected = {str(n) for n, flag in d.result.reject.items() if bool(flag)}
    for side, members in (("best", best), ("worst", worst)):
        on_right = (side == "best") != d.reverse
        edge = width + _NAME_GAP if on_right else -_NAME_GAP
        for row, j in enumerate(members):
            y = top - row * _ROW
            px = x(d.ranks[j])
            name = escape_latex(shown[d.names[j]])
            if d.names[j] == d.control:
                name = f"\\textbf{{{name}}}"
            anchor = "west" if on_right else "east"
            out.append(
                f"\\draw[thin] ({px:.3f},0) |- ({edge:.3f},{y:.3f}) "
                f"node[anchor={anchor}] {{{name}}};"
            )
            if d.names[j] in rejected:
                inward = edge - 0.15 if on_right else edge + 0.15
                out.append(f"\\fill ({inward:.3f},{y:.3f}) circle (0.07);")
    bottom = top - (max(len(best), len(worst)) - 1) * _ROW - 0.35
    out.append(f"{bottom:.3f}")
    return out
