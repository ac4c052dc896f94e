"""Bundled score tables with published results, for examples and tests.

=====================================  ==============================================
name                                   contents
=====================================  ==============================================
``demsar2006``                         Demšar (2006) Table 6: AUC of C4.5, C4.5+m,
                                       C4.5+cf and C4.5+m+cf on 14 UCI data sets.
``demsar2006_table2``                  Demšar (2006) Table 2: C4.5 and C4.5+m (same
                                       14 data sets).
``uci_accuracy``                       Mean accuracy over 10×10-fold cross-validation
                                       of nbc, aode, hnb, j48 and j48gr on 54 UCI
                                       data sets (Benavoli, Corani, Demšar &
                                       Zaffalon's tutorial data).
``uci_accuracy_folds``                 The same, one row per (dataset, classifier,
                                       fold): long data with 100 folds per cell.
``tsc_bakeoff2024_folds``              Test accuracy of HC2 and MR-Hydra on 142 time
                                       series data sets, 30 resamples each (long
                                       data; Middlehurst, Schäfer & Bagnall 2024).
``fernandez_delgado2014``              Accuracy (%) of 179 classifiers on 121 data
                                       sets, 449 cells missing (Fernández-Delgado et
                                       al. 2014).
``fernandez_delgado2014_top50``        Its 50 classifiers with the best mean accuracy;
                                       181 cells missing.
``fernandez_delgado2014_multiboost``   Its 13 MultiBoostAB classifiers (long names,
                                       up to 38 characters); 17 cells missing.
=====================================  ==============================================

:func:`describe` lists them with their metric, direction, shape and missing
cells. Every score is "higher is better". A missing cell (NaN) is a run the
authors report no result for; analyse such tables with ``nan_policy="omit"``
(drops the data sets with a gap) or another policy of the input rules (user
guide, "Scores in, checked").

The "voting" row of Table 6
---------------------------
The paper prints C4.5+cf and C4.5+m+cf as 0.975 on "voting" but ranks them 2
and 3: its ranks come from unrounded AUCs. To reproduce the published ranks
(3.143 / 2.000 / 2.893 / 1.964) and everything computed from them, the bundled
table breaks that tie as the paper did, with C4.5+cf = 0.97501. With the rounded
value the mean ranks would be 3.143 / 2.000 / 2.929 / 1.929.

The time series bake off (``tsc_bakeoff2024_folds``)
----------------------------------------------------
Middlehurst, M., Schäfer, P. & Bagnall, A. (2024). Bake off redux: a review and
experimental evaluation of recent time series classification algorithms. Data
Mining and Knowledge Discovery 38. doi:10.1007/s10618-024-01022-1. The
authors' files ``results/best/HC2_accuracy.csv`` and
``results/best/MR-Hydra_accuracy.csv`` under
``tsml_eval/publications/y2023/tsc_bakeoff/`` in
https://github.com/time-series-machine-learning/tsml-eval (BSD-3-Clause),
commit 6270c37ec55db6ecef7fbb28607e75bb760305ee. Columns ``dataset,
classifier, resample, accuracy``: 142 data sets (the 112 UCR problems and the
30 the paper adds) × 2 classifiers × 30 train/test resamples (0–29), accuracy as
a fraction, no cell missing. The names are the authors' codes: HC2 =
HIVE-COTE 2.0, MR-Hydra = MultiROCKET-Hydra. The mean over resamples equals the
paper's Table C4 (corrected in the repository) for its 30 new data sets.

The 179 classifiers (``fernandez_delgado2014*``)
-------------------------------------------------
Fernández-Delgado, M., Cernadas, E., Barro, S. & Amorim, D. (2014). Do we need
hundreds of classifiers to solve real world classification problems? Journal
of Machine Learning Research 15, 3133–3181. The authors' ``results.txt``
(published beside the paper), as mirrored in
https://github.com/albahnsen/presentation_jmlr_15_delgado14a, commit
f15ee8493bf2a93934b9a8d5db6a40585592f83c. Rows: the 121 data sets; columns: the
classifiers, named as in the file (method, underscore, where it runs:
``_weka``, ``_R``, ``_caret``, ``_C``, ``_matlab``; the paper writes
``parRF_t`` for ``parRF_caret``); accuracy in percent with one decimal; NaN
where the file has ``--``. ``_top50`` keeps the 50 classifiers with the highest
mean accuracy over the data sets they completed; ``_multiboost`` the 13 whose
name starts with ``MultiBoostAB_`` (Weka's MultiBoostAB with 12 named base
learners and without one). Columns keep the file's order.

The rebuild scripts ``tests/data/make_tsc_bakeoff2024_folds.py`` and
``tests/data/make_fernandez_delgado2014.py`` of the source repository write
these files from the sources above.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import pandas as pd

__all__ = ["describe", "load", "names"]


@dataclass(frozen=True)
class _Entry:
    filename: str
    metric: str
    source: str
    # long data: the (case, algorithm, fold, score) columns; None for wide tables
    long: tuple[str, str, str, str] | None = None
    higher_is_better: bool = True


_DEMSAR = "Demšar (2006), JMLR 7"
_BENAVOLI = "Benavoli, Corani, Demšar & Zaffalon (2017), JMLR 18, tutorial data"
_BAKEOFF = "Middlehurst, Schäfer & Bagnall (2024), DMKD 38; tsml-eval results"
_DELGADO = "Fernández-Delgado et al. (2014), JMLR 15; results.txt"
_DATASETS = {
    "demsar2006": _Entry("demsar2006.csv", "AUC", _DEMSAR),
    "demsar2006_table2": _Entry("demsar2006_table2.csv", "AUC", _DEMSAR),
    "uci_accuracy": _Entry(
        "uci_accuracy.csv", "accuracy, mean of 10×10-fold CV", _BENAVOLI
    ),
    "uci_accuracy_folds": _Entry(
        "uci_accuracy_folds.csv.gz",
        "accuracy per fold of 10×10-fold CV",
        _BENAVOLI,
        long=("dataset", "classifier", "fold", "accuracy"),
    ),
    "tsc_bakeoff2024_folds": _Entry(
        "tsc_bakeoff2024_folds.csv.gz",
        "test accuracy per train/test resample",
        _BAKEOFF,
        long=("dataset", "classifier", "resample", "accuracy"),
    ),
    "fernandez_delgado2014": _Entry(
        "fernandez_delgado2014.csv.gz", "accuracy (%)", _DELGADO
    ),
    "fernandez_delgado2014_top50": _Entry(
        "fernandez_delgado2014_top50.csv.gz", "accuracy (%)", _DELGADO
    ),
    "fernandez_delgado2014_multiboost": _Entry(
        "fernandez_delgado2014_multiboost.csv.gz", "accuracy (%)", _DELGADO
    ),
}


def names() -> list[str]:
    """Names accepted by :func:`load`."""
    return list(_DATASETS)


def load(name: str) -> pd.DataFrame:
    """Load a bundled data set.

    Parameters
    ----------
    name : str
        One of :func:`names` (see the module docstring for each one's source,
        and :func:`describe`).

    Returns
    -------
    DataFrame
        Wide data sets: a score table (index = cases, columns = algorithms,
        higher is better, NaN where the source has no result). Long data sets
        (``uci_accuracy_folds``, ``tsc_bakeoff2024_folds``): one row per
        (case, algorithm, fold), e.g. ``dataset, classifier, fold, accuracy``.

    Examples
    --------
    >>> import nbstats
    >>> nbstats.datasets.load("demsar2006").shape
    (14, 4)
    >>> folds = nbstats.datasets.load("uci_accuracy_folds")
    >>> nbstats.score_table(folds, case="dataset", algorithm="classifier",
    ...                     score="accuracy", aggregate="mean").shape
    (54, 5)
    >>> nbstats.datasets.load("fernandez_delgado2014_top50").shape
    (121, 50)
    """
    if name not in _DATASETS:
        raise ValueError(f"unknown data set {name!r}; choose one of {names()}.")
    entry = _DATASETS[name]
    source = resources.files("nbstats.datasets").joinpath("data", entry.filename)
    with resources.as_file(source) as path:
        if entry.long is not None:
            return pd.read_csv(path)
        table = pd.read_csv(path, index_col=0)
    table.columns.name = "algorithm"
    return table


def describe() -> pd.DataFrame:
    """What each bundled data set is, one row per name.

    Returns
    -------
    DataFrame
        Indexed by name, with columns ``layout`` ("wide" or "long"),
        ``cases``, ``algorithms``, ``folds`` (per cell, long data; else 1),
        ``metric``, ``higher_is_better``, ``missing`` (NaN cells of the
        score table, or NaN scores of long data) and ``source`` (details in
        the module docstring).

    Examples
    --------
    >>> import nbstats
    >>> info = nbstats.datasets.describe()
    >>> info.loc["fernandez_delgado2014", ["cases", "algorithms", "missing"]].tolist()
    [121, 179, 449]
    """
    rows = {}
    for name, entry in _DATASETS.items():
        table = load(name)
        if entry.long is None:
            cases, algorithms = table.shape
            folds, missing = 1, int(table.isna().to_numpy().sum())
        else:
            case, algorithm, fold, score = entry.long
            cases, algorithms = table[case].nunique(), table[algorithm].nunique()
            folds = table.groupby([case, algorithm])[fold].nunique().max()
            missing = int(table[score].isna().sum())
        rows[name] = {
            "layout": "wide" if entry.long is None else "long",
            "cases": int(cases),
            "algorithms": int(algorithms),
            "folds": int(folds),
            "metric": entry.metric,
            "higher_is_better": entry.higher_is_better,
            "missing": missing,
            "source": entry.source,
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "name"
    return frame
