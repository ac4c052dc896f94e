# The report notebook's cells for per-fold scores: both correlated t-tests on
# each data set's folds and, when asked for, the Bayesian hierarchical test
# across data sets; see nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        FOLD_CASES_TABLE,
        FOLDS,
        LAYOUT,
        LOSS,
        MIN_FOLDS,
        ROPE,
        RUNS,
        SEED,
        direction,
        fold_scores,
        nbstats,
        report,
        scores,
    )

# %% [markdown]
# # Each data set on its own: the folds

# %% when=not runs
fold_tests = None  # the fold design is unknown: see the text
report.fold_tests_missing(FOLDS)

# %% when=runs, tables=["tab:fold-pairs"] + ["tab:fold-cases"] * fold_cases
# the corrected resampled t-test and the Bayesian correlated t-test of each
# pair on each data set's folds; b is the better-ranked algorithm

# %% join=True, when=runs and not multiple
fold_pairs = [tuple(scores.columns)]  # (a, b) as in the tests above

# %% join=True, when=runs and multiple
fold_pairs = report.fold_pairs(
    nbstats.mean_ranks(scores, **direction).sort_values(kind="stable").index,
    LAYOUT,
)

# %% join=True, when=runs
fold_tests = nbstats.correlated_pairs(
    fold_scores, case="case", algorithm="algorithm", score="score", fold="fold",
    runs=RUNS, rope=ROPE, loss=LOSS, pairs=fold_pairs, min_folds=MIN_FOLDS,
    **direction,
)
report.fold_section(
    fold_tests, folds=FOLDS, runs=RUNS, compact=LAYOUT == "compact",
    cases_table=FOLD_CASES_TABLE,
)

# %% [markdown] when=runs and hierarchical
# # Across data sets: the Bayesian hierarchical test

# %% when=runs and hierarchical, tables=["tab:hierarchical"] * sampler,
#    figures=["fig:hierarchical"] * sampler
hierarchical = report.hierarchical_tests(
    fold_scores, fold_pairs, runs=RUNS, rope=ROPE, loss=LOSS, seed=SEED,
    min_folds=MIN_FOLDS, **direction,
)
report.hierarchical_section(hierarchical)
