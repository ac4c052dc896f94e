"""nbstats.comparison_matrix against scipy, statsmodels and brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import nbstats
from nbstats.results import ComparisonMatrixResult

LONG = [
    "HistGradientBoostingClassifier(max_iter=300, lr=0.05)",
    "RandomForestClassifier(n_estimators=500)",
    "LogisticRegression(C=1.0, penalty='l2')",
    "SVC(kernel='rbf', C=10)",
    "KNeighborsClassifier(n_neighbors=15)",
    "GaussianNB()",
    "ExtraTreesClassifier(n_estimators=300)",
    "MLPClassifier(hidden_layer_sizes=(64, 32))",
]


def random_table(m, n=25, seed=0, names=None, decimals=None):
    """Scores with no ties, or rounded (``decimals``) so that some cases tie."""
    rng = np.random.default_rng(seed)
    data = rng.normal(0.8, 0.05, (n, m)) + np.linspace(0, 0.04, m)
    if decimals is not None:
        data = np.round(data, decimals)
    return pd.DataFrame(
        data,
        columns=names or [f"alg{i}" for i in range(m)],
        index=[f"d{i}" for i in range(n)],
    )


def pair_cases(table, a, b):
    both = table[[a, b]].dropna()
    return both[a].to_numpy(), both[b].to_numpy()


@pytest.mark.parametrize(("m", "names"), [(2, None), (5, None), (8, LONG)])
def test_every_cell_against_independent_computations(m, names):
    table = random_table(m, names=names, seed=m)  # no ties: scipy's exact test
    res = nbstats.comparison_matrix(table, effect="cohen-d")
    assert isinstance(res, ComparisonMatrixResult)
    assert sorted(res.names) == sorted(table.columns)
    # rows in mean-rank order, best first (scipy's ranks, 1 = best)
    ranks = table.rank(axis=1, ascending=False).mean()
    assert list(res.names) == list(ranks.sort_values(kind="stable").index)
    pairs = list(itertools.combinations(res.names, 2))
    raw = []
    for a, b in pairs:
        x, y = pair_cases(table, a, b)
        d = x - y
        assert res.wins.loc[a, b] == np.sum(x > y) == res.losses.loc[b, a]
        assert res.n_ties.loc[a, b] == np.sum(x == y) == res.n_ties.loc[b, a]
        assert res.mean_difference.loc[a, b] == pytest.approx(d.mean(), abs=1e-12)
        assert res.mean_difference.loc[b, a] == pytest.approx(-d.mean(), abs=1e-12)
        # Cohen's d_z of the row over the column, by its formula
        dz = d.mean() / d.std(ddof=1)
        assert res.effect_sizes.loc[a, b] == pytest.approx(dz, rel=1e-9)
        assert res.effect_sizes.loc[b, a] == pytest.approx(-dz, rel=1e-9)
        p = stats.wilcoxon(x, y).pvalue
        assert res.pvalues.loc[a, b] == pytest.approx(p, rel=1e-9)
        raw.append(p)
    reject, adjusted, _, _ = multipletests(raw, alpha=0.05, method="holm")
    for (a, b), p_adj, r in zip(pairs, adjusted, reject, strict=True):
        assert res.adjusted.loc[a, b] == pytest.approx(p_adj, rel=1e-9)
        assert bool(res.reject.loc[a, b]) == r == bool(res.reject.loc[b, a])
    frame = res.to_frame()
    assert len(frame) == m * (m - 1) // 2
    assert list(zip(frame.a, frame.b, strict=True)) == pairs
    assert frame.adjusted.to_numpy() == pytest.approx(adjusted, rel=1e-9)


def test_ties_are_counted_as_ties():
    table = random_table(6, seed=2, decimals=2)
    res = nbstats.comparison_matrix(table)
    total = 0
    for a, b in itertools.permutations(res.names, 2):
        x, y = table[a].to_numpy(), table[b].to_numpy()
        assert (res.wins.loc[a, b], res.n_ties.loc[a, b], res.losses.loc[a, b]) == (
            np.sum(x > y),
            np.sum(x == y),
            np.sum(x < y),
        )
        total += res.n_ties.loc[a, b]
    assert total > 0  # the rounding made ties


@pytest.mark.parametrize(
    "kind", ["cliff", "vargha-delaney", "hedges-g", "rank-biserial", "hodges-lehmann"]
)
def test_effects_equal_effect_size_of_the_row_over_the_column(kind):
    table = random_table(4, seed=11)
    res = nbstats.comparison_matrix(table, effect=kind)
    for a, b in itertools.permutations(res.names, 2):
        one = nbstats.effect_size(table[b], table[a], effect=kind)  # a's effect
        assert res.effect_sizes.loc[a, b] == pytest.approx(
            one.value, rel=1e-9, abs=1e-12
        )
        assert res.magnitude.loc[a, b] == one.magnitude


def test_rank_biserial_by_default_and_demsar_counts():
    # Demšar (2006), Table 2: C4.5+m beats C4.5 with R+ = 93, R- = 12
    t2 = nbstats.datasets.load("demsar2006")
    res = nbstats.comparison_matrix(t2)
    assert res.effect == "rank-biserial"
    assert res.effect_sizes.loc["C4.5+m", "C4.5"] == pytest.approx((93 - 12) / 105)


def test_lower_is_better_orients_everything():
    table = random_table(4, seed=3)
    high = nbstats.comparison_matrix(table)
    low = nbstats.comparison_matrix(-table, higher_is_better=False)
    assert list(low.names) == list(high.names)
    for frame in (
        "wins",
        "n_ties",
        "losses",
        "mean_difference",
        "effect_sizes",
        "statistics",
        "adjusted",
    ):
        pd.testing.assert_frame_equal(getattr(low, frame), getattr(high, frame))


@pytest.mark.parametrize("test", ["sign", "ttest"])
def test_other_tests(test):
    table = random_table(3, seed=5, decimals=2)
    res = nbstats.comparison_matrix(table, test=test, adjust="none")
    for a, b in itertools.combinations(res.names, 2):
        x, y = pair_cases(table, a, b)
        if test == "ttest":
            p = stats.ttest_rel(x, y).pvalue
        else:  # Demšar's sign test: half the ties (rounded down) to each side
            wins, losses = int(np.sum(y > x)), int(np.sum(y < x))
            half = int(np.sum(x == y)) // 2
            p = stats.binomtest(wins + half, wins + losses + 2 * half).pvalue
        assert res.adjusted.loc[a, b] == pytest.approx(p, rel=1e-9)


def test_missing_cells_pairwise_and_omit():
    table = random_table(5, seed=7)
    table.iloc[0, 1] = np.nan
    table.iloc[3, 2] = np.nan
    with pytest.raises(ValueError, match="missing"):
        nbstats.comparison_matrix(table)
    res = nbstats.comparison_matrix(table, nan_policy="pairwise")
    for a, b in itertools.combinations(res.names, 2):
        x, y = pair_cases(table, a, b)
        assert res.pair_cases.loc[a, b] == len(x)
        assert res.pvalues.loc[a, b] == pytest.approx(stats.wilcoxon(x, y).pvalue)
    assert "cases per pair" in res.summary()
    with pytest.warns(UserWarning, match="dropped"):
        omitted = nbstats.comparison_matrix(table, nan_policy="omit")
    assert (
        omitted.pair_cases.to_numpy()[~np.eye(5, dtype=bool)] == len(table) - 2
    ).all()


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"test": "nemenyi"}, "test"),
        ({"effect": "eta"}, "effect"),
        ({"adjust": "sidak-ish"}, "adjust"),
        ({"higher_is_better": "yes"}, "higher_is_better"),
    ],
)
def test_bad_arguments_are_named(keywords, message):
    with pytest.raises((ValueError, TypeError), match=message):
        nbstats.comparison_matrix(random_table(3), **keywords)


def test_a_single_algorithm_is_refused():
    with pytest.raises(ValueError, match="at least 2"):
        nbstats.comparison_matrix(random_table(1))


def test_rendered_text_html_and_latex():
    res = nbstats.comparison_matrix(random_table(8, names=LONG))
    assert "pairs significant at α = 0.05" in res.summary()
    assert LONG[0] in res._repr_html_().replace("<wbr/>", "")  # break points
    latex = res.to_latex()
    assert "\\begin{table}" in latex or "\\begin{longtable}" in latex
