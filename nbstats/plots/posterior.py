"""Posterior pictures of the Bayesian tests (Benavoli et al. 2014, 2015).

- :func:`signrank_posterior`: density of θ for :func:`nbstats.bayes_signrank`,
  with the lower and upper curves of the near-ignorance prior (the 2014
  paper's Figures 1 and 3), the area beyond ½, the credible interval and the
  decision;
- :func:`nbstats.plots.rope.rope_probabilities` (re-exported here): (left,
  rope, right) as a stacked bar, or the draws on a simplex;
- :func:`sign_posterior`: the Beta posterior of the Bayesian sign test
  (Theorem 2 of the 2015 paper);
- :func:`friedman_posterior`: for three algorithms, the posterior of the
  mean-rank vector and the credible ellipse of the Bayesian Friedman test.

Every function takes ``ax=None`` (a new figure of a paper's column width
otherwise) and returns the matplotlib Axes. Artists carry gids
(``"posterior-lower"``, ``"beyond-half"``, ``"credible-region"``, …) so that
tests and users can find them.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from nbstats import _scipy_stats as sps
from nbstats.plots._common import (
    MAX_POINTS,
    format_probability,
    legend,
    quiet,
    require,
    threshold_line,
)
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SECOND,
    SHADE,
    literal,
    new_axes,
    paper_style,
)
from nbstats.results.bayes import BayesSignedRankResult, BayesSignTestResult
from nbstats.results.bayes_friedman import BayesFriedmanResult

__all__ = [
    "friedman_posterior",
    "rope_probabilities",
    "sign_posterior",
    "signrank_posterior",
]

#: Finest grid of the density estimate (intervals on [0, 1]).
_MAX_GRID = 20_000
#: θ within this distance of ½ counts as ½ (as in nbstats.stats.bayes.signrank).
_HALF_TOLERANCE = 1e-12
_METHODS = {"ellipsoid": "ellipsoid", "montecarlo": "Monte Carlo"}


# ----------------------------------------------------------------- helpers


def reflected_kde(
    samples: np.ndarray, *, bandwidth: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Density of draws that live in [0, 1]: ``(grid, density)``.

    A Gaussian kernel density estimate reflected at 0 and 1, so no mass leaks
    outside [0, 1] and the density does not dip at a bound the posterior
    piles against (θ near 1). The bandwidth defaults to Scott's rule,
    ``sd · S^(-1/5)``, as :class:`scipy.stats.gaussian_kde`. It is computed
    on a grid (linear binning, then a convolution), which takes milliseconds
    for 50,000 draws. The grid has an even number of intervals, so ½ is a grid
    point, and is fine enough for the bandwidth (spacing ≤ h/3 down to
    1/20,000). The density integrates to 1 over [0, 1] up to the trapezoid
    rule's error.

    Examples
    --------
    >>> import numpy as np
    >>> draws = np.random.default_rng(0).beta(8, 3, size=20_000)
    >>> grid, density = reflected_kde(draws)
    >>> round(float(np.trapezoid(density, grid)), 3)
    1.0
    """
    x = np.clip(np.asarray(samples, dtype=float).ravel(), 0.0, 1.0)
    n = x.size
    if n < 2 or np.ptp(x) == 0:
        raise ValueError("a density needs at least two distinct draws.")
    h = float(bandwidth) if bandwidth is not None else float(np.std(x, ddof=1))
    if bandwidth is None:
        h *= n ** (-1 / 5)
    intervals = int(min(_MAX_GRID, max(1000, 2 * math.ceil(1.5 / h))))
    dx = 1.0 / intervals
    h = max(h, dx)
    grid = np.linspace(0.0, 1.0, intervals + 1)
    # linear binning onto the grid
    position = x * intervals
    low = np.minimum(np.floor(position).astype(np.intp), intervals - 1)
    frac = position - low
    size = intervals + 1
    counts = np.bincount(low, 1 - frac, minlength=size) + np.bincount(
        low + 1, frac, minlength=size
    )
    # mirror at both ends (each end point is its own mirror image)
    k = min(math.ceil(4 * h / dx), intervals)
    padded = np.zeros(size + 2 * k)
    padded[k : k + size] = counts
    padded[k::-1] += counts[: k + 1]
    padded[k + size - 1 :] += counts[size - 1 - k :][::-1]
    offsets = np.arange(-k, k + 1) * dx
    kernel = np.exp(-0.5 * (offsets / h) ** 2) / (h * math.sqrt(2 * math.pi))
    density = np.convolve(padded, kernel, mode="valid") / n
    return grid, density


