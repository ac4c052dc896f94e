"""The dashboard's joint statements (Benavoli et al. 2015, §5.3).

Exactly :func:`nbstats.bayes_posthoc` with ``test="signrank"``, the
dashboard's rope, the s of its pairs and its prior: ``"point"`` (the prior's
pseudo-observation at a zero difference; s = 0 is the Bayesian bootstrap) or
``"idp"`` (lower probabilities over the near-ignorance set and a lower
joint probability, as :func:`nbstats.bayes_posthoc` computes them),
so the statements use the same test, regions and prior set as the pair
matrix beside them, and a pair the matrix calls indeterminate is not
accepted (up to Monte Carlo error: the joint procedure puts the same weight
on the same case in every pair, the matrix each pair's own draws). The
s-independent part of every draw (each pair's Walsh sums and their cross
terms with the pseudo-observation) is computed once per rope; a new s
re-combines them with the prior's Gamma weights, and the threshold only compares.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats.stats.bayes.joint import JointDraws, statement_table
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.recent import Recent

__all__ = ["SignedRankJoint"]

#: Share of the memory ceiling (:mod:`nbstats.util.memory`) the kept
#: per-draw sums may take (154 MiB of the default 512: 45 pairs × 50,000
#: draws with a rope take 72 MB, 1225 pairs × 5,000 draws 98 MB without a
#: rope and 196 MB with one). Beyond, every change of s or rope passes over
#: the draws again, as :func:`nbstats.bayes_posthoc` does: in the
#: background from about 29 algorithms (:data:`BACKGROUND_WORK`); the pair
#: matrix keeps its own sums (:data:`nbstats.widgets.bayes_pairs.CACHE_SHARE`),
#: and the two stay within the ceiling.
KEEP_SHARE = 0.3

#: Share of the memory ceiling a pass over the draws may take at once when
#: the sums are not kept (16 MiB of the default 512, a quarter of what
#: :func:`nbstats.bayes_posthoc` takes): it runs in the background beside
#: the pair matrix's kept sums, and more, smaller batches cost little.
PASS_SHARE = 1 / 32

#: pairs × draws from which a dashboard computes new joint statements in the
#: background (2,000,000: 400 pairs, about 29 algorithms, at 5,000 draws).
#: A new rope needs every pair's sums on every draw again, with the same
#: weight on each case, on top of the pair matrix: too slow to wait for at
#: 50 algorithms, quick below this size (benchmarks/bench_dashboard.py).
BACKGROUND_WORK = 2_000_000

#: Statement tables kept per (s, rope, prior): going back to one of these
#: settings (another prior and back, an s tried before) needs no pass over
#: the draws. A table is a few hundred kB at 1225 pairs.
KEEP_TABLES = 8


class SignedRankJoint:
    """The signed-rank joint statements of every pair, kept for new s.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of oriented differences (b − a > 0: b better).
    pairs : list of (int, int)
        The K pairs (a, b) as column indices.
    names : list of str
        The algorithms' names.
    mean_rank : array-like
        The algorithms' mean ranks (1 = best), to name the better-ranked one
        first in a statement of equivalence.
    n_samples : int
        Posterior draws.
    seed : None, int or SeedSequence
        As ``random_state`` of :func:`nbstats.bayes_posthoc`: with the same
        int seed the statements are that function's, number for number.

    Examples
    --------
    >>> diffs = np.array([[0.1], [0.2], [0.3], [-0.1]])
    >>> joint = SignedRankJoint(diffs, [(0, 1)], ["a", "b"], [2.0, 1.0], 1000, 0)
    >>> joint.table(1.0, 0.05, 0.0)[["better", "worse", "relation"]].values.tolist()
    [['b', 'a', 'better']]
    """

    def __init__(
        self,
        diffs: np.ndarray,
        pairs: list[tuple[int, int]],
        names: list[str],
        mean_rank: Sequence[float],
        n_samples: int,
        seed: object,
    ) -> None:
        self.pairs = pairs
        self.names = names
        self._mean_rank = np.asarray(mean_rank, dtype=float)
        # the draws of bayes_posthoc(test="signrank"): same chunks, same numbers
        self.draws = DirichletWeights(
            diffs.shape[0], n_samples, seed, columns_per_case=len(pairs)
        )
        # its engine, keeping each rope's sums when they fit
        self._engine = JointDraws(
            diffs, self.draws, keep_share=KEEP_SHARE, pass_share=PASS_SHARE
        )
        # (s, rope, prior) → the statements before the threshold's decision
        self._tables: Recent[pd.DataFrame] = Recent(KEEP_TABLES)

    def ready(self, s: float, rope: float, prior: str = "point") -> bool:
        """Whether :meth:`table` for (s, rope, prior) is quick: no pass over
        the draws (settings whose table is kept, or the kept sums of this
        rope re-combined for a new s or prior). IDP with a rope is not quick
        even with the sums kept: its exact lower probabilities count every
        placement of the prior's pseudo-observation on every draw."""
        if (s, rope, prior) in self._tables:
            return True
        return self._engine.kept(rope) and not (prior == "idp" and rope > 0)

    def let_go(self, rope: float) -> None:
        """Let the kept sums go now if ``rope``'s will not be kept
        (:meth:`~nbstats.stats.bayes.joint.JointDraws.let_go`): the pair
        matrix's sums of a new rope are made first, in that memory."""
        self._engine.let_go(rope)

    def table(
        self, s: float, threshold: float, rope: float, prior: str = "point"
    ) -> pd.DataFrame:
        """Statements by probability (``better``, ``worse``, ``relation``,
        ``prob``, ``joint``, ``accepted``), as ``bayes_posthoc(...,
        prior=prior).statements``: under ``prior="idp"`` ``prob`` and
        ``joint`` are lower probabilities over the prior set."""
        if prior not in ("point", "idp"):
            raise ValueError(f"prior must be 'point' or 'idp', got {prior!r}.")
        key = (s, rope, prior)
        statements = self._tables.get(key)
        if statements is None:
            shares, joint_of = self._engine.probabilities(s, rope, prior)
            statements = statement_table(
                shares,
                joint_of,
                self.pairs,
                self.names,
                self._mean_rank,
                threshold=0.5,  # "accepted" is set per threshold below
                rope=rope,
            )
            self._tables.put(key, statements)
        frame = statements.copy()
        frame["accepted"] = frame["joint"] > threshold
        return frame

    def __repr__(self) -> str:  # pragma: no cover - for debugging
        return f"SignedRankJoint({len(self.pairs)} statements)"
