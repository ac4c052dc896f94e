"""Race trace: surviving candidates against evaluations used."""

from __future__ import annotations

from typing import Any

from nbstats.plots._common import fit_texts, quiet
from nbstats.plots.labels import MIN_FONT, add_key, fit_names
from nbstats.plots.protocols import is_kind
from nbstats.plots.style import (
    ACCENT,
    INK,
    PALETTE,
    SECOND,
    literal,
    new_axes,
    paper_style,
)

__all__ = ["race_trace"]

#: Marker style of each elimination reason (shape first: it survives greyscale).
_REASON_STYLE = {
    "dominated": {"marker": "v", "color": ACCENT, "filled": True},
    "indistinguishable": {"marker": "o", "color": SECOND, "filled": False},
    "worse than the best": {"marker": "X", "color": INK, "filled": True},
}
_OTHER_MARKERS = ("s", "D", "^", "P", "*")
#: Up to this many eliminations, each marker is labelled with its candidate.
_MAX_NAMED = 12


def race_trace(
    result: Any,
    *,
    ax: Any = None,
    names: bool | None = None,
    width: str = "single",
) -> Any:
    """Surviving candidates against the evaluations used, eliminations marked.

    A step line counts the candidates still in the race after each number of
    ``evaluate`` calls, from all of them at 0 to the survivors when the race
    stopped. Each elimination is a marker on the drop it causes (at its
    ``evaluations_used``; several dropped at once are stacked along the drop,
    one per candidate), its shape and colour telling the reason: dominated by
    a better candidate, indistinguishable from one, or worse than the best
    (F-race). The title names the winner.

    Parameters
    ----------
    result : RaceResult
        From :func:`nbstats.race`.
    ax : matplotlib Axes, optional
        Where to draw; by default a new figure.
    names : bool, optional
        Write each eliminated candidate's name beside its marker; by default
        only when at most 12 were eliminated and the names have room. Names
        longer than about a third of the width are written as letters
        ``A``, ``B``, … with a key under the plot.
    width : {"single", "double"}
        Width of a new figure: one or two columns of a paper.

    Returns
    -------
    matplotlib.axes.Axes
        The step line has gid ``"survivors"``; the markers of one reason are
        one ``Line2D`` with gid ``f"eliminated-{reason}"`` (one point per
        elimination, x = ``evaluations_used``).

    Raises
    ------
    TypeError
        If ``result`` is not a :class:`RaceResult`.

    Examples
    --------
    >>> import numpy as np
    >>> import nbstats
    >>> from nbstats.plots.race import race_trace
    >>> means = {"a": 0.0, "b": 0.3, "c": 0.6, "d": 0.9}
    >>> def evaluate(candidate, instance):
    ...     seed = [ord(candidate), instance]
    ...     return means[candidate] + np.random.default_rng(seed).normal(0, 0.2)
    >>> result = nbstats.race(evaluate, list(means), range(40), progress=False,
    ...                       random_state=0)
    >>> ax = race_trace(result)
    >>> ax.get_title()
    'Race (bayes): winner d'
    >>> survivors = next(l for l in ax.get_lines() if l.get_gid() == "survivors")
    >>> int(survivors.get_ydata()[0]), int(survivors.get_ydata()[-1])
    (4, 1)
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    if not is_kind(result, "race"):
        raise TypeError(
            "race_trace expects a RaceResult (from nbstats.race); got "
            f"{type(result).__name__}."
        )
    n_candidates = len(result.survivors) + len(result.eliminations)
    drops = result.eliminations.sort_values("evaluations_used", kind="stable")

    # the step line: one vertex per distinct elimination time
    xs, ys = [0], [n_candidates]
    left = n_candidates
    points: dict[str, list[tuple[float, float, str]]] = {}
    for used, group in drops.groupby("evaluations_used", sort=True):
        for row in group.itertuples(index=False):
            left -= 1
            # the marker sits on the one-candidate drop it causes
            points.setdefault(str(row.reason), []).append(
                (float(used), left + 0.5, str(row.candidate))
            )
        xs.append(int(used))
        ys.append(left)
    xs.append(max(int(result.evaluations), xs[-1]))
    ys.append(left)

    own = ax is None
    with paper_style():
        fig, ax = new_axes(ax, width=width)
        total = ax.get_position().width * fig.get_figwidth() * 72
        # eliminated names beside their markers, as letters with a key if long
        fitted = fit_names(
            list(drops["candidate"].astype(str)) or ["-"],
            0.35 * total,
            fontsize=MIN_FONT,
            max_lines=1,
        )
        # points between two candidate levels: markers (and names) must fit
        level_pt = (
            ax.get_position().height * fig.get_figheight() * 72 / (n_candidates + 0.5)
        )
        size = float(np.clip(0.8 * level_pt, 2.5, 5.0))
        if names is None:
            names = (
                len(drops) <= _MAX_NAMED and level_pt >= 7 and fitted.aliases is None
            )
        x_end = max(xs[-1], 1)
        ax.step(xs, ys, where="post", color=INK, linewidth=1.0, gid="survivors")
        extra = iter(_OTHER_MARKERS)
        for k, (reason, marks) in enumerate(points.items()):
            style = _style(reason, extra, k)
            colour = style["color"]
            ax.plot(
                [x for x, _, _ in marks],
                [y for _, y, _ in marks],
                linestyle="none",
                marker=style["marker"],
                markersize=size,
                markeredgewidth=1.0,
                markeredgecolor=colour,
                markerfacecolor=colour if style["filled"] else "white",
                zorder=3,
                clip_on=False,
                gid=f"eliminated-{reason}",
                label=literal(reason),
            )
            if names:
                for x, y, candidate in marks:
                    right_half = x > 0.55 * x_end  # the name goes inwards
                    ax.annotate(
                        fitted.label(candidate),
                        (x, y),
                        xytext=(-5 if right_half else 5, 0),
                        textcoords="offset points",
                        ha="right" if right_half else "left",
                        va="center",
                        fontsize=fitted.fontsize,
                        color=INK,
                    )

        ax.set_xlim(0, xs[-1] * 1.02 if xs[-1] else 1)
        ax.set_ylim(0, n_candidates + 0.5)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
        ax.set_xlabel("evaluations used")
        ax.set_ylabel("candidates left")
        winner = getattr(result, "winner_name", result.winner)
        ax.set_title(f"Race ({result.method}): winner {literal(winner)}")
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        if points:
            ax.legend(
                title="eliminated as",
                loc="best",
                frameon=False,
                handletextpad=0.3,
                borderaxespad=0.2,
            )
        if names and fitted.aliases:
            add_key(fig, fitted.key(), fig.get_figwidth() * 72 - 8, grow=own)
        fit_texts(ax, own)
    return quiet(ax)


def _style(reason: str, extra: Any, k: int) -> dict[str, Any]:
    for prefix, style in _REASON_STYLE.items():
        if reason.startswith(prefix):
            return style
    return {
        "marker": next(extra, "s"),
        "color": PALETTE[(k + 4) % len(PALETTE)],
        "filled": True,
    }
