"""The report's sections, called by the report notebook's hidden cells (in the kernel).

Each section displays its paragraphs, tables and figures through
:mod:`nbstats.reporting.display` (numbered floats in HTML, LaTeX and text); the
Data section lives in :mod:`nbstats.reporting.data`. The notebook itself is built
by :mod:`nbstats.reporting.notebook`; its cells call this module as ``report``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.appendix import (  # noqa: F401  (the cells call them)
    appendix_frequentist,
    appendix_note,
    typeset_pairs,
)
from nbstats.reporting.bayesian import (  # noqa: F401  (the cells call them)
    appendix_bayesian,
    bayesian,
    joint_caption,
    joint_rope_text,
    signrank_frame,
)
from nbstats.reporting.core import core, core_two, power_warning  # noqa: F401
from nbstats.reporting.coverage import coverage_section  # noqa: F401
from nbstats.reporting.data import (  # noqa: F401  (the cells call them)
    scores_table,
    summary,
)
from nbstats.reporting.data_notes import (  # noqa: F401  (the cells call them)
    alias_legend,
    data_notes,
    ranked_summary,
)
from nbstats.reporting.display import (  # noqa: F401  (the cells call them)
    _and,
    _display,
    _n,
    _p,
    figure,
    paragraph,
    ref,
    start,
    table,
    table_latex,
)
from nbstats.reporting.folds import (  # noqa: F401  (the cells call them)
    fold_design_text,
    fold_pairs,
    fold_section,
    fold_tests_missing,
    read_fold_scores,
)
from nbstats.reporting.hierarchical import (  # noqa: F401  (the cells call them)
    hierarchical_methods,
    hierarchical_section,
    hierarchical_tests,
)
from nbstats.reporting.methods import CHI2_F, F_F, Paragraph
from nbstats.reporting.notebook import read_scores  # noqa: F401  (the cells call it)
from nbstats.reporting.pairs import (  # noqa: F401  (the cells call them)
    EFFECT_TEXT,
    adjacent_pairs,
    effect_caption,
    ranking_order,
)
from nbstats.reporting.plackett_luce import plackett_luce_section  # noqa: F401
from nbstats.reporting.results import ReportResults
from nbstats.reporting.settings import unpickled  # noqa: F401  (the cells call it)
from nbstats.reporting.tables import frame_table, result_table
from nbstats.reporting.two_sample import (  # noqa: F401  (the cells call them)
    bayes_two_sample,
    prior_text,
    two_sample,
)
from nbstats.results.number_policy import format_number
from nbstats.results.table_model import from_frame
from nbstats.stats.bayes.priors import FRIEDMAN_DEFAULT_S

#: In the compact layout, a pairwise table in the text holds the neighbours in
#: the ranking and, while the table stays below this many rows, the pairs
#: that differ significantly.
PAIRS_SHOWN = 60

#: A paragraph names at most this many pairwise decisions; above, it counts
#: them and points to the table.
MAX_PAIRS_STATED = 10


def _stat(value: float) -> str:
    """A test statistic as every table writes it (the number policy's
    "statistic": at most 2 decimals)."""
    return format_number(value, "statistic")


def omnibus(
    friedman: Any,
    bayes_friedman: Any,
    *,
    alpha: float,
    shape: tuple[int, int] | None = None,
    s: float = FRIEDMAN_DEFAULT_S,
    skillings_mack: Any = None,
) -> None:
    """Friedman, Iman–Davenport and Bayesian Friedman: a paragraph and a table.

    ``shape`` (cases, algorithms): when the Bayesian test is None because
    there are too few cases for it (:func:`bayes_friedman_minimum` with the
    prior strength ``s``), the paragraph says so. ``skillings_mack``
    (``nan_policy="pairwise"``): Friedman's test on every case, missing
    cells and all, beside the complete-case tests.
    """
    para = Paragraph()
    too_few = shape is not None and shape[0] < bayes_friedman_minimum(shape[1], s)
    if bayes_friedman is None and too_few and s == 0:
        para.add(
            "The Bayesian Friedman test with s = 0 (the Bayesian bootstrap) "
            f"needs at least twice as many cases as algorithms (n ≥ 2m); with "
            f"{shape[0]} cases and {shape[1]} algorithms it is not made (below, "
            "its posterior is often singular and rejects whatever the ranks). "
        )
        if friedman is None:
            paragraph(para)
            return
    elif bayes_friedman is None and too_few:
        para.add(
            "The Bayesian Friedman test needs at least as many cases as "
            f"algorithms (n ≥ m); with {shape[0]} cases and {shape[1]} "
            "algorithms it is not made (below, its posterior does not depend on "
            "the ranks). "
        )
        if friedman is None:
            paragraph(para)
            return
    rows: dict[str, list[str]] = {}
    cases: dict[str, int] = {}  # the cases of each test
    files: dict[str, str] = {}
    if friedman is not None:
        cases["Friedman χ²"] = cases["Iman–Davenport F"] = friedman.n_cases
        verdict = "rejects" if friedman.pvalue <= alpha else "does not reject"
        f_verdict = "rejects" if friedman.f_pvalue <= alpha else "does not reject"
        para.add(
            f"The Friedman test {verdict} the hypothesis that all algorithms "
            f"perform equally at α = {_n(alpha)} (",
            CHI2_F,
            f" = {_stat(friedman.statistic)}, df = {friedman.df}, "
            f"p {_p(friedman.pvalue)}); the less conservative Iman–Davenport "
            f"statistic {f_verdict} it (",
            F_F,
            f" = {_stat(friedman.f_statistic)}, df = ({friedman.f_df[0]}, "
            f"{friedman.f_df[1]}), p {_p(friedman.f_pvalue)}). ",
        )
        rows["Friedman χ²"] = [
            _stat(friedman.statistic),
            f"df = {friedman.df}",
            f"p {_p(friedman.pvalue)}",
            "rejected" if friedman.pvalue <= alpha else "not rejected",
        ]
        rows["Iman–Davenport F"] = [
            _stat(friedman.f_statistic),
            f"df = ({friedman.f_df[0]}, {friedman.f_df[1]})",
            f"p {_p(friedman.f_pvalue)}",
            "rejected" if friedman.f_pvalue <= alpha else "not rejected",
        ]
        files["friedman.tex"] = table_latex(friedman.table_model(label="tab:friedman"))
    if skillings_mack is not None:
        sm = skillings_mack
        cases["Skillings–Mack T"] = sm.n_cases
        verdict = "rejects" if sm.pvalue <= alpha else "does not reject"
        para.add(
            "On every case, missing scores included, Skillings and Mack's test "
            f"(Friedman's test for missing cells) {verdict} it (T = "
            f"{_stat(sm.statistic)}, df = {sm.df}, p {_p(sm.pvalue)}). "
        )
        rows["Skillings–Mack T"] = [
            _stat(sm.statistic),
            f"df = {sm.df}",
            f"p {_p(sm.pvalue)}",
            "rejected" if sm.pvalue <= alpha else "not rejected",
        ]
    if bayes_friedman is not None:
        bf = bayes_friedman
        cases["Bayesian Friedman"] = bf.n_cases
        level = f"{_n(100 * bf.threshold)}%"
        para.add(
            f"The Bayesian Friedman test (s = {_n(bf.s)}) concludes: "
            f"{bf.decision}; the smallest credible region containing equal mean "
            f"ranks has level {format_number(bf.credibility, 'probability')}. "
        )
        rows["Bayesian Friedman"] = [
            f"D² = {_stat(bf.statistic)}",
            f"{_stat(bf.rho)} ({level})",
            format_number(bf.credibility, "probability"),
            "differ" if bf.reject else "no evidence",
        ]
        files["bayes_friedman.tex"] = table_latex(
            bf.table_model(label="tab:bayes-friedman")
        )
    para.add("See ", ref("tab:omnibus"), ".")
    paragraph(para)
    frame = pd.DataFrame.from_dict(
        rows,
        orient="index",
        columns=["statistic", "df / threshold", "p-value / credibility", "decision"],
    )
    frame.index.name = "test"
    caption = "Omnibus tests of the hypothesis that all algorithms perform equally"
    if len(set(cases.values())) > 1:  # each row says its own cases
        frame["cases"] = [f"{cases[test]:,}" for test in frame.index]
        caption += " (cases: those each test used)"
    elif cases:
        caption += f" on the {next(iter(cases.values())):,} cases"
    if friedman is not None:
        caption += (
            f": Friedman's χ² and the Iman–Davenport F reject it or not at "
            f"α = {_n(alpha)}"
        )
    if bayes_friedman is not None:
        caption += (
            f"{';' if friedman is not None else ':'} the Bayesian Friedman test "
            f"(s = {_n(bayes_friedman.s)}) finds the algorithms different when "
            "D², the squared Mahalanobis distance of equal mean ranks from the "
            "posterior, exceeds its threshold at the credible level, i.e. when "
            "the credibility (level of the smallest credible region containing "
            "equal mean ranks) exceeds that level"
        )
    caption += "."
    model = from_frame(frame, caption=caption, label="tab:omnibus")
    table(model, files={"omnibus.tex": None, **files})


def posthoc(nemenyi: Any, holm: Any, *, compact: bool = False) -> None:
    """Nemenyi (its table; the CD diagram is Figure 1, in the answer-first
    part) and Holm against the best-ranked.

    ``compact``: the table holds the pairs that matter (neighbours in the
    ranking, and significant pairs while they fit); Holm's table moves to
    the appendix.
    """
    para = Paragraph().add(
        f"With the Nemenyi test at α = {_n(nemenyi.alpha)} the critical "
        f"difference of mean ranks is CD = {_stat(nemenyi.critical_difference)}. "
    )
    significant = nemenyi.significant_pairs()
    total = len(nemenyi.to_frame())
    if significant and len(significant) <= MAX_PAIRS_STATED:
        para.add(
            "Significantly different: "
            + "; ".join(f"{a} and {b}" for a, b in significant)
            + ". "
        )
    elif significant:
        para.add(
            f"{len(significant)} of the {total} pairs are significantly different. "
        )
    else:
        para.add("No two algorithms are significantly different. ")
    para.add(
        ref("fig:cd"),
        " (above) shows the critical-difference diagram and ",
        ref("tab:nemenyi"),
        " the pairs that matter (all pairs: " if compact else " every pair. ",
    )
    if compact and typeset_pairs(total):
        para.add(ref("tab:nemenyi-all"), "). ")
    elif compact:
        para.add("the file nemenyi_pairs.csv in the Appendix). ")
    rejected = [str(b) for b, r in holm.reject.items() if r]
    para.add(f"Against the best-ranked algorithm, {holm.control}, Holm's procedure ")
    if rejected and len(rejected) <= MAX_PAIRS_STATED:
        para.add(f"finds {_and(rejected)} significantly different from it")
    elif rejected:
        para.add(
            f"finds {len(rejected)} of the other {len(holm.reject)} algorithms "
            "significantly different from it"
        )
    else:
        para.add("finds no algorithm significantly different from it")
    para.add(" (", ref("tab:holm"), ").")
    paragraph(para)
    if not compact:
        result_table(
            nemenyi,
            "tab:nemenyi",
            f"Nemenyi test of every pair at α = {_n(nemenyi.alpha)} on the "
            f"{nemenyi.n_cases:,} cases: mean ranks, "
            "z statistic (positive when the second algorithm ranks better), "
            "unadjusted and Nemenyi-adjusted p-values, and whether the pair "
            f"differs{effect_caption('tab:nemenyi')}",
        )
        result_table(
            holm,
            "tab:holm",
            f"Every algorithm against the best-ranked one, {holm.control}: z-tests "
            f"on mean ranks with Holm's step-down correction at α = "
            f"{_n(holm.alpha)}, on the {holm.n_cases:,} cases"
            f"{effect_caption('tab:holm')}",
        )
        return
    pairs_frame = nemenyi.to_frame()
    order = list(nemenyi.mean_ranks.sort_values(kind="stable").index)
    keep = adjacent_pairs(pairs_frame["a"], pairs_frame["b"], order)
    with_significant = keep | pairs_frame["reject"].to_numpy(dtype=bool)
    shown = "neighbours in the ranking"
    if with_significant.sum() <= PAIRS_SHOWN:
        keep, shown = with_significant, shown + " and significantly different pairs"
    kept = pairs_frame[keep]
    frame = nemenyi._table()[keep].iloc[ranking_order(kept["a"], kept["b"], order)]
    frame_table(
        "tab:nemenyi",
        f"Nemenyi test at α = {_n(nemenyi.alpha)} on the {nemenyi.n_cases:,} "
        "cases, the pairs that matter "
        f"({shown}; {int(keep.sum())} of {total} pairs): mean ranks, z "
        "statistic, unadjusted and Nemenyi-adjusted p-values, and whether the "
        f"pair differs{effect_caption('tab:nemenyi')}",
        frame,
    )


def bayes_friedman_minimum(m: int, s: float = FRIEDMAN_DEFAULT_S) -> int:
    """Fewest cases :func:`nbstats.bayes_friedman` accepts for m algorithms
    with prior strength s (m, or 2m for s = 0)."""
    from nbstats.stats.bayes.friedman_calibration import minimum_cases

    return minimum_cases(m, s)


def rank_caption(rank_ci: Any, *, ordered: bool = False) -> str:
    """The caption of the rank-interval table: what its mean rank is, over
    which cases, and the order of its rows (``ordered``: Table 1's)."""
    level = f"{_n(100 * rank_ci.level)}%"
    n = f"{rank_ci.n_cases:,}"
    if rank_ci.incomplete:
        mean = (
            f"mean observed rank: over all {n} cases, each case ranking only "
            "the algorithms with a score on it, its ranks stretched onto "
            f"1–{rank_ci.n_algorithms} (for display; no test uses it)"
        )
    else:
        mean = f"mean rank over the {n} cases, as in Table 1"
    order = (
        "algorithms in the order of Table 1"
        if ordered
        else "algorithms by " + mean.split(":")[0]
    )
    return (
        f"{level} simultaneous confidence intervals for the ranks (1 = best; "
        f"{rank_ci._method_text()}), {order}; {mean}."
    )


def _rank_frame(rank_ci: Any, order: Sequence[str] | None) -> pd.DataFrame:
    """The rank-interval table (rows in ``order`` when given); its mean rank
    column named for what it is (:func:`rank_caption`)."""
    frame = rank_ci._table()
    if order is not None:
        frame = frame.reindex([str(name) for name in order])
    if rank_ci.incomplete:
        frame = frame.rename(columns={"mean rank": "mean observed rank"})
    return frame


def rank_intervals(
    rank_ci: Any, *, compact: bool = False, order: Sequence[str] | None = None
) -> None:
    """Confidence intervals for ranks: a paragraph, a table and a forest plot.

    ``compact``: the table moves to the appendix (the figure shows them all).
    ``order``: the report's order of the algorithms (Table 1's), for the
    table's rows and the figure's.
    """
    rc = rank_ci
    level = f"{_n(100 * rc.level)}%"
    method = rc._method_text()
    para = Paragraph().add(
        ref("tab:ranks"),
        " and ",
        ref("fig:ranks"),
        f" give {level} simultaneous confidence intervals for the ranks "
        f"(1 = best; {method}). ",
    )
    if rc.omnibus_rejected is False:
        para.add(
            f"The omnibus test does not reject equality (p "
            f"{_p(rc.omnibus_pvalue)}), so every interval is [1, {rc.n_algorithms}]. "
        )
    frame = _rank_frame(rc, order)
    top = frame.index[0]
    para.add(
        f"The best-ranked algorithm, {top}, ranks between "
        f"{int(frame['lower'].iloc[0])} and {int(frame['upper'].iloc[0])}."
    )
    paragraph(para)
    caption = rank_caption(rc, ordered=order is not None)
    if not compact:
        frame_table("tab:ranks", caption, frame)
    ax = rc.plot(
        width="double" if rc.n_algorithms > 12 else "single",
        order=None if order is None else [str(name) for name in order],
    )
    rows = "in the order of Table 1; " if order is not None else ""
    markers = (
        "mean observed ranks over every case"
        if rc.incomplete
        else f"mean ranks over the {rc.n_cases:,} cases"
    )
    figure(
        "fig:ranks",
        f"{level} confidence intervals for the ranks (lines) and each algorithm's "
        f"place in the order of {markers} (markers), 1 = best, {rows}"
        f"({method}).".replace(", (", " ("),
        ax.figure,
        paste=(
            rc,
            None,
            {} if order is None else {"order": [str(name) for name in order]},
        ),
    )


def methods(
    scores: pd.DataFrame,
    results: ReportResults,
    *,
    seed: int,
    loss: Sequence[float],
    higher_is_better: bool = True,
    folds: Any = None,
    dropped: int = 0,
    runs: int | None = None,
    score_unit: str | None = None,
    nemenyi_warning: str = "",
    cited: Sequence[str] = (),
    raw: pd.DataFrame | None = None,
    nan_policy: str = "raise",
) -> Paragraph:
    """Display the Methods paragraph of ``results`` (see
    :mod:`nbstats.reporting.methods`); ``raw`` and ``nan_policy``: the cases
    of each analysis (:func:`nbstats.reporting.cases.methods_cases`)."""
    from nbstats.reporting.methods import methods_paragraph

    para = methods_paragraph(
        results,
        n_cases=scores.shape[0],
        n_algorithms=scores.shape[1],
        higher_is_better=higher_is_better,
        seed=seed,
        folds=folds,
        dropped=dropped,
        loss=(float(loss[0]), float(loss[1])),
        fold_design=None if folds is None else fold_design_text(folds, runs),
        score_unit=score_unit,
        nemenyi_warning=nemenyi_warning,
        cited=cited,
        raw=raw,
        nan_policy=nan_policy,
    )
    paragraph(para, "nbstats-text nbstats-methods")
    return para


def references(*paras: Paragraph, small: bool = False) -> None:
    """Display the numbered reference list of the works ``paras`` cite.

    ``small``: set in a smaller type, tightly (the answer-first part alone,
    which must fit two pages).
    """
    from nbstats.reporting.methods import (
        references_html,
        references_latex,
        references_text,
    )

    # a later paragraph carries the earlier ones' keys first (Paragraph(cited))
    keys = list(dict.fromkeys(key for para in paras for key in para.keys))
    _display(
        {
            "text/html": '<h1 id="references">References</h1>' + references_html(keys),
            "text/latex": (
                # the heading of a subsection: the list is short
                "{\\scriptsize\\let\\section\\subsection"
                + references_latex(keys).replace(
                    "\n\\bibitem", "\n\\setlength{\\itemsep}{0pt}\\bibitem", 1
                )
                + "}\n"
                if small
                else references_latex(keys)
            ),
            "text/plain": "References\n" + references_text(keys),
        },
        {"nbstats": {"kind": "references", "keys": keys}},
    )


def appendix_ranks(rank_ci: Any, order: Sequence[str] | None = None) -> None:
    """The table of every rank interval (rows in ``order``: Table 1's)."""
    caption = rank_caption(rank_ci, ordered=order is not None)
    frame_table("tab:ranks", caption, _rank_frame(rank_ci, order))
