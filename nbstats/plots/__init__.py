"""Figures people put in papers. Importing this module imports matplotlib."""

from nbstats.plots.style import PALETTE, WIDTHS, literal, new_axes, paper_style, save

__all__ = ["PALETTE", "WIDTHS", "literal", "new_axes", "paper_style", "save"]
