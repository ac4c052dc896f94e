"""The report notebook's first section: the answer first (see :mod:`.core`).

:func:`core_cell` writes the cell that computes what the answer-first part
states -- for three or more algorithms Friedman's test, Nemenyi's test (its
letters and the critical-difference diagram, Figure 1) and the Bayesian
Plackett–Luce ranking; for two, the Wilcoxon and Bayesian signed-rank tests
-- and displays it. Later sections reuse these results instead of computing
them again.
"""

from __future__ import annotations

from typing import Any

from nbstats.reporting.settings import python_value

__all__ = ["core_cell"]

_MULTIPLE_FREQ = """
friedman = nbstats.friedman(scores, **direction)
nemenyi = nbstats.posthoc(scores, method="nemenyi", alpha=ALPHA, **direction)
# analyze()'s warning when Nemenyi cannot separate even perfect neighbours
NEMENYI_WARNING = report.power_warning(nemenyi, len(scores))
"""

_MULTIPLE_BAYES = """
# the Bayesian Plackett-Luce ranking: with nan_policy="pairwise" every case,
# a case with missing scores ranking only the algorithms it has; otherwise the
# same cases as every other analysis
plackett_luce = nbstats.bayes_plackett_luce(
    pair_scores if NAN_POLICY == "pairwise" else scores, random_state=SEED,
    nan_policy="partial" if NAN_POLICY == "pairwise" else "raise", **direction,
)
"""

_TWO_FREQ = """
wilcoxon = nbstats.wilcoxon(scores[name_a], scores[name_b], **direction)
sign = nbstats.sign_test(scores[name_a], scores[name_b], **direction)
"""

_TWO_BAYES = """
signrank_prior = {"prior": "bb"} if PRIOR == "bb" else {"prior": PRIOR, **prior}
signrank = nbstats.bayes_signrank(
    scores[name_a], scores[name_b], rope=ROPE, loss=LOSS, n_samples=N_SAMPLES,
    random_state=SEED, **signrank_prior, **direction,
)
bayes_sign = nbstats.bayes_sign_test(
    scores[name_a], scores[name_b], rope=ROPE, loss=LOSS,
    n_samples=N_SAMPLES, random_state=SEED, **prior, **direction,
)
"""


def core_cell(nb: Any, settings: Any, *, freq: bool, bayes: bool) -> None:
    """Add the answer-first section to the notebook builder ``nb``."""
    if not settings.core_only:  # alone, the title says what it is
        nb.markdown("# The results in brief")
    if settings.layout == "two-sample":
        source = [
            "# two algorithms: a = the first column, b = the second; every test",
            "# measures the evidence that b is better than a",
            "name_a, name_b = scores.columns",
            "NEMENYI_WARNING = ''",
            _TWO_FREQ if freq else "wilcoxon = sign = None",
            _TWO_BAYES if bayes else "signrank = bayes_sign = None",
            "core_text = report.core_two(",
            "    scores, wilcoxon=wilcoxon, signrank=signrank, alpha=ALPHA,",
            "    score_unit=SCORE_UNIT, aliases=ALIASES, detailed=not CORE_ONLY,",
            "    raw=raw.rename(columns=ALIASES),",
            "    **direction,",
            ")",
        ]
        nb.code("\n".join(source), tables=["tab:core"])
        return
    source = [
        _MULTIPLE_FREQ if freq else "friedman = nemenyi = None\nNEMENYI_WARNING = ''",
        _MULTIPLE_BAYES if bayes else "plackett_luce = None",
        "core_text = report.core(",
        "    scores, friedman=friedman, nemenyi=nemenyi,",
        "    plackett_luce=plackett_luce, alpha=ALPHA, aliases=ALIASES,",
        "    detailed=not CORE_ONLY, raw=raw.rename(columns=ALIASES),",
        "    nan_policy=NAN_POLICY, **direction,",
        # the figure files of <stem>_core/ follow the report's venue
        f"    venue={python_value(getattr(settings, 'venue', None))},",
        ")",
    ]
    nb.code("\n".join(source), tables=["tab:core"], figures=["fig:cd"] if freq else [])
