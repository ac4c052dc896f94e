"""Statistics: numpy and scipy only, no display code."""
