# The report notebook's sections for three or more algorithms: omnibus tests,
# post-hoc tests, Bayesian pairs, the Plackett-Luce ranking and the rank
# intervals; see nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        ALPHA,
        LAYOUT,
        LOSS,
        MC_ERROR,
        N_SAMPLES,
        NAN_POLICY,
        PRIOR,
        ROPE,
        SEED,
        THRESHOLD,
        direction,
        friedman,
        nbstats,
        nemenyi,
        pair_scores,
        plackett_luce,
        prior,
        report,
        scores,
    )

# %% [markdown] when=freq or bayes
# # Omnibus tests

# %% when=freq, tables=["tab:omnibus"]
# nan_policy="pairwise": Friedman's test for missing cells
skillings_mack = (
    nbstats.skillings_mack(pair_scores, **direction)
    if NAN_POLICY == "pairwise"
    else None
)

# %% when=bayes and not freq, tables=["tab:omnibus"]
skillings_mack = None  # and friedman (the first section's cell)

# %% join=True, when=bayes

# the Bayesian Friedman test needs at least as many cases as algorithms
# (twice as many with s = 0)
bayes_friedman = (
    nbstats.bayes_friedman(scores, threshold=THRESHOLD, **prior, **direction)
    if scores.shape[0] >= report.bayes_friedman_minimum(scores.shape[1], **prior)
    else None
)

# %% join=True, when=freq and not bayes
bayes_friedman = None

# %% join=True, when=freq or bayes
report.omnibus(
    friedman, bayes_friedman, alpha=ALPHA, shape=scores.shape,
    skillings_mack=skillings_mack, **prior,
)

# %% [markdown] when=freq
# # Post-hoc tests

# %% when=freq, tables=["tab:nemenyi"] + ["tab:holm"] * (not compact)
# Holm's step-down procedure against the best-ranked algorithm
best = str(friedman.mean_ranks.idxmin())
holm = nbstats.posthoc(
    scores, method="holm", control=best, alpha=ALPHA, **direction
)
report.posthoc(nemenyi, holm, compact=LAYOUT == "compact")

# %% [markdown] when=bayes
# # Bayesian comparisons

# %% when=bayes, tables=["tab:signrank"] + ["tab:joint"] * (not compact),
#    figures=["fig:joint"]
# every pair on shared posterior draws: is the better-ranked algorithm (b)
# really better than the worse-ranked one (a)? Columns worst to best make
# each pair (a, b) = (worse, better).
order = list(nbstats.mean_ranks(scores, **direction).sort_values(kind="stable").index)
signrank_prior = {"prior": "bb"} if PRIOR == "bb" else {"prior": PRIOR, **prior}
# joint statements: the same signed-rank test, rope, prior strength and prior
# as the pairs (under the near-ignorance prior a statement counts in a draw
# only if it holds for every prior of the set, so a pair the table calls
# indeterminate is never accepted). joint="auto" reads them from the pairs'
# own posterior draws when every pair has the same cases: a statement's
# probability is then its pair's in the table. With missing cells each pair
# has its own cases, and the joint statements, like every analysis of all the
# algorithms at once, use the complete cases (and draws of their own).
signrank = nbstats.bayes_signrank_pairs(
    pair_scores[order[::-1]], rope=ROPE, loss=LOSS, n_samples=N_SAMPLES,
    mc_error=MC_ERROR, random_state=SEED, interval=False, **signrank_prior,
    **direction, joint="auto",
    **({"nan_policy": "pairwise"} if NAN_POLICY == "pairwise" else {}),
)
joint = signrank.joint if signrank.joint is not None else nbstats.bayes_posthoc(
    scores, test="signrank", rope=ROPE, s=signrank.s, threshold=signrank.threshold,
    prior=signrank.prior,
    n_samples=N_SAMPLES, mc_error=MC_ERROR, random_state=SEED, **direction,
)
report.bayesian(signrank, joint, loss=LOSS, compact=LAYOUT == "compact")

# %% [markdown] when=bayes
# # Bayesian ranking of all algorithms

# %% when=bayes, tables=["tab:plackett-luce"], figures=["fig:plackett-luce"]
report.plackett_luce_section(
    plackett_luce,
    order=list(
        nbstats.mean_ranks(scores, **direction).sort_values(kind='stable').index
    ),
    ordered_by=f'mean rank over its {len(scores):,} cases',
)

# %% [markdown] when=ranks
# # Confidence intervals for ranks

# %% when=ranks, tables=["tab:ranks"] * (not compact), figures=["fig:ranks"]
# with nan_policy="pairwise": every case, each pair's Wilcoxon test on its own
rank_ci = nbstats.rank_ci(
    pair_scores, method='id-wilcoxon-2s', alpha=ALPHA, **direction,
    **({"nan_policy": "pairwise"} if NAN_POLICY == "pairwise" else {}),
)
# rows in the order of Table 1 (mean ranks over the complete cases)
RANK_ORDER = list(
    nbstats.mean_ranks(scores, **direction).sort_values(kind="stable").index
)
report.rank_intervals(rank_ci, compact=LAYOUT == "compact", order=RANK_ORDER)
