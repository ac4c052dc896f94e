"""Skillings–Mack test: worked example, Friedman on complete tables, brute force.

Oracles:

- Skillings and Mack (1981), Technometrics 23(2), Table 1 (four methods of
  assembling a product, nine blocks, five missing cells), as shipped in the
  example of R's ``Skillings.Mack::Ski.Mack``; that package prints
  "Skillings-Mack Statistic = 15.493049, p-value = 0.001440 ... d.f. = 3"
  for it.
- ``scipy.stats.friedmanchisquare`` (tie-corrected) and ``nbstats.friedman``
  on complete tables.
- A direct transcription of the paper's definition (loops over the cases,
  Σ built from the pairwise counts λ_jl, ``numpy.linalg.pinv``), independent
  of the vectorised code, on random tables with random missing cells.
- The permutation distribution enumerated here with ``itertools`` for
  small tables.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats
from nbstats.stats.frequentist.durbin import durbin
from nbstats.stats.frequentist.skillings_mack import skillings_mack

nan = np.nan

#: Skillings & Mack (1981) Table 1: assembly times (lower is better).
TABLE_1 = pd.DataFrame(
    [
        [3.2, 4.1, 3.8, 4.2],
        [3.1, 3.9, 3.4, 4.0],
        [4.3, 3.5, 4.6, 4.8],
        [3.5, 3.6, 3.9, 4.0],
        [3.6, 4.2, 3.7, 3.9],
        [4.5, 4.7, 3.7, nan],
        [nan, 4.2, 3.4, nan],
        [4.3, 4.6, 4.4, 4.9],
        [3.5, nan, 3.7, 3.9],
    ],
    columns=list("ABCD"),
)


def oracle_sums(values: np.ndarray) -> np.ndarray:
    """Skillings & Mack's adjusted rank sums A_j, case by case."""
    m = values.shape[1]
    a = np.zeros(m)
    for row in values:
        seen = [j for j in range(m) if not math.isnan(row[j])]
        k = len(seen)
        if k < 2:
            continue
        r = stats.rankdata([-row[j] for j in seen])  # 1 = highest score
        for rank, j in zip(r, seen, strict=True):
            a[j] += math.sqrt(12 / (k + 1)) * (rank - (k + 1) / 2)
    return a


def oracle_sigma(values: np.ndarray) -> np.ndarray:
    """Σ from the pairwise counts λ_jl of the cases with 2 or more scores."""
    m = values.shape[1]
    lam = np.zeros((m, m))
    for row in values:
        seen = [j for j in range(m) if not math.isnan(row[j])]
        if len(seen) < 2:
            continue
        for j in seen:
            for l in seen:  # noqa: E741
                if j != l:
                    lam[j, l] += 1
    sigma = -lam
    np.fill_diagonal(sigma, lam.sum(axis=1))
    return sigma


def oracle_statistic(values: np.ndarray) -> tuple[float, np.ndarray]:
    """T = Aᵀ Σ⁻ A, transcribed from the paper (Moore–Penrose by pinv)."""
    a = oracle_sums(values)
    return float(a @ np.linalg.pinv(oracle_sigma(values)) @ a), a


def random_table(rng: np.random.Generator, n: int, m: int, p_missing: float):
    values = rng.normal(size=(n, m))
    values[rng.random((n, m)) < p_missing] = nan
    return values


# --- worked example ----------------------------------------------------------


def test_skillings_mack_1981_table_1():
    res = skillings_mack(TABLE_1, higher_is_better=False)
    assert res.statistic == pytest.approx(15.493049, abs=5e-7)
    assert res.df == 3
    assert res.pvalue == pytest.approx(0.001440296302, rel=1e-8)
    assert res.n_cases == 9 and res.n_dropped == 0 and res.n_missing == 4
    # the direction flips the signs of A but not T
    other = skillings_mack(TABLE_1, higher_is_better=True)
    assert other.statistic == pytest.approx(res.statistic, rel=1e-12)
    np.testing.assert_allclose(other.adjusted_sums, -res.adjusted_sums, atol=1e-12)


