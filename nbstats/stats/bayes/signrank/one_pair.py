"""Bayesian Wilcoxon signed-rank test, Dirichlet process (Benavoli et al. 2014)."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from nbstats.results.bayes import BayesSignedRankResult
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.stats.bayes.decision import resolve_threshold
from nbstats.stats.bayes.draws import check_n_samples
from nbstats.stats.bayes.priors import IDP_DEFAULT_S, check_s
from nbstats.stats.bayes.signrank.blocks import PairBlocks
from nbstats.stats.bayes.signrank.bounds import mirror_counts
from nbstats.stats.bayes.signrank.posterior import (
    Prior,
    SignedRankPosterior,
    canonical_posterior,
    check_prior_place,
)
from nbstats.stats.bayes.signrank.summary import credible_interval, mirror_draws
from nbstats.stats.bayes.signrank.sums import (
    mc_error,
    posterior_means,
    shared_components,
)
from nbstats.stats.bayes.weights import DirichletWeights
from nbstats.util.checks import (
    check_choice,
    check_flag,
    check_positive,
    check_random_state,
)
from nbstats.util.memory import check_fits
from nbstats.util.progress import progress_bar

__all__ = [
    "SignedRankPosterior",
    "bayes_signrank",
    "canonical_posterior",
    "check_options",
    "credible_interval",
    "mc_error",
    "mirror_counts",
    "mirror_draws",
    "monte_carlo_bytes",
    "posterior_means",
    "prior_strength",
    "shared_components",
]

Method = Literal["auto", "montecarlo", "normal"]

#: Above this many cases ``method="auto"`` uses the normal approximation.
NORMAL_CASES = 1000


def bayes_signrank(
    a: object,
    b: object,
    *,
    prior: Prior = "idp",
    s: float | None = None,
    prior_at: float = 0.0,
    rope: float = 0.0,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    method: Method = "auto",
    progress: bool | None = None,
) -> BayesSignedRankResult:
    """Bayesian signed-rank test: posterior probability that b is better than a.

    With ``z = b - a`` and two independent draws Z, Z' of it, the test is about
    θ = P(Z + Z' > 0) + ½ P(Z + Z' = 0), the quantity whose frequentist
    estimate is Wilcoxon's R⁺ / (n(n+1)/2). A posterior draw of the Dirichlet
    process puts weights ``(w_0, w_1, …, w_n) ~ Dir(s, 1, …, 1)`` on the
    prior's pseudo-observation and the n differences, and
    ``θ(w) = Σ_i Σ_j w_i w_j H(z_i + z_j)`` with ``H(0) = ½``.

    Parameters
    ----------
    a, b : array-like or Series
        Paired scores of the two algorithms.
    prior : {"idp", "bb", "point"}
        - ``"idp"``: the near-ignorance model (2014, Theorems 3–4): every prior
          of strength s. Every probability is then an interval over that
          prior set, ``prob_left_lower`` … ``prob_right_upper``: without a
          rope the pseudo-observation at −∞ and +∞ give P(b better)'s
          bounds (``prob_lower``, ``prob_upper``) and P(a better)'s (θ
          grows with the pseudo-observation's place z0, so these are the
          extremes over every z0). With a rope each region's bounds are the
          smallest and the largest over z0 ∈ [−∞, +∞] of its posterior
          probability — the share of the draws in which it is the most
          probable region, with the pseudo-observation at z0 — evaluated
          on the same draws at every placement where one of its pairs
          changes region (exact up to Monte Carlo error;
          :mod:`nbstats.stats.bayes.signrank.placements`). ``method="normal"`` keeps
          an outer bound instead (:mod:`nbstats.stats.bayes.signrank.bounds`).
        - ``"bb"``: the Bayesian bootstrap, s → 0.
        - ``"point"``: one pseudo-observation at ``prior_at`` with weight s — the
          formulation of baycomp and of the authors' tutorial.
    s : float, optional
        Prior strength; default (√17 − 3)/2 for IDP (2014, §3.1), 0.5 for
        ``"point"``; must be left unset for ``"bb"``.
    prior_at : float
        Where the pseudo-observation sits: a difference b − a (``"point"``
        only; the place is called z0 in Benavoli et al. 2014).
    rope : float
        Half-width of the region of practical equivalence. With ``rope > 0``
        the posterior draws give the probabilities that the average of two
        differences is below −rope, inside the rope, above +rope; the
        reported (left, rope, right) are the shares of draws in which each
        region is the most probable, as baycomp reports them.
    threshold : float, optional
        Posterior probability needed to prefer b; default ``l1 / (l0 + l1)``
        from ``loss``. It is the Bayesian analogue of a one-sided test at
        α = ``l0 / (l0 + l1)``, and the level of the two-sided credible
        interval.
    loss : (l0, l1)
        Loss of a Type II error (not declaring b better when it is) and of a
        Type I error (declaring b better when it is not); (1, 19) gives 0.95.
    n_samples : int
        Posterior draws (a warning below 1000).
    higher_is_better : bool
        Whether higher scores are better.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`.
    random_state : None, int or Generator
        Seed of the Monte Carlo draws. ``None`` takes fresh entropy from the
        operating system: two calls then give slightly different numbers
        (within the ``mc_error`` they report); give an int to reproduce
        them. The same seed gives the same draws, and, through common
        random numbers, nearby ``s`` give nearby posteriors.
    method : {"auto", "montecarlo", "normal"}
        ``"montecarlo"`` draws the Dirichlet process: exact up to Monte Carlo
        error, O(n) per draw. ``"normal"`` draws θ (and the rope's regions)
        from the normal approximation of its posterior, O(n log n) in all:
        for many cases, where the posterior is close to normal (see
        :mod:`nbstats.stats.bayes.signrank.normal`; tested against Monte Carlo
        at 1,000–4,000 cases). ``"auto"``: Monte Carlo up to
        :data:`NORMAL_CASES` (1,000) cases, the normal form beyond — 100,000
        cases take a fraction of a second instead of hours.
    progress : bool, optional
        A progress bar over the Monte Carlo draws (``tqdm.auto``), whose time
        grows as n × ``n_samples`` (an explicit ``method="montecarlo"`` over
        100,000 cases takes minutes; the bar says how many): ``None`` shows
        one in a terminal or a notebook when the call lasts more than a
        second, not in scripts whose output is redirected nor under pytest;
        True/False force it. Ctrl-C stops the call between two chunks of
        draws.

    Returns
    -------
    BayesSignedRankResult
        ``prob_left``, ``prob_rope``, ``prob_right``: P(a better), P(rope),
        P(b better) — under IDP the lower bounds, with
        ``prob_*_lower`` / ``prob_*_upper`` the interval of each.
        ``decision`` (see :func:`~nbstats.stats.bayes.decision.decide`), on
        the bounds (one prior: lower = upper):

        - ``"b"`` (b better): lower P(b better) > threshold;
        - ``"a"`` (a better): lower P(a better) > threshold;
        - ``"equivalent"`` (with a rope): lower P(rope) > threshold;
        - ``"undecided"``: every upper probability ≤ threshold (without a
          rope: "undecided: neither b nor a reaches the threshold");
        - ``"indeterminate"`` (IDP only): otherwise — a region passes for
          some priors of the set but not for all.

        ``method``, ``n_samples`` and ``mc_error`` (the Monte Carlo standard
        error of the reported probabilities and bounds) say how precise they
        are. ``cases``: the labels of the ``n`` cases used (``a``'s index,
        else positions): every case where both have a score, zero
        differences included (they are observations of the Dirichlet
        process like any other).

    Notes
    -----
    Each draw costs O(n): z is sorted once and θ(w) is a cumulative sum and a
    gather (see :mod:`nbstats.stats.bayes.signrank.walsh`); no n × n matrix is built,
    and draws are processed in chunks within the memory ceiling of
    :mod:`nbstats.util.memory` (512 MiB by default, configurable).

    The draws do not depend on how the data are laid out: the weights go to
    the sorted differences (not to the rows), and the pair is drawn in one
    canonical orientation (:mod:`nbstats.stats.bayes.canonical`) and
    mirrored when asked the other way round, so ``bayes_signrank(b, a)`` is
    exactly the mirror image of ``bayes_signrank(a, b)`` (left and right
    swap, and so do their bounds; the rope's bounds stay), and
    :func:`nbstats.bayes_signrank_pairs`, the report and the dashboard give
    every pair the same numbers whatever the column order.

    Examples
    --------
    The published figure on the UCI data (nbc vs aode, rope 0.01):

    >>> import nbstats
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank(uci["nbc"], uci["aode"], prior="point",
    ...                              rope=0.01, random_state=0)
    >>> round(res.prob_left, 3), round(res.prob_rope, 2), round(res.prob_right, 2)
    (0.0, 0.12, 0.88)
    """
    s, z0, rope, threshold, n_samples = check_options(
        prior, s, prior_at, rope, threshold, loss, n_samples,
        higher_is_better=higher_is_better, random_state=random_state,
        method=method, progress=progress,
    )  # fmt: skip
    d, name_a, name_b, cases = paired_differences_cases(
        a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
    )
    check_choice("method", method, ("auto", "montecarlo", "normal"))
    result = _signrank(
        d, (name_a, name_b), prior, z0, rope, s, threshold, n_samples,
        random_state, method, progress,
    )  # fmt: skip
    return dataclasses.replace(result, cases=cases)


def _signrank(
    d: Any,
    names: tuple[Any, Any],
    prior: str,
    z0: float,
    rope: float,
    s: float,
    threshold: float,
    n_samples: int,
    random_state: Any,
    method: str,
    progress: Any,
) -> BayesSignedRankResult:
    """:func:`bayes_signrank` on validated differences ``d``."""
    if method == "normal" or (method == "auto" and d.size > NORMAL_CASES):
        posterior = canonical_posterior(d, prior, z0, rope, names)
        return posterior.normal_result(
            n_samples, random_state, s=s, threshold=threshold, names=names
        )
    check_fits(
        monte_carlo_bytes(d.size),
        f"Monte Carlo draws over {d.size:,} cases",
        "use method='normal' (or 'auto'), or raise the ceiling",
    )
    # the engine of the pairs table and the dashboard (pair_blocks): one pair
    # in full on its draws, the same numbers as the table's bit for bit
    draws = DirichletWeights(d.size, n_samples, random_state)
    engine = PairBlocks(draws, prior, z0, rope, s)
    draws.bar = progress_bar(
        progress, n_samples, "bayes_signrank", "draw",
        delay=1.0 if progress is None else 0.0,
    )  # fmt: skip
    try:
        return engine.result(d, names, threshold=threshold)
    finally:
        if draws.bar is not None:
            draws.bar.close()


def monte_carlo_bytes(n: int) -> int:
    """Working memory of the Monte Carlo sums over n cases, whatever the draws:
    the compiled kernel's buffers (64 draws side by side: weights, prefix and
    suffix sums), a batch of at least 64 draws' weights, merged from chunks
    (the chunks and their copy), and their transpose in the kernel.

    Examples
    --------
    >>> monte_carlo_bytes(100_000) // 2**20
    296
    """
    from nbstats.stats.bayes.signrank.walsh_kernel import LANES

    return 8 * (n + 1) * (3 * LANES + 3 * LANES + 4)


def check_options(
    prior: str,
    s: float | None,
    z0: float,
    rope: float,
    threshold: float | None,
    loss: tuple[float, float],
    n_samples: int,
    *,
    higher_is_better: object = True,
    random_state: object = None,
    method: object = "auto",
    progress: object = None,
) -> tuple[float, float, float, float, int]:
    """Validated ``(s, z0, rope, threshold, n_samples)`` of :func:`bayes_signrank`;
    the other arguments are checked only."""
    check_choice("prior", prior, ("idp", "bb", "point"))
    check_flag("higher_is_better", higher_is_better)
    check_random_state(random_state)
    check_choice("method", method, ("auto", "montecarlo", "normal"))
    if progress is not None:
        check_flag("progress", progress)
    s = prior_strength(prior, s)
    z0 = check_prior_place(prior, z0)
    rope = check_positive("rope", rope, allow_zero=True)
    threshold = resolve_threshold(threshold, loss)
    n_samples = check_n_samples(n_samples, stacklevel=4)
    return s, z0, rope, threshold, n_samples


def prior_strength(prior: str, s: float | None) -> float:
    """Validated s for a prior; its default when None (see :func:`bayes_signrank`)."""
    if prior == "bb":
        if s not in (None, 0, 0.0):
            raise ValueError(
                "prior='bb' is the s → 0 limit (Bayesian bootstrap); leave s unset, "
                "or choose prior='point' or 'idp' for s > 0."
            )
        return 0.0
    if s is None:
        return IDP_DEFAULT_S if prior == "idp" else 0.5
    return check_s(s, allow_zero=False)
