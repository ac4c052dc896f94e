"""Every public statistic is invariant to the units of the scores.

Properties, checked with hypothesis on small integer score tables (ties and
zero differences are frequent, so the degenerate branches are exercised):

- *exact scaling*: scores times ``2**e`` (``e`` in -990…990, about 1e-298 to
  1e298) give the same result; fields in score units (a mean difference, an
  interval) are multiplied by the factor. Powers of two are exact in float64,
  so ties and zero differences survive and the results must agree to
  round-off even in the degenerate cases (zero variance).
- *any scaling*: scores times ``m·10**e`` (``e`` in -300…300) agree to 1e-6
  on tables of well separated scores (here rounding can tie or untie
  differences, so data whose pattern of ties changes are left out).
- *shift*: adding an integer to every score changes nothing.
- *negation*: ``-x`` with ``higher_is_better=False`` is ``x`` with
  ``higher_is_better=True`` (functions without a direction: the same result).
- *column permutation*: per-algorithm results follow the algorithms.

The list of checked functions is complete: :func:`test_every_public_function_is_covered`
fails when ``nbstats.__all__`` or the accessor gains a function that is neither
covered here nor exempted with a reason.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import nbstats
import nbstats.stats.ranking  # RANK_CI_METHODS: import nbstats no longer loads it
from nbstats.accessor import CompareAccessor
from nbstats.stats.effect_size import EFFECT_KINDS
from nbstats.stats.frequentist.posthoc import POSTHOC_METHODS

N_SAMPLES = 1000  # Bayesian draws: fast, and enough for the MC-error warning
SEED = 12345


@dataclasses.dataclass(frozen=True)
class Spec:
    """How to call one public function on a table ``x`` and compare results."""

    public: str
    call: Callable[[pd.DataFrame, bool], Any]
    scaled: tuple[str, ...] = ()  # fields in score units (scale with the data)
    ignored: tuple[str, ...] = ()  # fields not compared (e.g. a table in units²)
    diff_ranks: bool = False  # ranks |differences|: rounding may change ties
    directed: bool = True  # takes higher_is_better
    permutable: bool = True  # table function: results follow the columns
    min_k: int = 2
    mc_atol: float = 0.0  # Monte Carlo results: tolerance under permutation
    located: tuple[str, ...] = ()  # fields that move with a shift (the scores)
    label: str = ""  # test id, when one function has several specs


def _level_warning_ignored(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """On a few cases the Hodges–Lehmann interval warns that its level cannot
    be reached and gives a lower one; scaling must not change that either."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", "a .* Hodges-Lehmann interval cannot be reached"
        )
        return call(*args, **kwargs)


