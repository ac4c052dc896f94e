"""The input model: score tables, their names, folds, missing cells and ranks.

Every statistic reads its data through this package, so every function
refuses the same bad input with the same message:
:mod:`~nbstats.scores.table` validates a table, :mod:`~nbstats.scores.frames`
turns long data and arrays into one, :mod:`~nbstats.scores.folds` checks
per-fold scores, :mod:`~nbstats.scores.names` the names,
:mod:`~nbstats.scores.aliases` gives long names short ones,
:mod:`~nbstats.scores.missing` reads the holes and
:mod:`~nbstats.scores.ranks` ranks the rows.
"""

from __future__ import annotations

from nbstats.scores.folds import fold_summary
from nbstats.scores.ranks import mean_ranks, ranks
from nbstats.scores.table import NanPolicy, score_table

__all__ = ["NanPolicy", "fold_summary", "mean_ranks", "ranks", "score_table"]
