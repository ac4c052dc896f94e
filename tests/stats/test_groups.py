"""Non-significant groups: maximal cliques, bounded when they explode."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.stats.groups import nonsignificant_groups


def _matching(n: int) -> tuple[pd.DataFrame, pd.Series]:
    """Only the pairs (0, 1), (2, 3), … differ: 2^(n/2) maximal groups."""
    names = [f"x{i:02d}" for i in range(n)]
    reject = np.zeros((n, n), dtype=bool)
    for i in range(0, n, 2):
        reject[i, i + 1] = reject[i + 1, i] = True
    ranks = pd.Series(np.arange(1.0, n + 1), index=names)
    return pd.DataFrame(reject, index=names, columns=names), ranks


def test_small_explosion_is_listed_in_full():
    reject, ranks = _matching(10)
    groups = nonsignificant_groups(reject, ranks)
    assert len(groups) == 2**5
    for group in groups:  # no rejected pair inside, and maximal
        assert not any(reject.loc[a, b] for a, b in itertools.combinations(group, 2))
        outside = set(reject.index) - set(group)
        assert all(any(reject.loc[o, g] for g in group) for o in outside)


def test_explosion_falls_back_to_rank_runs_with_a_warning():
    reject, ranks = _matching(60)  # 2^30 maximal groups
    with pytest.warns(UserWarning, match="runs of algorithms consecutive in mean rank"):
        groups = nonsignificant_groups(reject, ranks)
    pairs = [(f"x{i:02d}", f"x{i + 1:02d}") for i in range(1, 59, 2)]
    assert groups == [("x00",), *pairs, ("x59",)]
    covered = {name for g in groups for name in g}
    assert covered == set(reject.index)
    with pytest.raises(ValueError, match="too many to list"):
        nonsignificant_groups(reject, ranks, fallback=False)
    with pytest.raises(ValueError, match="pairwise_heatmap"):
        nbstats.letters(reject, ranks)


def test_a_race_of_200_candidates_stays_small():
    """200 candidates once made 22 GB of groups inside a race step."""

    def evaluate(candidate, instance):
        rng = np.random.default_rng(candidate * 1000 + instance)
        return float(rng.normal(0.5 + 0.0005 * candidate, 0.1))

    res = nbstats.race(
        evaluate, list(range(200)), range(12), method="bayes", first_test=10,
        n_samples=2000, random_state=0, progress=False,
    )  # fmt: skip
    assert 1 <= len(res.survivor_names) <= 200
