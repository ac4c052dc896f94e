"""Skillings–Mack test: Friedman's test for tables with missing cells."""

from __future__ import annotations

import itertools
import math
from typing import Literal

import numpy as np
import pandas as pd

from nbstats.results.incomplete import SkillingsMackResult
from nbstats.scores.missing import observed_mean_ranks
from nbstats.scores.ranks import rank_rows
from nbstats.scores.table import incomplete_table
from nbstats.util import scipy_stats as sps
from nbstats.util.checks import (
    check_choice,
    check_count,
    check_flag,
    check_random_state,
)
from nbstats.util.random import seed_sequence

__all__ = ["skillings_mack"]

Method = Literal["asymptotic", "permutation"]

#: Cells of one chunk of permutation draws (draws × cases × algorithms).
_CHUNK_CELLS = 2**21


def skillings_mack(
    scores: pd.DataFrame | np.ndarray,
    *,
    higher_is_better: bool = True,
    tie_correction: bool = False,
    method: Method = "asymptotic",
    n_resamples: int = 9999,
    random_state: object = None,
) -> SkillingsMackResult:
    """Skillings–Mack test: Friedman's test when some scores are missing.

    Skillings and Mack (1981) generalise Friedman's test to any pattern of
    missing cells. Case i with k_i scores ranks them 1..k_i (1 = best,
    average ranks for ties); each algorithm's *adjusted rank sum* is

    .. math::

        A_j = \\sum_i \\sqrt{12 / (k_i + 1)}\\,\\big(r_{ij} - (k_i + 1)/2\\big)

    (a missing cell contributes 0). Under the null hypothesis A has mean 0
    and covariance Σ with ``Σ_jl = −λ_jl`` and ``Σ_jj = Σ_{l≠j} λ_jl``, where
    λ_jl counts the cases in which both j and l have a score, and

    .. math::

        T = A^\\top \\Sigma^{-} A \\;\\dot\\sim\\; \\chi^2(m - 1)

    with Σ⁻ the generalised (Moore–Penrose) inverse. On a complete table T
    is Friedman's χ²_F; on a balanced incomplete block design it is Durbin's
    statistic (see :func:`nbstats.durbin`).

    Parameters
    ----------
    scores : DataFrame or 2-D array-like
        Score table, rows = cases, columns = algorithms, NaN for a missing
        score. Cases with fewer than two scores carry no information and are
        dropped (``n_dropped`` says how many).
    higher_is_better : bool
        Orients the ranks (1 = best) and so the sign of ``adjusted_sums``;
        T and its p-value do not depend on it.
    tie_correction : bool
        ``False`` (Skillings and Mack's Σ, the default): ties get average ranks
        and Σ is the covariance of untied ranks, which overstates the variance
        of tied ones, so the test is conservative with ties. ``True``: each
        case's part of Σ is scaled by ``1 − Σ(t³ − t)/(k_i³ − k_i)`` over its
        tie groups, the exact null covariance of its average ranks (Stata's
        ``skilmack, covariance``); on a complete table this is
        ``scipy.stats.friedmanchisquare`` and ``friedman(tie_correction=True)``.
    method : {"asymptotic", "permutation"}
        ``"asymptotic"``: p-value from χ²(df), a large-sample approximation,
        poor for few cases or many ties. ``"permutation"``: the permutation
        distribution of T, permuting each case's scores among its algorithms
        (the null hypothesis makes them exchangeable; ties stay ties). When
        the number of distinct arrangements ``Π k_i!`` is at most
        ``n_resamples`` every arrangement is enumerated and the p-value is
        exact; otherwise ``n_resamples`` random ones give
        ``(1 + #{T* ≥ T}) / (n_resamples + 1)`` (Skillings and Mack, and
        Chatfield and Mander 2009, recommend simulated p-values for small
        samples).
    n_resamples : int
        Random permutations for ``method="permutation"``.
    random_state : None, int or numpy Generator
        Seed of the random permutations.

    Returns
    -------
    SkillingsMackResult
        ``statistic, pvalue = result``; ``df``, ``adjusted_sums``,
        ``mean_ranks`` (for display), ``covariance``, ``n_cases`` (used),
        ``n_dropped``.

    Raises
    ------
    ValueError
        Fewer than two cases with two or more scores, an algorithm with no
        score in such a case, or algorithms that fall into groups never scored
        on a common case (then no test can compare the groups); anything
        :func:`nbstats.score_table` refuses other than missing scores.

    Notes
    -----
    ``df`` is m − 1 (the design must link every algorithm to every other
    through shared cases). With ``tie_correction=True`` a case whose scores
    all tie adds nothing to Σ; if that disconnects the design, ``df`` is the
    rank of Σ (m minus the number of groups), and T = 0, p = 1 when Σ = 0.

    References
    ----------
    Skillings, J. H. and Mack, G. A. (1981). On the use of a Friedman-type
    statistic in balanced and unbalanced block designs. *Technometrics*
    23(2), 171–177. Chatfield, M. and Mander, A. (2009). The Skillings–Mack
    test (Friedman test when there are missing data). *Stata Journal* 9(2),
    299–305.

    Examples
    --------
    Skillings and Mack's (1981) Table 1, four ways of assembling a product
    (lower times are better), with missing cells:

    >>> import numpy as np, pandas as pd
    >>> import nbstats
    >>> from nbstats.stats.frequentist.skillings_mack import skillings_mack
    >>> nan = np.nan
    >>> times = pd.DataFrame(
    ...     [[3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8],
    ...      [3.5, 3.6, 3.9, 4.0], [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, nan],
    ...      [nan, 4.2, 3.4, nan], [4.3, 4.6, 4.4, 4.9], [3.5, nan, 3.7, 3.9]],
    ...     columns=list("ABCD"))
    >>> res = skillings_mack(times, higher_is_better=False)
    >>> round(res.statistic, 3), res.df, round(res.pvalue, 5)
    (15.493, 3, 0.00144)

    On a complete table it is Friedman's test:

    >>> table = nbstats.datasets.load("demsar2006")
    >>> bool(np.isclose(skillings_mack(table).statistic,
    ...                 nbstats.friedman(table).statistic))
    True
    """
    check_flag("higher_is_better", higher_is_better)
    check_flag("tie_correction", tie_correction)
    check_choice("method", method, ("asymptotic", "permutation"))
    check_count("n_resamples", n_resamples)
    check_random_state(random_state)
    rng = None
    if method == "permutation":
        rng = np.random.default_rng(seed_sequence(random_state))
    table, present, ranks = observed_ranks(scores, higher_is_better=higher_is_better)
    counts = present.sum(axis=1)
    usable = counts >= 2
    n_dropped = int((~usable).sum())
    if usable.sum() < 2:
        raise ValueError(
            f"need at least 2 cases with 2 or more scores, got {int(usable.sum())}; "
            "a case with a single score cannot rank anything."
        )
    names = list(table.columns)
    used = table.loc[usable]
    present, ranks, counts = present[usable], ranks[usable], counts[usable]
    _check_design(present, names)

    k = counts.astype(float)
    centred = np.where(present, ranks - (k[:, None] + 1) / 2, 0.0)
    contributions = np.sqrt(12 / (k + 1))[:, None] * centred
    adjusted = contributions.sum(axis=0)

    weight = 1 - tie_sums(ranks, present) / (k**3 - k) if tie_correction else None
    covariance = _covariance(present, k, weight)
    groups = len(_components(present if weight is None else present[weight > 0]))
    df = present.shape[1] - groups
    inverse = _pseudo_inverse(covariance, df)
    statistic = _quadratic(adjusted, inverse) if df > 0 else 0.0

    exact = False
    resamples: int | None = None
    if df == 0 or statistic <= 0:
        statistic, pvalue = 0.0, 1.0
        if method == "permutation":
            resamples = 0
    elif method == "asymptotic":
        pvalue = float(sps.chi2.sf(statistic, df))
    else:
        pvalue, resamples, exact = _permutation_pvalue(
            statistic, contributions, present, inverse, n_resamples, rng
        )
    index = table.columns.copy()
    return SkillingsMackResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        df=int(df),
        adjusted_sums=pd.Series(adjusted, index=index, name="adjusted rank sum"),
        mean_ranks=observed_mean_ranks(used, higher_is_better=higher_is_better),
        cases_per_algorithm=pd.Series(
            present.sum(axis=0), index=index.copy(), name="cases"
        ),
        covariance=pd.DataFrame(covariance, index=index.copy(), columns=index.copy()),
        n_cases=int(usable.sum()),
        n_dropped=n_dropped,
        n_algorithms=len(names),
        n_missing=int((~present).sum()),
        tie_correction=bool(tie_correction),
        method=method,
        n_resamples=resamples,
        exact=exact,
        cases=used.index.copy(),
    )


