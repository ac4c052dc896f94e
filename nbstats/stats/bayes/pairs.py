"""The Bayesian signed-rank test on every pair of algorithms, on shared draws."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesSignedRankPairsResult
from nbstats.scores import NanPolicy, check_choice, oriented, rank_rows, score_table
from nbstats.stats.bayes.memory import budget, check_fits
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank import (
    NORMAL_CASES,
    Method,
    Prior,
    SignedRankPosterior,
    check_options,
    monte_carlo_bytes,
    shared_components,
)
from nbstats.stats.bayes.weights import DirichletWeights, seed_sequence

__all__ = ["bayes_signrank_pairs"]

#: Share of the memory ceiling (:mod:`nbstats.stats.bayes.memory`) for the
#: per-draw sums held at once: pairs are evaluated in groups that fit (50,000
#: draws with a rope, 64 MiB of the default 512: about 25 pairs a group), so
#: memory does not grow with the number of pairs (4950 pairs would need 5.9
#: GB in one group).
GROUP_SHARE = 0.125


def bayes_signrank_pairs(
    scores: pd.DataFrame | np.ndarray,
    *,
    prior: Prior = "idp",
    s: float | None = None,
    z0: float = 0.0,
    rope: float = 0.0,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    n_samples: int = 50_000,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    random_state: object = None,
    interval: bool = True,
    method: Method = "auto",
) -> BayesSignedRankPairsResult:
    """:func:`nbstats.bayes_signrank` for every pair of columns, at once.

    Each pair (a, b), a before b in column order, gets exactly the posterior
    that ``bayes_signrank(scores[a], scores[b], ..., random_state=...)``
    would give with the same arguments — the same draws, the same
    probabilities — but the draws are generated once and every pair's sums
    are evaluated in one pass over them, so the whole matrix costs little
    more than one pair. This is the all-pairs table that autorank's Bayesian
    mode builds with one baycomp call per pair.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    prior, s, z0, rope, threshold, loss, n_samples, higher_is_better, nan_policy,
    random_state, method
        As for :func:`nbstats.bayes_signrank` (``method="auto"``: Monte Carlo up
        to 1,000 cases, the normal approximation per pair beyond).
    interval : bool
        ``False`` skips each pair's credible interval (``ci_low``/``ci_high``
        NaN, ``differs`` False): with many pairs its quantiles are a large
        part of the time, and a table of probabilities does not show it.

    Returns
    -------
    BayesSignedRankPairsResult
        ``pairs``: one row per pair with its probabilities, credible
        interval and decision; ``probabilities``: the m × m matrix of
        P(column better than row) (the lower probability under IDP).
        ``mc_error``: the largest Monte Carlo standard error of any pair's
        probabilities.

    Notes
    -----
    Memory: pairs are evaluated in groups whose per-draw sums fit an eighth
    of the ceiling of :mod:`nbstats.stats.bayes.memory` (512 MiB by default;
    ``NBSTATS_MAX_MEMORY`` or
    :func:`~nbstats.stats.bayes.memory.set_memory_ceiling`), and the draws
    are generated in chunks (kept between groups only if they fit too), so
    memory does not grow with the number of algorithms or cases. A lower
    ceiling makes more, smaller groups: the same numbers, more time.

    Examples
    --------
    >>> import nbstats
    >>> uci = nbstats.datasets.load("uci_accuracy")
    >>> res = nbstats.bayes_signrank_pairs(uci, prior="point", rope=0.01,
    ...                                    random_state=0)
    >>> row = res.pairs.set_index(["a", "b"]).loc[("nbc", "aode")]
    >>> [round(float(row[k]), 2) for k in ("prob_left", "prob_rope", "prob_right")]
    [0.0, 0.12, 0.88]
    """
    s, z0, rope, threshold, n_samples = check_options(
        prior, s, z0, rope, threshold, loss, n_samples
    )
    table = score_table(scores, nan_policy=nan_policy)
    names = [str(c) for c in table.columns]
    values = oriented(table.to_numpy(), higher_is_better)
    n, m = values.shape
    pairs = list(combinations(range(m), 2))
    # one seed, one set of draws and one memo of the prior's Gamma quantiles
    # for all groups: each pair sees exactly the draws it would see alone
    check_choice("method", method, ("auto", "montecarlo", "normal"))
    seed = seed_sequence(random_state)
    draws = DirichletWeights(n, n_samples, seed)
    memo = SharedPrior()
    rows = []
    errors = []
    matrix = np.full((m, m), np.nan)
    if method == "normal" or (method == "auto" and n > NORMAL_CASES):
        groups = []  # O(n log n) per pair, no per-draw sums to share
        for i, j in pairs:
            posterior = SignedRankPosterior(
                values[:, j] - values[:, i], prior, z0, rope
            )
            res = posterior.normal_result(
                n_samples, seed, s=s, threshold=threshold, names=(names[i], names[j])
            )
            rows.append(_row(res))
            errors.append(res.mc_error)
            matrix[i, j] = res.prob_lower
            matrix[j, i] = res.prob_left
    else:
        check_fits(
            monte_carlo_bytes(n),
            f"Monte Carlo draws over {n:,} cases",
            "use method='normal' (or 'auto'), or raise the ceiling",
        )
        groups = _groups(pairs, n_samples, with_rope=rope > 0)
    for group in groups:
        posteriors = [
            SignedRankPosterior(values[:, j] - values[:, i], prior, z0, rope, memo)
            for i, j in group
        ]
        parts = shared_components(posteriors, draws)
        if memo.uniforms is None:
            memo.uniforms, memo.total = parts[0]["uniforms"], parts[0]["total"]
        else:  # the same draws: reuse the first group's arrays, and its memo
            for part in parts:
                part["uniforms"], part["total"] = memo.uniforms, memo.total
        for posterior, part, (i, j) in zip(posteriors, parts, group, strict=True):
            res = posterior.result(
                part,
                s=s,
                threshold=threshold,
                names=(names[i], names[j]),
                interval=interval,
                region_samples=False,  # the table needs the shares, not the draws
            )
            rows.append(_row(res))
            errors.append(res.mc_error)
            matrix[i, j] = res.prob_lower  # column j better than row i
            matrix[j, i] = res.prob_left
        del posteriors, parts  # bounded memory: one group's draws at a time
    index = pd.Index(names, name="algorithm")
    mean_ranks = rank_rows(table.to_numpy(), higher_is_better=higher_is_better)
    return BayesSignedRankPairsResult(
        pairs=pd.DataFrame(rows),
        probabilities=pd.DataFrame(matrix, index=index, columns=index.copy()),
        mean_ranks=pd.Series(mean_ranks.mean(axis=0), index=index, name="mean rank"),
        prior=prior,
        s=s,
        z0=z0,
        rope=rope,
        threshold=threshold,
        n=n,
        n_samples=n_samples,
        mc_error=float(max(errors)),
        method=rows_method(method, n),
    )


def rows_method(method: str, n: int) -> str:
    """The method ``"auto"`` resolves to for n cases."""
    if method == "auto":
        return "normal" if n > NORMAL_CASES else "montecarlo"
    return method


def _groups(
    pairs: list[tuple[int, int]], n_samples: int, *, with_rope: bool
) -> list[list[tuple[int, int]]]:
    """``pairs`` in groups whose per-draw sums fit :data:`GROUP_SHARE` of the
    memory ceiling."""
    # θ (and with a rope, two regions), plus a cross term each, float64 per draw
    per_pair = 8 * n_samples * (3 if with_rope else 1) * 2
    size = max(1, budget(GROUP_SHARE) // per_pair)
    return [pairs[k : k + size] for k in range(0, len(pairs), size)]


def _row(res: object) -> dict[str, object]:
    low, high = res.credible_interval
    return {
        "a": res.name_a,
        "b": res.name_b,
        "prob_left": res.prob_left,
        "prob_rope": np.nan if res.prob_rope is None else res.prob_rope,
        "prob_right": res.prob_right,
        "prob_lower": res.prob_lower,
        "prob_upper": res.prob_upper,
        "mean_lower": res.posterior_mean_lower,
        "mean_upper": res.posterior_mean_upper,
        "ci_low": low,
        "ci_high": high,
        "differs": res.differs,
        "decision": res.decision,
    }
