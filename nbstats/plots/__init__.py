"""Figures people put in papers. Importing this module imports matplotlib.

Every function takes ``ax=None`` (a new figure sized for a paper's column
otherwise), returns the matplotlib Axes, and draws in :func:`paper_style`.
"""

from nbstats.plots._common import legend_texts
from nbstats.plots.cd import cd_diagram
from nbstats.plots.pairwise import pairwise_heatmap
from nbstats.plots.posterior import (
    friedman_posterior,
    sign_posterior,
    signrank_posterior,
)
from nbstats.plots.race import race_trace
from nbstats.plots.ranks import rank_intervals
from nbstats.plots.rope import rope_probabilities
from nbstats.plots.style import PALETTE, WIDTHS, literal, new_axes, paper_style, save

__all__ = [
    "PALETTE",
    "WIDTHS",
    "cd_diagram",
    "friedman_posterior",
    "legend_texts",
    "literal",
    "new_axes",
    "pairwise_heatmap",
    "paper_style",
    "race_trace",
    "rank_intervals",
    "rope_probabilities",
    "save",
    "sign_posterior",
    "signrank_posterior",
]
