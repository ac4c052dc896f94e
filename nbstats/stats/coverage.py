"""Coverage of a score table with holes: where the missing cells are, which
algorithms to leave out to keep how many complete cases, and which analyses
use the incomplete table as it is."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nbstats.results.coverage import CoverageResult
from nbstats.scores.missing import MIN_PAIR_CASES, pairwise_counts
from nbstats.scores.table import incomplete_table
from nbstats.stats.coverage_search import best_left_out
from nbstats.util.checks import check_choice

__all__ = ["coverage", "missing_log_step", "omitted_coverage"]


def coverage(
    scores: pd.DataFrame | np.ndarray, *, method: str = "auto"
) -> CoverageResult:
    """Where a score table's holes are, and what leaving algorithms out buys.

    A case is *complete* when every algorithm has a score on it; the tests
    that rank all algorithms together (Friedman, Nemenyi, the CD diagram,
    rank intervals, the Bayesian Friedman test) use only complete cases, so
    ``nan_policy="omit"`` can leave few of them -- often the easy cases on
    which every slow method finished, a biased subset. Leaving out the
    algorithms with the most holes may keep many more cases for the others:
    :attr:`~nbstats.results.coverage.CoverageResult.tradeoff` says how many
    for each number of algorithms, and which to leave out. Other analyses use
    the incomplete table as it is
    (:attr:`~nbstats.results.coverage.CoverageResult.analyses`).

    The best set of ``d`` algorithms to leave out keeps the most cases whose
    missing algorithms all lie in it: a maximum-coverage (biclique-type)
    problem, NP-hard in general. It is solved exactly where that is cheap --
    by counting every subset of the algorithms with holes when there are at
    most 20 of them, else by an integer programme (HiGHS branch and bound)
    -- and by a greedy search where the programme does not finish within its
    node limit or the search's time budget (a few seconds in all); ``search``
    names the method and ``tradeoff["exact"]`` marks the rows proven optimal
    (see :mod:`nbstats.stats.coverage_search`).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms; NaN (or None,
        pd.NA) marks a missing score. Everything else is checked as by
        :func:`nbstats.score_table`.
    method : {"auto", "exact", "greedy"}
        The search of the trade-off: ``"auto"`` (exact where cheap, greedy
        past the node limit), ``"exact"`` (no node limit: every row proven,
        however long it takes) or ``"greedy"``.

    Returns
    -------
    CoverageResult
        ``per_algorithm`` (missing cells per algorithm, and the complete cases
        if it alone were left out), ``per_case`` (missing cells and algorithms
        per case), ``tradeoff`` (``n_algorithms``, ``n_cases``,
        ``n_left_out``, ``left_out``, ``exact``), ``analyses`` (the analyses
        that take incomplete data, and the cases each would use here), and
        ``summary()``, HTML, ``to_latex()`` (the trade-off table).

    Raises
    ------
    ValueError
        An unknown ``method``, or a table :func:`nbstats.score_table` refuses
        for anything but missing cells.

    See Also
    --------
    nbstats.skillings_mack, nbstats.durbin : omnibus tests of incomplete tables.
    nbstats.scores.missing : ``nan_policy="pairwise"``, each pair on its own cases.

    Examples
    --------
    >>> import numpy as np, nbstats
    >>> table = pd.DataFrame({"A": [0.9, 0.8, 0.7, 0.6], "B": [0.8, np.nan, 0.6, 0.5],
    ...                       "C": [0.7, 0.6, np.nan, np.nan],
    ...                       "D": [0.6, 0.5, 0.4, 0.3]})
    >>> res = nbstats.coverage(table)
    >>> res.n_complete, res.n_missing
    (1, 3)
    >>> res.tradeoff[["n_algorithms", "n_cases", "left_out"]]
       n_algorithms  n_cases left_out
    0             4        1       ()
    1             3        3     (C,)
    2             2        4   (B, C)
    >>> res.per_algorithm.loc["C", "missing"]
    np.int64(2)
    """
    check_choice("method", method, ("auto", "exact", "greedy"))
    table = incomplete_table(scores)
    names = list(table.columns)
    missing = table.isna().to_numpy()
    n, m = missing.shape
    frontier = best_left_out(missing, method=method)
    tradeoff = pd.DataFrame(
        {
            "n_algorithms": [m - len(d) for d in frontier.left_out],
            "n_cases": frontier.n_cases,
            "n_left_out": [len(d) for d in frontier.left_out],
            "left_out": [tuple(names[j] for j in d) for d in frontier.left_out],
            "exact": frontier.exact,
        }
    )
    complete_rows = ~missing.any(axis=1)
    return CoverageResult(
        n_cases=n,
        n_algorithms=m,
        n_missing=int(missing.sum()),
        n_complete=int(complete_rows.sum()),
        per_algorithm=_per_algorithm(table, missing),
        per_case=_per_case(table, missing),
        tradeoff=tradeoff,
        analyses=_analyses(table, missing),
        search=frontier.search,
    )


def _per_algorithm(table: pd.DataFrame, missing: np.ndarray) -> pd.DataFrame:
    n = len(table)
    others = missing.sum(axis=1, keepdims=True) - missing  # holes elsewhere
    alone = (others == 0).sum(axis=0)
    frame = pd.DataFrame(
        {
            "missing": missing.sum(axis=0),
            "present": n - missing.sum(axis=0),
            "missing_share": missing.mean(axis=0),
            "complete_if_left_out": alone,
        },
        index=table.columns.copy(),
    )
    order = np.argsort(-frame["missing"].to_numpy(), kind="stable")
    return frame.iloc[order]


def _per_case(table: pd.DataFrame, missing: np.ndarray) -> pd.DataFrame:
    names = list(table.columns)
    frame = pd.DataFrame(
        {
            "missing": missing.sum(axis=1),
            "present": (~missing).sum(axis=1),
            "missing_algorithms": [
                tuple(names[j] for j in np.flatnonzero(row)) for row in missing
            ],
        },
        index=table.index.copy(),
    )
    order = np.argsort(-frame["missing"].to_numpy(), kind="stable")
    return frame.iloc[order]


def _balanced(missing: np.ndarray) -> bool:
    """Whether the observed cells form a balanced incomplete block design
    (every case scores k < m algorithms, every algorithm r cases, every pair
    λ cases): the design Durbin's test needs."""
    present = (~missing).astype(np.int64)
    per_case = present.sum(axis=1)
    if len(set(per_case)) != 1 or per_case[0] in (0, 1, present.shape[1]):
        return False
    if len(set(present.sum(axis=0))) != 1:
        return False
    shared = present.T @ present
    return len(set(shared[np.triu_indices(present.shape[1], k=1)])) == 1


