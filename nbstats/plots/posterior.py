"""Posterior pictures of the Bayesian tests (Benavoli et al. 2014, 2015).

- :func:`signrank_posterior` (this module): density of θ for
  :func:`nbstats.bayes_signrank`, with the lower and upper curves of the
  near-ignorance prior (the 2014 paper's Figures 1 and 3), the area beyond
  ½, the credible interval and the decision;
- :func:`~nbstats.plots.rope.rope_probabilities`: (left, rope, right) as a
  stacked bar, or the draws on a simplex;
- :func:`~nbstats.plots.sign.sign_posterior`: the Beta posterior of the
  Bayesian sign test (Theorem 2 of the 2015 paper);
- :func:`~nbstats.plots.friedman.friedman_posterior`: for three algorithms,
  the posterior of the mean-rank vector and the credible ellipse of the
  Bayesian Friedman test;
- :func:`~nbstats.plots.density.reflected_kde`: the density estimate of θ.

All of them stay importable from here. Every function takes ``ax=None`` (a
new figure of a paper's column width otherwise) and returns the matplotlib
Axes. Artists carry gids (``"posterior-lower"``, ``"beyond-half"``,
``"credible-region"``, …) so that tests and users can find them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from nbstats.plots._common import (
    format_probability,
    probability_relation,
    quiet,
    require,
    threshold_line,
)
from nbstats.plots.chart_layout import (
    DASHED,
    DOTTED,
    PAPER,
    ChartStyle,
    Frame,
    Key,
    chart,
)
from nbstats.plots.chart_marks import curve_points, paper_points, point_mass, under
from nbstats.plots.density import (
    _check_bins,
    _histogram_density,
    _right_of_half,
    _view_limits,
    reflected_kde,
)
from nbstats.plots.figure_model import Area, Picture, Stroke, nice_ticks
from nbstats.plots.friedman import friedman_posterior
from nbstats.plots.picture_mpl import draw_picture
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.sign import sign_posterior
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SECOND,
    SHADE,
    figure_width,
    literal,
    paper_style,
    titles_shown,
)

__all__ = [
    "SignrankLayout",
    "SignrankPicture",
    "friedman_posterior",
    "reflected_kde",
    "rope_probabilities",
    "sign_posterior",
    "signrank_layout",
    "signrank_picture",
    "signrank_posterior",
]

#: The curves' line styles as dash patterns in points.
_DASH = {"-": (), "--": DASHED}
#: θ within this distance of ½ counts as ½ (as in
#: nbstats.stats.bayes.signrank.one_pair).
_HALF_TOLERANCE = 1e-12


def signrank_posterior(
    result: Any,
    *,
    ax: Any = None,
    width: str = "single",
    bins: int | None = None,
    show_threshold: bool = True,
) -> Any:
    """Posterior density of θ from :func:`nbstats.bayes_signrank`.

    θ = P(Z + Z′ > 0) + ½ P(Z + Z′ = 0) for two independent differences
    ``Z = b − a`` (b better → Z > 0). Under the near-ignorance prior
    (``prior="idp"``) there is no single posterior: the plot shows the lower
    and the upper one, as Figures 1 and 3 of Benavoli et al. (2014). The area
    beyond ½ under the lower (or only) curve is shaded and its probability
    printed in the legend (the result's ``prob_lower``/``prob_upper``, or
    ``prob_right``). The thick bar on the baseline is the credible interval
    (``result.credible_interval``, at level ``threshold``); the title says
    what the threshold decides.

    Parameters
    ----------
    result : BayesSignedRankResult
    ax : matplotlib Axes, optional
        Where to draw; a new figure of width ``width`` otherwise.
    width : {"single", "double"}
        One- or two-column figure width (new figures only).
    bins : int, optional
        ``None`` (default): a Gaussian kernel density reflected at 0 and 1
        (θ lives in [0, 1]; see :func:`reflected_kde`). An int: a density
        histogram with that many bins on [0, 1], drawn as a step line.
    show_threshold : bool
        Add the decision line ("threshold 0.95 → prefer b") to the title.

    Returns
    -------
    matplotlib.axes.Axes
        The picture of :func:`signrank_layout` (the Bayesian dashboard's
        geometry too), drawn by
        :func:`~nbstats.plots.picture_mpl.draw_picture`: data coordinates
        are points, every artist carries its item's gid. On a given ``ax``
        the picture is laid out at that axes' size, legend included.

    Notes
    -----
    With a rope the result's probabilities are the shares of the three
    regions (left, rope, right), not P(θ > ½): the shaded area is then
    labelled with P(θ > ½) computed from the draws, and the title states the
    region shares (:func:`rope_probabilities` draws them).

    When every draw of a posterior is the same (e.g. all differences
    positive under ``prior="bb"``: θ = 1), there is no density: the point
    mass is drawn as an arrow, and the legend says so.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.posterior import signrank_posterior
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    >>> ax = signrank_posterior(res)
    >>> [line.get_gid() for line in ax.lines if line.get_gid().startswith("post")]
    ['posterior-lower', 'posterior-upper']
    >>> from nbstats.plots import legend_texts
    >>> legend_texts(ax)[2]
    'P(θ > ½): lower 0.734 / upper 0.814'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, ("signrank",), "signrank_posterior")
    picture = signrank_picture(result, _check_bins(bins), show_threshold)
    with paper_style():
        if ax is None:
            geometry = signrank_layout(
                picture, paper_points(figure_width(width)), titles=titles_shown()
            )
            ax = draw_picture(geometry.picture)
        else:  # laid out at the size of the given axes
            box = ax.get_position()
            size = ax.figure.get_size_inches() * 72
            geometry = signrank_layout(
                picture,
                box.width * size[0],
                height=box.height * size[1],
                titles=titles_shown(),
            )
            draw_picture(geometry.picture, ax)
            ax.set_aspect("equal", adjustable="box")  # points stay square
    return quiet(ax)


