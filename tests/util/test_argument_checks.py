"""Every public function refuses a wrong argument by its name (issue 37, item 2).

For each callable in ``nbstats.__all__`` and each of its parameters, the
function is called with a valid base call (``BASE``) in which that one
argument is replaced by a value of the wrong type (drawn by Hypothesis where
a strategy fits) and by a value of the right type that is not allowed. The
call must raise ``TypeError`` or ``ValueError`` whose message names the
parameter, and never one of Python's own errors from inside the computation
(``'<' not supported between …``, ``… is not iterable``, ``could not convert
…``, ``… has no attribute …``), which tell the user nothing about the
argument.

The checks must come before any work and whether the argument is used on
the path taken or not, so a valid base call that does not use an argument
(``random_state`` with a method that does not draw, ``n_algorithms`` with an
adjustment that does not need it) still refuses a wrong one.
"""

from __future__ import annotations

import contextlib
import inspect
import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nbstats
import nbstats.reporting

#: A fast message that is Python's, not nbstats': the argument is not named.
RAW = re.compile(
    r"not supported between|is not (iterable|subscriptable|callable)"
    r"|could not convert|has no attribute"
)

T = nbstats.datasets.load("demsar2006")
A, B = T["C4.5"], T["C4.5+m"]
F = nbstats.datasets.load("uci_accuracy_folds")
_AN = F[F.dataset == "anneal"].pivot(
    index="fold", columns="classifier", values="accuracy"
)
F3 = F[F.dataset.isin(sorted(F.dataset.unique())[:4])]
LONG = {
    "case": "dataset",
    "algorithm": "classifier",
    "score": "accuracy",
    "fold": "fold",
}


class Reached(Exception):
    """The report got past its checks to the notebook (which is not run)."""


def _stop(*args: object, **kwargs: object) -> None:
    raise Reached


#: A valid call of each public function: (positional arguments, keywords).
BASE: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "adjust_pvalues": ((np.array([0.01, 0.02, 0.04]),), {}),
    "analyze": ((T,), {"bayes": False}),
    "bayes_correlated_ttest": ((_AN["nbc"], _AN["aode"]), {"runs": 10}),
    "bayes_friedman": ((T,), {"n_samples": 2000}),
    "bayes_hierarchical": (
        ("nbc", "aode"),
        # seeded: a short unseeded run had a divergent transition now and
        # then, a warning the suite turns into an error
        {
            "data": F3,
            **LONG,
            "runs": 10,
            "n_samples": 100,
            "chains": 1,
            "warmup": 100,
            "random_state": 0,
        },
    ),
    "bayes_plackett_luce": ((T,), {"n_samples": 500}),
    "bayes_posthoc": ((T,), {"n_samples": 2000}),
    "bayes_sign_test": ((A, B), {"n_samples": 2000}),
    "bayes_signrank": ((A, B), {"n_samples": 2000}),
    "bayes_signrank_pairs": ((T,), {"n_samples": 2000}),
    "comparison_matrix": ((T,), {}),
    "conover": ((T,), {}),
    "correlated_pairs": ((F3,), {**LONG, "runs": 10}),
    "correlated_ttest": ((_AN["nbc"], _AN["aode"]), {"runs": 10}),
    "coverage": ((T,), {}),
    "critical_difference": ((4, 14), {}),
    "dashboard": ((T,), {}),
    "durbin": ((T,), {}),
    "effect_size": ((A, B), {}),
    "fold_summary": ((F3,), LONG),
    "friedman": ((T,), {}),
    "friedman_aligned": ((T,), {}),
    "letters": ((None,), {}),  # the posthoc result, made in the test
    "mean_ranks": ((T,), {}),
    "memory_ceiling": (("1G",), {}),
    "nemenyi_min_cases": ((4,), {}),
    "posthoc": ((T,), {}),
    "quade": ((T,), {}),
    "race": (
        (lambda c, i: float(np.sin(c * 7 + i) + c), [0.0, 0.5, 1.0], list(range(40))),
        {"n_samples": 2000},
    ),
    "rank_ci": ((T,), {"n_resamples": 200}),
    "ranks": ((T,), {}),
    "report": ((T, "r.html"), {}),
    "report_text": ((T,), {}),
    "rm_anova": ((T,), {}),
    "score_table": ((T,), {}),
    "set_memory_ceiling": ((None,), {}),
    "sign_test": ((A, B), {}),
    "skillings_mack": ((T,), {}),
    "ttest": ((A, B), {}),
    "wilcoxon": ((A, B), {}),
    "WilcoxonTest": ((), {}),
}

