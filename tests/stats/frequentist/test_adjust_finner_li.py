"""Finner's and Li's adjusted p-values (issue 18, item 2).

The oracle is each procedure as its author defines it — decisions at a given
α from critical values — run here on a grid of α: a hypothesis is rejected at
α exactly when its adjusted p-value is <= α (that is what an adjusted p-value
is). The closed forms under test are García et al.'s (2010); the decision
rules are Finner's (1993) step-down with critical values 1 - (1 - α)^(i/m)
and Li's (2008, J. Stat. Plann. Inference 138) two-step rule.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nbstats

DATA = Path(__file__).resolve().parents[2] / "data"
ALPHAS = np.concatenate([np.linspace(0.001, 0.3, 300), [0.01, 0.05, 0.1]])


def _finner_rejects(p: np.ndarray, alpha: float) -> np.ndarray:
    m = p.size
    order = np.argsort(p)
    rejected = np.zeros(m, dtype=bool)
    for i, k in enumerate(order, start=1):  # step down from the smallest
        if p[k] > 1 - (1 - alpha) ** (i / m):
            break
        rejected[k] = True
    return rejected


def _li_rejects(p: np.ndarray, alpha: float) -> np.ndarray:
    largest = p.max()
    if largest <= alpha:
        return np.ones(p.size, dtype=bool)
    return p <= alpha * (1 - largest) / (1 - alpha)


def _pvalue_sets() -> list[np.ndarray]:
    rng = np.random.default_rng(2010)
    sets = [
        np.array([0.016, 0.019, 0.607]),  # Demšar's §3.2.2 example
        np.array([0.001, 0.002, 0.02, 0.03, 0.04, 0.2]),
        np.array([0.01, 0.01, 0.01]),  # ties
    ]
    for m in (2, 5, 10, 20):
        sets.append(rng.uniform(0, 0.2, m) ** 2)
        sets.append(rng.uniform(0, 1, m))
    return sets


@pytest.mark.parametrize("p", _pvalue_sets(), ids=lambda p: f"m{p.size}")
@pytest.mark.parametrize(
    ("method", "rule"), [("finner", _finner_rejects), ("li", _li_rejects)]
)
def test_adjusted_pvalues_reproduce_the_procedure(p, method, rule):
    adjusted = nbstats.adjust_pvalues(p, method)
    assert np.all(adjusted >= p - 1e-15) and np.all(adjusted <= 1)
    for alpha in ALPHAS:
        expected = rule(p, alpha)
        # away from the boundary (round-off decides exactly at it)
        clear = np.abs(adjusted - alpha) > 1e-12
        np.testing.assert_array_equal((adjusted <= alpha)[clear], expected[clear])


def test_finner_between_holm_and_unadjusted():
    p = np.array([0.001, 0.004, 0.012, 0.03, 0.04, 0.3])
    finner = nbstats.adjust_pvalues(p, "finner")
    holm = nbstats.adjust_pvalues(p, "holm")
    assert np.all(finner <= holm + 1e-15) and np.all(finner >= p)
    # by hand: 1 - (1 - p_(1))^6 for the smallest
    assert finner[0] == pytest.approx(1 - (1 - 0.001) ** 6, rel=1e-12)


def test_finner_keeps_tiny_pvalues_exact():
    # 1 - (1 - p)^m loses every digit of p = 1e-18 in floating point
    adjusted = nbstats.adjust_pvalues([1e-18, 0.5], "finner")
    assert adjusted[0] == pytest.approx(2e-18, rel=1e-9)


def test_li_largest_keeps_its_pvalue_and_zeros_stay_zero():
    p = np.array([0.02, 0.3, 0.01])
    li = nbstats.adjust_pvalues(p, "li")
    assert li[1] == 0.3
    assert li[0] == pytest.approx(0.02 / (0.02 + 0.7), rel=1e-12)
    assert nbstats.adjust_pvalues([0.0, 0.0], "li").tolist() == [0.0, 0.0]


@pytest.mark.parametrize("method", ["finner", "li"])
def test_posthoc_takes_them(table6, method):
    z = nbstats.posthoc(table6, method=method, control="C4.5")
    holm = nbstats.posthoc(table6, method="holm", control="C4.5")
    # the same z-tests on mean ranks, another adjustment
    np.testing.assert_allclose(z.pvalues, holm.pvalues)
    np.testing.assert_allclose(
        z.adjusted, nbstats.adjust_pvalues(z.pvalues.to_numpy(), method)
    )
    pairwise = nbstats.comparison_matrix(table6, adjust=method)
    assert pairwise.adjust == method
    assert nbstats.conover(table6, adjust=method).adjust == method


# -- Rom (1990) ----------------------------------------------------------------


def _rom_critical(alpha: float, m: int) -> list[float]:
    # Rom's recursion, written out: c_1 = α, c_2 = α/2 for the largest and
    # second largest p-values, then
    # c_i = (Σ_{j=1}^{i-1} α^j − Σ_{j=1}^{i-2} C(i, j) c_{j+1}^{i-j}) / i
    from math import comb

    c = [alpha, alpha / 2]
    for i in range(3, m + 1):
        head = sum(alpha**j for j in range(1, i))
        tail = sum(comb(i, j) * c[j] ** (i - j) for j in range(1, i - 1))
        c.append((head - tail) / i)
    return c[:m]


def _rom_rejects(p: np.ndarray, alpha: float) -> np.ndarray:
    order = np.argsort(-p)  # largest first
    c = _rom_critical(alpha, p.size)
    rejected = np.zeros(p.size, dtype=bool)
    for i, k in enumerate(order):  # step up from the largest
        if p[k] <= c[i]:
            rejected[order[i:]] = True
            break
    return rejected


def test_rom_critical_values_are_the_published_ones():
    # Rom (1990), Table 1 at α = 0.05, to its four decimals
    published = [0.05, 0.025, 0.0169, 0.0127, 0.0102, 0.0085, 0.0073]
    from nbstats.stats.frequentist.adjust import rom_critical_values

    np.testing.assert_allclose(rom_critical_values(0.05, 7)[0], published, atol=5e-5)
    # each above Hochberg's α/i: Rom's procedure is the more powerful
    assert np.all(rom_critical_values(0.05, 7)[0][2:] > 0.05 / np.arange(3, 8))


@pytest.mark.parametrize("p", _pvalue_sets(), ids=lambda p: f"m{p.size}")
def test_rom_adjusted_pvalues_reproduce_the_procedure(p):
    adjusted = nbstats.adjust_pvalues(p, "rom")
    hochberg = nbstats.adjust_pvalues(p, "hochberg")
    assert np.all(adjusted <= hochberg + 1e-12) and np.all(adjusted >= p - 1e-15)
    for alpha in ALPHAS:
        expected = _rom_rejects(p, alpha)
        clear = np.abs(adjusted - alpha) > 1e-9
        np.testing.assert_array_equal((adjusted <= alpha)[clear], expected[clear])


def test_rom_is_at_most_scmamps_approximation():
    # scmamp (García et al. 2010) scales each p-value by α / c_i at α = 0.05:
    # an upper bound of the smallest rejecting α; both reject alike at 0.05
    ref = json.loads((DATA / "scmamp_reference.json").read_text())[
        "garcia_herrera_2008"
    ]
    raw = np.array([p for p in ref["quade_post_control_2"] if p is not None])
    approx = np.array([p for p in ref["rom"] if p is not None])
    exact = nbstats.adjust_pvalues(raw, "rom")
    assert np.all(exact <= approx + 1e-12)
    np.testing.assert_array_equal(exact <= 0.05, approx <= 0.05)


def test_rom_refuses_thousands_of_hypotheses():
    with pytest.raises(ValueError, match="hochberg"):
        nbstats.adjust_pvalues(np.linspace(0.001, 0.5, 500), "rom")
