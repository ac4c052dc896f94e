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

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd

from nbstats import _scipy_stats as sps
from nbstats.names import plain_name
from nbstats.results.hierarchical import BayesHierarchicalResult
from nbstats.score_folds import check_min_folds
from nbstats.scores import check_flag
from nbstats.stats.bayes.decision import check_rope, decide, resolve_threshold
from nbstats.stats.bayes.weights import seed_sequence
from nbstats.stats.correlated import FoldDesign, fold_design
from nbstats.stats.fold_pairing import fold_blocks
from nbstats.stats.hierarchical_model import (
    HierarchicalData,
    centering,
    require_sampler,
    sample_posterior,
)

__all__ = ["TooFewDataSetsError", "bayes_hierarchical"]


class TooFewDataSetsError(ValueError):
    """:func:`bayes_hierarchical` with ``min_folds``: fewer than 2 data sets
    have ``min_folds`` folds on which both algorithms have a score.

    A :class:`ValueError` whose message says what to do; it also carries
    what a caller that tests many pairs (the report) states when it leaves
    the pair out: ``name_a``, ``name_b``, ``kept`` (the data sets with enough
    paired folds), ``left_out`` (``case``, ``folds``, ``of``: the others) and
    ``min_folds``.
    """

    def __init__(
        self,
        message: str,
        *,
        name_a: str,
        name_b: str,
        kept: int,
        left_out: pd.DataFrame,
        min_folds: int | None,
    ) -> None:
        super().__init__(message)
        self.name_a, self.name_b = name_a, name_b
        self.kept, self.left_out, self.min_folds = kept, left_out, min_folds


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
    require_sampler()
    rope = check_rope(rope)
    threshold = resolve_threshold(threshold, loss)
    check_flag("higher_is_better", higher_is_better)
    if not 0 < level < 1:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level!r}.")
    n_samples = _count("n_samples", n_samples, 10)
    chains = _count("chains", chains, 1)
    warmup = _count("warmup", warmup, 10)
    seed = seed_sequence(random_state).generate_state(2)
    min_folds = check_min_folds(min_folds, paired=True)
    d, cases, name_a, name_b, design = _inputs(
        a, b, data, case, algorithm, score, fold, folds, runs, test_fraction,
        min_folds,
    )  # fmt: skip
    d, cases, used, left_out = _enough_folds(d, cases, min_folds, name_a, name_b)
    if not higher_is_better:
        d = -d
    prepared = _prepare(d, rope, design, used)
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
        n=int(d.shape[1]),
        rho=design.rho,
        folds=design.folds,
        runs=design.runs,
        name_a=name_a,
        name_b=name_b,
        leapfrog_steps=draws.leapfrog_steps,
        min_folds=min_folds,
        left_out=left_out,
    )


def _enough_folds(
    d: np.ndarray,
    cases: list[str],
    min_folds: int | None,
    name_a: str,
    name_b: str,
) -> tuple[np.ndarray, list[str], np.ndarray, pd.DataFrame]:
    """The data sets with at least ``min_folds`` paired folds: (their
    differences, names, paired folds J_i) and the ones left out (``case``,
    ``folds``, ``of``)."""
    used = np.sum(~np.isnan(d), axis=1)
    keep = used >= (min_folds or d.shape[1])
    left_out = pd.DataFrame(
        {
            "case": [c for c, k in zip(cases, keep, strict=True) if not k],
            "folds": used[~keep],
            "of": d.shape[1],
        }
    )
    if keep.sum() < 2:
        raise TooFewDataSetsError(
            f"only {int(keep.sum())} data set(s) have at least min_folds="
            f"{min_folds} folds on which both {name_a!r} and {name_b!r} have a "
            f"score ({len(left_out)} left out: "
            f"{', '.join(map(repr, left_out['case'][:5]))}); the hierarchical "
            "model needs at least 2 data sets. Lower min_folds, or rerun the "
            "failed folds.",
            name_a=name_a,
            name_b=name_b,
            kept=int(keep.sum()),
            left_out=left_out,
            min_folds=min_folds,
        )
    kept = [c for c, k in zip(cases, keep, strict=True) if k]
    return np.ascontiguousarray(d[keep]), kept, used[keep], left_out


class _Prepared:
    """The model's data and the unit (score units per scaled unit)."""

    def __init__(self, model: HierarchicalData, unit: float) -> None:
        self.model = model
        self.unit = unit


