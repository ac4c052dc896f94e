"""The report's Bayesian table gives every IDP probability as an interval
(issue 26, item 3): P(first better), P(rope) and P(second better), each
"lower to upper" over the prior set, and the caption states the decision
rule on the bounds. Before, P(better) had two columns and P(rope) one number
taken at one end of the prior set.
"""

from __future__ import annotations

import nbstats
from nbstats.reporting.bayesian import signrank_frame
from nbstats.results.number_policy import format_number


def _text(low: float, high: float) -> str:
    return (
        f"{format_number(low, 'probability')} to {format_number(high, 'probability')}"
    )


def test_signrank_table_shows_every_interval():
    table = nbstats.datasets.load("demsar2006") * 100
    res = nbstats.bayes_signrank_pairs(table, rope=1, random_state=0, interval=False)
    frame, caption = signrank_frame(res)
    assert list(frame.columns[:3]) == ["P(first better)", "P(rope)", "P(second better)"]
    for row in res.pairs.itertuples(index=False):
        cells = frame.loc[f"{row.b} vs {row.a}"]
        # the row names b first: its "first better" is P(b better)
        assert cells["P(first better)"] == _text(
            row.prob_right_lower, row.prob_right_upper
        )
        assert cells["P(rope)"] == _text(row.prob_rope_lower, row.prob_rope_upper)
        assert cells["P(second better)"] == _text(
            row.prob_left_lower, row.prob_left_upper
        )
        # swapping the pair (the function on (b, a)) gives the same P(rope)
        alone = nbstats.bayes_signrank(
            table[row.b], table[row.a], rope=1, random_state=0
        )
        assert cells["P(rope)"] == _text(alone.prob_rope_lower, alone.prob_rope_upper)
    assert "lower to upper" in caption
    assert "lower probability exceeds it" in caption
    assert "undecided when no upper probability does" in caption
    assert "indeterminate otherwise" in caption


def test_single_prior_table_keeps_one_number():
    table = nbstats.datasets.load("demsar2006") * 100
    res = nbstats.bayes_signrank_pairs(
        table, prior="bb", rope=1, random_state=0, interval=False
    )
    frame, caption = signrank_frame(res)
    assert list(frame.columns[:2]) == ["P(better)", "P(rope)"]
    assert "lower" not in caption


def test_joint_caption_says_lower_under_idp():
    from nbstats.reporting.bayesian import _joint_caption

    table = nbstats.datasets.load("demsar2006")
    kw = {"test": "signrank", "s": 2.0, "n_samples": 2000, "random_state": 0}
    robust = _joint_caption(nbstats.bayes_posthoc(table, prior="idp", **kw))
    assert "under the near-ignorance prior, s = 2" in robust
    assert "sorted by lower posterior probability (prob)" in robust
    assert "joint: lower probability (for every prior of the set)" in robust
    point = _joint_caption(nbstats.bayes_posthoc(table, prior="point", **kw))
    assert "lower" not in point
