"""The paired tests of :func:`nbstats.comparison_matrix`: one signed-rank,
sign or t-test per pair of algorithms, with a progress bar (hundreds of
algorithms take minutes), and the Wilcoxon test's options as one object."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from nbstats.scores.missing import pair_cases
from nbstats.stats.frequentist.sign import sign_test_from_differences
from nbstats.stats.frequentist.ttest import paired_ttest
from nbstats.stats.frequentist.wilcoxon import signed_rank_test
from nbstats.util.checks import check_choice, check_flag
from nbstats.util.progress import progress_bar

__all__ = ["PAIRWISE_TESTS", "WilcoxonTest", "pairwise_tests"]


@dataclasses.dataclass(frozen=True)
class WilcoxonTest:
    """The Wilcoxon signed-rank test of every pair, with its options
    (:func:`nbstats.comparison_matrix`'s ``test=``); checked when made.

    ``comparison_matrix(test="wilcoxon")`` is ``test=WilcoxonTest()``.

    Parameters
    ----------
    zero_method : {"zsplit", "wilcox", "pratt"}
        Zero differences: split between the signs (Demšar's choice, the
        default), dropped before ranking, or ranked and then dropped; as
        :func:`nbstats.wilcoxon`.
    method : {"auto", "exact", "approx"}
        The p-value: exact where it can be, always exact, or the normal
        approximation.
    correction : bool
        Continuity correction of the normal approximation (``"approx"``,
        and ``"auto"`` where it approximates).

    Examples
    --------
    R's ``pairwise.wilcox.test(..., paired = TRUE, exact = FALSE)``:

    >>> import nbstats
    >>> test = nbstats.WilcoxonTest(zero_method="wilcox", method="approx",
    ...                             correction=True)
    >>> res = nbstats.comparison_matrix(nbstats.datasets.load("demsar2006"),
    ...                                 test=test)
    >>> res.test_name
    'Wilcoxon signed-rank'
    >>> nbstats.WilcoxonTest(method="asymptotic")
    Traceback (most recent call last):
    ...
    ValueError: unknown method='asymptotic'; choose one of 'auto', 'exact', 'approx'.
    """

    zero_method: str = "zsplit"
    method: str = "auto"
    correction: bool = False

    def __post_init__(self) -> None:
        check_choice("zero_method", self.zero_method, ("zsplit", "wilcox", "pratt"))
        check_choice("method", self.method, ("auto", "exact", "approx"))
        check_flag("correction", self.correction)
        object.__setattr__(self, "correction", bool(self.correction))

    @property
    def name(self) -> str:
        """The test's name among the pairwise tests: ``"wilcoxon"``."""
        return "wilcoxon"

    def options(self) -> dict[str, Any]:
        """The keyword arguments of the signed-rank test."""
        return dataclasses.asdict(self)


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
    of ``better`` (higher is better): the statistics of "b vs a", p-values
    and the statistics of "a vs b", with a progress bar over the pairs."""
    test = PAIRWISE_TESTS[method]
    bar = progress_bar(
        progress, int(first.size), "comparison_matrix", "pair",
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