class _Curve(NamedTuple):
    """One posterior of θ: its density ``xy``, or ``point`` (all draws equal)."""

    samples: np.ndarray
    gid: str
    color: str
    linestyle: str
    label: str
    xy: tuple[np.ndarray, np.ndarray] | None
    point: float | None


class SignrankPicture(NamedTuple):
    """What :func:`signrank_posterior` shows (curves, limits, texts), before
    any layout: :func:`signrank_layout` places it at a width, for the paper
    (matplotlib) and the Bayesian dashboard (SVG,
    :mod:`nbstats.widgets.posterior_svg`) alike.
    """

    idp: bool
    bins: int | None
    curves: list[_Curve]
    shade: tuple[np.ndarray, np.ndarray]
    shade_label: str
    interval: tuple[float, float]
    interval_label: str
    xlim: tuple[float, float]
    xlabel: str
    title: str
    #: The x axis' ticks and the decimals that tell them apart
    #: (:func:`nbstats.plots.figure_model.nice_ticks`), for every renderer.
    xticks: tuple[np.ndarray, int] = (np.empty(0), 0)


def signrank_picture(
    result: Any,
    bins: int | None,
    show_threshold: bool,
    previous: SignrankPicture | None = None,
) -> SignrankPicture:
    """The curves, limits and texts of the plot (no matplotlib involved).

    A density of ``previous`` is reused when its draws are equal (the same
    posterior under a new threshold): only the texts and the interval change.
    """
    idp = result.prior == "idp"
    if idp:
        specs = [
            (
                result.samples_lower,
                "posterior-lower",
                ACCENT,
                "-",
                "lower (prior at −∞)",
            ),
            (
                result.samples_upper,
                "posterior-upper",
                SECOND,
                "--",
                "upper (prior at +∞)",
            ),
        ]
    else:
        specs = [(result.samples, "posterior", ACCENT, "-", "posterior of θ")]
    known = {}
    if previous is not None and previous.bins == bins:
        known = {curve.gid: curve for curve in previous.curves}
    curves = []
    for samples, gid, color, linestyle, label in specs:
        values = np.asarray(samples, dtype=float).ravel()
        old = known.get(gid)
        if old is not None and (
            old.samples is values or np.array_equal(old.samples, values)
        ):
            curves.append(old)
            continue
        if values.size == 0:
            raise ValueError("the result holds no posterior draws to plot.")
        xy = point = None
        if np.ptp(values) == 0:
            point = float(values[0])
        elif bins is None:
            xy = reflected_kde(values)
        else:
            xy = _histogram_density(values, bins)
        curves.append(_Curve(values, gid, color, linestyle, label, xy, point))

    has_rope = result.prob_rope is not None
    if has_rope:
        probs = [
            float(np.mean(curve.samples > 0.5 + _HALF_TOLERANCE)) for curve in curves
        ]
    elif idp:
        probs = [result.prob_lower, result.prob_upper]
    else:
        probs = [result.prob_right]
    if idp:
        prob_text = (
            f"P(θ > ½): lower {format_probability(probs[0])} / "
            f"upper {format_probability(probs[1])}"
        )
    else:
        prob_text = f"P(θ > ½) {probability_relation(probs[0])}"
    first = curves[0].xy
    shade = _right_of_half(*first) if first is not None else (np.empty(0),) * 2
    low, high = result.credible_interval
    level = f"{100 * result.threshold:g}%"
    interval_label = (
        f"{level} credible interval{' (both curves)' if idp else ''} "
        f"[{low:.2f}, {high:.2f}]"
    )
    points = [curve.point for curve in curves if curve.point is not None]
    xlim = _view_limits([curve.xy for curve in curves], [low, high, *points])
    difference = f"{literal(result.name_b)} − {literal(result.name_a)}"
    prior = {
        "idp": f"IDP, s = {result.s:.2g}",
        "bb": "Bayesian bootstrap",
        "point": f"s = {result.s:g} at prior_at = {result.prior_at:g}",
    }[result.prior]
    title = [f"{literal(result.name_a)} vs {literal(result.name_b)} ({prior})"]
    if has_rope:
        shares = [result.prob_left, result.prob_rope, result.prob_right]
        values = [format_probability(p) for p in shares]
        if idp:  # each an interval over the prior set
            bounds = result.bounds()
            values = [
                f"{format_probability(bounds[key][0])} to "
                f"{format_probability(bounds[key][1])}"
                for key in ("left", "rope", "right")
            ]
        title.append(
            f"rope ±{result.rope:g}: {literal(result.name_a)} {values[0]} · rope "
            f"{values[1]} · {literal(result.name_b)} {values[2]}"
        )
    if show_threshold:
        title.append(literal(threshold_line(result)))
    return SignrankPicture(
        idp=idp,
        bins=bins,
        curves=curves,
        shade=shade,
        shade_label=prob_text,
        interval=(low, high),
        interval_label=interval_label,
        xlim=xlim,
        xlabel=f"θ = P(Z + Z′ > 0),  Z = {difference}",
        title="\n".join(title),
        xticks=nice_ticks(*xlim),
    )