def _histogram_density(samples: np.ndarray, bins: int) -> tuple[np.ndarray, ...]:
    """A density histogram on [0, 1] as the vertices of its step outline."""
    x = np.clip(np.asarray(samples, dtype=float).ravel(), 0.0, 1.0)
    density, edges = np.histogram(x, bins=bins, range=(0.0, 1.0), density=True)
    return np.repeat(edges, 2)[1:-1], np.repeat(density, 2)


def _right_of_half(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The part of a curve at x ≥ ½, starting exactly at ½ (right-hand value)."""
    i = int(np.searchsorted(x, 0.5, side="right"))
    if i == 0:
        return x, y
    if i == x.size:
        return np.array([0.5]), y[-1:]
    if x[i - 1] == 0.5:
        start = y[i - 1]
    else:
        start = np.interp(0.5, x[i - 1 : i + 1], y[i - 1 : i + 1])
    return np.r_[0.5, x[i:]], np.r_[start, y[i:]]


def _check_bins(bins: object) -> int | None:
    if bins is None:
        return None
    if isinstance(bins, (bool, np.bool_)) or not isinstance(bins, (int, np.integer)):
        raise TypeError(
            f"bins must be None (a density estimate) or an int, got {bins!r}."
        )
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins!r}.")
    return int(bins)


def _draw_point_mass(
    ax: Any, value: float, *, gid: str, color: str, linestyle: str, label: str
) -> None:
    """All posterior mass at one θ: a stem with an arrow head (no density)."""
    transform = ax.get_xaxis_transform()  # x in data, y in axes units
    ax.plot(
        [value, value],
        [0.0, 0.88],
        transform=transform,
        color=color,
        linestyle=linestyle,
        linewidth=1.4,
        clip_on=False,
        gid=f"{gid}-point-mass",
        label=label,
    )
    ax.plot(
        [value],
        [0.88],
        transform=transform,
        marker="^",
        markersize=5,
        color=color,
        clip_on=False,
        gid=f"{gid}-arrow",
    )


def _view_limits(
    curves: list[tuple[np.ndarray, np.ndarray] | None], extra: list[float]
):
    """x-limits holding the visible part of every curve, ½ and ``extra``."""
    lows, highs = [0.5, *extra], [0.5, *extra]
    for curve in curves:
        if curve is None:
            continue
        x, y = curve
        visible = x[y > 1e-3 * y.max()]
        lows.append(float(visible.min()))
        highs.append(float(visible.max()))
    low, high = min(lows), max(highs)
    pad = 0.06 * max(high - low, 0.05)
    return max(0.0, low - pad), min(1.0, high + pad)


def signrank_posterior(
    result: BayesSignedRankResult,
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
    'P(θ > ½): lower 0.734 / upper 0.813'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, (BayesSignedRankResult,), "signrank_posterior")
    picture = _signrank_picture(result, _check_bins(bins), show_threshold)
    own = ax is None
    with paper_style():
        _, ax = new_axes(ax, width=width, aspect=0.95 if picture.idp else 0.85)
        _draw_signrank(ax, picture)
        legend(ax, own)
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


class _SignrankPicture(NamedTuple):
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


def _signrank_picture(
    result: BayesSignedRankResult,
    bins: int | None,
    show_threshold: bool,
    previous: _SignrankPicture | None = None,
) -> _SignrankPicture:
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
        prob_text = f"P(θ > ½) = {format_probability(probs[0])}"
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
        title.append(
            f"rope ±{result.rope:g}: {literal(result.name_a)} "
            f"{format_probability(result.prob_left)} · rope "
            f"{format_probability(result.prob_rope)} · {literal(result.name_b)} "
            f"{format_probability(result.prob_right)}"
        )
    if show_threshold:
        title.append(literal(threshold_line(result)))
    return _SignrankPicture(
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
    )


def _draw_signrank(ax: Any, picture: _SignrankPicture) -> None:
    """Draw a picture of :func:`_signrank_picture` (no legend) on ``ax``."""
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
    ax.set_ylim(bottom=0)
    ax.set_xlabel(picture.xlabel)
    ax.set_ylabel("posterior density")
    ax.set_title(picture.title)


# -------------------------------------------------------------- rope plots


def sign_posterior(
    result: BayesSignTestResult, *, ax: Any = None, width: str = "single"
) -> Any:
    """Beta posterior of the Bayesian sign test (Benavoli et al. 2015, Thm. 2).

    With n_g wins and n_l losses of b (ties aside), the share of b's wins
    among the cases that are not tied, θ′ = θ_g / (θ_g + θ_l), is
    Beta(n_g, n_l) a posteriori, whatever the prior strength s, and
    ``P(θ > ½) = P(θ′ > ½)``. The plot shows that density with the area
    beyond ½ shaded and its probability (``result.prob_right``). A result
    with a rope is handed to :func:`rope_probabilities`.

    Parameters
    ----------
    result : BayesSignTestResult
    ax : matplotlib Axes, optional
    width : {"single", "double"}

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    No losses (or no wins) make the Beta degenerate: all mass at θ′ = 1
    (or 0). The plot draws that point mass as an arrow and says so. When every
    case is a tie, θ′ is undefined and θ = ½ in every draw; the plot says
    that instead.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.posterior import sign_posterior
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_sign_test(uci["nbc"], uci["j48"], random_state=0)
    >>> ax = sign_posterior(res)
    >>> from nbstats.plots import legend_texts
    >>> legend_texts(ax)
    ['Beta(30, 22)', 'P(θ′ > ½) = P(θ > ½) = 0.869']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, (BayesSignTestResult,), "sign_posterior")
    if result.prob_rope is not None:
        return rope_probabilities(result, ax=ax, width=width)
    wins, losses = result.wins, result.losses
    prob_text = f"P(θ′ > ½) = P(θ > ½) = {format_probability(result.prob_right)}"
    own = ax is None
    with paper_style():
        _, ax = new_axes(ax, width=width, aspect=0.8)
        ax.axvline(0.5, color=MUTED, linestyle=":", linewidth=0.8, gid="half", zorder=2)
        if wins > 0 and losses > 0:
            x = np.linspace(0.0, 1.0, 1001)
            y = sps.beta.pdf(x, wins, losses)
            ax.plot(
                x, y, color=ACCENT, gid="posterior", label=f"Beta({wins}, {losses})"
            )
            xs, ys = _right_of_half(x, y)
            ax.fill_between(
                xs, ys, color=SHADE, linewidth=0, gid="beyond-half", label=prob_text
            )
            visible = x[y > 1e-3 * y.max()]
            low, high = min(visible.min(), 0.5), max(visible.max(), 0.5)
            pad = 0.06 * (high - low)
            ax.set_xlim(max(0.0, low - pad), min(1.0, high + pad))
            ax.set_ylim(bottom=0)
            ax.set_ylabel("posterior density")
        elif wins + losses > 0:
            at = 1.0 if losses == 0 else 0.0
            side = "no losses" if losses == 0 else "no wins"
            _draw_point_mass(
                ax,
                at,
                gid="posterior",
                color=ACCENT,
                linestyle="-",
                label=f"{side}: Beta({wins}, {losses}) is a point mass at {at:g}",
            )
            ax.plot([], [], " ", gid="probability", label=prob_text)
            ax.set_xlim(-0.03, 1.03)
            ax.set_yticks([])
            ax.set_ylabel("point mass (no density)")
        else:
            ax.text(
                0.5,
                0.5,
                f"all {result.ties} cases tie: θ′ is undefined and θ = ½ "
                f"in every draw\n{prob_text}",
                transform=ax.transAxes,
                ha="center",
                va="center",
                gid="all-ties",
            )
            ax.set_xlim(0.0, 1.0)
            ax.set_yticks([])
        ax.set_xlabel(
            f"θ′: share of {literal(result.name_b)}'s wins among untied cases"
        )
        ax.set_title(
            f"{literal(result.name_a)} vs {literal(result.name_b)}: {wins} wins, "
            f"{losses} losses, {result.ties} ties\n{literal(threshold_line(result))}"
        )
        if wins + losses > 0:
            legend(ax, own)
    return quiet(ax)


