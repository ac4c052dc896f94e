"""Bayesian results the plot tests draw (bundled UCI accuracies, fixed seeds)."""

from __future__ import annotations

import pandas as pd
import pytest

import nbstats


@pytest.fixture(scope="module")
def uci() -> pd.DataFrame:
    return nbstats.datasets.load("uci_accuracy")


@pytest.fixture(scope="module")
def idp(uci):
    """IDP posterior of nbc vs j48: lower 0.737 / upper 0.816 (cf. 2014 Fig. 1)."""
    return nbstats.bayes_signrank(uci["nbc"], uci["j48"], random_state=0)


@pytest.fixture(scope="module")
def bb(uci):
    return nbstats.bayes_signrank(uci["nbc"], uci["aode"], prior="bb", random_state=1)


@pytest.fixture(scope="module")
def rope_point(uci):
    """The published figure: (0.000, 0.125, 0.875) for nbc vs aode, rope 0.01."""
    return nbstats.bayes_signrank(
        uci["nbc"], uci["aode"], prior="point", rope=0.01, random_state=0
    )


@pytest.fixture(scope="module")
def sign(uci):
    return nbstats.bayes_sign_test(uci["nbc"], uci["j48"], random_state=0)


@pytest.fixture(scope="module")
def friedman3(uci):
    return nbstats.bayes_friedman(uci[["nbc", "aode", "j48"]])
