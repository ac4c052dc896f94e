"""Property tests: invariances and ranges every frequentist test must respect.

Score tables come from three generators: moderate floats (|x| <= 1e3, no NaN,
no subnormals), small integers (lots of ties, within and across cases) and
dyadic numbers ``i / 16`` (exact float arithmetic, so affine maps are exact).
"""

from __future__ import annotations

import dataclasses

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings

import nbstats
from nbstats.stats.comparison import COMPARISON_TESTS
from nbstats.stats.frequentist.posthoc import POSTHOC_METHODS

#: Every procedure that tests every pair: posthoc's z-tests on mean ranks,
#: Conover's t-tests and the paired tests of the comparison matrix.
ALL_METHODS = (*POSTHOC_METHODS, "conover", *COMPARISON_TESTS)


def _tested_pairs(table, method, **kwargs):
    """nbstats.posthoc, nbstats.conover or nbstats.comparison_matrix by
    ``method``; the comparison matrix's frames put back in the table's column
    order, as the others give them."""
    if method == "conover":
        return nbstats.conover(table, **kwargs)
    if method not in COMPARISON_TESTS:
        return nbstats.posthoc(table, method=method, **kwargs)
    res = nbstats.comparison_matrix(table, test=method, **kwargs)
    names = list(table.columns)
    return dataclasses.replace(
        res,
        names=tuple(names),
        mean_ranks=res.mean_ranks[names],
        **{
            field: getattr(res, field).loc[names, names]
            for field in (
                "wins", "n_ties", "losses", "pair_cases", "mean_difference",
                "effect_sizes", "magnitude", "statistics", "pvalues", "adjusted",
                "reject",
            )
        },
    )  # fmt: skip


SETTINGS = settings(max_examples=50, deadline=None)

FLOATS = st.floats(
    min_value=-1e3,
    max_value=1e3,
    allow_nan=False,
    allow_infinity=False,
    allow_subnormal=False,
)
TIES = st.integers(-3, 3).map(float)
DYADIC = st.integers(-4000, 4000).map(lambda i: i / 16)
ELEMENTS = st.sampled_from([FLOATS, TIES, DYADIC])

NAMES = list("ABCDEFGH")


@st.composite
def tables(draw, *, elements=None, max_cases=12, max_algorithms=6):
    """A wide score table as a DataFrame with named cases and algorithms."""
    n = draw(st.integers(2, max_cases))
    k = draw(st.integers(2, max_algorithms))
    values = draw(
        hnp.arrays(
            np.float64,
            (n, k),
            elements=draw(ELEMENTS) if elements is None else elements,
        )
    )
    return pd.DataFrame(
        values,
        index=pd.Index([f"d{i}" for i in range(n)], name="case"),
        columns=pd.Index(NAMES[:k], name="algorithm"),
    )


@st.composite
def pairs(draw, *, elements=None, max_cases=25):
    """Two paired score vectors of equal length."""
    n = draw(st.integers(2, max_cases))
    elements = draw(ELEMENTS) if elements is None else elements
    a = draw(hnp.arrays(np.float64, n, elements=elements))
    b = draw(hnp.arrays(np.float64, n, elements=elements))
    return a, b


def assert_same(x, y, *, rtol=1e-9, atol=1e-12):
    """Equal results, up to float round-off; recurses into result objects."""
    if dataclasses.is_dataclass(x):
        assert type(x) is type(y)
        for field in dataclasses.fields(x):
            assert_same(
                getattr(x, field.name), getattr(y, field.name), rtol=rtol, atol=atol
            )
    elif isinstance(x, pd.DataFrame):
        pd.testing.assert_frame_equal(x, y, check_exact=False, rtol=rtol, atol=atol)
    elif isinstance(x, pd.Series):
        pd.testing.assert_series_equal(x, y, check_exact=False, rtol=rtol, atol=atol)
    elif isinstance(x, pd.Index):
        # a result's cases: positions in each input, which a permutation of
        # the rows renumbers; as many cases used either way
        assert len(x) == len(y)
    elif isinstance(x, float | np.floating):
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)
    elif isinstance(x, tuple | list):
        assert len(x) == len(y)
        for u, v in zip(x, y, strict=True):
            assert_same(u, v, rtol=rtol, atol=atol)
    else:
        assert x == y


