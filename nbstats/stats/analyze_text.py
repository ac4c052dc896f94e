"""The words of :func:`nbstats.analyze`: its summary paragraph, the pairs'
sentences and how p-values and probabilities read in them."""

from __future__ import annotations

import pandas as pd

from nbstats.results.formatting import format_pvalue
from nbstats.results.number_policy import format_number


def render_p(p: float) -> str:
    """``p = 0.0012`` or ``p < 0.001``, as the report writes p-values."""
    text = format_pvalue(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def summary_text(
    n: int,
    k: int,
    alpha: float,
    parametric: bool,
    assumptions: pd.DataFrame,
    omnibus: object,
    pairwise: object,
    effects: pd.DataFrame,
) -> str:
    """The paragraph: what was checked, which tests, what they found."""
    sentences = [f"We compared {k} algorithms on {n} cases at α = {alpha:g}."]
    if k == 2:
        a, b = effects.loc[0, "a"], effects.loc[0, "b"]
        if len(assumptions):
            verdict = assumptions.loc[0, "verdict"]
            sentences.append(
                f"A Shapiro–Wilk test found the paired differences {verdict} "
                f"({render_p(assumptions.loc[0, 'pvalue'])}), so we used the "
                + ("paired t-test" if parametric else "Wilcoxon signed-rank test")
                + "."
            )
        else:
            sentences.append(
                "With fewer than three cases normality cannot be checked; we used "
                "the Wilcoxon signed-rank test."
            )
        significant = pairwise.pvalue <= alpha
        sentences.append(
            f"It found {a} and {b} {'' if significant else 'not '}significantly "
            f"different ({render_p(pairwise.pvalue)}; "
            + _effect_clause(effects.iloc[0])
            + ")."
        )
        return " ".join(sentences)
    if parametric:
        p = _anova_p(omnibus, assumptions, alpha)
        sentences.append(
            "Shapiro–Wilk tests did not reject normality of any algorithm's "
            "scores and the variances did not differ significantly, so we used "
            "the repeated-measures ANOVA"
            + (
                " with the Greenhouse–Geisser correction"
                if "not spherical" in " ".join(assumptions["verdict"])
                or "not testable" in " ".join(assumptions["verdict"])
                else ""
            )
            + f" (F = {omnibus.statistic:.3g}, {render_p(p)})."
        )
    else:
        reason = (
            "normality could not be checked"
            if not len(assumptions)
            else "the parametric tests' assumptions did not hold"
        )
        sentences.append(
            f"Because {reason}, we used the Friedman test with the Iman–Davenport "
            f"correction (F({omnibus.f_df[0]}, {omnibus.f_df[1]}) = "
            f"{omnibus.f_statistic:.3g}, {render_p(omnibus.f_pvalue)})."
        )
        p = omnibus.f_pvalue
    if pairwise is None:
        sentences.append(
            f"It did not reject equal performance at α = {alpha:g}, so no "
            "post-hoc test was made."
        )
        return " ".join(sentences)
    name = "Tukey's HSD" if parametric else "Nemenyi's post-hoc test"
    pairs = pairwise.significant_pairs()
    sentences.append(
        f"It rejected equal performance ({render_p(p)}); {name} found "
        + (
            f"{len(pairs)} of {k * (k - 1) // 2} pairs significantly different"
            if pairs
            else "no pair significantly different"
        )
        + (
            ": "
            + "; ".join(
                _pair_text(better, worse, effects) for better, worse in pairs[:10]
            )
            + (f"; and {len(pairs) - 10} more" if len(pairs) > 10 else "")
            if pairs
            else ""
        )
        + "."
    )
    return " ".join(sentences)


def _anova_p(anova: object, assumptions: pd.DataFrame, alpha: float) -> float:
    sphericity = assumptions[assumptions["check"] == "sphericity"]
    corrected = sphericity.empty or not sphericity["pvalue"].iloc[0] > alpha
    return anova.pvalue_gg if corrected else anova.pvalue


def _pair_text(better: str, worse: str, effects: pd.DataFrame) -> str:
    row = effects[
        ((effects["a"] == better) & (effects["b"] == worse))
        | ((effects["a"] == worse) & (effects["b"] == better))
    ].iloc[0]
    # "over", not "better than": "better" is the word of a Bayesian decision
    return f"{better} over {worse} ({_effect_clause(row, better=better)})"


def _effect_clause(row: pd.Series, better: str | None = None) -> str:
    value = float(row["value"])
    if better is not None and row["b"] != better:
        value = -value  # the effect of the better one over the worse
    name = {"cohen-d": "d_z", "rank-biserial": "r"}[row["kind"]]
    magnitude = f", {row['magnitude']}" if row["magnitude"] else ""
    return f"{name} = {value:.2f}{magnitude}"


def probability_text(p: float) -> str:
    """``P = 0.742``, ``P > 0.999`` or ``P < 0.001`` (the number policy)."""
    text = format_number(p, "probability")
    return f"P {text}" if text[0] in "<>" else f"P = {text}"
