"""Every "at most" Monte Carlo error a report states is a bound: never below
the error of the result it describes (rounded up, nbstats.results.monte_carlo)."""

from __future__ import annotations

import re

import nbstats
import nbstats.report


def test_plackett_luce_error_is_not_understated():
    scores = nbstats.datasets.load("demsar2006")
    text = nbstats.report.report_text(scores, random_state=0)
    stated = re.search(
        r"standard error of each P\(best\) is at most ([0-9]+\.[0-9]+)", text
    )
    assert stated is not None, "the Plackett–Luce paragraph states its error"
    # the report's own call (nbstats/report/notebook_core.py), outside it
    result = nbstats.bayes_plackett_luce(scores, random_state=0)
    error = result.mc_error
    assert 0 < error <= float(stated.group(1)) < 1.1 * error + 1e-12
