# The report notebook's set-up, after the generated first cell (the user's
# data and settings): see nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        ALIASES,
        CORE_ONLY,
        FIGURE_FORMATS,
        FIGURES,
        FOLD_SCORES_CSV,
        HIGHER_IS_BETTER,
        INDEX_NAME,
        MIN_FOLDS,
        NAN_POLICY,
        SCORES_CSV,
        TABLES,
        VENUE,
        S,
        nbstats,
        report,
        warnings,
    )

# %%
report.start(
    tables=TABLES,
    figures=FIGURES,
    figure_formats=FIGURE_FORMATS,
    venue=VENUE,  # the paper venue every table is set for
)
raw = report.read_scores(SCORES_CSV, index_name=INDEX_NAME)

with warnings.catch_warnings():  # the Data section names the dropped cases
    warnings.simplefilter("ignore", UserWarning)
    scores = nbstats.score_table(
        raw, nan_policy="omit" if NAN_POLICY == "pairwise" else NAN_POLICY
    )
scores = scores.rename(columns=ALIASES)
pair_scores = raw.rename(columns=ALIASES) if NAN_POLICY == "pairwise" else scores
direction = {"higher_is_better": HIGHER_IS_BETTER}
prior = {} if S is None else {"s": S}
if not CORE_ONLY:  # the answer-first part alone has its own caption
    report.summary(scores, n_given=len(raw), aliased=bool(ALIASES), **direction)

# %% when=folds
# the analysed cases (with MIN_FOLDS under nan_policy "pairwise": every case,
# each pair keeping those on which it has enough paired folds)
fold_scores = report.read_fold_scores(
    FOLD_SCORES_CSV, ALIASES, (pair_scores if MIN_FOLDS else scores).index
)
