"""The case-dependent sums of signed-rank posteriors: shared draws, exact means.

:func:`shared_components` evaluates the Walsh sums of many
:class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior` on the same draws in
one pass; :func:`posterior_means` gives the exact posterior means of θ;
:func:`mc_error` the Monte Carlo standard error a result reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from nbstats.stats.bayes.signrank.walsh import WalshBatch, WalshPlan
from nbstats.stats.bayes.weights import DirichletWeights, WeightChunk

__all__ = ["WalshPosterior", "mc_error", "posterior_means", "shared_components"]


class WalshPosterior(Protocol):
    """What :func:`shared_components` reads of a posterior: the attributes of
    :class:`~nbstats.stats.bayes.signrank.one_pair.SignedRankPosterior` (named here, not
    imported, since that module imports this one)."""

    prior: str
    _plan: WalshPlan
    _regions: dict[str, Any]
    _points: Any


def mc_error(probabilities: Sequence[float | None], n_draws: int) -> float:
    """Monte Carlo standard error of probabilities estimated from n draws: the
    largest binomial ``√(p (1 − p) / n)`` over ``probabilities`` (None skipped).

    Examples
    --------
    >>> round(mc_error([0.5, 0.9, None], 50_000), 4)
    0.0022
    """
    ps = np.array([p for p in probabilities if p is not None], dtype=float)
    return float(np.sqrt(ps * (1 - ps) / n_draws).max()) if ps.size else 0.0


def shared_components(
    posteriors: Sequence[WalshPosterior],
    draws: DirichletWeights,
    *,
    known_theta: Sequence[dict[str, np.ndarray]] | None = None,
) -> list[dict[str, np.ndarray]]:
    """:meth:`SignedRankPosterior.components` of several posteriors, one pass.

    Each posterior sees the draws exactly as it would alone (the weights in
    its own sorted order), so the output equals one ``components`` call per
    posterior; but each chunk of draws is read once and its prefix sums are
    shared, which makes the pairs of a dashboard several times cheaper. All
    posteriors need the same prior and either all a rope or none (the ropes'
    widths may differ).

    θ does not depend on the rope: ``known_theta`` (for posteriors with a
    rope) are earlier components of the same differences, prior and draws,
    under any rope; their θ sums are shared (the same arrays) and only the
    rope's two regions are computed, a third less work when a dashboard's
    rope moves.

    Examples
    --------
    >>> from nbstats.stats.bayes.signrank.one_pair import SignedRankPosterior
    >>> z = np.array([0.2, -0.1, 0.4, 0.05])
    >>> posteriors = [SignedRankPosterior(z, "bb", 0.0, 0.0),
    ...               SignedRankPosterior(-z, "bb", 0.0, 0.0)]
    >>> draws = DirichletWeights(4, 1000, random_state=0)
    >>> first, second = shared_components(posteriors, draws)
    >>> theta = first["quad_theta"] / first["total"] ** 2  # bb: no prior weight
    >>> round(float(theta.mean()), 2), posterior_means(z, "bb", 0.0)[0]
    (0.8, 0.8)
    """
    head = posteriors[0]
    for other in posteriors[1:]:
        if other.prior != head.prior or list(other._regions) != list(head._regions):
            raise ValueError(
                "shared_components needs the same prior and the same regions (all "
                "with a rope or none) in every posterior."
            )
    keys = list(head._regions)  # θ first
    first = 0
    if known_theta is not None:
        if keys == ["theta"] or len(known_theta) != len(posteriors):
            raise ValueError(
                "known_theta needs posteriors with a rope, one known entry each."
            )
        first = 1
    points = None
    if head.prior == "point":
        points = [p._points[first:] for p in posteriors]
    batch = WalshBatch.build(
        [p._plan for p in posteriors],
        [list(p._regions.values())[first:] for p in posteriors],
        points,
    )
    n = draws.n_samples
    total, uniforms = np.empty(n), np.empty(n)
    # posterior × computed region × draw; the per-region keys are views
    quads = np.empty((len(posteriors), len(keys) - first, n))
    crosses = np.empty_like(quads) if points is not None else None

    def evaluate(chunk: WeightChunk) -> None:
        out = (total, quads, crosses)
        batch.evaluate(chunk.exponentials, out=out, offset=chunk.rows.start)
        uniforms[chunk.rows] = chunk.uniforms

    # at least 64 draws a call (the kernel's lanes): over many cases a chunk
    # holds as few as 16 draws, and each call pads them to 64 and clears
    # three buffers of cases x 64 (100,000 cases: 150 MB a call)
    from nbstats.stats.bayes.signrank.walsh_kernel import LANES

    for chunk in draws.batches(LANES):
        evaluate(chunk)
    outs = []
    for k in range(len(posteriors)):
        out = {"total": total, "uniforms": uniforms}
        if known_theta is not None:  # shared, not copied: θ is the same array
            out["quad_theta"] = known_theta[k]["quad_theta"]
            if crosses is not None:
                out["cross_theta"] = known_theta[k]["cross_theta"]
        for q, key in enumerate(keys[first:]):
            out[f"quad_{key}"] = quads[k, q]
            if crosses is not None:
                out[f"cross_{key}"] = crosses[k, q]
        outs.append(out)
    return outs


def posterior_means(
    z: np.ndarray,
    prior: str,
    s: float,
    z0: float = 0.0,
    *,
    walsh_sum: float | None = None,
) -> tuple[float, float]:
    """Exact posterior means of θ: (lower, upper); equal unless ``prior="idp"``.

    With ``A = Σ_i Σ_j H(z_i + z_j) + Σ_i H(2 z_i)`` and α = s + n, the
    Dirichlet moments give (Benavoli et al. 2014, eqs. 4, 6, 7)

    - bb: ``A / (n (n + 1))``, which equals Wilcoxon's R⁺ / (n(n+1)/2);
    - idp: ``A / (α(α+1))`` and ``(A + s² + 2ns + s) / (α(α+1))``;
    - point at z0: ``(A + 2 s Σ_i H(z0 + z_i) + s(s+1) H(2 z0)) / (α(α+1))``.

    Examples
    --------
    >>> posterior_means(np.array([1.0, 2.0, -0.5]), "bb", 0.0)
    (0.8333333333333334, 0.8333333333333334)
    """
    z = np.asarray(z, dtype=float)
    n = z.size
    if walsh_sum is None:  # A, computed by a caller that already sorted z
        plan = WalshPlan.build(z)
        walsh_sum = plan.count(plan.region(+1)) + float(_heaviside(z).sum())  # H(2z)
    a_sum = walsh_sum
    alpha = s + n
    scale = alpha * (alpha + 1)
    if prior == "idp":
        return a_sum / scale, (a_sum + s * s + 2 * n * s + s) / scale
    if prior == "point":
        extra = 2 * s * _heaviside(z0 / 2 + z / 2).sum() + s * (s + 1) * _heaviside(z0)
        mean = (a_sum + float(extra)) / scale
        return mean, mean
    mean = a_sum / (n * (n + 1))
    return mean, mean


def _heaviside(x: np.ndarray | float) -> np.ndarray:
    return np.heaviside(x, 0.5)
