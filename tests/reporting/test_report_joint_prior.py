"""The report's joint statements use the pairs' own prior (review P1).

Under the near-ignorance prior (the report's default) a pair the pairs table
calls indeterminate must not be accepted as a joint statement: the joint
probability is a lower probability over the prior set, at most the pair's own
lower probability, which is below the threshold.
"""

from __future__ import annotations

import re

import pytest

import nbstats
import nbstats.reporting


@pytest.fixture(scope="module")
def demsar_text() -> str:
    table = nbstats.datasets.load("demsar2006")
    return nbstats.reporting.report_text(
        table, rope=0.02, random_state=0, layout="standard"
    )


def test_an_indeterminate_pair_is_not_a_joint_statement(demsar_text):
    table = nbstats.datasets.load("demsar2006")
    # the pair on its own, under the near-ignorance prior: its lower
    # probability of practical equivalence stays below 0.95 while the upper
    # one exceeds it (under the exact bounds, a pair indeterminate at rope
    # 0.01 is no longer: this one is at 0.02)
    alone = nbstats.bayes_signrank(
        table["C4.5"], table["C4.5+cf"], rope=0.02, prior="idp", random_state=0
    )
    assert alone.decision == "indeterminate"
    assert alone.prob_rope_lower < 0.95 < alone.prob_rope_upper
    section = demsar_text.split("Bayesian comparisons", 1)[1]
    assert re.search(r"C4\.5\+cf vs C4\.5 .*indeterminate", section)
    joint = section.split("Table 7.", 1)[1].split("Figure 2.", 1)[0]
    assert "near-ignorance prior" in joint.split("\n", 1)[0]
    row = re.search(r"^C4\.5\+cf ≈ C4\.5 .*$", joint, flags=re.M)
    assert row is not None and row.group(0).split()[-1] == "no"
    # the joint probability of the statement is at most the pair's lower one
    prob = float(row.group(0).split()[-3])
    assert prob == pytest.approx(alone.prob_rope_lower, abs=0.01)


def test_joint_table_prints_probabilities_by_the_policy(demsar_text):
    # probability and joint probability are both probabilities: 3 decimals
    # (was 0.923 beside 0.9233)
    section = demsar_text.split("Bayesian comparisons", 1)[1]
    joint = section.split("Table 7.", 1)[1].split("Figure 2.", 1)[0]
    rows = re.findall(r"^C4\.5\S* [>≈] \S+ +(\S+) +(\S+) +(yes|no)$", joint, re.M)
    assert len(rows) >= 3
    for prob, together, _ in rows:
        for value in (prob, together):
            assert re.fullmatch(r"\d\.\d{3}", value), value