def observed_ranks(
    scores: pd.DataFrame | np.ndarray, *, higher_is_better: bool
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Validate a table with missing cells; rank each case among its scores.

    Returns the validated table (NaN kept), the mask of present cells and the
    ranks (1 = best within the case's own scores, average ties; NaN where a
    score is missing). Ranks depend only on the order of the scores, so any
    finite scale is safe.
    """
    check_flag("higher_is_better", higher_is_better)
    table = incomplete_table(scores)
    values = table.to_numpy(dtype=float)
    present = ~np.isnan(values)
    # missing cells are made the worst scores, so the present ones of a case
    # with k scores take the ranks 1..k whatever the missing ones are
    worst = -np.inf if higher_is_better else np.inf
    ranks = rank_rows(
        np.where(present, values, worst), higher_is_better=higher_is_better
    )
    return table, present, np.where(present, ranks, np.nan)


def tie_sums(ranks: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Σ (t³ − t) over the groups of tied ranks of each row's present cells."""
    n, m = ranks.shape
    rows, cols = np.nonzero(present)
    keys = rows * (2 * (m + 1)) + np.rint(2 * ranks[rows, cols]).astype(np.int64)
    unique, size = np.unique(keys, return_counts=True)
    size = size.astype(float)
    return np.bincount(unique // (2 * (m + 1)), weights=size**3 - size, minlength=n)


def _covariance(
    present: np.ndarray, k: np.ndarray, weight: np.ndarray | None
) -> np.ndarray:
    """Σ = Σ_i w_i (k_i I − J) over each case's present algorithms.

    With ``w_i = 1`` the off-diagonal is −λ_jl and the diagonal Σ_l λ_jl.
    """
    p = present.astype(float)
    w = np.ones(len(k)) if weight is None else weight
    return np.diag(p.T @ (w * k)) - p.T @ (w[:, None] * p)


def _components(present: np.ndarray) -> list[list[int]]:
    """Groups of algorithms linked through shared cases (union–find)."""
    m = present.shape[1]
    parent = list(range(m))

    def find(j: int) -> int:
        while parent[j] != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        return j

    for row in present:
        cols = np.flatnonzero(row)
        for j in cols[1:]:
            a, b = find(int(cols[0])), find(int(j))
            if a != b:
                parent[b] = a
    groups: dict[int, list[int]] = {}
    for j in range(m):
        groups.setdefault(find(j), []).append(j)
    return list(groups.values())


def _check_design(present: np.ndarray, names: list[str]) -> None:
    absent = [names[j] for j in np.flatnonzero(~present.any(axis=0))]
    if absent:
        raise ValueError(
            f"algorithm(s) {absent} have no score in any case with 2 or more "
            "scores, so they cannot be ranked; drop those columns."
        )
    groups = _components(present)
    if len(groups) > 1:
        shown = "; ".join(
            "{" + ", ".join(str(names[j]) for j in g) + "}" for g in groups
        )
        raise ValueError(
            "the algorithms fall into groups never scored on a common case: "
            f"{shown}. No rank test can compare algorithms of different groups; "
            "test each group separately or add cases that link them."
        )


def _pseudo_inverse(covariance: np.ndarray, rank: int) -> np.ndarray:
    """Moore–Penrose inverse of a PSD matrix of known rank (its top eigenpairs)."""
    if rank == 0:
        return np.zeros_like(covariance)
    values, vectors = np.linalg.eigh(covariance)
    top, v = values[-rank:], vectors[:, -rank:]
    return (v / top) @ v.T


def _quadratic(a: np.ndarray, inverse: np.ndarray) -> float:
    return max(float(a @ inverse @ a), 0.0)  # rounding can give -1e-16


def _permutation_pvalue(
    statistic: float,
    contributions: np.ndarray,
    present: np.ndarray,
    inverse: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[float, int, bool]:
    """p-value of T over within-case permutations: exact if few, else random."""
    threshold = statistic * (1 - 1e-10)  # T* = T up to summation order counts
    total = _arrangements(present.sum(axis=1), n_resamples)
    if total is not None:
        sums = _all_sums(contributions, present)
        t = np.sum((sums @ inverse) * sums, axis=1)
        return float(np.mean(t >= threshold)), len(sums), True
    return _random_pvalue(threshold, contributions, present, inverse, n_resamples, rng)


def _random_pvalue(
    threshold: float,
    contributions: np.ndarray,
    present: np.ndarray,
    inverse: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[float, int, bool]:
    """``(1 + #{T* >= threshold}) / (n_resamples + 1)`` over random permutations.

    The cases with k scores are packed into an (n_k, k) block of their
    contributions; shuffling each row of the block (``Generator.permuted``)
    and adding it to the algorithms the row's cells belong to (a product with
    a 0/1 matrix) gives each draw's A.
    """
    m = present.shape[1]
    counts = present.sum(axis=1)
    blocks = []
    for k in np.unique(counts):
        rows = np.flatnonzero(counts == k)
        # the columns of each row's scores, in column order
        cols = np.argsort(~present[rows], axis=1, kind="stable")[:, :k]
        packed = np.take_along_axis(contributions[rows], cols, axis=1)
        onehot = np.zeros((packed.size, m))
        onehot[np.arange(packed.size), cols.ravel()] = 1.0
        blocks.append((packed, onehot))
    chunk = max(1, _CHUNK_CELLS // int(counts.sum()))
    hits = 0
    done = 0
    while done < n_resamples:
        size = min(chunk, n_resamples - done)
        sums = np.zeros((size, m))
        for packed, onehot in blocks:
            draws = np.broadcast_to(packed, (size, *packed.shape)).copy()
            rng.permuted(draws, axis=2, out=draws)
            sums += draws.reshape(size, -1) @ onehot
        t = np.sum((sums @ inverse) * sums, axis=1)
        hits += int(np.count_nonzero(t >= threshold))
        done += size
    return (hits + 1) / (n_resamples + 1), n_resamples, False


def _arrangements(k: np.ndarray, limit: int) -> int | None:
    """Π k_i! if at most ``limit``, else None (without overflowing)."""
    total = 1
    for ki in k:
        total *= math.factorial(int(ki))
        if total > limit:
            return None
    return total


def _all_sums(contributions: np.ndarray, present: np.ndarray) -> np.ndarray:
    """A for every arrangement of every case's scores (Π k_i! rows)."""
    m = present.shape[1]
    sums = np.zeros((1, m))
    for row, mask in zip(contributions, present, strict=True):
        cols = np.flatnonzero(mask)
        perms = np.array(list(itertools.permutations(row[cols])))
        placed = np.zeros((len(perms), m))
        placed[:, cols] = perms
        sums = (sums[:, None, :] + placed[None, :, :]).reshape(-1, m)
    return sums
