"""Bayesian hierarchical comparison of two algorithms on many data sets' folds.

Corani, Benavoli, Demšar, Mangili and Zaffalon (2017), "Statistical comparison
of classifiers through Bayesian hierarchical modelling", Machine Learning
106: 1817–1837. Each data set's cross-validation differences get the
correlated model of the Bayesian correlated t-test (mean δ_i, variance σ_i²,
correlation ρ between folds); the δ_i are drawn from a Student distribution
with ν degrees of freedom, location δ0 and scale σ0, whose posterior says how
the two algorithms compare on the next data set. The priors and the scaling
of the data are those of baycomp's ``HierarchicalTest``. Sampling needs the
optional extra ``nbstats[hierarchical]`` (NumPyro on jax, CPU).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats.results.hierarchical import BayesHierarchicalResult
from nbstats.scores.folds import check_min_folds
from nbstats.stats.bayes.decision import decide, resolve_threshold
from nbstats.stats.hierarchical_inputs import (
    TooFewDataSetsError,
    enough_folds,
    prepare,
    read_inputs,
)
from nbstats.stats.hierarchical_model import (
    require_sampler,
    sample_posterior,
)
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import (
    check_count,
    check_flag,
    check_fraction,
    check_positive,
    check_random_state,
)
from nbstats.util.random import seed_sequence

__all__ = ["TooFewDataSetsError", "bayes_hierarchical"]


#: R̂ above this, or any divergent transition, gives a warning.
RHAT_LIMIT = 1.01


def bayes_hierarchical(
    a: object,
    b: object,
    *,
    data: pd.DataFrame | None = None,
    case: str | None = None,
    algorithm: str | None = None,
    score: str | None = None,
    fold: str | Sequence[str] | None = None,
    rope: float = 0.0,
    folds: int | None = None,
    runs: int | None = None,
    test_fraction: float | None = None,
    min_folds: int | None = None,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    higher_is_better: bool = True,
    level: float = 0.95,
    n_samples: int = 2500,
    chains: int = 4,
    warmup: int = 1000,
    random_state: object = None,
) -> BayesHierarchicalResult:
    """Bayesian hierarchical test (Corani et al. 2017) on many data sets' folds.

    For every data set i the n fold differences ``x_i = b − a`` (> 0 where b
    is better; n = runs × k) are multivariate normal with mean δ_i, variance
    σ_i² and correlation ρ = 1/k between any two folds (ρ = n_test / n_total);
    the δ_i are Student-t(ν, δ0, σ0). Priors, as in the paper and baycomp:
    δ0 uniform on ±max|x|, σ0 and σ_i uniform up to 1000 times the spread
    among and within data sets, ν − 1 ~ Gamma(α, β) with α ~ U(1, 2) and
    β ~ U(0.01, 0.1). The differences (and the rope) are first divided by the
    mean per-data-set standard deviation, so that the priors and the result
    do not depend on the scores' units.

    Parameters
    ----------
    a, b : str, or 2-D array-like / DataFrame
        With ``data``: the two algorithms' names in it. Without: their scores,
        data sets × folds (a DataFrame's index names the data sets), the
        folds in the same order in a and b.
    data : DataFrame, optional
        Long per-fold scores, one row per (case, algorithm, fold), as for
        ``nbstats.score_table(data, case=, algorithm=, score=, fold=)``.
    case, algorithm, score : str
        Columns of ``data``.
    fold : str or sequence of str
        The column(s) naming a fold, e.g. ``"fold"`` or ``["run", "fold"]``;
        with two columns and none of ``folds``/``runs``/``test_fraction``,
        the number of runs is read from the first.
    rope : float
        Half-width of the region of practical equivalence, in score units.
    folds, runs, test_fraction
        How the folds were made (see :func:`nbstats.stats.correlated.fold_design`):
        ρ = 1/k. One is required (except with two fold columns): assuming one
        run of 100 folds instead of ten runs of ten would make ρ ten times
        too small.
    min_folds : int, optional
        Failed folds (a fold's row absent or its score missing; NaN in
        arrays ``a``/``b``) are refused without it. With ``min_folds=K``
        (2 ≤ K ≤ the folds per data set) each data set contributes the J_i
        folds on which both a and b have a score: its likelihood is the
        correlated model of those J_i folds (same ρ; the model needs no equal
        counts), and a data set with fewer than K is left out. The result
        records each data set's ``folds`` (in ``datasets``) and the data sets
        ``left_out``.
    threshold, loss
        The probability a region needs to be decided (as in
        :func:`nbstats.bayes_signrank`).
    higher_is_better : bool
        When False the differences are ``a − b``.
    level : float
        Level of the per-data-set credible intervals of δ_i.
    n_samples, chains, warmup : int
        NUTS draws kept per chain, chains, and adaptation steps per chain.
        With the default 1000 warm-up steps, nbc vs aode on the bundled UCI
        data (rope 0.01) gives P(rope) 0.27 to 0.28 (seeds 0, 1), R̂ at
        most 1.001, where baycomp gives 0.27; j48 vs j48gr gives P(rope) 1,
        as baycomp does, R̂ at most 1.006.
    random_state : None, int or numpy Generator
        The same value gives the same draws (on the same jax version).
        ``None`` takes fresh entropy from the operating system: two calls
        then give slightly different probabilities, within the Monte Carlo
        error of the chains; give an int to reproduce them.

    Returns
    -------
    BayesHierarchicalResult
        ``prob_left``, ``prob_rope``, ``prob_right``: for the next data set,
        the share of posterior draws in which a better (δ_new < −rope), the
        rope, or b better (δ_new > rope) is the most probable region under
        Student-t(ν, δ0, σ0) — baycomp's summary; ``mean_prob_*``: the means
        of those per-draw probabilities (the posterior predictive
        probabilities of δ_new). ``datasets``: each data set's shrunk δ_i
        (posterior mean and interval, in score units) next to its observed
        mean difference. ``rhat``, ``ess``, ``divergences``,
        ``leapfrog_steps``: diagnostics.

    Raises
    ------
    ImportError
        Without NumPyro/jax: ``pip install nbstats[hierarchical]``.
    ValueError
        Unequal or missing folds (without ``min_folds``), fewer than 2 data
        sets (left), a fold design that does not fit, constant differences
        everywhere.
    TooFewDataSetsError
        (a ValueError) With ``min_folds``: fewer than 2 data sets with that
        many paired folds; it names them (a report leaves such a pair out).

    Warns
    -----
    UserWarning
        Divergent transitions, or R̂ above 1.01: the draws may not represent
        the posterior; more ``warmup`` usually helps.

    Notes
    -----
    A data set whose differences are all equal (zero variance) would pin σ_i
    to 0; baycomp replaces its differences by ±uniform(0, rope) noise with
    mean 0. Here its mean is kept and its variance is set to the expected
    variance of that noise, rope²/3 (in scaled units; (0.001)²/3 without a
    rope) — deterministic, and not shifted to 0.

    σ_i is integrated out in closed form (an incomplete gamma function), so
    NUTS samples δ_i, δ0, σ0, ν and (α, β) only; the δ_i of data sets whose
    folds determine them less precisely than the spread among data sets are
    sampled non-centred, as δ0 + σ0 √ν sinh(v_i/√ν) with the density of v_i
    that makes this Student-t exactly (light tails where the t's are heavy:
    two near-identical algorithms, with ν near 1, need a third of the
    leapfrog steps of sampling the t directly). The chains start δ0 and σ0 at
    robust estimates from the data. The first call of a given size compiles
    the sampler (tens of seconds); later calls of the same size reuse it.
    ``leapfrog_steps`` on the result is the mean cost of a draw in gradient
    evaluations.

    Examples
    --------
    >>> import nbstats
    >>> folds = nbstats.datasets.load("uci_accuracy_folds")
    >>> res = nbstats.bayes_hierarchical(
    ...     "nbc", "aode", data=folds, case="dataset", algorithm="classifier",
    ...     score="accuracy", fold="fold", runs=10, rope=0.01,
    ...     n_samples=1000, random_state=0)  # doctest: +SKIP
    >>> res.prob_right > res.prob_left  # doctest: +SKIP
    True

    With failed folds (here aode's first 60 folds on iris), ``min_folds``
    uses each data set's paired folds and leaves out those below it:

    >>> failed = folds[~(folds["classifier"].eq("aode")
    ...                  & folds["dataset"].eq("iris") & folds["fold"].le(60))]
    >>> res = nbstats.bayes_hierarchical(
    ...     "nbc", "aode", data=failed, case="dataset", algorithm="classifier",
    ...     score="accuracy", fold="fold", runs=10, rope=0.01, min_folds=90,
    ...     n_samples=1000, random_state=0)  # doctest: +SKIP
    >>> res.left_out  # doctest: +SKIP
       case  folds   of
    0  iris     40  100
    """
    rope = check_positive("rope", rope, allow_zero=True)
    threshold = resolve_threshold(threshold, loss)
    check_flag("higher_is_better", higher_is_better)
    level = check_fraction("level", level, example=0.95)
    n_samples = check_count("n_samples", n_samples, minimum=10)
    chains = check_count("chains", chains)
    warmup = check_count("warmup", warmup, minimum=10)
    check_random_state(random_state)
    min_folds = check_min_folds(min_folds, paired=True)
    require_sampler()
    seed = seed_sequence(random_state).generate_state(2)
    d, cases, name_a, name_b, design = read_inputs(
        a, b, data, case, algorithm, score, fold, folds, runs, test_fraction,
        min_folds,
    )  # fmt: skip
    d, cases, used, left_out = enough_folds(d, cases, min_folds, name_a, name_b)
    if not higher_is_better:
        d = -d
    prepared = prepare(d, rope, design, used)
    draws = sample_posterior(
        prepared.model, n_samples=n_samples, chains=chains, warmup=warmup, seed=seed
    )
    scaled_rope = rope / prepared.unit
    mu, s0, nu = (x.ravel() for x in (draws.delta0, draws.std0, draws.nu))
    left = sps.t.cdf((-scaled_rope - mu) / s0, nu)
    right = sps.t.sf((scaled_rope - mu) / s0, nu)
    regions = np.column_stack([left, np.clip(1.0 - left - right, 0.0, 1.0), right])
    winners = np.bincount(np.argmax(regions, axis=1), minlength=3) / len(regions)
    if rope == 0:  # no rope: (left, right) only; the middle column is empty
        regions[:, 1] = 0.0
    _warn_diagnostics(draws.divergences, draws.rhat, warmup)
    delta = draws.delta.reshape(-1, len(cases)) * prepared.unit
    tail = (1 - level) / 2
    table = pd.DataFrame(
        {
            "case": cases,
            "observed": np.nanmean(d, axis=1) if min_folds else d.mean(axis=1),
            "mean": delta.mean(axis=0),
            "low": np.quantile(delta, tail, axis=0),
            "high": np.quantile(delta, 1 - tail, axis=0),
            "rhat": draws.rhat_delta,
            "ess": draws.ess_delta,
        }
    )
    if min_folds is not None:  # each data set's paired folds
        table.insert(1, "folds", used)
    prob_rope = float(winners[1]) if rope > 0 else None
    decision = decide(float(winners[0]), prob_rope, float(winners[2]), threshold)
    return BayesHierarchicalResult(
        prob_left=float(winners[0]),
        prob_rope=prob_rope,
        prob_right=float(winners[2]),
        mean_prob_left=float(left.mean()),
        mean_prob_rope=float(regions[:, 1].mean()) if rope > 0 else None,
        mean_prob_right=float(right.mean()),
        delta0=float(mu.mean() * prepared.unit),
        std0=float(s0.mean() * prepared.unit),
        nu=float(nu.mean()),
        datasets=table,
        region_samples=regions,
        rope=rope,
        threshold=threshold,
        decision=decision,
        level=level,
        rhat=draws.rhat,
        ess=draws.ess,
        divergences=draws.divergences,
        n_samples=n_samples,
        chains=chains,
        warmup=warmup,
        n_folds=int(d.shape[1]),
        rho=design.rho,
        folds=design.folds,
        runs=design.runs,
        name_a=name_a,
        name_b=name_b,
        leapfrog_steps=draws.leapfrog_steps,
        min_folds=min_folds,
        left_out=left_out,
    )


def _warn_diagnostics(divergences: int, rhat: float, warmup: int) -> None:
    problems = []
    if divergences:
        problems.append(f"{divergences} divergent transition(s)")
    if rhat > RHAT_LIMIT:
        problems.append(f"R̂ = {rhat:.3f} > {RHAT_LIMIT}")
    if problems:
        warnings.warn(
            f"the hierarchical model's sampler reports {' and '.join(problems)}: "
            f"the draws may not represent the posterior. Rerun with more warmup "
            f"(now {warmup}) and n_samples, or check the data.",
            UserWarning,
            stacklevel=3,
        )
