"""The prior's weight in many posteriors that share the same draws.

Posteriors on the same :class:`~nbstats.stats.bayes.weights.DirichletWeights`
(every pair of a score table, a dashboard's pairs and joint statements) need
the same Gamma(s) quantiles of the same uniforms — ``gammaincinv`` is costly
on a slider's time scale — and the same per-draw normalisation.
:class:`SharedPrior` computes both once per s.
"""

from __future__ import annotations

import threading

import numpy as np

from nbstats.stats.bayes.weights import gamma_quantile
from nbstats.util.recent import Recent

__all__ = ["SharedPrior"]


class SharedPrior:
    """Memo of ``Gamma(s)`` quantiles and prior terms for the last few s.

    Pass it as ``prior_gammas`` to every
    :class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior` on the same
    draws, and set :attr:`uniforms` and :attr:`total` to the shared arrays
    of their components; other arrays are computed, not memoised.

    Examples
    --------
    >>> u = np.array([0.1, 0.5, 0.9])
    >>> memo = SharedPrior()
    >>> memo.uniforms = u
    >>> memo(1.0, u) is memo(1.0, u)  # computed once
    True
    """

    def __init__(self, size: int = 8) -> None:
        self.uniforms: np.ndarray | None = None
        self.total: np.ndarray | None = None
        self._values: Recent[np.ndarray] = Recent(size)
        self._terms: Recent[tuple[np.ndarray, ...]] = Recent(size)
        # the sets of cases of a pairs table may be evaluated in two threads
        # (bayes_signrank_pairs), each asking for the same quantiles
        self._lock = threading.RLock()

    def __call__(self, s: float, uniforms: np.ndarray) -> np.ndarray:
        """Gamma(s) quantiles of ``uniforms``."""
        if uniforms is not self.uniforms:
            return gamma_quantile(s, uniforms)
        key = float(s)
        with self._lock:
            found = self._values.get(key)
            if found is None:
                found = gamma_quantile(key, uniforms)
                found.flags.writeable = False
                self._values.put(key, found)
            return found

    def terms(
        self, s: float, uniforms: np.ndarray, total: np.ndarray
    ) -> tuple[np.ndarray, ...]:
        """:func:`~nbstats.stats.bayes.signrank.summary_kernel.prior_terms` for s."""
        from nbstats.stats.bayes.signrank.summary_kernel import prior_terms

        if uniforms is not self.uniforms or total is not self.total:
            return prior_terms(self(s, uniforms), total)
        key = float(s)
        with self._lock:
            found = self._terms.get(key)
            if found is None:
                found = prior_terms(self(key, uniforms), total)
                for array in found:
                    array.flags.writeable = False
                self._terms.put(key, found)
            return found
