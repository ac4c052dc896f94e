"""What the Bayesian dashboard builds once per score table: the pairs, their
differences, one set of Dirichlet draws and the engines that share them.

Every pair of algorithms gets its signed-rank posterior from **one** set of
Dirichlet weights (common random numbers, :class:`PairSetup.draws`), so
moving a control never re-rolls Monte Carlo noise. The pair posteriors
(:class:`nbstats.widgets.bayes_pairs.PairPosteriors`) and the joint
statements (:class:`nbstats.widgets.bayes_joint.SignedRankJoint`, on
:func:`nbstats.bayes_posthoc`'s canonical layout of the table, so that both
give the same numbers for the same seed) are made here;
:class:`nbstats.widgets.bayes.BayesDashboard` only reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from nbstats.scores.ranks import oriented, rank_rows
from nbstats.stats.bayes.canonical import canonical_table
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.widgets.bayes_joint import SignedRankJoint
from nbstats.widgets.bayes_pairs import PairPosteriors

__all__ = ["PairSetup", "default_draws", "pair_setup"]

#: Draws for up to this many pairs (10 algorithms) by default ...
FULL_PAIRS = 45
FULL_DRAWS = 50_000
#: ... and at least this many for more pairs (see :func:`default_draws`).
MIN_DRAWS = 5_000


def default_draws(n_algorithms: int) -> int:
    """Posterior draws for a dashboard of ``n_algorithms`` algorithms.

    50,000 draws up to 10 algorithms (45 pairs); beyond, the draws shrink so
    that pairs × draws stays at 45 × 50,000, rounded to thousands, but never
    below 5,000, whose Monte Carlo standard error of a probability is at most
    0.5/√5000 ≈ 0.007 (0.003 near a threshold of 0.95). That keeps every
    control of a 50-algorithm dashboard (1225 pairs) interactive.

    Examples
    --------
    >>> [default_draws(m) for m in (4, 10, 15, 20, 50, 100)]
    [50000, 50000, 21000, 12000, 5000, 5000]
    """
    pairs = n_algorithms * (n_algorithms - 1) // 2
    if pairs <= FULL_PAIRS:
        return FULL_DRAWS
    budget = FULL_PAIRS * FULL_DRAWS / pairs
    return int(max(MIN_DRAWS, 1000 * round(budget / 1000)))


@dataclass
class PairSetup:
    """The dashboard's data, built once (see :func:`pair_setup`).

    Attributes
    ----------
    pairs : list of (int, int)
        Every pair (i, j), i < j, of algorithm columns.
    pair_index : dict
        (i, j) → position in ``pairs``.
    diffs : ndarray
        cases × pairs, > 0 where the pair's second algorithm (b) is better.
    draws : DirichletWeights
        The one set of posterior draws every pair uses.
    gammas : SharedPrior
        The prior's shared pieces (quantiles of the IDP's Gamma weights).
    a_names, b_names : ndarray of str
        The first and second algorithm of each pair.
    engine : PairPosteriors
        Every pair's posterior probabilities from the shared draws.
    joint : SignedRankJoint
        The joint statements of :func:`nbstats.bayes_posthoc` on these draws.
    """

    pairs: list[tuple[int, int]]
    pair_index: dict[tuple[int, int], int]
    diffs: np.ndarray
    draws: DirichletWeights
    gammas: SharedPrior
    a_names: np.ndarray
    b_names: np.ndarray
    engine: PairPosteriors
    joint: SignedRankJoint


def pair_setup(
    table: pd.DataFrame,
    names: list[str],
    *,
    higher_is_better: bool,
    n_samples: int,
    seed: Any,
) -> PairSetup:
    """The pairs, differences, shared draws and engines of a score table.

    Examples
    --------
    >>> import nbstats
    >>> from nbstats.util.random import seed_sequence
    >>> table = nbstats.datasets.load("demsar2006")
    >>> setup = pair_setup(table, list(table.columns), higher_is_better=True,
    ...                    n_samples=1000, seed=seed_sequence(0))
    >>> len(setup.pairs), setup.diffs.shape
    (6, (14, 6))
    """
    n, m = table.shape
    values = oriented(table.to_numpy(), higher_is_better)
    pairs = list(combinations(range(m), 2))
    first, second = [i for i, _ in pairs], [j for _, j in pairs]
    # d > 0 where the second algorithm of the pair (b) is better
    diffs = values[:, second] - values[:, first]
    draws = DirichletWeights(n, n_samples, seed)
    gammas = SharedPrior()
    uniforms = np.empty(n_samples)
    for chunk in draws:
        uniforms[chunk.rows] = chunk.uniforms
    gammas.uniforms = uniforms
    mean_rank = rank_rows(table.to_numpy(), higher_is_better=higher_is_better).mean(
        axis=0
    )
    # the joint statements of bayes_posthoc: its canonical layout of the
    # cases and algorithms, so the same draws on the same cases
    canonical, canonical_names, columns = canonical_table(values, names)
    joint = SignedRankJoint(
        canonical[:, second] - canonical[:, first],
        pairs,
        canonical_names,
        mean_rank[columns],
        n_samples,
        seed,
    )
    labels = np.asarray(names, dtype=object)
    a_names, b_names = labels[first], labels[second]
    engine = PairPosteriors(
        diffs,
        draws,
        gammas,
        {"uniforms": uniforms},
        names=list(zip(a_names, b_names, strict=True)),
    )
    return PairSetup(
        pairs=pairs,
        pair_index={pair: k for k, pair in enumerate(pairs)},
        diffs=diffs,
        draws=draws,
        gammas=gammas,
        a_names=a_names,
        b_names=b_names,
        engine=engine,
        joint=joint,
    )