def test_table_1_against_the_transcribed_definition():
    expected, a = oracle_statistic(-TABLE_1.to_numpy())  # lower is better
    res = skillings_mack(TABLE_1, higher_is_better=False)
    assert res.statistic == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(res.adjusted_sums.to_numpy(), a, atol=1e-12)
    # Σ: -λ off the diagonal (λ_AB = 7: both have scores in seven cases)
    assert res.covariance.loc["A", "B"] == -7
    np.testing.assert_allclose(res.covariance.sum(axis=1), 0, atol=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_random_missing_cells_match_the_transcribed_definition(seed):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(3, 15)), int(rng.integers(2, 7))
    values = random_table(rng, n, m, 0.3)
    values[0] = rng.normal(size=m)  # one complete case: the design is linked
    values[1] = rng.normal(size=m)
    expected, a = oracle_statistic(values)
    res = skillings_mack(values)
    assert res.statistic == pytest.approx(expected, rel=1e-10, abs=1e-12)
    np.testing.assert_allclose(res.adjusted_sums.to_numpy(), a, atol=1e-10)
    assert res.pvalue == pytest.approx(stats.chi2.sf(expected, m - 1), rel=1e-8)


# --- complete tables: Friedman -----------------------------------------------


@pytest.mark.parametrize(("n", "m", "seed"), [(5, 3, 0), (14, 4, 1), (30, 7, 2)])
def test_complete_table_without_ties_is_friedman(n, m, seed):
    values = np.random.default_rng(seed).normal(size=(n, m))
    res = skillings_mack(values)
    scipy_res = stats.friedmanchisquare(*values.T)
    assert res.statistic == pytest.approx(scipy_res.statistic, rel=1e-10)
    assert res.pvalue == pytest.approx(scipy_res.pvalue, rel=1e-8)
    assert res.statistic == pytest.approx(nbstats.friedman(values).statistic)
    assert res.df == m - 1 and res.n_missing == 0


def test_complete_table_with_ties():
    """Average ranks, Σ of untied ranks: Friedman without the tie correction
    (conservative); tie_correction=True is scipy's tie-corrected χ²."""
    values = np.random.default_rng(3).integers(0, 3, size=(12, 4)).astype(float)
    plain = skillings_mack(values)
    corrected = skillings_mack(values, tie_correction=True)
    friedman = nbstats.friedman(values)
    scipy_res = stats.friedmanchisquare(*values.T)
    assert plain.statistic == pytest.approx(friedman.statistic, rel=1e-10)
    assert corrected.statistic == pytest.approx(scipy_res.statistic, rel=1e-10)
    assert corrected.pvalue == pytest.approx(scipy_res.pvalue, rel=1e-8)
    assert plain.statistic < corrected.statistic


def test_balanced_incomplete_design_is_durbin():
    # every pair of 4 algorithms on 2 cases: each case 3 of 4 (a BIBD)
    rng = np.random.default_rng(4)
    values = rng.normal(size=(8, 4))
    for i, j in enumerate([0, 1, 2, 3, 0, 1, 2, 3]):
        values[i, j] = nan
    sm = skillings_mack(values)
    assert sm.statistic == pytest.approx(durbin(values).statistic, rel=1e-10)


# --- dropped cases, ties, degenerate tables ----------------------------------


def test_cases_with_fewer_than_two_scores_are_dropped_and_counted():
    values = random_table(np.random.default_rng(5), 10, 4, 0.2)
    values[:2] = np.random.default_rng(6).normal(size=(2, 4))
    values[3] = [nan, 1.0, nan, nan]
    values[7] = nan
    res = skillings_mack(values)
    kept = np.sum(~np.isnan(values), axis=1) >= 2
    assert res.n_dropped == int((~kept).sum()) >= 2
    assert res.n_cases == int(kept.sum())
    again = skillings_mack(values[kept])
    assert res.statistic == again.statistic and res.n_dropped - again.n_dropped >= 2