def _analyses(table: pd.DataFrame, missing: np.ndarray) -> pd.DataFrame:
    """The analyses that take the incomplete table, and the cases each uses."""
    n, m = missing.shape
    ranked = int(((~missing).sum(axis=1) >= 2).sum())
    counts = pairwise_counts(table).to_numpy()
    pairs = counts[np.triu_indices(m, k=1)]
    low, high = int(pairs.min()), int(pairs.max())
    short = int((pairs < MIN_PAIR_CASES).sum())
    pair_cases = (
        f"each pair on the cases where both have a score: {low}–{high} of {n}"
        if low != high
        else f"each pair on its {low} shared cases"
    ) + (f"; {short} pairs share fewer than {MIN_PAIR_CASES}" if short else "")
    ranked_cases = f"{ranked} of {n} cases (those with at least 2 scores)"
    durbin_cases = (
        f"all {n} cases (the design is balanced)"
        if _balanced(missing)
        else "not this table: it needs a balanced incomplete design"
    )
    rows = [
        ("Skillings–Mack test", "nbstats.skillings_mack(scores)", ranked_cases),
        ("Durbin test", "nbstats.durbin(scores)", durbin_cases),
        (
            "pairwise tests (Wilcoxon, sign, t)",
            "nbstats.comparison_matrix(scores, test='sign', nan_policy='pairwise')",
            pair_cases,
        ),
        (
            "comparison matrix",
            "nbstats.comparison_matrix(scores, nan_policy='pairwise')",
            pair_cases,
        ),
        (
            "Bayesian signed-rank of every pair",
            "nbstats.bayes_signrank_pairs(scores, nan_policy='pairwise')",
            pair_cases,
        ),
        (
            "rank intervals (pairwise Wilcoxon)",
            "nbstats.rank_ci(scores, method='id-wilcoxon-2s', nan_policy='pairwise')",
            pair_cases,
        ),
        (
            "Plackett–Luce partial rankings",
            "nbstats.bayes_plackett_luce(scores, nan_policy='partial')",
            ranked_cases,
        ),
    ]
    return pd.DataFrame(rows, columns=["analysis", "call", "cases"])


def omitted_coverage(
    scores: pd.DataFrame | np.ndarray, table: pd.DataFrame
) -> CoverageResult | None:
    """:func:`coverage` of ``scores`` when ``nan_policy="omit"`` dropped cases
    from them to make ``table`` (None when it dropped none)."""
    if len(table) == np.shape(scores)[0]:
        return None
    return coverage(scores)


def missing_log_step(result: CoverageResult) -> dict[str, str]:
    """The first step of :func:`nbstats.analyze`'s log with missing cells:
    which cases the analysis stands on."""
    n, complete = result.n_cases, result.n_complete
    return {
        "step": "missing scores",
        "choice": f"the {complete} complete cases of {n}",
        "reason": "nan_policy='omit' drops every case with a missing score"
        + (
            "; more than half of the cases are left out, and the complete ones "
            "may be a biased subset (see the coverage below: which algorithms "
            "to leave out to keep more cases)"
            if 2 * complete < n
            else " (see the coverage below)"
        ),
    }
