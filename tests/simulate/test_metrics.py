"""Metrics of rank intervals and of test decisions, on cases worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from nbstats.simulate import metrics
from nbstats.simulate.metrics import rank_interval_metrics

# --- rank intervals ----------------------------------------------------------


def test_uninformative_intervals_under_the_null():
    # m = 3, no true difference (every true rank (m + 1)/2 = 2); all [1, 3]
    got = rank_interval_metrics([1, 1, 1], [3, 3, 3], [2, 2, 2])
    assert got == {
        "fwti": 0.0,
        "fwp": 0.0,
        "ip": 0.0,
        "dp": 0.0,
        "fwdp": 0.0,
        "coverage": 1.0,
        "errors": 0,
    }


def test_narrower_interval_under_the_null_is_a_family_wise_type_i_error():
    # [1, 2], [1, 3], [2, 3]: two intervals narrower than [1, 3] -> FWTI = 1;
    # [1, 2] and [2, 3] share only rank 2, so with strict ranks the first is
    # above the third: 1 of 3 pairs resolved, and wrongly (all truly equal);
    # every interval contains the true rank 2 -> coverage 1
    got = rank_interval_metrics([1, 1, 2], [2, 3, 3], [2, 2, 2])
    assert got["fwti"] == 1.0
    assert got["fwp"] == 1.0
    assert got["ip"] == pytest.approx(1 / 3)
    assert got["dp"] == 0.0
    assert got["coverage"] == 1.0
    assert got["errors"] == 1


def test_fwti_is_undefined_when_the_algorithms_differ():
    got = rank_interval_metrics([1, 1, 1], [3, 3, 3], [1, 2, 3])
    assert math.isnan(got["fwti"])
    assert got["fwp"] == 0.0


def test_partly_resolved_ranking():
    # truth A > B > C; A = [1, 1], B = [2, 3], C = [2, 3]
    # resolved pairs: (A, B), (A, C) of 3 -> IP = 2/3; one single rank -> DP = 1/3
    got = rank_interval_metrics([1, 2, 2], [1, 3, 3], [1, 2, 3])
    assert got["fwp"] == 1.0
    assert got["ip"] == pytest.approx(2 / 3)
    assert got["dp"] == pytest.approx(1 / 3)
    assert got["fwdp"] == 0.0
    assert got["coverage"] == 1.0
    assert got["errors"] == 0


def test_complete_ranking_in_the_wrong_order():
    # truth A > B > C, but the intervals say B > A > C:
    # A = [2, 2], B = [1, 1], C = [3, 3]. All pairs resolved, all single ranks;
    # only C's interval contains its true rank; (A, B) is resolved wrongly.
    got = rank_interval_metrics([2, 1, 3], [2, 1, 3], [1, 2, 3])
    assert got["ip"] == 1.0
    assert got["dp"] == 1.0
    assert got["fwdp"] == 1.0
    assert got["coverage"] == pytest.approx(1 / 3)
    assert got["errors"] == 1


def test_resolving_truly_tied_algorithms_is_an_error():
    # A and B are truly equal (both 1.5), C is last; intervals [1,1], [2,2],
    # [3,3] resolve A above B -> one error; the true rank 1.5 is in no interval
    # of A or B
    got = rank_interval_metrics([1, 2, 3], [1, 2, 3], [1.5, 1.5, 3])
    assert got["errors"] == 1
    assert got["coverage"] == pytest.approx(1 / 3)
    assert math.isnan(got["fwti"])


def test_four_algorithms_by_hand():
    # m = 4, truth [1, 2, 3, 4]; intervals [1,2], [1,2], [3,4], [3,3]
    # resolved: (1,3), (1,4), (2,3), (2,4), and (4,3): [3,3] and [3,4] share
    # rank 3, so the 4th is placed above the 3rd -> IP = 5/6, with 1 error.
    # single ranks: only the 4th -> DP = 1/4; coverage: 1 in [1,2], 2 in [1,2],
    # 3 in [3,4], 4 not in [3,3] -> 3/4.
    got = rank_interval_metrics([1, 1, 3, 3], [2, 2, 4, 3], [1, 2, 3, 4])
    assert got["ip"] == pytest.approx(5 / 6)
    assert got["dp"] == 0.25
    assert got["coverage"] == 0.75
    assert got["fwp"] == 1.0
    assert got["errors"] == 1


def test_series_are_matched_by_algorithm_name():
    names = ["A", "B", "C"]
    lower = pd.Series([2, 1, 3], index=names)
    upper = pd.Series([3, 1, 3], index=names).iloc[::-1]
    truth = pd.Series([3, 1, 2], index=["C", "B", "A"])
    by_name = rank_interval_metrics(lower, upper, truth)
    by_position = rank_interval_metrics([2, 1, 3], [3, 1, 3], [2, 1, 3])
    assert by_name == by_position


@pytest.mark.parametrize(
    ("lower", "upper", "truth", "error"),
    [
        ([2, 1], [1, 2], [1, 2], ValueError),  # lower > upper
        ([0, 1], [1, 2], [1, 2], ValueError),  # below 1
        ([1, 1], [2, 3], [1, 2], ValueError),  # above m
        ([1, 1, 1], [2, 2], [1, 2], ValueError),  # lengths
        ([1], [1], [1], ValueError),  # one algorithm
        ([1, np.nan], [1, 2], [1, 2], ValueError),
        (["1", "2"], [1, 2], [1, 2], TypeError),
        ([[1, 1]], [[1, 2]], [[1, 2]], ValueError),
    ],
)
def test_rank_interval_bad_input(lower, upper, truth, error):
    with pytest.raises(error):
        rank_interval_metrics(lower, upper, truth)


def test_series_with_different_names_are_refused():
    with pytest.raises(ValueError, match="different algorithms"):
        rank_interval_metrics(
            pd.Series([1, 2], index=["A", "B"]),
            pd.Series([1, 2], index=["A", "C"]),
            pd.Series([1, 2], index=["A", "B"]),
        )


# --- test decisions ----------------------------------------------------------


def test_decision_metrics_by_hand():
    # (l0, l1) = (1, 4): "b" when b is better costs 0, "a" when b is better
    # costs l0 = 1, "b" when b is not better costs l1 = 4; the indeterminate
    # one is left out of the loss: (0 + 1 + 4) / 3
    got = metrics.test_decision_metrics(
        ["b", "a", "indeterminate", "b"], [True, True, False, False], loss=(1, 4)
    )
    assert got["rejection_rate"] == 0.5
    assert got["loss"] == pytest.approx(5 / 3)
    assert got["indeterminacy"] == 0.25


def test_decision_metrics_scalar_truth_and_single_decision():
    assert metrics.test_decision_metrics("a", False) == {
        "rejection_rate": 0.0,
        "loss": 0.0,
        "indeterminacy": 0.0,
    }
    got = metrics.test_decision_metrics(["a", "a", "b"], True, loss=(2, 1))
    assert got["rejection_rate"] == pytest.approx(1 / 3)
    assert got["loss"] == pytest.approx(4 / 3)  # two type II errors at l0 = 2
    only = metrics.test_decision_metrics("indeterminate", True)
    assert math.isnan(only["loss"])
    assert only["indeterminacy"] == 1.0


def test_decision_metrics_reads_result_objects():
    class Result:
        decision = "b"

    got = metrics.test_decision_metrics([Result(), "a"], [False, False], loss=(1, 19))
    assert got["loss"] == pytest.approx(19 / 2)


def test_decision_metrics_is_not_collected_as_a_test():
    assert metrics.test_decision_metrics.__test__ is False


@pytest.mark.parametrize(
    ("decisions", "truth", "loss", "error"),
    [
        (["yes"], True, (1, 1), ValueError),
        ([], True, (1, 1), ValueError),
        (["a", "b"], [True], (1, 1), ValueError),
        (["a"], 1.0, (1, 1), TypeError),
        (["a"], True, (0, 1), ValueError),
        (["a"], True, (1,), ValueError),
        (3, True, (1, 1), TypeError),
    ],
)
def test_decision_metrics_bad_input(decisions, truth, loss, error):
    with pytest.raises(error):
        metrics.test_decision_metrics(decisions, truth, loss=loss)


def test_nemenyi_touching_intervals_resolve_six_of_ten_pairs():
    # m = 5, n = 20, perfectly separated: Nemenyi separates only pairs two or
    # more ranks apart, giving these intervals; the supplement reports IP = 60%
    res = rank_interval_metrics([1, 1, 2, 3, 4], [2, 3, 4, 5, 5], [1, 2, 3, 4, 5])
    assert res["ip"] == pytest.approx(0.6)
    assert res["errors"] == 0
    tied_singletons = rank_interval_metrics([2, 2, 1], [2, 2, 3], [2, 2, 2])
    assert tied_singletons["ip"] == 0.0
