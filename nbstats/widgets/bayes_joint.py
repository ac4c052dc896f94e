"""The dashboard's joint statements (Benavoli et al. 2015, §5.3, sign test).

As :func:`nbstats.bayes_posthoc` (``test="sign"``): the statement of each
pair is its more probable direction (exact marginals, Theorem 2 of the 2015
paper), statements are sorted by that probability, and a statement is
accepted while it and every statement above it hold together with
probability > 1 − γ. The s-independent part of every draw (the sign-test
sums ``E @ H``) is computed once; a new s re-evaluates them in one compiled
pass (:func:`~nbstats.stats.bayes.summary_kernel.joint_counts`), γ only
compares.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.stats.bayes.posthoc import cap_joint
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.sign import prob_b_better_sign
from nbstats.stats.bayes.summary_kernel import joint_counts
from nbstats.stats.bayes.weights import DirichletWeights

__all__ = ["JointStatements"]

# θ within this distance of ½ counts as exactly ½ (as bayes_posthoc)
_HALF_TOLERANCE = 1e-12


class JointStatements:
    """The sign-test statements of every pair, on the dashboard's draws.

    Parameters
    ----------
    diffs : ndarray
        n cases × K pairs of oriented differences (b − a > 0: b better).
    pairs : list of (int, int)
        The K pairs (a, b) as column indices.
    names : list of str
        The algorithms' names.
    draws : DirichletWeights
    gammas : SharedPrior

    Examples
    --------
    >>> from nbstats.stats.bayes.weights import DirichletWeights
    >>> diffs = np.array([[0.1], [0.2], [0.3], [-0.1]])
    >>> joint = JointStatements(diffs, [(0, 1)], ["a", "b"],
    ...                         DirichletWeights(4, 1000, 0), SharedPrior())
    >>> joint.table(1.0, 0.05)[["better", "worse"]].values.tolist()
    [['b', 'a']]
    """

    def __init__(
        self,
        diffs: np.ndarray,
        pairs: list[tuple[int, int]],
        names: list[str],
        draws: DirichletWeights,
        gammas: SharedPrior,
    ) -> None:
        self.pairs = pairs
        self.names = names
        self.draws = draws
        self.gammas = gammas
        indicators = np.heaviside(diffs, 0.5)  # n × K
        wins = (diffs > 0).sum(axis=0)
        losses = (diffs < 0).sum(axis=0)
        # few distinct (wins, losses): each Beta tail once
        memo: dict[tuple[int, int], float] = {}

        def prob(w: int, lo: int) -> float:
            if (w, lo) not in memo:
                memo[w, lo] = prob_b_better_sign(w, lo)
            return memo[w, lo]

        second = np.array(
            [prob(int(w), int(lo)) for w, lo in zip(wins, losses, strict=True)]
        )
        first = np.array(
            [prob(int(lo), int(w)) for w, lo in zip(wins, losses, strict=True)]
        )
        second_better = second >= first
        self.statement_prob = np.where(second_better, second, first)
        self.order = np.argsort(-self.statement_prob, kind="stable")
        self.second_better = second_better
        self._sorted_second = second_better[self.order]
        rows, k = draws.n_samples, indicators.shape[1]
        self._events = np.empty((rows, k))
        self._event_total = np.empty(rows)
        self.uniforms = np.empty(rows)
        # in the statements' order, written in place: no m²-wide temporaries
        ordered = np.ascontiguousarray(indicators[:, self.order])
        for chunk in draws:
            e = chunk.exponentials
            np.matmul(e, ordered, out=self._events[chunk.rows])
            self._event_total[chunk.rows] = e.sum(axis=1)
            self.uniforms[chunk.rows] = chunk.uniforms
        pair_index = np.asarray(pairs, dtype=int).reshape(-1, 2)
        better = np.where(second_better, pair_index[:, 1], pair_index[:, 0])
        worse = np.where(second_better, pair_index[:, 0], pair_index[:, 1])
        labels = np.asarray(names, dtype=object)
        self._better = labels[better[self.order]]
        self._worse = labels[worse[self.order]]
        self._state: tuple[float, np.ndarray] | None = None

    def joint(self, s: float) -> np.ndarray:
        """P(this statement and all above hold), in the sorted order."""
        if self._state is None or self._state[0] != s:
            g0 = self.gammas(s, self.uniforms)
            # θ = (E h + ½ g0) / (g0 + Σ e) per statement: the prior's mass
            # sits on "equal"; compiled, a draw stops at its first failure
            counts = joint_counts(
                self._events,
                self._event_total,
                np.asarray(g0, dtype=float),
                self._sorted_second,
                _HALF_TOLERANCE,
            )
            marginals = np.asarray(self.statement_prob)[self.order]
            self._state = (s, cap_joint(counts / self.draws.n_samples, marginals))
        return self._state[1]

    def table(self, s: float, gamma: float) -> pd.DataFrame:
        """Statements by probability; joint = all up to here hold (2015, §5.3)."""
        joint = self.joint(s)
        return pd.DataFrame(
            {
                "better": self._better.astype(object),
                "worse": self._worse.astype(object),
                "prob": self.statement_prob[self.order].astype(float),
                "joint": joint.astype(float),
                "accepted": joint > 1 - gamma,
            }
        )

    def __repr__(self) -> str:  # pragma: no cover - for debugging
        return f"JointStatements({len(self.pairs)} statements)"
