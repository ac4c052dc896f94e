"""The dashboards check their own arguments up front (issue 37): a wrong type
or value raises TypeError/ValueError naming the argument, before any widget."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats.widgets.bayes import BayesDashboard
from nbstats.widgets.folds import FoldDashboard
from nbstats.widgets.frequentist import FrequentistDashboard
from nbstats.widgets.ranks import RankDashboard

RAW = re.compile(
    r"not supported between|is not (iterable|subscriptable|callable)|"
    r"could not convert|has no attribute|object is not|unhashable|"
    r"dictionary update sequence"
)
TABLE = nbstats.datasets.load("demsar2006")
FOLDS = pd.DataFrame(
    {
        "dataset": np.repeat(["d1", "d2"], 20),
        "classifier": np.tile(np.repeat(["x", "y"], 10), 2),
        "fold": np.tile(np.arange(10), 4),
        "accuracy": np.random.default_rng(0).uniform(0.7, 0.9, 40),
    }
)
LONG = {
    "case": "dataset",
    "algorithm": "classifier",
    "score": "accuracy",
    "fold": "fold",
    "folds": 10,
}
FLAG = ("no", 2)

CASES = {
    "FoldDashboard": (
        lambda **kw: FoldDashboard(FOLDS, **{**LONG, **kw}),
        {
            "case": ("zzz", 1.5),
            "fold": ("zzz", 1.5),
            "folds": ("10", -1),
            "runs": ("1", -1),
            "test_fraction": ("0.1", 1.5),
            "rope": ("0.1", -1),
            "loss": ("1,19", (0, 1)),
            "higher_is_better": FLAG,
            "hierarchical": ("yes", 1.5),
            "min_folds": ("2", -1),
        },
    ),
    "BayesDashboard": (
        lambda **kw: BayesDashboard(TABLE, **kw),
        {
            "higher_is_better": FLAG,
            "n_samples": ("1", -1),
            "random_state": ("x", -1),
            "nan_policy": ("drop", 1.5),
            "aliases": ("maybe", 1.5),
            "joint_in_background": FLAG,
        },
    ),
    "RankDashboard": (
        lambda **kw: RankDashboard(TABLE, **kw),
        {
            "higher_is_better": FLAG,
            "random_state": ("x", -1),
            "nan_policy": ("drop", 1.5),
        },
    ),
    "FrequentistDashboard": (
        lambda **kw: FrequentistDashboard(TABLE, **kw),
        {"higher_is_better": FLAG, "nan_policy": ("drop", 1.5)},
    ),
    "dashboard": (
        lambda **kw: nbstats.dashboard(TABLE, **kw),
        {"kind": ("zzz", 1.5), "nan_policy": ("drop", 1.5), "aliases": ("maybe", 1.5)},
    ),
}


@pytest.mark.parametrize(
    ("board", "name", "bad"),
    [
        pytest.param(board, name, bad, id=f"{board}-{name}-{bad!r}")
        for board, (_, arguments) in CASES.items()
        for name, bads in arguments.items()
        for bad in bads
    ],
)
def test_a_bad_argument_is_refused_by_name(board, name, bad):
    make, _ = CASES[board]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises((TypeError, ValueError)) as refused:
            make(**{name: bad})
    message = str(refused.value)
    assert name in message, message
    assert not RAW.search(message), message
