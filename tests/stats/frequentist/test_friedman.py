"""Friedman / Iman–Davenport against scipy and the closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import nbstats


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("decimals", [None, 0])
def test_tie_corrected_equals_scipy(seed, decimals):
    # scipy.stats.friedmanchisquare always divides by the tie correction
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(12, 5)) * 2
    if decimals is not None:
        x = np.round(x, decimals)  # many ties within rows
    ours = nbstats.friedman(x, tie_correction=True)
    ref = stats.friedmanchisquare(*x.T)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_uci_accuracy_published_chi2():
    # data/README: Friedman chi2 = 20.840496657 (p = 0.00034058). The table has
    # ties within data sets, and the published figure is the tie-corrected one
    # (R's friedman.test); Demšar's uncorrected formula gives 20.2037.
    table = nbstats.datasets.load("uci_accuracy")
    res = nbstats.friedman(table, tie_correction=True)
    assert res.statistic == pytest.approx(20.840496657, abs=1e-8)
    assert res.pvalue == pytest.approx(0.00034058, abs=5e-9)
    assert nbstats.friedman(table).statistic == pytest.approx(20.2037037, abs=1e-6)


def test_iman_davenport_closed_form(table6):
    res = nbstats.friedman(table6)
    n, k = 14, 4
    expected = (n - 1) * res.statistic / (n * (k - 1) - res.statistic)
    assert res.f_statistic == pytest.approx(expected)
    assert res.f_pvalue == pytest.approx(stats.f.sf(expected, 3, 39))


def test_without_ties_correction_changes_nothing():
    x = np.random.default_rng(3).normal(size=(9, 4))
    assert nbstats.friedman(x).statistic == pytest.approx(
        nbstats.friedman(x, tie_correction=True).statistic
    )


def test_perfect_agreement_gives_infinite_f_and_p_zero():
    x = np.tile([4.0, 3.0, 2.0, 1.0], (6, 1)) + np.arange(6)[:, None]
    res = nbstats.friedman(x)
    assert res.statistic == pytest.approx(6 * 3)  # N (k - 1)
    assert res.f_statistic == np.inf and res.f_pvalue == 0.0
    np.testing.assert_allclose(res.mean_ranks, [1, 2, 3, 4])


def test_lower_is_better_reverses_mean_ranks(table6):
    up = nbstats.friedman(table6).mean_ranks
    down = nbstats.friedman(table6, higher_is_better=False).mean_ranks
    np.testing.assert_allclose(up + down, 5)
