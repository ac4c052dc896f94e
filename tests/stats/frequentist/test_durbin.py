"""Durbin test for balanced incomplete block designs.

Oracles:

- Conover (1999), Practical Nonparametric Statistics, 3rd ed., p. 391: seven
  judges rank three of seven ice creams (the data of the examples of R's
  ``agricolae::durbin.test`` and ``PMCMRplus::durbinTest``); rank sums
  8, 9, 4, 3, 5, 6, 7, so T₁ = 12 (χ²₆) and T₂ = 8 (F with 6 and 8 df,
  p = 0.005).
- ``scikit_posthocs.test_durbin`` (Conover's tie-corrected T₁) on random
  designs with and without ties.
- ``nbstats.friedman`` / ``scipy.stats.friedmanchisquare`` on complete
  designs (k = t), where T₁ is χ²_F and T₂ the Iman–Davenport F_F.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs
from scipy import stats

import nbstats
from nbstats.stats.frequentist.durbin import durbin
from nbstats.stats.frequentist.skillings_mack import skillings_mack

nan = np.nan

ICE_CREAM = pd.DataFrame(
    [
        [2, 3, nan, 1, nan, nan, nan],
        [nan, 3, 1, nan, 2, nan, nan],
        [nan, nan, 2, 1, nan, 3, nan],
        [nan, nan, nan, 1, 2, nan, 3],
        [3, nan, nan, nan, 1, 2, nan],
        [nan, 3, nan, nan, nan, 1, 2],
        [3, nan, 1, nan, nan, nan, 2],
    ],
    columns=list("ABCDEFG"),
    index=pd.Index([f"judge{i}" for i in range(1, 8)], name="judge"),
)


def posthocs_durbin(values: np.ndarray) -> tuple[float, float, int]:
    """``scikit_posthocs.test_durbin``, silencing its pandas deprecations."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", FutureWarning)
        return scikit_posthocs.test_durbin(values)


def design(t: int, k: int, copies: int = 1) -> np.ndarray:
    """Mask of the BIBD of all k-subsets of t algorithms, repeated ``copies``."""
    rows = []
    for subset in itertools.combinations(range(t), k):
        row = np.zeros(t, dtype=bool)
        row[list(subset)] = True
        rows.append(row)
    return np.array(rows * copies)


def fill(mask: np.ndarray, values: np.ndarray) -> np.ndarray:
    return np.where(mask, values, nan)


FANO = ICE_CREAM.notna().to_numpy()  # 7 cases, k = 3, r = 3, λ = 1
DESIGNS = [FANO, design(4, 3), design(4, 2), design(5, 2, 2), design(5, 3), FANO]


def test_conover_ice_cream():
    res = durbin(ICE_CREAM, higher_is_better=False)
    assert res.rank_sums.tolist() == [8, 9, 4, 3, 5, 6, 7]
    assert res.statistic == pytest.approx(12.0, rel=1e-14)
    assert res.df == 6
    assert res.pvalue == pytest.approx(stats.chi2.sf(12, 6), rel=1e-12)
    assert res.f_statistic == pytest.approx(8.0, rel=1e-14)
    assert res.f_df == (6, 8)
    assert res.f_pvalue == pytest.approx(stats.f.sf(8, 6, 8), rel=1e-12)
    assert round(res.f_pvalue, 3) == 0.005
    assert (res.block_size, res.replications, res.pair_count) == (3, 3, 1)
    assert res.mean_ranks["D"] == 1.0  # D ranked first by all three judges
    scipy_like = posthocs_durbin(ICE_CREAM.to_numpy())
    assert res.statistic == pytest.approx(scipy_like[1], rel=1e-12)
    assert res.pvalue == pytest.approx(scipy_like[0], rel=1e-12)


@pytest.mark.parametrize("which", range(len(DESIGNS)))
@pytest.mark.parametrize("ties", [False, True])
def test_against_scikit_posthocs(which, ties):
    mask = DESIGNS[which]
    rng = np.random.default_rng(which + 10 * ties)
    scores = rng.integers(0, 3, mask.shape) if ties else rng.normal(size=mask.shape)
    values = fill(mask, scores.astype(float))
    pvalue, statistic, df = posthocs_durbin(values)
    res = durbin(values, tie_correction=True)
    assert res.statistic == pytest.approx(statistic, rel=1e-10, abs=1e-12)
    assert res.pvalue == pytest.approx(pvalue, rel=1e-8)
    assert res.df == df
    plain = durbin(values)
    if ties:
        assert plain.statistic <= res.statistic + 1e-12
    else:
        assert plain.statistic == pytest.approx(res.statistic, rel=1e-12)
        # untied BIBD: Durbin's T₁ is the Skillings–Mack statistic
        sm = skillings_mack(values)
        assert sm.statistic == pytest.approx(plain.statistic, rel=1e-10)


@pytest.mark.parametrize(("n", "m", "seed"), [(6, 3, 0), (14, 4, 1), (9, 6, 2)])
@pytest.mark.parametrize("ties", [False, True])
def test_complete_design_is_friedman(n, m, seed, ties):
    rng = np.random.default_rng(seed)
    values = (
        rng.integers(0, 3, (n, m)).astype(float) if ties else rng.normal(size=(n, m))
    )
    for correction in (False, True):
        res = durbin(values, tie_correction=correction)
        friedman = nbstats.friedman(values, tie_correction=correction)
        assert res.statistic == pytest.approx(friedman.statistic, rel=1e-10, abs=1e-12)
        assert res.pvalue == pytest.approx(friedman.pvalue, rel=1e-8)
        assert res.f_statistic == pytest.approx(
            friedman.f_statistic, rel=1e-10, abs=1e-12
        )
        assert res.f_df == friedman.f_df
    corrected = durbin(values, tie_correction=True)
    scipy_res = stats.friedmanchisquare(*values.T)
    assert corrected.statistic == pytest.approx(scipy_res.statistic, rel=1e-10)
    assert (corrected.block_size, corrected.replications) == (m, n)


