"""The df.compare accessor: pandas' method still works, nbstats' methods mirror."""

from __future__ import annotations

import inspect
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.accessor import CompareAccessor, _pandas_compare


@pytest.fixture
def pair():
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0], "y": ["a", "b", "c"]})
    other = df.copy()
    other.loc[1, "x"] = 9.0
    other.loc[2, "y"] = "z"
    return df, other


def test_calling_it_is_pandas_compare(pair):
    df, other = pair
    pd.testing.assert_frame_equal(df.compare(other), _pandas_compare(df, other))
    pd.testing.assert_frame_equal(
        df.compare(other, align_axis=0, keep_shape=True, keep_equal=True),
        _pandas_compare(df, other, align_axis=0, keep_shape=True, keep_equal=True),
    )
    pd.testing.assert_frame_equal(
        df.compare(other, result_names=("left", "right")),
        _pandas_compare(df, other, result_names=("left", "right")),
    )


def test_pandas_errors_are_pandas_errors(pair):
    df, _ = pair
    with pytest.raises(ValueError, match="identically-labeled"):
        df.compare(df.iloc[:2])


def test_call_keeps_pandas_signature_and_docstring(table6):
    assert "other" in inspect.signature(table6.compare).parameters
    assert CompareAccessor.__call__.__doc__ == _pandas_compare.__doc__


def test_import_shows_no_warning():
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import nbstats"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == ""


def test_import_does_not_load_display_libraries():
    code = (
        "import sys, nbstats; "
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'nbconvert', 'seaborn', 'scipy.stats') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[]"


def test_accessor_is_stateless(table6):
    acc = table6.compare
    assert vars(acc) == {"_obj": table6}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table6.compare.friedman()


@pytest.mark.parametrize(
    ("method", "function", "kwargs"),
    [
        ("friedman", nbstats.friedman, {"tie_correction": True}),
        ("rm_anova", nbstats.rm_anova, {"rank_transform": True}),
        ("posthoc", nbstats.posthoc, {"method": "holm", "control": "C4.5"}),
        ("posthoc", nbstats.posthoc, {"method": "shaffer", "control": "C4.5"}),
        ("comparison_matrix", nbstats.comparison_matrix, {"adjust": "shaffer"}),
        ("rank_ci", nbstats.rank_ci, {"method": "id-nemenyi", "alpha": 0.1}),
        ("bayes_friedman", nbstats.bayes_friedman, {"s": 0.5}),
        ("bayes_posthoc", nbstats.bayes_posthoc, {"random_state": 0}),
    ],
)
def test_frame_methods_mirror_functions(table6, method, function, kwargs):
    assert getattr(table6.compare, method)(**kwargs) == function(table6, **kwargs)


@pytest.mark.parametrize(
    ("method", "function", "kwargs"),
    [
        ("wilcoxon", nbstats.wilcoxon, {"zero_method": "pratt"}),
        ("sign_test", nbstats.sign_test, {"alternative": "greater"}),
        ("ttest", nbstats.ttest, {}),
    ],
)
def test_pair_methods_mirror_functions(table6, method, function, kwargs):
    got = getattr(table6.compare, method)("C4.5", "C4.5+m", **kwargs)
    assert got == function(table6["C4.5"], table6["C4.5+m"], **kwargs)


def test_table_methods(table6):
    pd.testing.assert_frame_equal(table6.compare.ranks(), nbstats.ranks(table6))
    pd.testing.assert_series_equal(
        table6.compare.mean_ranks(higher_is_better=False),
        nbstats.mean_ranks(table6, higher_is_better=False),
    )
    assert table6.compare.critical_difference(0.10) == nbstats.critical_difference(
        4, 14, 0.10
    )


def test_long_data_through_accessor():
    folds = nbstats.datasets.load("uci_accuracy_folds")
    wide = folds.compare.score_table(
        case="dataset", algorithm="classifier", score="accuracy", aggregate="mean"
    )
    assert wide.shape == (54, 5)


def test_unknown_column_names_the_columns(table6):
    with pytest.raises(
        ValueError, match=r"no algorithm \(column\) named 'C5.0'.*C4.5\+m"
    ):
        table6.compare.wilcoxon("C4.5", "C5.0")
    with pytest.raises(TypeError, match="one column name"):
        table6.compare.wilcoxon(["C4.5"], "C4.5+m")


