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

from typing import Any, NamedTuple

import numpy as np

from nbstats.plots._common import (
    fit_texts,
    format_probability,
    legend,
    probability_relation,
    quiet,
    require,
    threshold_line,
)
from nbstats.plots.density import (
    _check_bins,
    _draw_point_mass,
    _histogram_density,
    _right_of_half,
    _view_limits,
    reflected_kde,
)
from nbstats.plots.figure_model import nice_ticks
from nbstats.plots.friedman import friedman_posterior
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.sign import sign_posterior
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SECOND,
    SHADE,
    literal,
    new_axes,
    paper_style,
    titles_shown,
)

__all__ = [
    "SignrankPicture",
    "friedman_posterior",
    "reflected_kde",
    "rope_probabilities",
    "sign_posterior",
    "signrank_picture",
    "signrank_posterior",
]

#: θ within this distance of ½ counts as ½ (as in nbstats.stats.bayes.signrank).
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
    >>> [line.get_gid() for line in ax.lines[:2]]
    ['posterior-lower', 'posterior-upper']
    >>> from nbstats.plots import legend_texts
    >>> legend_texts(ax)[2]
    'P(θ > ½): lower 0.734 / upper 0.814'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, ("signrank",), "signrank_posterior")
    picture = signrank_picture(result, _check_bins(bins), show_threshold)
    own = ax is None
    with paper_style():
        _, ax = new_axes(ax, width=width, aspect=0.95 if picture.idp else 0.85)
        _draw_signrank(ax, picture)
        legend(ax, own)
        fit_texts(ax, own)
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
    """What :func:`signrank_posterior` draws, computed before any artist.

    The Bayesian dashboard writes the same picture as SVG without matplotlib
    (:mod:`nbstats.widgets.posterior_svg`).
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
        "point": f"s = {result.s:g} at z0 = {result.z0:g}",
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


def _draw_signrank(ax: Any, picture: SignrankPicture) -> None:
    """Draw a picture of :func:`signrank_picture` (no legend) on ``ax``."""
    for curve in picture.curves:
        if curve.xy is None:
            _draw_point_mass(
                ax,
                curve.point,
                gid=curve.gid,
                color=curve.color,
                linestyle=curve.linestyle,
                label=f"{curve.label}: every draw at {curve.point:.3g}",
            )
        else:
            ax.plot(
                *curve.xy,
                color=curve.color,
                linestyle=curve.linestyle,
                gid=curve.gid,
                label=curve.label,
                zorder=3,
            )
    ax.fill_between(
        *picture.shade,
        color=SHADE,
        linewidth=0,
        gid="beyond-half",
        label=picture.shade_label,
        zorder=1,
    )
    ax.axvline(0.5, color=MUTED, linestyle=":", linewidth=0.8, gid="half", zorder=2)
    ax.plot(
        picture.interval,
        [0.0, 0.0],
        color=INK,
        linewidth=3,
        solid_capstyle="butt",
        clip_on=False,
        gid="credible-interval",
        label=picture.interval_label,
        zorder=4,
    )
    ax.set_xlim(*picture.xlim)
    ticks, digits = picture.xticks
    if len(ticks):  # the SVG's ticks, labelled alike
        ax.set_xticks(ticks, [f"{t:.{digits}f}" for t in ticks])
    ax.set_ylim(bottom=0)
    ax.set_xlabel(picture.xlabel)
    ax.set_ylabel("posterior density")
    if titles_shown():  # a report's caption says it instead
        ax.set_title(picture.title)
