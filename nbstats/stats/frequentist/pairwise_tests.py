"""The paired tests of :func:`nbstats.posthoc`'s pairwise methods: one
signed-rank, sign or t-test per pair of algorithms, with a progress bar
(hundreds of algorithms take minutes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from nbstats.scores.missing import pair_cases
from nbstats.stats.frequentist.sign import sign_test_from_differences
from nbstats.stats.frequentist.ttest import paired_ttest
from nbstats.stats.frequentist.wilcoxon import signed_rank_test
from nbstats.util.progress import progress_bar

__all__ = ["PAIRWISE_TESTS", "pairwise_tests"]


def _sign_pair(d: np.ndarray) -> tuple[float, float, float]:
    res = sign_test_from_differences(d)
    return res.statistic, res.pvalue, res.n_cases - res.statistic  # wins of a


def _wilcoxon_pair(d: np.ndarray, **options: Any) -> tuple[float, float, float]:
    res = signed_rank_test(d, **options)
    return res.statistic, res.pvalue, res.statistic  # T = min(R+, R-)


def _ttest_pair(d: np.ndarray) -> tuple[float, float, float]:
    res = paired_ttest(d)
    return res.statistic, res.pvalue, -res.statistic


#: Each returns (statistic of "b vs a", p-value, statistic of "a vs b")
PAIRWISE_TESTS: dict[str, Callable[..., tuple[float, float, float]]] = {
    "wilcoxon": _wilcoxon_pair,
    "sign": _sign_pair,
    "ttest": _ttest_pair,
}


def pairwise_tests(
    better: np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    method: str,
    options: dict[str, Any],
    *,
    pairwise: bool,
    progress: bool | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The paired test ``method`` (``"wilcoxon"``, ``"sign"`` or ``"ttest"``)
    on the differences of every pair (``first``, ``second``) of the columns
    of ``better`` (higher is better): the statistics, p-values and mirrored
    statistics, with a progress bar over the pairs."""
    test = PAIRWISE_TESTS[method]
    bar = progress_bar(
        progress, int(first.size), "posthoc", "pair",
        delay=1.0 if progress is None else 0.0,
    )  # fmt: skip
    # straight into arrays: a list of every pair's results took about
    # 1.4 KB a pair
    stats, raw, mirrored = (np.empty(first.size) for _ in range(3))
    try:
        for at, (i, j) in enumerate(zip(first, second, strict=True)):
            rows = pair_cases(better, i, j) if pairwise else slice(None)
            d = better[rows, j] - better[rows, i]
            stats[at], raw[at], mirrored[at] = test(d, **options)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return stats, raw, mirrored