def test_perfect_agreement_and_complete_ties():
    mask = design(4, 2, 2)
    # every case prefers the higher-numbered algorithm: p small, T₂ finite (in
    # an incomplete design the ranks are not additive, so T₁ < b(k − 1))
    agree = durbin(fill(mask, np.tile(np.arange(4.0), (len(mask), 1))))
    assert agree.rank_sums.tolist() == [12, 10, 8, 6]
    assert agree.statistic == pytest.approx(10.0)  # 12·3/(6·4·3) · 20
    assert agree.f_statistic == pytest.approx(15.0)  # (10/3) / ((12 − 10)/9)
    # complete design, every case alike: T₁ = b(k − 1) and T₂ is infinite
    complete = durbin(np.tile(np.arange(4.0), (5, 1)))
    assert complete.statistic == pytest.approx(15.0)
    assert complete.f_statistic == np.inf and complete.f_pvalue == 0.0
    tied = durbin(fill(mask, np.ones(mask.shape)))
    assert (tied.statistic, tied.pvalue, tied.f_statistic, tied.f_pvalue) == (
        0.0,
        1.0,
        0.0,
        1.0,
    )
    tied_corrected = durbin(fill(mask, np.ones(mask.shape)), tie_correction=True)
    assert (tied_corrected.statistic, tied_corrected.pvalue) == (0.0, 1.0)


# --- unbalanced designs ----------------------------------------------------------


def test_cases_of_different_sizes_are_refused():
    values = ICE_CREAM.copy()
    values.iloc[2, 0] = 5.0  # judge3 now scores four ice creams
    with pytest.raises(ValueError, match=r"'judge3' has 4.*skillings_mack"):
        durbin(values)


def test_algorithms_scored_unequally_are_refused():
    # every case has 2 scores, but A is in 3 cases and D in 1
    values = np.array(
        [[1.0, 2, nan, nan], [1, nan, 2, nan], [1, nan, nan, 2], [nan, 1, 2, nan]]
    )
    with pytest.raises(ValueError, match=r"different numbers of cases.*'alg1': 3"):
        durbin(values)


def test_pairs_scored_unequally_are_refused():
    # a 4-cycle: k = 2 and r = 2, but alg1 and alg3 never meet (λ = 0 or 1)
    values = np.array(
        [[1.0, 2, nan, nan], [nan, 1, 2, nan], [nan, nan, 1, 2], [2, nan, nan, 1]]
    )
    with pytest.raises(
        ValueError, match=r"\('alg1', 'alg3'\) share 0.*share 1.*skillings_mack"
    ):
        durbin(values)


def test_single_score_cases_are_refused():
    with pytest.raises(ValueError, match="at least 2 scores"):
        durbin(np.array([[1.0, nan], [nan, 2]]))


def test_bad_options_and_scores():
    with pytest.raises(TypeError, match="tie_correction"):
        durbin(ICE_CREAM, tie_correction=1)
    with pytest.raises(TypeError, match="higher_is_better"):
        durbin(ICE_CREAM, higher_is_better="no")
    with pytest.raises(ValueError, match="finite"):
        durbin(ICE_CREAM.replace(1.0, np.inf))


# --- scale safety, display ------------------------------------------------------


@pytest.mark.parametrize("factor", [2.0**-1000, 1e-300, 0.37, 1e300, 2.0**1000])
def test_scale_shift_and_direction_invariance(factor):
    mask = design(5, 3)
    values = fill(mask, np.random.default_rng(3).integers(0, 4, mask.shape) - 1.5)
    base = durbin(values, tie_correction=True)
    scaled = durbin(values * factor, tie_correction=True)
    assert scaled.statistic == pytest.approx(base.statistic, rel=1e-12)
    shifted = durbin(values + 1e6, tie_correction=True)
    assert shifted.statistic == base.statistic
    flipped = durbin(-values * factor, higher_is_better=False, tie_correction=True)
    pd.testing.assert_series_equal(flipped.rank_sums, base.rank_sums)
    table = pd.DataFrame(values, columns=list("vwxyz"))
    moved = durbin(table[["z", "x", "v", "y", "w"]])
    pd.testing.assert_series_equal(
        moved.rank_sums.reindex(list("vwxyz")), durbin(table).rank_sums
    )


def test_result_display_and_frame():
    res = durbin(ICE_CREAM, higher_is_better=False)
    statistic, pvalue = res
    assert (statistic, pvalue) == (12.0, res.pvalue)
    frame = res.to_frame()
    assert frame.loc[0, "f_statistic"] == 8.0 and frame.loc[0, "pair_count"] == 1
    assert "Durbin test: 7 algorithms on 7 cases, 3 per case" in res.summary()
    html = res._repr_html_()
    assert "T<sub>1</sub>" in html and "rank sum" in html
    assert r"$T_{1}$" in res.to_latex()
    assert res == durbin(ICE_CREAM, higher_is_better=False)
