"""One signed-rank posterior's draws and counts, summarised into its result.

:func:`summarise` turns the ten counts of :mod:`nbstats.stats.bayes.signrank.bounds`
and θ's draws into a :class:`~nbstats.results.bayes.BayesSignedRankResult`:
each region's lower and upper probability, the decision on those bounds
(:func:`~nbstats.stats.bayes.decision.decide`), the credible interval, the
exact posterior means and the Monte Carlo error.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.stats.bayes.decision import decide
from nbstats.stats.bayes.signrank.bounds import bounds_of_counts, mirror_counts
from nbstats.stats.bayes.signrank.sums import mc_error

__all__ = ["credible_interval", "mirror_draws", "summarise"]


class Summarised(Protocol):
    """What :func:`summarise` reads of a
    :class:`~nbstats.stats.bayes.signrank.posterior.SignedRankPosterior`."""

    z: np.ndarray
    prior: str
    z0: float
    rope: float
    mirrored: bool

    def means(self, s: float) -> tuple[float, float]: ...


def summarise(
    posterior: Summarised,
    out: dict[str, np.ndarray],
    counts: np.ndarray,
    *,
    s: float,
    threshold: float,
    names: tuple[str, str],
    interval: bool,
    keep_regions: bool,
    method: str,
) -> BayesSignedRankResult:
    """The result from θ's (and the regions') draws and the ten counts of
    :mod:`~nbstats.stats.bayes.signrank.bounds` in the canonical orientation; mirrored
    for the caller's when ``posterior.mirrored``.

    Under IDP every probability is reported as its lower and upper bound over
    the prior set; ``prob_left``, ``prob_rope`` and ``prob_right`` are the
    lower ones, and the decision uses both (see
    :func:`~nbstats.stats.bayes.decision.decide`).
    """
    if posterior.mirrored:
        counts, out = mirror_counts(counts), mirror_draws(out)
    with_rope = posterior.rope > 0
    n_draws = out["theta"].size
    shares = np.asarray(counts, dtype=float) / n_draws
    found = {
        key: float(value[0])
        for key, value in bounds_of_counts(shares, with_rope=with_rope).items()
    }
    # as the pairs' table (decide_many): left and right rounded to 15 decimals
    lower = (
        round(found["left_lower"], 15),
        found["rope_lower"] if with_rope else None,
        round(found["right_lower"], 15),
    )
    upper = (
        round(found["left_upper"], 15),
        found["rope_upper"] if with_rope else None,
        round(found["right_upper"], 15),
    )
    theta = out["theta"]
    theta_upper = out.get("theta_upper", theta)
    regions = None
    if with_rope and keep_regions:  # for plots; a matrix needs only the shares
        left, right = out["left"], out["right"]
        regions = np.column_stack([left, 1 - left - right, right])
    if interval:
        low, high = credible_interval(theta, theta_upper, threshold)
    else:
        low = high = float("nan")
    mean_lower, mean_upper = posterior.means(s)
    rope_lower = found["rope_lower"] if with_rope else None
    rope_upper = found["rope_upper"] if with_rope else None
    return BayesSignedRankResult(
        prior=posterior.prior,
        prob_left=found["left_lower"],
        prob_rope=rope_lower,
        prob_right=found["right_lower"],
        prob_lower=found["right_lower"],
        prob_upper=found["right_upper"],
        posterior_mean=mean_lower if posterior.prior != "idp" else float("nan"),
        posterior_mean_lower=mean_lower,
        posterior_mean_upper=mean_upper,
        samples=theta,
        samples_lower=theta,
        samples_upper=theta_upper,
        region_samples=regions,
        threshold=threshold,
        decision=decide(*lower, threshold, upper=upper),
        credible_interval=(low, high),
        differs=bool(low > 0.5 or high < 0.5),
        s=s,
        prior_at=posterior.z0,
        rope=posterior.rope,
        n_cases=int(np.asarray(posterior.z).size),
        name_a=names[0],
        name_b=names[1],
        n_samples=int(n_draws),
        mc_error=mc_error(
            [found[key] for key in sorted(found) if not np.isnan(found[key])],
            n_draws,
        ),
        method=method,
        prob_left_lower=found["left_lower"],
        prob_left_upper=found["left_upper"],
        prob_rope_lower=rope_lower,
        prob_rope_upper=rope_upper,
        prob_right_lower=found["right_lower"],
        prob_right_upper=found["right_upper"],
    )


def credible_interval(
    theta: np.ndarray, theta_upper: np.ndarray, threshold: float
) -> tuple[float, float]:
    """The two-sided credible interval at level ``threshold``: from the lower
    posterior's draws ``theta`` and the upper one's (the same array for a
    single prior).

    Examples
    --------
    >>> theta = np.linspace(0, 1, 101)
    >>> credible_interval(theta, theta, 0.9)
    (0.05, 0.95)
    """
    tail = (1 - threshold) / 2
    if theta_upper is theta:  # one partition for both ends
        low, high = (float(q) for q in np.quantile(theta, [tail, 1 - tail]))
        return low, high
    return float(np.quantile(theta, tail)), float(np.quantile(theta_upper, 1 - tail))


def mirror_draws(out: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The draws of :meth:`SignedRankPosterior.combine` for the mirrored pair.

    Examples
    --------
    >>> draws = {"theta": np.array([0.2]), "theta_upper": np.array([0.3])}
    >>> mirrored = mirror_draws(draws)
    >>> mirrored["theta"].tolist(), mirrored["theta_upper"].tolist()
    ([0.7], [0.8])
    """
    mirrored = {"theta": 1.0 - out.get("theta_upper", out["theta"])}
    if "theta_upper" in out:
        mirrored["theta_upper"] = 1.0 - out["theta"]
    if "left" in out:
        mirrored["left"] = out.get("right_upper", out["right"])
        mirrored["right"] = out.get("left_upper", out["left"])
        if "left_upper" in out:
            mirrored["left_upper"] = out["right"]
            mirrored["right_upper"] = out["left"]
    return mirrored
