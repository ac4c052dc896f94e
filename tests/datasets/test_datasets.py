"""Bundled data sets: shapes, names, and agreement with the shared reference data."""

from __future__ import annotations

import numpy as np
import pytest

import nbstats


def test_names():
    assert nbstats.datasets.names() == [
        "demsar2006",
        "demsar2006_table2",
        "uci_accuracy",
        "uci_accuracy_folds",
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