_TEXT = st.text(max_size=4)
_NOT_A_NUMBER = (
    _TEXT
    | st.lists(st.floats(allow_nan=False), min_size=1, max_size=2)
    | st.complex_numbers(min_magnitude=1, allow_nan=False, allow_infinity=False)
)
_NOT_A_COUNT = _TEXT | st.floats(allow_nan=False) | st.lists(st.integers(), max_size=2)
_NOT_A_FLAG = _TEXT | st.integers(min_value=2) | st.floats(allow_nan=False)
_NOT_TEXT = st.floats(allow_nan=False) | st.lists(st.integers(), max_size=2)
_NOT_A_TABLE = st.sampled_from([object(), 1.5, "zzz", None])
_NOT_A_SEED = st.text(min_size=1, max_size=4) | st.floats(allow_nan=False)

_FRACTIONS = {
    "alpha",
    "level",
    "threshold",
    "gamma",
    "epsilon",
    "test_fraction",
    "mc_error",
}
_COUNTS = {
    "n_samples", "n_resamples", "n_permutations", "runs", "folds", "min_folds",
    "chains", "warmup", "budget", "max_steps", "instances_per_step", "first_test",
    "n_algorithms", "n_cases",
}  # fmt: skip
_FLAGS = {
    "higher_is_better", "tie_correction", "rank_transform", "correction", "bayes",
    "hierarchical", "core_only", "interval", "groups", "joint",
}  # fmt: skip
_CHOICES = {
    "method", "alternative", "ties", "interval_method", "effect",
    "test", "adjust", "nan_policy", "ranks", "zero_method", "aggregate", "calibration", "prior",
    "format", "layout", "venue", "kind", "aliases",
}  # fmt: skip
_COLUMNS = {"case", "algorithm", "score", "fold"}


def wrong(function: str, parameter: str) -> tuple[Any, list[Any]]:
    """A strategy of wrong types and a list of wrong values for a parameter."""
    if parameter in _FRACTIONS:
        return _NOT_A_NUMBER, [1.5, -0.1, 0.0, float("nan")]
    if parameter in _COUNTS:
        return _NOT_A_COUNT, [-1]
    if parameter in _FLAGS or parameter == "progress":
        return _NOT_A_FLAG, []
    if parameter in _CHOICES:
        return _NOT_TEXT, ["zzz"]
    if parameter == "random_state":
        return _NOT_A_SEED, [-1]
    if parameter in ("rope", "s", "z0", "timeout"):
        return _TEXT, [-1.0, float("inf")]
    if parameter == "loss":
        return st.sampled_from(["x", 1.5]), [(-1, 1)]
    if parameter in ("scores", "data"):
        return _NOT_A_TABLE, [[1.0, 2.0, 3.0]]
    if parameter in ("a", "b"):
        return st.sampled_from([object(), "zzz", None]), [[[1.0, 2.0], [3.0, 4.0]]]
    if parameter in _COLUMNS:
        return st.sampled_from([1.5, object()]), ["zzz"]
    if parameter == "pvalues":
        return st.sampled_from([object(), "zzz", None]), [[1.5, 0.2], [[0.1]]]
    if parameter == "result":
        return st.sampled_from([object(), "zzz", 1.5]), [nbstats.friedman(T)]
    if parameter == "mean_ranks":
        return st.sampled_from([object(), "zzz", 1.5]), [pd.Series({"zzz": 1.0})]
    if parameter == "value":  # a memory ceiling
        return st.sampled_from([[1], 1.5, object()]), [-1, "zzz"]
    if parameter == "path":
        return st.sampled_from([1.5, object()]), []
    if parameter in ("title", "score_unit"):
        return st.sampled_from([1.5, object()]), []
    if parameter == "analyses":
        return st.sampled_from([1.5, object()]), [("zzz",)]
    if parameter == "prior_at" and function == "bayes_sign_test":  # a place
        return _NOT_TEXT, ["zzz"]
    if parameter == "prior_at":  # the signed-rank tests: a score difference
        return st.sampled_from([object(), [0.0], "x"]), [float("inf")]
    if parameter == "evaluate":
        return st.sampled_from(["1", 1.5, None]), []
    if parameter in ("candidates", "instances"):
        return st.sampled_from([1.5, object()]), [[]]
    if parameter == "pairs":
        return st.sampled_from([1.5, "zzz"]), [[("zzz", "nbc")]]
    if parameter == "executor":
        return st.sampled_from(["x", 1.5]), []
    if parameter == "options":
        return st.sampled_from([1.5, "x"]), [{"zzz": 1}]
    if parameter == "control":
        return st.sampled_from([1.5, object()]), ["zzz"]
    raise AssertionError(f"no wrong values for {function}({parameter}=): add them")


