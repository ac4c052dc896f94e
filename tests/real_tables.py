"""The real public benchmark tables the tests read, from one place each.

Sources and licences are in ``tests/data/tabzilla/README.md`` and
``tests/data/automl/README.md``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

DATA = Path(__file__).parent / "data"
#: TabZilla's test accuracy: 171 data sets x 42 algorithms, 1,040 holes.
TABZILLA = DATA / "tabzilla" / "tabzilla_accuracy_wide.csv"
#: The AutoML benchmark's small suite, one row per framework x task x fold.
AMLB_SMALL = DATA / "automl" / "amlb_small_8c4h.csv"


def tabzilla_accuracy() -> pd.DataFrame:
    """TabZilla's accuracy table, wide (data sets as rows)."""
    return pd.read_csv(TABZILLA, index_col=0)


def amlb_small_accuracy_folds() -> pd.DataFrame:
    """The AutoML benchmark's per-fold accuracy, long: ``task``,
    ``framework``, ``fold`` and ``acc`` (empty where the run failed)."""
    return pd.read_csv(AMLB_SMALL, usecols=["task", "framework", "fold", "acc"])


#: The same suite on 2 cores for 1 hour: failed folds as absent rows and as
#: empty scores (``acc`` only).
AMLB_SMALL_2C1H = DATA / "automl" / "amlb_small_2c1h_acc.csv"


def amlb_small_2c1h_accuracy_folds() -> pd.DataFrame:
    """The AutoML benchmark's small suite at 2 cores × 1 hour, long: ``task``,
    ``framework``, ``fold`` and ``acc`` (6 runs without a row, 42 without a
    score)."""
    return pd.read_csv(AMLB_SMALL_2C1H)
