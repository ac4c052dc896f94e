"""Rank intervals with ties: every method covers every position tied
algorithms can take, and every interval holds the algorithm's point rank.

k algorithms with the same scores on every case tie at positions p..p+k−1 of
the mean-rank order (scipy's rankdata with method "min" and "max" gives p and
p+k−1); each of their intervals must contain [p, p+k−1].
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

import nbstats
from nbstats.stats.ranking import RANK_CI_METHODS


def tied_table(seed: int, k: int, m: int = 6, n: int = 12) -> tuple[pd.DataFrame, list]:
    rng = np.random.default_rng(seed)
    base = rng.normal(0.8, 0.05, (n, m)) + np.linspace(0, 0.06, m)
    tied = rng.choice(m, k, replace=False)
    base[:, tied[1:]] = base[:, [tied[0]]]
    names = [f"alg{i}" for i in range(m)]
    return pd.DataFrame(base, columns=names), [names[i] for i in tied]


@pytest.mark.parametrize("method", RANK_CI_METHODS)
@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_intervals_cover_the_positions_of_a_tie(method, k, seed):
    table, tied = tied_table(seed, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. few cases for an exact test
        res = nbstats.rank_ci(table, method=method, n_resamples=300, random_state=seed)
    # the point order: the bootstrap ranks mean scores, the others mean ranks
    key = -table.mean() if method == "bootstrap" else res.mean_ranks
    first = pd.Series(rankdata(key.to_numpy(), method="min"), index=key.index)
    last = pd.Series(rankdata(key.to_numpy(), method="max"), index=key.index)
    # the copies tie (another algorithm may share their mean rank by chance)
    assert (last[tied] - first[tied] >= k - 1).all()
    for name in key.index:
        # every interval holds the algorithm's point position(s)
        assert res.lower[name] <= first[name] <= last[name] <= res.upper[name]
