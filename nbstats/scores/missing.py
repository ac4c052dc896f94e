"""Missing cells compared pair by pair: ``nan_policy="pairwise"``.

A score table with missing cells can be analysed two ways. ``"omit"`` drops
every case with a missing score, so that all algorithms are compared on the
same cases; that is what rank-based tests need (Friedman, Nemenyi, the CD
diagram, rank intervals, the Bayesian Friedman and joint tests). A test of
one pair needs only the cases where *both* algorithms have a score;
``"pairwise"`` gives each pair those cases, so that a cell missing for one
algorithm does not discard the case for every other pair. The methods that
accept it (``posthoc`` with a pairwise test, ``bayes_signrank_pairs``) report
how many cases each pair used.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.scores.ranks import rank_rows
from nbstats.scores.table import incomplete_table

__all__ = ["observed_mean_ranks", "pair_cases", "pairwise_counts", "pairwise_table"]

#: The smallest number of shared cases a pair needs to be tested.
MIN_PAIR_CASES = 2


def pairwise_table(data: pd.DataFrame | np.ndarray) -> pd.DataFrame:
    """Validate a wide score table, keeping its missing cells.

    Everything :func:`nbstats.score_table` checks is checked (names, numbers,
    finite values); missing scores are kept as NaN. Every pair of algorithms
    must share at least two cases.

    Parameters
    ----------
    data : DataFrame or 2-D array-like
        Rows = cases, columns = algorithms; NaN marks a missing score.

    Returns
    -------
    DataFrame
        A new float64 table with NaN where a score is missing.

    Raises
    ------
    ValueError
        A pair of algorithms shares fewer than two cases (the message names the
        pairs), or anything :func:`nbstats.score_table` refuses.

    Examples
    --------
    >>> import numpy as np
    >>> from nbstats.scores.missing import pairwise_table
    >>> pairwise_table([[0.9, 0.8, np.nan], [0.7, np.nan, 0.6],
    ...                 [0.5, 0.4, 0.3], [0.8, 0.6, 0.7]]).shape
    (4, 3)
    """
    table = incomplete_table(data)
    counts = pairwise_counts(table).to_numpy()
    rows, cols = np.triu_indices(table.shape[1], k=1)
    short = counts[rows, cols] < MIN_PAIR_CASES
    if short.any():
        names = list(table.columns)
        shown = [
            f"({names[i]!r}, {names[j]!r}): {counts[i, j]}"
            for i, j in zip(rows[short][:8], cols[short][:8], strict=True)
        ]
        more = int(short.sum()) - len(shown)
        raise ValueError(
            f"nan_policy='pairwise' needs every pair of algorithms to share at "
            f"least {MIN_PAIR_CASES} cases with both scores; shared cases "
            + ", ".join(shown)
            + (f" and {more} more pairs" if more > 0 else "")
            + ". Drop the algorithms with too few scores, or fill the cells."
        )
    return table


def pairwise_counts(table: pd.DataFrame) -> pd.DataFrame:
    """How many cases each pair of algorithms shares (both scores present).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from nbstats.scores.missing import pairwise_counts
    >>> t = pd.DataFrame({"A": [1.0, 2, 3], "B": [1.0, np.nan, 2],
    ...                   "C": [np.nan, 1.0, 2]})
    >>> pairwise_counts(t)
       A  B  C
    A  3  2  2
    B  2  2  1
    C  2  1  2
    """
    present = table.notna().to_numpy().astype(np.int64)
    counts = present.T @ present
    return pd.DataFrame(
        counts, index=table.columns.copy(), columns=table.columns.copy()
    )


def pair_cases(values: np.ndarray, i: int, j: int) -> np.ndarray:
    """Mask of the rows where columns i and j both have a score."""
    return ~(np.isnan(values[:, i]) | np.isnan(values[:, j]))


def observed_mean_ranks(
    table: pd.DataFrame, *, higher_is_better: bool = True
) -> pd.Series:
    """Mean ranks over incomplete cases, each case ranked among its scores.

    A case with k of the m algorithms is ranked 1..k among those k, and the
    ranks are stretched linearly onto 1..m, ``1 + (r - 1)(m - 1)/(k - 1)``,
    so that a case's best and worst count the same whatever k is; cases
    with fewer than two scores are left out. On a complete table these are
    the usual mean ranks. They order the algorithms for display only: no
    test uses them.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from nbstats.scores.missing import observed_mean_ranks
    >>> t = pd.DataFrame({"A": [3.0, 2, 1], "B": [2.0, np.nan, 3],
    ...                   "C": [1.0, 1, 2]})
    >>> observed_mean_ranks(t).round(3).tolist()
    [1.667, 1.5, 2.667]
    """
    values = table.to_numpy(dtype=float)
    m = values.shape[1]
    present = ~np.isnan(values)
    observed = present.sum(axis=1)
    total = np.zeros(m)
    count = np.zeros(m)
    for k in np.unique(observed[observed >= 2]):
        rows = observed == k
        # rows with the same k are ranked together, their missing cells as
        # the worst scores, so that the k scores take ranks 1..k
        block = values[rows]
        mask = present[rows]
        filled = np.where(mask, block, -np.inf if higher_is_better else np.inf)
        ranks = rank_rows(filled, higher_is_better=higher_is_better)
        stretched = 1 + (ranks - 1) * (m - 1) / (k - 1)
        total += np.where(mask, stretched, 0).sum(axis=0)
        count += mask.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = total / count
    return pd.Series(means, index=table.columns.copy(), name="mean rank")
