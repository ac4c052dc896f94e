"""Key figures of the Bayesian Friedman and hierarchical summaries follow the
number policy (a probability never prints as "1", statistics with 2 decimals).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

import nbstats


def _line(summary: str, label: str) -> str:
    line = next(x for x in summary.splitlines() if x.startswith(label))
    return line.split(":", 1)[1].strip()


def test_bayes_friedman_key_figures_by_kind():
    table = nbstats.datasets.load("demsar2006")
    text = nbstats.bayes_friedman(table, random_state=0).summary()
    assert re.fullmatch(r"\d+\.\d\d", _line(text, "distance² of equal ranks"))
    assert re.fullmatch(r"\d+\.\d\d", _line(text, "threshold at 0.95"))
    assert re.fullmatch(r"0\.\d{3}|> 0\.999|< 0\.001", _line(text, "credibility"))


def test_a_certain_credibility_prints_as_a_probability():
    # one algorithm far ahead on every case: the credibility is 1 to machine
    # precision, which the policy writes "> 0.999", never "1"
    rng = np.random.default_rng(0)
    table = pd.DataFrame(rng.normal(0, 1, (40, 4)), columns=list("ABCD"))
    table["A"] += 10
    text = nbstats.bayes_friedman(table, random_state=0).summary()
    assert _line(text, "credibility") == "> 0.999"