def assert_all_le(x, y, *, rtol=1e-9, atol=1e-12):
    """x <= y elementwise (NaN positions must agree), up to float round-off."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    np.testing.assert_array_equal(np.isnan(x), np.isnan(y))
    ok = np.isnan(x) | (x <= y + atol + rtol * np.abs(y))
    assert ok.all(), f"not <=:\n{x}\n{y}"


def assert_probabilities(p):
    p = np.asarray(p, dtype=float)
    p = p[~np.isnan(p)]
    assert ((p >= 0) & (p <= 1)).all(), p


def off_diagonal(frame: pd.DataFrame) -> np.ndarray:
    values = frame.to_numpy(dtype=float)
    return values[~np.eye(len(values), dtype=bool)]


def strictly_increasing_on(values: np.ndarray, transform) -> bool:
    """Whether ``transform`` keeps distinct floats distinct and ordered."""
    unique = np.unique(values)
    return bool(np.all(np.diff(transform(unique)) > 0))


TRANSFORMS = {
    "cubic": lambda x: x**3 + 2 * x,
    "exp": lambda x: np.exp(x / 100),
}


# --- permuting cases (rows) changes nothing -------------------------------------


@SETTINGS
@given(table=tables(), data=st.data())
def test_row_permutation_friedman(table, data):
    perm = data.draw(st.permutations(range(len(table))))
    for tie_correction in (False, True):
        before = nbstats.friedman(table, tie_correction=tie_correction)
        after = nbstats.friedman(table.iloc[perm], tie_correction=tie_correction)
        assert_same(after, before)


@SETTINGS
@given(table=tables(), data=st.data())
def test_row_permutation_rm_anova(table, data):
    perm = data.draw(st.permutations(range(len(table))))
    for rank_transform in (False, True):
        before = nbstats.rm_anova(table, rank_transform=rank_transform)
        after = nbstats.rm_anova(table.iloc[perm], rank_transform=rank_transform)
        assert_same(after.statistic, before.statistic)
        assert_same(after.pvalue, before.pvalue)
        assert_same(after.pvalue_gg, before.pvalue_gg)
        assert_same(after.epsilon, before.epsilon)


@pytest.mark.parametrize("method", ALL_METHODS)
@SETTINGS
@given(table=tables(max_algorithms=5), data=st.data())
def test_row_permutation_posthoc(method, table, data):
    perm = data.draw(st.permutations(range(len(table))))
    before = _tested_pairs(table, method)
    after = _tested_pairs(table.iloc[perm], method)
    assert_same(after.pvalues, before.pvalues)
    assert_same(after.adjusted, before.adjusted)
    pd.testing.assert_frame_equal(after.reject, before.reject)
    assert_same(after.mean_ranks, before.mean_ranks)
    assert after.groups == before.groups


@pytest.mark.parametrize("test", [nbstats.wilcoxon, nbstats.sign_test, nbstats.ttest])
@SETTINGS
@given(ab=pairs(), data=st.data())
def test_row_permutation_two_sample(test, ab, data):
    a, b = ab
    perm = np.array(data.draw(st.permutations(range(len(a)))))
    assert_same(test(a[perm], b[perm]), test(a, b))


# --- permuting algorithms (columns) permutes the results ------------------------


@SETTINGS
@given(table=tables(), data=st.data())
def test_column_permutation_mean_ranks(table, data):
    order = table.columns[data.draw(st.permutations(range(table.shape[1])))]
    permuted = table[order]
    pd.testing.assert_series_equal(
        nbstats.mean_ranks(permuted), nbstats.mean_ranks(table)[order]
    )
    pd.testing.assert_frame_equal(nbstats.ranks(permuted), nbstats.ranks(table)[order])
    assert_same(
        nbstats.friedman(permuted).mean_ranks, nbstats.friedman(table).mean_ranks[order]
    )


@pytest.mark.parametrize("method", ALL_METHODS)
@SETTINGS
@given(table=tables(max_algorithms=5), data=st.data())
def test_column_permutation_posthoc(method, table, data):
    order = table.columns[data.draw(st.permutations(range(table.shape[1])))]
    before = _tested_pairs(table, method)
    after = _tested_pairs(table[order], method)
    assert_same(after.mean_ranks, before.mean_ranks[order])
    assert_same(after.pvalues, before.pvalues.loc[order, order])
    assert_same(after.adjusted, before.adjusted.loc[order, order])
    pd.testing.assert_frame_equal(after.reject, before.reject.loc[order, order])


@pytest.mark.parametrize("method", ALL_METHODS)
@SETTINGS
@given(table=tables(max_algorithms=5), data=st.data())
def test_column_permutation_posthoc_statistics(method, table, data):
    # statistics[row, col] must describe the same pair the same way whatever the
    # column order of the input: rank z-scores are antisymmetric, and so must a
    # pairwise t statistic (or a count of wins) be — it may not depend on which
    # of the two algorithms came first in the table.
    order = table.columns[data.draw(st.permutations(range(table.shape[1])))]
    before = _tested_pairs(table, method)
    after = _tested_pairs(table[order], method)
    assert_same(after.statistics, before.statistics.loc[order, order])


@pytest.mark.parametrize("method", ["bonferroni-dunn", "holm", "hochberg", "hommel"])
@SETTINGS
@given(table=tables(max_algorithms=5), data=st.data())
def test_column_permutation_posthoc_control(method, table, data):
    order = table.columns[data.draw(st.permutations(range(table.shape[1])))]
    control = data.draw(st.sampled_from(list(table.columns)))
    before = nbstats.posthoc(table, method=method, control=control)
    after = nbstats.posthoc(table[order], method=method, control=control)
    others = [c for c in order if c != control]
    assert_same(after.pvalues, before.pvalues[others])
    assert_same(after.adjusted, before.adjusted[others])
    pd.testing.assert_series_equal(after.reject, before.reject[others])


# --- swapping a and b mirrors two-sample results --------------------------------


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize(
    ("method", "correction"), [("exact", False), ("approx", False), ("approx", True)]
)
@SETTINGS
@given(ab=pairs())
def test_swap_wilcoxon(zero_method, method, correction, ab):
    a, b = ab
    kw = {"zero_method": zero_method, "method": method, "correction": correction}
    ab_two = nbstats.wilcoxon(a, b, **kw)
    ba_two = nbstats.wilcoxon(b, a, **kw)
    assert ba_two.r_plus == ab_two.r_minus
    assert ba_two.r_minus == ab_two.r_plus
    assert ba_two.statistic == ab_two.statistic
    assert ba_two.effect_size == -ab_two.effect_size
    np.testing.assert_allclose(ba_two.pvalue, ab_two.pvalue, rtol=1e-12)
    for alt, mirror in [("greater", "less"), ("less", "greater")]:
        np.testing.assert_allclose(
            nbstats.wilcoxon(b, a, alternative=mirror, **kw).pvalue,
            nbstats.wilcoxon(a, b, alternative=alt, **kw).pvalue,
            rtol=1e-12,
        )


@pytest.mark.parametrize("ties", ["split", "drop"])
@SETTINGS
@given(ab=pairs())
def test_swap_sign_test(ties, ab):
    a, b = ab
    ab_two = nbstats.sign_test(a, b, ties=ties)
    ba_two = nbstats.sign_test(b, a, ties=ties)
    assert (ba_two.wins, ba_two.losses, ba_two.n_ties) == (
        ab_two.losses,
        ab_two.wins,
        ab_two.n_ties,
    )
    assert ba_two.n_cases == ab_two.n_cases
    assert ba_two.statistic == ab_two.n_cases - ab_two.statistic
    np.testing.assert_allclose(ba_two.pvalue, ab_two.pvalue, rtol=1e-12)
    for alt, mirror in [("greater", "less"), ("less", "greater")]:
        np.testing.assert_allclose(
            nbstats.sign_test(b, a, alternative=mirror, ties=ties).pvalue,
            nbstats.sign_test(a, b, alternative=alt, ties=ties).pvalue,
            rtol=1e-12,
        )


@SETTINGS
@given(ab=pairs())
def test_swap_ttest(ab):
    a, b = ab
    ab_two = nbstats.ttest(a, b)
    ba_two = nbstats.ttest(b, a)
    assert ba_two.statistic == -ab_two.statistic
    assert ba_two.mean_difference == -ab_two.mean_difference
    low, high = ab_two.confidence_interval
    np.testing.assert_allclose(ba_two.confidence_interval, (-high, -low))
    np.testing.assert_allclose(ba_two.pvalue, ab_two.pvalue, rtol=1e-12)
    for alt, mirror in [("greater", "less"), ("less", "greater")]:
        np.testing.assert_allclose(
            nbstats.ttest(b, a, alternative=mirror).pvalue,
            nbstats.ttest(a, b, alternative=alt).pvalue,
            rtol=1e-12,
            atol=1e-300,
        )


# --- a strictly increasing transform leaves rank tests unchanged ----------------


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@SETTINGS
@given(table=tables())
def test_monotone_transform_rank_statistics(transform, table):
    f = TRANSFORMS[transform]
    assume(strictly_increasing_on(table.to_numpy(), f))
    moved = f(table)
    pd.testing.assert_frame_equal(nbstats.ranks(moved), nbstats.ranks(table))
    pd.testing.assert_series_equal(nbstats.mean_ranks(moved), nbstats.mean_ranks(table))
    for tie_correction in (False, True):
        assert nbstats.friedman(moved, tie_correction=tie_correction) == (
            nbstats.friedman(table, tie_correction=tie_correction)
        )
    assert nbstats.rm_anova(moved, rank_transform=True) == nbstats.rm_anova(
        table, rank_transform=True
    )


@pytest.mark.parametrize("method", POSTHOC_METHODS)
@pytest.mark.parametrize("transform", list(TRANSFORMS))
@SETTINGS
@given(table=tables(max_algorithms=5))
def test_monotone_transform_posthoc(method, transform, table):
    f = TRANSFORMS[transform]
    assume(strictly_increasing_on(table.to_numpy(), f))
    # the effect sizes are of the score differences, which a non-linear
    # transform reorders: everything else is about ranks
    moved = dataclasses.replace(
        nbstats.posthoc(f(table), method=method), effect_sizes=None
    )
    kept = dataclasses.replace(nbstats.posthoc(table, method=method), effect_sizes=None)
    assert moved == kept


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@SETTINGS
@given(ab=pairs())
def test_monotone_transform_sign_test(transform, ab):
    a, b = ab
    f = TRANSFORMS[transform]
    assume(strictly_increasing_on(np.concatenate([a, b]), f))
    assert nbstats.sign_test(f(a), f(b)) == nbstats.sign_test(a, b)
    # the sign post-hoc only looks at signs of differences, too (not its
    # effect size, of the differences themselves)
    table = pd.DataFrame({"A": a, "B": b})
    moved = nbstats.comparison_matrix(f(table), test="sign")
    kept = nbstats.comparison_matrix(table, test="sign")
    for field in ("statistics", "pvalues", "adjusted", "reject", "wins", "n_ties"):
        pd.testing.assert_frame_equal(getattr(moved, field), getattr(kept, field))
    assert moved.groups == kept.groups


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@SETTINGS
@given(
    ab=pairs(elements=DYADIC),
    scale=st.integers(1, 64).map(lambda i: i / 4),
    shift=st.integers(-1000, 1000).map(lambda i: i / 8),
)
def test_affine_transform_wilcoxon(zero_method, ab, scale, shift):
    # The Wilcoxon test ranks |b - a|, so a monotone but non-linear transform
    # (x**3, exp) may reorder the absolute differences and legitimately change
    # the result. Only a*x + b with a > 0 keeps their order for sure. On dyadic
    # scores (i / 16) with a dyadic scale and shift all the arithmetic is exact,
    # so ties among |differences| (and zero differences) survive the transform.
    a, b = ab
    before = nbstats.wilcoxon(a, b, zero_method=zero_method)
    after = nbstats.wilcoxon(
        scale * a + shift, scale * b + shift, zero_method=zero_method
    )
    assert after == before
    table = pd.DataFrame({"A": a, "B": b})
    moved = scale * table + shift
    after, before = nbstats.comparison_matrix(moved), nbstats.comparison_matrix(table)
    for field in ("statistics", "pvalues", "adjusted", "reject", "effect_sizes"):
        pd.testing.assert_frame_equal(getattr(after, field), getattr(before, field))


# --- higher_is_better=False is the same as negating the scores ------------------


@SETTINGS
@given(table=tables())
def test_lower_is_better_table_functions(table):
    pd.testing.assert_frame_equal(
        nbstats.ranks(table, higher_is_better=False), nbstats.ranks(-table)
    )
    pd.testing.assert_series_equal(
        nbstats.mean_ranks(table, higher_is_better=False), nbstats.mean_ranks(-table)
    )
    for tie_correction in (False, True):
        assert nbstats.friedman(
            table, higher_is_better=False, tie_correction=tie_correction
        ) == nbstats.friedman(-table, tie_correction=tie_correction)


@pytest.mark.parametrize("method", ALL_METHODS)
@SETTINGS
@given(table=tables(max_algorithms=5))
def test_lower_is_better_posthoc(method, table):
    low = _tested_pairs(table, method, higher_is_better=False)
    if method in COMPARISON_TESTS:  # the matrix records the direction it was given
        assert low.higher_is_better is False
        low = dataclasses.replace(low, higher_is_better=True)
    assert low == _tested_pairs(-table, method)


@pytest.mark.parametrize("test", [nbstats.wilcoxon, nbstats.sign_test, nbstats.ttest])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@SETTINGS
@given(ab=pairs())
def test_lower_is_better_two_sample(test, alternative, ab):
    a, b = ab
    assert test(a, b, alternative=alternative, higher_is_better=False) == test(
        -a, -b, alternative=alternative
    )


# --- results are in range -------------------------------------------------------


@SETTINGS
@given(table=tables())
def test_ranks_in_range(table):
    n, k = table.shape
    r = nbstats.ranks(table).to_numpy()
    assert ((r >= 1) & (r <= k)).all()
    np.testing.assert_array_equal(r.sum(axis=1), np.full(n, k * (k + 1) / 2))
    np.testing.assert_allclose(nbstats.mean_ranks(table).sum(), k * (k + 1) / 2)


@SETTINGS
@given(table=tables())
def test_omnibus_in_range(table):
    k = table.shape[1]
    for tie_correction in (False, True):
        res = nbstats.friedman(table, tie_correction=tie_correction)
        assert res.statistic >= 0
        assert_probabilities([res.pvalue, res.f_pvalue])
        np.testing.assert_allclose(res.mean_ranks.sum(), k * (k + 1) / 2)
    for rank_transform in (False, True):
        res = nbstats.rm_anova(table, rank_transform=rank_transform)
        assert res.statistic >= 0
        assert_probabilities([res.pvalue, res.pvalue_gg])
        assert 1 / (k - 1) - 1e-12 <= res.epsilon <= 1 + 1e-12


@pytest.mark.parametrize("zero_method", ["zsplit", "pratt", "wilcox"])
@pytest.mark.parametrize("method", ["exact", "approx"])
@SETTINGS
@given(ab=pairs())
def test_two_sample_in_range(zero_method, method, ab):
    a, b = ab
    n = len(a)
    for alternative in ("two-sided", "greater", "less"):
        res = nbstats.wilcoxon(
            a, b, zero_method=zero_method, method=method, alternative=alternative
        )
        assert_probabilities([res.pvalue])
        assert res.r_plus >= 0
        assert res.r_minus >= 0
        assert -1 <= res.effect_size <= 1
        if zero_method == "zsplit":
            assert res.r_plus + res.r_minus == n * (n + 1) / 2
        assert_probabilities([nbstats.sign_test(a, b, alternative=alternative).pvalue])
        assert_probabilities([nbstats.ttest(a, b, alternative=alternative).pvalue])


@pytest.mark.parametrize("method", ALL_METHODS)
@SETTINGS
@given(table=tables(max_algorithms=5))
def test_posthoc_in_range(method, table):
    res = _tested_pairs(table, method)
    raw = off_diagonal(res.pvalues)
    adjusted = off_diagonal(res.adjusted)
    assert_probabilities(raw)
    assert_probabilities(adjusted)
    assert not np.isnan(raw).any()
    assert not np.isnan(adjusted).any()
    # Nemenyi's studentized-range p-value equals the raw normal one for k = 2,
    # computed by numerical integration, so allow a relative 1e-8
    assert_all_le(raw, adjusted, rtol=1e-8 if method == "nemenyi" else 1e-12)
    np.testing.assert_array_equal(
        off_diagonal(res.reject).astype(bool), adjusted <= res.alpha
    )


def check_adjustment_order(results: dict[str, np.ndarray]) -> None:
    # Hommel is uniformly more powerful than Hochberg, Hochberg than Holm;
    # Shaffer refines Holm (never larger)
    assert_all_le(results["hochberg"], results["holm"])
    assert_all_le(results["hommel"], results["hochberg"])
    if "shaffer" in results:
        assert_all_le(results["shaffer"], results["holm"])


@SETTINGS
@given(table=tables(max_algorithms=5))
def test_posthoc_rank_adjustments_ordered(table):
    results = {
        m: off_diagonal(nbstats.posthoc(table, method=m).adjusted)
        for m in ("holm", "hochberg", "hommel", "shaffer")
    }
    check_adjustment_order(results)


@pytest.mark.parametrize("method", COMPARISON_TESTS)
@SETTINGS
@given(table=tables(max_algorithms=5))
def test_posthoc_pairwise_adjustments_ordered(method, table):
    raw = off_diagonal(_tested_pairs(table, method, adjust="none").adjusted)
    results = {
        a: off_diagonal(_tested_pairs(table, method, adjust=a).adjusted)
        for a in ("holm", "hochberg", "hommel", "shaffer", "bonferroni")
    }
    for adjusted in results.values():
        assert_all_le(raw, adjusted)
    check_adjustment_order(results)
    assert_all_le(results["holm"], results["bonferroni"])


@SETTINGS
@given(table=tables(max_algorithms=5), data=st.data())
def test_posthoc_control_adjustments_ordered(table, data):
    control = data.draw(st.sampled_from(list(table.columns)))
    results = {
        m: nbstats.posthoc(table, method=m, control=control).adjusted.to_numpy()
        for m in ("holm", "hochberg", "hommel")
    }
    raw = nbstats.posthoc(table, method="holm", control=control).pvalues.to_numpy()
    for adjusted in results.values():
        assert_all_le(raw, adjusted)
    check_adjustment_order(results)


@SETTINGS
@given(
    k=st.integers(2, 7),
    data=st.data(),
)
def test_adjust_pvalues_ordered(k, data):
    m = k * (k - 1) // 2
    probability = st.one_of(
        st.floats(0, 1, allow_subnormal=False),
        st.sampled_from([0.0, 0.01, 0.05, 0.5, 1.0]),
    )
    p = np.array(data.draw(st.lists(probability, min_size=m, max_size=m)))
    results = {
        method: nbstats.adjust_pvalues(p, method)
        for method in ("holm", "hochberg", "hommel", "shaffer", "bonferroni")
    }
    for adjusted in results.values():
        assert_probabilities(adjusted)
        assert_all_le(p, adjusted)
    check_adjustment_order(results)
    assert_all_le(results["holm"], results["bonferroni"])


@st.composite
def columns(draw):
    """One algorithm's scores: arbitrary, or the same score on every case."""
    n = draw(st.integers(2, 12))
    elements = draw(ELEMENTS)
    if draw(st.booleans()):
        return np.full(n, draw(elements))
    return draw(hnp.arrays(np.float64, n, elements=elements))


@SETTINGS
@given(column=columns(), k=st.integers(2, 5))
def test_identical_algorithms_give_no_evidence(column, k):
    # k copies of one column: every case is a complete tie, so every test must
    # find nothing, whatever the (case-to-case) values are
    table = pd.DataFrame(np.repeat(column[:, None], k, axis=1), columns=NAMES[:k])
    for tie_correction in (False, True):
        res = nbstats.friedman(table, tie_correction=tie_correction)
        assert (res.statistic, res.pvalue) == (0, 1)
    for rank_transform in (False, True):
        res = nbstats.rm_anova(table, rank_transform=rank_transform)
        assert (res.statistic, res.pvalue) == (0, 1)
    for method in ALL_METHODS:
        res = _tested_pairs(table, method)
        np.testing.assert_array_equal(off_diagonal(res.adjusted), 1.0)
        assert not res.reject.to_numpy().any()
