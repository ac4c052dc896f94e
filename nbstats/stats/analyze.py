"""The automatic analysis: check the assumptions, choose the tests, say why.

The rules (written out in :func:`analyze`'s docstring) follow Demšar (2006):
parametric tests only when their assumptions hold, rank-based ones
otherwise, a post-hoc test only after the omnibus test rejects, and an effect
size and the Bayesian counterpart beside every comparison.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from nbstats.results.analysis import AnalysisResult
from nbstats.scores.frames import power_of_two_scale
from nbstats.scores.ranks import oriented
from nbstats.scores.table import NanPolicy, score_table
from nbstats.stats.analyze_text import probability_text, render_p, summary_text
from nbstats.stats.bayes.plackett_luce import bayes_plackett_luce
from nbstats.stats.bayes.precision import MC_TARGET, first_draws, one_pair_draws
from nbstats.stats.bayes.signrank.one_pair import bayes_signrank
from nbstats.stats.bayes.signrank.pairs import bayes_signrank_pairs
from nbstats.stats.coverage import missing_log_step, omitted_coverage
from nbstats.stats.effect_size import _cohen_dz, _rank_biserial, magnitude
from nbstats.stats.footprint import PAIR_BYTES, analysis_bytes, check_analyses_fit
from nbstats.stats.frequentist.anova import rm_anova
from nbstats.stats.frequentist.assumptions import equal_variances, mauchly, normality
from nbstats.stats.frequentist.friedman import friedman
from nbstats.stats.frequentist.posthoc import posthoc
from nbstats.stats.frequentist.ttest import ttest
from nbstats.stats.frequentist.tukey import tukey_hsd
from nbstats.stats.frequentist.wilcoxon import wilcoxon
from nbstats.stats.ranking import nemenyi_min_cases
from nbstats.util.checks import (
    check_choice,
    check_count,
    check_flag,
    check_fraction,
    check_positive,
    check_random_state,
)

__all__ = ["analyze"]

#: Shapiro–Wilk needs three values; below, normality cannot be checked.
MIN_CASES_FOR_CHECKS = 3


def analyze(
    scores: pd.DataFrame | np.ndarray,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    rope: float = 0.0,
    bayes: bool = True,
    n_samples: int | None = None,
    random_state: object = None,
    nan_policy: NanPolicy = "raise",
    mc_error: float | None = MC_TARGET,
) -> AnalysisResult:
    """Check the assumptions, choose the tests, run them and say why.

    The rules, in order:

    1. **Two algorithms.** Shapiro–Wilk on the paired differences at α.
       Normal → the paired t-test with Cohen's d_z; otherwise (or with fewer
       than 3 cases) Wilcoxon's signed-rank test with the matched-pairs
       rank-biserial correlation (Demšar 2006, §3.1).
    2. **Three or more.** Shapiro–Wilk on each algorithm's scores at
       α / k (Bonferroni); equal variances by Bartlett's test when all are
       normal, else Levene's (medians); sphericity by Mauchly's test.
       All normal and equal variances → the repeated-measures ANOVA, with
       the Greenhouse–Geisser correction when Mauchly rejects sphericity
       (or cannot be tested), and Tukey's HSD if it rejects. Otherwise →
       Friedman's test with the Iman–Davenport F and, if it rejects,
       Nemenyi's test of all pairs (Demšar 2006, §3.2). A post-hoc test is
       run only after the omnibus test rejects; the log says so when it does
       not.
    3. **Effect sizes** for every pair: Cohen's d_z for a parametric
       analysis, the rank-biserial correlation for a rank-based one
       (positive when the second algorithm of the pair is better).
    4. **Bayesian counterpart** (``bayes=True``): the Bayesian signed-rank
       test (Benavoli et al. 2014) of the pair, or of every pair on shared
       draws, with ``rope``; with three or more algorithms also the Bayesian
       Plackett–Luce ranking (:func:`nbstats.bayes_plackett_luce`): which
       algorithm is best, and how sure that is.

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms.
    alpha : float
        Significance level of every test and check.
    higher_is_better : bool
        Whether higher scores are better.
    rope : float
        Half-width of the region of practical equivalence for the Bayesian
        tests, in score units (0: none).
    bayes : bool
        Run the Bayesian counterpart.
    n_samples : int, optional
        Posterior draws of the Bayesian tests: with ``mc_error``, the first
        batch of each pair (default 5,000); without, every test's draws
        (default 50,000).
    random_state : None, int or Generator
        Seed of the Bayesian tests.
    nan_policy : {"raise", "omit"}
        See :func:`nbstats.score_table`. With ``"omit"`` and missing cells,
        the result's ``coverage`` (:func:`nbstats.coverage`) shows where the
        holes are and what leaving algorithms out would keep, and the log
        says how many cases the analysis stands on.
    mc_error : float, optional
        Target of the Monte Carlo standard error of every Bayesian
        probability reported (default 0.002,
        :data:`~nbstats.stats.bayes.precision.MC_TARGET`): the pairs' draws
        come in batches until each pair's probabilities are that precise
        (:func:`nbstats.bayes_signrank_pairs`'s ``mc_error``); two
        algorithms get the draws at which any probability is
        (:func:`~nbstats.stats.bayes.precision.draws_for`, 62,501). None:
        exactly ``n_samples`` draws.

    Returns
    -------
    AnalysisResult
        The checks (``assumptions``), the tests (``omnibus``, ``pairwise``,
        ``effect_sizes``, ``bayes``), the decision ``log`` and ``text``, a
        paragraph for a paper.

    Examples
    --------
    >>> import nbstats
    >>> res = nbstats.analyze(nbstats.datasets.load("demsar2006"), random_state=0)
    >>> res.parametric, res.omnibus._title()
    (True, 'Repeated-measures ANOVA: 4 algorithms on 14 cases')
    >>> res.log.loc[res.log["step"] == "post-hoc", "choice"].item()
    "Tukey's HSD"
    >>> res.pairwise.significant_pairs()
    [('C4.5+m+cf', 'C4.5')]
    """
    check_fraction("alpha", alpha, example=0.05)
    check_flag("higher_is_better", higher_is_better)
    check_positive("rope", rope, allow_zero=True)
    check_flag("bayes", bayes)
    if n_samples is not None:
        check_count("n_samples", n_samples)
    check_random_state(random_state)
    check_choice("nan_policy", nan_policy, ("raise", "omit", "pairwise"))
    if mc_error is not None:
        check_fraction("mc_error", mc_error, high=0.5, example=0.002)
    table = score_table(scores, nan_policy=nan_policy)
    holes = omitted_coverage(scores, table)
    n, k = table.shape
    if k > 2:  # the tables of every pair, refused before they are computed
        _check_size(n, k, bayes)
    log: list[dict[str, str]] = []
    direction = {"higher_is_better": higher_is_better}
    if k == 2:
        parts = _two(table, alpha, direction, log)
    else:
        parts = _many(table, alpha, direction, log)
    parametric, assumptions, omnibus, pairwise = parts
    kind = "cohen-d" if parametric else "rank-biserial"
    effects = _effect_sizes(table, kind, direction)
    log.append(
        {
            "step": "effect size",
            "choice": {"cohen-d": "Cohen's d_z", "rank-biserial": "rank-biserial"}[
                kind
            ],
            "reason": (
                "standardised mean difference, matching the parametric test"
                if parametric
                else "matched-pairs rank-biserial correlation, matching the "
                "signed-rank statistic of a rank-based analysis"
            ),
        }
    )
    bayes_result = ranking = None
    if bayes:
        options = {"rope": rope, "random_state": random_state, **direction}
        bayes_result = (
            bayes_signrank(
                table.iloc[:, 0],
                table.iloc[:, 1],
                n_samples=one_pair_draws(n_samples, mc_error),
                **options,
            )
            if k == 2
            else bayes_signrank_pairs(
                table,
                interval=False,
                n_samples=first_draws(n_samples, mc_error),
                mc_error=mc_error,
                **options,
            )
        )
        log.append(
            {
                "step": "Bayesian",
                "choice": "Bayesian signed-rank test"
                + ("" if k == 2 else " of every pair"),
                "reason": "the probability of each hypothesis given the data, "
                + (f"with a rope of ±{rope:g}" if rope > 0 else "without a rope"),
            }
        )
        if k > 2:
            ranking = bayes_plackett_luce(
                table, random_state=random_state, higher_is_better=higher_is_better
            )
            log.append(
                {
                    "step": "Bayesian ranking",
                    "choice": "Plackett–Luce model of the rankings",
                    "reason": "the probability that each algorithm is the best, "
                    "and its expected rank, from every case's ranking",
                }
            )
    if holes is not None:
        log.insert(0, missing_log_step(holes))
    log_frame = pd.DataFrame(log, columns=["step", "choice", "reason"])
    return AnalysisResult(
        n_cases=n,
        n_algorithms=k,
        alpha=alpha,
        parametric=parametric,
        assumptions=assumptions,
        omnibus=omnibus,
        pairwise=pairwise,
        effect_sizes=effects,
        bayes=bayes_result,
        log=log_frame,
        text=summary_text(
            n, k, alpha, parametric, assumptions, omnibus, pairwise, effects
        )
        + _ranking_text(ranking),
        ranking=ranking,
        coverage=holes,
    )


def _check_size(n: int, k: int, bayes: bool) -> None:
    """Refuse a size whose tables of pairs cannot fit the memory ceiling."""
    pairs = k * (k - 1) // 2
    sizes = {"frequentist": analysis_bytes("frequentist", k, n)}
    if bayes:  # the pairs' signed-rank table (no joint statements here)
        sizes["Bayesian pairs"] = PAIR_BYTES["bayesian"] * pairs
    check_analyses_fit(
        sizes, k, n, what="analyze()",
        fixes="Compare fewer algorithms, or pass bayes=False",
    )  # fmt: skip


def _ranking_text(ranking: object) -> str:
    """One sentence on the Bayesian ranking: the likely best and how sure."""
    if ranking is None:
        return ""
    best = ranking.prob_best.sort_values(ascending=False)
    first, p_first = best.index[0], float(best.iloc[0])
    runner, p_runner = best.index[1], float(best.iloc[1])
    intervals = ranking.rank_interval  # by position: a tuple name is one label
    low, high = intervals.iloc[intervals.index.get_loc(first)]
    ranks = f"rank {low}" if low == high else f"ranks {low}–{high}"
    return (
        f" The Bayesian Plackett–Luce model of the rankings gives {first} the "
        f"highest probability of being the best ({probability_text(p_first)}; "
        f"{runner}: {probability_text(p_runner)}); it holds {ranks} with "
        f"{ranking.level:.0%} posterior probability."
    )


def _two(
    table: pd.DataFrame, alpha: float, direction: dict, log: list[dict[str, str]]
) -> tuple[bool, pd.DataFrame, None, object]:
    a, b = table.columns
    rows = []
    if len(table) < MIN_CASES_FOR_CHECKS:
        normal = False
        log.append(
            {
                "step": "normality",
                "choice": "not checked",
                "reason": f"{len(table)} cases: Shapiro–Wilk needs at least 3",
            }
        )
    else:
        differences = pd.DataFrame({f"{b} − {a}": table[b] - table[a]})
        check = normality(differences, alpha=alpha).iloc[0]
        normal = bool(check["normal"])
        rows.append(
            {
                "check": "normality of the differences",
                "test": "Shapiro–Wilk",
                "statistic": check["W"],
                "pvalue": check["pvalue"],
                "verdict": "normal" if normal else "not normal",
            }
        )
        log.append(
            {
                "step": "normality",
                "choice": "normal" if normal else "not normal",
                "reason": f"Shapiro–Wilk on the paired differences, "
                f"{render_p(check['pvalue'])} at α = {alpha:g}",
            }
        )
    if normal:
        test = ttest(table[a], table[b], **direction)
        choice, why = "paired t-test", "the differences look normal"
    else:
        test = wilcoxon(table[a], table[b], **direction)
        choice, why = (
            "Wilcoxon signed-rank test",
            "the differences are not normal (or too few to check); Demšar "
            "(2006, §3.1) recommends it for two classifiers",
        )
    log.append({"step": "test", "choice": choice, "reason": why})
    return normal, _assumption_frame(rows), None, test


def _many(
    table: pd.DataFrame, alpha: float, direction: dict, log: list[dict[str, str]]
) -> tuple[bool, pd.DataFrame, object, object]:
    n, k = table.shape
    rows: list[dict[str, object]] = []
    parametric, sphericity = _checks(table, alpha, log, rows)
    if parametric:
        anova = rm_anova(table)
        corrected = not sphericity.testable or sphericity.pvalue <= alpha
        p = anova.pvalue_gg if corrected else anova.pvalue
        log.append(
            {
                "step": "omnibus",
                "choice": "repeated-measures ANOVA"
                + (" with the Greenhouse–Geisser correction" if corrected else ""),
                "reason": "normal scores with equal variances"
                + (
                    "; sphericity rejected or not testable, so the degrees of "
                    f"freedom are multiplied by ε = {anova.epsilon:.3f}"
                    if corrected
                    else "; sphericity not rejected"
                ),
            }
        )
        omnibus = anova
        post = tukey_hsd(table, alpha=alpha, **direction) if p <= alpha else None
        name = "Tukey's HSD"
    else:
        omnibus = friedman(table, **direction)
        p = omnibus.f_pvalue
        log.append(
            {
                "step": "omnibus",
                "choice": "Friedman test (Iman–Davenport F)",
                "reason": (
                    "too few cases to check normality"
                    if n < MIN_CASES_FOR_CHECKS
                    else "normality or equal variances rejected"
                )
                + "; the F form is less conservative than χ² (Demšar 2006, §3.2.2)",
            }
        )
        post = None
        if p <= alpha:
            post = posthoc(table, method="nemenyi", alpha=alpha, **direction)
        name = "Nemenyi's test"
        if n < nemenyi_min_cases(k, alpha):
            log.append(
                {
                    "step": "power",
                    "choice": "warning",
                    "reason": f"{n} cases: fewer than the {nemenyi_min_cases(k, alpha)}"
                    " Nemenyi needs to separate even perfectly ordered "
                    "neighbours",
                }
            )
    log.append(
        {
            "step": "post-hoc",
            "choice": name if post is not None else "none",
            "reason": (
                f"the omnibus test rejected equal performance ({render_p(p)})"
                if post is not None
                else f"the omnibus test did not reject ({render_p(p)}); "
                "post-hoc tests only follow a rejection"
            ),
        }
    )
    return parametric, _assumption_frame(rows), omnibus, post


def _checks(
    table: pd.DataFrame,
    alpha: float,
    log: list[dict[str, str]],
    rows: list[dict[str, object]],
) -> tuple[bool, object]:
    """The assumptions of the parametric tests on three or more algorithms:
    normality per algorithm (Bonferroni), equal variances, sphericity. Adds
    a row per check and the log's lines; returns whether the parametric
    tests apply and Mauchly's result (None with too few cases)."""
    n, k = table.shape
    if n < MIN_CASES_FOR_CHECKS:
        log.append(
            {
                "step": "normality",
                "choice": "not checked",
                "reason": f"{n} cases: Shapiro–Wilk needs at least 3",
            }
        )
        return False, None
    checks = normality(table, alpha=alpha)
    all_normal = bool(checks["normal"].all())
    for name, check in checks.iterrows():
        rows.append(
            {
                "check": f"normality of {name}",
                "test": "Shapiro–Wilk",
                "statistic": check["W"],
                "pvalue": check["pvalue"],
                "verdict": "normal" if check["normal"] else "not normal",
            }
        )
    not_normal = int((~checks["normal"]).sum())
    log.append(
        {
            "step": "normality",
            "choice": "all normal" if all_normal else f"{not_normal} of {k} not normal",
            "reason": f"Shapiro–Wilk per algorithm at α/k = {alpha / k:.3g} "
            "(Bonferroni)",
        }
    )
    name, stat, p = equal_variances(table, normal=all_normal)
    equal = p > alpha
    rows.append(
        {
            "check": "equal variances",
            "test": name,
            "statistic": stat,
            "pvalue": p,
            "verdict": "equal" if equal else "unequal",
        }
    )
    log.append(
        {
            "step": "equal variances",
            "choice": "equal" if equal else "unequal",
            "reason": f"{name}'s test, {render_p(p)}"
            + ("" if all_normal else " (Levene's: robust without normality)"),
        }
    )
    sphericity = mauchly(table)
    rows.append(
        {
            "check": "sphericity",
            "test": "Mauchly",
            "statistic": sphericity.statistic,
            "pvalue": sphericity.pvalue,
            "verdict": (
                "not testable (fewer cases than algorithms)"
                if not sphericity.testable
                else "spherical"
                if sphericity.pvalue > alpha
                else f"not spherical (ε = {sphericity.epsilon:.3f})"
            ),
        }
    )
    return all_normal and equal, sphericity


def _effect_sizes(table: pd.DataFrame, kind: str, direction: dict) -> pd.DataFrame:
    """Every pair's effect, from the validated table (one call of
    :func:`nbstats.effect_size` per pair re-validates the columns each time,
    which dominates at many algorithms: ``benchmarks/bench_analyze.py``)."""
    values = oriented(table.to_numpy(), direction["higher_is_better"])
    values = values / power_of_two_scale(values)  # differences cannot overflow
    effect = _cohen_dz if kind == "cohen-d" else _rank_biserial
    names = list(table.columns)
    rows = []
    for i, j in combinations(range(len(names)), 2):
        value = effect(values[:, j] - values[:, i])
        rows.append(
            {
                "a": names[i],
                "b": names[j],
                "kind": kind,
                "value": value,
                "magnitude": magnitude(kind, value),
            }
        )
    return pd.DataFrame(rows, columns=["a", "b", "kind", "value", "magnitude"])


def _assumption_frame(rows: list[dict[str, object]]) -> pd.DataFrame:
    return pd.DataFrame(
        rows, columns=["check", "test", "statistic", "pvalue", "verdict"]
    )
