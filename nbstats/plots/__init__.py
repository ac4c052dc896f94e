"""Figures people put in papers. The figure functions import matplotlib when
first used.

Every function takes ``ax=None`` (a new figure sized for a paper's column
otherwise, grown with the number of algorithms and the length of their
names; the CD diagram also at a venue's exact column or text width,
``width="ieee"``, and :func:`venue_figures` writes its paste-ready files),
draws in :func:`paper_style` and returns its one matplotlib Axes, as
pandas' and seaborn's single-Axes plots do; so do the results' ``.plot()``
methods, which call these functions. In a notebook, a cell ending in such a
call shows the figure and no ``<Axes: …>`` line (see
:func:`nbstats.plots._common.quiet`). :func:`save` takes that Axes, its
figure, or an array of Axes.
"""

from typing import TYPE_CHECKING

from nbstats.util.lazy import lazy_attributes

#: Public name -> the module that defines it; imported on first use (PEP 562),
#: so that ``nbstats.plots.style`` (colours, a dashboard's only need) does not
#: load every figure module and matplotlib with it.
_LAZY = {
    "PALETTE": "nbstats.plots.style",
    "WIDTHS": "nbstats.plots.style",
    "cd_diagram": "nbstats.plots.cd",
    "cd_key_latex": "nbstats.plots.tikz",
    "cd_tikz": "nbstats.plots.tikz",
    "comparison_matrix_plot": "nbstats.plots.comparison",
    "correlated_posterior": "nbstats.plots.student",
    "figure_of": "nbstats.plots.style",
    "friedman_posterior": "nbstats.plots.friedman",
    "hierarchical_datasets": "nbstats.plots.hierarchical",
    "hierarchical_simplex": "nbstats.plots.hierarchical",
    "legend_texts": "nbstats.plots._common",
    "literal": "nbstats.plots.style",
    "new_axes": "nbstats.plots.style",
    "pairwise_heatmap": "nbstats.plots.pairwise",
    "paper_style": "nbstats.plots.style",
    "plackett_luce": "nbstats.plots.plackett_luce_figure",
    "race_trace": "nbstats.plots.race",
    "rank_intervals": "nbstats.plots.ranks",
    "rope_probabilities": "nbstats.plots.rope",
    "save": "nbstats.plots.style",
    "sign_posterior": "nbstats.plots.sign",
    "signrank_posterior": "nbstats.plots.posterior",
    "venue_figures": "nbstats.plots.venue_files",
}

if TYPE_CHECKING:  # static analysers and IDEs see the eager imports
    from nbstats.plots._common import legend_texts
    from nbstats.plots.cd import cd_diagram
    from nbstats.plots.comparison import comparison_matrix_plot
    from nbstats.plots.friedman import friedman_posterior
    from nbstats.plots.hierarchical import hierarchical_datasets, hierarchical_simplex
    from nbstats.plots.pairwise import pairwise_heatmap
    from nbstats.plots.plackett_luce_figure import plackett_luce
    from nbstats.plots.posterior import signrank_posterior
    from nbstats.plots.race import race_trace
    from nbstats.plots.ranks import rank_intervals
    from nbstats.plots.rope import rope_probabilities
    from nbstats.plots.sign import sign_posterior
    from nbstats.plots.student import correlated_posterior
    from nbstats.plots.style import (
        PALETTE,
        WIDTHS,
        figure_of,
        literal,
        new_axes,
        paper_style,
        save,
    )
    from nbstats.plots.tikz import cd_key_latex, cd_tikz
    from nbstats.plots.venue_files import venue_figures

__all__ = [
    "PALETTE",
    "WIDTHS",
    "cd_diagram",
    "cd_key_latex",
    "cd_tikz",
    "comparison_matrix_plot",
    "correlated_posterior",
    "figure_of",
    "friedman_posterior",
    "hierarchical_datasets",
    "hierarchical_simplex",
    "legend_texts",
    "literal",
    "new_axes",
    "pairwise_heatmap",
    "paper_style",
    "plackett_luce",
    "race_trace",
    "rank_intervals",
    "rope_probabilities",
    "save",
    "sign_posterior",
    "signrank_posterior",
    "venue_figures",
]


__getattr__, __dir__ = lazy_attributes("nbstats.plots", _LAZY, globals())
