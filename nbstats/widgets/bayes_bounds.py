"""The pair matrix's exact near-ignorance bounds as work shown later.

Under the near-ignorance prior (IDP) with a rope, each pair's lower and
upper probabilities are counted at every placement of the prior's
pseudo-observation (:mod:`nbstats.stats.bayes.signrank.placements`). At a
small s a quick check settles almost every draw; at a large s almost none
is, and at 50 algorithms the count takes a few hundred milliseconds. Then
the dashboard shows its other views at once, marks the matrix as updating,
and :class:`PairBounds` counts in a background thread
(:class:`~nbstats.widgets.late_work.LateRunner`); the matrix follows, with
the same numbers as when counted at once.
"""

from __future__ import annotations

from nbstats.widgets.bayes_pairs import PairPosteriors

__all__ = ["PairBounds"]


class PairBounds:
    """The exact IDP bounds of every pair of ``engine``, as a
    :class:`~nbstats.widgets.late_work.LateWork`: ``ready`` when quick
    (:meth:`PairPosteriors.idp_bounds_quick`), ``table`` counts and keeps
    them (:meth:`PairPosteriors.count_idp_bounds`); the matrix then reads
    them from the engine.

    Examples
    --------
    >>> import numpy as np
    >>> from nbstats.stats.bayes.shared_prior import SharedPrior
    >>> from nbstats.stats.bayes.weights import DirichletWeights
    >>> diffs = np.array([[0.1, 0.2], [0.3, -0.1], [-0.05, 0.4]])
    >>> engine = PairPosteriors(diffs, DirichletWeights(3, 2000, 0), SharedPrior())
    >>> bounds = PairBounds(engine)
    >>> bounds.ready(2.0, 0.05, "idp"), bounds.table(2.0, 0.95, 0.05, "idp")
    (True, True)
    """

    def __init__(self, engine: PairPosteriors) -> None:
        self.engine = engine

    def ready(self, s: float, rope: float, *prior: str) -> bool:
        """Whether the bounds at (s, rope) are quick to have."""
        return self.engine.idp_bounds_quick(s, rope)

    def table(self, s: float, threshold: float, rope: float, *prior: str) -> bool:
        """Count the bounds at (s, rope) and keep them in the engine; False
        if a newer rope overwrote the sums first (nothing kept). The
        threshold decides nothing here: the matrix applies it."""
        return self.engine.count_idp_bounds(s, rope)
