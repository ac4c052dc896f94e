"""Correlated t-tests on the cross-validation folds of one data set.

The folds of k-fold cross-validation are not independent: any two training
sets share a (k − 2)/(k − 1) part of their cases, so the fold scores are
positively correlated and the plain paired t-test's variance is too small
(its p-values too small). Nadeau and Bengio (2003) corrected the variance of
the mean difference of n fold scores from ``σ²/n`` to

    σ² (1/n + ρ/(1 − ρ)),   ρ = n_test / (n_test + n_train),

ρ/(1 − ρ) = n_test/n_train = 1/(k − 1) for k-fold cross-validation (repeated
or not). :func:`correlated_ttest` is the corrected resampled t-test, Student's
t with n − 1 degrees of freedom. Corani and Benavoli (2015) showed that the
same correlation model with a non-informative prior gives a posterior of the
mean difference μ that is Student's t with n − 1 degrees of freedom, location
the mean difference and that corrected scale: :func:`bayes_correlated_ttest`
gives its probabilities in closed form, no sampling.

Both compute on the differences divided by their largest absolute value, so
that the statistic and the probabilities do not change when every score is
multiplied by any positive number (1e-300 … 1e300) and nothing overflows.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Literal

import numpy as np

from nbstats.results.folds import BayesCorrelatedTTestResult, CorrelatedTTestResult
from nbstats.scores.dtypes import real_scores
from nbstats.scores.folds import check_min_folds
from nbstats.scores.ranks import paired_differences_cases
from nbstats.scores.table import NanPolicy
from nbstats.stats.bayes.decision import decide, resolve_threshold
from nbstats.stats.frequentist.ttest import t_from_moments
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import check_choice, check_positive

__all__ = [
    "bayes_correlated_ttest",
    "correlated_ttest",
    "fold_design",
    "paired_moments",
]


@dataclass(frozen=True)
class FoldDesign:
    """How the fold scores were made: ``rho`` = n_test / n_total of one fold.

    ``folds`` (k per run) and ``runs`` are known for k-fold cross-validation,
    None for repeated hold-out given by ``test_fraction``.
    """

    rho: float
    folds: int | None
    runs: int | None

    @property
    def ratio(self) -> float:
        """n_test / n_train = ρ / (1 − ρ): the correlation's share of the variance."""
        return self.rho / (1.0 - self.rho)

    def describe(self) -> str:
        if self.folds is None:
            return f"repeated hold-out, test fraction ρ = {self.rho:g}"
        runs = "" if self.runs in (None, 1) else f"{self.runs} × "
        return f"{runs}{self.folds}-fold cross-validation (ρ = 1/{self.folds})"