def test_duplicated_column_name_is_refused():
    df = pd.DataFrame(np.arange(6.0).reshape(3, 2), columns=["A", "A"])
    with pytest.raises(ValueError, match="more than once"):
        df.compare.wilcoxon("A", "A")


def test_integer_column_names():
    df = pd.DataFrame(np.random.default_rng(0).normal(size=(8, 3)))
    assert df.compare.wilcoxon(0, 1) == nbstats.wilcoxon(df[0], df[1])
    # results name an algorithm by its column's name as given (issue 34,
    # finding 6); the text of a name finds it too
    assert df.compare.posthoc(control="0", method="holm").control == 0
    assert df.compare.posthoc(control=0, method="holm").control == 0


# -- statistics added to the accessor with the fold tests ------------------------


@pytest.mark.parametrize(
    ("method", "function", "kwargs"),
    [
        ("quade", nbstats.quade, {}),
        ("quade", nbstats.quade, {"higher_is_better": False}),
        ("posthoc", nbstats.posthoc, {"method": "bergmann-hommel"}),
        ("comparison_matrix", nbstats.comparison_matrix, {"effect": "cohen-d"}),
        ("analyze", nbstats.analyze, {"bayes": False}),
    ],
)
def test_more_frame_methods_mirror_functions(table6, method, function, kwargs):
    assert getattr(table6.compare, method)(**kwargs) == function(table6, **kwargs)


def test_effect_size_and_letters_mirror_functions(table6):
    for kind in ("cliff", "hodges-lehmann"):
        got = table6.compare.effect_size("C4.5", "C4.5+m", effect=kind)
        assert got == nbstats.effect_size(table6["C4.5"], table6["C4.5+m"], effect=kind)
    assert table6.compare.letters(alpha=0.10) == nbstats.letters(
        nbstats.posthoc(table6, alpha=0.10)
    )
    assert table6.compare.letters(method="bergmann-hommel") == nbstats.letters(
        nbstats.posthoc(table6, method="bergmann-hommel")
    )
    with pytest.raises(ValueError, match="drop control="):
        table6.compare.letters(method="holm", control="C4.5")
    assert table6.compare.nemenyi_min_cases(0.1) == nbstats.nemenyi_min_cases(4, 0.1)


# -- per-fold scores ---------------------------------------------------------------

UCI = dict(case="dataset", algorithm="classifier", score="accuracy", fold="fold")


@pytest.fixture(scope="module")
def uci_folds() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy_folds")


def _one_data_set(folds: pd.DataFrame, name: str) -> pd.DataFrame:
    """Rows = folds, columns = classifiers, of one data set."""
    rows = folds[folds["dataset"] == name]
    return rows.pivot(index="fold", columns="classifier", values="accuracy")


@pytest.mark.parametrize("name", ["anneal", "audiology", "iris"])
def test_correlated_ttest_is_nadeau_bengio(uci_folds, name):
    # the corrected resampled t-test computed here from its definition
    # (Nadeau & Bengio 2003): t = mean(d) / sqrt((1/n + 1/(k - 1)) var(d))
    from scipy import stats

    wide = _one_data_set(uci_folds, name)
    d = (wide["aode"] - wide["nbc"]).to_numpy()
    n, k = d.size, 10
    se = np.sqrt((1 / n + 1 / (k - 1)) * d.var(ddof=1))
    t = d.mean() / se
    p = 2 * stats.t.sf(abs(t), n - 1)
    long = uci_folds.compare.correlated_ttest("nbc", "aode", on=name, **UCI, runs=10)
    assert long.statistic == pytest.approx(t, rel=1e-12)
    assert long.pvalue == pytest.approx(p, rel=1e-9, abs=1e-300)
    assert long.df == n - 1
    # the Bayesian version: Student posterior, location mean(d), scale se
    rope = 0.01
    bayes = uci_folds.compare.bayes_correlated_ttest(
        "nbc", "aode", on=name, **UCI, runs=10, rope=rope
    )
    posterior = stats.t(n - 1, loc=d.mean(), scale=se)
    assert bayes.prob_right == pytest.approx(posterior.sf(rope), abs=1e-12)
    assert bayes.prob_left == pytest.approx(posterior.cdf(-rope), abs=1e-12)


