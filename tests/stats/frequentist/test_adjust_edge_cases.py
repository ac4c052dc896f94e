"""Every adjustment at its edges: p-values of 0 and 1, ties, a single p-value
(issue 25, item 1).

The oracle is each procedure as its author states it — which hypotheses it
rejects at a level α — written out here independently of the code (closed
testing by brute force for Hommel and Bergmann–Hommel), and run on a grid of
α that reaches down to 1e-300: a hypothesis is rejected at α exactly when its
adjusted p-value is <= α. Holm, Hochberg, Hommel and Bonferroni are also
compared with R's ``p.adjust`` and statsmodels' ``multipletests``.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats

# -- the procedures' decision rules at level α ---------------------------------


def _sorted(p):
    order = np.argsort(p, kind="stable")
    return order, p[order]


def _step_down_rejects(p, critical):
    """Reject the i-th smallest while every p_(j), j <= i, is <= critical[j]."""
    order, ps = _sorted(p)
    passed = np.cumprod(ps <= critical).astype(bool)
    rejected = np.zeros(p.size, dtype=bool)
    rejected[order] = passed
    return rejected


def _step_up_rejects(p, critical):
    """Reject every p_(j), j <= i, for the largest i with p_(i) <= critical[i]."""
    order, ps = _sorted(p)
    below = np.flatnonzero(ps <= critical)
    rejected = np.zeros(p.size, dtype=bool)
    if below.size:
        rejected[order[: below[-1] + 1]] = True
    return rejected


def _closed_rejects(p, families, local_rejects):
    """Closed testing: H_i is rejected when every family I ∋ i is."""
    rejected = np.ones(p.size, dtype=bool)
    for family in families:
        if not local_rejects(p[list(family)]):
            rejected[list(family)] = False
    return rejected


def _all_subsets(m):
    return [
        s for size in range(1, m + 1) for s in itertools.combinations(range(m), size)
    ]


def _simes(alpha):
    def rejects(q):
        q = np.sort(q)
        return bool(np.any(q <= alpha * np.arange(1, q.size + 1) / q.size))

    return rejects


def _partitions(items):
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for smaller in _partitions(rest):
        yield [[head], *smaller]
        for n, block in enumerate(smaller):
            yield [*smaller[:n], [head, *block], *smaller[n + 1 :]]


def _exhaustive_sets(k):
    """The sets of pairs (in combinations order) that can be true together."""
    index = {pair: h for h, pair in enumerate(itertools.combinations(range(k), 2))}
    sets = set()
    for partition in _partitions(list(range(k))):
        pairs = tuple(
            sorted(
                index[pair] for b in partition for pair in itertools.combinations(b, 2)
            )
        )
        if pairs:
            sets.add(pairs)
    return sorted(sets)


def _algorithms(m):
    return round((1 + math.sqrt(1 + 8 * m)) / 2)


def _shaffer_critical(alpha, m):
    # t_i: the most hypotheses that can be true together among the m - i + 1
    # left, counted from the partitions of the k algorithms
    counts = {len(s) for s in _exhaustive_sets(_algorithms(m))} | {0}
    t = [max(c for c in counts if c <= m - i) for i in range(m)]
    return alpha / np.array(t, dtype=float)


def _rom_critical(alpha, m):
    c = [alpha, alpha / 2]
    for i in range(3, m + 1):
        head = sum(alpha**j for j in range(1, i))
        tail = sum(math.comb(i, j) * c[j] ** (i - j) for j in range(1, i - 1))
        c.append((head - tail) / i)
    return np.array(c[:m])


def rejects(method, p, alpha):
    m = p.size
    i = np.arange(1, m + 1)
    if method == "bonferroni":
        return p <= alpha / m
    if method == "holm":
        return _step_down_rejects(p, alpha / (m - i + 1))
    if method == "hochberg":
        return _step_up_rejects(p, alpha / (m - i + 1))
    if method == "finner":
        return _step_down_rejects(p, 1 - (1 - alpha) ** (i / m))
    if method == "li":
        if p.max() <= alpha:
            return np.ones(m, dtype=bool)
        return p <= alpha * (1 - p.max()) / (1 - alpha)
    if method == "rom":  # c_1 for the largest p-value: reversed
        return _step_up_rejects(p, _rom_critical(alpha, m)[::-1])
    if method == "hommel":
        return _closed_rejects(p, _all_subsets(m), _simes(alpha))
    if method == "shaffer":
        return _step_down_rejects(p, _shaffer_critical(alpha, m))
    if method == "bergmann-hommel":
        sets = _exhaustive_sets(_algorithms(m))
        return _closed_rejects(p, sets, lambda q: bool(q.min() <= alpha / q.size))
    raise AssertionError(method)


METHODS = (
    "bonferroni", "holm", "hochberg", "hommel", "finner", "li", "rom", "shaffer",
    "bergmann-hommel",
)  # fmt: skip
ALL_PAIRS = ("shaffer", "bergmann-hommel")

#: Sizes 1, 3 and 6 are all pairs of 2, 3 and 4 algorithms (for Shaffer's and
#: Bergmann–Hommel's procedures).
EDGE_CASES = [
    [0.0],
    [1.0],
    [0.3],
    [0.0, 0.3, 1.0],  # the issue's Li example: 0/0 before
    [0.0, 0.0, 0.0],
    [1.0, 1.0, 1.0],
    [0.0, 1.0, 1.0],
    [0.04, 0.04, 0.04],
    [0.2, 0.5, 0.5],  # tied largest
    [0.01, 0.01, 1.0],
    [0.0, 0.0, 0.0, 1.0, 1.0, 1.0],
    [0.0, 0.01, 0.01, 0.02, 1.0, 1.0],
    [0.02, 0.02, 0.02, 0.02, 0.02, 0.02],
    [0.001, 0.004, 0.004, 0.3, 0.3, 0.9],
]
ALPHAS = np.concatenate(
    [[1e-300, 1e-100, 1e-12], np.linspace(0.001, 0.999, 500), [0.01, 0.05, 0.1]]
)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", EDGE_CASES, ids=str)
def test_adjusted_pvalues_are_the_procedure_at_every_alpha(method, case):
    p = np.array(case)
    if method in ALL_PAIRS and p.size not in (1, 3, 6):
        pytest.skip("all pairs of k algorithms only")
    adjusted = nbstats.adjust_pvalues(p, method)
    assert not np.isnan(adjusted).any()
    assert np.all(adjusted >= p) and np.all(adjusted <= 1)
    for alpha in ALPHAS:
        expected = rejects(method, p, alpha)
        clear = np.abs(adjusted - alpha) > 1e-12  # round-off decides at equality
        np.testing.assert_array_equal(
            (adjusted <= alpha)[clear], expected[clear], err_msg=f"alpha={alpha}"
        )


@pytest.mark.parametrize("method", METHODS)
def test_zero_pvalues_stay_zero_and_a_single_pvalue_is_unchanged(method):
    # a zero p-value is rejected at every level; one hypothesis needs no
    # adjustment (every procedure reduces to p <= α)
    for p in ([0.0], [0.0, 0.0, 0.0], [0.0, 0.3, 1.0], [0.0, 1.0, 1.0]):
        adjusted = nbstats.adjust_pvalues(p, method)
        assert adjusted[np.array(p) == 0].tolist() == [0.0] * p.count(0.0)
    for single in (0.0, 1e-300, 0.04, 0.5, 1.0):
        assert nbstats.adjust_pvalues([single], method).tolist() == [single]


def test_li_on_the_issue_example():
    # Li's rule rejects p = 0 at every α, and nothing else while p_(m) = 1
    assert nbstats.adjust_pvalues([0.0, 0.3, 1.0], "li").tolist() == [0.0, 1.0, 1.0]


def test_posthoc_li_rejects_a_pvalue_of_zero():
    # a difference so large that its z-test's p-value underflows to 0, beside
    # a pair whose mean ranks are equal (p = 1): Li rejects the first
    a = np.random.default_rng(25).normal(size=3000)
    table = np.column_stack([a, a + 1.0, a + 1.0])
    res = nbstats.posthoc(table, method="li", control="alg2")
    raw = res.pvalues.to_numpy()
    assert raw.tolist() == [0.0, 1.0]
    assert res.adjusted.tolist() == [0.0, 1.0] and res.reject.tolist() == [True, False]


STATSMODELS = {
    "holm": "holm",
    "hochberg": "simes-hochberg",
    "hommel": "hommel",
    "bonferroni": "bonferroni",
}


@pytest.mark.parametrize("method", sorted(STATSMODELS))
@pytest.mark.parametrize("case", EDGE_CASES, ids=str)
def test_edges_match_statsmodels(method, case):
    expected = multipletests(case, method=STATSMODELS[method])[1]
    np.testing.assert_allclose(
        nbstats.adjust_pvalues(case, method), expected, atol=1e-15
    )


@pytest.fixture(scope="module")
def r_edges(run_r):
    lines = []
    for case in EDGE_CASES:
        vector = "c(" + ", ".join(float(v).hex() for v in case) + ")"
        for method in sorted(STATSMODELS):
            lines.append(f'p.adjust({vector}, method = "{method}")')
    script = (
        "out <- list(" + ",\n".join(lines) + ")\n"
        'cat(paste0("[", paste(sapply(out, function(x) paste0("[", '
        'paste(sprintf("%.17g", x), collapse = ","), "]")), collapse = ","), "]"))\n'
    )
    values = iter(run_r(script))
    return {
        (str(case), method): next(values)
        for case in EDGE_CASES
        for method in sorted(STATSMODELS)
    }


@pytest.mark.r_oracle
@pytest.mark.parametrize("method", sorted(STATSMODELS))
@pytest.mark.parametrize("case", EDGE_CASES, ids=str)
def test_edges_match_r_p_adjust(r_edges, method, case):
    expected = np.array(r_edges[str(case), method], dtype=float)
    np.testing.assert_allclose(
        nbstats.adjust_pvalues(case, method), expected, atol=1e-15
    )


@pytest.mark.parametrize("k", [3, 5, 8])
def test_nemenyi_at_its_edges(k):
    # Nemenyi's adjusted p-value is the studentized range's tail at |z|√2
    # (scipy): between the raw p-value and Bonferroni's m p (a range exceeds
    # w when one of the m pairs does); 1 for equal mean ranks, and 0 (not
    # the integral's 1e-16 floor) for a raw p-value of 0
    rng = np.random.default_rng(k)
    a = rng.normal(size=3000)
    # two equal algorithms, k - 3 at random, one far ahead of all of them
    others = rng.normal(size=(3000, k - 3)) * 0.1
    table = np.column_stack([a, a, a[:, None] + others, a + 1e3])
    res = nbstats.posthoc(table, method="nemenyi")
    first, second = np.triu_indices(k, 1)
    raw = res.pvalues.to_numpy()[first, second]
    adjusted = res.adjusted.to_numpy()[first, second]
    z = np.abs(res.statistics.to_numpy()[first, second])
    m = k * (k - 1) // 2
    assert adjusted[raw == 1].tolist() == [1.0] * int(np.sum(raw == 1))
    assert adjusted[raw == 0].tolist() == [0.0] * int(np.sum(raw == 0))
    assert (raw == 0).sum() >= k - 1 and (raw == 1).sum() >= 1
    middle = (raw > 0) & (raw < 1)
    expected = stats.studentized_range.sf(z[middle] * np.sqrt(2), k, np.inf)
    np.testing.assert_allclose(adjusted[middle], np.minimum(expected, 1), rtol=1e-9)
    assert np.all(adjusted >= raw) and np.all(adjusted <= np.minimum(1, m * raw))