def _cases() -> list[Any]:
    cases = []
    for name in nbstats.__all__:
        function = getattr(nbstats, name)
        if inspect.isclass(function) or inspect.ismodule(function):
            continue
        for p in inspect.signature(function).parameters.values():
            if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            cases.append(pytest.param(name, p.name, id=f"{name}-{p.name}"))
    return cases


def _call(name: str, parameter: str | None, value: Any, tmp_path: Any) -> None:
    """The base call of ``name`` with ``parameter`` (if any) set to ``value``."""
    function = getattr(nbstats, name)
    args, kwargs = BASE[name]
    if name == "letters":
        args = (nbstats.posthoc(T),)
    if name == "report":
        args = (args[0], tmp_path / "r.html")
    call = inspect.signature(function).bind_partial(*args, **kwargs)
    if parameter is not None:
        call.arguments[parameter] = value
    if name == "memory_ceiling":
        with function(*call.args, **call.kwargs):
            pass
    else:
        function(*call.args, **call.kwargs)


def _expect_named_refusal(name: str, parameter: str, value: Any, tmp_path: Any) -> None:
    call = f"{name}({parameter}={value!r})"
    with pytest.raises((TypeError, ValueError, Reached)) as info:
        _call(name, parameter, value, tmp_path)
    assert info.type is not Reached, f"{call} was accepted (reached the notebook)"
    message = str(info.value)
    assert parameter in message, (
        f"{call} raised {info.type.__name__} without naming {parameter!r}: {message}"
    )
    assert not RAW.search(message), f"{call}: {message}"


@pytest.fixture(autouse=True)
def _no_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nbstats.reporting, "_executed", _stop)


@pytest.mark.parametrize(
    "name", sorted({c.values[0] for c in _cases() if not c.marks} | {"letters"})
)
def test_base_call_is_valid(name: str, tmp_path: Any) -> None:
    """The base call itself is accepted (else the wrong values prove nothing)."""
    with contextlib.suppress(Reached):
        _call(name, None, None, tmp_path)


@pytest.mark.parametrize(("name", "parameter"), _cases())
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_wrong_type_is_refused_by_name(name, parameter, tmp_path, data) -> None:
    strategy, _ = wrong(name, parameter)
    _expect_named_refusal(
        name, parameter, data.draw(strategy, label=parameter), tmp_path
    )


@pytest.mark.parametrize(("name", "parameter"), _cases())
def test_a_wrong_value_is_refused_by_name(name: str, parameter: str, tmp_path) -> None:
    _, values = wrong(name, parameter)
    for value in values:
        _expect_named_refusal(name, parameter, value, tmp_path)


def test_every_parameter_has_wrong_values() -> None:
    for case in _cases():
        strategy, values = wrong(*case.values)
        assert strategy is not None and isinstance(values, list)