def fold_design(
    n: int,
    *,
    folds: int | None = None,
    runs: int | None = None,
    test_fraction: float | None = None,
) -> FoldDesign:
    """The correlation ρ of n fold scores from how they were made.

    Give ``folds`` (k, folds per run), ``runs`` (repetitions of k-fold
    cross-validation), both, or ``test_fraction`` (n_test / n_total, for
    repeated random hold-out splits). One of them is required: assuming a
    single run (as baycomp does by default) would make ρ = 1/n for ten runs of
    ten folds instead of 1/10 and the variance far too small — a silent wrong
    answer.

    r runs of k-fold cross-validation give exactly n = r × k scores, so
    ``folds`` and ``runs`` are held to that rule alike: ``folds=k`` needs n a
    multiple of k (then r = n / k), ``runs=r`` needs n a multiple of r with
    k = n / r >= 2, and both need n = r × k. Scores that are not whole runs
    of one k-fold cross-validation (a run cut short) are refused with the
    way out: ``test_fraction=1/k``, the same correlation without the claim of
    whole runs.

    Examples
    --------
    >>> fold_design(100, runs=10)
    FoldDesign(rho=0.1, folds=10, runs=10)
    >>> fold_design(100, folds=10)
    FoldDesign(rho=0.1, folds=10, runs=10)
    >>> fold_design(30, test_fraction=0.2).ratio
    0.25
    >>> fold_design(10, folds=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 10 fold scores cannot come from whole runs of 3-fold ...
    """
    if test_fraction is not None:
        if folds is not None or runs is not None:
            raise ValueError(
                "give either test_fraction (repeated hold-out) or folds/runs "
                "(k-fold cross-validation), not both."
            )
        rho = _real("test_fraction", test_fraction)
        if not 0 < rho < 1:
            raise ValueError(
                f"test_fraction is n_test / (n_test + n_train) of one split and must "
                f"lie strictly between 0 and 1, got {test_fraction!r}."
            )
        return FoldDesign(rho=rho, folds=None, runs=None)
    if folds is None and runs is None:
        raise ValueError(
            "say how the fold scores were made: folds=k (folds per run of k-fold "
            "cross-validation), runs=r (repetitions; k = number of scores / r), or "
            "test_fraction=n_test/n_total (repeated hold-out). The correction of "
            "the variance depends on it."
        )
    if folds is not None:
        folds = _count("folds", folds, minimum=2)
    if runs is not None:
        runs = _count("runs", runs, minimum=1)
    if folds is not None and runs is not None:
        if runs * folds != n:
            raise ValueError(
                f"runs={runs} × folds={folds} = {runs * folds} scores expected, "
                f"got {n}; r runs of k-fold cross-validation give r × k scores."
            )
    elif folds is not None:
        if n % folds:
            raise ValueError(
                f"{n} fold scores cannot come from whole runs of {folds}-fold "
                f"cross-validation ({n} is not a multiple of {folds}: r runs give "
                f"r × {folds} scores); pass the scores of whole runs, or "
                f"test_fraction=1/{folds} (ρ = 1/{folds} without whole runs)."
            )
        runs = n // folds
    else:
        if n % runs:
            raise ValueError(
                f"{n} fold scores cannot come from runs={runs} whole runs of one "
                f"k-fold cross-validation ({n} is not a multiple of {runs}: "
                f"{runs} runs give {runs} × k scores); pass the scores of whole "
                f"runs, or test_fraction=1/k (ρ = 1/k without whole runs)."
            )
        folds = n // runs
        if folds < 2:
            raise ValueError(
                f"runs={runs} with {n} scores leaves {folds} fold per run; k-fold "
                f"cross-validation needs k >= 2."
            )
    return FoldDesign(rho=1.0 / folds, folds=folds, runs=runs)


def correlated_ttest(
    a: object,
    b: object,
    *,
    folds: int | None = None,
    runs: int | None = None,
    test_fraction: float | None = None,
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
    level: float = 0.95,
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    min_folds: int | None = None,
) -> CorrelatedTTestResult:
    """Corrected resampled t-test (Nadeau & Bengio 2003) on one data set's folds.

    ``t = mean(d) / sqrt((1/n + ρ/(1 − ρ)) · var(d))`` with n − 1 degrees of
    freedom, where ``d = b − a`` are the n fold scores' differences (> 0 where
    b is better) and ρ = n_test / n_total (1/k for k-fold cross-validation).

    Parameters
    ----------
    a, b : array-like or Series
        Paired fold scores of the two algorithms on one data set, every run's
        folds in any order (the same order in a and b).
    folds, runs, test_fraction
        How the folds were made; see :func:`fold_design`. One is required.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: b is better than a.
    level : float
        Level of the confidence interval of the mean difference.
    higher_is_better : bool
        When False the differences are ``a - b``.
    nan_policy : {"raise", "omit"}
        ``"omit"`` drops the folds where either score is missing; ρ stays that
        of the design (``runs`` then counts the scores before dropping).
    min_folds : int, optional
        Failed folds (NaN in ``a`` or ``b``): test on the J folds where both
        have a score (``n`` = J, the design's ρ, 1/J in the correction, as
        ``nan_policy="omit"``), and refuse when J < ``min_folds``. Without it
        (and ``nan_policy="raise"``) a failed fold is refused.

    Returns
    -------
    CorrelatedTTestResult
        ``statistic, pvalue = result``.

    Notes
    -----
    When every difference is the same the variance is zero: p = 1 (t = 0)
    if they are all zero, p = 0 (``|t| = ∞``) otherwise, as :func:`nbstats.ttest`.

    Examples
    --------
    >>> import numpy as np, nbstats
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(0.80, 0.02, 100)
    >>> b = a + rng.normal(0.01, 0.01, 100)
    >>> res = nbstats.correlated_ttest(a, b, runs=10)
    >>> res.df, round(res.rho, 2)
    (99, 0.1)

    The same statistic by hand:

    >>> d = b - a
    >>> t = d.mean() / np.sqrt((1 / 100 + 1 / 9) * d.var(ddof=1))
    >>> bool(np.isclose(res.statistic, t))
    True
    """
    check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    level = _level("level", level)
    n_given = _length(a)
    d, name_a, name_b = _fold_differences(
        a, b, higher_is_better, nan_policy, min_folds, "correlated_ttest"
    )
    design = fold_design(n_given, folds=folds, runs=runs, test_fraction=test_fraction)
    moments = _Moments.of(d, design)
    df = d.size - 1
    t, p, ci = t_from_moments(moments.mean, moments.se, df, alternative, level)
    return CorrelatedTTestResult(
        statistic=t,
        pvalue=p,
        df=df,
        mean_difference=moments.scaled(moments.mean),
        standard_error=moments.scaled(moments.se),
        confidence_interval=(moments.scaled(ci[0]), moments.scaled(ci[1])),
        level=level,
        alternative=alternative,
        n_folds=int(d.size),
        rho=design.rho,
        folds=design.folds,
        runs=design.runs,
        name_a=name_a,
        name_b=name_b,
    )