@dataclass(frozen=True)
class SignrankLayout:
    """The geometry of a signed-rank posterior: the :class:`Picture` both
    renderers draw, its plot box (data to points) and its legend's texts."""

    picture: Picture
    frame: Frame
    legend: tuple[str, ...]


def signrank_layout(
    picture: SignrankPicture,
    width: float,
    *,
    style: ChartStyle = PAPER,
    height: float | None = None,
    titles: bool = True,
    alt: str = "",
) -> SignrankLayout:
    """Lay out a :func:`signrank_picture` ``width`` points wide, in the font
    of the current :func:`~nbstats.plots.style.paper_style`.

    ``height``: the whole picture's height (a given axes'), else the box is
    as tall as the style asks. ``titles``: draw the title (a report captions
    the figure instead). The picture's items, by gid: ``beyond-half`` (the
    area right of ½ under the first curve), ``half``, the curves
    (``posterior``, or ``posterior-lower`` and ``posterior-upper``; a point
    mass as ``<curve>-point-mass`` and ``<curve>-arrow``), ``spines``,
    ``xtick-<k>``, ``ytick-<k>``, ``credible-interval``, the texts
    ``xtick-label-<k>``, ``ytick-label-<k>``, ``ylabel``, ``xlabel``,
    ``title``, and the legend's ``legend-key-<i>`` and ``legend-text-<i>``.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.style import paper_style
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)
    >>> with paper_style():
    ...     geometry = signrank_layout(signrank_picture(res, None, True), 238.0)
    >>> geometry.legend[2]
    'P(θ > ½): lower 0.734 / upper 0.814'
    """
    densities = [c.xy for c in picture.curves if c.xy is not None]
    top = max((float(np.max(xy[1])) for xy in densities), default=0.0)
    entries = []
    for curve in picture.curves:
        label = curve.label
        if curve.xy is None:
            label = f"{label}: every draw at {curve.point:.3g}"
        entries.append((label, Key("line", curve.color, dash=_DASH[curve.linestyle])))
    entries.append((picture.shade_label, Key("patch", SHADE)))
    entries.append((picture.interval_label, Key("line", INK, width=3.0)))
    frame_chart = chart(
        width,
        xlim=picture.xlim,
        ylim=(0.0, 1.05 * top if top > 0 else 1.0) if densities else None,
        xlabel=picture.xlabel,
        ylabel="posterior density" if densities else "point mass (no density)",
        title=picture.title.split("\n") if titles else (),
        legend=entries,
        style=style,
        height=height,
        x_ticks=picture.xticks,
    )
    frame = frame_chart.frame
    items: list[Any] = []
    drawn = {
        c.gid: curve_points(*c.xy, frame) for c in picture.curves if c.xy is not None
    }
    first = drawn.get(picture.curves[0].gid)
    if first and picture.shade[0].size > 1:
        shade = _beyond_half(first, float(frame.x(0.5)))
        if len(shade) > 1:
            items.append(Area(under(shade, frame), "beyond-half", fill=SHADE))
    low, high = frame.xlim
    if low <= 0.5 <= high:
        half = float(frame.x(0.5))
        items.append(
            Stroke(
                ((half, frame.top), (half, frame.bottom)),
                0.8,
                "half",
                color=MUTED,
                dash=tuple(0.8 * d for d in DOTTED),
            )
        )
    for curve in picture.curves:
        dash = _DASH[curve.linestyle]
        if curve.xy is None:
            items += point_mass(curve.point, frame, curve.gid, curve.color, dash)
        else:
            points = drawn[curve.gid]
            items.append(Stroke(points, 1.0, curve.gid, color=curve.color, dash=dash))
    items += frame_chart.axes
    ends = frame.x(np.clip(picture.interval, low, high)).tolist()
    items.append(
        Stroke(
            ((ends[0], frame.bottom), (ends[1], frame.bottom)),
            3.0,
            "credible-interval",
        )
    )
    items += frame_chart.texts
    return SignrankLayout(
        Picture(width, frame_chart.height, tuple(items), alt),
        frame,
        frame_chart.legend,
    )


def _beyond_half(
    points: tuple[tuple[float, float], ...], half: float
) -> tuple[tuple[float, float], ...]:
    """The drawn curve right of ½ (at ``half`` points across), starting at ½
    on the drawn line (a step's right-hand value), so the area's top edge is
    the line drawn over it."""
    right = [p for p in points if p[0] > half]
    at = [p for p in points if p[0] == half]
    if at:
        start = at[-1][1]
    elif right and len(right) < len(points):
        (x0, y0), (x1, y1) = points[len(points) - len(right) - 1], right[0]
        start = y0 + (y1 - y0) * (half - x0) / (x1 - x0)
    else:
        return tuple(right)
    return ((half, start), *right)