def _prepare(
    d: np.ndarray, rope: float, design: FoldDesign, used: np.ndarray
) -> _Prepared:
    """Scale as baycomp does: divide by the mean per-data-set std (ddof 0).

    ``d`` is data sets × folds, NaN where a fold is not paired (failed
    folds); ``used`` counts each data set's paired folds."""
    q = d.shape[0]
    complete = not np.isnan(d).any()
    mean_of, std_of, sum_of, max_of = (
        (np.mean, np.std, np.sum, np.max)
        if complete
        else (np.nanmean, np.nanstd, np.nansum, np.nanmax)
    )
    n = used.astype(float)
    # one count when all are equal: the sampler's program (so its draws) of
    # complete folds stays what it was
    count: np.ndarray | int = int(used[0]) if (used == used[0]).all() else n
    big = float(max_of(np.abs(d)))
    if big == 0:
        raise ValueError(
            "a and b have the same score on every fold of every data set: there is "
            "no difference to model (every probability would sit in the rope)."
        )
    u = d / big  # first to a safe range: squares of 1e300 or 1e-300 would overflow
    std = std_of(u, axis=1)
    mean_std = float(std.mean())
    if mean_std == 0:
        raise ValueError(
            "on every data set the differences b − a are the same on all folds "
            "(zero variance everywhere): the model has no within-data-set "
            "variance to scale by. Check that the folds are the cross-validation "
            "folds, not copies of one mean."
        )
    x = u / mean_std
    unit = big * mean_std
    scaled_rope = rope / unit if math.isfinite(rope / unit) else np.inf
    mean = mean_of(x, axis=1)
    ss = sum_of((x - mean[:, None]) ** 2, axis=1)
    flat = ss == 0
    half = scaled_rope if 0 < scaled_rope < np.inf else 1e-3
    ss[flat] = n[flat] * half**2 / 3
    std_within = float(np.mean(np.sqrt(ss / n)))
    std_among = float(np.std(mean)) if q > 1 else std_within
    if std_among == 0:
        std_among = std_within
    model = HierarchicalData(
        mean=mean,
        ss=ss,
        n=count,
        rho=design.rho,
        delta_high=float(max_of(np.abs(x))),
        std0_high=1000.0 * std_among,
        std_high=1000.0 * std_within,
        centered=centering(mean, ss, count, design.rho),
    )
    return _Prepared(model, unit)


def _inputs(
    a: object,
    b: object,
    data: pd.DataFrame | None,
    case: str | None,
    algorithm: str | None,
    score: str | None,
    fold: str | Sequence[str] | None,
    folds: int | None,
    runs: int | None,
    test_fraction: float | None,
    min_folds: int | None,
) -> tuple[np.ndarray, list[str], str, str, FoldDesign]:
    """(differences b − a as data sets × folds, NaN for a failed fold with
    ``min_folds``; case names, names, design)."""
    if data is None:
        named = {"case": case, "algorithm": algorithm, "score": score, "fold": fold}
        given = [k for k, v in named.items() if v is not None]
        if given:
            raise ValueError(
                f"{', '.join(g + '=' for g in given)} name columns of a long table: "
                f"pass it as data=, with a and b the two algorithms' names."
            )
        xa, cases = _matrix(a, "a", min_folds)
        xb, _ = _matrix(b, "b", min_folds)
        if xa.shape != xb.shape:
            raise ValueError(
                f"a and b must have the same shape (data sets × folds), got "
                f"{xa.shape} and {xb.shape}."
            )
        name_a, name_b = "a", "b"
        fold_columns: list[str] = []
    else:
        if any(v is None for v in (case, algorithm, score, fold)):
            raise ValueError(
                "with data= give case=, algorithm=, score= and fold= (the columns "
                "of the long per-fold table)."
            )
        xa, xb, cases, fold_columns = _from_long(
            data,
            a,
            b,
            str(case),
            str(algorithm),
            str(score),
            fold,  # type: ignore[arg-type]
            min_folds,
        )
        name_a, name_b = plain_name(a), plain_name(b)  # as given: a tuple stays
    q, n = xa.shape
    if q < 2:
        raise ValueError(
            f"the hierarchical model needs at least 2 data sets, got {q}; for one "
            f"data set use nbstats.bayes_correlated_ttest."
        )
    if n < 2:
        raise ValueError(f"each data set needs at least 2 folds, got {n}.")
    if min_folds is not None and min_folds > n:
        raise ValueError(
            f"min_folds={min_folds} exceeds the {n} folds per data set: every "
            f"data set would be left out. Give at most min_folds={n}."
        )
    if folds is None and runs is None and test_fraction is None and fold_columns[1:]:
        # (run, fold) columns: the runs are the first column's distinct values
        first = data[data[case].isin([data[case].iloc[0]])]  # type: ignore[index]
        runs = int(first[fold_columns[0]].nunique())
    design = fold_design(n, folds=folds, runs=runs, test_fraction=test_fraction)
    with np.errstate(over="ignore", invalid="ignore"):
        # C order: numpy's sums (so the draws) depend on the memory layout
        d = np.ascontiguousarray(xb - xa)
    if np.isinf(d).any():
        raise ValueError(
            "the differences b − a overflow (scores near ±1.8e308); rescale the "
            "scores, e.g. divide both by their largest absolute value."
        )
    return d, cases, name_a, name_b, design


