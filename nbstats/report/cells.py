"""The report's sections, called by the report notebook's hidden cells (in the kernel).

Each section displays its paragraphs, tables and figures through
:mod:`nbstats.report.display` (numbered floats in HTML, LaTeX and text); the
Data section lives in :mod:`nbstats.report.data`. The notebook itself is built
by :mod:`nbstats.report.notebook`; its cells call this module as ``report``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.report.data import (  # noqa: F401  (the cells call them)
    LONGTABLE_ROWS,
    scores_table,
    summary,
)
from nbstats.report.display import (  # noqa: F401  (the cells call them)
    _and,
    _display,
    _n,
    _p,
    figure,
    paragraph,
    ref,
    start,
    table,
)
from nbstats.report.methods import CHI2_F, F_F, Paragraph
from nbstats.report.notebook import read_scores  # noqa: F401  (the cells call it)
from nbstats.results import render
from nbstats.results.render import format_value


def pairs(order: Sequence[str]) -> list[tuple[str, str]]:
    """``(better-ranked, worse-ranked)`` for every pair of ``order`` (best first)."""
    return [(order[i], order[j]) for i, j in _index_pairs(len(order))]


def _index_pairs(m: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(m), 2))


def _frame_text(frame: pd.DataFrame) -> str:
    return frame.map(format_value).to_string()


def _result_table(result: Any, label: str, caption: str) -> None:
    """A result's own table: ``to_latex()`` for LaTeX, the same rows in HTML."""
    frame = result._table()
    table(
        label,
        caption,
        html_table=render.html_table(frame),
        latex=result.to_latex(caption=caption, label=label),
        plain=_frame_text(frame),
    )


