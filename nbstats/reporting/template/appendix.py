# The compact layout's appendix: every full table (pairwise tables too long to
# typeset are CSV files only, with no number); see
# nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        RANK_ORDER,
        direction,
        holm,
        joint,
        nemenyi,
        rank_ci,
        report,
        scores,
        signrank,
    )

# %% [markdown]
# # Appendix: full tables

# %% tables=["tab:scores"]
report.appendix_note()
report.scores_table(scores, **direction)

# %% join=True, when=freq, tables=["tab:nemenyi-all"] * typeset + ["tab:holm"]
report.appendix_frequentist(nemenyi, holm)

# %% join=True, when=bayes, tables=["tab:signrank-all", "tab:joint"] * typeset
report.appendix_bayesian(signrank, joint)

# %% join=True, when=ranks, tables=["tab:ranks"]
report.appendix_ranks(rank_ci, RANK_ORDER)
