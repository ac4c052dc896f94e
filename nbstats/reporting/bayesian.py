"""The report's Bayesian comparisons of three or more algorithms.

The pairwise signed-rank table, the joint statements (with the same test,
rope and s, so the two never disagree) and their heatmap; the notebook calls
:func:`bayesian` through :mod:`nbstats.reporting.cells`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.appendix import csv_download, typeset_pairs
from nbstats.reporting.display import _and, _n, figure, paragraph, ref
from nbstats.reporting.methods import Paragraph
from nbstats.reporting.pairs import adjacent_pairs, effect_caption, ranking_order
from nbstats.reporting.tables import frame_table, result_table
from nbstats.reporting.two_sample import prior_text
from nbstats.results.bayes import interval_text
from nbstats.results.number_policy import format_number

__all__ = [
    "appendix_bayesian",
    "bayesian",
    "joint_caption",
    "joint_relation",
    "joint_rope_text",
    "signrank_frame",
]


#: The pair table's decisions that name no algorithm.
_DECISION = {
    "equivalent": "equivalent",
    "undecided": "undecided",
    "indeterminate": "indeterminate",
}


def joint_relation(value: float, threshold: float, *, above: bool) -> str:
    """A joint probability against the threshold, after "posterior probability".

    The probability is written by the number policy (kind
    ``"probability"``); when its rounded form would make the comparison read
    false (0.95004 is "0.950", not above 0.95), the number is left out and
    only the true comparison is stated.

    Examples
    --------
    >>> joint_relation(0.9623, 0.95, above=True)
    '0.962 > 0.95'
    >>> joint_relation(0.99996, 0.95, above=True)
    '> 0.999 > 0.95'
    >>> joint_relation(0.95004, 0.95, above=True)
    '> 0.95'
    """
    shown = format_number(value, "probability")
    symbol = ">" if above else "≤"
    if shown.startswith(("<", ">")):
        bound = float(shown[1:].strip())
        reads_true = (
            (shown[0] == ">" and bound >= threshold)
            if above
            else (shown[0] == "<" and bound <= threshold)
        )
    else:
        number = float(shown.replace("−", "-"))
        reads_true = number > threshold if above else number <= threshold
    comparison = f"{symbol} {_n(threshold)}"
    return f"{shown} {comparison}" if reads_true else comparison


def _decision_cell(row: Any) -> str:
    """The decision in words, naming the algorithm decided better."""
    if row.decision == "b":
        return f"{row.b} better"
    if row.decision == "a":
        return f"{row.a} better"
    return _DECISION[row.decision]


def _interval(row: Any, key: str) -> str:
    """A probability's bounds over the near-ignorance prior set, "lower to
    upper" (the number policy's three decimals)."""
    return interval_text(
        getattr(row, f"prob_{key}_lower"), getattr(row, f"prob_{key}_upper")
    )


def outcome_counts(signrank: Any, named: int = 10) -> Paragraph:
    """Every decision of a pairwise signed-rank result counted: the
    better-ranked algorithm decided better, the worse-ranked decided better
    (named, up to ``named`` pairs), equivalent, undecided, indeterminate;
    the counts add up to the number of pairs.

    Each pair (a, b) is (worse-ranked, better-ranked), as
    :func:`bayesian` computes them.
    """
    pairs = signrank.pairs
    decision = pairs["decision"]
    n_pairs = len(pairs)
    flipped = decision == "a"
    worse_better = [
        f"{a} over {b}"
        for a, b in zip(pairs["a"][flipped], pairs["b"][flipped], strict=True)
    ]
    if len(worse_better) > named:
        more = len(worse_better) - named + 1
        worse_better = [*worse_better[: named - 1], f"{more} more"]
    counts = {d: int((decision == d).sum()) for d in _OUTCOMES}
    parts = [
        f"the better-ranked algorithm is decided better in {counts['b']}",
        f"the worse-ranked in {counts['a']}"
        + (f" ({_and(worse_better)})" if worse_better else ""),
    ]
    if signrank.rope > 0 or counts["equivalent"]:
        parts.append(
            f"{_pairs_are(counts['equivalent'])} decided equivalent "
            f"(rope ±{_n(signrank.rope)})"
        )
    parts.append(
        f"{_pairs_are(counts['undecided'])} undecided (neither reaches the threshold)"
    )
    if signrank.prior == "idp" or counts["indeterminate"]:
        parts.append(
            f"{_pairs_are(counts['indeterminate'])} indeterminate (the lower and upper "
            "posterior probabilities straddle the threshold)"
        )
    return Paragraph().add(f"Of the {n_pairs} pairs, {_and(parts)}. ")


def _pairs_are(count: int) -> str:
    return f"{count} pair is" if count == 1 else f"{count} pairs are"


#: The decisions of a pair, every one counted by :func:`outcome_counts`.
_OUTCOMES = ("b", "a", "equivalent", "undecided", "indeterminate")