def omnibus(friedman: Any, bayes_friedman: Any, *, alpha: float) -> None:
    """Friedman, Iman–Davenport and Bayesian Friedman: a paragraph and a table."""
    para = Paragraph()
    rows: dict[str, list[str]] = {}
    files: dict[str, str] = {}
    if friedman is not None:
        verdict = "rejects" if friedman.pvalue <= alpha else "does not reject"
        f_verdict = "rejects" if friedman.f_pvalue <= alpha else "does not reject"
        para.add(
            f"The Friedman test {verdict} the hypothesis that all algorithms "
            f"perform equally at α = {_n(alpha)} (",
            CHI2_F,
            f" = {_n(friedman.statistic)}, df = {friedman.df}, "
            f"p {_p(friedman.pvalue)}); the less conservative Iman–Davenport "
            f"statistic {f_verdict} it (",
            F_F,
            f" = {_n(friedman.f_statistic)}, df = ({friedman.f_df[0]}, "
            f"{friedman.f_df[1]}), p {_p(friedman.f_pvalue)}). ",
        )
        rows["Friedman χ²"] = [
            _n(friedman.statistic),
            f"df = {friedman.df}",
            f"p {_p(friedman.pvalue)}",
            "reject" if friedman.pvalue <= alpha else "keep",
        ]
        rows["Iman–Davenport F"] = [
            _n(friedman.f_statistic),
            f"df = ({friedman.f_df[0]}, {friedman.f_df[1]})",
            f"p {_p(friedman.f_pvalue)}",
            "reject" if friedman.f_pvalue <= alpha else "keep",
        ]
        files["friedman.tex"] = friedman.to_latex(label="tab:friedman")
    if bayes_friedman is not None:
        bf = bayes_friedman
        level = f"{_n(100 * bf.credible_level)}%"
        para.add(
            f"The Bayesian Friedman test (s = {_n(bf.s)}) concludes: "
            f"{bf.decision}; the smallest credible region containing equal mean "
            f"ranks has level {_n(bf.credibility)}. "
        )
        rows["Bayesian Friedman"] = [
            f"D² = {_n(bf.statistic)}",
            f"{_n(bf.rho)} ({level})",
            _n(bf.credibility),
            "differ" if bf.reject else "no evidence",
        ]
        files["bayes_friedman.tex"] = bf.to_latex(label="tab:bayes-friedman")
    para.add("See ", ref("tab:omnibus"), ".")
    paragraph(para)
    frame = pd.DataFrame.from_dict(
        rows,
        orient="index",
        columns=["statistic", "df / threshold", "p-value / credibility", "decision"],
    )
    frame.index.name = "test"
    caption = "Omnibus tests of the hypothesis that all algorithms perform equally"
    if friedman is not None:
        caption += (
            f": Friedman's χ² and the Iman–Davenport F reject it or keep it at "
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
    latex = render.latex_table(frame, caption=caption, label="tab:omnibus")
    table(
        "tab:omnibus",
        caption,
        html_table=render.html_table(frame),
        latex=latex,
        plain=frame.to_string(),
        files={"omnibus.tex": latex, **files},
    )


def posthoc(nemenyi: Any, holm: Any) -> None:
    """Nemenyi (CD diagram and table) and Holm against the best-ranked."""
    para = Paragraph().add(
        f"With the Nemenyi test at α = {_n(nemenyi.alpha)} the critical "
        f"difference of mean ranks is CD = {_n(nemenyi.critical_difference)}. "
    )
    significant = nemenyi.significant_pairs()
    if significant:
        para.add(
            "Significantly different: "
            + "; ".join(f"{a} better than {b}" for a, b in significant)
            + ". "
        )
    else:
        para.add("No two algorithms differ significantly. ")
    para.add(
        ref("fig:cd"),
        " shows the critical-difference diagram and ",
        ref("tab:nemenyi"),
        " every pair. ",
    )
    rejected = [str(b) for b, r in holm.reject.items() if r]
    para.add(f"Against the best-ranked algorithm, {holm.control}, Holm's procedure ")
    if rejected:
        para.add(f"finds {_and(rejected)} significantly worse")
    else:
        para.add("finds no algorithm significantly worse")
    para.add(" (", ref("tab:holm"), ").")
    paragraph(para)
    m = len(nemenyi.mean_ranks)
    ax = nemenyi.plot(width="double")
    figure(
        "fig:cd",
        f"Critical-difference diagram: mean ranks (1 = best) of the {m} "
        f"algorithms and the Nemenyi critical difference CD = "
        f"{_n(nemenyi.critical_difference)} at α = {_n(nemenyi.alpha)}; "
        "algorithms joined by a bar do not differ significantly.",
        ax.figure,
    )
    _result_table(
        nemenyi,
        "tab:nemenyi",
        f"Nemenyi test of every pair at α = {_n(nemenyi.alpha)}: mean ranks, "
        "z statistic (positive when the second algorithm ranks better), "
        "unadjusted and Nemenyi-adjusted p-values, and whether the pair differs.",
    )
    _result_table(
        holm,
        "tab:holm",
        f"Every algorithm against the best-ranked one, {holm.control}: z-tests "
        f"on mean ranks with Holm's step-down correction at α = {_n(holm.alpha)}.",
    )


_DECISION = {"b": "better", "a": "not better", "indeterminate": "indeterminate"}


def bayesian(signrank: Sequence[Any], joint: Any, *, loss: Sequence[float]) -> None:
    """Pairwise Bayesian signed-rank tests, joint statements and their heatmap."""
    first = signrank[0] if signrank else None
    rows = {}
    for res in signrank:
        row = {
            "P(better), lower": res.prob_lower,
            "P(better), upper": res.prob_upper,
        }
        if res.rope > 0:
            row["P(rope)"] = res.prob_rope
        row["decision"] = _DECISION[res.decision]
        rows[f"{res.name_b} vs {res.name_a}"] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "comparison"
    para = Paragraph()
    if first is not None:
        prior = {
            "idp": f"near-ignorance prior, s = {_n(first.s)}",
            "bb": "Bayesian bootstrap, s → 0",
            "point": f"prior s = {_n(first.s)} at 0",
        }[first.prior]
        better = [f"{r.name_b} over {r.name_a}" for r in signrank if r.decision == "b"]
        unsure = [r for r in signrank if r.decision == "indeterminate"]
        para.add(
            ref("tab:signrank"),
            " compares every pair with the Bayesian signed-rank test "
            f"({prior}; losses ({_n(loss[0])}, {_n(loss[1])}), so a threshold of "
            f"{_n(first.threshold)}). ",
        )
        if better:
            para.add(
                f"The better-ranked algorithm is decided better for {_and(better)}"
            )
        else:
            para.add("No pair is decided in favour of the better-ranked algorithm")
        if unsure:
            para.add(
                f"; {len(unsure)} pair{'s are' if len(unsure) > 1 else ' is'} "
                "indeterminate (the lower and upper posterior probabilities "
                "straddle the threshold)"
            )
        para.add(". ")
    accepted = joint.statements[joint.statements["accepted"]]
    if len(accepted):
        statements = [
            f"{b} > {w}"
            for b, w in zip(accepted["better"], accepted["worse"], strict=True)
        ]
        together = float(accepted["joint"].iloc[-1])
        para.add(
            f"Jointly, the accepted statements are {_and(statements)}, which hold "
            f"together with posterior probability {_n(together)} "
            f"> 1 − γ = {_n(1 - joint.gamma)} ("
        )
    else:
        top = joint.statements.iloc[0]
        para.add(
            "No joint statement is accepted: even the most probable, "
            f"{top['better']} > {top['worse']}, has posterior probability "
            f"{_n(float(top['prob']))} ≤ 1 − γ = {_n(1 - joint.gamma)} ("
        )
    para.add(ref("tab:joint"), ", ", ref("fig:joint"), ").")
    paragraph(para)
    if first is not None:
        caption = (
            "Bayesian signed-rank test of every pair, the better-ranked algorithm "
            "first: posterior probability that it is better than the second "
            f"({prior}; under the near-ignorance prior the lower and upper "
            "probabilities bound those of every prior of that strength)"
        )
        if first.rope > 0:
            caption += (
                f", probability that the two are practically equivalent (rope "
                f"±{_n(first.rope)})"
            )
        caption += (
            f", and the decision at threshold {_n(first.threshold)}: better, not "
            "better, or indeterminate when the lower and upper probabilities "
            "straddle the threshold."
        )
        table(
            "tab:signrank",
            caption,
            html_table=render.html_table(frame),
            latex=render.latex_table(frame, caption=caption, label="tab:signrank"),
            plain=_frame_text(frame),
        )
    _result_table(
        joint,
        "tab:joint",
        f"Joint Bayesian statements (Bayesian {joint.test} test, s = {_n(joint.s)}) "
        "sorted by posterior probability (prob); joint: probability that the "
        "statement and all those above it hold together; accepted while joint > "
        f"1 − γ = {_n(1 - joint.gamma)}.",
    )
    m = len(joint.mean_ranks)
    ax = joint.plot(kind="heatmap", width="double" if m > 6 else "single")
    figure(
        "fig:joint",
        "Posterior probability that the column algorithm is better than the row "
        f"algorithm (Bayesian {joint.test} test, s = {_n(joint.s)}), algorithms "
        "by mean rank; framed cells are accepted joint statements.",
        ax.figure,
    )


def rank_intervals(rank_ci: Any) -> None:
    """Confidence intervals for ranks: a paragraph, a table and a forest plot."""
    from nbstats.results.ranking import _METHOD_TEXT

    rc = rank_ci
    level = f"{_n(100 * rc.confidence_level)}%"
    method = _METHOD_TEXT[rc.method]
    para = Paragraph().add(
        ref("tab:ranks"),
        " and ",
        ref("fig:ranks"),
        f" give {level} simultaneous confidence intervals for the ranks "
        f"(1 = best; {method}). ",
    )
    if rc.omnibus_rejected is False:
        para.add(
            f"The omnibus test does not reject equality (p = "
            f"{_n(rc.omnibus_pvalue)}), so every interval is [1, {rc.n_algorithms}]. "
        )
    frame = rc.to_frame()
    top = frame.iloc[0]
    para.add(
        f"The best-ranked algorithm, {top['algorithm']}, ranks between "
        f"{int(top['lower'])} and {int(top['upper'])}."
    )
    paragraph(para)
    _result_table(
        rc,
        "tab:ranks",
        f"{level} simultaneous confidence intervals for the ranks (1 = best; "
        f"{method}), by mean rank.",
    )
    ax = rc.plot(width="double" if rc.n_algorithms > 12 else "single")
    figure(
        "fig:ranks",
        f"{level} confidence intervals for the ranks (lines) and mean ranks "
        f"(markers), 1 = best ({method}).",
        ax.figure,
    )


def methods(
    scores: pd.DataFrame,
    *,
    seed: int,
    loss: Sequence[float],
    higher_is_better: bool = True,
    friedman: Any = None,
    nemenyi: Any = None,
    holm: Any = None,
    bayes_friedman: Any = None,
    signrank: Sequence[Any] = (),
    joint: Any = None,
    rank_ci: Any = None,
) -> Paragraph:
    """Display the Methods paragraph (see :mod:`nbstats.report.methods`)."""
    from nbstats.report.methods import methods_paragraph

    para = methods_paragraph(
        n_cases=scores.shape[0],
        n_algorithms=scores.shape[1],
        higher_is_better=higher_is_better,
        seed=seed,
        friedman=friedman,
        nemenyi=nemenyi,
        holm=holm,
        bayes_friedman=bayes_friedman,
        signrank=list(signrank),
        loss=(float(loss[0]), float(loss[1])),
        bayes_posthoc=joint,
        rank_ci=rank_ci,
    )
    paragraph(para, "nbstats-text nbstats-methods")
    return para


def references(para: Paragraph) -> None:
    """Display the numbered reference list of the works ``para`` cites."""
    from nbstats.report.methods import (
        references_html,
        references_latex,
        references_text,
    )

    keys = para.keys
    _display(
        {
            "text/html": '<h1 id="references">References</h1>' + references_html(keys),
            "text/latex": references_latex(keys),
            "text/plain": "References\n" + references_text(keys),
        },
        {"nbstats": {"kind": "references", "keys": keys}},
    )