@pytest.mark.parametrize(
    ("method", "function"),
    [
        ("correlated_ttest", nbstats.correlated_ttest),
        ("bayes_correlated_ttest", nbstats.bayes_correlated_ttest),
    ],
)
def test_fold_pair_methods_mirror_functions(uci_folds, method, function):
    kwargs = {"runs": 10}
    if method == "bayes_correlated_ttest":
        kwargs["rope"] = 0.01
    wide = _one_data_set(uci_folds, "anneal")
    direct = function(wide["nbc"], wide["aode"], **kwargs)
    # wide: rows = one data set's folds, columns = algorithms
    assert getattr(wide.compare, method)("nbc", "aode", **kwargs) == direct
    # long: the data set chosen by on=
    long = getattr(uci_folds.compare, method)("nbc", "aode", on="anneal", **UCI,
                                               **kwargs)  # fmt: skip
    assert long == direct
    # long, one data set only: on= and case= may be left out
    rows = uci_folds[uci_folds["dataset"] == "anneal"]
    assert getattr(rows.compare, method)("nbc", "aode", **UCI, **kwargs) == direct
    no_case = rows.drop(columns="dataset")
    alone = getattr(no_case.compare, method)(
        "nbc", "aode", algorithm="classifier", score="accuracy", fold="fold",
        **kwargs,
    )  # fmt: skip
    assert alone == direct
    # the rows' order does not matter: the folds are paired by name
    shuffled = uci_folds.sample(frac=1.0, random_state=0)
    assert getattr(shuffled.compare, method)("nbc", "aode", on="anneal", **UCI,
                                             **kwargs) == direct  # fmt: skip


def test_run_and_fold_columns_give_the_runs(uci_folds):
    rows = uci_folds[uci_folds["dataset"] == "iris"].copy()
    number = rows["fold"] - rows["fold"].min()  # 0 … 99
    rows["run"], rows["fold"] = number // 10, number % 10
    columns = dict(algorithm="classifier", score="accuracy", fold=["run", "fold"])
    got = rows.compare.correlated_ttest("nbc", "hnb", **columns)
    wide = _one_data_set(uci_folds, "iris")
    assert got == nbstats.correlated_ttest(wide["nbc"], wide["hnb"], runs=10)
    # an explicit design wins
    assert rows.compare.correlated_ttest("nbc", "hnb", **columns, folds=5).rho == 0.2


def test_correlated_pairs_mirrors_function(uci_folds):
    kwargs = {
        **UCI,
        "runs": 10,
        "rope": 0.01,
        "pairs": [("nbc", "aode"), ("j48", "hnb")],
    }
    assert uci_folds.compare.correlated_pairs(**kwargs) == nbstats.correlated_pairs(
        uci_folds, **kwargs
    )
    info = uci_folds.compare.fold_summary(case="dataset", algorithm="classifier",
                                          fold="fold")  # fmt: skip
    assert info == nbstats.fold_summary(uci_folds, case="dataset",
                                        algorithm="classifier", fold="fold")  # fmt: skip