def signrank_frame(
    signrank: Any, keep: Any = None, label: str = "tab:signrank"
) -> tuple[pd.DataFrame, str]:
    """The pairwise signed-rank table (better-ranked first) and its caption.

    ``label``: the table it is shown as; its caption defines the effect size
    r if it is the report's first table with r, else refers to that one
    (:func:`~nbstats.reporting.pairs.effect_caption`).

    Under the near-ignorance prior every probability is an interval "lower
    to upper" over the prior set: P(the first better), P(rope) and P(the
    second better)."""
    pairs_frame = signrank.pairs if keep is None else signrank.pairs[keep]
    idp = signrank.prior == "idp" and "prob_right_upper" in pairs_frame
    rows = {}
    for row in pairs_frame.itertuples(index=False):
        if idp:
            entry = {"P(first better)": _interval(row, "right")}
            if signrank.rope > 0:
                entry["P(rope)"] = _interval(row, "rope")
            entry["P(second better)"] = _interval(row, "left")
        else:
            entry = {"P(better)": row.prob_right}
            if signrank.rope > 0:
                entry["P(rope)"] = row.prob_rope
        entry["decision"] = _decision_cell(row)
        if "effect" in pairs_frame:
            # rows name b first; r of the second minus the first (a − b), the
            # one convention of every pairwise table of a report (EFFECT_TEXT)
            entry["r"] = round(-float(row.effect), 2) + 0.0
        if "n" in pairs_frame:  # nan_policy="pairwise": each pair's own cases
            entry["cases"] = int(row.n)
        rows[f"{row.b} vs {row.a}"] = entry
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "comparison"
    caption = (
        "Bayesian signed-rank test of every pair, the better-ranked algorithm "
        "first: posterior probability that it is better than the second "
        f"({prior_text(signrank.prior, signrank.s)}"
        + (
            "; under the near-ignorance prior each probability is given "
            "lower to upper, the bounds over every prior of that strength)"
            if idp
            else ")"
        )
    )
    if signrank.rope > 0:
        caption += (
            ", probability that the two are practically equivalent (rope "
            f"±{_n(signrank.rope)})"
        )
    if idp:
        caption += ", probability that the second is better"
    if "n" in pairs_frame:
        caption += (
            ", on the cases where both algorithms have a score (cases; "
            "nan_policy = 'pairwise')"
        )
    else:  # every pair on the same cases: stated once
        caption += f", on the {signrank.n_cases:,} cases"
    lower = "lower " if idp else ""
    caption += (
        f", and the decision at threshold {_n(signrank.threshold)}: the "
        f"algorithm named is better when its {lower}probability exceeds it"
        + (f", equivalent when the {lower}P(rope) does" if signrank.rope > 0 else "")
        + (
            ", undecided when no upper probability does, indeterminate "
            "otherwise (the decision depends on the prior)"
            if idp
            else ", else undecided (neither reaches it)"
        )
    )
    caption += effect_caption(label) if "effect" in pairs_frame else "."
    return frame, caption


def _joint_caption(joint: Any) -> str:
    """The joint statements' caption; under the near-ignorance prior every
    probability in it is a lower probability over the prior set."""
    caption = joint_caption(joint)
    if getattr(joint, "prior", "point") != "idp":
        return caption
    return (
        caption.replace(
            f"test, s = {_n(joint.s)}",
            f"test under the near-ignorance prior, s = {_n(joint.s)}",
            1,
        )
        .replace(
            "by posterior probability (prob)",
            "by lower posterior probability (prob)",
            1,
        )
        .replace(
            "joint: probability that",
            "joint: lower probability (for every prior of the set) that",
            1,
        )
    )


