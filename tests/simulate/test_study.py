"""study(): settings, row order, seeds per task, executors, errors, progress."""

from __future__ import annotations

import functools
import math
import os
import pickle
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pandas as pd
import pytest

from nbstats.simulate import (
    StudyError,
    challenge_scores,
    expand_settings,
    paired_normal,
    rank_interval_metrics,
    study,
    summarise,
)

# Module-level functions, so that a process pool can pickle them (by reference:
# pytest imports this module as ``test_study`` and forked workers inherit it).


def _mean_difference(pair: pd.DataFrame) -> float:
    return float((pair["b"] - pair["a"]).mean())


def _evaluate_pair(result: float, pair: pd.DataFrame, setting: dict) -> dict:
    return {
        "mean_diff": result,
        "first_a": float(pair["a"].iloc[0]),
        "positive": result > 0,
        "n_seen": len(pair),
        "delta_seen": setting["delta"],
    }


def _seed_generate(random_state, **setting):
    # exposes the seed each task receives
    return {"spawn_key": random_state.spawn_key, "setting": setting}


def _identity(data):
    return data


def _evaluate_seed(result, data, setting):
    s, r = result["spawn_key"][-2:]
    return {"seed_setting": s, "seed_repetition": r}


def _failing_generate(x, random_state=None):
    if x == 1:
        raise ValueError("boom")
    return np.random.default_rng(random_state).random()


def _evaluate_value(result, data, setting):
    return {"value": result}


def _dies_at_x_1(x, random_state=None):
    if x == 1:
        os._exit(3)  # the worker process dies without a word
    return 0.5


class _Metric:
    """evaluate giving ``{"m": value}`` for setting x = 1 and 0.5 elsewhere."""

    def __init__(self, value, other=0.5):
        self.value, self.other = value, other

    def __call__(self, result, data, setting):
        return {"m": self.value if setting["x"] == 1 else self.other}


def _metric_study(value, other=0.5, **kwargs):
    return study(
        lambda x, random_state=None: x,
        _identity,
        _Metric(value, other),
        settings={"x": [0, 1, 2]},
        repetitions=2,
        random_state=0,
        progress=False,
        **kwargs,
    )


def _point_ranks(data):
    # a naive "interval": the observed rank of the mean score, [r, r]
    scores, _ = data
    ranks = scores.mean().rank(ascending=False)
    return ranks, ranks


def _evaluate_intervals(result, data, setting):
    lower, upper = result
    return rank_interval_metrics(lower, upper, data[1])


PAIR_SETTINGS = {"n_cases": [5, 8], "delta": [0.0, 0.1, 0.2]}


def _pair_study(**kwargs):
    return study(
        paired_normal,
        _mean_difference,
        _evaluate_pair,
        settings=kwargs.pop("settings", PAIR_SETTINGS),
        repetitions=kwargs.pop("repetitions", 3),
        random_state=kwargs.pop("random_state", 42),
        progress=kwargs.pop("progress", False),
        **kwargs,
    )


# --- settings and layout -----------------------------------------------------


def test_cartesian_product_and_row_order():
    frame = _pair_study()
    assert frame.columns.tolist() == [
        "n_cases",
        "delta",
        "repetition",
        "mean_diff",
        "first_a",
        "positive",
        "n_seen",
        "delta_seen",
    ]
    assert len(frame) == 2 * 3 * 3
    # settings in key order, the last key fastest; repetitions innermost
    expected = [(n, d, r) for n in (5, 8) for d in (0.0, 0.1, 0.2) for r in range(3)]
    assert list(frame[["n_cases", "delta", "repetition"]].itertuples(index=False)) == [
        tuple(e) for e in expected
    ]
    assert frame.index.equals(pd.RangeIndex(18))
    # each row really ran with its setting
    assert (frame["n_seen"] == frame["n_cases"]).all()
    assert (frame["delta_seen"] == frame["delta"]).all()


