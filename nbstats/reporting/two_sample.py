"""The two-algorithm report: Wilcoxon, the sign test and their Bayesian versions.

With two algorithms there is nothing for the Friedman test or a
critical-difference diagram to add: Demšar (2006, §3.1) compares two
classifiers over several data sets with the Wilcoxon signed-ranks test (and
the weaker sign test); Benavoli et al. give their Bayesian counterparts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from nbstats.reporting.display import _n, _p, figure, paragraph, ref
from nbstats.reporting.references import Paragraph
from nbstats.reporting.tables import frame_table
from nbstats.results.bayes import interval_text
from nbstats.results.effect_size import magnitude
from nbstats.results.number_policy import format_number, format_relation

__all__ = ["bayes_two_sample", "effect_magnitude", "prior_text", "two_sample"]


def _stat(value: float) -> str:
    return format_number(value, "statistic")


def _prob(value: float) -> str:
    return format_number(value, "probability")


def _prob_is(value: float) -> str:
    """``= 0.742``, or ``> 0.999`` alone (:func:`format_relation`)."""
    return format_relation(value, "probability")


def _effect(value: float) -> str:
    return format_number(value, "effect")


def prior_text(prior: str, s: float) -> str:
    """The signed-rank test's prior in words ("near-ignorance prior, s = 0.5616")."""
    return {
        "idp": f"near-ignorance prior, s = {_n(s)}",
        "bb": "Bayesian bootstrap, s → 0",
        "point": f"prior s = {_n(s)} at 0",
    }[prior]


def effect_magnitude(r: float) -> str:
    """The word for a rank-biserial correlation ``r`` (Cohen's conventions).

    Examples
    --------
    >>> from nbstats.reporting.two_sample import effect_magnitude
    >>> effect_magnitude(0.7714), effect_magnitude(-0.05)
    ('large', 'negligible')
    """
    # Cohen's (1988) words for a correlation, as every effect column's
    return magnitude("rank-biserial", float(r)) or "large"


def two_sample(wilcoxon: Any, sign: Any, *, alpha: float) -> None:
    """The frequentist two-sample tests: a paragraph and a table."""
    a, b = wilcoxon.name_a, wilcoxon.name_b
    w_reject = wilcoxon.pvalue <= alpha
    s_reject = sign.pvalue <= alpha
    r = wilcoxon.effect_size
    para = Paragraph().add(
        f"With two algorithms the report compares {b} with {a} case by case, "
        "with the Wilcoxon signed-ranks test and the sign test, as recommended "
        "by Demšar (2006) for two algorithms; positive differences favour "
        f"{b}. The Wilcoxon test "
        f"{'rejects' if w_reject else 'does not reject'} equal performance at "
        f"α = {_n(alpha)} (T = {_stat(wilcoxon.statistic)}, p {_p(wilcoxon.pvalue)}; "
        f"rank sums R⁺ = {_stat(wilcoxon.r_plus)} for {b} and R⁻ = "
        f"{_stat(wilcoxon.r_minus)} for {a}); the effect, the matched-pairs "
        f"rank-biserial correlation r = {_effect(r)}, is {effect_magnitude(r)}. "
        f"{b} wins on {sign.wins} cases and loses on {sign.losses}, with "
        f"{sign.n_ties} ties; the sign test ",
        f"{'rejects' if s_reject else 'does not reject'} equality "
        f"(p {_p(sign.pvalue)}). See ",
        ref("tab:two-sample"),
        ".",
    )
    paragraph(para)
    frame = pd.DataFrame(
        {
            "statistic": [
                f"T = {_stat(wilcoxon.statistic)}",
                f"{format_number(sign.statistic, 'count')} wins of {b}",
            ],
            "p-value": [_p(wilcoxon.pvalue), _p(sign.pvalue)],
            "details": [
                f"R⁺ = {_stat(wilcoxon.r_plus)}, R⁻ = {_stat(wilcoxon.r_minus)}; "
                f"r = {_effect(r)} ({effect_magnitude(r)})",
                f"wins / losses / ties = {sign.wins} / {sign.losses} / {sign.n_ties}",
            ],
            "decision": [
                "rejected" if w_reject else "not rejected",
                "rejected" if s_reject else "not rejected",
            ],
        },
        index=pd.Index(["Wilcoxon signed-ranks", "sign test"], name="test"),
    )
    frame_table(
        "tab:two-sample",
        f"Two-sided tests of equal performance of {a} and {b} at α = "
        f"{_n(alpha)}, on the {wilcoxon.n_cases:,} cases: Wilcoxon signed-ranks test "
        "(T = min(R⁺, R⁻); R⁺ sums "
        f"the ranks of the cases {b} wins; r = (R⁺ − R⁻)/(R⁺ + R⁻) is the "
        "matched-pairs rank-biserial correlation, |r| < 0.1 negligible, < 0.3 "
        "small, < 0.5 medium, else large) and sign test (wins of "
        f"{b}, ties split).",
        frame,
    )


