"""Every public function either refuses up front or stays within the memory
ceiling (issue 34, finding 9).

At m = 1000 algorithms x 30 cases the frequentist ``posthoc``, ``rank_ci``,
``comparison_matrix`` and Tukey's HSD allocated about 1 GB (2.2-2.6 KB a
pair) with no check. Here every name of ``nbstats.__all__`` is called on a
wide table (800 algorithms x 30 cases, 319,600 pairs: the slow pairwise tests
are refused there, not run for minutes) under a 64 MB ceiling,
its allocations traced with :mod:`tracemalloc`, and must either

- refuse with a ValueError that names the memory ceiling and what would fit,
  before allocating a quarter of the ceiling, or
- return with a traced peak within the ceiling.

Functions of two samples cannot take a wide table; they run on a long one
(10^6 cases) instead, where their memory is O(n): at most 16 copies of
their input (the input is the caller's; the ceiling bounds what grows beyond
it, such as pairs or draws). Each call is made once on
a small table first: the first call of a code path imports modules and
fills caches (up to 40 MB), which is not the call's working memory.

The estimates are upper bounds: at the most algorithms a refusal says would
fit, the function runs within the ceiling (``test_what_fits_runs``).
"""

from __future__ import annotations

import contextlib
import re
import tracemalloc
from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nbstats
import nbstats.stats.ranking  # RANK_CI_METHODS: import nbstats no longer loads it
from nbstats.stats.frequentist.tukey import tukey_hsd
from nbstats.util.memory import check_fits, memory_ceiling

CEILING = 64 * 2**20
WIDE_M, WIDE_N = 800, 30
LONG_N = 10**6


def _table(m: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n, m)) + np.linspace(0.0, 1.0, m)
    return pd.DataFrame(values, columns=[f"alg{j:04d}" for j in range(m)])


