"""The Bayesian signed-rank test on every pair of algorithms, on shared draws."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from nbstats.results.bayes import BayesSignedRankPairsResult
from nbstats.scores import NanPolicy, oriented, rank_rows, score_table
from nbstats.stats.bayes.shared_prior import SharedPrior
from nbstats.stats.bayes.signrank import (
    Prior,
    SignedRankPosterior,
    check_options,
    shared_components,
)
from nbstats.stats.bayes.weights import DirichletWeights, seed_sequence

__all__ = ["bayes_signrank_pairs"]

#: Bytes of per-draw sums held at once: pairs are evaluated in groups that fit
#: (50,000 draws with a rope: about 50 pairs a group), so memory does not grow
#: with the number of pairs (1225 pairs would need 1.5 GB in one group).
GROUP_BYTES = 64 * 2**20


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
    random_state
        As for :func:`nbstats.bayes_signrank`.
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
    draws = DirichletWeights(n, n_samples, seed_sequence(random_state))
    memo = SharedPrior()
    rows = []
    matrix = np.full((m, m), np.nan)
    for group in _groups(pairs, n_samples, with_rope=rope > 0):
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
    )


def _groups(
    pairs: list[tuple[int, int]], n_samples: int, *, with_rope: bool
) -> list[list[tuple[int, int]]]:
    """``pairs`` in groups whose per-draw sums fit :data:`GROUP_BYTES`."""
    # θ (and with a rope, two regions), plus a cross term each, float64 per draw
    per_pair = 8 * n_samples * (3 if with_rope else 1) * 2
    size = max(1, GROUP_BYTES // per_pair)
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
