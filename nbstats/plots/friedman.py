"""Posterior of the Bayesian Friedman test for three algorithms (a teaching picture)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from nbstats.plots._common import MAX_POINTS, fit_texts, legend, quiet, require
from nbstats.plots.style import (
    ACCENT,
    INK,
    MUTED,
    SECOND,
    literal,
    new_axes,
    paper_style,
)

__all__ = ["friedman_posterior"]

_METHODS = {"ellipsoid": "ellipsoid", "montecarlo": "Monte Carlo"}


def friedman_posterior(
    result: Any,
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
    >>> from nbstats.plots.friedman import friedman_posterior
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_friedman(uci[["nbc", "aode", "j48"]])
    >>> ax = friedman_posterior(res)
    >>> ax.get_title().splitlines()[0]
    'reject: the mean ranks differ'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, ("bayes_friedman",), "friedman_posterior")
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
    level = f"{100 * result.threshold:g}%"
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
        fit_texts(ax, own)
    return quiet(ax)