def bayes_correlated_ttest(
    a: object,
    b: object,
    *,
    rope: float = 0.0,
    folds: int | None = None,
    runs: int | None = None,
    test_fraction: float | None = None,
    threshold: float | None = None,
    loss: tuple[float, float] = (1, 19),
    higher_is_better: bool = True,
    nan_policy: NanPolicy = "raise",
    min_folds: int | None = None,
) -> BayesCorrelatedTTestResult:
    """Bayesian correlated t-test (Corani & Benavoli 2015) on one data set's folds.

    The posterior of the mean difference μ (of ``d = b − a``, > 0 where b is
    better) is Student's t with n − 1 degrees of freedom, location
    ``mean(d)`` and scale ``sqrt((1/n + ρ/(1 − ρ)) · var(d))``, ρ =
    n_test / n_total. With a rope (half-width r, in score units):
    ``prob_left = P(μ < −r)``, ``prob_rope = P(−r ≤ μ ≤ r)``,
    ``prob_right = P(μ > r)``; without, ``prob_left = P(μ < 0)`` and
    ``prob_right = P(μ > 0)``. Closed form: no sampling, no seed.

    Parameters
    ----------
    a, b : array-like or Series
        Paired fold scores of the two algorithms on one data set.
    rope : float
        Half-width of the region of practical equivalence of μ, in the
        scores' units (e.g. 0.01 for one point of accuracy).
    folds, runs, test_fraction
        How the folds were made; see :func:`fold_design`. One is required.
    threshold : float, optional
        Posterior probability a region needs to be decided; defaults to
        ``l1 / (l0 + l1)`` from ``loss``.
    loss : (float, float)
        ``(l0, l1)``; the default (1, 19) gives the threshold 0.95.
    higher_is_better : bool
    nan_policy : {"raise", "omit"}
        As in :func:`correlated_ttest`.
    min_folds : int, optional
        As in :func:`correlated_ttest`: the J folds where both have a score,
        at least ``min_folds`` of them.

    Returns
    -------
    BayesCorrelatedTTestResult
        ``decision`` is ``"b"`` (P(b better) above the threshold), ``"a"``,
        ``"equivalent"`` (P(rope) above it) or ``"undecided"`` (no region
        reaches it: not evidence that a is better).

    Examples
    --------
    >>> import numpy as np, nbstats
    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(0.80, 0.02, 100)
    >>> b = a + rng.normal(0.01, 0.01, 100)
    >>> res = nbstats.bayes_correlated_ttest(a, b, rope=0.005, runs=10)
    >>> round(res.prob_right, 3), res.decision
    (0.909, 'undecided')

    Compare with baycomp's ``CorrelatedTTest(a, b, rope=0.005, runs=10).probs()``,
    which gives the same three probabilities.
    """
    rope = check_positive("rope", rope, allow_zero=True)
    threshold = resolve_threshold(threshold, loss)
    n_given = _length(a)
    d, name_a, name_b = _fold_differences(
        a, b, higher_is_better, nan_policy, min_folds, "bayes_correlated_ttest"
    )
    design = fold_design(n_given, folds=folds, runs=runs, test_fraction=test_fraction)
    moments = _Moments.of(d, design)
    df = d.size - 1
    left, right = region_probabilities(
        np.array([moments.unit]), np.array([moments.mean]), np.array([moments.se]),
        df, rope,
    )  # fmt: skip
    prob_left, prob_right = float(left[0]), float(right[0])
    prob_rope = max(0.0, 1.0 - prob_left - prob_right) if rope > 0 else None
    decision = decide(prob_left, prob_rope, prob_right, threshold)
    return BayesCorrelatedTTestResult(
        prob_left=prob_left,
        prob_rope=prob_rope,
        prob_right=prob_right,
        mean=moments.scaled(moments.mean),
        scale=moments.scaled(moments.se),
        df=df,
        rope=rope,
        threshold=threshold,
        decision=decision,
        n_folds=int(d.size),
        rho=design.rho,
        folds=design.folds,
        runs=design.runs,
        name_a=name_a,
        name_b=name_b,
    )


