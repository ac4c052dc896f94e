"""Bundled data sets: shapes, names, and agreement with the sources.

The published tables are checked against numbers the rebuild scripts in
tests/data/ record by hand from the source files (cells, counts, printed means,
the papers' own summaries), read here by importing those scripts.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import nbstats

DATA_SCRIPTS = Path(__file__).resolve().parents[1] / "data"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, DATA_SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DELGADO = _script("make_fernandez_delgado2014")
BAKEOFF = _script("make_tsc_bakeoff2024_folds")


def test_names():
    assert nbstats.datasets.names() == [
        "demsar2006",
        "demsar2006_table2",
        "uci_accuracy",
        "uci_accuracy_folds",
        "tsc_bakeoff2024_folds",
        "fernandez_delgado2014",
        "fernandez_delgado2014_top50",
        "fernandez_delgado2014_multiboost",
    ]


def test_demsar_tables(table6, table2):
    assert table6.shape == (14, 4)
    assert list(table6.columns) == ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    assert table6.loc["voting", "C4.5+cf"] == 0.97501  # the documented tie-break
    np.testing.assert_array_equal(table2.to_numpy(), table6.iloc[:, :2].to_numpy())
    assert table6.loc["lymphography", "C4.5+m+cf"] == 0.875


def test_uci_means_are_the_fold_means():
    means = nbstats.datasets.load("uci_accuracy")
    folds = nbstats.datasets.load("uci_accuracy_folds")
    assert means.shape == (54, 5)
    assert folds.groupby(["dataset", "classifier"]).size().eq(100).all()
    recomputed = nbstats.score_table(
        folds,
        case="dataset",
        algorithm="classifier",
        score="accuracy",
        aggregate="mean",
    )
    np.testing.assert_allclose(
        recomputed.loc[means.index, means.columns], means, atol=1e-6
    )


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown data set 'iris'.*demsar2006"):
        nbstats.datasets.load("iris")


def test_loaded_tables_are_independent_copies():
    first = nbstats.datasets.load("demsar2006")
    first.iloc[0, 0] = -1
    assert nbstats.datasets.load("demsar2006").iloc[0, 0] == 0.763


# -- Fernández-Delgado et al. (2014): 179 classifiers × 121 data sets ---------


@pytest.fixture(scope="module")
def delgado() -> pd.DataFrame:
    return nbstats.datasets.load("fernandez_delgado2014")


def test_delgado_shape_names_and_missing_cells(delgado):
    assert delgado.shape == (DELGADO.N_DATASETS, DELGADO.N_CLASSIFIERS)
    assert delgado.index.name == "dataset"
    assert delgado.columns.name == "algorithm"
    assert delgado.index.is_unique and delgado.columns.is_unique
    assert {"abalone", "zoo", "miniboone", "statlog-landsat"} <= set(delgado.index)
    assert delgado.columns[0] == "elm_kernel_matlab"
    assert delgado.columns[-1] == "dpp_C"
    assert int(delgado.isna().to_numpy().sum()) == DELGADO.N_MISSING
    assert delgado.dtypes.eq(np.float64).all()
    assert np.nanmin(delgado) >= 0 and np.nanmax(delgado) <= 100


def test_delgado_cells_match_the_source(delgado):
    for (dataset, name), value in DELGADO.SPOT_VALUES.items():
        cell = delgado.loc[dataset, name]
        if value is None:
            assert np.isnan(cell), (dataset, name)
        else:
            assert cell == value, (dataset, name)


def test_delgado_matches_the_paper_abstract(delgado):
    # each data set's best accuracy, over the classifiers with a result
    share = delgado["parRF_caret"] / delgado.max(axis=1) * 100
    assert round(share.mean(), 1) == DELGADO.PARRF_PERCENT_OF_MAX
    assert round((share >= 90).mean() * 100, 1) == DELGADO.PARRF_SHARE_OVER_90
    svm = (delgado["svm_C"] / delgado.max(axis=1) * 100).fillna(0)
    assert round(svm.mean(), 1) == DELGADO.SVMC_PERCENT_OF_MAX


def test_delgado_subsets_are_columns_of_the_full_table(delgado):
    for name, columns, missing in [
        ("fernandez_delgado2014_top50", DELGADO.TOP50, DELGADO.N_MISSING_TOP50),
        (
            "fernandez_delgado2014_multiboost",
            DELGADO.MULTIBOOST,
            DELGADO.N_MISSING_MULTIBOOST,
        ),
    ]:
        subset = nbstats.datasets.load(name)
        assert subset.shape == (121, len(columns))
        assert set(subset.columns) == set(columns)
        # the full table's column order, and its values with their gaps
        assert list(subset.columns) == [c for c in delgado.columns if c in columns]
        pd.testing.assert_frame_equal(subset, delgado[subset.columns])
        assert int(subset.isna().to_numpy().sum()) == missing


def test_top50_are_the_best_means(delgado):
    means = delgado.mean().sort_values(ascending=False)  # NaN skipped
    assert tuple(means.index[:50]) == DELGADO.TOP50
    assert means.iloc[49] > means.iloc[50]


def test_multiboost_long_names_and_printed_means():
    table = nbstats.datasets.load("fernandez_delgado2014_multiboost")
    lengths = table.columns.str.len()
    assert lengths.max() == len("MultiBoostAB_MultilayerPerceptron_weka") == 38
    assert (lengths > 20).sum() == 12
    # the source's "mean" row: accuracy over the data sets each one completed
    for name, printed in DELGADO.PRINTED_MEANS.items():
        assert abs(table[name].mean() - printed) <= 0.05 + 1e-9, name


# -- Bake off redux (2024): HC2 and MR-Hydra, 30 resamples --------------------


@pytest.fixture(scope="module")
def bakeoff() -> pd.DataFrame:
    return nbstats.datasets.load("tsc_bakeoff2024_folds")


def test_bakeoff_layout(bakeoff):
    assert list(bakeoff.columns) == ["dataset", "classifier", "resample", "accuracy"]
    assert len(bakeoff) == BAKEOFF.N_DATASETS * 2 * BAKEOFF.N_RESAMPLES
    assert bakeoff["dataset"].nunique() == BAKEOFF.N_DATASETS
    assert sorted(bakeoff["classifier"].unique()) == sorted(BAKEOFF.CLASSIFIERS)
    resamples = bakeoff.groupby(["dataset", "classifier"])["resample"]
    assert resamples.apply(lambda r: sorted(r) == list(range(30))).all()
    assert int(bakeoff["accuracy"].isna().sum()) == BAKEOFF.N_MISSING
    assert bakeoff["accuracy"].between(0, 1).all()
    # the 30 data sets the paper adds, e.g. equal-length versions of UCR data
    assert bakeoff["dataset"].str.contains(r"_(?:eq|nmv|disc)$").any()


def test_bakeoff_cells_match_the_source(bakeoff):
    cells = bakeoff.set_index(["dataset", "classifier", "resample"])["accuracy"]
    for key, value in BAKEOFF.SPOT_VALUES.items():
        assert cells.loc[key] == value, key


def test_bakeoff_means_are_table_c4(bakeoff):
    means = bakeoff.groupby(["dataset", "classifier"])["accuracy"].mean()
    for key, printed in BAKEOFF.TABLE_C4_MEANS.items():
        assert abs(means.loc[key] - printed) <= 5e-10, key


def test_bakeoff_friedman_on_fold_means(bakeoff):
    wide = nbstats.score_table(
        bakeoff,
        case="dataset",
        algorithm="classifier",
        score="accuracy",
        fold="resample",
        aggregate="mean",
    )
    assert wide.shape == (142, 2)
    result = nbstats.friedman(wide, nan_policy="omit")
    assert (result.n_cases, result.n_algorithms) == (142, 2)
    # the two-algorithm question, on the resample means: scipy's signed-rank test
    ours = nbstats.wilcoxon(
        wide["HC2"], wide["MR-Hydra"], zero_method="wilcox", method="approx"
    )
    scipys = stats.wilcoxon(
        wide["MR-Hydra"], wide["HC2"], zero_method="wilcox", method="approx"
    )
    assert ours.statistic == scipys.statistic
    np.testing.assert_allclose(ours.pvalue, scipys.pvalue, rtol=1e-12)


# -- the listing and the missing-value policy ---------------------------------


def test_describe_lists_every_data_set():
    info = nbstats.datasets.describe()
    assert list(info.index) == nbstats.datasets.names()
    expected = {
        "tsc_bakeoff2024_folds": ("long", 142, 2, 30, 0),
        "fernandez_delgado2014": ("wide", 121, 179, 1, DELGADO.N_MISSING),
        "fernandez_delgado2014_top50": ("wide", 121, 50, 1, DELGADO.N_MISSING_TOP50),
        "fernandez_delgado2014_multiboost": ("wide", 121, 13, 1, 17),
        "uci_accuracy_folds": ("long", 54, 5, 100, 0),
        "demsar2006": ("wide", 14, 4, 1, 0),
    }
    columns = ["layout", "cases", "algorithms", "folds", "missing"]
    for name, row in expected.items():
        assert tuple(info.loc[name, columns]) == row, name
    assert info["higher_is_better"].all()
    assert info.loc["fernandez_delgado2014", "metric"] == "accuracy (%)"
    assert info["source"].str.contains(r"\(\d{4}\)").all()


@pytest.mark.parametrize(
    "name",
    [
        "fernandez_delgado2014",
        "fernandez_delgado2014_top50",
        "fernandez_delgado2014_multiboost",
    ],
)
def test_friedman_omit_runs_on_the_gapped_tables(name):
    table = nbstats.datasets.load(name)
    complete = table.dropna()
    dropped = len(table) - len(complete)
    assert dropped > 0
    with pytest.warns(UserWarning, match=re.escape(f"dropped {dropped} of 121")):
        result = nbstats.friedman(table, nan_policy="omit")
    assert result.n_cases == len(complete)
    assert list(result.mean_ranks.index) == list(table.columns)
    # Friedman's mean ranks on the complete rows (pandas' average ranks, 1 = best)
    ranks = complete.rank(axis=1, ascending=False).mean()
    np.testing.assert_allclose(result.mean_ranks.to_numpy(), ranks.to_numpy())
    # one-decimal percentages tie often: scipy's tie-corrected statistic
    with pytest.warns(UserWarning, match="dropped"):
        corrected = nbstats.friedman(table, nan_policy="omit", tie_correction=True)
    scipys = stats.friedmanchisquare(*complete.to_numpy().T)
    np.testing.assert_allclose(corrected.statistic, scipys.statistic, rtol=1e-12)
    np.testing.assert_allclose(corrected.pvalue, scipys.pvalue, rtol=1e-9)