def test_expand_settings_forms():
    assert expand_settings({"a": 1, "b": (1, 4)}) == [{"a": 1, "b": (1, 4)}]
    assert expand_settings({"a": np.array([1, 2]), "b": range(2)}) == [
        {"a": 1, "b": 0},
        {"a": 1, "b": 1},
        {"a": 2, "b": 0},
        {"a": 2, "b": 1},
    ]
    assert expand_settings({"w": [[1, 2]]}) == [{"w": [1, 2]}]
    explicit = [{"a": 2}, {"a": 1, "b": 3}]
    assert expand_settings(explicit) == explicit


def test_list_of_settings_keeps_its_order_and_unions_the_keys():
    frame = study(
        _seed_generate,
        _identity,
        _evaluate_seed,
        settings=[{"b": 2}, {"a": 1}],
        repetitions=2,
        random_state=0,
        progress=False,
    )
    assert frame.columns.tolist()[:3] == ["b", "a", "repetition"]
    assert frame["b"].tolist()[:2] == [2, 2]
    assert frame["a"].isna().tolist() == [True, True, False, False]


# --- seeds -------------------------------------------------------------------


def test_each_task_gets_the_seed_of_its_setting_and_repetition():
    frame = study(
        _seed_generate,
        _identity,
        _evaluate_seed,
        settings={"x": [10, 20, 30]},
        repetitions=4,
        random_state=7,
        progress=False,
    )
    assert frame["seed_setting"].tolist() == [s for s in range(3) for _ in range(4)]
    assert frame["seed_repetition"].tolist() == list(range(4)) * 3


def test_more_repetitions_or_later_settings_keep_earlier_rows():
    base = _pair_study(settings={"n_cases": 6, "delta": [0.0, 0.1]}, repetitions=2)
    longer = _pair_study(settings={"n_cases": 6, "delta": [0.0, 0.1]}, repetitions=4)
    pd.testing.assert_frame_equal(
        longer[longer["repetition"] < 2].reset_index(drop=True), base
    )
    wider = _pair_study(
        settings={"n_cases": 6, "delta": [0.0, 0.1, 0.3]}, repetitions=2
    )
    pd.testing.assert_frame_equal(wider.iloc[:4], base)


def test_seed_decides_the_data():
    a = _pair_study(random_state=1)
    b = _pair_study(random_state=1)
    c = _pair_study(random_state=2)
    pd.testing.assert_frame_equal(a, b)
    assert not np.allclose(a["first_a"], c["first_a"])
    # and every task draws different data
    assert a["first_a"].nunique() == len(a)


# --- executors ---------------------------------------------------------------


def test_identical_results_whatever_the_executor():
    serial = _pair_study()
    with ThreadPoolExecutor(2) as pool:
        threads = _pair_study(executor=pool)
        chunked = _pair_study(executor=pool, chunksize=4)
    with ProcessPoolExecutor(2) as pool:
        processes = _pair_study(executor=pool, chunksize=2)
    for other in (threads, chunked, processes, _pair_study(chunksize=5)):
        pd.testing.assert_frame_equal(other, serial, check_exact=True)


def test_functools_partial_in_a_process_pool():
    generate = functools.partial(paired_normal, sigma=0.5)
    kwargs = {"settings": {"n_cases": 4, "delta": 0.1}, "repetitions": 3}
    serial = study(
        generate,
        _mean_difference,
        _evaluate_pair,
        random_state=3,
        progress=False,
        **kwargs,
    )
    with ProcessPoolExecutor(1) as pool:
        remote = study(
            generate,
            _mean_difference,
            _evaluate_pair,
            random_state=3,
            progress=False,
            executor=pool,
            **kwargs,
        )
    pd.testing.assert_frame_equal(remote, serial, check_exact=True)


def test_process_pool_refuses_unpicklable_functions_before_running():
    with ProcessPoolExecutor(1) as pool, pytest.raises(TypeError, match="module level"):
        study(
            paired_normal,
            lambda pair: 0.0,
            _evaluate_pair,
            settings={"n_cases": 4, "delta": 0.0},
            repetitions=1,
            executor=pool,
            progress=False,
        )


