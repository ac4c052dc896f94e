"""The report's detailed section on the Bayesian Plackett–Luce ranking.

The answer-first part (:mod:`nbstats.reporting.core`) gives each algorithm's
P(best) and expected rank; this section gives the model, its table (P(best),
expected rank with its credible interval, worth), its figure and the
sampler's diagnostics.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from nbstats.reporting.display import _n, figure, paragraph, ref, table
from nbstats.reporting.references import Paragraph, author_year
from nbstats.reporting.tables import result_table
from nbstats.results.monte_carlo import error_bound
from nbstats.results.number_policy import format_number, format_relation

__all__ = ["plackett_luce_section"]


def _level(result: Any) -> str:
    return f"{_n(100 * result.level)}%"


#: Above this split R̂ the chains disagree (the result's documented rule).
RHAT_LIMIT = 1.01


def _chains_sentence(result: Any) -> str:
    """Whether the sampler's chains agree, as the diagnostics say."""
    rhat, ess = result.max_rhat, result.min_ess
    if not math.isfinite(rhat):
        return (
            "The log worths are the same number in every draw (R̂ and the "
            "effective sample size are not defined)"
        )
    if rhat > RHAT_LIMIT:
        return (
            f"The sampler's chains do not agree (largest R̂ {rhat:.3f}, above "
            f"{RHAT_LIMIT}; smallest effective sample size {int(ess):,}): the "
            "draws may not represent the posterior, and the probabilities above "
            "are not to be trusted; more draws (n_samples) may help"
        )
    return (
        f"The sampler's chains agree (largest R̂ {rhat:.3f}, smallest effective "
        f"sample size {int(ess):,})"
    )


def _reorder(model: Any, names: list[str]) -> Any:
    """The table model with its rows in the order of ``names`` (row names)."""
    by_name = {row[0].text: row for row in model.rows}
    if sorted(by_name) != sorted(names) or len(names) != len(model.rows):
        raise ValueError(
            f"order must name every algorithm of the ranking once: {sorted(by_name)}"
            f", got {names}."
        )
    return dataclasses.replace(
        model, rows=tuple(by_name[name] for name in names), rules=frozenset()
    )


def plackett_luce_section(
    result: Any,
    order: Sequence[Any] | None = None,
    ordered_by: str = "mean rank over its cases",
) -> None:
    """Paragraph, table and figure of a :func:`nbstats.bayes_plackett_luce` result.

    ``order``: the algorithms in Table 1's order (``ordered_by`` says what
    that order is), so that the table and the figure list them as every
    other table does; by default by their own expected rank.
    """
    ranking = result.ranking
    top = ranking["prob_best"].idxmax()
    level = _level(result)
    best = format_relation(float(ranking.loc[top, "prob_best"]), "probability")
    rank = format_number(float(ranking.loc[top, "expected_rank"]), "rank")
    para = Paragraph().add(
        f"The Bayesian Plackett–Luce model {author_year('calvo2018')} treats "
        "the ranking of the algorithms on each case as drawn one place at a "
        "time, each algorithm's chance of taking the next place being "
        "proportional to its worth; the posterior of the worths gives the "
        "probability that each algorithm is the best and its expected rank, "
        "with no pairwise test; its posterior is sampled with the Gibbs "
        f"sampler of Caron and Doucet {author_year('caron2012')} (see Methods). ",
        ref("tab:plackett-luce"),
        " and ",
        ref("fig:plackett-luce"),
        f" show them: {top} has the highest probability of being the best "
        f"(P(best) {best}; expected rank {rank}, {level} "
        f"credible interval [{int(ranking.loc[top, 'rank_lower'])}, "
        f"{int(ranking.loc[top, 'rank_upper'])}]). ",
    )
    if result.n_partial:
        para.add(
            f"{result.n_partial} cases rank only the algorithms that have a "
            "score there (partial rankings, which the model handles as they "
            "are). "
        )
    para.add(
        _chains_sentence(result) + "; the Monte Carlo standard error of each "
        f"P(best) is {error_bound(result.mc_error, result.n_samples)}."
    )
    paragraph(para)
    rows = (
        "by expected rank"
        if order is None
        else f"algorithms in the order of Table 1 ({ordered_by})"
    )
    caption = (
        f"Bayesian Plackett–Luce ranking, {rows}: posterior "
        "probability of being the best, expected rank (1 = best) with its "
        f"{level} credible interval, and worth (the posterior mean probability "
        f"of ranking first on a new case); on {result.n_cases:,} cases"
        + (
            f", {result.n_partial:,} of them ranking only the algorithms with a "
            "score on them"
            if result.n_partial
            else ""
        )
        + "."
    )
    if order is None:
        result_table(result, "tab:plackett-luce", caption)
    else:
        model = result.table_model(caption=caption, label="tab:plackett-luce")
        table(_reorder(model, [str(name) for name in order]))
    # two columns of a page: at many algorithms the rows go into side-by-side
    # panels, which one column cannot hold
    ax = result.plot(
        width="double" if len(ranking) > 25 else "single",
        **({} if order is None else {"order": order}),
    )
    figure(
        "fig:plackett-luce",
        "Bayesian Plackett–Luce ranking: posterior probability of being the "
        f"best (bars) and the rank's {level} credible interval (line) with its "
        "posterior median (marker)" + ("." if order is None else f", {rows}."),
        ax.figure,
        paste=(result, None, {}),
    )
