"""The Methods paragraph of a report.

The paragraph is written from the result objects the report computed (not from
the arguments it was given), so every figure it states -- tests, corrections,
priors, s, γ, losses, rope, sample sizes, seeds -- is the one actually used. It
renders as plain text, HTML and LaTeX through :class:`Paragraph`
(:mod:`nbstats.report.references` holds the citations).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Sequence
from typing import Any

from nbstats.report.references import (  # noqa: F401  (re-exported)
    REFERENCES,
    Alt,
    Cite,
    Paragraph,
    Reference,
    bibtex,
    cite,
    references_html,
    references_latex,
    references_text,
)
from nbstats.results.render import format_value

__all__ = ["CHI2_F", "F_F", "methods_paragraph", "rope_text"]

#: The decision rule of a single posterior (Bayesian bootstrap or a point prior).
_DECISION_RULE = (
    "an algorithm was decided better when its posterior probability of being "
    "better exceeds {0}, the two equivalent when the probability of the rope "
    "does, and undecided otherwise"
)

# -- the paragraph ------------------------------------------------------------

#: χ²_F and F_F, typeset per format.
CHI2_F = Alt("χ²_F", "χ<sup>2</sup><sub>F</sub>", "$\\chi^2_F$")
F_F = Alt("F_F", "F<sub>F</sub>", "$F_F$")

_IDP_S = Alt(
    text="(√17 − 3)/2",
    html="(√17 − 3)/2",
    latex="$(\\sqrt{17}-3)/2$",
)


def _num(value: object, digits: int = 4) -> str:
    """``digits`` significant figures, and no ".0" on whole numbers."""
    text = format_value(value, digits)
    return text[:-2] if text.endswith(".0") else text


def _count(n: int) -> str:
    return f"{n:,}"


#: The Wilcoxon test's handling of zero differences, in words (Demšar 2006, §3.1.3).
ZERO_METHODS = {
    "zsplit": "zero differences ranked and their ranks split evenly between "
    "the positive and the negative sum, as Demšar",
    "wilcox": "zero differences discarded before ranking",
    "pratt": "zero differences ranked with the others, then their ranks dropped "
    "(Pratt's method)",
}

#: The sign test's handling of ties, in words.
TIE_POLICIES = {
    "split": "ties split evenly between the two algorithms",
    "drop": "ties discarded",
}


def rope_text(rope: float, score_unit: str | None = None) -> str:
    """The rope's half-width with its unit.

    Examples
    --------
    >>> rope_text(1, "percentage points"), rope_text(0.01)
    ('±1 percentage points', "±0.01 in the scores' units")
    """
    unit = f" {score_unit}" if score_unit else " in the scores' units"
    return f"±{_num(rope)}{unit}"


def methods_paragraph(
    *,
    n_cases: int,
    n_algorithms: int,
    higher_is_better: bool,
    seed: int,
    folds: Any = None,
    dropped: int = 0,
    friedman: Any = None,
    nemenyi: Any = None,
    holm: Any = None,
    bayes_friedman: Any = None,
    signrank: Any = None,
    loss: tuple[float, float] | None = None,
    bayes_posthoc: Any = None,
    rank_ci: Any = None,
    wilcoxon: Any = None,
    sign: Any = None,
    bayes_sign: Any = None,
    fold_tests: Any = None,
    fold_design: str | None = None,
    score_unit: str | None = None,
    nemenyi_warning: str = "",
    plackett_luce: Any = None,
    cited: Sequence[str] = (),
) -> Paragraph:
    """Write the Methods paragraph from the results a report computed.

    Every argument after ``seed`` is optional: an analysis left out of the
    report is left out of the paragraph. ``signrank`` is the
    :func:`~nbstats.bayes_signrank_pairs` result of the pairwise table, one
    :func:`~nbstats.bayes_signrank` result (two algorithms) or a list of
    them (prior, s, rope, threshold and draws are read from the first);
    ``loss`` is the ``(l0, l1)`` behind their threshold. ``folds`` (from
    :func:`nbstats.fold_summary`) and ``dropped`` (cases dropped for missing
    scores) describe the data; ``wilcoxon``, ``sign`` and ``bayes_sign`` are
    the two-sample tests of a report on two algorithms; ``fold_tests`` the
    :func:`~nbstats.correlated_pairs` result on the folds, made by
    ``fold_design`` (e.g. "10 runs of 10-fold cross-validation").
    ``score_unit`` (e.g. "percentage points") is the unit of the rope;
    ``nemenyi_warning`` a sentence on Nemenyi's power (from
    :func:`nbstats.report.core.power_warning`); ``plackett_luce`` the
    :func:`~nbstats.bayes_plackett_luce` result; ``cited`` the keys the
    report cites before Methods (the numbers go on from there).

    Returns
    -------
    Paragraph
        Render with ``.text()``, ``.html()`` or ``.latex()``; ``.keys`` are
        the cited references in order.
    """
    p = Paragraph(cited)
    direction = "higher" if higher_is_better else "lower"
    p.add(
        f"We compared {n_algorithms} algorithms on {n_cases} cases, "
        f"{direction} scores being better. Within each case the algorithms were "
        "ranked (rank 1 = best, tied scores receiving the average of the ranks "
        "they span), and the analyses follow the recommendations of Demšar",
        cite("demsar2006"),
        ". ",
    )
    if folds:
        k_low, k_high = folds["min_folds"], folds["max_folds"]
        k = str(k_low) if k_low == k_high else f"{k_low}–{k_high}"
        p.add(
            f"Each case's score is the {folds.get('aggregate', 'mean')} of the "
            f"algorithm's {k} cross-validation fold scores on it. "
        )
    if fold_tests is not None:
        ft = fold_tests
        rope = (
            f"a rope of {rope_text(ft.rope, score_unit)}"
            if ft.rope > 0
            else "no rope (rope = 0)"
        )
        p.add(
            f"On each data set the folds themselves ({fold_design or 'folds'}) "
            "were compared with the corrected resampled t-test",
            cite("nadeau2003"),
            " and the Bayesian correlated t-test",
            cite("corani2015", "benavoli2017"),
            ", both with the variance of the mean fold difference inflated by "
            "1/n + ρ/(1 − ρ) for n folds with a test share ρ = 1/k, the "
            f"Bayesian one with {rope}, deciding when a region's posterior "
            f"probability exceeds {_num(ft.threshold)} (closed form, no random "
            "numbers). ",
        )
    if dropped:
        p.add(
            f"{dropped} case{'s' if dropped > 1 else ''} with a missing score "
            f"{'were' if dropped > 1 else 'was'} dropped before the analyses. "
        )
    if wilcoxon is not None:
        p.add(
            f"{wilcoxon.name_b} was compared with {wilcoxon.name_a} by the "
            "two-sided Wilcoxon signed-ranks test",
            cite("wilcoxon1945"),
            f" ({wilcoxon.method} p-value; "
            f"{ZERO_METHODS.get(wilcoxon.zero_method, wilcoxon.zero_method)}",
            cite("demsar2006") if wilcoxon.zero_method == "zsplit" else "",
            "), with the matched-pairs rank-biserial correlation as its effect size",
        )
        if sign is not None:
            p.add(
                ", and by the two-sided sign test (exact binomial p-value, "
                f"{TIE_POLICIES.get(sign.tie_policy, 'ties: ' + sign.tie_policy)})"
            )
        p.add(". ")
    if bayes_sign is not None:
        bs = bayes_sign
        p.add(
            "The Bayesian sign test",
            cite("benavoli2015", "benavoli2017"),
            f" used a Dirichlet-process prior of strength s = {_num(bs.s)} "
            + (
                f"and a rope of {rope_text(bs.rope, score_unit)}"
                if bs.rope > 0
                else "and no rope"
            )
            + f", deciding at threshold {_num(bs.threshold)}. ",
        )
    if friedman is not None:
        tie = "with" if friedman.tie_correction else "without"
        p.add(
            "The hypothesis that all algorithms perform equally was tested with "
            "the Friedman test",
            cite("friedman1937"),
            " (",
            CHI2_F,
            f" {tie} tie correction, {friedman.df} degrees of freedom) and with "
            "the Iman–Davenport ",
            F_F,
            " statistic",
            cite("iman1980"),
            f" ({friedman.f_df[0]} and {friedman.f_df[1]} degrees of freedom). ",
        )
    if nemenyi is not None:
        p.add(
            "All pairs of algorithms were compared with the Nemenyi test",
            cite("nemenyi1963"),
            f" at α = {_num(nemenyi.alpha)} (critical difference "
            f"CD = {_num(nemenyi.critical_difference)} of mean ranks, from the "
            "studentized range distribution), shown as a critical-difference "
            "diagram",
            cite("demsar2006"),
            "",
        )
        if holm is not None:
            p.add(
                "; every algorithm was also compared against the best-ranked one, "
                f"{holm.control}, with z-tests on mean ranks and Holm's step-down "
                "correction",
                cite("holm1979"),
                f" at α = {_num(holm.alpha)}",
            )
        p.add(". ")
        if nemenyi_warning.strip():
            p.add(nemenyi_warning.strip() + " ")
    elif holm is not None:
        p.add(
            f"Every algorithm was compared against the best-ranked one, "
            f"{holm.control}, with z-tests on mean ranks and Holm's step-down "
            "correction",
            cite("holm1979"),
            f" at α = {_num(holm.alpha)}. ",
        )
    if bayes_friedman is not None:
        bf = bayes_friedman
        how = (
            "the exact posterior mean and covariance of the mean ranks "
            "(ellipsoid approximation, no sampling)"
            if bf.method == "ellipsoid"
            else f"{_count(bf.n_samples)} Monte Carlo draws (seed {seed})"
        )
        p.add(
            "The Bayesian Friedman test",
            cite("benavoli2015", "benavoli2017"),
            " placed a Dirichlet-process prior of strength "
            f"s = {_num(bf.s)} on \u201call algorithms equal\u201d and declared "
            "the algorithms different when the vector of equal mean ranks lies "
            f"outside the {_num(100 * bf.credible_level)}% credible region "
            f"(γ = {_num(bf.gamma)}), computed from {how}. ",
        )
    if signrank is not None and not isinstance(signrank, Sequence):
        signrank = [signrank]
    if signrank:
        first = signrank[0]
        pairs = len(getattr(first, "pairs", signrank))
        draws = getattr(first, "n_samples", None)
        if draws is None:
            draws = first.samples.size
        if first.prior == "idp":
            prior = Paragraph().add(
                "the near-ignorance (imprecise) Dirichlet-process prior of "
                f"strength s = {_num(first.s)}"
            )
            if abs(first.s - 0.5615528128088303) < 1e-12:
                prior.add(" (", _IDP_S, ")")
            decision = (
                "an algorithm was decided better when even its lower posterior "
                f"probability of being better exceeds {_num(first.threshold)}, "
                "the two equivalent when even the lower probability of the rope "
                "does, undecided when every upper probability stays at or "
                "below it, and indeterminate when a lower and an upper "
                "probability lie on either side of it"
            )
        elif first.prior == "bb":
            prior = Paragraph().add("the Bayesian bootstrap (s → 0)")
            decision = _DECISION_RULE.format(_num(first.threshold))
        else:
            prior = Paragraph().add(
                f"a prior of strength s = {_num(first.s)} at a zero difference"
            )
            decision = _DECISION_RULE.format(_num(first.threshold))
        losses = (
            f"losses (l0, l1) = ({_num(loss[0])}, {_num(loss[1])}) of a Type II "
            "and a Type I error, i.e. a threshold of "
            f"l1/(l0 + l1) = {_num(first.threshold)}"
            if loss is not None
            else f"a threshold of {_num(first.threshold)}"
        )
        rope = (
            f"a region of practical equivalence (rope) of "
            f"{rope_text(first.rope, score_unit)}"
            if first.rope > 0
            else "no region of practical equivalence (rope = 0)"
        )
        which = (
            "The two algorithms were compared with the"
            if pairs == 1
            else f"Each of the {pairs} pairs of algorithms was compared with the"
        )
        normal = getattr(first, "method", "montecarlo") == "normal"
        error = getattr(first, "mc_error", float("nan"))
        precision = (
            f", a Monte Carlo standard error of at most {_num(error)} on each "
            "probability"
            if error == error  # not NaN
            else ""
        )
        how = (
            f"{_count(draws)} draws of a normal approximation of the posterior "
            f"(used above 1,000 cases; seed {seed}{precision})"
            if normal
            else f"{_count(draws)} posterior draws (seed {seed}{precision})"
        )
        p.add(
            f"{which} Bayesian Wilcoxon signed-rank test",
            cite("benavoli2014", "benavoli2017"),
            " under ",
            *prior.pieces,
            f", with {rope} and decisions that minimise the expected loss with "
            f"{losses}: {decision}; "
            + ("" if pairs == 1 else "all pairs shared the same ")
            + f"{how}. ",
        )
    if bayes_posthoc is not None:
        bp = bayes_posthoc
        p.add(
            "Joint statements were made with the procedure of Benavoli et al.",
            cite("benavoli2015", "benavoli2017"),
            f": per pair the Bayesian {bp.test_name} test with a prior of strength "
            f"s = {_num(bp.s)} at \u201cequal\u201d chose the more probable "
            + (
                "of its three regions (either algorithm better by more than the "
                f"rope {rope_text(bp.rope, score_unit)}, or equivalent)"
                if getattr(bp, "rope", 0) > 0
                else "direction"
            )
            + ", and the longest list of statements, sorted by posterior "
            "probability, whose joint posterior probability (all statements "
            f"true on the same draw) exceeds 1 − γ = {_num(1 - bp.gamma)} was "
            f"accepted, from {_count(bp.n_samples)} joint draws of the "
            f"Dirichlet weights (seed {seed}). ",
        )
    if rank_ci is not None:
        rc = rank_ci
        level = f"{_num(100 * rc.confidence_level)}%"
        if rc.method.startswith("id-wilcoxon"):
            sided = "two-sided" if rc.method == "id-wilcoxon-2s" else "one-sided"
            p.add(
                f"Simultaneous {level} confidence intervals for the ranks",
                cite("foucart2025"),
                " were obtained from the "
                + (
                    "Skillings–Mack test (on every case, missing scores included)"
                    if getattr(rc, "incomplete", False)
                    else "Iman–Davenport test"
                )
                + f" followed by {sided} Wilcoxon signed-rank tests",
                cite("wilcoxon1945"),
                (
                    " (each pair on the cases where both have a score)"
                    if getattr(rc, "incomplete", False)
                    else ""
                ),
                " with Holm's correction over each algorithm's comparisons",
                cite("holm1979"),
                f" at α = {_num(rc.alpha)} (no random numbers). ",
            )
        elif rc.method == "id-nemenyi":
            p.add(
                f"Simultaneous {level} confidence intervals for the ranks",
                cite("foucart2025"),
                " were obtained from the Iman–Davenport test followed by the "
                "Nemenyi test",
                cite("nemenyi1963"),
                f" at α = {_num(rc.alpha)} (no random numbers). ",
            )
        elif rc.method == "bootstrap":
            p.add(
                f"{level} bootstrap percentile intervals for the ranks",
                cite("foucart2025"),
                f" used {_count(rc.n_boot)} resamples of the cases (seed {seed}). ",
            )
        else:
            p.add(
                f"Simultaneous {level} confidence intervals for the ranks",
                cite("foucart2025"),
                " were obtained from a repeated-measures ANOVA on rank-transformed "
                f"scores followed by Tukey's HSD at α = {_num(rc.alpha)}. ",
            )
    if plackett_luce is not None:
        pl = plackett_luce
        p.add(
            "The algorithms were also ranked with a Bayesian Plackett–Luce model",
            cite("calvo2018"),
            f" with a Dirichlet prior of concentration {_num(pl.prior)} on the "
            "normalised worths, sampled with the Gibbs sampler of Caron and Doucet",
            cite("caron2012"),
            f" ({pl.n_chains} chains, {_count(pl.n_samples)} draws in all, seed "
            f"{seed}); tied algorithms are put in a new random order at each "
            "iteration of the sampler. ",
        )
    p.add(f"All computations used nbstats {_versions()}.")
    return p


def _versions() -> str:
    names = ("nbstats", "numpy", "scipy", "pandas")
    found = []
    for name in names:
        try:
            found.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:  # pragma: no cover
            continue
    head = found[0][1] if found and found[0][0] == "nbstats" else "(unknown version)"
    rest = ", ".join(f"{n} {v}" for n, v in found if n != "nbstats")
    return f"{head} ({rest})" if rest else head
