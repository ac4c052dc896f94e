"""Posterior of the Bayesian correlated t-test: a Student density with its rope."""

from __future__ import annotations

from typing import Any

import numpy as np

from nbstats import _scipy_stats as sps
from nbstats.plots._common import fit_texts, legend, probability_relation, quiet
from nbstats.plots.density import _draw_point_mass
from nbstats.plots.style import (
    ACCENT,
    MUTED,
    SECOND,
    SHADE,
    literal,
    new_axes,
    paper_style,
)

__all__ = ["correlated_posterior"]

_NEEDS = ("mean", "scale", "df", "rope", "prob_left", "prob_right", "name_a", "name_b")


def correlated_posterior(result: Any, *, ax: Any = None, width: str = "single") -> Any:
    """Posterior density of the mean difference μ = b − a (Corani & Benavoli 2015).

    Draws Student's t with ``result.df`` degrees of freedom, location
    ``result.mean`` and scale ``result.scale``; the areas left of −rope and
    right of +rope are shaded in the colours of "a better" and "b better",
    with their probabilities in the legend (and the rope's, when there is
    one). Takes any object with those attributes (e.g. the result of
    :func:`nbstats.bayes_correlated_ttest`).

    Parameters
    ----------
    result : BayesCorrelatedTTestResult or alike
    ax : matplotlib Axes, optional
    width : {"single", "double"}

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.plots import legend_texts
    >>> res = nbstats.bayes_correlated_ttest(
    ...     [0.80, 0.82, 0.79, 0.81, 0.80], [0.82, 0.83, 0.80, 0.84, 0.80],
    ...     rope=0.005, folds=5)
    >>> ax = correlated_posterior(res)
    >>> legend_texts(ax)[0]
    'Student t(4), mean 0.014, scale 0.00765'
    >>> import matplotlib.pyplot as plt
    >>> plt.close(ax.figure)
    """
    missing = [name for name in _NEEDS if not hasattr(result, name)]
    if missing:
        raise TypeError(
            f"correlated_posterior draws a Bayesian correlated t-test (from "
            f"nbstats.bayes_correlated_ttest); {type(result).__name__} has no "
            f"{', '.join(missing)}."
        )
    name_a, name_b = str(result.name_a), str(result.name_b)
    rope, mean, scale, df = (
        float(result.rope),
        float(result.mean),
        float(result.scale),
        result.df,
    )
    left_text = f"P({name_a} better) {probability_relation(result.prob_left)}"
    right_text = f"P({name_b} better) {probability_relation(result.prob_right)}"
    own = ax is None
    with paper_style():
        _, ax = new_axes(ax, width=width, aspect=0.7)
        if rope > 0:
            ax.axvspan(-rope, rope, color=SHADE, alpha=0.35, linewidth=0, gid="rope")
            rope_text = f"P(rope ±{rope:g}) {probability_relation(result.prob_rope)}"
        for edge in (-rope, rope) if rope > 0 else (0.0,):
            ax.axvline(edge, color=MUTED, linestyle=":", linewidth=0.8, zorder=2)
        if scale > 0:
            low, high = sps.t.ppf([0.0005, 0.9995], df, loc=mean, scale=scale)
            low, high = min(low, -1.3 * rope), max(high, 1.3 * rope)
            x = np.linspace(low, high, 801)
            y = sps.t.pdf(x, df, loc=mean, scale=scale)
            ax.plot(
                x,
                y,
                color=ACCENT,
                gid="posterior",
                label=f"Student t({df}), mean {mean:.3g}, scale {scale:.3g}",
            )
            below, above = x <= -rope, x >= rope
            ax.fill_between(
                x[below], y[below], color=SECOND, alpha=0.45, linewidth=0,
                gid="left", label=left_text,
            )  # fmt: skip
            ax.fill_between(
                x[above], y[above], color=ACCENT, alpha=0.3, linewidth=0,
                gid="right", label=right_text,
            )  # fmt: skip
            if rope > 0:
                ax.plot([], [], " ", label=rope_text)
            ax.set_xlim(low, high)
            ax.set_ylim(bottom=0)
            ax.set_ylabel("posterior density")
        else:
            _draw_point_mass(
                ax,
                mean,
                gid="posterior",
                color=ACCENT,
                linestyle="-",
                label=f"every difference equals {mean:g}: all mass there",
            )
            for text in (left_text, right_text) + ((rope_text,) if rope > 0 else ()):
                ax.plot([], [], " ", label=text)
            span = max(abs(mean), rope, 1e-12) * 1.5
            ax.set_xlim(-span, span)
            ax.set_yticks([])
        ax.set_xlabel(
            f"μ: mean difference {literal(name_b)} − {literal(name_a)} (score units)"
        )
        ax.set_title(
            f"{literal(name_a)} vs {literal(name_b)}: Bayesian correlated t-test"
        )
        legend(ax, own)
        fit_texts(ax, own)
    return quiet(ax)