# --- errors ------------------------------------------------------------------


def test_failure_names_the_task_and_keeps_the_rows_computed():
    with pytest.raises(StudyError, match=r"\{'x': 1\}, repetition 0") as info:
        study(
            _failing_generate,
            _identity,
            _evaluate_value,
            settings={"x": [0, 1, 2]},
            repetitions=3,
            random_state=0,
            progress=False,
        )
    error = info.value
    assert isinstance(error.__cause__, ValueError)
    assert "ValueError: boom" in str(error)
    assert error.setting == {"x": 1}
    assert error.repetition == 0
    partial = error.partial_results
    assert partial.columns.tolist() == ["x", "repetition", "value"]
    assert partial["x"].tolist() == [0, 0, 0]
    # the rows are the ones a successful study would have produced
    ok = study(
        _failing_generate,
        _identity,
        _evaluate_value,
        settings=[{"x": 0}],
        repetitions=3,
        random_state=0,
        progress=False,
    )
    pd.testing.assert_frame_equal(partial, ok)
    # the error survives pickling (e.g. when a study itself runs in a worker)
    clone = pickle.loads(pickle.dumps(error))
    assert clone.repetition == 0
    pd.testing.assert_frame_equal(clone.partial_results, partial)


def test_failure_in_a_pool_reports_the_first_failed_task():
    # the same study with a harmless second setting: seeds depend on the
    # setting's position, so settings 0 and 2 give the rows to expect
    reference = study(
        _failing_generate,
        _identity,
        _evaluate_value,
        settings={"x": [0, 3, 2]},
        repetitions=3,
        random_state=0,
        progress=False,
    )
    full = {x: rows for x, rows in reference.groupby("x")}
    with ThreadPoolExecutor(2) as pool, pytest.raises(StudyError) as info:
        study(
            _failing_generate,
            _identity,
            _evaluate_value,
            settings={"x": [0, 1, 2]},
            repetitions=3,
            random_state=0,
            progress=False,
            executor=pool,
        )
    error = info.value
    assert (error.setting, error.repetition) == ({"x": 1}, 0)
    partial = error.partial_results
    # whatever finished is kept, in order, and equal to the serial rows
    assert partial["x"].is_monotonic_increasing
    assert 1 not in set(partial["x"])
    for x, rows in partial.groupby("x"):
        expected = full[x].set_index("repetition").loc[rows["repetition"]]
        np.testing.assert_array_equal(rows["value"], expected["value"])


def test_bad_metrics_are_reported_as_task_failures():
    def as_list(result, data, setting):
        return [1, 2]

    with pytest.raises(StudyError, match="dict of metrics") as info:
        study(
            paired_normal,
            _identity,
            as_list,
            settings={"n_cases": 4, "delta": 0.0},
            repetitions=1,
            progress=False,
        )
    assert isinstance(info.value.__cause__, TypeError)

    def clashing(result, data, setting):
        return {"delta": 1.0}

    with pytest.raises(StudyError, match="name of a setting key"):
        study(
            paired_normal,
            _identity,
            clashing,
            settings={"n_cases": 4, "delta": 0.0},
            repetitions=1,
            progress=False,
        )


@pytest.mark.parametrize(
    ("value", "cause", "words"),
    [
        ("0.5", TypeError, "metric 'm' is the text '0.5', which reads as a number"),
        ("nan", TypeError, "reads as a number"),
        (None, TypeError, "metric 'm' is None, not a number"),
        (1 + 2j, TypeError, "metric 'm' is (1+2j), a complex number"),
        (np.complex64(1), TypeError, "a complex number"),
        (object(), TypeError, "of type object, not a real number"),
        (math.nan, ValueError, "metric 'm' is NaN. If NaN means 'undefined'"),
        (np.float32("nan"), ValueError, "allow_nan=['m']"),
    ],
)
def test_metrics_that_are_not_numbers_fail_their_task(value, cause, words):
    with pytest.raises(StudyError, match=r"\{'x': 1\}, repetition 0") as info:
        _metric_study(value)
    error = info.value
    assert isinstance(error.__cause__, cause)
    assert words in str(error)
    assert (error.setting, error.repetition) == ({"x": 1}, 0)
    # the rows before the failed task are kept
    assert error.partial_results["x"].tolist() == [0, 0]
    assert error.partial_results["m"].tolist() == [0.5, 0.5]


