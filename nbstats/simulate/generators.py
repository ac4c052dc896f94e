"""Synthetic score tables with a known truth, for calibration and power studies.

Three generators, one per paper whose simulations nbstats reproduces:

- :func:`challenge_scores` — Foucart et al. (2025, supplement, "Synthetic
  distribution of results"): m algorithms on n cases of a challenge, with a
  skewed case difficulty and a separability factor f.
- :func:`paired_normal` — Benavoli et al. (2014, §4, eq. 10): two classifiers'
  accuracies on n data sets, bivariate normal with a mean difference Δ.
- :func:`racing_candidates` — Benavoli et al. (2015, §7.1): candidates with
  uniform random means and normal scores, evaluated one (candidate, instance)
  at a time, as a race does.

Every generator takes ``random_state`` (None, an int, a numpy Generator or a
SeedSequence): equal seeds give equal data. Score tables follow the input
model of :mod:`nbstats.scores.table`: rows = cases ``"case1"``, …, columns =
algorithms, higher is better.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import pandas as pd

from nbstats.util import scipy_stats as sps
from nbstats.util.random import seed_sequence

__all__ = [
    "CandidateEvaluator",
    "challenge_scores",
    "paired_normal",
    "racing_candidates",
]


def challenge_scores(
    n_cases: int,
    n_algorithms: int,
    separability: float,
    *,
    kappa: float = 2.0,
    random_state: object = None,
) -> tuple[pd.DataFrame, pd.Series]:
    r"""Scores of a synthetic challenge (Foucart et al. 2025, supplement).

    Case ``j`` has a difficulty ``d_j`` drawn from the asymmetric Laplace
    distribution ``scipy.stats.laplace_asymmetric(kappa)``; algorithm ``i``
    (``i = 0, …, m − 1``) scores

    .. math::

        s_{ij} = d_j + n_{ij}, \qquad
        n_{ij} \sim N(i \, f \, \sigma_N, \; \sigma_N^2), \qquad
        \sigma_N = \sqrt{\sigma_D},

    where ``σ_D`` is the standard deviation of the difficulty distribution and
    ``f`` the separability factor (0.25, 0.5, 1 and 2 in the paper). The
    supplement states ``σ_N = √σ_D`` — the square root of a *standard
    deviation* — and its worked example writes ``n_ij ~ N(i√σ_D / 2, √σ_D)``
    for ``f = 0.5``; this function implements exactly that (for κ = 2,
    ``σ_D ≈ 2.06`` and ``σ_N ≈ 1.44``), and ``σ_N`` is the noise's standard
    deviation. The paper's "Power @ 0.5 σ_N" is ``separability=0.5``.

    With κ > 1 the difficulty has a long tail towards low scores, as the
    challenge results analysed in the supplement do (κ = 2 there).

    Parameters
    ----------
    n_cases : int
        Number of cases (rows), at least 2.
    n_algorithms : int
        Number of algorithms ``m`` (columns), at least 2.
    separability : float
        The factor ``f ≥ 0``: consecutive algorithms' mean scores differ by
        ``f σ_N``. ``0`` makes every algorithm equal (the null hypothesis of
        the paper's FWTI table).
    kappa : float
        Asymmetry κ > 0 of the difficulty distribution (scipy's
        parametrisation; κ = 1 is the symmetric Laplace).
    random_state : None, int, Generator or SeedSequence
        Seed; equal seeds give equal tables.

    Returns
    -------
    scores : DataFrame
        ``n_cases × n_algorithms``; index ``"case1"``, …; columns ``"alg1"``
        (``i = 0``, the worst when ``f > 0``) to ``"alg<m>"`` (the best).
    true_ranks : Series
        Rank of each algorithm in the population, **1 = best**: ``m − i``
        when ``f > 0``. When ``f = 0`` all algorithms are equal, so all share
        the average rank ``(m + 1) / 2`` (Demšar's convention for ties).

    Notes
    -----
    The supplement ranks 1 = lowest score; nbstats ranks 1 = best, and a
    higher score is better here, so ``true_ranks`` is the supplement's rank
    turned around. Difficulties are drawn by inverse transform,
    ``d_j = F⁻¹(u_j)`` with ``u_j ~ U(0, 1)`` and ``F⁻¹`` scipy's
    ``laplace_asymmetric.ppf``; the uniforms come first from the generator,
    then the ``n × m`` standard normals (row by row).

    Examples
    --------
    >>> scores, truth = challenge_scores(20, 5, 0.5, random_state=0)
    >>> scores.shape
    (20, 5)
    >>> truth.tolist()
    [5.0, 4.0, 3.0, 2.0, 1.0]
    >>> challenge_scores(20, 4, 0.0, random_state=0)[1].tolist()
    [2.5, 2.5, 2.5, 2.5]
    """
    n = _check_count("n_cases", n_cases, 2)
    m = _check_count("n_algorithms", n_algorithms, 2)
    f = _check_real("separability", separability, low=0.0)
    kappa = _check_real("kappa", kappa, low=0.0, strict=True)
    rng = np.random.default_rng(seed_sequence(random_state))
    difficulty_dist = sps.laplace_asymmetric(kappa)
    sigma_n = math.sqrt(float(difficulty_dist.std()))
    difficulty = difficulty_dist.ppf(rng.random(n))
    offsets = np.arange(m) * f * sigma_n
    scores = (
        difficulty[:, None] + offsets[None, :] + sigma_n * rng.standard_normal((n, m))
    )
    columns = pd.Index([f"alg{i + 1}" for i in range(m)], name="algorithm")
    table = pd.DataFrame(scores, index=_case_index(n), columns=columns)
    truth = np.arange(m, 0, -1, dtype=float) if f > 0 else np.full(m, (m + 1) / 2)
    return table, pd.Series(truth, index=columns.copy(), name="true rank")


def paired_normal(
    n_cases: int,
    delta: float,
    *,
    sigma: float = 0.12,
    rho: float = 0.0,
    random_state: object = None,
) -> pd.DataFrame:
    r"""Paired accuracies of two classifiers (Benavoli et al. 2014, eq. 10).

    .. math::

        \begin{bmatrix} X_i \\ Y_i \end{bmatrix} \sim
        N\left(\begin{bmatrix} 0 \\ \Delta \end{bmatrix},
        \sigma^2 \begin{bmatrix} 1 & \rho \\ \rho & 1 \end{bmatrix}\right),
        \qquad i = 1, \dots, n.

    Column ``"a"`` holds X and ``"b"`` holds Y, so ``Δ > 0`` means b is
    better — the orientation of nbstats' two-sample tests, which measure the
    evidence that b is better than a. The paper uses n = 30, σ = 0.12,
    Δ ∈ [−0.07, 0.07] and ρ = 0 (or 0.95).

    Parameters
    ----------
    n_cases : int
        Number of data sets (rows), at least 2.
    delta : float
        Mean difference Δ = E[Y] − E[X].
    sigma : float
        Common standard deviation σ > 0.
    rho : float
        Correlation ρ ∈ [−1, 1].
    random_state : None, int, Generator or SeedSequence
        Seed; equal seeds give equal tables.

    Returns
    -------
    DataFrame
        Columns ``"a"`` and ``"b"``, index ``"case1"``, ….

    Notes
    -----
    Drawn as ``X = σ Z₁``, ``Y = Δ + σ (ρ Z₁ + √(1 − ρ²) Z₂)`` from standard
    normals ``(Z₁, Z₂)`` taken row by row from the generator.

    Examples
    --------
    >>> import nbstats
    >>> pair = paired_normal(30, 0.05, random_state=1)
    >>> list(pair.columns), len(pair)
    (['a', 'b'], 30)
    >>> res = nbstats.bayes_signrank(pair["a"], pair["b"], random_state=0)
    >>> res.decision in {"a", "b", "undecided", "indeterminate"}
    True
    """
    n = _check_count("n_cases", n_cases, 2)
    delta = _check_real("delta", delta)
    sigma = _check_real("sigma", sigma, low=0.0, strict=True)
    rho = _check_real("rho", rho, low=-1.0, high=1.0)
    rng = np.random.default_rng(seed_sequence(random_state))
    z = rng.standard_normal((n, 2))
    x = sigma * z[:, 0]
    y = delta + sigma * (rho * z[:, 0] + math.sqrt(1.0 - rho * rho) * z[:, 1])
    columns = pd.Index(["a", "b"], name="algorithm")
    return pd.DataFrame(np.column_stack([x, y]), index=_case_index(n), columns=columns)


@dataclass(frozen=True)
class CandidateEvaluator:
    """``evaluate(candidate, instance)`` for :func:`racing_candidates`.

    A picklable callable (it can be shipped to a process pool or a cluster):
    the score of ``candidate`` on ``instance`` is ``means[candidate] + σ z``
    with ``z`` a standard normal drawn from a stream seeded by
    ``SeedSequence(entropy, spawn_key=(*spawn_key, 1, candidate, instance))``
    — a function of the seed and the pair alone, so re-evaluating a pair
    gives the same score and the order of evaluation does not matter.
    """

    means: tuple[float, ...]
    sigma: float
    entropy: object
    spawn_key: tuple[int, ...]

    def __call__(self, candidate: int, instance: int) -> float:
        c = _check_index("candidate", candidate, len(self.means))
        k = _check_index("instance", instance, None)
        stream = np.random.SeedSequence(
            self.entropy, spawn_key=(*self.spawn_key, 1, c, k)
        )
        z = np.random.default_rng(stream).standard_normal()
        return float(self.means[c] + self.sigma * z)

    @property
    def best(self) -> int:
        """Index of the candidate with the highest mean (the true winner)."""
        return int(np.argmax(self.means))


def racing_candidates(
    n_candidates: int,
    *,
    sigma: float = 1.0,
    random_state: object = None,
) -> tuple[np.ndarray, CandidateEvaluator]:
    """Candidates for a race (Benavoli et al. 2015, §7.1).

    The means ``μ_1, …, μ_q`` are drawn from U[0, 1]; evaluating candidate
    ``i`` on instance ``k`` returns one draw from ``N(μ_i, σ²)``. The best
    candidate is the one with the highest mean.

    Parameters
    ----------
    n_candidates : int
        Number of candidates ``q``, at least 2 (30–200 in the paper).
    sigma : float
        Standard deviation σ > 0 of a score (the paper's ρ: 1, 0.5 or 0.1).
    random_state : None, int, Generator or SeedSequence
        Seed of the means and of every evaluation.

    Returns
    -------
    means : ndarray
        The true means (read-only), candidate ``i`` at position ``i``.
    evaluate : CandidateEvaluator
        ``evaluate(candidate, instance) -> float`` for integer
        ``0 ≤ candidate < q`` and ``instance ≥ 0``. Deterministic given
        (``random_state``, candidate, instance): re-evaluating returns the
        same score and results do not depend on the order of evaluation or
        on the executor. It pickles, so it can run in a process pool.

    Notes
    -----
    One evaluation is **one draw** per (candidate, instance). The paper adds
    "five new observations" per assessment of a candidate; with this
    generator, that is five new instances per step of the race
    (``nbstats.race(..., instances_per_step=5)``), and its budget of
    M = 300 assessments becomes 1,500 evaluations.

    With ``random_state=None`` the means and scores are random, yet one
    returned ``evaluate`` stays deterministic (its seed is fixed when it is
    made).

    Examples
    --------
    >>> means, evaluate = racing_candidates(4, sigma=0.1, random_state=0)
    >>> means.shape
    (4,)
    >>> evaluate(2, 7) == evaluate(2, 7)
    True
    >>> evaluate.best == int(means.argmax())
    True
    """
    q = _check_count("n_candidates", n_candidates, 2)
    sigma = _check_real("sigma", sigma, low=0.0, strict=True)
    root = seed_sequence(random_state)
    stream = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, 0))
    means = np.random.default_rng(stream).uniform(0.0, 1.0, q)
    evaluate = CandidateEvaluator(
        means=tuple(float(v) for v in means),
        sigma=sigma,
        entropy=root.entropy,
        spawn_key=tuple(root.spawn_key),
    )
    means.flags.writeable = False
    return means, evaluate


def _case_index(n: int) -> pd.Index:
    return pd.Index([f"case{j + 1}" for j in range(n)], name="case")


def _check_count(name: str, value: object, low: int) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}.")
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}.")
    return int(value)


def _check_real(
    name: str,
    value: object,
    *,
    low: float | None = None,
    high: float | None = None,
    strict: bool = False,
) -> float:
    if not isinstance(value, Real) or isinstance(value, bool):
        raise TypeError(f"{name} must be a real number, got {value!r}.")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}.")
    if low is not None and (value <= low if strict else value < low):
        bound = ">" if strict else "≥"
        raise ValueError(f"{name} must be {bound} {low:g}, got {value!r}.")
    if high is not None and value > high:
        raise ValueError(f"{name} must be ≤ {high:g}, got {value!r}.")
    return value


def _check_index(name: str, value: object, size: int | None) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool):
        raise TypeError(f"{name} must be a non-negative integer, got {value!r}.")
    if value < 0 or (size is not None and value >= size):
        limit = "a non-negative integer" if size is None else f"in 0…{size - 1}"
        raise ValueError(f"{name} must be {limit}, got {value}.")
    return int(value)
