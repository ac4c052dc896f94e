"""Decision helpers of the Bayesian tests."""

from __future__ import annotations

import numpy as np
import pytest

from nbstats.stats.bayes.decision import decide, region_shares


def test_region_shares_equal_argmax_with_ties_to_the_first():
    rng = np.random.default_rng(0)
    # coarse values: many exact ties between regions
    values = rng.integers(0, 4, size=(20_000, 3)) / 4
    shares = region_shares(values[:, 0], values[:, 1], values[:, 2])
    expected = np.bincount(np.argmax(values, axis=1), minlength=3) / len(values)
    np.testing.assert_array_equal(shares, expected)
    assert shares.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("lower", "upper", "expected"),
    [(0.96, 0.99, "b"), (0.90, 0.95, "undecided"), (0.90, 0.97, "indeterminate")],
)
def test_decide_by_threshold(lower, upper, expected):
    """P(b better) between ``lower`` and ``upper`` (IDP), no rope; P(a better)
    between 1 − upper and 1 − lower."""
    left = (1 - upper, None, lower)
    assert decide(*left, 0.95, upper=(1 - lower, None, upper)) == expected