# ---------------------------------------------------------------- Friedman


def friedman_posterior(
    result: BayesFriedmanResult,
    *,
    ax: Any = None,
    width: str = "single",
    n_points: int = 200,
) -> Any:
    """Posterior of the mean-rank vector of three algorithms (a teaching picture).

    The mean ranks of three algorithms always sum to 1 + 2 + 3 = 6, so the
    vector lives in a plane and is drawn by its first two coordinates (the
    third is ``6 − x − y``). The picture shows the posterior mean, the
    ``1 − γ`` credible region of the Bayesian Friedman test (Benavoli et al.
    2015, §5.2), i.e. the ellipse of points x with
    ``(x − μ)ᵀ Σ⁻¹ (x − μ) = ρ`` (``ρ = result.rho``), and the point of no
    difference μ0 = (2, 2): the test rejects when μ0 lies outside. With
    ``method="montecarlo"`` the posterior draws are shown as a light scatter
    and the ellipse uses the draws' mean and covariance, as the test does;
    otherwise μ and Σ are the exact ``mean_ranks`` and ``covariance``.
    Ranks are 1 = best.

    Parameters
    ----------
    result : BayesFriedmanResult
        From :func:`nbstats.bayes_friedman` with three algorithms.
    ax : matplotlib Axes, optional
    width : {"single", "double"}
    n_points : int
        Points on the ellipse.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        For m ≠ 3 algorithms: the region is then an ellipsoid in m − 1
        dimensions, which a plane cannot show.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots.posterior import friedman_posterior
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_friedman(uci[["nbc", "aode", "j48"]])
    >>> ax = friedman_posterior(res)
    >>> ax.get_title().splitlines()[0]
    'reject: the mean ranks differ'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, (BayesFriedmanResult,), "friedman_posterior")
    m = result.n_algorithms
    if m != 3:
        raise ValueError(
            f"friedman_posterior is a teaching picture for m = 3 algorithms (their "
            f"mean ranks live in a plane); got m = {m}. Select three algorithms, "
            f"or read the test from the result's summary."
        )
    if isinstance(n_points, (bool, np.bool_)) or not isinstance(
        n_points, (int, np.integer)
    ):
        raise TypeError(f"n_points must be an int, got {n_points!r}.")
    if n_points < 8:
        raise ValueError(f"n_points must be >= 8, got {n_points}.")
    names = [str(name) for name in result.mean_ranks.index]
    samples = result.samples
    if result.method == "montecarlo" and samples is not None:
        centre = samples[:, :2].mean(axis=0)
        cov = np.cov(samples[:, :2], rowvar=False)
    else:
        centre = result.mean_ranks.to_numpy(dtype=float)[:2]
        cov = result.covariance.to_numpy(dtype=float)[:2, :2]
    lam, vec = np.linalg.eigh((cov + cov.T) / 2)
    t = np.linspace(0.0, 2 * math.pi, int(n_points))
    circle = np.vstack([np.cos(t), np.sin(t)])
    ellipse = centre[:, None] + math.sqrt(result.rho) * (
        vec @ (np.sqrt(np.clip(lam, 0.0, None))[:, None] * circle)
    )
    null = (m + 1) / 2
    level = f"{100 * result.credible_level:g}%"
    mean = result.mean_ranks.to_numpy(dtype=float)

    own = ax is None
    with paper_style():
        _, ax = new_axes(ax, width=width, aspect=1.15)
        if samples is not None:
            shown = samples
            if shown.shape[0] > MAX_POINTS:
                keep = np.linspace(0, shown.shape[0] - 1, MAX_POINTS).astype(np.intp)
                shown = shown[keep]
            ax.scatter(
                shown[:, 0],
                shown[:, 1],
                s=1.5,
                color=MUTED,
                alpha=0.3,
                linewidths=0,
                rasterized=True,
                gid="posterior-samples",
                label="posterior draws",
                zorder=1,
            )
        ax.plot(
            ellipse[0],
            ellipse[1],
            color=ACCENT,
            solid_capstyle="round",  # the closed curve's two ends leave no notch
            gid="credible-region",
            label=f"{level} credible region ({_METHODS[result.method]})",
            zorder=3,
        )
        ax.plot(
            [mean[0]],
            [mean[1]],
            marker="o",
            markersize=4,
            linestyle="none",
            color=ACCENT,
            gid="posterior-mean",
            label=(f"posterior mean ({literal(names[2])}: 6 − x − y = {mean[2]:.2f})"),
            zorder=4,
        )
        ax.plot(
            [null],
            [null],
            marker="X",
            markersize=6,
            linestyle="none",
            color=SECOND,
            markeredgecolor=INK,
            markeredgewidth=0.4,
            gid="null-point",
            label="μ0 = (2, 2): no difference",
            zorder=5,
        )
        ax.set_xlabel(f"mean rank of {literal(names[0])} (1 = best)")
        ax.set_ylabel(f"mean rank of {literal(names[1])}")
        ax.set_aspect("equal", adjustable="datalim")
        ax.margins(0.12)
        verdict = (
            "reject: the mean ranks differ"
            if result.reject
            else "no evidence that the mean ranks differ"
        )
        where = "outside" if result.reject else "inside"
        ax.set_title(f"{verdict}\nμ0 lies {where} the {level} credible region")
        legend(ax, own)
    return quiet(ax)
