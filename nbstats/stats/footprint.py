"""Working memory of whole analyses, estimated before they start.

A report (:func:`nbstats.report`, ``nbstats report``,
``nbstats analyze``) or :func:`nbstats.analyze` on m algorithms computes
tables of every pair: m(m − 1)/2 rows of statistics, names and rendered
cells. At m = 1000 that is 499,500 pairs, and the report once ran for a
long time and past the memory ceiling before it failed (or not) inside its
notebook (``benchmarks/bench_report.py``).
The estimates here are upper bounds of the working memory (beyond the
interpreter and libraries) of each analysis from m, n and the draws, so a
size that cannot finish within the memory ceiling of
:mod:`nbstats.util.memory` is refused before any work, with what
would fit.

The bytes per pair were measured (tracemalloc, the peak of each analysis's
cells at 100 and 300 algorithms on 30 cases, and of the functions behind
them at 80 and 200; ``benchmarks/bench_memory.py``)
and rounded up; the Bayesian joint statements use
:func:`~nbstats.stats.bayes.posthoc.posthoc_memory`, their own bound.
"""

from __future__ import annotations

from collections.abc import Mapping

from nbstats.stats.bayes.posthoc import posthoc_memory
from nbstats.util.memory import get_memory_ceiling

__all__ = [
    "CASE_BYTES",
    "PAIR_BYTES",
    "SCORE_BYTES",
    "analysis_bytes",
    "check_analyses_fit",
    "scores_bytes",
]

#: Peak bytes per pair of algorithms of each analysis (measured, rounded up):
#: the frequentist one (Friedman, Nemenyi's and Holm's tables, their
#: rendering), the ranks' confidence intervals (a Wilcoxon test per pair),
#: the Bayesian pairs' table (kept beside the joint statements).
PAIR_BYTES = {"frequentist": 2_600, "ranks": 2_600, "bayesian": 600}


#: What a report's kernel holds per case and per score whatever the analyses
#: (the notebook's embedded scores, the case names, the score table and its
#: ranks), bytes: measured with ``benchmarks/bench_memory.py --only
#: cli_large_csv`` (10^5 and 10^6 cases of 3 algorithms, 3 * 10^5 of 10),
#: rounded up.
CASE_BYTES = 650
SCORE_BYTES = 120


def scores_bytes(n_algorithms: int, n_cases: int) -> int:
    """Memory a report's kernel needs for the scores themselves, bytes.

    Examples
    --------
    >>> scores_bytes(3, 10**6) // 2**20
    963
    """
    return int(n_cases) * (CASE_BYTES + int(n_algorithms) * SCORE_BYTES)


def _pairs(m: int) -> int:
    return m * (m - 1) // 2


def analysis_bytes(
    analysis: str,
    n_algorithms: int,
    n_cases: int,
    *,
    n_samples: int = 50_000,
    rope: float = 0.0,
    ceiling: int | None = None,
    prior: str = "idp",
) -> int:
    """Estimated working memory of one analysis of a report, bytes.

    ``analysis`` is ``"frequentist"``, ``"ranks"`` or ``"bayesian"`` (the
    pairs' signed-rank table and the joint statements of
    :func:`nbstats.bayes_posthoc` with the signed-rank ``prior``, whose
    blocks grow with ``ceiling``; the default ``"idp"`` is the report's
    and, with a rope, needs the most).

    Examples
    --------
    >>> analysis_bytes("frequentist", 1000, 30) > 512 * 2**20
    True
    >>> analysis_bytes("ranks", 50, 30) < 16 * 2**20
    True
    """
    m, n = int(n_algorithms), int(n_cases)
    pairs = _pairs(m)
    # the table itself and a few copies of it (ranks, sorted, rendered)
    table = 8 * m * n * 8
    if analysis == "bayesian":
        joint = (
            posthoc_memory(m, n, n_samples, "signrank", rope, ceiling, prior)
            if m > 2
            else 0
        )
        return table + PAIR_BYTES["bayesian"] * pairs + joint
    if analysis not in PAIR_BYTES:
        raise ValueError(
            f"unknown analysis {analysis!r}; choose any of {list(PAIR_BYTES)}."
        )
    return table + PAIR_BYTES[analysis] * pairs


def _largest_m(analysis: str, n: int, budget: int, **options: object) -> int:
    """The most algorithms whose ``analysis`` fits ``budget`` bytes (0: none)."""
    low, high = 0, 2
    while analysis_bytes(analysis, high, n, **options) <= budget and high < 10**7:
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        if analysis_bytes(analysis, middle, n, **options) <= budget:
            low = middle
        else:
            high = middle
    return low


def _fits_alone(
    name: str, m: int, n: int, ceiling: int, options: Mapping[str, object]
) -> str:
    """What of ``name`` alone fits the ceiling, in words ('' if not known)."""
    if name == "scores":
        per_case = CASE_BYTES + int(m) * SCORE_BYTES
        return f" (at most {ceiling // per_case:,} cases of {m:,} algorithms fit)"
    if name in PAIR_BYTES:
        most = _largest_m(name, n, ceiling, **options)
        return f" (fits up to {most:,} algorithms alone)"
    return ""


def check_analyses_fit(
    analyses: Mapping[str, int],
    n_algorithms: int,
    n_cases: int,
    *,
    what: str,
    fixes: str,
    options: Mapping[str, object] | None = None,
) -> None:
    """Refuse, before any work, analyses whose estimates (``analyses``:
    name → bytes, e.g. from :func:`analysis_bytes`) together exceed the
    memory ceiling; the message names each analysis, its estimate, the
    ceiling, the most algorithms each would fit, and ``fixes``.

    Examples
    --------
    >>> check_analyses_fit({"ranks": 2**40}, 10**6, 30, what="the report",
    ...                    fixes="use fewer")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the report of 1,000,000 algorithms x 30 cases needs about ...
    """
    ceiling = get_memory_ceiling()
    total = sum(analyses.values())
    if total <= ceiling:
        return
    # the joint statements' blocks grow with the ceiling: sized at this one
    fit = {**dict(options or {}), "ceiling": ceiling}
    parts = "; ".join(
        f"{name}: about {-(-int(size) // 2**20):,} MB"
        + _fits_alone(name, n_algorithms, n_cases, ceiling, fit)
        for name, size in sorted(analyses.items(), key=lambda item: -item[1])
    )
    raise ValueError(
        f"{what} of {n_algorithms:,} algorithms x {n_cases:,} cases needs about "
        f"{-(-total // 2**20):,} MB of working memory ({parts}), over the memory "
        f"ceiling of {ceiling // 2**20:,} MB; refused before starting. "
        f"{fixes}, or raise the ceiling (the environment variable "
        "NBSTATS_MAX_MEMORY, e.g. NBSTATS_MAX_MEMORY=4G, or "
        "nbstats.set_memory_ceiling; the process needs about 200 MB more)."
    )
