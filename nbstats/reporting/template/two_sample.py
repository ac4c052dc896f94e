# The report notebook's sections for two algorithms: Wilcoxon and the sign
# test, and their Bayesian versions (computed in core.py's cell); see
# nbstats.reporting.notebook_template.
# fmt: off
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # names of earlier cells, for the linters; not copied
    from nbstats.reporting.notebook_names import (
        ALPHA,
        LOSS,
        bayes_sign,
        report,
        sign,
        signrank,
        wilcoxon,
    )

# %% [markdown] when=freq
# # Two-sample tests

# %% when=freq, tables=["tab:two-sample"]
report.two_sample(wilcoxon, sign, alpha=ALPHA)

# %% [markdown] when=bayes
# # Bayesian two-sample tests

# %% when=bayes, tables=["tab:bayes-two-sample"], figures=["fig:posterior"]
report.bayes_two_sample(signrank, bayes_sign, loss=LOSS)
