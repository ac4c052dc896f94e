"""The report's coverage section (scores with holes) and its Methods sentence on
failed folds (min_folds), on real public tables: TabZilla and the AutoML
benchmark (tests/data/tabzilla/README.md, tests/data/automl/README.md)."""

from __future__ import annotations

import re

import nbformat
import pandas as pd
import pytest

import nbstats
from nbstats.reporting import notebook, prepare
from nbstats.reporting.coverage import coverage_paragraph
from nbstats.reporting.methods import failed_folds_sentence
from tests.real_tables import amlb_small_accuracy_folds, tabzilla_accuracy

AMLB = {"case": "task", "algorithm": "framework", "score": "acc", "fold": "fold"}


def _text(nb) -> str:
    parts = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            parts.append(cell.source)
        for output in cell.get("outputs", []):
            assert output.output_type != "error", output
            parts.append(output.get("data", {}).get("text/plain", ""))
    return re.sub(r"\s+", " ", "\n".join(parts))


def test_amlb_report_states_failed_folds_and_coverage(tmp_path):
    data = amlb_small_accuracy_folds()
    path = nbstats.reporting.report(
        data, tmp_path / "amlb.ipynb", min_folds=8, nan_policy="omit",
        analyses=("frequentist",), **AMLB,
    )  # fmt: skip
    text = _text(nbformat.read(path, as_version=4))
    counts = data.groupby(["task", "framework"])["acc"].count()
    failed = int(data["acc"].isna().sum())
    partial = int(((counts >= 8) & (counts < 10)).sum())
    short = int((counts < 8).sum())
    assert (failed, partial, short) == (25, 3, 3)
    # Methods: the fold scores that failed, the cells averaged over fewer
    # folds (8 or 9 of 10), those left missing, and the per-fold tests
    assert (
        f"{failed} of the 800 fold scores were missing (failed runs). {partial} "
        "(case, algorithm) cells are the mean of the 8–9 folds that have a score "
        f"(at least 8 were required); {short} cells with fewer were treated as "
        "missing scores."
    ) in text
    # the data note and Methods never say that every cell averages 10 folds
    assert "each algorithm's 10 fold scores" not in text
    assert "10 cross-validation fold scores on it" not in text
    assert "(10 per case; 25 failed" in text
    assert "fold scores on it (10 when none failed)" in text
    # the coverage section
    assert "# Coverage: the missing scores" in text
    assert (
        "3 of the 80 scores are missing, in 3 of the 16 cases; 1 of the 5 "
        "algorithms has holes: oboe (3). 13 cases are complete." in text
    )
    assert "Complete cases (of 16) for each number of the 5 algorithms kept" in text


def test_tabzilla_report_coverage_section(tmp_path):
    table = tabzilla_accuracy()
    chosen = ["CatBoost", "LightGBM", "XGBoost", "RandomForest", "SVM",
              "TabPFNModel", "NAM", "MLP"]  # fmt: skip
    sub = table[chosen]
    path = nbstats.reporting.report(
        sub, tmp_path / "tabzilla.ipynb", nan_policy="omit",
        analyses=("frequentist",),
    )  # fmt: skip
    text = _text(nbformat.read(path, as_version=4))
    res = nbstats.coverage(sub)
    complete = len(sub.dropna())
    assert res.n_complete == complete
    missing = int(sub.isna().sum().sum())
    assert f"{missing} of the {171 * 8:,} scores are missing" in text
    assert f"{complete} cases are complete" in text
    assert f"use only those {complete} complete cases" in text
    assert "may be a biased subset" in text  # omit drops more than half
    best = res.tradeoff[res.tradeoff["n_cases"] * 2 >= 171].iloc[0]
    kept = sub.drop(columns=list(best["left_out"])).dropna()
    assert len(kept) == best["n_cases"]
    assert f"keeps {best['n_cases']} complete cases for the other" in text


def test_paragraph_words_on_pairwise():
    table = tabzilla_accuracy().iloc[:, :10]
    para = coverage_paragraph(nbstats.coverage(table), "pairwise").text()
    assert "The tests of each pair use every case where both algorithms" in para


@pytest.mark.parametrize(("holes", "shown"), [(False, False), (True, True)])
def test_coverage_section_only_with_holes(holes, shown):
    table = nbstats.datasets.load("demsar2006")
    if holes:
        table.iloc[2, 1] = float("nan")
    given = prepare.prepare(table, nan_policy="omit")
    settings = notebook.make_settings(
        given.complete, title=None, analyses=("frequentist",),
        higher_is_better=True, alpha=0.05, threshold=0.95, s=None, rope=0.0,
        loss=(1, 19), random_state=0, nan_policy="omit",
    )  # fmt: skip
    nb = notebook.build_notebook(given.table, settings)
    headings = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert ("# Coverage: the missing scores" in headings) is shown


def test_report_refuses_failed_folds_without_min_folds(tmp_path):
    data = amlb_small_accuracy_folds()
    with pytest.raises(ValueError, match=r"\('kc1', 'oboe'\): 3 of 10 folds"):
        nbstats.reporting.report(data, tmp_path / "x.html", **AMLB)
    assert not (tmp_path / "x.html").exists()


def test_failed_folds_sentence_without_a_minimum():
    # nan_policy="omit" without min_folds: a cell with a failed fold is missing
    text = failed_folds_sentence(
        {"failed_folds": 1, "cells": 4, "min_folds": 5, "max_folds": 5,
         "minimum": None, "partial_cells": 0, "fewest_folds": 5,
         "short_cells": 1, "fold_tests": False}
    )  # fmt: skip
    assert text.startswith("1 of the 20 fold scores was missing (failed runs). ")
    assert "1 cell with a failed fold was treated as missing scores." in text


def test_amlb_fold_tests_without_min_folds_use_the_cases_with_every_fold(tmp_path):
    # nan_policy="omit" alone: a cell with a failed fold is missing, and the
    # per-fold tests (with no minimum to pair the folds by) use the cases on
    # which every algorithm has every fold; with min_folds see
    # tests/reporting/test_report_folds_failed.py
    data = amlb_small_accuracy_folds()
    path = nbstats.reporting.report(
        data, tmp_path / "amlb.ipynb", nan_policy="omit", runs=1,
        analyses=("frequentist",), **AMLB,
    )  # fmt: skip
    text = _text(nbformat.read(path, as_version=4))
    counts = data.groupby(["task", "framework"])["acc"].count().unstack()
    clean = counts.index[(counts == 10).all(axis=1)]
    assert len(clean) == 11
    assert (
        "The tests of each case on its own folds, which pair the folds of two "
        "algorithms, use only the 11 cases on which every algorithm has every "
        "fold." in text
    )
    section = text[text.index("# Each data set on its own") :]
    section = section[: section.index("# Methods")]
    for task in set(data["task"]) - set(clean):
        assert task not in section


def test_many_algorithms_with_holes_get_a_stated_greedy_search():
    import numpy as np

    from nbstats.reporting import coverage as section

    rng = np.random.default_rng(0)
    values = rng.uniform(size=(40, section.EXACT_UP_TO + 2))
    values[rng.random(values.shape) < 0.05] = np.nan
    res = nbstats.coverage(pd.DataFrame(values), method="greedy")
    para = coverage_paragraph(res, "omit").text()
    assert "a greedy search where an exact one was too costly" in para
    assert "proven best" in res.tradeoff_frame().columns
