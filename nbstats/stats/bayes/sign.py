"""Bayesian sign test with the Dirichlet process (Benavoli et al. 2015, §5.1)."""

from __future__ import annotations

from typing import Literal

import numpy as np

from nbstats.results.bayes import BayesSignTestResult
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.stats.bayes.canonical import flipped
from nbstats.stats.bayes.decision import decide, region_shares, resolve_threshold
from nbstats.stats.bayes.draws import check_n_samples
from nbstats.stats.bayes.priors import check_s
from nbstats.stats.bayes.signrank.sums import mc_error
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import (
    check_choice,
    check_flag,
    check_positive,
    check_random_state,
)
from nbstats.util.random import seed_sequence

__all__ = ["PRIOR_PLACES", "PriorPlace", "bayes_sign_test", "prob_b_better_sign"]

#: Where the sign test's prior pseudo-observation can sit (baycomp's
#: ``SignTest.ROPE``, ``LEFT``, ``RIGHT``).
PRIOR_PLACES = ("rope", "left", "right")
PriorPlace = Literal["rope", "left", "right"]


def bayes_sign_test(
    a: object,
    b: object,
    *,
    s: float = 1.0,
    prior_at: PriorPlace = "rope",
    rope: float = 0.0,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
) -> BayesSignTestResult:
    """Bayesian sign test: posterior probability that b is better than a.

    The prior is a Dirichlet process of strength ``s`` centred on "a = b" (all
    its mass on a tie). The quantity of interest is θ = P(b > a) + ½ P(b = a).

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms.
    s : float
        Prior strength (>= 0). With the prior in the rope and no rope, the
        result does not depend on it (Theorem 2).
    prior_at : {"rope", "left", "right"}
        Where the prior's pseudo-observation of weight s sits: ``"rope"`` (a
        tie, or inside the rope: the 2015 paper's choice, the default),
        ``"left"`` (a case where a is better by more than the rope) or
        ``"right"`` (b better) — baycomp's ``SignTest`` ``prior=(s, LEFT)``,
        ``(s, ROPE)``, ``(s, RIGHT)``. Without a rope, ``"left"`` and
        ``"right"`` give ``P(θ > ½) = 1 - I_½(n_g, n_l + s)`` and
        ``1 - I_½(n_g + s, n_l)`` (closed forms).
    rope : float
        Half-width of the region of practical equivalence. ``0``: the exact
        closed form ``P(θ > ½) = 1 - I_½(n_g, n_l)`` with n_g wins and n_l
        losses of b (no sampling). ``> 0``: cases are counted as wins
        (``b - a > rope``), losses (``< -rope``) or rope; the region
        probabilities (θ_left, θ_rope, θ_right) follow
        ``Dir(n_l, n_rope + s, n_g)`` and (left, rope, right) are the shares
        of posterior draws in which each region is the most probable — the
        definition baycomp's ``SignTest`` uses.
    threshold : float, optional
        Posterior probability needed to prefer b; default ``l1 / (l0 + l1)``.
    loss : (l0, l1)
        Losses of a Type II and a Type I error; (1, 19) gives 0.95.
    n_samples : int
        Posterior draws of θ (for the credible interval, ``prob_equivalent``
        and plots; and for the rope probabilities).
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or Generator
        Seed of the posterior draws. ``None`` takes fresh entropy from the
        operating system: with a rope (sampled probabilities) two calls then
        give slightly different numbers, within the ``mc_error`` they
        report; give an int to reproduce them.

    Returns
    -------
    BayesSignTestResult
        With ``n_samples`` and ``mc_error``: the Monte Carlo standard error
        of the rope's sampled probabilities (0 without a rope, where the
        probabilities are exact and the draws serve the credible interval
        only). There is one prior (strength ``s`` at ``prior_at``), so each
        probability is one number, and ``decision`` is the region whose
        probability exceeds ``threshold`` (see
        :func:`~nbstats.stats.bayes.decision.decide`). ``cases``: the labels
        of the cases used (``a``'s index, else positions): every case where
        both have a score, ties and differences within the rope included
        (they count toward "a = b").

    Notes
    -----
    Draws use common random numbers: Dirichlet components are
    ``gammaincinv(α_k, u_k)`` of fixed uniforms, so re-running with another
    ``s`` and the same ``random_state`` moves every draw smoothly.

    Memory: three Dirichlet components per draw (left, tied, right counts),
    so a few arrays of ``n_samples`` values whatever the number of cases —
    far below the ceiling of :mod:`nbstats.util.memory`, which the
    other Bayesian tests work within.

    Examples
    --------
    >>> import nbstats
    >>> t2 = nbstats.datasets.load("demsar2006_table2")
    >>> res = nbstats.bayes_sign_test(t2["C4.5"], t2["C4.5+m"], random_state=0)
    >>> round(res.prob_right, 4)  # 10 wins, 2 losses: P(Beta(10, 2) > 1/2)
    0.9941

    Compare with the Beta distribution of Theorem 2 in SciPy:

    >>> from scipy.stats import beta
    >>> round(float(beta.sf(0.5, 10, 2)), 4)
    0.9941
    """
    s = check_s(s, allow_zero=True)
    check_choice("prior_at", prior_at, PRIOR_PLACES)
    rope = check_positive("rope", rope, allow_zero=True)
    threshold = resolve_threshold(threshold, loss)
    n_samples = check_n_samples(n_samples)
    check_flag("higher_is_better", higher_is_better)
    check_random_state(random_state)
    d, name_a, name_b, cases = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    rng = np.random.default_rng(seed_sequence(random_state))
    uniforms = rng.random((3, n_samples))
    # drawn in the pair's canonical orientation (canonical.py) and mirrored
    # back for (b, a): swapping a and b swaps left and right exactly
    flip = flipped(d, name_a, name_b)
    if flip:
        d = -d

    # the prior's weight s on one of (rope, right, left), in drawn orientation
    place = {"rope": "rope", "left": "right", "right": "left"}[prior_at]
    extra = {p: s * (p == (place if flip else prior_at)) for p in PRIOR_PLACES}
    wins0, losses0 = int((d > 0).sum()), int((d < 0).sum())
    ties0 = d.size - wins0 - losses0
    theta_t, theta_g, theta_l = _dirichlet_crn(
        (ties0 + extra["rope"], wins0 + extra["right"], losses0 + extra["left"]),
        uniforms,
    )
    samples = 0.5 * theta_t + (theta_l if flip else theta_g)

    if rope == 0:
        wins, losses, ties = wins0, losses0, ties0
        # θ > ½ ⟺ θ_g > θ_l, and θ_g / (θ_g + θ_l) is Beta(wins, losses)
        # with the prior's weight on its side (Theorem 2 for the rope)
        right_weight, left_weight = wins + extra["right"], losses + extra["left"]
        prob_right = prob_b_better_sign(right_weight, left_weight)
        prob_left = prob_b_better_sign(left_weight, right_weight)
        prob_rope = None
        region_samples = None
    else:
        wins, losses = int((d > rope).sum()), int((d < -rope).sum())
        ties = d.size - wins - losses
        in_rope, right, left = _dirichlet_crn(
            (ties + extra["rope"], wins + extra["right"], losses + extra["left"]),
            uniforms,
        )
        prob_left, prob_rope, prob_right = (
            float(p) for p in region_shares(left, in_rope, right)
        )
        if flip:
            left, right = right, left
        region_samples = np.column_stack([left, in_rope, right])
    if flip:
        prob_left, prob_right, wins, losses = prob_right, prob_left, losses, wins

    tail = (1 - threshold) / 2
    low, high = np.quantile(samples, [tail, 1 - tail])
    return BayesSignTestResult(
        prob_left=prob_left,
        prob_rope=prob_rope,
        prob_right=prob_right,
        wins=wins,
        losses=losses,
        n_ties=ties,
        samples=samples,
        region_samples=region_samples,
        s=s,
        rope=rope,
        threshold=threshold,
        decision=decide(prob_left, prob_rope, prob_right, threshold),
        credible_interval=(float(low), float(high)),
        name_a=name_a,
        name_b=name_b,
        prior_at=prior_at,
        cases=cases,
        n_samples=n_samples,
        mc_error=mc_error([prob_left, prob_rope, prob_right], n_samples)
        if rope > 0
        else 0.0,
    )


