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
    assert res.winner == 4  # the candidate itself, not its name
    assert res.winner_name == "4"
    assert res.stop_reason == "one candidate left"
    assert res.survivors == [4]
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
    assert short.winner_name == short.scores[short.survivor_names].mean().idxmax()
    assert short.winner == short.candidates[short.winner_name]


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
        ({"threshold": 1.2}, "threshold"),
        ({"epsilon": 0.6}, "epsilon"),
        ({"instances_per_step": 0}, "instances_per_step"),
        ({"max_steps": 0}, "max_steps"),
    ],
)
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        nbstats.race(noisy_means, CANDIDATES, range(50), progress=False, **kwargs)


def test_candidates_must_be_two_and_distinct():
    with pytest.raises(ValueError, match="candidates must hold at least 2"):
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


# -- candidates are handed back as the objects given --------------------------


def _by_quality(quality):
    """evaluate() for candidates whose quality quality(candidate) gives."""
    seen = []

    def evaluate(candidate, instance):
        seen.append(candidate)
        rng = np.random.default_rng([instance, int(1000 * quality(candidate))])
        return quality(candidate) + rng.normal(0, 0.05)

    return evaluate, seen


def _race(evaluate, candidates, **kwargs):
    kwargs = {"method": "frace-sign", "progress": False, **kwargs}
    return nbstats.race(evaluate, candidates, range(60), **kwargs)


def test_dict_configurations_come_back_as_the_same_dicts():
    configs = [{"lr": 0.5, "depth": 3}, {"lr": 0.1, "depth": 6}, {"lr": 0.01}]
    evaluate, seen = _by_quality(lambda c: 1 - abs(c["lr"] - 0.1))
    res = _race(evaluate, configs)
    assert all(any(c is given for given in configs) for c in seen)
    assert res.winner is configs[1]
    assert res.survivors == [configs[1]] and res.survivors[0] is configs[1]
    assert res.winner_name == str(configs[1])
    assert list(res.candidates) == [str(c) for c in configs]
    assert all(res.candidates[str(c)] is c for c in configs)
    # the names label the tables, and map back to the dicts
    assert list(res.scores.columns) == [str(c) for c in configs]
    dropped = [res.candidates[name] for name in res.eliminations["candidate"]]
    assert {id(c) for c in dropped} == {id(configs[0]), id(configs[2])}
    assert res.name_of(configs[2]) == str(configs[2])
    assert "winner" in repr(res) and str(configs[1]) in repr(res)
    assert "Race (frace-sign): winner" in res.summary()


def test_tuple_candidates_stay_tuples():
    grid = [(0.5, 3), (0.1, 6), (0.01, 9)]
    evaluate, _ = _by_quality(lambda c: 1 - abs(c[0] - 0.1))
    res = _race(evaluate, grid)
    assert res.winner == (0.1, 6) and isinstance(res.winner, tuple)
    assert res.scores[res.winner_name].notna().all()


def test_unhashable_candidates_lists_and_arrays():
    lists = [[0.5, 3], [0.1, 6], [0.01, 9]]
    evaluate, _ = _by_quality(lambda c: 1 - abs(c[0] - 0.1))
    res = _race(evaluate, lists)
    assert res.winner is lists[1]
    arrays = [np.array(c) for c in lists]
    res = _race(evaluate, arrays, method="bayes", random_state=0, n_samples=2000)
    assert res.winner is arrays[1]
    assert res.name_of(arrays[1].copy()) == str(arrays[1])  # equal, not the same
    with pytest.raises(KeyError, match="not a candidate"):
        res.name_of(np.array([7.0, 7.0]))
    assert str(arrays[1]) in res.summary()


def test_partial_result_of_a_failed_race_keeps_the_objects():
    configs = [{"lr": 0.5}, {"lr": 0.1}]

    def evaluate(config, instance):
        if instance == 4 and config["lr"] == 0.1:
            raise RuntimeError("diverged")
        return config["lr"]

    with pytest.raises(RaceError, match=r"evaluate\(\{'lr': 0.1\}, 4\) raised") as info:
        _race(evaluate, configs)
    partial = info.value.partial_result
    assert partial.survivors[0] is configs[0] and partial.survivors[1] is configs[1]
    assert partial.candidates[str(configs[0])] is configs[0]


def test_race_trace_of_dict_candidates_names_the_winner():
    import matplotlib.pyplot as plt

    configs = [{"lr": 0.5}, {"lr": 0.1}, {"lr": 0.01}]
    evaluate, _ = _by_quality(lambda c: 1 - abs(c["lr"] - 0.1))
    res = _race(evaluate, configs)
    ax = res.plot()
    assert ax.get_title() == "Race (frace-sign): winner {'lr': 0.1}"
    plt.close(ax.figure)
