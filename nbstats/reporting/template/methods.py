# The report notebook's Methods section: every test, setting and seed the
# report used, written from the results of every analysis the notebook ran
# (nbstats.reporting.methods), and the references; see
# nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        ALIASES,
        FOLDS,
        LOSS,
        NAN_POLICY,
        NEMENYI_WARNING,
        RUNS,
        SCORE_UNIT,
        SEED,
        bayes_friedman,
        bayes_sign,
        core_text,
        direction,
        fold_tests,
        friedman,
        hierarchical,
        holm,
        joint,
        nemenyi,
        plackett_luce,
        rank_ci,
        raw,
        report,
        scores,
        sign,
        signrank,
        skillings_mack,
        wilcoxon,
    )

# %% [markdown]
# # Methods

# %%
# the results of every analysis above
results = report.ReportResults(
    wilcoxon=wilcoxon, sign=sign,  # when: not multiple and freq
    bayes_sign=bayes_sign,  # when: not multiple and bayes
    friedman=friedman, nemenyi=nemenyi, holm=holm,  # when: multiple and freq
    skillings_mack=skillings_mack,  # when: multiple and freq
    bayes_friedman=bayes_friedman, joint=joint,  # when: multiple and bayes
    signrank=signrank,  # when: bayes
    rank_ci=rank_ci,  # when: multiple and ranks
    fold_tests=fold_tests,  # when: folds
    hierarchical=hierarchical,  # when: folds and hierarchical and runs
    plackett_luce=plackett_luce,  # when: multiple and bayes
)
methods = report.methods(
    scores, results, seed=SEED, loss=LOSS, folds=FOLDS,
    dropped=len(raw) - len(scores), runs=RUNS,
    score_unit=SCORE_UNIT, nemenyi_warning=NEMENYI_WARNING,
    cited=core_text.keys, raw=raw.rename(columns=ALIASES), nan_policy=NAN_POLICY,
    **direction,
)

# %%
report.references(methods)
