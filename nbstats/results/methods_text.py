"""The Methods sentences of the results: one function per kind of result.

Each result class's ``methods_sentence(context)`` calls its function here,
and a report's Methods paragraph (:func:`nbstats.reporting.methods.methods_paragraph`)
assembles the sentences. The prose lives in this one module so that the
paragraph reads as one text: the same phrases for a rope, a prior, a seed or a
decision rule in every sentence (:data:`DECISION_RULE`,
:data:`IDP_DECISION_RULE`), and every number written by the number policy
(:func:`~nbstats.results.number_policy.format_number`), so that a value prints
the same in the prose as in the tables (CD ``1.12``, α ``0.05``); a setting
prints as given (a threshold ``0.95``, ``1 − γ = 0.95``), as the report's
other sections print it, an estimated probability with three decimals.

The functions read results by their attributes (duck typing), so this module
imports no result class.

Examples
--------
>>> import nbstats
>>> res = nbstats.friedman(nbstats.datasets.load("demsar2006"))
>>> res.methods_sentence(MethodsContext()).text()[:60]
'The hypothesis that all algorithms perform equally was teste'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from nbstats.results.monte_carlo import error_bound
from nbstats.results.number_policy import format_number
from nbstats.results.prose import Alt, Paragraph, cite

__all__ = [
    "CHI2_F",
    "DECISION_RULE",
    "F_F",
    "IDP_DECISION_RULE",
    "P_METHODS",
    "TIE_POLICIES",
    "ZERO_METHODS",
    "ZERO_METHODS_SHORT",
    "MethodsContext",
    "bayes_friedman",
    "bayes_posthoc",
    "bayes_sign",
    "bayes_signrank",
    "correlated_pairs",
    "friedman",
    "plackett_luce",
    "posthoc_clause",
    "rank_ci",
    "rope_text",
    "sentence",
    "sign",
    "wilcoxon",
]


@dataclasses.dataclass(frozen=True)
class MethodsContext:
    """What a Methods sentence needs besides its result.

    Attributes
    ----------
    seed : int or None
        The seed of the random numbers (stated where draws were made).
    score_unit : str or None
        The scores' unit, for the rope (e.g. ``"percentage points"``).
    loss : tuple of float or None
        ``(l0, l1)`` behind a Bayesian threshold ``l1 / (l0 + l1)``.
    fold_design : str or None
        How the folds were made (e.g. ``"10 runs of 10-fold cross-validation"``).
    n_pairs : int or None
        The number of pairs one Bayesian signed-rank result speaks for (a
        report passes the first of its pairs' results).
    """

    seed: int | None = None
    score_unit: str | None = None
    loss: tuple[float, float] | None = None
    fold_design: str | None = None
    n_pairs: int | None = None


#: χ²_F and F_F, typeset per format.
CHI2_F = Alt("χ²_F", "χ<sup>2</sup><sub>F</sub>", "$\\chi^2_F$")
F_F = Alt("F_F", "F<sub>F</sub>", "$F_F$")

_IDP_S = Alt(text="(√17 − 3)/2", html="(√17 − 3)/2", latex="$(\\sqrt{17}-3)/2$")
_IDP_DEFAULT_S = 0.5615528128088303  # (√17 − 3)/2

#: The Wilcoxon test's handling of zero differences, in words (Demšar 2006, §3.1.3).
ZERO_METHODS = {
    "zsplit": "zero differences ranked and their ranks split evenly between "
    "the positive and the negative sum, as Demšar",
    "wilcox": "zero differences discarded before ranking",
    "pratt": "zero differences ranked with the others, then their ranks dropped "
    "(Pratt's method)",
}

#: The same, short enough for a row of a result's summary.
ZERO_METHODS_SHORT = {
    "zsplit": "ranked, their ranks split evenly between the two sums",
    "wilcox": "dropped before ranking",
    "pratt": "ranked, then dropped (Pratt)",
}
#: How a Wilcoxon p-value was computed, in words.
P_METHODS = {"exact": "exact distribution", "approx": "normal approximation"}

#: The sign test's handling of ties, in words.
TIE_POLICIES = {
    "split": "ties split evenly between the two algorithms",
    "drop": "ties discarded",
}

#: The decision rule of a single posterior (Bayesian bootstrap or a point
#: prior); ``{0}`` is the threshold.
DECISION_RULE = (
    "an algorithm was decided better when its posterior probability of being "
    "better exceeds {0}, the two equivalent when the probability of the rope "
    "does, and undecided otherwise"
)

#: The decision rule under the near-ignorance prior, which bounds every
#: probability; ``{0}`` is the threshold.
IDP_DECISION_RULE = (
    "each probability is an interval over the prior set — with a rope, the "
    "smallest and largest share of posterior draws in which a region is the "
    "most probable, over every placement of the prior's pseudo-observation "
    "(±∞ included) — and an algorithm was decided better when even "
    "its lower posterior probability of being better exceeds {0}, the two "
    "equivalent when even the lower probability of the rope does, undecided "
    "when every upper probability stays at or below it, and indeterminate "
    "when a lower and an upper probability lie on either side of it"
)


def _n(value: object, kind: str = "number") -> str:
    """A number by the number policy (see the module docstring)."""
    return format_number(value, kind)


def _count(n: int) -> str:
    return f"{n:,}"


def _percent(level: float) -> str:
    return f"{_n(100 * level)}%"


def rope_text(rope: float, score_unit: str | None = None) -> str:
    """The rope's half-width with its unit.

    Examples
    --------
    >>> rope_text(1, "percentage points"), rope_text(0.01)
    ('±1 percentage points', "±0.01 in the scores' units")
    """
    unit = f" {score_unit}" if score_unit else " in the scores' units"
    return f"±{_n(rope, 'score')}{unit}"


def sentence(clause: Paragraph) -> Paragraph:
    """A clause as a sentence: its first letter capitalised, a full stop."""
    pieces = list(clause.pieces)
    if pieces and isinstance(pieces[0], str):
        pieces[0] = pieces[0][:1].upper() + pieces[0][1:]
    return Paragraph().add(*pieces, ". ")


# -- frequentist ----------------------------------------------------------


def friedman(res: Any, context: MethodsContext) -> Paragraph:
    """The Friedman and Iman–Davenport tests (a ``FriedmanResult``)."""
    del context
    tie = "with" if res.tie_correction else "without"
    return Paragraph().add(
        "The hypothesis that all algorithms perform equally was tested with "
        "the Friedman test",
        cite("friedman1937"),
        " (",
        CHI2_F,
        f" {tie} tie correction, {res.df} degrees of freedom) and with "
        "the Iman–Davenport ",
        F_F,
        " statistic",
        cite("iman1980"),
        f" ({res.f_df[0]} and {res.f_df[1]} degrees of freedom). ",
    )


def posthoc_clause(
    res: Any, context: MethodsContext, *, also: bool = False
) -> Paragraph:
    """The post-hoc procedure as a clause (no capital, no full stop):
    Nemenyi's test of all pairs, or Holm's comparisons against a control
    (``also``: after another procedure's clause, "was also compared")."""
    del context
    if res.control is None and res.method == "nemenyi":
        return Paragraph().add(
            "all pairs of algorithms were compared with the Nemenyi test",
            cite("nemenyi1963"),
            f" at α = {_n(res.alpha)} (critical difference "
            f"CD = {_n(res.critical_difference, 'rank')} of mean ranks, from the "
            "studentized range distribution), shown as a critical-difference "
            "diagram",
            cite("demsar2006"),
        )
    if res.control is not None and res.method == "holm":
        return Paragraph().add(
            f"every algorithm was {'also ' if also else ''}compared against the "
            f"best-ranked one, {res.control}, with z-tests on mean ranks and "
            "Holm's step-down correction",
            cite("holm1979"),
            f" at α = {_n(res.alpha)}",
        )
    raise ValueError(
        f"no Methods sentence for the post-hoc method {res.method!r}"
        f"{'' if res.control is None else ' against a control'}: a report "
        "states Nemenyi's test of all pairs (method='nemenyi') and Holm's "
        "comparisons against a control (method='holm', control=...)."
    )


def wilcoxon(res: Any, context: MethodsContext) -> Paragraph:
    """The two-sided Wilcoxon signed-ranks test of two algorithms, as a clause
    (a report may go on with the sign test, :func:`sign`)."""
    del context
    return Paragraph().add(
        f"{res.name_b} was compared with {res.name_a} by the "
        "two-sided Wilcoxon signed-ranks test",
        cite("wilcoxon1945"),
        f" ({res.method} p-value; {ZERO_METHODS.get(res.zero_method, res.zero_method)}",
        cite("demsar2006") if res.zero_method == "zsplit" else "",
        "), with the matched-pairs rank-biserial correlation as its effect size",
    )


def sign(res: Any, context: MethodsContext, *, also: bool = False) -> Paragraph:
    """The two-sided sign test of two algorithms, as a clause (``also``:
    following :func:`wilcoxon`'s, "and by the …")."""
    del context
    ties = TIE_POLICIES.get(res.ties, "ties: " + res.ties)
    who = "and" if also else f"{res.name_b} was compared with {res.name_a}"
    return Paragraph().add(
        f"{who} by the two-sided sign test (exact binomial p-value, {ties})"
    )


def rank_ci(res: Any, context: MethodsContext) -> Paragraph:
    """Confidence intervals for the ranks, by each of their methods."""
    level = _percent(res.level)
    intervals = f"Simultaneous {level} confidence intervals for the ranks"
    alpha = f" at α = {_n(res.alpha)} (no random numbers). "
    if res.method.startswith("id-wilcoxon"):
        sided = "two-sided" if res.method == "id-wilcoxon-2s" else "one-sided"
        incomplete = getattr(res, "incomplete", False)
        omnibus = (
            "Skillings–Mack test (on every case, missing scores included)"
            if incomplete
            else "Iman–Davenport test"
        )
        return Paragraph().add(
            intervals,
            cite("foucart2025"),
            f" were obtained from the {omnibus} followed by {sided} Wilcoxon "
            "signed-rank tests",
            cite("wilcoxon1945"),
            " (each pair on the cases where both have a score)" if incomplete else "",
            " with Holm's correction over each algorithm's comparisons",
            cite("holm1979"),
            alpha,
        )
    if res.method == "id-nemenyi":
        return Paragraph().add(
            intervals,
            cite("foucart2025"),
            " were obtained from the Iman–Davenport test followed by the Nemenyi test",
            cite("nemenyi1963"),
            alpha,
        )
    if res.method == "bootstrap":
        return Paragraph().add(
            f"{level} bootstrap percentile intervals for the ranks",
            cite("foucart2025"),
            f" used {_count(res.n_resamples)} resamples of the cases "
            f"(seed {context.seed}). ",
        )
    return Paragraph().add(
        intervals,
        cite("foucart2025"),
        " were obtained from a repeated-measures ANOVA on rank-transformed "
        f"scores followed by Tukey's HSD at α = {_n(res.alpha)}. ",
    )


def correlated_pairs(res: Any, context: MethodsContext) -> Paragraph:
    """The correlated t-tests on each data set's folds."""
    rope = (
        f"a rope of {rope_text(res.rope, context.score_unit)}"
        if res.rope > 0
        else "no rope (rope = 0)"
    )
    return Paragraph().add(
        f"On each data set the folds themselves ({context.fold_design or 'folds'}) "
        "were compared with the corrected resampled t-test",
        cite("nadeau2003"),
        " and the Bayesian correlated t-test",
        cite("corani2015", "benavoli2017"),
        ", both with the variance of the mean fold difference inflated by "
        "1/n + ρ/(1 − ρ) for n folds with a test share ρ = 1/k, the "
        f"Bayesian one with {rope}, deciding when a region's posterior "
        f"probability exceeds {_n(res.threshold)} (closed form, "
        "no random numbers). ",
        failed_folds_text(res),
    )


def failed_folds_text(res: Any) -> str:
    """What a per-fold test with ``min_folds`` did with failed folds: the
    folds each (pair, data set) used and the (pair, data set) left out ("" without
    ``min_folds``).

    Examples
    --------
    >>> import pandas as pd
    >>> class Res:  # the fields of a CorrelatedPairsResult
    ...     min_folds = 8
    ...     table = pd.DataFrame({"n": [10, 9, 8]})
    ...     left_out = pd.DataFrame({"case": ["kc1"]})
    >>> print(failed_folds_text(Res()))  # doctest: +NORMALIZE_WHITESPACE
    Each pair was compared on each data set on the folds where both algorithms
    have a score (8–10 of them; with n such folds the variance factor is
    1/n + ρ/(1 − ρ) with the design's ρ); 1 of the 4 (pair, data set)
    combinations had fewer than 8 such folds and was left out.
    """
    if getattr(res, "min_folds", None) is None:
        return ""
    used = res.table["n"]
    span = (
        "none" if not len(used)
        else str(int(used.min())) if used.min() == used.max()
        else f"{int(used.min())}–{int(used.max())}"
    )  # fmt: skip
    out, total = len(res.left_out), len(res.left_out) + len(res.table)
    left = (
        f"{_count(out)} of the {_count(total)} (pair, data set) combinations had "
        f"fewer than {res.min_folds} such folds and {'was' if out == 1 else 'were'} "
        "left out"
        if out
        else f"every (pair, data set) had at least {res.min_folds} such folds"
    )
    return (
        "Each pair was compared on each data set on the folds where both "
        f"algorithms have a score ({span} of them; with n such folds the "
        "variance factor is 1/n + ρ/(1 − ρ) with the design's ρ); "
        f"{left}. "
    )


# -- Bayesian -------------------------------------------------------------


def bayes_sign(res: Any, context: MethodsContext) -> Paragraph:
    """The Bayesian sign test of two algorithms."""
    rope = (
        f"and a rope of {rope_text(res.rope, context.score_unit)}"
        if res.rope > 0
        else "and no rope"
    )
    return Paragraph().add(
        "The Bayesian sign test",
        cite("benavoli2015", "benavoli2017"),
        f" used a Dirichlet-process prior of strength s = {_n(res.s)} {rope}, "
        f"deciding at threshold {_n(res.threshold)}. ",
    )


def bayes_friedman(res: Any, context: MethodsContext) -> Paragraph:
    """The Bayesian Friedman test."""
    how = (
        "the exact posterior mean and covariance of the mean ranks "
        "(ellipsoid approximation, no sampling)"
        if res.method == "ellipsoid"
        else f"{_count(res.n_samples)} Monte Carlo draws (seed {context.seed})"
    )
    sentence = Paragraph().add(
        "The Bayesian Friedman test",
        cite("benavoli2015", "benavoli2017"),
        " placed a Dirichlet-process prior of strength "
        f"s = {_n(res.s)} on \u201call algorithms equal\u201d and declared "
        "the algorithms different when the vector of equal mean ranks lies "
        f"outside the {_percent(res.threshold)} credible region, "
        f"computed from {how}. ",
    )
    if getattr(res, "calibration", "benavoli") == "permutation":
        sentence.add(
            "The region's radius was calibrated by "
            f"{_count(res.n_permutations)} random within-case permutations of "
            "the ranks (a frequentist calibration, not part of the original "
            "method): the test declared a difference when fewer than a share γ "
            "of the permuted tables lay as far from equal mean ranks. "
        )
    return sentence


def _signrank_prior(res: Any) -> Paragraph:
    if res.prior == "idp":
        prior = Paragraph().add(
            "the near-ignorance (imprecise) Dirichlet-process prior of "
            f"strength s = {_n(res.s)}"
        )
        if abs(res.s - _IDP_DEFAULT_S) < 1e-12:
            prior.add(" (", _IDP_S, ")")
        return prior
    if res.prior == "bb":
        return Paragraph().add("the Bayesian bootstrap (s → 0)")
    return Paragraph().add(f"a prior of strength s = {_n(res.s)} at a zero difference")


def _signrank_draws(res: Any, context: MethodsContext, pairs: int) -> str:
    draws = getattr(res, "n_samples", None)
    if draws is None:
        draws = res.samples.size
    error = getattr(res, "mc_error", float("nan"))
    precision = (
        f", a Monte Carlo standard error of {error_bound(error, draws)} on each "
        "probability"
        if error == error  # not NaN
        else ""
    )
    seed = f"seed {context.seed}{precision}"
    target = getattr(res, "mc_target", None)
    if target is not None and getattr(res, "method", "montecarlo") != "normal":
        # drawn in batches until precise enough (nbstats.stats.bayes.precision);
        # the target states the precision once (no second bound beside it)
        least = int(res.pairs["draws"].min()) if len(res.pairs) else draws
        return (
            f"posterior draws in batches ({_count(least)} for every pair, more "
            f"until each probability's Monte Carlo standard error was below "
            f"{_n(target)}, at most {_count(draws)}; seed {context.seed})"
        )
    how = (
        f"{_count(draws)} draws of a normal approximation of the posterior "
        f"(used above 1,000 cases; {seed})"
        if getattr(res, "method", "montecarlo") == "normal"
        else f"{_count(draws)} posterior draws ({seed})"
    )
    return ("" if pairs == 1 else "all pairs shared the same ") + how


def bayes_signrank(res: Any, context: MethodsContext, pairs: int) -> Paragraph:
    """The Bayesian signed-rank test of ``pairs`` pairs (one result of one
    pair stands for all when a report ran them alike)."""
    threshold = _n(res.threshold)
    rule = IDP_DECISION_RULE if res.prior == "idp" else DECISION_RULE
    loss = context.loss
    losses = (
        f"losses (l0, l1) = ({_n(loss[0])}, {_n(loss[1])}) of a Type II "
        f"and a Type I error, i.e. a threshold of l1/(l0 + l1) = {threshold}"
        if loss is not None
        else f"a threshold of {threshold}"
    )
    rope = (
        "a region of practical equivalence (rope) of "
        f"{rope_text(res.rope, context.score_unit)}"
        if res.rope > 0
        else "no region of practical equivalence (rope = 0)"
    )
    which = (
        "The two algorithms were compared with the"
        if pairs == 1
        else f"Each of the {pairs} pairs of algorithms was compared with the"
    )
    return Paragraph().add(
        f"{which} Bayesian Wilcoxon signed-rank test",
        cite("benavoli2014", "benavoli2017"),
        " under ",
        *_signrank_prior(res).pieces,
        f", with {rope} and decisions that minimise the expected loss with "
        f"{losses}: {rule.format(threshold)}; "
        f"{_signrank_draws(res, context, pairs)}. ",
    )


def bayes_posthoc(res: Any, context: MethodsContext) -> Paragraph:
    """The joint statements of the Bayesian post-hoc procedure."""
    regions = (
        "of its three regions (either algorithm better by more than the "
        f"rope {rope_text(res.rope, context.score_unit)}, or equivalent)"
        if getattr(res, "rope", 0) > 0
        else "direction"
    )
    if getattr(res, "prior", "point") == "idp":
        prior = (
            "under the near-ignorance prior of strength "
            f"s = {_n(res.s)} (a statement counting in a draw only if it holds "
            "for every prior of the set)"
        )
        probability = "lower posterior probability"
        joint = "lower joint posterior probability"
    else:
        prior = f"with a prior of strength s = {_n(res.s)} at \u201cequal\u201d"
        probability = "posterior probability"
        joint = "joint posterior probability"
    return Paragraph().add(
        "Joint statements were made with the procedure of Benavoli et al.",
        cite("benavoli2015", "benavoli2017"),
        f": per pair the Bayesian {res.test_name} test {prior} chose the more "
        f"probable {regions}, and the longest list of statements, sorted by "
        f"{probability}, whose {joint} (all statements "
        f"true on the same draw) exceeds {_n(res.threshold)} "
        f"was accepted, from {_count(res.n_samples)} joint draws of the "
        f"Dirichlet weights (seed {context.seed}). ",
    )


def plackett_luce(res: Any, context: MethodsContext) -> Paragraph:
    """The Bayesian Plackett–Luce ranking."""
    return Paragraph().add(
        "The algorithms were also ranked with a Bayesian Plackett–Luce model",
        cite("calvo2018"),
        f" with a Dirichlet prior of concentration s = {_n(res.s)} on the "
        "normalised worths, sampled with the Gibbs sampler of Caron and Doucet",
        cite("caron2012"),
        f" ({res.n_chains} chains, {_count(res.n_samples)} draws in all, seed "
        f"{context.seed}); tied algorithms are put in a new random order at each "
        "iteration of the sampler. ",
    )