def prob_b_better_sign(wins: float, losses: float) -> float:
    """Theorem 2 of Benavoli et al. (2015): ``P(θ > ½) = 1 - I_½(n_g, n_l)``.

    Ties do not enter (nor does s, in the rope). No wins: 0. Wins but no
    losses: 1. Non-integer counts carry a prior's weight on one side.

    Examples
    --------
    >>> prob_b_better_sign(3, 3)
    0.5
    """
    if wins == 0:
        return 0.0
    if losses == 0:
        return 1.0
    return float(sps.beta.sf(0.5, wins, losses))


def _dirichlet_crn(
    alphas: tuple[float, ...], uniforms: np.ndarray
) -> tuple[np.ndarray, ...]:
    """Dirichlet draws as normalised ``Gamma(α_k) = gammaincinv(α_k, u_k)``.

    A zero parameter gives a component that is exactly 0.
    """
    # scipy.special (~70 modules) loads on first use, not with ``import nbstats``
    from scipy.special import gammaincinv

    gammas = np.array(
        [
            gammaincinv(alpha, u) if alpha > 0 else np.zeros_like(u)
            for alpha, u in zip(alphas, uniforms, strict=True)
        ]
    )
    total = gammas.sum(axis=0)
    total[total == 0] = 1.0  # every parameter zero: all components stay 0
    return tuple(gammas / total)
