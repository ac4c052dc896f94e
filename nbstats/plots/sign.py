"""Posterior of the Bayesian sign test: a Beta density (Benavoli et al. 2015)."""

from __future__ import annotations

from typing import Any

import numpy as np

from nbstats.plots._common import (
    fit_texts,
    legend,
    probability_relation,
    quiet,
    require,
    threshold_line,
)
from nbstats.plots.density import _draw_point_mass, _right_of_half
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.style import (
    ACCENT,
    MUTED,
    SHADE,
    literal,
    new_axes,
    paper_style,
    titles_shown,
)
from nbstats.util import scipy_stats as sps

__all__ = ["sign_posterior"]


def sign_posterior(result: Any, *, ax: Any = None, width: str = "single") -> Any:
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
    >>> from nbstats.plots.sign import sign_posterior
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_sign_test(uci["nbc"], uci["j48"], random_state=0)
    >>> ax = sign_posterior(res)
    >>> from nbstats.plots import legend_texts
    >>> legend_texts(ax)
    ['Beta(30, 22)', 'P(θ′ > ½) = P(θ > ½) = 0.869']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    require(result, ("sign",), "sign_posterior")
    if result.prob_rope is not None:
        return rope_probabilities(result, ax=ax, width=width)
    wins, losses = result.wins, result.losses
    prob_text = f"P(θ′ > ½) = P(θ > ½) {probability_relation(result.prob_right)}"
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
                f"all {result.n_ties} cases tie: θ′ is undefined and θ = ½ "
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
        if titles_shown():  # a report's caption says it instead
            ax.set_title(
                f"{literal(result.name_a)} vs {literal(result.name_b)}: {wins} wins, "
                f"{losses} losses, {result.n_ties} ties\n"
                f"{literal(threshold_line(result))}"
            )
        if wins + losses > 0:
            legend(ax, own)
        fit_texts(ax, own)
    return quiet(ax)
