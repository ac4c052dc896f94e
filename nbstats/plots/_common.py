"""Helpers shared by the plots: what they return, and the posterior pictures' texts.

Every public plot function returns its Axes through :func:`quiet`, so that a
notebook cell ending in ``result.plot()`` shows the figure (drawn by the
inline backend) and no ``<Axes: …>`` line under it.
"""

from __future__ import annotations

import math
from typing import Any

from nbstats.plots.protocols import require
from nbstats.results.number_policy import format_number, format_relation

__all__ = [
    "MAX_POINTS",
    "decision_phrase",
    "fit_texts",
    "format_probability",
    "legend",
    "legend_texts",
    "probability_relation",
    "quiet",
    "require",
    "threshold_line",
]

#: Posterior draws shown in a scatter (evenly spaced among i.i.d. draws).
MAX_POINTS = 4000


def _display_nothing() -> None:
    """Shown instead of the Axes' repr: the figure itself is already shown."""


def quiet(ax: Any) -> Any:
    """``ax``, made silent as the value of a notebook cell.

    IPython asks an object for ``_ipython_display_`` before any repr; an
    Axes that has one displaying nothing leaves no ``<Axes: …>`` text in the
    cell's output, while the inline backend still shows the figure. The
    attribute is set on this instance only (matplotlib's class is
    untouched); outside IPython nothing changes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> quiet(ax) is ax, ax._ipython_display_()
    (True, None)
    >>> plt.close(fig)
    """
    ax._ipython_display_ = _display_nothing
    return ax


def format_probability(p: float | None) -> str:
    """A probability as every figure prints it: the number policy's
    (:func:`nbstats.results.number_policy.format_number`, kind
    ``"probability"``): three decimals, ``< 0.001`` and ``> 0.999`` at the
    ends, so a posterior probability is never printed as 0 or 1, in a figure
    as in a table; "–" for a missing one.

    Examples
    --------
    >>> format_probability(0.8154), format_probability(0.99991)
    ('0.815', '> 0.999')
    >>> format_probability(1.0), format_probability(0.0), format_probability(None)
    ('> 0.999', '< 0.001', '–')
    """
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return format_number(float(p), "probability")


def probability_relation(p: float) -> str:
    """A probability after its symbol, as prose and tables write it:
    ``= 0.815``, or the bound alone (``> 0.999``), so that a figure reads
    "P(θ > ½) > 0.999", never "P(θ > ½) = 1"
    (:func:`nbstats.results.number_policy.format_relation`).

    Examples
    --------
    >>> "P(θ > ½) " + probability_relation(1.0)
    'P(θ > ½) > 0.999'
    >>> probability_relation(0.8154), probability_relation(0.0)
    ('= 0.815', '< 0.001')
    """
    return format_relation(float(p), "probability")


def decision_phrase(
    decision: str, name_a: str, name_b: str, *, rope: bool = True
) -> str:
    """The decision in words (the vocabulary of :mod:`nbstats.results.decisions`)."""
    from nbstats.results.decisions import describe

    return describe(decision, name_a, name_b, rope=rope)


def threshold_line(result: Any) -> str:
    phrase = decision_phrase(
        result.decision,
        result.name_a,
        result.name_b,
        rope=bool(getattr(result, "rope", 0)),
    )
    return f"threshold {result.threshold:g} → {phrase}"


def legend(ax: Any, own: bool, **kwargs: Any) -> Any:
    """Below the axes when the figure is ours; inside ("best") on a given Axes.

    A figure nbstats made has room for a legend under the plot, where it
    hides nothing; on a user's Axes (perhaps one panel of many) it stays
    inside that Axes.
    """
    options = {"frameon": False, "handlelength": 1.6, "borderaxespad": 0.3}
    options.update(kwargs)
    if own:
        legend = ax.figure.legend(loc="outside lower center", **options)
    else:
        legend = ax.legend(loc="best", **options)
    for handle in legend.legend_handles:  # faint, tiny scatter points: clear keys
        if handle is not None and hasattr(handle, "set_sizes"):
            handle.set_alpha(1.0)
            handle.set_sizes([12.0])
    return legend


def legend_texts(ax: Any) -> list[str]:
    """The legend entries of a plot drawn here (inside or below the Axes; or
    a picture's, whose texts have gids ``legend-text-<i>``)."""
    legends = [ax.get_legend()]
    if not legends[0]:
        legends = [leg for leg in ax.figure.legends if leg.axes is None]
    found = [text.get_text() for leg in legends if leg for text in leg.get_texts()]
    if not found:  # a picture's entry may be drawn a line an artist
        drawn: dict[int, list[str]] = {}
        for text in ax.texts:
            if (gid := text.get_gid() or "").startswith("legend-text-"):
                drawn.setdefault(int(gid.rsplit("-", 1)[1]), []).append(text.get_text())
        found = ["\n".join(drawn[k]) for k in sorted(drawn)]
    return found


def fit_texts(ax: Any, own: bool) -> None:
    """Wrap the title, axis labels, legend entries and texts of ``ax`` to fit.

    Long algorithm names make lines wider than a paper's column: each text
    is broken at ``(``, ``,`` or spaces (inside a word only if it must) to
    the width it has -- the axes' for the title, the x label and texts in
    the axes, the figure's for a legend below it. A figure made here
    (``own``) grows by the lines added, so the plot keeps its height.
    """
    from nbstats.plots.labels import wrap_text

    fig = ax.figure
    figure_width = fig.get_figwidth() * 72
    if own:  # constrained layout: the axes will span the width less its y labels
        axes_width = figure_width - 48.0
        axes_height = fig.get_figheight() * 72 - 60.0
    else:
        box = ax.get_position()
        axes_width = box.width * figure_width
        axes_height = box.height * fig.get_figheight() * 72
    added = 0.0

    def fit(text: Any, width: float) -> None:
        nonlocal added
        old = text.get_text()
        if not old:
            return
        size = text.get_fontsize()
        new = wrap_text(old, max(width, 4 * size), size, force=True)
        if new is not None and new != old:
            text.set_text(new)
            added += 1.25 * size * (new.count("\n") - old.count("\n"))

    fit(ax.title, axes_width - 4.0)
    fit(ax.xaxis.label, axes_width - 4.0)
    fit(ax.yaxis.label, axes_height - 4.0)
    legends = [ax.get_legend(), *(leg for leg in fig.legends if leg.axes is None)]
    for leg in legends:
        if leg is None:
            continue
        room = (figure_width if leg in fig.legends else 0.8 * axes_width) - 36.0
        for text in leg.get_texts():
            fit(text, room)
    for text in ax.texts:
        share = 1.0 if text.get_horizontalalignment() == "center" else 0.5
        fit(text, share * axes_width - 8.0)
    if own and added > 0:
        fig.set_figheight(fig.get_figheight() + added / 72)
    if own:
        # constrained layout with an equal aspect settles on its second pass:
        # run the first now, so that the first picture shown is the settled one
        fig.draw_without_rendering()