def test_metric_kinds_that_are_accepted():
    for value, other in [
        (np.float32(0.25), 0.5),
        (np.int64(3), 0.5),
        (7, np.float64(0.5)),
        (-math.inf, 0.5),  # visible in any mean: not refused
        (True, False),
        (np.bool_(False), True),
        ("a", "b"),  # labels, e.g. decisions
    ]:
        frame = _metric_study(value, other)
        assert frame["m"].tolist() == [other, other, value, value, other, other]
    # a metric of mixed kinds would be an object column summarise leaves out
    with pytest.raises(StudyError, match="must keep one kind") as info:
        _metric_study("b")
    assert isinstance(info.value.__cause__, TypeError)
    assert "metric 'm' is 'b' (text) here but a number in row 0" in str(info.value)


def test_nan_metrics_allowed_by_name_or_all():
    for allow_nan in (True, ["m"], ("m", "other")):
        frame = _metric_study(math.nan, allow_nan=allow_nan)
        assert frame["m"].isna().tolist() == [False, False, True, True, False, False]
        # summarise leaves the undefined values out: nothing left at x = 1
        assert np.isnan(summarise(frame).loc[1, ("m", "mean")])
    with pytest.raises(StudyError, match="allow_nan"):
        _metric_study(math.nan, allow_nan=["other"])


def test_dying_worker_is_a_study_error_with_the_rows_kept():
    with ProcessPoolExecutor(1) as pool, pytest.raises(StudyError) as info:
        study(
            _dies_at_x_1,
            _identity,
            _evaluate_value,
            settings={"x": [0, 1]},
            repetitions=2,
            random_state=0,
            progress=False,
            executor=pool,
        )
    error = info.value
    assert isinstance(error.__cause__, BrokenProcessPool)
    assert "a worker process died" in str(error)
    assert error.setting == {"x": 1}
    assert error.partial_results["x"].tolist() == [0, 0]


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"repetitions": 0}, ValueError),
        ({"repetitions": 2.0}, TypeError),
        ({"settings": "n_cases=4"}, TypeError),
        ({"settings": []}, ValueError),
        ({"settings": {"n_cases": []}}, ValueError),
        ({"settings": [{"n_cases": 4}, 5]}, TypeError),
        ({"settings": {"random_state": 1}}, ValueError),
        ({"settings": {"repetition": 1}}, ValueError),
        ({"settings": {1: 2}}, TypeError),
        ({"executor": "threads"}, TypeError),
        ({"progress": "yes"}, TypeError),
        ({"chunksize": 0}, ValueError),
        ({"allow_nan": "loss"}, TypeError),
        ({"allow_nan": [1]}, TypeError),
        ({"allow_nan": None}, TypeError),
    ],
)
def test_bad_arguments(kwargs, error):
    args = {
        "settings": {"n_cases": 4, "delta": 0.0},
        "repetitions": 1,
        "progress": False,
        **kwargs,
    }
    with pytest.raises(error):
        study(paired_normal, _identity, _evaluate_pair, **args)


def test_functions_must_be_callable():
    with pytest.raises(TypeError, match="analyse"):
        study(paired_normal, None, _evaluate_pair, settings={}, repetitions=1)


# --- progress ----------------------------------------------------------------


def test_no_progress_output_when_off_or_under_pytest(capsys):
    _pair_study(progress=False)
    _pair_study(progress=None)  # stderr is not a terminal under pytest
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ""


