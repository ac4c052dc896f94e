"""Which cases each number of a report stands on.

A score table with holes is analysed on more than one set of cases: the
analyses that rank every algorithm on the same cases (mean ranks, Friedman,
Nemenyi, Holm, the Bayesian Friedman test, the joint Bayesian statements)
use the cases with a score from every algorithm; under
``nan_policy="pairwise"`` Skillings and Mack's test, each pair's tests (and
the joint statements read from the pairs' draws,
``bayes_signrank_pairs(..., joint=True)``) and the Plackett–Luce ranking
use every case as it is. This module writes what
the report says about it: the counts (:class:`CaseCounts`), the sentence of
the answer-first part with its warning when most cases were left out
(:func:`core_cases`), the case set of each column of Table 1
(:func:`table_one_cases`), and the Methods sentences, one per analysis
(:func:`methods_cases`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from nbstats.results.prose import Alt, Paragraph

__all__ = [
    "BIASED_SHARE",
    "CaseCounts",
    "biased_caution",
    "case_counts",
    "core_cases",
    "methods_cases",
    "pair_case_range",
    "table_one_cases",
]

#: The command that shows the holes and the trade-off, in each format.
_COVERAGE = Alt(
    "The command 'nbstats coverage'",
    "The command <code>nbstats coverage</code>",
    "The command \\texttt{nbstats coverage}",
)

#: When the complete cases are fewer than this share of all the cases, the
#: report's first page warns that they may be a biased subset.
BIASED_SHARE = 0.5


@dataclasses.dataclass(frozen=True)
class CaseCounts:
    """How many cases a table has, how many are complete, and its holes.

    Attributes
    ----------
    n_all : int
        Cases in the table as given.
    n_complete : int
        Cases with a score from every algorithm.
    holes : Series
        Missing scores per algorithm, only those with at least one, most
        first (ties in column order).
    n_missing : int
        Missing scores in all.
    """

    n_all: int
    n_complete: int
    holes: pd.Series
    n_missing: int

    @property
    def n_left_out(self) -> int:
        """Cases with at least one missing score."""
        return self.n_all - self.n_complete

    @property
    def mostly_left_out(self) -> bool:
        """Whether the complete cases are fewer than :data:`BIASED_SHARE` of all."""
        return self.n_complete < BIASED_SHARE * self.n_all


def case_counts(raw: pd.DataFrame) -> CaseCounts:
    """The counts of a score table with holes (NaN = missing).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> raw = pd.DataFrame({"A": [1.0, 2, np.nan], "B": [1.0, np.nan, np.nan],
    ...                     "C": [3.0, 1, 2]})
    >>> c = case_counts(raw)
    >>> c.n_all, c.n_complete, c.n_left_out, c.holes.to_dict()
    (3, 1, 2, {'B': 2, 'A': 1})
    """
    missing = raw.isna()
    per_algorithm = missing.sum(axis=0)
    holes = per_algorithm[per_algorithm > 0]
    order = np.lexsort((np.arange(len(holes)), -holes.to_numpy()))
    return CaseCounts(
        n_all=len(raw),
        n_complete=int((~missing.any(axis=1)).sum()),
        holes=holes.iloc[order].astype(int),
        n_missing=int(missing.to_numpy().sum()),
    )


def pair_case_range(raw: pd.DataFrame) -> tuple[int, int]:
    """The fewest and the most cases any pair of algorithms shares (both
    scores present): the cases of each pair's tests under
    ``nan_policy="pairwise"``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> raw = pd.DataFrame({"A": [1.0, 2, np.nan], "B": [1.0, np.nan, 3],
    ...                     "C": [3.0, 1, 2]})
    >>> pair_case_range(raw)
    (1, 2)
    """
    present = raw.notna().to_numpy(dtype=float)
    shared = present.T @ present
    upper = shared[np.triu_indices(shared.shape[0], k=1)]
    return int(upper.min()), int(upper.max())


def _count(n: int) -> str:
    return f"{n:,}"


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def table_one_cases(
    counts: CaseCounts, nan_policy: str, plackett_luce: Any = None
) -> tuple[str, str]:
    """The case sets of Table 1, in words: (the cases of the mean rank, mean
    score and letters; those of P(best) and the expected rank).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> raw = pd.DataFrame({"A": [1.0, 2, np.nan], "B": [1.0, 3, 2]})
    >>> ranked, bayes = table_one_cases(case_counts(raw), "omit")
    >>> ranked
    'over the 2 complete cases (of 3: the 1 with a missing score left out)'
    >>> bayes
    'on the same 2 cases'
    """
    if counts.n_left_out == 0:
        return f"over the {_count(counts.n_all)} cases", "on the same cases"
    ranked = (
        f"over the {_count(counts.n_complete)} complete cases (of "
        f"{_count(counts.n_all)}: the {_count(counts.n_left_out)} with a "
        "missing score left out)"
    )
    if nan_policy == "pairwise" and plackett_luce is not None:
        n_pl = plackett_luce.n_cases
        of = "all" if n_pl == counts.n_all else f"{_count(n_pl)} of the"
        pl = (
            f"on {of} {_count(counts.n_all)} cases, missing scores included: "
            "each case ranks only the algorithms with a score on it"
        )
        if plackett_luce.n_left_out:
            pl += f" ({plackett_luce.n_left_out} with fewer than two scores left out)"
        return ranked, pl
    return ranked, f"on the same {_count(counts.n_complete)} cases"


def core_cases(
    counts: CaseCounts,
    nan_policy: str,
    *,
    n_algorithms: int,
    plackett_luce: Any = None,
    frequentist: bool = True,
) -> Paragraph:
    """The answer-first part's sentences on the cases: how many were
    complete, how many left out, how many algorithms had holes (Table 1's
    column ``missing`` names them), which analyses use which cases
    (``frequentist``: the report has Friedman, Nemenyi and Figure 1), and —
    when the complete cases are fewer than half — the risk of a biased
    subset (empty when no score is missing)."""
    para = Paragraph()
    if counts.n_left_out == 0:
        return para
    left = counts.n_left_out
    para.add(
        f"Of the {_count(counts.n_all)} cases, {_count(counts.n_complete)} "
        f"have a score from every algorithm and {_count(left)} have at least "
        f"one missing score. "
    )
    k = len(counts.holes)
    para.add(
        f"{k} of the {n_algorithms} algorithms have missing scores "
        f"({_count(counts.n_missing)} in all; Table 1's column missing counts "
        "each algorithm's). "
    )
    ranked = (
        "The mean ranks"
        + (
            ", the groups, the Friedman and Nemenyi tests and Figure 1"
            if frequentist
            else ""
        )
        + f" use the {_count(counts.n_complete)} complete cases only"
    )
    if nan_policy == "pairwise" and plackett_luce is not None:
        para.add(
            ranked + "; P(best) and the expected rank (Plackett–Luce) use "
            f"{_count(plackett_luce.n_cases)} cases, each ranking only the "
            "algorithms with a score on it. "
        )
    else:
        para.add(ranked + " (nan_policy = 'omit': the others are left out). ")
    para.add(*biased_caution(counts).pieces)
    return para


def biased_caution(counts: CaseCounts) -> Paragraph:
    """The first page's caution when the complete cases are fewer than
    :data:`BIASED_SHARE` of all (empty otherwise)."""
    if not counts.mostly_left_out:
        return Paragraph()
    return Paragraph().add(
        f"Caution: more than half of the cases ({_count(counts.n_left_out)} of "
        f"{_count(counts.n_all)}) are left out of the complete-case "
        "analyses: the cases every algorithm finished (often the small or "
        "easy ones) may be a biased subset. ",
        _COVERAGE,
        " shows which algorithms to leave out to keep more complete cases. ",
    )


def methods_cases(
    para: Paragraph,
    raw: pd.DataFrame,
    *,
    nan_policy: str,
    friedman: Any = None,
    nemenyi: Any = None,
    holm: Any = None,
    bayes_friedman: Any = None,
    joint: Any = None,
    skillings_mack: Any = None,
    signrank: Any = None,
    rank_ci: Any = None,
    plackett_luce: Any = None,
) -> None:
    """Add the Methods sentences on the cases, one per kind of analysis:
    which cases each used and how many were left out (nothing when no score
    is missing). The counts are read from the results themselves."""
    counts = case_counts(raw)
    if counts.n_left_out == 0:
        return
    # the pairs' table of many algorithms; a single pair's result has none
    pairs = getattr(signrank, "pairs", None)
    per_pair = pairs is not None and "n" in pairs
    if signrank is not None and pairs is None:
        signrank = None  # two algorithms: the complete cases, as every test
    # joint statements read from the pairs' own draws: each on its pair's cases
    joint_per_pair = (
        per_pair and joint is not None and joint is getattr(signrank, "joint", None)
    )
    n_all = _count(counts.n_all)
    para.add(
        f"Of the {n_all} cases, {_count(counts.n_complete)} have a score from "
        f"every algorithm; {_count(counts.n_left_out)} have at least one "
        f"missing score ({_count(counts.n_missing)} missing "
        f"{'score' if counts.n_missing == 1 else 'scores'}, from "
        f"{len(counts.holes)} "
        f"{'algorithm' if len(counts.holes) == 1 else 'algorithms'}). "
    )
    complete = [
        (friedman, "the Friedman and Iman–Davenport tests"),
        (nemenyi, "the Nemenyi test and the critical-difference diagram"),
        (holm, "Holm's procedure"),
        (bayes_friedman, "the Bayesian Friedman test"),
        (None if joint_per_pair else joint, "the joint Bayesian statements"),
        (
            None if rank_ci is None or rank_ci.incomplete else rank_ci,
            "the rank intervals",
        ),
        (
            None if plackett_luce is None or plackett_luce.n_partial else plackett_luce,
            "the Plackett–Luce ranking",
        ),
        (
            None if signrank is None or per_pair else signrank,
            "the Bayesian signed-rank tests",
        ),
    ]
    names = [what for result, what in complete if result is not None]
    if not names and (nan_policy != "pairwise" or raw.shape[1] == 2):
        # two algorithms, or "omit": every test is on the complete cases
        names = ["every analysis"]
    used = {
        len(result.cases)
        for result, _ in complete
        if result is not None and getattr(result, "cases", None) is not None
    }
    if names:  # the analyses of every algorithm at once
        n_used = _count(used.pop()) if len(used) == 1 else _count(counts.n_complete)
        listed = _and(names)
        para.add(
            f"{listed[:1].upper() + listed[1:]} used the {n_used} "
            f"complete cases only (the {_count(counts.n_left_out)} others left "
            "out" + (", nan_policy = 'omit'" if nan_policy == "omit" else "") + "). "
        )
    if nan_policy != "pairwise":
        return
    low, high = pair_case_range(raw)
    shared = f"from {_count(low)} to {_count(high)} cases per pair"
    if skillings_mack is not None:
        para.add(
            f"Skillings and Mack's test used {_count(skillings_mack.n_cases)} "
            "cases, missing scores included"
            + (
                f" ({skillings_mack.n_dropped} with fewer than two scores left out)"
                if skillings_mack.n_dropped
                else ""
            )
            + ". "
        )
    if per_pair:
        n = pairs["n"]
        para.add(
            "Each pair's Bayesian signed-rank test"
            + (" and its joint statement" if joint_per_pair else "")
            + " used the cases where both "
            f"algorithms have a score (from {_count(int(n.min()))} to "
            f"{_count(int(n.max()))} cases per pair, median "
            f"{_count(int(np.median(n)))}). "
        )
    if rank_ci is not None and rank_ci.incomplete:
        para.add(
            "The rank intervals' Wilcoxon tests likewise used each pair's "
            f"shared cases ({shared}), after Skillings and Mack's test on "
            f"{_count(len(rank_ci.cases))} cases. "
        )
    if plackett_luce is not None and plackett_luce.n_partial:
        para.add(
            f"The Plackett–Luce ranking used {_count(plackett_luce.n_cases)} "
            f"cases, {_count(plackett_luce.n_partial)} of them partial "
            "rankings of the algorithms with a score on them"
            + (
                f" ({plackett_luce.n_left_out} with fewer than two scores left out)"
                if plackett_luce.n_left_out
                else ""
            )
            + ". "
        )
