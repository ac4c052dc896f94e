"""Hodges–Lehmann and the Wilcoxon test at sizes that once broke them.

The attack of issue 30 found ``effect_size(kind="hodges-lehmann")`` needing
1.6 GB at n = 10,000 and a ``MemoryError`` at 10⁶ (all n(n + 1)/2 Walsh
averages were formed), and ``wilcoxon(method="exact")`` asking for 74.5 GiB
at n = 10⁵. Peak memory is measured with ``tracemalloc``, which sees numpy's
allocations; the results are checked against what symmetry forces.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pandas as pd
import pytest

import nbstats

LIMIT = 200 * 2**20


def _peak(call):
    tracemalloc.start()
    try:
        result = call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_hodges_lehmann_at_a_million_cases_in_bounded_memory():
    rng = np.random.default_rng(0)
    v = rng.normal(0, 1, 500_000)
    d = rng.permutation(np.concatenate([v, -v]))  # symmetric about 0, exactly
    a = np.zeros(d.size)
    res, peak = _peak(lambda: nbstats.effect_size(a, d, effect="hodges-lehmann"))
    assert peak < LIMIT, f"peak {peak / 2**20:.0f} MB"
    # the Walsh averages are symmetric about 0: so are the median and the
    # order statistics k and N − k + 1
    assert res.value == 0.0
    low, high = res.confidence_interval
    assert low == -high and low < 0
    assert res.interval_method == "approx"
    assert (
        res.order_statistics[0] + res.order_statistics[1]
        == d.size * (d.size + 1) // 2 + 1
    )


def test_comparison_matrix_effect_at_ten_thousand_cases_in_bounded_memory():
    """10⁴ cases once took 1.6 GB per pair."""
    rng = np.random.default_rng(1)
    table = pd.DataFrame(
        rng.normal(0.8, 0.05, (10_000, 3)) + [0, 0.01, 0.02], columns=["A", "B", "C"]
    )
    res, peak = _peak(lambda: nbstats.comparison_matrix(table, effect="hodges-lehmann"))
    assert peak < LIMIT, f"peak {peak / 2**20:.0f} MB"
    one = nbstats.effect_size(table["A"], table["C"], effect="hodges-lehmann")
    assert res.effect_sizes.loc["C", "A"] == pytest.approx(one.value, rel=1e-12)
    assert one.value == pytest.approx(0.02, abs=0.005)


def test_wilcoxon_exact_at_a_hundred_thousand_is_refused_at_once():
    rng = np.random.default_rng(2)
    a, b = rng.normal(size=100_000), rng.normal(size=100_000)
    with pytest.raises(ValueError, match="100000 ranked differences") as info:
        _peak(lambda: nbstats.wilcoxon(a, b, method="exact"))
    assert "method='approx'" in str(info.value)
    res, peak = _peak(lambda: nbstats.wilcoxon(a, b))  # auto: the approximation
    assert res.method == "approx"
    assert peak < LIMIT
