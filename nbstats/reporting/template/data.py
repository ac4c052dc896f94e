# The report notebook's Data section and, when scores are missing, its
# Coverage section (nbstats.reporting.coverage); see
# nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        ALIASES,
        FOLDS,
        LAYOUT,
        NAN_POLICY,
        direction,
        raw,
        report,
        scores,
    )

# %% [markdown]
# # Data

# %% tables=["tab:aliases"] * aliases + ["tab:summary" if compact else "tab:scores"]
report.data_notes(raw, scores, layout=LAYOUT, nan_policy=NAN_POLICY, folds=FOLDS)
report.alias_legend(ALIASES)  # when: aliases
report.ranked_summary(scores, **direction)  # when: compact
report.scores_table(scores, **direction)  # when: not compact

# %% [markdown] when=holes
# # Coverage: the missing scores

# %% when=holes, tables=["tab:coverage"]
report.coverage_section(raw.rename(columns=ALIASES), nan_policy=NAN_POLICY)