def _pair(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    return a, a + rng.normal(0.1, 1.0, size=n)


def _folds(n_cases: int, m: int = 3) -> pd.DataFrame:
    """Long data of 10 folds per case (for the correlated t-tests)."""
    rng = np.random.default_rng(1)
    rows = n_cases * m * 10
    return pd.DataFrame(
        {
            "case": np.repeat(np.arange(n_cases), m * 10),
            "algorithm": np.tile(np.repeat([f"a{j}" for j in range(m)], 10), n_cases),
            "fold": np.tile(np.arange(10), n_cases * m),
            "score": rng.normal(size=rows),
        }
    )


Call = Callable[[pd.DataFrame], object]

#: Calls on a wide table (rows = cases), several per name where the methods
#: differ in what they allocate.
WIDE: dict[str, dict[str, Call]] = {
    "analyze": {
        "bayes": lambda t: nbstats.analyze(t, random_state=0),
        "frequentist": lambda t: nbstats.analyze(t, bayes=False),
    },
    "bayes_friedman": {"": lambda t: nbstats.bayes_friedman(t, random_state=0)},
    "bayes_plackett_luce": {
        "": lambda t: nbstats.bayes_plackett_luce(t, random_state=0)
    },
    "bayes_posthoc": {
        "sign": lambda t: nbstats.bayes_posthoc(t, random_state=0),
        "signrank": lambda t: nbstats.bayes_posthoc(t, test="signrank", random_state=0),
    },
    "bayes_signrank_pairs": {
        "": lambda t: nbstats.bayes_signrank_pairs(t, random_state=0)
    },
    "comparison_matrix": {"": nbstats.comparison_matrix},
    "conover": {"": nbstats.conover},
    "durbin": {"": nbstats.durbin},
    "friedman": {"": nbstats.friedman},
    "friedman_aligned": {"": nbstats.friedman_aligned},
    "letters": {"": lambda t: nbstats.letters(_posthoc_of(t))},
    "mean_ranks": {"": nbstats.mean_ranks},
    "posthoc": {
        **{
            method: (lambda t, method=method: nbstats.posthoc(t, method=method))
            # not "hommel" (minutes at 319,600 p-values: time, not memory)
            for method in (
                "shaffer",
                "bergmann-hommel",
                "nemenyi",
                "bonferroni-dunn",
                "holm",
                "hochberg",
                "finner",
                "li",
                "rom",
                "conover",
                "wilcoxon",
                "sign",
                "ttest",
            )
        },
        "holm, control": lambda t: nbstats.posthoc(
            t, method="holm", control=t.columns[0]
        ),
        "aligned": lambda t: nbstats.posthoc(t, method="holm", ranks="aligned"),
        "quade": lambda t: nbstats.conover(t, ranks="quade"),
    },
    "quade": {"": nbstats.quade},
    "rank_ci": {
        method: (lambda t, method=method: nbstats.rank_ci(t, method=method))
        for method in nbstats.stats.ranking.RANK_CI_METHODS
    },
    "ranks": {"": nbstats.ranks},
    "rm_anova": {"": nbstats.rm_anova},
    "score_table": {"": nbstats.score_table},
    "skillings_mack": {"": nbstats.skillings_mack},
    # not a public name, but behind analyze() and rank_ci(method="anova-tukey")
    "tukey_hsd": {"": tukey_hsd},
}

#: A long pair of samples and long data of folds, built once (outside the
#: traced calls: the input is the caller's, not the call's working memory).
_A, _B = _pair(LONG_N)
_FOLDS = _folds(2000)
#: The input bytes each long call is measured against.
_PAIR_BYTES = _A.nbytes + _B.nbytes
_FOLD_BYTES = int(_FOLDS.memory_usage(deep=True).sum())
_P = np.linspace(0, 1, LONG_N)

#: Calls whose size is not a table's width: their own size arguments, or a
#: long pair of samples (their memory is O(n)): (input bytes, call).
OTHER: dict[str, dict[str, tuple[int, Callable[[], object]]]] = {
    "adjust_pvalues": {
        "holm": (_P.nbytes, lambda: nbstats.adjust_pvalues(_P)),
        "hochberg": (_P.nbytes, lambda: nbstats.adjust_pvalues(_P, "hochberg")),
    },
    "critical_difference": {"": (8, lambda: nbstats.critical_difference(10**4, 30))},
    "nemenyi_min_cases": {"": (8, lambda: nbstats.nemenyi_min_cases(10**4))},
    "wilcoxon": {"": (_PAIR_BYTES, lambda: nbstats.wilcoxon(_A, _B))},
    "sign_test": {"": (_PAIR_BYTES, lambda: nbstats.sign_test(_A, _B))},
    "ttest": {"": (_PAIR_BYTES, lambda: nbstats.ttest(_A, _B))},
    "effect_size": {
        effect: (
            _PAIR_BYTES,
            lambda effect=effect: nbstats.effect_size(_A, _B, effect=effect),
        )
        for effect in ("cliff", "hodges-lehmann", "rank-biserial", "cohen-d")
    },
    "bayes_sign_test": {
        "": (_PAIR_BYTES, lambda: nbstats.bayes_sign_test(_A, _B, random_state=0))
    },
    "bayes_signrank": {
        "": (_PAIR_BYTES, lambda: nbstats.bayes_signrank(_A, _B, random_state=0))
    },
    "correlated_ttest": {
        "": (_PAIR_BYTES, lambda: nbstats.correlated_ttest(_A, _B, folds=10))
    },
    "bayes_correlated_ttest": {
        "": (_PAIR_BYTES, lambda: nbstats.bayes_correlated_ttest(_A, _B, folds=10))
    },
    "fold_summary": {
        "": (
            _FOLD_BYTES,
            lambda: nbstats.fold_summary(
                _FOLDS, case="case", algorithm="algorithm", fold="fold"
            ),
        )
    },
    "correlated_pairs": {
        "": (
            _FOLD_BYTES,
            lambda: nbstats.correlated_pairs(
                _FOLDS,
                case="case",
                algorithm="algorithm",
                score="score",
                fold="fold",
                folds=10,
            ),
        )
    },
}
#: A long call may take this many copies of its input (sorting, ranks,
#: masks), not more: O(n), whatever the ceiling (which bounds what grows
#: beyond the input, e.g. pairs or draws).
INPUT_COPIES = 16

#: Public names not called here, and why.
SKIPPED = {
    "RaceError": "an exception class",
    "coverage": "not yet checked against the ceiling (its exact trade-off "
    "search counts subsets one at a time; see issue 37's argument sweep)",
    "memory_ceiling": "the ceiling itself",
    "set_memory_ceiling": "the ceiling itself",
    "datasets": "a module of bundled tables (a fixed size)",
    "simulate": "a module of generators: they allocate the table asked for",
    "report": "writes a report through the kernel: test_report_refused",
    "report_text": "the report as text, through the same kernel",
    "WilcoxonTest": "options of comparison_matrix's Wilcoxon test: allocates nothing",
    "dashboard": "a widget over analyses tested here (bayes_posthoc, posthoc)",
    "race": "allocates per instance it evaluates (the user's callable), "
    "its tests per step are the ones above; tests/reliability/test_racing_faults.py",
    "bayes_hierarchical": "an MCMC on at most a few thousand folds; its "
    "time, not its memory, bounds it (tests/stats/test_hierarchical.py)",
}

_WIDE = _table(WIDE_M, WIDE_N)
_SMALL = _table(12, WIDE_N)


def _traced(function: Callable[[], object]) -> tuple[int, BaseException | None]:
    """The traced peak of ``function()`` under the ceiling, and its error."""
    error = None
    tracemalloc.start()
    try:
        with memory_ceiling(CEILING):
            function()
    except ValueError as caught:
        error = caught
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak, error


def _assert_refused_or_within(name: str, peak: int, error: BaseException | None):
    if error is None:
        assert peak <= CEILING, (
            f"{name} ran at a traced peak of {peak / 2**20:.1f} MB, over the "
            f"ceiling of {CEILING / 2**20:.0f} MB"
        )
        return
    text = str(error)
    if "memory" not in text:  # refused for another reason (e.g. n < m): fine
        assert peak <= CEILING, (name, peak, text)
        return
    assert "ceiling" in text, text
    assert re.search(r"\bfits?\b", text), f"{name}: no word of what fits: {text}"
    assert peak < CEILING / 4, (
        f"{name} refused only after a traced peak of {peak / 2**20:.1f} MB: {text}"
    )


def test_every_public_name_is_covered() -> None:
    called = set(WIDE) | set(OTHER)
    missing = set(nbstats.__all__) - called - set(SKIPPED)
    assert not missing, f"public names neither tested nor skipped: {missing}"


_POSTHOCS: dict[int, object] = {}


def _posthoc_of(table: pd.DataFrame) -> object:
    """The result letters() works on, made once per width (not in the
    table's attrs: pandas deep-copies those with every derived frame)."""
    m = table.shape[1]
    if m not in _POSTHOCS:
        with memory_ceiling("1G"):
            _POSTHOCS[m] = nbstats.posthoc(table, method="holm")
    return _POSTHOCS[m]


@pytest.fixture(scope="module")
def wide() -> pd.DataFrame:
    _posthoc_of(_WIDE)  # made before the traced call
    return _WIDE


@pytest.mark.filterwarnings("ignore:the .* algorithms have more than")
@pytest.mark.filterwarnings("ignore:Bergmann-Hommel.s exhaustive sets")
@pytest.mark.parametrize(
    ("name", "variant"),
    [(name, variant) for name, calls in WIDE.items() for variant in calls],
)
def test_wide_table_refused_or_within(name: str, variant: str, wide) -> None:
    call = WIDE[name][variant]
    with contextlib.suppress(ValueError):  # warm-up: imports and caches
        call(_SMALL)
    peak, error = _traced(lambda: call(wide))
    _assert_refused_or_within(f"{name}[{variant}]", peak, error)


@pytest.mark.parametrize(
    ("name", "variant"),
    [(name, variant) for name, calls in OTHER.items() for variant in calls],
)
def test_long_input_within(name: str, variant: str) -> None:
    nbytes, call = OTHER[name][variant]
    call()  # warm-up: imports and caches
    peak, error = _traced(call)
    assert error is None, error
    bound = max(INPUT_COPIES * nbytes, 2**20)
    assert peak <= bound, (
        f"{name}[{variant}] took {peak / 2**20:.1f} MB, over {INPUT_COPIES} "
        f"copies of its {nbytes / 2**20:.1f} MB input"
    )


#: The functions of every pair, each at the most algorithms its refusal says
#: fit, under the smallest ceiling (16 MB: fewer than WIDE_M fit, and the
#: slow pairwise tests stay short).
AT_THE_EDGE: dict[str, tuple[str, Call]] = {
    "posthoc[holm]": ("16M", lambda t: nbstats.posthoc(t, method="holm")),
    "posthoc[nemenyi]": ("16M", lambda t: nbstats.posthoc(t, method="nemenyi")),
    "posthoc[wilcoxon]": ("16M", lambda t: nbstats.comparison_matrix(t)),
    "comparison_matrix": ("16M", nbstats.comparison_matrix),
    "conover": ("16M", nbstats.conover),
    "rank_ci[id-nemenyi]": ("16M", lambda t: nbstats.rank_ci(t, method="id-nemenyi")),
    "rank_ci[id-wilcoxon-2s]": (
        "16M",
        lambda t: nbstats.rank_ci(t, method="id-wilcoxon-2s"),
    ),
    "rank_ci[id-wilcoxon-1s]": (
        "16M",
        lambda t: nbstats.rank_ci(t, method="id-wilcoxon-1s"),
    ),
    "rank_ci[anova-tukey]": ("16M", lambda t: nbstats.rank_ci(t, method="anova-tukey")),
    "tukey_hsd": ("16M", tukey_hsd),
    "bayes_signrank_pairs": (
        "16M",
        lambda t: nbstats.bayes_signrank_pairs(t, n_samples=2000, random_state=0),
    ),
}


EDGE_PEAKS: dict[str, tuple[int, int]] = {}


@pytest.mark.filterwarnings("ignore:the .* algorithms have more than")
@pytest.mark.filterwarnings("ignore:Bergmann-Hommel.s exhaustive sets")
@pytest.mark.parametrize("name", list(AT_THE_EDGE))
def test_what_fits_runs(name: str) -> None:
    ceiling, call = AT_THE_EDGE[name]
    with memory_ceiling(ceiling), pytest.raises(ValueError, match="ceiling") as refused:
        call(_WIDE)
    most = re.search(r"at most ([\d,]+) algorithms", str(refused.value))
    assert most, str(refused.value)
    m = int(most.group(1).replace(",", ""))
    assert 2 <= m < WIDE_M
    call(_SMALL)  # warm-up
    table = _table(m, WIDE_N, seed=1)
    tracemalloc.start()
    try:
        with memory_ceiling(ceiling):
            call(table)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    limit = int(ceiling[:-1]) * 2**20
    assert peak <= limit, f"{name} at {m} algorithms: {peak / 2**20:.1f} MB"
    EDGE_PEAKS[name] = (m, peak)
    # and one more algorithm is refused
    with memory_ceiling(ceiling), pytest.raises(ValueError, match="memory ceiling"):
        call(_table(m + 1, WIDE_N, seed=1))


def test_bootstrap_refusal_names_the_resamples_that_fit() -> None:
    with memory_ceiling("16M"), pytest.raises(ValueError, match="ceiling") as refused:
        nbstats.rank_ci(_WIDE, method="bootstrap", n_resamples=10**5)
    most = re.search(r"at most n_resamples=([\d,]+) fit", str(refused.value))
    assert most, str(refused.value)
    fits = int(most.group(1).replace(",", ""))
    nbstats.rank_ci(_SMALL, method="bootstrap", n_resamples=50, random_state=0)
    tracemalloc.start()
    try:
        with memory_ceiling("16M"):
            nbstats.rank_ci(_WIDE, method="bootstrap", n_resamples=fits, random_state=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 16 * 2**20


def test_report_refused(tmp_path) -> None:
    with memory_ceiling(CEILING), pytest.raises(ValueError, match="ceiling"):
        nbstats.report(_WIDE, tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


@settings(max_examples=200, deadline=None)
@given(
    ceiling=st.integers(16 * 2**20, 2**36),
    excess=st.integers(1, 2**36),
)
def test_check_fits_never_reads_need_within_ceiling(ceiling: int, excess: int) -> None:
    """The need rounded up, the ceiling down: never "about 24 MB, over the
    ceiling of 24 MB" (the need was rounded down)."""
    with memory_ceiling(ceiling), pytest.raises(ValueError, match="ceiling") as refused:
        check_fits(ceiling + excess, "the draws", "use fewer")
    need, limit = (
        int(x.replace(",", "")) for x in re.findall(r"([\d,]+) MB", str(refused.value))
    )
    assert need > limit
    assert need * 2**20 >= ceiling + excess
    assert limit * 2**20 <= ceiling


def test_check_fits_regression_24_mb() -> None:
    with (
        memory_ceiling(24 * 2**20),
        pytest.raises(ValueError, match="ceiling") as refused,
    ):
        check_fits(24 * 2**20 + 5000, "the draws", "use fewer")
    assert "about 25 MB" in str(refused.value)
    assert "ceiling of 24 MB" in str(refused.value)