def test_every_case_tied():
    values = np.array([[1.0, 1, 1], [2, 2, nan], [nan, 3, 3]])
    plain = skillings_mack(values)
    assert (plain.statistic, plain.pvalue) == (0.0, 1.0)
    corrected = skillings_mack(values, tie_correction=True)
    assert (corrected.statistic, corrected.pvalue, corrected.df) == (0.0, 1.0, 0)
    perm = skillings_mack(values, method="permutation")
    assert (perm.statistic, perm.pvalue, perm.n_resamples) == (0.0, 1.0, 0)
    assert "T = 0" in perm.summary()


def test_perfect_agreement_is_significant():
    values = np.tile(np.arange(5.0), (20, 1))
    values[::3, 1] = nan
    res = skillings_mack(values)
    assert res.pvalue < 1e-10


# --- permutation p-values ------------------------------------------------------


def enumerated_pvalue(values: np.ndarray) -> float:
    """P(T* >= T) over every arrangement of each case's scores (brute force)."""
    inverse = np.linalg.pinv(oracle_sigma(values))  # the same for every arrangement
    a = oracle_sums(values)
    observed = a @ inverse @ a
    per_case = []
    for row in values:
        seen = np.flatnonzero(~np.isnan(row))
        options = []
        for perm in itertools.permutations(row[seen]):
            new = np.full(len(row), nan)
            new[seen] = perm
            options.append(new)
        per_case.append(options)
    t = []
    for rows in itertools.product(*per_case):
        a = oracle_sums(np.array(rows))
        t.append(a @ inverse @ a)
    return float(np.mean(np.array(t) >= observed * (1 - 1e-9)))


SMALL = np.array(
    [
        [0.1, 0.5, 0.9, nan],
        [0.3, 0.8, nan, 0.2],
        [0.7, 0.9, 0.6, nan],
        [nan, 0.6, 0.8, 0.5],
        [0.2, 0.6, nan, nan],
    ]
)  # 3! 3! 3! 3! 2! = 2,592 arrangements


@pytest.fixture(scope="module")
def small_exact() -> float:
    return enumerated_pvalue(SMALL)


def test_exact_permutation_pvalue(small_exact):
    res = skillings_mack(SMALL, method="permutation")
    assert res.exact and res.n_resamples == 2592
    assert res.pvalue == pytest.approx(small_exact, abs=1e-12)
    assert res.statistic == skillings_mack(SMALL).statistic


def test_random_permutation_pvalue_is_close_to_exact(small_exact):
    n = 2000
    res = skillings_mack(SMALL, method="permutation", n_resamples=n, random_state=1)
    assert not res.exact and res.n_resamples == n
    se = math.sqrt(small_exact * (1 - small_exact) / n)
    assert abs(res.pvalue - small_exact) < 4 * se + 1 / (n + 1)
    again = skillings_mack(
        SMALL,
        method="permutation",
        n_resamples=n,
        random_state=np.random.default_rng(1),
    )
    same = skillings_mack(SMALL, method="permutation", n_resamples=n, random_state=1)
    assert same.pvalue == res.pvalue
    assert 1 / (n + 1) <= again.pvalue <= 1


def test_exact_permutation_with_ties():
    values = np.array([[1.0, 1, 2], [2, 3, 3], [1, nan, 2], [3, 2, 1], [2, 2, nan]])
    res = skillings_mack(values, method="permutation")
    assert res.exact
    assert res.pvalue == pytest.approx(enumerated_pvalue(values), abs=1e-12)


# --- scale safety ----------------------------------------------------------------


