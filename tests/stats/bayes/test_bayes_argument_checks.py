"""Every argument of the public Bayesian functions is checked up front (issue 37).

A wrong type and a wrong value of each argument raise ``TypeError`` or
``ValueError`` whose message names the argument, never a raw Python error
from inside (``'<' not supported``, ``is not iterable``…), and whether or
not the argument is used on that path (``random_state`` of the ellipsoid,
``n_permutations`` without the permutation calibration). The calls fail
before any draw, so each takes milliseconds.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

import nbstats
from nbstats import simulate
from nbstats.util import memory

RAW = re.compile(
    r"not supported between|is not (iterable|subscriptable|callable)|"
    r"could not convert|has no attribute|object is not|unhashable"
)

TABLE = nbstats.datasets.load("demsar2006")
A, B = TABLE["C4.5"], TABLE["C4.5+m"]
FOLDS = pd.DataFrame(
    {
        "dataset": np.repeat(["d1", "d2"], 20),
        "classifier": np.tile(np.repeat(["x", "y"], 10), 2),
        "fold": np.tile(np.arange(10), 4),
        "accuracy": np.random.default_rng(0).uniform(0.7, 0.9, 40),
    }
)
LONG = {"case": "dataset", "algorithm": "classifier", "score": "accuracy"}
WIDE_A = np.random.default_rng(1).uniform(0.7, 0.9, (3, 10))

FLAG = ("no", 2)
FRACTION = ("0.1", 1.5)
COUNT = ("1", -1)
STRENGTH = ("1", -1.0)
ROPE = ("0.1", -0.5)
SEED = ("x", -1)
LOSS = ("1,19", (0, 1))
PROGRESS = ("no", 2)

COMMON = {
    "higher_is_better": FLAG,
    "random_state": SEED,
    "n_samples": COUNT,
    "s": STRENGTH,
}

CASES = {
    "bayes_signrank": (
        lambda **kw: nbstats.bayes_signrank(A, B, **kw),
        {
            **COMMON,
            "prior": ("jeffreys", 1.5),
            "prior_at": ("x", float("inf")),
            "rope": ROPE,
            "threshold": FRACTION,
            "loss": LOSS,
            "method": ("exact", 1.5),
            "progress": PROGRESS,
            "nan_policy": ("drop", 1.5),
        },
    ),
    "bayes_signrank_pairs": (
        lambda **kw: nbstats.bayes_signrank_pairs(TABLE, **kw),
        {
            **COMMON,
            "prior": ("jeffreys", 1.5),
            "prior_at": ("x", float("nan")),
            "rope": ROPE,
            "threshold": FRACTION,
            "loss": LOSS,
            "method": ("exact", 1.5),
            "progress": PROGRESS,
            "interval": FLAG,
            "joint": ("yes", 2),
            "mc_error": ("0.01", 0.9),
        },
    ),
    "bayes_sign_test": (
        lambda **kw: nbstats.bayes_sign_test(A, B, **kw),
        {
            **COMMON,
            "prior_at": ("middle", 1.5),
            "rope": ROPE,
            "threshold": FRACTION,
            "loss": LOSS,
        },
    ),
    "bayes_friedman": (
        lambda **kw: nbstats.bayes_friedman(TABLE, **kw),
        {
            **COMMON,
            "threshold": FRACTION,
            "method": ("exact", 1.5),
            "calibration": ("bootstrap", 1.5),
            "n_permutations": COUNT,
            "nan_policy": ("drop", 1.5),
        },
    ),
    "bayes_posthoc": (
        lambda **kw: nbstats.bayes_posthoc(TABLE, **kw),
        {
            **COMMON,
            "threshold": FRACTION,
            "test": ("ttest", 1.5),
            "rope": ROPE,
            "prior_at": ("middle", 1.5),
            "prior": ("jeffreys", 1.5),
            "groups": FLAG,
            "progress": PROGRESS,
            "mc_error": ("0.01", 0.9),
        },
    ),
    "bayes_plackett_luce": (
        lambda **kw: nbstats.bayes_plackett_luce(TABLE, **kw),
        {
            **COMMON,
            "level": FRACTION,
            "nan_policy": ("pairwise", 1.5),
            "progress": PROGRESS,
        },
    ),
    "correlated_ttest": (
        lambda **kw: nbstats.correlated_ttest(WIDE_A[0], WIDE_A[1], **kw),
        {
            "folds": ("10", -1),
            "level": FRACTION,
            "alternative": ("bigger", 1.5),
            "higher_is_better": FLAG,
        },
    ),
    "bayes_correlated_ttest": (
        lambda **kw: nbstats.bayes_correlated_ttest(WIDE_A[0], WIDE_A[1], **kw),
        {
            "folds": ("10", -1),
            "rope": ROPE,
            "threshold": FRACTION,
            "loss": LOSS,
            "higher_is_better": FLAG,
        },
    ),
    "correlated_pairs": (
        lambda **kw: nbstats.correlated_pairs(
            FOLDS, **{**LONG, "fold": "fold", "folds": 10, **kw}
        ),
        {
            "case": ("zzz", 1.5),
            "algorithm": ("zzz", 1.5),
            "score": ("zzz", 1.5),
            "fold": ("zzz", ["fold", "zzz"]),
            "pairs": (1.5, object()),
            "rope": ROPE,
            "threshold": FRACTION,
            "loss": LOSS,
            "higher_is_better": FLAG,
        },
    ),
    "bayes_hierarchical": (
        lambda **kw: nbstats.bayes_hierarchical(
            WIDE_A, WIDE_A + 0.01, **{"folds": 10, **kw}
        ),
        {
            **COMMON,
            "rope": ROPE,
            "threshold": FRACTION,
            "loss": LOSS,
            "level": FRACTION,
            "chains": COUNT,
            "warmup": COUNT,
        },
    ),
    "race": (
        lambda **kw: nbstats.race(
            **{
                "evaluate": lambda c, i: float(c),
                "candidates": [0.0, 1.0],
                "instances": range(20),
                **kw,
            }
        ),
        {
            "evaluate": ("f", 1),
            "candidates": (1.5, object()),
            "instances": (1.5, object()),
            "method": ("irace", 1.5),
            "threshold": FRACTION,
            "epsilon": ("0.1", 0.6),
            "alpha": FRACTION,
            "s": STRENGTH,
            "budget": COUNT,
            "max_steps": COUNT,
            "instances_per_step": COUNT,
            "first_test": ("5", 1),
            "higher_is_better": FLAG,
            "n_samples": COUNT,
            "timeout": ("1", -1),
            "random_state": SEED,
            "progress": PROGRESS,
        },
    ),
    "memory_ceiling": (
        lambda **kw: memory.memory_ceiling(**kw),
        {"value": ("zzz", -1)},
    ),
    "set_memory_ceiling": (
        lambda **kw: memory.set_memory_ceiling(**kw),
        {"value": ("zzz", 1.5)},
    ),
    "challenge_scores": (
        lambda **kw: simulate.challenge_scores(
            **{"n_cases": 10, "n_algorithms": 3, "separability": 1.0, **kw}
        ),
        {
            "n_cases": COUNT,
            "n_algorithms": COUNT,
            "separability": ("1", float("nan")),
            "random_state": SEED,
        },
    ),
    "paired_normal": (
        lambda **kw: simulate.paired_normal(**{"n_cases": 10, "delta": 0.1, **kw}),
        {
            "n_cases": COUNT,
            "sigma": ("1", -1.0),
            "rho": ("0", 1.5),
            "random_state": SEED,
        },
    ),
    "racing_candidates": (
        lambda **kw: simulate.racing_candidates(**{"n_candidates": 3, **kw}),
        {"n_candidates": COUNT, "sigma": ("1", -1.0), "random_state": SEED},
    ),
    "test_decision_metrics": (
        lambda **kw: simulate.test_decision_metrics(
            **{"decisions": ["b"], "truth": [True], **kw}
        ),
        {"decisions": (1.5, ["zzz"]), "loss": LOSS},
    ),
    "summarise": (
        lambda **kw: simulate.summarise(
            pd.DataFrame({"n": [1, 1], "x": [1.0, 2.0]}), **kw
        ),
        {"by": (1.5, "zzz")},
    ),
}


def _shown(value: object) -> str:
    """A test id that is the same in every process (xdist compares them): an
    object's repr carries its address."""
    return "object()" if type(value) is object else repr(value)