def _pair(x: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    return x.iloc[:, 0], x.iloc[:, 1]


def _long_folds(x: pd.DataFrame) -> pd.DataFrame:
    """Rows of x as the folds of two cases (first and second half)."""
    half = len(x) // 2
    rows = []
    for j, algorithm in enumerate(x.columns):
        for i in range(2 * half):
            rows.append((f"case{i // half}", algorithm, i % half, x.iloc[i, j]))
    return pd.DataFrame(rows, columns=["case", "algorithm", "fold", "score"])


def _specs() -> list[Spec]:
    specs = [
        Spec(
            "score_table",
            lambda x, h: nbstats.score_table(x),
            scaled=("value",),
            located=("value",),
            directed=False,
        ),
        Spec("ranks", lambda x, h: nbstats.ranks(x, higher_is_better=h)),
        Spec("mean_ranks", lambda x, h: nbstats.mean_ranks(x, higher_is_better=h)),
        Spec("friedman", lambda x, h: nbstats.friedman(x, higher_is_better=h)),
        Spec(
            "friedman",
            lambda x, h: nbstats.friedman(x, tie_correction=True, higher_is_better=h),
            label="friedman[tie_correction]",
        ),
        Spec(
            "rm_anova",
            lambda x, h: nbstats.rm_anova(x),
            ignored=("table",),
            directed=False,
        ),
        Spec(
            "rm_anova",
            lambda x, h: nbstats.rm_anova(x, rank_transform=True),
            ignored=("table",),
            directed=False,
            label="rm_anova[rank_transform]",
        ),
        Spec(
            "ttest",
            lambda x, h: nbstats.ttest(*_pair(x), higher_is_better=h),
            scaled=("mean_difference", "confidence_interval"),
            permutable=False,
        ),
        Spec(
            "wilcoxon",
            lambda x, h: nbstats.wilcoxon(*_pair(x), higher_is_better=h),
            diff_ranks=True,
            permutable=False,
        ),
        Spec(
            "sign_test",
            lambda x, h: nbstats.sign_test(*_pair(x), higher_is_better=h),
            permutable=False,
        ),
        Spec(
            "correlated_ttest",
            lambda x, h: nbstats.correlated_ttest(
                *_pair(x), folds=len(x), runs=1, higher_is_better=h
            ),
            scaled=("mean_difference", "standard_error", "confidence_interval"),
            permutable=False,
        ),
        Spec(
            "bayes_correlated_ttest",
            lambda x, h: nbstats.bayes_correlated_ttest(
                *_pair(x), folds=len(x), runs=1, higher_is_better=h
            ),
            scaled=("mean", "scale"),
            permutable=False,
        ),
        Spec(
            "correlated_pairs",
            lambda x, h: nbstats.correlated_pairs(
                _long_folds(x),
                case="case",
                algorithm="algorithm",
                score="score",
                fold="fold",
                runs=1,
                higher_is_better=h,
            ),
            scaled=("table.mean_difference",),
            permutable=False,
        ),
        Spec(
            "bayes_sign_test",
            lambda x, h: nbstats.bayes_sign_test(
                *_pair(x), n_samples=N_SAMPLES, random_state=SEED, higher_is_better=h
            ),
            permutable=False,
        ),
        Spec(
            "bayes_signrank",
            lambda x, h: nbstats.bayes_signrank(
                *_pair(x), n_samples=N_SAMPLES, random_state=SEED, higher_is_better=h
            ),
            diff_ranks=True,
            permutable=False,
        ),
        Spec(
            "bayes_signrank_pairs",
            lambda x, h: nbstats.bayes_signrank_pairs(
                x, n_samples=N_SAMPLES, random_state=SEED, higher_is_better=h
            ),
            diff_ranks=True,
            mc_atol=0.06,
        ),
        Spec(
            "bayes_posthoc",
            lambda x, h: nbstats.bayes_posthoc(
                x, n_samples=N_SAMPLES, random_state=SEED, higher_is_better=h
            ),
        ),
        Spec(
            "bayes_posthoc",
            lambda x, h: nbstats.bayes_posthoc(
                x,
                test="signrank",
                n_samples=N_SAMPLES,
                random_state=SEED,
                higher_is_better=h,
            ),
            diff_ranks=True,
            label="bayes_posthoc[signrank]",
        ),
        Spec(
            "bayes_friedman",
            lambda x, h: nbstats.bayes_friedman(
                x, n_samples=N_SAMPLES, random_state=SEED, higher_is_better=h
            ),
        ),
        Spec(  # reads only each case's ranking, drawn in a canonical order
            "bayes_plackett_luce",
            lambda x, h: nbstats.bayes_plackett_luce(
                x, n_samples=400, random_state=SEED, higher_is_better=h
            ),
            # the draws are an unlabelled array in column order; the labelled
            # tables (ranking, prob_above) are compared under permutation
            ignored=("worths",),
        ),
    ]
    specs.append(Spec("quade", lambda x, h: nbstats.quade(x, higher_is_better=h)))
    for ranks in ("friedman", "quade"):
        specs.append(
            Spec(
                "conover",
                lambda x, h, r=ranks: nbstats.conover(x, ranks=r, higher_is_better=h),
            )
        )
    specs.append(
        Spec(
            "friedman_aligned",
            lambda x, h: nbstats.friedman_aligned(x, higher_is_better=h),
            diff_ranks=True,  # ranks the case-aligned scores together
        )
    )
    specs.append(
        Spec(
            "comparison_matrix",
            lambda x, h: nbstats.comparison_matrix(x, higher_is_better=h),
            scaled=("mean_difference",),
            diff_ranks=True,  # Wilcoxon tests, rank-biserial effects
            permutable=False,  # algorithms tied in mean rank keep the column order
        )
    )
    for ties in (False, True):
        for name in ("skillings_mack", "durbin"):
            specs.append(
                Spec(
                    name,
                    lambda x, h, n=name, t=ties: getattr(nbstats, n)(
                        x, higher_is_better=h, tie_correction=t
                    ),
                    label=f"{name}[ties]" if ties else None,
                )
            )
    specs.append(
        Spec(
            "letters",
            lambda x, h: nbstats.letters(nbstats.posthoc(x, higher_is_better=h)),
            permutable=False,  # which letter a group gets follows column order
        )
    )
    for kind in EFFECT_KINDS:
        specs.append(
            Spec(
                "effect_size",
                lambda x, h, k=kind: _level_warning_ignored(
                    nbstats.effect_size, *_pair(x), effect=k, higher_is_better=h
                ),
                scaled=("value", "confidence_interval")
                if kind == "hodges-lehmann"
                else (),
                diff_ranks=kind in ("rank-biserial", "hodges-lehmann"),
                permutable=False,
                label=f"effect_size[{kind}]",
            )
        )
    for method in POSTHOC_METHODS:  # every method, new ones included
        specs.append(
            Spec(
                "posthoc",
                lambda x, h, m=method: nbstats.posthoc(x, method=m, higher_is_better=h),
                diff_ranks=method == "wilcoxon",
                min_k=3 if method in ("shaffer", "bergmann-hommel") else 2,
                label=f"posthoc[{method}]",
            )
        )
    for method in nbstats.stats.ranking.RANK_CI_METHODS:
        specs.append(
            Spec(
                "rank_ci",
                lambda x, h, m=method: nbstats.rank_ci(
                    x, method=m, n_resamples=200, random_state=SEED, higher_is_better=h
                ),
                diff_ranks=method.startswith("id-wilcoxon"),
                label=f"rank_ci[{method}]",
            )
        )
    return specs


SPECS = _specs()

#: Public callables that take no scores, or only call the functions above.
EXEMPT = {
    "adjust_pvalues": "takes p-values, not scores",
    "critical_difference": "takes counts (algorithms, cases), not scores",
    "nemenyi_min_cases": "takes a count of algorithms, not scores",
    "fold_summary": "counts folds; no statistic",
    "coverage": "counts missing scores; no statistic of their values",
    "dashboard": "a user interface over the functions above",
    "analyze": "runs the functions above (each covered) after scale-free checks "
    "(Shapiro-Wilk, Bartlett/Levene and Mauchly are unit-free); see test_analyze",
    "report": "a document built from the functions above",
    "report_text": "the same document as text",
    "race": "takes an evaluate() function; its scores are checked in test_racing",
    "RaceError": "an exception class",
    "WilcoxonTest": "the options of a test, no scores",
    "cd_diagram": "accessor plot of posthoc (covered) results",
    "bayes_hierarchical": "MCMC (minutes per call here); unit-free by construction, "
    "tested on rescaled scores in tests/stats/test_hierarchical.py",
    "memory_ceiling": "a setting (bytes of working memory), not a statistic",
    "set_memory_ceiling": "a setting (bytes of working memory), not a statistic",
}


def _ids(specs: list[Spec]) -> list[str]:
    return [spec.label or spec.public for spec in specs]


def test_every_public_function_is_covered():
    public = {
        name
        for name in nbstats.__all__
        if callable(getattr(nbstats, name))
        and not inspect.ismodule(getattr(nbstats, name))
    }
    covered = {spec.public for spec in SPECS}
    missing = public - covered - set(EXEMPT)
    assert not missing, f"public functions without a scale-invariance test: {missing}"
    stale = (covered | set(EXEMPT)) - public - {"cd_diagram", "report"}
    assert not stale, f"listed here but no longer public: {stale}"
    accessor = {
        name
        for name, member in vars(CompareAccessor).items()
        if not name.startswith("_") and callable(member)
    }
    assert accessor <= covered | set(EXEMPT), accessor - covered - set(EXEMPT)


# -- data ---------------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn, max_value: int = 12, min_k: int = 2) -> pd.DataFrame:
    n = draw(st.integers(4, 10)) * 2  # even: two halves for correlated_pairs
    k = draw(st.integers(min_k, 4))
    values = draw(arrays(np.int64, (n, k), elements=st.integers(0, max_value)))
    return pd.DataFrame(
        values.astype(float),
        index=pd.Index([f"c{i}" for i in range(n)], name="case"),
        columns=pd.Index([f"alg{j}" for j in range(k)], name="algorithm"),
    )


# -- comparing results --------------------------------------------------------


def _fields(result: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(result):
        return {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    return {"value": result}


def _close(left: Any, right: Any, rtol: float, where: str, atol: float = 1e-12) -> None:
    if isinstance(left, pd.DataFrame):
        pd.testing.assert_frame_equal(
            left, right, check_exact=False, rtol=rtol, atol=atol, obj=where
        )
    elif isinstance(left, pd.Series):
        pd.testing.assert_series_equal(
            left, right, check_exact=False, rtol=rtol, atol=atol, obj=where
        )
    elif isinstance(left, pd.Index):  # a result's cases: the same labels
        pd.testing.assert_index_equal(left, right, obj=where)
    elif _is_float_like(left) and _is_float_like(right):
        np.testing.assert_allclose(left, right, rtol=rtol, atol=atol, err_msg=where)
    elif isinstance(left, np.ndarray):
        np.testing.assert_array_equal(left, right, err_msg=where)
    else:
        assert left == right, f"{where}: {left!r} != {right!r}"


def _is_float_like(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f"
    if isinstance(value, tuple):
        return bool(value) and all(isinstance(v, float) for v in value)
    return isinstance(value, float | np.floating)


def _times(value: Any, factor: float) -> Any:
    if isinstance(value, tuple):
        return tuple(v * factor for v in value)
    return value * factor


def assert_same(
    spec: Spec, expected: Any, got: Any, *, factor: float = 1.0, rtol: float = 1e-9
) -> None:
    """``got`` (on scaled data) equals ``expected``, score-unit fields × factor."""
    left, right = _fields(expected), _fields(got)
    for name, value in left.items():
        if name in spec.ignored:
            continue
        other = right[name]
        if name in spec.scaled:
            value = _times(value, factor)
        for dotted in spec.scaled:
            head, _, column = dotted.partition(".")
            if head == name and column:
                value = value.copy()
                value[column] = value[column] * factor
        _close(value, other, rtol, f"{spec.public}.{name}")


def outcome(spec: Spec, x: pd.DataFrame, higher_is_better: bool = True) -> Any:
    """The result, or the exception type: bad data must fail the same way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return spec.call(x, higher_is_better)
        except (ValueError, TypeError) as error:
            return type(error)


def assert_same_outcome(spec: Spec, expected: Any, got: Any, **kw: Any) -> None:
    if isinstance(expected, type) or isinstance(got, type):
        assert expected == got, f"{spec.public}: {expected} vs {got}"
    else:
        assert_same(spec, expected, got, **kw)


def _ties_of_differences(x: np.ndarray) -> list[np.ndarray]:
    """Pattern of zeros and ties among |x_j - x_i| for every pair of columns."""
    patterns = []
    k = x.shape[1]
    for i in range(k):
        for j in range(i + 1, k):
            d = np.abs(x[:, j] - x[:, i])
            patterns.append(d[:, None] == d[None, :])
            patterns.append(d == 0)
    return patterns


# -- properties ---------------------------------------------------------------

SETTINGS = settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
    derandomize=True,
)


@pytest.mark.parametrize("spec", SPECS, ids=_ids(SPECS))
@SETTINGS
@given(data=st.data(), exponent=st.integers(-990, 990))
def test_power_of_two_scaling(spec: Spec, data: st.DataObject, exponent: int):
    x = data.draw(tables(min_k=spec.min_k))
    factor = 2.0**exponent
    expected = outcome(spec, x)
    assert_same_outcome(spec, expected, outcome(spec, x * factor), factor=factor)


#: Known failures in functions owned elsewhere (strict: a fix makes them pass
#: and the mark must then go).
#: Functions known to fail at the edge of float64 (expected failures, strict).
EDGE_FAILURES: dict[str, str] = {}


def _edge_params() -> list[Any]:
    params = []
    for spec, label in zip(SPECS, _ids(SPECS), strict=True):
        marks = []
        if label in EDGE_FAILURES:
            marks = [pytest.mark.xfail(reason=EDGE_FAILURES[label], strict=True)]
        params.append(pytest.param(spec, id=label, marks=marks))
    return params


@pytest.mark.parametrize("spec", _edge_params())
@SETTINGS
@given(data=st.data())
def test_edge_of_float64(spec: Spec, data: st.DataObject):
    """Scores whose largest magnitude is within a factor 2 of the float64 maximum."""
    x = data.draw(tables(min_k=spec.min_k))
    largest = float(x.abs().max().max()) or 1.0
    factor = 2.0 ** (
        1023 - int(np.floor(np.log2(largest)))
    )  # max in [2**1023, 2**1024)
    expected = outcome(spec, x)
    assert_same_outcome(spec, expected, outcome(spec, x * factor), factor=factor)


@pytest.mark.parametrize("spec", SPECS, ids=_ids(SPECS))
@SETTINGS
@given(
    data=st.data(),
    mantissa=st.floats(1.0, 9.99),
    exponent=st.integers(-300, 300),
)
def test_any_positive_scaling(
    spec: Spec, data: st.DataObject, mantissa: float, exponent: int
):
    x = data.draw(tables(max_value=10**6, min_k=spec.min_k))
    factor = mantissa * 10.0**exponent
    scaled = x * factor
    if spec.diff_ranks:
        before = _ties_of_differences(x.to_numpy())
        after = _ties_of_differences(scaled.to_numpy())
        assume(all(np.array_equal(b, a) for b, a in zip(before, after, strict=True)))
    expected = outcome(spec, x)
    assert_same_outcome(spec, expected, outcome(spec, scaled), factor=factor, rtol=1e-6)


@pytest.mark.parametrize("spec", SPECS, ids=_ids(SPECS))
@SETTINGS
@given(data=st.data(), shift=st.integers(-(10**6), 10**6))
def test_shift(spec: Spec, data: st.DataObject, shift: int):
    x = data.draw(tables(min_k=spec.min_k))
    expected = outcome(spec, x)
    got = outcome(spec, x + shift)
    if spec.located and not isinstance(got, type):
        got = got - shift  # score_table: the scores themselves
    assert_same_outcome(spec, expected, got, rtol=1e-7)


@pytest.mark.parametrize("spec", SPECS, ids=_ids(SPECS))
@SETTINGS
@given(data=st.data(), exponent=st.integers(-990, 990))
def test_negative_scaling_flips_direction(
    spec: Spec, data: st.DataObject, exponent: int
):
    x = data.draw(tables(min_k=spec.min_k))
    factor = 2.0**exponent
    expected = outcome(spec, x, higher_is_better=True)
    flipped = outcome(spec, -factor * x, higher_is_better=not spec.directed)
    # with higher_is_better=False the differences are a - b: the same d;
    # without a direction, fields in score units change sign
    spec = dataclasses.replace(spec, ignored=(*spec.ignored, "higher_is_better"))
    sign = 1.0 if spec.directed else -1.0
    assert_same_outcome(spec, expected, flipped, factor=sign * factor)


def _by_algorithm(value: Any, names: list[str]) -> Any:
    """Per-algorithm objects reordered to ``names``; others returned as is."""
    if isinstance(value, pd.DataFrame):
        if set(value.index) == set(names) and set(value.columns) == set(names):
            return value.loc[names, names]
        if set(value.columns) == set(names):
            return value[names]
        if set(value.index) == set(names):
            return value.loc[names]
    if isinstance(value, pd.Series) and set(value.index) == set(names):
        return value.loc[names]
    if isinstance(value, list) and value and isinstance(value[0], tuple):
        return {frozenset(group) for group in value}  # groups: order of ties
    return value


PERMUTABLE = [s for s in SPECS if s.permutable]
# pair tables (a, b, …) are oriented by column order by design: not compared
PAIR_TABLES = {"statements", "pairs"}


@pytest.mark.parametrize("spec", PERMUTABLE, ids=_ids(PERMUTABLE))
@SETTINGS
@given(data=st.data())
def test_column_permutation(spec: Spec, data: st.DataObject):
    x = data.draw(tables(min_k=spec.min_k))
    names = list(x.columns)
    order = data.draw(st.permutations(names))
    expected = outcome(spec, x)
    got = outcome(spec, x[order])
    if isinstance(expected, type) or isinstance(got, type):
        assert expected == got
        return
    left, right = _fields(expected), _fields(got)
    for name, value in left.items():
        if name in spec.ignored or name in PAIR_TABLES:
            continue
        _close(
            _by_algorithm(value, names),
            _by_algorithm(right[name], names),
            1e-9,
            f"{spec.public}.{name}",
            atol=spec.mc_atol or 1e-12,
        )


# -- the examples -----------------------------------------------------


def _demsar_pair() -> tuple[pd.Series, pd.Series]:
    t2 = nbstats.datasets.load("demsar2006_table2")
    return t2["C4.5"], t2["C4.5+m"]


@pytest.mark.parametrize("factor", [1e300, 1e-300, 1e-320])
def test_ttest_at_extreme_scales_agrees_with_scipy_at_unit_scale(factor):
    from scipy.stats import ttest_rel

    a, b = _demsar_pair()
    reference = ttest_rel(b, a)
    res = nbstats.ttest(a * factor, b * factor)
    # subnormal scores keep only a few significant digits
    rtol = 1e-9 if factor >= 1e-300 else 0.05
    assert res.statistic == pytest.approx(reference.statistic, rel=rtol)
    assert res.pvalue == pytest.approx(reference.pvalue, rel=rtol)
    assert res.mean_difference == pytest.approx(
        float((b - a).mean()) * factor, rel=rtol
    )


@pytest.mark.parametrize("factor", [1e300, 1e-300, 1e-320])
def test_rm_anova_at_extreme_scales_agrees_with_statsmodels(factor):
    from statsmodels.stats.anova import AnovaRM

    table = nbstats.datasets.load("demsar2006")
    long = (
        table.rename_axis("case")
        .reset_index()
        .melt(id_vars="case", var_name="algorithm", value_name="auc")
    )
    reference = AnovaRM(long, "auc", "case", within=["algorithm"]).fit().anova_table
    res = nbstats.rm_anova(table * factor)
    rtol = 1e-9 if factor >= 1e-300 else 0.05
    assert res.statistic == pytest.approx(reference["F Value"].iloc[0], rel=rtol)
    assert res.pvalue == pytest.approx(reference["Pr > F"].iloc[0], rel=rtol)


def test_opposite_extremes_overflow_is_a_clear_error():
    a = np.full(5, 1e308)
    b = np.array([-1e308, -1e308, -1e308, -1e308, -9e307])
    for function in (nbstats.ttest, nbstats.wilcoxon, nbstats.sign_test):
        with pytest.raises(ValueError, match="overflow float64"):
            function(a, b)


def test_rm_anova_opposite_extremes_need_no_rescaling():
    # a table, not differences: the ANOVA works on the scaled table
    from statsmodels.stats.anova import AnovaRM

    x = np.array([[1.0, -1.0, 0.0], [1.0, -1.0, 0.5], [1.0, -0.9, 0.0], [0.8, -1, 0]])
    long = pd.DataFrame(x).rename_axis("case").reset_index().melt(id_vars="case")
    reference = AnovaRM(long, "value", "case", within=["variable"]).fit().anova_table
    res = nbstats.rm_anova(x * 1.7e308)
    assert res.statistic == pytest.approx(reference["F Value"].iloc[0], rel=1e-9)
    assert np.isfinite(res.table[["sum_sq", "mean_sq"]].to_numpy()).all()
    assert res.table.attrs["unit"] > 1e300  # the units² would overflow


def test_ttest_zero_variance_is_defined():
    # all differences zero: t = 0, p = 1 (scipy gives NaN, 0/0)
    res = nbstats.ttest([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    # all equal, non-zero: |t| = inf, p = 0, as scipy.stats.ttest_rel
    from scipy.stats import ttest_rel

    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.5, 3.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scipy's precision warning
        reference = ttest_rel(b, a)
    res = nbstats.ttest(a, b)
    assert (res.statistic, res.pvalue) == (reference.statistic, reference.pvalue)
    assert res.confidence_interval == (0.5, 0.5)
