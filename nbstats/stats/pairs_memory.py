"""Working memory of the functions that compare every pair of algorithms.

A post-hoc test, a comparison matrix or the ranks' confidence intervals on
m algorithms keep m(m − 1)/2 tested pairs and several m × m tables; at
m = 1000 on 30 cases that was about 1 GB. Each function estimates its own
peak from m, n and its size arguments (an upper bound: the bytes per pair
measured with :mod:`tracemalloc` at 100 to 400 algorithms on 30 cases and
rounded up, see ``tests/reliability/test_ceiling_everywhere.py``) and refuses,
before any work, what cannot fit under the memory ceiling of
:mod:`nbstats.util.memory`, saying how many algorithms (or resamples)
would fit and the fixes.
"""

from __future__ import annotations

from collections.abc import Callable

from nbstats.util.memory import check_fits, get_memory_ceiling

__all__ = [
    "PAIR_COST",
    "bootstrap_bytes",
    "check_bootstrap_fits",
    "check_pairs_fit",
    "pairs_bytes",
]

#: Peak bytes of each computation (measured, rounded up) per pair of
#: algorithms and per cell (a case of a pair) of its working blocks: the
#: post-hoc tests (z-tests on ranks and Conover's t-tests; the paired tests
#: of every pair: their vectors, the m × m matrices of the result, groups;
#: the effect sizes in blocks of cells), the comparison matrix (a post-hoc
#: test, then its records, effects and words), Tukey's HSD (alone, and on
#: the global ranks beside the ranks' intervals' frames), the ranks'
#: confidence intervals (their directed decisions and p-value frames; the
#: Wilcoxon tests rank their differences in blocks of cells) and the
#: Bayesian signed-rank pairs' table.
PAIR_COST: dict[str, tuple[int, int]] = {
    "posthoc": (100, 80),
    "posthoc_tests": (300, 80),
    "comparison_matrix": (1_000, 80),
    "tukey": (300, 0),
    "rank_ci_tukey": (600, 0),
    "rank_ci": (110, 0),
    "rank_ci_wilcoxon": (400, 100),
    "rank_ci_wilcoxon_one_sided": (600, 100),
    "bayes_signrank_pairs": (320, 8),
}
#: Bytes per score of the table and its few copies (ranks, oriented, sorted).
_SCORE_BYTES = 64


def pairs_bytes(
    computation: str, n_algorithms: int, n_cases: int, block_cells: int = 0
) -> int:
    """Estimated peak working memory of ``computation`` (a key of
    :data:`PAIR_COST`) on ``n_algorithms`` x ``n_cases`` scores, bytes;
    ``block_cells`` is the most cells (cases x pairs) of one of its blocks.

    Examples
    --------
    >>> pairs_bytes("posthoc", 1000, 30) > 40 * 2**20
    True
    """
    m, n = int(n_algorithms), int(n_cases)
    pairs = m * (m - 1) // 2
    per_pair, per_cell = PAIR_COST[computation]
    cells = min(pairs * n, int(block_cells))
    return per_pair * pairs + per_cell * cells + _SCORE_BYTES * m * n


def _largest(need: Callable[[int], int], budget: int, low: int = 0) -> int:
    """The largest x >= ``low`` with ``need(x) <= budget`` (need increasing)."""
    high = max(2, low + 1)
    while need(high) <= budget and high < 2**40:
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        if need(middle) <= budget:
            low = middle
        else:
            high = middle
    return low


def check_pairs_fit(
    computation: str,
    n_algorithms: int,
    n_cases: int,
    *,
    what: str,
    fix: str,
    block_cells: int = 0,
) -> None:
    """Refuse, before any work, ``computation`` on a table that cannot fit
    under the memory ceiling: a ValueError that names the need, the ceiling,
    the most algorithms that fit and ``fix``.

    Examples
    --------
    >>> from nbstats.util.memory import memory_ceiling
    >>> with memory_ceiling("16M"):
    ...     check_pairs_fit("posthoc", 5000, 30, what="posthoc()",
    ...                     fix="compare fewer")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the 12,497,500 pairs of posthoc() on 5,000 algorithms x 30 cases ...
    """
    m, n = int(n_algorithms), int(n_cases)
    need = pairs_bytes(computation, m, n, block_cells)
    ceiling = get_memory_ceiling()
    if need <= ceiling:
        return
    most = _largest(lambda k: pairs_bytes(computation, k, n, block_cells), ceiling)
    check_fits(
        need,
        f"the {m * (m - 1) // 2:,} pairs of {what} on {m:,} algorithms x {n:,} cases",
        f"at most {most:,} algorithms of {n:,} cases fit. Compare fewer "
        f"algorithms{fix}, or raise the ceiling (e.g. NBSTATS_MAX_MEMORY=4G; "
        "the process needs about 200 MB more)",
    )


def bootstrap_bytes(
    n_algorithms: int, n_cases: int, n_resamples: int, block: int
) -> int:
    """Estimated peak of the bootstrap's rank intervals, bytes: the resampled
    rows (``n_resamples`` x ``n_cases`` indices), the means and both ranks
    of every resample (``n_resamples`` x ``n_algorithms``, with
    :func:`scipy.stats.rankdata`'s sort), and one ``block`` of gathered
    scores (bytes).

    Examples
    --------
    >>> bootstrap_bytes(1000, 30, 1000, 2**20) // 2**20
    57
    """
    m, n, b = int(n_algorithms), int(n_cases), int(n_resamples)
    return b * n * 8 + b * m * 56 + 2 * int(block) + _SCORE_BYTES * m * n


def check_bootstrap_fits(
    n_algorithms: int, n_cases: int, n_resamples: int, block: int
) -> None:
    """Refuse, before any draw, a bootstrap that cannot fit under the
    ceiling, naming the most resamples that would fit.

    Examples
    --------
    >>> from nbstats.util.memory import memory_ceiling
    >>> with memory_ceiling("16M"):
    ...     check_bootstrap_fits(1000, 30, 10**6, 2**20)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the resamples of rank_ci(method='bootstrap') with ...
    """
    m, n, b = int(n_algorithms), int(n_cases), int(n_resamples)
    need = bootstrap_bytes(m, n, b, block)
    if need <= get_memory_ceiling():
        return
    most = _largest(lambda r: bootstrap_bytes(m, n, r, block), get_memory_ceiling())
    check_fits(
        need,
        f"the resamples of rank_ci(method='bootstrap') with n_resamples={b:,} "
        f"on {m:,} algorithms x {n:,} cases",
        f"at most n_resamples={most:,} fit; use fewer resamples or "
        "algorithms, or raise the ceiling (e.g. NBSTATS_MAX_MEMORY=4G)",
    )