def test_progress_bar_when_asked(capsys):
    _pair_study(progress=True, repetitions=2)
    err = capsys.readouterr().err
    assert "study" in err
    assert "12/12" in err


# --- summarise ---------------------------------------------------------------


def test_summarise_by_hand():
    frame = pd.DataFrame(
        {
            "f": [0.5, 0.5, 0.5, 1.0, 1.0, 1.0],
            "repetition": [0, 1, 2, 0, 1, 2],
            "fwp": [1.0, 0.0, 1.0, 1.0, 1.0, 1.0],
            "loss": [1.0, math.nan, 3.0, 0.0, 0.0, 0.0],
            "resolved": [True, False, False, True, True, True],
        }
    )
    table = summarise(frame)
    assert table.index.name == "f"
    assert table.index.tolist() == [0.5, 1.0]
    assert table.columns.tolist() == [
        ("fwp", "mean"),
        ("fwp", "se"),
        ("loss", "mean"),
        ("loss", "se"),
        ("resolved", "mean"),
        ("resolved", "se"),
    ]
    # fwp at 0.5: mean 2/3, sd sqrt(1/3), se sqrt(1/3)/sqrt(3) = 1/3
    assert table.loc[0.5, ("fwp", "mean")] == pytest.approx(2 / 3)
    assert table.loc[0.5, ("fwp", "se")] == pytest.approx(1 / 3)
    # the missing loss is left out: mean of (1, 3) = 2, se = sqrt(2)/sqrt(2) = 1
    assert table.loc[0.5, ("loss", "mean")] == 2.0
    assert table.loc[0.5, ("loss", "se")] == pytest.approx(1.0)
    assert table.loc[1.0, ("fwp", "se")] == 0.0
    assert table.loc[0.5, ("resolved", "mean")] == pytest.approx(1 / 3)


def test_summarise_by_and_whole_table():
    frame = _pair_study()
    by_delta = summarise(frame, by="delta")
    assert by_delta.index.tolist() == [0.0, 0.1, 0.2]
    # n_cases is numeric, so it becomes a metric when not grouped by
    assert ("n_cases", "mean") in by_delta.columns
    means = frame.groupby("delta")["mean_diff"].mean()
    np.testing.assert_allclose(by_delta[("mean_diff", "mean")], means)
    whole = summarise(frame, by=[])
    assert len(whole) == 1
    assert whole[("mean_diff", "mean")].iloc[0] == pytest.approx(
        frame["mean_diff"].mean()
    )
    two = summarise(frame)
    assert two.index.names == ["n_cases", "delta"]
    assert len(two) == 6


def test_summarise_bad_input():
    with pytest.raises(ValueError, match="repetition"):
        summarise(pd.DataFrame({"x": [1.0]}))
    with pytest.raises(ValueError, match="unknown"):
        summarise(pd.DataFrame({"x": [1.0], "repetition": [0]}), by=["y"])
    with pytest.raises(TypeError):
        summarise({"x": [1.0]})


# --- end to end --------------------------------------------------------------


def test_challenge_study_with_rank_interval_metrics():
    # point "intervals" [r, r] from the observed mean scores: always a
    # complete ranking, so FWTI = 1 under the null; with a wide separation
    # and many cases the ranking is right
    frame = study(
        challenge_scores,
        _point_ranks,
        _evaluate_intervals,
        settings=[
            {"n_cases": 20, "n_algorithms": 4, "separability": 0.0},
            {"n_cases": 200, "n_algorithms": 4, "separability": 4.0},
        ],
        repetitions=5,
        random_state=0,
        progress=False,
        allow_nan=["fwti"],  # undefined when the algorithms differ
    )
    table = summarise(frame, by="separability")
    assert table.loc[0.0, ("fwti", "mean")] == 1.0
    assert table.loc[0.0, ("fwdp", "mean")] == 1.0
    assert np.isnan(table.loc[4.0, ("fwti", "mean")])
    assert table.loc[4.0, ("errors", "mean")] == 0.0
    assert table.loc[4.0, ("coverage", "mean")] == 1.0