PARAMS = [
    pytest.param(function, name, bad, id=f"{function}-{name}-{_shown(bad)}")
    for function, (_, arguments) in CASES.items()
    for name, bads in arguments.items()
    for bad in bads
]


@pytest.mark.parametrize(("function", "name", "bad"), PARAMS)
def test_a_bad_argument_is_refused_by_name(function, name, bad):
    call, _ = CASES[function]
    previous = memory.get_memory_ceiling()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises((TypeError, ValueError)) as refused:
                call(**{name: bad})
    finally:
        memory.set_memory_ceiling(
            previous if previous != memory.DEFAULT_CEILING else None
        )
    message = str(refused.value)
    assert name in message, message
    assert not RAW.search(message), message


def test_resolve_threshold_refuses_a_string():
    from nbstats.stats.bayes.decision import resolve_threshold

    # float("0.1") used to convert it
    with pytest.raises(TypeError, match=r"threshold must be a number in \(0, 1\)"):
        resolve_threshold("0.1", (1, 19))
    assert resolve_threshold(None, (1, 19)) == 0.95
    assert resolve_threshold(0.9, (1, 19)) == 0.9
    # the loss is checked even when an explicit threshold wins over it
    with pytest.raises(TypeError, match="loss must be a pair"):
        nbstats.bayes_signrank(A, B, threshold=0.9, loss="1:19")


def test_memory_ceiling_is_checked_when_called_not_on_entry():
    with pytest.raises(ValueError, match="value='zzz' is not a size"):
        memory.memory_ceiling("zzz")  # no `with`: refused at the call


@pytest.mark.parametrize(
    "call",
    [
        lambda: nbstats.bayes_signrank(A, B, n_samples=100),
        lambda: nbstats.bayes_sign_test(A, B, n_samples=100),
        lambda: nbstats.bayes_friedman(TABLE, method="montecarlo", n_samples=100),
        lambda: nbstats.bayes_posthoc(TABLE, n_samples=100),
    ],
)
def test_the_few_draws_warning_points_at_the_callers_line(call):
    with pytest.warns(UserWarning, match="n_samples=100 draws") as caught:
        call()
    assert caught[0].filename == __file__
