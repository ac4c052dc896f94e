"""Quade test against R's quade.test and a hand computation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import nbstats


def _r_matrix(values: np.ndarray) -> str:
    data = ", ".join(float(v).hex() for v in values.ravel(order="F"))
    return f"matrix(c({data}), nrow = {values.shape[0]})"


@pytest.fixture(scope="module")
def tables():
    rng = np.random.default_rng(0)
    out = [nbstats.datasets.load("demsar2006").to_numpy()]
    out.append(nbstats.datasets.load("uci_accuracy").to_numpy())
    for n, k in [(5, 3), (12, 4), (30, 8)]:
        out.append(np.round(rng.normal(0, 1, (n, k)) + np.arange(k) * 0.2, 1))
    return out


def test_quade_equals_r(run_r, tables):
    exprs = [
        f"{{q <- quade.test({_r_matrix(t)}); c(q$statistic, q$p.value)}}"
        for t in tables
    ]
    script = (
        'num <- function(x) sprintf("%.17g", x)\n'
        f"out <- c({', '.join(exprs)})\n"
        'cat(paste0("[", paste(num(out), collapse = ","), "]"))\n'
    )
    expected = np.array(run_r(script)).reshape(-1, 2)
    for table, (f, p) in zip(tables, expected, strict=True):
        res = nbstats.quade(table)
        assert res.statistic == pytest.approx(f, rel=1e-10)
        assert res.pvalue == pytest.approx(p, rel=1e-8)
        # direction does not change F
        assert nbstats.quade(table, higher_is_better=False).statistic == (
            pytest.approx(f, rel=1e-10)
        )


def test_quade_by_hand_on_a_small_table():
    t = np.array([[1.0, 2.0, 3.0], [2.0, 1.0, 4.0], [5.0, 3.0, 4.0], [1.0, 1.5, 0.0]])
    ranges = t.max(axis=1) - t.min(axis=1)  # 2, 3, 2, 1.5
    q = stats.rankdata(ranges)
    r = stats.rankdata(t, axis=1)  # R's orientation; F is the same either way
    s = q[:, None] * (r - 2)
    a, b = (s**2).sum(), (s.sum(axis=0) ** 2).sum() / 4
    f = 3 * b / (a - b)
    res = nbstats.quade(t)
    assert res.statistic == pytest.approx(f)
    assert res.pvalue == pytest.approx(stats.f.sf(f, 2, 6))
    weighted = (q[:, None] * stats.rankdata(-t, axis=1)).sum(axis=0) / q.sum()
    assert res.weighted_mean_ranks.to_numpy() == pytest.approx(weighted)


def test_degenerate_tables():
    # the same order and the same range in every case: A = B
    same_order = np.array([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [0.0, 1.0, 2.0]])
    res = nbstats.quade(same_order)
    assert res.statistic == math.inf
    assert res.pvalue == pytest.approx(math.factorial(3) ** (1 - 3))
    ties = nbstats.quade(np.ones((4, 3)))
    assert (ties.statistic, ties.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("factor", [1e-300, 1e300, -1.0])
def test_scale_invariance(factor):
    table = nbstats.datasets.load("demsar2006").to_numpy()
    base = nbstats.quade(table)
    res = nbstats.quade(table * factor, higher_is_better=factor > 0)
    assert res.statistic == pytest.approx(base.statistic, rel=1e-12)
    assert res.weighted_mean_ranks.to_numpy() == pytest.approx(
        base.weighted_mean_ranks.to_numpy()
    )


def test_result_and_bad_input():
    res = nbstats.quade(nbstats.datasets.load("demsar2006"))
    assert "Quade test: 4 algorithms on 14 cases" in repr(res)
    assert "weighted mean rank" in res._repr_html_()
    _, pvalue = res
    assert 0 <= pvalue <= 1
    with pytest.raises(ValueError, match="missing"):
        nbstats.quade(np.array([[1.0, np.nan], [2.0, 3.0]]))
