"""conover(ranks="durbin"): Conover's t-tests after
Durbin's test on a balanced incomplete design (issue 18, item 2), against
scikit-posthocs' posthoc_durbin and Conover's (1999, §5.9) formula computed
here; on a complete table it is Conover's Friedman post-hoc."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats
from tests.stats.frequentist.test_durbin import ICE_CREAM

NAN = np.nan
#: The Fano plane: 7 blocks of 3 of 7 treatments, every pair in one block.
FANO = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (4, 5, 0), (5, 6, 1), (6, 0, 2)]


def bibd_scores(repeats: int, *, ties: bool, seed: int) -> pd.DataFrame:
    """Scores on the Fano plane's blocks, ``repeats`` times over (b = 7 ×
    repeats, r = 3 × repeats, λ = repeats); integer scores tie within blocks."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(repeats):
        for block in FANO:
            row = np.full(7, NAN)
            shift = np.arange(7) / 3.0  # later treatments score higher
            noise = rng.integers(0, 3, 3) if ties else rng.normal(size=3)
            row[list(block)] = shift[list(block)] + noise
            rows.append(row)
    return pd.DataFrame(rows, columns=[f"alg{j}" for j in range(7)])


TABLES = {
    "ice cream": (ICE_CREAM, False),
    "fano x2": (bibd_scores(2, ties=False, seed=1), True),
    "fano x4 ties": (bibd_scores(4, ties=True, seed=2), True),
}


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("adjust", ["none", "holm", "bonferroni"])
def test_equals_scikit_posthocs(name, adjust):
    table, higher = TABLES[name]
    with warnings.catch_warnings():  # its pandas calls are deprecated
        warnings.simplefilter("ignore")
        theirs = sp.posthoc_durbin(
            table.to_numpy(dtype=float), p_adjust=None if adjust == "none" else adjust
        ).to_numpy()
    ours = nbstats.conover(
        table, ranks="durbin", adjust=adjust,
        higher_is_better=higher,
    )  # fmt: skip
    off = ~np.eye(7, dtype=bool)
    np.testing.assert_allclose(
        ours.adjusted.to_numpy(dtype=float)[off], theirs[off], rtol=1e-10
    )


def test_conovers_formula_direction_and_mean_ranks():
    table = TABLES["fano x4 ties"][0]
    values = table.to_numpy()
    present = ~np.isnan(values)
    # ranks within each block, 1 = best (the highest score), average ties
    ranks = np.full(values.shape, NAN)
    for i, row in enumerate(values):
        ranks[i, present[i]] = stats.rankdata(-row[present[i]])
    b, t, k, r = 28, 7, 3, 12
    sums = np.nansum(ranks, axis=0)
    a, c = np.nansum(ranks**2), b * k * (k + 1) ** 2 / 4
    t1 = (t - 1) * np.sum((sums - r * (k + 1) / 2) ** 2) / (a - c)
    df = b * k - b - t + 1
    se = np.sqrt((a - c) * 2 * r / df * (1 - t1 / (b * (k - 1))))
    res = nbstats.conover(table, ranks="durbin", adjust="none")
    # the Durbin T₁ of this post-hoc is nbstats.durbin's tie-corrected one
    assert t1 == pytest.approx(nbstats.durbin(table, tie_correction=True).statistic)
    expected = (sums[0] - sums[6]) / se  # > 0: alg6 (shifted up) is better
    assert expected > 0
    assert res.statistics.loc["alg0", "alg6"] == pytest.approx(expected, rel=1e-12)
    assert res.statistics.loc["alg6", "alg0"] == pytest.approx(-expected, rel=1e-12)
    p = 2 * stats.t.sf(abs(expected), df)
    assert res.pvalues.loc["alg0", "alg6"] == pytest.approx(p, rel=1e-10)
    np.testing.assert_allclose(res.mean_ranks.to_numpy(), sums / r)
    assert res.ranks == "durbin" and res.n_cases == b
    # each pair shares λ = 4 cases: the effect sizes use those
    assert np.isfinite(res.effect_sizes.loc["alg0", "alg6"])
    assert res.effect_sizes.loc["alg0", "alg6"] > 0