def bayesian(
    signrank: Any, joint: Any, *, loss: Sequence[float], compact: bool = False
) -> None:
    """Pairwise Bayesian signed-rank tests, joint statements and their heatmap.

    ``signrank`` is the :func:`nbstats.bayes_signrank_pairs` result of the
    columns ordered worst to best, so each pair (a, b) is (worse, better).
    ``compact``: the signed-rank table holds the neighbours in the ranking
    (the rest in the appendix) and the joint statements are summarised.
    """
    pairs_frame = signrank.pairs
    n_pairs = len(pairs_frame)
    prior = prior_text(signrank.prior, signrank.s)
    para = Paragraph()
    para.add(
        ref("tab:signrank"),
        " compares "
        + ("the neighbours in the ranking" if compact else "every pair")
        + " with the Bayesian signed-rank test "
        f"({prior}; losses ({_n(loss[0])}, {_n(loss[1])}), so a threshold of "
        f"{_n(signrank.threshold)}). ",
    )
    para.add(*outcome_counts(signrank).pieces)
    accepted = joint.statements[joint.statements["accepted"]]
    lower = "lower " if getattr(joint, "prior", "point") == "idp" else ""
    if len(accepted) and len(accepted) <= 10:
        statements = [
            f"{b} {'≈' if relation == 'equivalent' else '>'} {w}"
            for b, w, relation in zip(
                accepted["better"], accepted["worse"], accepted["relation"], strict=True
            )
        ]
        together = float(accepted["joint"].iloc[-1])
        para.add(
            f"Jointly, the accepted statements are {_and(statements)}, which hold "
            f"together with {lower}posterior probability "
            f"{joint_relation(together, joint.threshold, above=True)} ("
        )
    elif len(accepted):
        together = float(accepted["joint"].iloc[-1])
        para.add(
            f"Jointly, {len(accepted)} of the {len(joint.statements)} statements "
            f"are accepted; they hold together with {lower}posterior probability "
            f"{joint_relation(together, joint.threshold, above=True)} ("
        )
    else:
        top = joint.statements.iloc[0]
        relation = "≈" if top["relation"] == "equivalent" else ">"
        para.add(
            "No joint statement is accepted: even the most probable, "
            f"{top['better']} {relation} {top['worse']}, has {lower}posterior "
            "probability "
            f"{joint_relation(float(top['prob']), joint.threshold, above=False)} ("
        )
    if not compact or typeset_pairs(len(joint.statements)):
        para.add(ref("tab:joint"), ", ", ref("fig:joint"), ").")
    else:
        para.add(
            ref("fig:joint"), "; all statements: joint_statements.csv in the Appendix)."
        )
    paragraph(para)
    if compact:
        order = list(signrank.mean_ranks.sort_values(kind="stable").index)
        keep = adjacent_pairs(pairs_frame["a"], pairs_frame["b"], order)
        frame, caption = signrank_frame(signrank, keep)
        kept = pairs_frame[keep]
        frame = frame.iloc[ranking_order(kept["a"], kept["b"], order)]
        caption = caption.replace(
            "of every pair",
            f"of the neighbours in the ranking ({int(keep.sum())} "
            f"of {n_pairs} pairs; all pairs in the Appendix)",
            1,
        )
        frame_table("tab:signrank", caption, frame)
    else:
        frame, caption = signrank_frame(signrank)
        frame_table("tab:signrank", caption, frame)
        result_table(joint, "tab:joint", _joint_caption(joint))
    m = len(joint.mean_ranks)
    ax = joint.plot(kind="heatmap", width="double" if m > 6 else "single")
    rope = joint_rope_text(joint)
    figure(
        "fig:joint",
        ("Lower posterior" if lower else "Posterior")
        + " probability that the column algorithm is better than the row "
        f"algorithm (Bayesian {joint.test_name} test, s = {_n(joint.s)}{rope}"
        + ("" if joint.cases is None else f", on the {len(joint.cases):,} cases")
        + "), "
        "algorithms in the order of Table 1 (mean rank over its cases); framed "
        "cells are accepted joint statements"
        + (
            ", dashed frames accepted statements of practical equivalence."
            if getattr(joint, "rope", 0) > 0
            else "."
        ),
        ax.figure,
        paste=(joint, "heatmap", {}),
    )


def signrank_csv_text(signrank: Any) -> str:
    """What ``signrank_pairs.csv`` holds, column by column: its rows are the
    result's pairs (a, b), b the better-ranked, not the table's "better-ranked
    first" rows, so the table's caption would give r the wrong sign.

    Examples
    --------
    >>> class Pairs:
    ...     prior = "idp"
    >>> signrank_csv_text(Pairs).split("; ")[-1].split(" (")[0]
    'effect: the matched-pairs rank-biserial correlation of b minus a'
    """
    bounds = (
        " (under the near-ignorance prior each with its _lower and _upper bound)"
        if signrank.prior == "idp"
        else ""
    )
    return (
        "Bayesian signed-rank test of every pair, one row per pair (a, b), b the "
        f"better-ranked: prob_left, prob_rope, prob_right{bounds} = P(a better), "
        "P(practically equivalent), P(b better); decision: a, b (the one decided "
        "better), equivalent, undecided or indeterminate; effect: the matched-pairs "
        "rank-biserial correlation of b minus a (> 0 when b is better)"
    )


def appendix_bayesian(signrank: Any, joint: Any) -> None:
    """Every pair's Bayesian signed-rank test and every joint statement."""
    frame, caption = signrank_frame(signrank, label="tab:signrank-all")
    csv_download("signrank_pairs.csv", signrank_csv_text(signrank), signrank.to_frame())
    if typeset_pairs(len(frame)):
        frame_table("tab:signrank-all", caption, frame)
    caption = _joint_caption(joint)
    csv_download("joint_statements.csv", caption, joint.statements)
    if typeset_pairs(len(joint.statements)):
        result_table(joint, "tab:joint", caption)


def joint_rope_text(joint: Any) -> str:
    """``", rope ±0.01"`` when the joint statements have a rope, else ``""``."""
    rope = getattr(joint, "rope", 0)
    return f", rope ±{_n(rope)}" if rope > 0 else ""


def joint_caption(joint: Any) -> str:
    """Caption of the table of joint statements."""
    return (
        f"Joint Bayesian statements (Bayesian {joint.test_name} test, s = "
        f"{_n(joint.s)}{joint_rope_text(joint)}"
        + ("" if joint.cases is None else f", on the {len(joint.cases):,} cases")
        + ") sorted by posterior probability "
        "(prob); > : better, ≈ : practically equivalent; joint: "
        "probability that the statement and all those above it hold "
        f"together; accepted while joint > {_n(joint.threshold)}."
    )
