# The report notebook's first section, the answer first (nbstats.reporting.core):
# for three or more algorithms Friedman's test, Nemenyi's test (its letters and
# the critical-difference diagram, Figure 1) and the Bayesian Plackett-Luce
# ranking; for two, the Wilcoxon and Bayesian signed-rank tests. Later sections
# reuse these results. See nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        ALIASES,
        ALPHA,
        CORE_ONLY,
        LOSS,
        N_SAMPLES,
        NAN_POLICY,
        PRIOR,
        ROPE,
        SCORE_UNIT,
        SEED,
        VENUE,
        direction,
        nbstats,
        pair_scores,
        prior,
        raw,
        report,
        scores,
    )

# %% [markdown] when=not core_only
# # The results in brief

# %% when=layout == "two-sample", tables=["tab:core"]
# two algorithms: a = the first column, b = the second; every test
# measures the evidence that b is better than a
name_a, name_b = scores.columns
NEMENYI_WARNING = ""

# %% join=True, when=layout == "two-sample" and freq
wilcoxon = nbstats.wilcoxon(scores[name_a], scores[name_b], **direction)
sign = nbstats.sign_test(scores[name_a], scores[name_b], **direction)

# %% join=True, when=layout == "two-sample" and not freq
wilcoxon = sign = None

# %% join=True, when=layout == "two-sample" and bayes
signrank_prior = {"prior": "bb"} if PRIOR == "bb" else {"prior": PRIOR, **prior}
signrank = nbstats.bayes_signrank(
    scores[name_a], scores[name_b], rope=ROPE, loss=LOSS, n_samples=N_SAMPLES,
    random_state=SEED, **signrank_prior, **direction,
)
bayes_sign = nbstats.bayes_sign_test(
    scores[name_a], scores[name_b], rope=ROPE, loss=LOSS,
    n_samples=N_SAMPLES, random_state=SEED, **prior, **direction,
)

# %% join=True, when=layout == "two-sample" and not bayes
signrank = bayes_sign = None

# %% join=True, when=layout == "two-sample"
core_text = report.core_two(
    scores, wilcoxon=wilcoxon, signrank=signrank, alpha=ALPHA,
    score_unit=SCORE_UNIT, aliases=ALIASES, detailed=not CORE_ONLY,
    raw=raw.rename(columns=ALIASES),
    **direction,
)

# %% when=layout != "two-sample" and freq, tables=["tab:core"], figures=["fig:cd"]
friedman = nbstats.friedman(scores, **direction)
nemenyi = nbstats.posthoc(scores, method="nemenyi", alpha=ALPHA, **direction)
# analyze()'s warning when Nemenyi cannot separate even perfect neighbours
NEMENYI_WARNING = report.power_warning(nemenyi, len(scores))

# %% when=layout != "two-sample" and not freq, tables=["tab:core"]
friedman = nemenyi = None
NEMENYI_WARNING = ""

# %% join=True, when=layout != "two-sample" and bayes
# the Bayesian Plackett-Luce ranking: with nan_policy="pairwise" every case,
# a case with missing scores ranking only the algorithms it has; otherwise the
# same cases as every other analysis
plackett_luce = nbstats.bayes_plackett_luce(
    pair_scores if NAN_POLICY == "pairwise" else scores, random_state=SEED,
    nan_policy="partial" if NAN_POLICY == "pairwise" else "raise", **direction,
)

# %% join=True, when=layout != "two-sample" and not bayes
plackett_luce = None

# %% join=True, when=layout != "two-sample"
core_text = report.core(
    scores, friedman=friedman, nemenyi=nemenyi,
    plackett_luce=plackett_luce, alpha=ALPHA, aliases=ALIASES,
    detailed=not CORE_ONLY, raw=raw.rename(columns=ALIASES),
    nan_policy=NAN_POLICY, **direction,
    # the figure files of <stem>_core/ follow the report's venue
    venue=VENUE,
)

# %% when=core_only
report.references(core_text, small=True)
