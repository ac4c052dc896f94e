"""The report's sentence on the joint statements compares their probability
with the threshold: written by the number policy (three decimals, "> 0.999" above
0.999), and never a comparison that reads false once rounded (review P7).

The expected sentences are written by hand from the probabilities.
"""

from __future__ import annotations

import re

import pytest

import nbstats
import nbstats.reporting
from nbstats.reporting.bayesian import joint_relation


@pytest.mark.parametrize(
    ("value", "threshold", "above", "expected"),
    [
        (0.9623, 0.95, True, "0.962 > 0.95"),
        # 4 significant figures wrote "1": a probability never shown as 1
        (0.99996, 0.95, True, "> 0.999 > 0.95"),
        # "0.950 > 0.95" would read false: the true comparison alone
        (0.95004, 0.95, True, "> 0.95"),
        (0.9504, 0.95, True, "> 0.95"),
        (0.9506, 0.95, True, "0.951 > 0.95"),
        (0.9995, 0.9999, True, "> 0.9999"),
        (0.8123, 0.95, False, "0.812 ≤ 0.95"),
        (0.9496, 0.95, False, "0.950 ≤ 0.95"),
        (0.0004, 0.95, False, "< 0.001 ≤ 0.95"),
        (0.9993, 0.9995, False, "≤ 0.9995"),
    ],
)
def test_joint_relation(value, threshold, above, expected):
    assert joint_relation(value, threshold, above=above) == expected


def test_report_sentence_uses_the_policy():
    table = nbstats.datasets.load("demsar2006")
    text = nbstats.reporting.report_text(
        table, rope=0.01, random_state=0, layout="standard"
    )
    flat = " ".join(text.split())
    found = re.search(r"posterior probability ((?:[<>] )?[0-9.]+ )?[>≤] 0\.95", flat)
    assert found is not None
    # three decimals or a bound, never four significant figures
    number = found.group(1)
    if number:
        assert re.fullmatch(r"(?:[<>] )?\d\.\d{3} ", number), number