def _label(decision: str, a: str, b: str) -> str:
    """A decision in a table cell, naming the algorithm ("HC2 better")."""
    return {"b": f"{b} better", "a": f"{a} better"}.get(decision, decision)


def bayes_two_sample(signrank: Any, sign: Any, *, loss: Sequence[float]) -> None:
    """The Bayesian signed-rank and sign tests: paragraph, table and posterior."""
    a, b = signrank.name_a, signrank.name_b
    rope = signrank.rope
    para = Paragraph().add(
        "The Bayesian signed-rank test and the Bayesian sign test (Benavoli et "
        "al. 2014, 2015, 2017; see Methods) give the posterior probability that "
        f"{b} is better than {a}",
    )
    if rope > 0:
        para.add(
            f", that the two are equivalent (difference within the rope "
            f"±{_n(rope)}), and that {a} is better"
        )
    para.add(
        f". With losses ({_n(loss[0])}, {_n(loss[1])}), {b} is declared better "
        f"when that probability exceeds {_n(signrank.threshold)}. "
    )
    if signrank.prior == "idp":
        para.add(
            f"Under the near-ignorance prior the signed-rank test gives "
            f"P({b} better) between {_prob(signrank.prob_lower)} and "
            f"{_prob(signrank.prob_upper)}: "
        )
    else:
        para.add(
            f"The signed-rank test gives P({b} better) "
            f"{_prob_is(signrank.prob_right)}: "
        )
    para.add(f"{_words(signrank.decision, a, b, rope)}. ")
    para.add(
        f"The sign test gives P({b} better) {_prob_is(sign.prob_right)}: "
        f"{_words(sign.decision, a, b, rope)} (",
        ref("tab:bayes-two-sample"),
        ", ",
        ref("fig:posterior"),
        ").",
    )
    paragraph(para)
    rows = {}
    regions = {f"P({a} better)": "left", "P(rope)": "rope", f"P({b} better)": "right"}
    if rope <= 0:
        del regions["P(rope)"]
    for label, res in (("Bayesian signed-rank", signrank), ("Bayesian sign", sign)):
        row: dict[str, object] = {}
        for column, region in regions.items():
            value = getattr(res, f"prob_{region}")
            if getattr(res, "prior", None) == "idp":
                # the near-ignorance prior: every probability is an interval
                # over the prior set, lower to upper
                low = getattr(res, f"prob_{region}_lower")
                high = getattr(res, f"prob_{region}_upper")
                row[column] = interval_text(low, high)
            elif signrank.prior == "idp":
                # a column that holds intervals is text: each cell by the policy
                row[column] = _prob(value)
            else:
                row[column] = value
        row["decision"] = _label(res.decision, a, b)
        rows[label] = row
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "test"
    prior = prior_text(signrank.prior, signrank.s)
    frame_table(
        "tab:bayes-two-sample",
        f"Bayesian tests of {b} against {a} on the {signrank.n_cases:,} cases: "
        "posterior probabilities of each "
        + ("region (rope ±" + _n(rope) + ")" if rope > 0 else "direction")
        + f" (signed-rank: {prior}; sign: s = {_n(sign.s)}), and the decision "
        f"at threshold {_n(signrank.threshold)}: {b} better or {a} better when "
        "that side's probability exceeds it"
        + (", equivalent when P(rope) does" if rope > 0 else "")
        + ", else undecided"
        + (
            "; under the near-ignorance prior every probability is given "
            "'lower to upper' over the prior set, a decision needs the lower "
            "probability to exceed the threshold, and it is indeterminate when "
            "a lower and an upper probability straddle it."
            if signrank.prior == "idp"
            else "."
        ),
        frame,
    )
    kind = "simplex" if rope > 0 else "posterior"
    ax = signrank.plot(kind=kind)
    what = (
        "posterior probabilities of the three regions (simplex)"
        if rope > 0
        else "posterior density of θ, the probability that " + b + " is better"
    )
    figure(
        "fig:posterior",
        f"Bayesian signed-rank test of {b} against {a}: {what} ({prior}).",
        ax.figure,
        paste=(signrank, kind, {}),
    )


def _words(decision: str, a: str, b: str, rope: float) -> str:
    return {
        "b": f"{b} is decided better",
        "a": f"{a} is decided better",
        "equivalent": f"{a} and {b} are decided equivalent",
        "undecided": (
            "no region reaches the threshold: undecided"
            if rope > 0
            else f"undecided: neither {b} nor {a} reaches the threshold"
        ),
        "indeterminate": "the decision is indeterminate (it depends on the prior)",
    }[decision]