@pytest.mark.parametrize("factor", [2.0**-1000, 1e-300, 3.7, 1e300, 2.0**1000])
def test_scale_shift_and_direction_invariance(factor):
    values = random_table(np.random.default_rng(7), 12, 5, 0.25)
    values[:2] = np.random.default_rng(8).integers(0, 3, size=(2, 5))  # ties
    base = skillings_mack(values)
    scaled = skillings_mack(values * factor)
    assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
    shifted = skillings_mack(np.round(values * 4) + 1e6)
    assert shifted.statistic == skillings_mack(np.round(values * 4)).statistic
    flipped = skillings_mack(-values * factor, higher_is_better=False)
    assert flipped.statistic == pytest.approx(base.statistic, rel=1e-12)
    pd.testing.assert_series_equal(flipped.adjusted_sums, base.adjusted_sums)


def test_columns_permuted_follow_the_algorithms():
    values = random_table(np.random.default_rng(9), 10, 4, 0.25)
    values[:2] = np.random.default_rng(10).normal(size=(2, 4))
    table = pd.DataFrame(values, columns=list("wxyz"))
    base = skillings_mack(table)
    moved = skillings_mack(table[["z", "x", "w", "y"]])
    assert moved.statistic == pytest.approx(base.statistic, rel=1e-12)
    pd.testing.assert_series_equal(
        moved.adjusted_sums.reindex(base.adjusted_sums.index), base.adjusted_sums
    )


# --- bad input -----------------------------------------------------------------


def test_disconnected_design_is_refused():
    values = np.array([[1.0, 2, nan, nan], [2, 1, nan, nan], [nan, nan, 1, 2]])
    with pytest.raises(ValueError, match=r"groups never scored on a common case"):
        skillings_mack(values)


def test_algorithm_without_usable_scores_is_refused():
    values = np.array([[1.0, 2, nan], [2, 1, nan], [nan, nan, 5]])
    with pytest.raises(ValueError, match=r"'alg3'.*no score in any case"):
        skillings_mack(values)


def test_too_few_usable_cases():
    with pytest.raises(ValueError, match="at least 2 cases with 2 or more scores"):
        skillings_mack(np.array([[1.0, 2], [3, nan], [nan, 1]]))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "exact"}, ValueError, "unknown method"),
        ({"method": "permutation", "n_resamples": 0}, ValueError, "n_resamples"),
        ({"method": "permutation", "n_resamples": 1.5}, TypeError, "n_resamples"),
        ({"tie_correction": "yes"}, TypeError, "tie_correction"),
        ({"higher_is_better": None}, TypeError, "higher_is_better"),
        ({"method": "permutation", "random_state": "x"}, TypeError, "random_state"),
    ],
)
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        skillings_mack(SMALL, **kwargs)


def test_bad_scores():
    with pytest.raises(ValueError, match="finite"):
        skillings_mack(np.array([[1.0, np.inf], [1, 2]]))
    with pytest.raises(ValueError, match="2-D"):
        skillings_mack(np.array([1.0, 2, 3]))


# --- result object ---------------------------------------------------------------


def test_result_display_and_frame():
    res = skillings_mack(TABLE_1, higher_is_better=False)
    statistic, pvalue = res
    assert (statistic, pvalue) == (res.statistic, res.pvalue)
    frame = res.to_frame()
    assert frame.loc[0, "statistic"] == res.statistic
    assert frame.loc[0, "method"] == "asymptotic"
    html = res._repr_html_()
    assert "Skillings–Mack test" in html and "χ² approximation" in html
    assert "adjusted rank sum" in res.summary()
    assert "Skillings" in res.to_latex()
    # A, fastest in six of its eight cases, has the lowest mean rank and sum
    assert res.mean_ranks.idxmin() == "A" == res.adjusted_sums.idxmin()
    perm = skillings_mack(SMALL, method="permutation", n_resamples=100, random_state=0)
    assert "100 random permutations" in perm.summary()
    assert res == skillings_mack(TABLE_1, higher_is_better=False)