def _matrix(
    x: object, label: str, min_folds: int | None
) -> tuple[np.ndarray, list[str]]:
    if isinstance(x, str):
        raise TypeError(
            f"{label}={x!r} is a name: pass the long per-fold table as data= (with "
            f"case=, algorithm=, score=, fold=), or give a and b as data sets × "
            f"folds arrays."
        )
    cases = None
    if isinstance(x, pd.DataFrame):
        cases = [str(c) for c in x.index]
        x = x.to_numpy()
    array = np.asarray(x)
    if array.dtype.kind not in "iuf" or array.dtype == np.bool_:
        raise TypeError(
            f"{label} must hold real numbers (data sets × folds), got dtype "
            f"{array.dtype}."
        )
    if array.ndim != 2:
        raise ValueError(
            f"{label} must be 2-D: one row per data set, one column per fold; got "
            f"shape {array.shape}."
        )
    array = array.astype(float)
    bad = np.isinf(array) if min_folds is not None else ~np.isfinite(array)
    if bad.any():
        rows = sorted({int(i) for i in np.argwhere(bad)[:, 0]})
        if min_folds is not None:
            raise ValueError(
                f"{label} has infinite scores in data set row(s) {rows[:10]}: "
                "scores must be finite (NaN marks a failed fold); replace them "
                "or drop those data sets."
            )
        raise ValueError(
            f"{label} has missing or infinite scores in data set row(s) "
            f"{rows[:10]}: every data set needs every fold; drop those data "
            "sets or rerun them, or pass min_folds=K to "
            "nbstats.bayes_hierarchical (each data set then uses the folds "
            "where a and b both have a score; NaN marks a failed fold)."
        )
    if cases is None:
        cases = [str(i) for i in range(array.shape[0])]
    return array, cases


def _from_long(
    data: pd.DataFrame,
    a: object,
    b: object,
    case: str,
    algorithm: str,
    score: str,
    fold: str | Sequence[str],
    min_folds: int | None,
) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a long DataFrame, got {type(data).__name__}.")
    if algorithm not in data.columns:
        raise ValueError(
            f"column {algorithm!r} not found; the table has columns "
            f"{list(data.columns)}."
        )
    present = {str(v): v for v in pd.unique(data[algorithm])}
    for label, name in (("a", a), ("b", b)):
        if str(name) not in present:
            raise ValueError(
                f"{label}={name!r} is not an algorithm in column {algorithm!r}; the "
                f"algorithms are {sorted(present)}."
            )
    if str(a) == str(b):
        raise ValueError(f"a and b must be two different algorithms, got {a!r} twice.")
    pair = data[data[algorithm].isin([present[str(a)], present[str(b)]])]
    blocks = fold_blocks(
        pair, case=case, algorithm=algorithm, score=score, fold=fold,
        min_folds=min_folds, call="nbstats.bayes_hierarchical", unit="data set",
    )  # fmt: skip
    counts = pd.Series(
        [len(block) for block in blocks.blocks], index=blocks.means.index
    )
    if counts.nunique() > 1:
        raise ValueError(
            f"the data sets have different numbers of folds "
            f"({counts.min()}–{counts.max()}; e.g. {counts.idxmin()!r}: "
            f"{counts.min()}, {counts.idxmax()!r}: {counts.max()}); the model "
            f"needs the same cross-validation on every data set."
        )
    # by position: a tuple name would be read as (row, column) keys
    names = [str(c) for c in blocks.means.columns]
    ia, ib = names.index(str(a)), names.index(str(b))
    xa = np.vstack([block[:, ia] for block in blocks.blocks])
    xb = np.vstack([block[:, ib] for block in blocks.blocks])
    return xa, xb, [str(c) for c in blocks.means.index], blocks.fold_columns


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


def _count(name: str, value: object, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}.")
    return int(value)