def test_bayes_hierarchical_mirrors_function(monkeypatch):
    # the sampler is replaced by draws computed from what it is given (the
    # model's data and seed): equal results mean equal inputs, without the
    # tens of seconds of NUTS (tests/stats/test_hierarchical.py tests those)
    from nbstats.stats import hierarchical
    from nbstats.stats.hierarchical_model import PosteriorDraws

    seen = []

    def fake_sampler(data, *, n_samples, chains, warmup, seed):
        seen.append((data, n_samples, chains, warmup, tuple(seed)))
        rng = np.random.default_rng(list(seed))
        q = data.mean.shape[0]
        shape = (chains, n_samples)
        return PosteriorDraws(
            delta0=rng.normal(data.mean.mean(), 0.1, shape),
            std0=rng.uniform(0.5, 1.0, shape),
            nu=rng.uniform(2.0, 10.0, shape),
            delta=rng.normal(data.mean, 0.1, (*shape, q)),
            divergences=0,
            rhat=1.0,
            ess=float(n_samples),
            rhat_delta=np.ones(q),
            ess_delta=np.full(q, float(n_samples)),
        )

    monkeypatch.setattr(hierarchical, "require_sampler", lambda: None)
    monkeypatch.setattr(hierarchical, "sample_posterior", fake_sampler)
    rng = np.random.default_rng(3)
    a = rng.normal(0.8, 0.02, (6, 20))
    b = a + rng.normal(0.01, 0.01, (6, 20))
    rows = [
        (f"set{i}", name, f, values[i, f])
        for name, values in (("A", a), ("B", b))
        for i in range(6)
        for f in range(20)
    ]
    long = pd.DataFrame(rows, columns=["set", "method", "fold", "acc"])
    columns = dict(case="set", algorithm="method", score="acc", fold="fold")
    settings = dict(runs=2, rope=0.01, n_samples=50, warmup=20, random_state=0)
    got = long.compare.bayes_hierarchical("A", "B", **columns, **settings)
    direct = nbstats.bayes_hierarchical("A", "B", data=long, **columns, **settings)
    assert got == direct
    (one, *rest_one), (two, *rest_two) = seen
    assert rest_one == rest_two
    for field in ("mean", "ss", "centered"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))
    # the data reached the model as b − a per data set (in scaled units)
    observed = (b - a).mean(axis=1)
    np.testing.assert_allclose(got.datasets["observed"], observed, rtol=1e-12)
    ratio = one.mean / observed
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-12)
    with pytest.raises(TypeError, match="drop data="):
        long.compare.bayes_hierarchical("A", "B", data=long, **columns)


def test_fold_pair_input_errors(uci_folds):
    wide = _one_data_set(uci_folds, "anneal")
    with pytest.raises(ValueError, match="choose one with on="):
        uci_folds.compare.correlated_ttest("nbc", "aode", **UCI, runs=10)
    with pytest.raises(ValueError, match="no data set 'annealing'.*'anneal'"):
        uci_folds.compare.correlated_ttest("nbc", "aode", on="annealing", **UCI,
                                           runs=10)  # fmt: skip
    with pytest.raises(ValueError, match="give case= too"):
        uci_folds.compare.correlated_ttest(
            "nbc", "aode", on="anneal", algorithm="classifier", score="accuracy",
            fold="fold", runs=10,
        )  # fmt: skip
    with pytest.raises(ValueError, match="name its algorithm column"):
        wide.compare.correlated_ttest("nbc", "aode", on="anneal", runs=10)
    with pytest.raises(ValueError, match="needs score= and fold="):
        uci_folds.compare.bayes_correlated_ttest(
            "nbc", "aode", on="anneal", case="dataset", algorithm="classifier",
            runs=10,
        )  # fmt: skip
    with pytest.raises(ValueError, match="'c45' is not an algorithm.*'j48'"):
        uci_folds.compare.correlated_ttest("c45", "aode", on="anneal", **UCI,
                                           runs=10)  # fmt: skip
    with pytest.raises(ValueError, match="fold='folds' is not a column of the table"):
        uci_folds.compare.correlated_ttest(
            "nbc", "aode", on="anneal", **{**UCI, "fold": "folds"}, runs=10
        )
    with pytest.raises(ValueError, match="score='acc' is not a column of the table"):
        uci_folds.compare.correlated_ttest(
            "nbc", "aode", on="anneal", **{**UCI, "score": "acc"}, runs=10
        )
    with pytest.raises(ValueError, match="case='set' is not a column of the table"):
        uci_folds.compare.correlated_ttest(
            "nbc", "aode", on="anneal", **{**UCI, "case": "set"}, runs=10
        )
    # the functions' own checks still apply: the fold design is required
    with pytest.raises(ValueError, match="say how the fold scores were made"):
        wide.compare.correlated_ttest("nbc", "aode")
    with pytest.raises(ValueError, match="no algorithm \\(column\\) named"):
        wide.compare.bayes_correlated_ttest("nbc", "c45", runs=10)
    # a fold missing for one algorithm is refused by the fold check
    gap = uci_folds[uci_folds["dataset"] == "anneal"].iloc[1:]
    with pytest.raises(ValueError, match="unequal folds"):
        gap.compare.correlated_ttest("nbc", "aode", **UCI, runs=10)
