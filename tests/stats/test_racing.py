"""Racing: eliminations, limits, executors, errors, and benavoli2015 §7.1 in small."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
from racing_helpers import MEANS, fails_on_instance_7, nan_on_instance_3, noisy_means

import nbstats
from nbstats.stats.racing import RaceError

CANDIDATES = list(range(len(MEANS)))


@pytest.mark.parametrize("method", ["bayes", "frace-sign", "frace-mr"])
def test_race_finds_the_clearly_best_candidate(method):
    res = nbstats.race(
        noisy_means,
        CANDIDATES,
        range(200),
        method=method,
        progress=False,
        random_state=0,
    )
    assert res.winner == "4"
    assert res.stop_reason == "one candidate left"
    assert res.survivors == ["4"]
    assert set(res.eliminations["candidate"]) == {"0", "1", "2", "3"}
    assert len(res.history) == res.evaluations
    # the history is complete: every survivor on every instance until dropped
    counts = res.history.groupby("candidate").size()
    dropped_at = res.eliminations.set_index("candidate")["instances_seen"]
    for name, seen in dropped_at.items():
        assert counts[name] == seen


def test_frace_eliminates_only_against_the_best_with_the_stated_test():
    res = nbstats.race(
        noisy_means, CANDIDATES, range(200), method="frace-sign", progress=False
    )
    assert res.eliminations["reason"].str.contains("sign test").all()
    assert (res.eliminations["by"].notna()).all()


def test_scores_table_has_nan_after_elimination():
    res = nbstats.race(
        noisy_means, CANDIDATES, range(200), method="frace-mr", progress=False
    )
    first = res.eliminations.iloc[0]
    column = res.scores[first["candidate"]]
    assert column.iloc[: first["instances_seen"]].notna().all()
    assert column.iloc[first["instances_seen"] :].isna().all()


def test_limits_budget_steps_and_instances():
    by_budget = nbstats.race(
        noisy_means,
        CANDIDATES,
        range(200),
        method="frace-sign",
        budget=12,
        first_test=2,
        progress=False,
    )
    assert by_budget.stop_reason == "budget exhausted"
    assert by_budget.evaluations <= 12
    by_steps = nbstats.race(
        noisy_means, CANDIDATES, range(200), max_steps=3, progress=False
    )
    assert by_steps.stop_reason == "step limit reached"
    assert by_steps.steps == 3
    assert by_steps.budget_used == 1.0
    short = nbstats.race(noisy_means, CANDIDATES, range(3), progress=False)
    assert short.stop_reason == "instances exhausted"
    # several survivors: the winner is the one with the best mean score
    assert short.winner == short.scores[short.survivors].mean().idxmax()


@pytest.mark.parametrize(
    "make_executor", [lambda: ThreadPoolExecutor(2), lambda: ProcessPoolExecutor(2)]
)
def test_executors_give_identical_races(make_executor):
    plain = nbstats.race(
        noisy_means,
        CANDIDATES,
        range(60),
        method="bayes",
        random_state=3,
        progress=False,
        n_samples=2000,
    )
    with make_executor() as executor:
        pooled = nbstats.race(
            noisy_means,
            CANDIDATES,
            range(60),
            method="bayes",
            random_state=3,
            progress=False,
            n_samples=2000,
            executor=executor,
        )
    pd.testing.assert_frame_equal(plain.history, pooled.history)
    pd.testing.assert_frame_equal(plain.eliminations, pooled.eliminations)
    assert plain.winner == pooled.winner


def test_failing_evaluate_names_candidate_and_instance_and_keeps_results():
    with pytest.raises(
        RaceError, match=r"evaluate\(2, 7\) raised ZeroDivisionError"
    ) as info:
        nbstats.race(
            fails_on_instance_7,
            CANDIDATES,
            range(50),
            method="frace-sign",
            progress=False,
        )
    partial = info.value.partial_result
    assert partial.evaluations == len(partial.history) > 0
    assert partial.history["instance"].max() <= 7


def test_nan_score_is_an_error():
    with pytest.raises(RaceError, match=r"evaluate\(4, 3\) returned nan"):
        nbstats.race(nan_on_instance_3, CANDIDATES, range(50), progress=False)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "irace"}, "unknown method='irace'"),
        ({"budget": 4}, "cannot pay for one step"),
        ({"gamma": 1.2}, "gamma"),
        ({"epsilon": 0.6}, "epsilon"),
        ({"instances_per_step": 0}, "instances_per_step"),
        ({"max_steps": 0}, "max_steps"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        nbstats.race(noisy_means, CANDIDATES, range(50), progress=False, **kwargs)


def test_candidates_must_be_two_and_distinct():
    with pytest.raises(ValueError, match="at least 2 candidates"):
        nbstats.race(noisy_means, [0], range(10), progress=False)
    with pytest.raises(ValueError, match="distinct names"):
        nbstats.race(noisy_means, [1, "1"], range(10), progress=False)


def _section_71(method, q, sigma, rep):
    rng = np.random.default_rng(rep)
    means = rng.uniform(0, 1, q)

    def evaluate(candidate, instance):
        return means[candidate] + np.random.default_rng(
            [rep, candidate, instance]
        ).normal(0, sigma)

    res = nbstats.race(
        evaluate,
        list(range(q)),
        range(10**6),
        method=method,
        max_steps=100,
        instances_per_step=5,
        progress=False,
        random_state=rep,
        n_samples=2000,
    )
    true_rank = np.argsort(np.argsort(-means))[int(res.winner)]
    return true_rank, res.n_indistinguishable, res.budget_used


def test_benavoli2015_section_71_in_small():
    # q = 10 candidates, sigma = 1, 8 races: the Bayesian race declares some
    # candidates indistinguishable, F-race cannot; MAE (|rank of the winner -
    # 1|) is not worse beyond Monte Carlo error. The full-size table is in
    # benchmarks/race_benavoli2015.py.
    bayes = np.array([_section_71("bayes", 10, 1.0, rep) for rep in range(8)])
    frace = np.array([_section_71("frace-sign", 10, 1.0, rep) for rep in range(8)])
    assert bayes[:, 1].sum() > 0
    assert frace[:, 1].sum() == 0
    difference = bayes[:, 0] - frace[:, 0]
    se = (
        difference.std(ddof=1) / np.sqrt(len(difference)) if difference.std() > 0 else 0
    )
    assert difference.mean() <= 2 * se + 0.5