def test_on_a_complete_table_it_is_conovers_friedman_posthoc():
    rng = np.random.default_rng(4)
    table = pd.DataFrame(
        rng.integers(0, 5, size=(12, 5)) + np.arange(5), columns=list("abcde")
    )
    durbin = nbstats.conover(table, ranks="durbin")
    friedman = nbstats.conover(table)
    for name in ("statistics", "pvalues", "adjusted"):
        np.testing.assert_allclose(
            getattr(durbin, name).to_numpy(dtype=float),
            getattr(friedman, name).to_numpy(dtype=float),
            rtol=1e-10,
        )
    pd.testing.assert_frame_equal(durbin.reject, friedman.reject)


def test_against_a_control():
    table = TABLES["fano x2"][0]
    every = nbstats.conover(table, ranks="durbin", adjust="none")
    against = nbstats.conover(table, ranks="durbin", control="alg0", adjust="holm")
    assert list(against.pvalues.index) == [f"alg{j}" for j in range(1, 7)]
    np.testing.assert_allclose(
        against.pvalues.to_numpy(), every.pvalues.loc["alg0"].to_numpy()[1:]
    )
    holm = nbstats.adjust_pvalues(against.pvalues.to_numpy(), "holm")
    np.testing.assert_allclose(against.adjusted.to_numpy(), holm)


def test_degenerate_designs():
    # a complete table is the design k = t; every case ranks alike: no
    # residual variance, so every difference of rank sums is certain
    alike = pd.DataFrame(np.tile(np.arange(4.0), (6, 1)), columns=list("abcd"))
    res = nbstats.conover(alike, ranks="durbin", adjust="none")
    off = ~np.eye(4, dtype=bool)
    assert np.all(res.pvalues.to_numpy(dtype=float)[off] == 0.0)
    assert res.statistics.loc["a", "d"] == np.inf  # d is better
    # every block a complete tie: no differences at all
    tied = ICE_CREAM.notna().astype(float).where(ICE_CREAM.notna())
    res = nbstats.conover(tied, ranks="durbin", adjust="none")
    off = ~np.eye(7, dtype=bool)
    assert np.all(res.pvalues.to_numpy(dtype=float)[off] == 1.0)
    assert not res.reject.to_numpy().any()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"nan_policy": "omit"}, "unexpected keyword argument 'nan_policy'"),
        ({"control": "nobody"}, "not one of the algorithms"),
        ({"adjust": "fdr"}, "unknown adjust='fdr'"),
        ({"alpha": 1.5}, r"alpha must be a number in \(0, 1\)"),
    ],
)
def test_bad_options_are_named(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        nbstats.conover(ICE_CREAM, ranks="durbin", **kwargs)


def test_durbin_is_no_rank_of_the_z_tests():
    with pytest.raises(ValueError, match="unknown ranks='durbin'"):
        nbstats.posthoc(ICE_CREAM, ranks="durbin")


def test_shaffer_against_a_control_is_holm_and_says_so():
    shaffer = nbstats.conover(ICE_CREAM, ranks="durbin", adjust="shaffer", control="A")
    holm = nbstats.conover(ICE_CREAM, ranks="durbin", adjust="holm", control="A")
    assert shaffer.adjust == "holm" and "any combination" in shaffer.note
    pd.testing.assert_series_equal(shaffer.adjusted, holm.adjusted)
    expected = multipletests(holm.pvalues.to_numpy(), method="holm")[1]
    np.testing.assert_allclose(shaffer.adjusted.to_numpy(), expected, rtol=1e-12)


def test_an_unbalanced_design_is_refused_with_the_alternative():
    table = ICE_CREAM.copy()
    table.iloc[0, 2] = 1.5  # the first judge tastes four varieties
    with pytest.raises(ValueError, match="unbalanced design.*skillings_mack"):
        nbstats.conover(table, ranks="durbin")