@dataclass(frozen=True)
class _Moments:
    """Mean and corrected standard error of d / unit, unit = max |d|."""

    unit: float
    mean: float
    se: float

    @classmethod
    def of(cls, d: np.ndarray, design: FoldDesign) -> _Moments:
        if d.size < 2:
            raise ValueError(
                f"a correlated t-test needs at least 2 fold scores per algorithm, "
                f"got {d.size}."
            )
        if not np.all(np.isfinite(d)):
            raise ValueError(
                "the differences b - a overflow (scores near ±1.8e308); rescale the "
                "scores, e.g. divide both by their largest absolute value."
            )
        unit, mean, se = student_moments(d[:, None], design.ratio)
        return cls(unit=float(unit[0]), mean=float(mean[0]), se=float(se[0]))

    def scaled(self, value: float) -> float:
        """A value in units of max |d| back in score units (refusing overflow)."""
        if math.isinf(value):
            return float(value)
        out = value * self.unit
        if not math.isfinite(out):
            raise ValueError(
                "the scores are too large to express this interval (it overflows "
                "±1.8e308); rescale the scores, e.g. divide both by their largest "
                "absolute value."
            )
        return float(out)


def student_moments(
    d: np.ndarray, ratio: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of ``d`` (folds × pairs): ``(unit, mean, se)``, the mean and
    the corrected standard error ``sqrt((1/n + ratio) var)`` of ``d / unit``,
    unit = the column's largest |d| (mean = se = 0 where it is 0).

    Dividing first keeps every statistic the same under any rescaling of the
    scores and keeps squares of large or tiny numbers from overflowing.
    """
    unit = np.max(np.abs(d), axis=0)
    safe = np.where(unit > 0, unit, 1.0)
    u = d / safe
    n = d.shape[0]
    variance = u.var(axis=0, ddof=1) * (1.0 / n + ratio)
    return unit, u.mean(axis=0), np.sqrt(variance)


def paired_moments(
    d: np.ndarray, ratio: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`student_moments` of fold differences with failed folds.

    ``d`` is folds × pairs, NaN where either algorithm has no score on that
    fold. Each column uses its own J paired folds (the finite entries): the
    mean and ``sqrt((1/J + ratio) var)``, ``ratio`` = n_test / n_train of the
    design (unchanged by a failed fold: each fold's split is the same).
    Returns ``(J, unit, mean, se)``; unit, mean and se are NaN where J < 2.
    Without a NaN this is :func:`student_moments` itself (the same numbers).

    Examples
    --------
    >>> d = np.array([[0.01, 0.02], [np.nan, 0.01], [0.03, 0.0], [0.02, 0.01]])
    >>> J, unit, mean, se = paired_moments(d, 1 / 3)
    >>> J.tolist()
    [3, 4]
    >>> bool(np.isclose(mean[0] * unit[0], 0.02))
    True
    """
    paired = ~np.isnan(d)
    n = paired.sum(axis=0)
    if n.size and (n == d.shape[0]).all():
        unit, mean, se = student_moments(d, ratio)
        return n, unit, mean, se
    unit, mean, se = (np.full(d.shape[1], np.nan) for _ in range(3))
    for p in np.flatnonzero(n >= 2):
        u, m, s = student_moments(d[paired[:, p], p][:, None], ratio)
        unit[p], mean[p], se[p] = u[0], m[0], s[0]
    return n, unit, mean, se


def region_probabilities(
    unit: np.ndarray,
    mean: np.ndarray,
    se: np.ndarray,
    df: int | np.ndarray,
    rope: float,
) -> tuple[np.ndarray, np.ndarray]:
    """``(P(μ < −rope), P(μ > rope))`` of Student posteriors given in units.

    ``mean`` and ``se`` are in units of ``unit`` (see :func:`student_moments`);
    ``df`` one number, or one per posterior (failed folds: J − 1 each).
    A zero ``se`` (every difference equal) puts all mass at the mean; without
    a rope, a mean of exactly 0 counts half to each side, as baycomp does.
    """
    with np.errstate(divide="ignore", over="ignore"):
        # the rope in units: infinite when it dwarfs a tiny unit; when every
        # difference is 0 (unit 0) the rope, if any, holds all the mass
        high = np.where(unit > 0, rope / np.where(unit > 0, unit, 1.0), np.inf)
    if rope == 0:
        high = np.zeros_like(mean)
    degenerate = se == 0
    scale = np.where(degenerate, 1.0, se)
    left = sps.t.cdf((-high - mean) / scale, df)
    right = sps.t.sf((high - mean) / scale, df)
    half = 0.5 * (mean == 0) if rope == 0 else np.zeros_like(mean)
    left = np.where(degenerate, (mean < -high) + half, left)
    right = np.where(degenerate, (mean > high) + half, right)
    return left.astype(float), right.astype(float)


def _differences(
    a: object, b: object, higher_is_better: bool, nan_policy: NanPolicy
) -> tuple[np.ndarray, str, str]:
    # an overflowing b - a becomes inf here and a clear error in _Moments.of
    with np.errstate(over="ignore"):
        d, name_a, name_b, _ = paired_differences_cases(
            a, b, higher_is_better=higher_is_better, nan_policy=nan_policy
        )
    return d, name_a, name_b


def _fold_differences(
    a: object,
    b: object,
    higher_is_better: bool,
    nan_policy: NanPolicy,
    min_folds: object,
    name: str,
) -> tuple[np.ndarray, str, str]:
    """The paired folds' differences: all folds, or with ``min_folds`` those
    where both have a score (refusing fewer than ``min_folds``)."""
    minimum = check_min_folds(min_folds, paired=True)
    if minimum is None:
        failed = [_failed_positions(x, label) for x, label in ((a, "a"), (b, "b"))]
        same = _length(a) == _length(b)  # else refused below, naming the sizes
        if nan_policy == "raise" and same and all(f is not None for f in failed):
            both = np.union1d(*failed)
            if both.size:
                n = _length(a)
                raise ValueError(
                    f"failed folds (missing scores): a has no score on "
                    f"{len(failed[0])} and b on {len(failed[1])} of the {n} folds "
                    f"(positions {both[:10].tolist()}); {n - both.size} are "
                    f"paired. Pass min_folds=K to nbstats.{name} to test on the "
                    "folds where both have a score, if at least K (or "
                    "nan_policy='omit': no minimum); or rerun the failed folds."
                )
        return _differences(a, b, higher_is_better, nan_policy)
    n = _length(a)
    if minimum > n:
        raise ValueError(
            f"min_folds={minimum} exceeds the {n} folds given: give at most "
            f"min_folds={n} (every fold)."
        )
    with warnings.catch_warnings():  # the result's n counts the folds used
        warnings.filterwarnings("ignore", "nan_policy='omit'", UserWarning)
        d, name_a, name_b = _differences(a, b, higher_is_better, "omit")
    if d.size < minimum:
        raise ValueError(
            f"a and b both have a score on {d.size} of the {n} folds, fewer "
            f"than min_folds={minimum}: not tested. Lower min_folds, or rerun "
            "the failed folds."
        )
    return d, name_a, name_b


def _failed_positions(x: object, label: str) -> np.ndarray | None:
    """Positions of the missing scores of one algorithm's folds (None: input
    that :func:`_differences` refuses in its own words)."""
    try:
        values = real_scores(x, label)
    except (TypeError, ValueError):
        return None
    return np.flatnonzero(np.isnan(values)) if values.ndim == 1 else None


def _length(x: object) -> int:
    try:
        return len(x)  # type: ignore[arg-type]
    except TypeError:
        return int(np.size(x))


def _real(name: str, value: object) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {value!r}.")
    return float(value)


def _count(name: str, value: object, *, minimum: int) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a whole number, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}.")
    return int(value)


def _level(name: str, value: object) -> float:
    level = _real(name, value)
    if not 0 < level < 1:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}.")
    return level