# -- the reproducers (plan 2b), each with its message -----------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: nbstats.adjust_pvalues(object()),
            TypeError,
            "pvalues must be an array-like of numbers in [0, 1], got object.",
        ),
        (
            lambda: nbstats.adjust_pvalues("zzz"),
            TypeError,
            "pvalues must be an array-like of numbers in [0, 1], got 'zzz' (str).",
        ),
        (
            lambda: nbstats.adjust_pvalues([0.1, 0.2, 0.3], n_algorithms="1"),
            TypeError,
            "n_algorithms must be a whole number (int), got '1' (str).",
        ),
        (
            lambda: nbstats.critical_difference(4, 14, "0.1"),
            TypeError,
            "alpha must be a number in (0, 1), got '0.1' (str).",
        ),
        (
            lambda: nbstats.ttest(A, B, level="0.1"),
            TypeError,
            "level must be a number in (0, 1), got '0.1' (str).",
        ),
        (
            lambda: nbstats.effect_size(A, B, level=95),
            ValueError,
            "level must be a number in (0, 1), got 95; e.g. level=0.95.",
        ),
        (
            lambda: nbstats.skillings_mack(T, n_resamples=-1),  # asymptotic
            ValueError,
            "n_resamples must be a whole number >= 1, got -1.",
        ),
        (
            lambda: nbstats.rank_ci(T, random_state="x"),  # draws nothing
            TypeError,
            "random_state must be None, an int >= 0, a numpy SeedSequence or "
            "Generator, got 'x' (str).",
        ),
        (
            lambda: nbstats.friedman(T, tie_correction="no"),
            TypeError,
            "tie_correction must be True or False, got 'no' (str).",
        ),
        (
            lambda: nbstats.wilcoxon(A, B, correction=2),
            TypeError,
            "correction must be True or False, got 2 (int).",
        ),
        (
            lambda: nbstats.fold_summary(F3, **{**LONG, "case": "zzz"}),
            ValueError,
            "case='zzz' is not a column of the table; its columns are "
            "['dataset', 'classifier', 'fold', 'accuracy'].",
        ),
        (
            lambda: nbstats.fold_summary("zzz", **LONG),
            TypeError,
            "data: per-fold data (fold=) must be a long DataFrame, got str.",
        ),
        (
            lambda: nbstats.letters("zzz"),
            TypeError,
            "result must be a post-hoc result comparing every pair (e.g. "
            "nbstats.posthoc(scores)) or the square DataFrame of rejected pairs, "
            "got str.",
        ),
        (
            lambda: nbstats.letters(nbstats.posthoc(T), mean_ranks="zzz"),
            TypeError,
            "mean_ranks must be a Series of mean ranks indexed by the algorithms, "
            "got str.",
        ),
        (
            lambda: nbstats.friedman(object()),
            TypeError,
            "scores must be a score table: a DataFrame or a 2-D array-like (rows "
            "= cases, columns = algorithms), got object.",
        ),
        (
            lambda: nbstats.score_table([1.0, 2.0]),
            ValueError,
            "data must be 2-D (a score table: rows = cases, columns = "
            "algorithms), got an array of shape (2,).",
        ),
        (
            lambda: nbstats.set_memory_ceiling([1]),
            TypeError,
            "value must be a memory ceiling in bytes (int) or a size such as "
            "'512M', got [1] (list).",
        ),
    ],
)
def test_the_probes_raw_errors_are_named(call, error, message) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_letters_names_a_missing_mean_rank() -> None:
    result = nbstats.posthoc(T)
    ranks = result.mean_ranks.drop("C4.5")
    with pytest.raises(ValueError, match=r"mean_ranks has no rank for \['C4\.5'\]"):
        nbstats.letters(result, mean_ranks=ranks)
    # a full Series of the right names is used as given
    shown = nbstats.letters(result, mean_ranks=result.mean_ranks)
    assert shown.letters.equals(nbstats.letters(result).letters)


def test_a_table_argument_is_named_after_the_function_called() -> None:
    # the message names the function's argument even when nbstats frames
    # (the accessor, score_table) are between the user and the check
    with pytest.raises(ValueError, match="scores must be 2-D"):
        nbstats.ranks([0.1, 0.2, 0.3])
